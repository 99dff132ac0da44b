#!/usr/bin/env python3
"""Pet-story V1 data for `make bench` and bench/compare-outputs.sh. Two modes:
  gen_pets.py OUT_DIR MB            a folder laid out like the app's Documents folder, with about MB
                                    megabytes of media (deterministic pseudo-random bytes behind real
                                    JPEG/MP4 signatures): the bundle pack/unpack cases
  gen_pets.py --records N OUT_FILE  a V1 dataset envelope of N stories without media, tagging
                                    N/10 members of one profile: the record cases (V2 is Ferry's
                                    migration of it, as SCHEMAS.md defines V2 by the mapping)
Deterministic: the same arguments give the same bytes."""
import json, os, random, sys

def media_folder(out, mb):
    rnd = random.Random(11)
    os.makedirs(out, exist_ok=True)
    stories, written, i = [], 0, 0
    chunk = bytes(rnd.getrandbits(8) for _ in range(1 << 20))
    while written < mb << 20:
        sid, size = f"s{i:05d}", (8 << 20 if i % 10 == 0 else 1 << 20)
        ext, head = ("mp4", b"\x00\x00\x00\x18ftypmp42") if i % 10 == 0 else ("jpg", b"\xff\xd8\xff\xe0")
        os.makedirs(f"{out}/Stories/{sid}", exist_ok=True)
        with open(f"{out}/Stories/{sid}/m{i}.{ext}", "wb") as f:
            f.write(head)
            left = size - len(head)
            while left > 0:
                f.write(chunk[:min(left, len(chunk))]); left -= len(chunk)
        stories.append({"id": sid, "caption": f"story {i}", "createdAt": "2024-01-01T00:00:00Z",
                        "mediaContentIds": [f"m{i}"], "taggedMemberIds": []})
        written += size; i += 1
    data = {"domain": "pet-story", "schemaVersion": 1, "profiles": [], "members": [], "stories": stories}
    with open(f"{out}/export.json", "w") as f:
        json.dump(data, f)

def records(n, out):
    rnd = random.Random(12)
    kinds, sexes = ["dog", "cat", "bird"], ["female", "male"]
    captions = ["First snow walk ❄️", "ピヨの水浴び", "nap time", "산책", "new toy, \"squeaky\"", "at the vet;\nall fine"]
    profiles = [{"id": "p00000", "name": "하나네 가족", "createdAt": "2023-01-10T10:00:00Z",
                 "lastUpdatedAt": "2024-06-01T12:00:00Z"}]
    members = []
    for m in range(max(1, n // 10)):
        members.append({"id": f"m{m:06d}", "name": f"Pet {m}", "since": f"20{10 + m % 14:02d}-04-03",
                        "birthDate": f"20{10 + m % 14:02d}-01-0{1 + m % 9}T15:00:00Z", "type": rnd.choice(kinds),
                        "sex": rnd.choice(sexes), "bio": rnd.choice(["", "시바견. 산책을 좋아해요.", "セキセイインコ"]),
                        "createdAt": "2023-01-10T10:05:00Z"})
    stories = []
    for s in range(n):
        story = {"id": f"s{s:07d}", "caption": rnd.choice(captions),
                 "createdAt": f"2024-{1 + s % 12:02d}-{1 + s % 28:02d}T08:{s % 60:02d}:00Z", "mediaContentIds": []}
        if s % 3 == 0:
            story.update({"songId": "spotify:track:4uLU6hMCjMI75M1A2tKUQC",
                          "lat": round(rnd.uniform(-80, 80), 4), "lng": round(rnd.uniform(-170, 170), 4)})
        story["taggedMemberIds"] = [f"m{rnd.randrange(len(members)):06d}" for _ in range(rnd.randint(0, 2))]
        stories.append(story)
    data = {"domain": "pet-story", "schemaVersion": 1, "profiles": profiles, "members": members, "stories": stories}
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    with open(out, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False)
        f.write("\n")

if sys.argv[1] == "--records":
    records(int(sys.argv[2]), sys.argv[3])
else:
    media_folder(sys.argv[1], int(sys.argv[2]))
