#!/usr/bin/env python3
"""Writes a pet-story V1 folder laid out like the app's Documents folder, with about MB megabytes
of media (deterministic pseudo-random bytes behind real JPEG/MP4 signatures), for `make bench`.
Usage: gen_pets.py OUT_DIR MB"""
import json, os, random, sys

def main():
    out, mb = sys.argv[1], int(sys.argv[2])
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

main()
