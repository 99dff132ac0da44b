#!/usr/bin/env bash
# Writes the data matrix that bench/run.sh (ONLY=matrix) and bench/compare-outputs.sh run on:
# each domain at V1 and V2 in every format Ferry reads, from deterministic generators.
# Usage: bash bench/gen_matrix.sh FERRY OUT_DIR RECORDS [--errors]
#   e.g.   bash bench/gen_matrix.sh .build/debug/ferry /tmp/matrix 300 --errors
#   FERRY     the ferry binary that derives the formats (a build of the base ref in the comparison)
#   RECORDS   records of the main collection: wine notes, stories, words (vocabulary: RECORDS/100
#             word books of 100 words; at least one book)
#   --errors  also writes broken copies of every file but the bundle with CSV members: one with a
#             duplicated id (invalid data, exit 1) and one cut at 60% of its bytes (malformed input,
#             exit 3); of a CSV folder, its largest file is the one broken
# Environment: SHARED, the folder holding gen_notes.py (default ../shared/bench beside the
#   checkout; set it when the checkout is elsewhere: SHARED=/path/to/shared/bench; the shared
#   folder itself, SHARED=/path/to/shared, is taken to mean its bench/).
# Writes OUT_DIR/<domain>-v<N>.{json,jsonl,xml,tar} and <domain>-v<N>-csv/ (one <collection>.csv a
# collection) for domain in notes, pet-story, vocabulary; vocabulary-node-firestore-v1.json and
# vocabulary-backup-restore-v1.json (Firestore exports are V1 only); with --errors also
# <name>.dup-id.<ext> and <name>.cut.<ext>, a bundle with CSV members (<domain>-v<N>-csv.tar), and
# of each JSON document and JSON Lines file a copy with its keys sorted (<name>.sorted-keys.<ext>)
# and that copy with the duplicated id (<name>.sorted-keys.dup-id.<ext>).
# V1 comes from the generators (../shared/bench/gen_notes.py, bench/gen_pets.py,
# bench/gen_vocabulary.py); V2 is FERRY's migration of V1 (SCHEMAS.md defines V2 by the mapping);
# the other formats are FERRY's conversions of the JSON document. SOURCE_DATE_EPOCH is fixed so that
# bundles are the same bytes on every run.
set -euo pipefail
if [ $# -lt 3 ] || { [ $# -eq 4 ] && [ "$4" != --errors ]; }; then
  echo "usage: bash bench/gen_matrix.sh FERRY OUT_DIR RECORDS [--errors]" >&2
  exit 2
fi
FERRY=$1 OUT=$2 RECORDS=$3 ERRORS=${4:-}
HERE=$(cd "$(dirname "$0")" && pwd)
SHARED=${SHARED:-$HERE/../../shared/bench}
if [ ! -f "$SHARED/gen_notes.py" ] && [ -f "$SHARED/bench/gen_notes.py" ]; then SHARED=$SHARED/bench; fi
if [ ! -f "$SHARED/gen_notes.py" ]; then
  echo "gen_matrix.sh: $SHARED/gen_notes.py not found; set SHARED to the folder that holds it (shared/bench)" >&2
  exit 2
fi
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-1700000000}
mkdir -p "$OUT"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

mkdir -p "$tmp/notes"
python3 "$SHARED/gen_notes.py" "$RECORDS" "$tmp/notes" --version 1 >/dev/null
cp "$tmp/notes/notes.json" "$OUT/notes-v1.json"
python3 "$HERE/gen_pets.py" --records "$RECORDS" "$OUT/pet-story-v1.json"
books=$(( RECORDS / 100 > 0 ? RECORDS / 100 : 1 ))
python3 "$HERE/gen_vocabulary.py" "$tmp/voc" "$books" $(( RECORDS / books ))
cp "$tmp/voc/flat.json" "$OUT/vocabulary-v1.json"
cp "$tmp/voc/node-firestore.json" "$OUT/vocabulary-node-firestore-v1.json"
cp "$tmp/voc/backup-restore.json" "$OUT/vocabulary-backup-restore-v1.json"

for domain in notes pet-story vocabulary; do
  "$FERRY" migrate "$OUT/$domain-v1.json" --to-version 2 -o "$OUT/$domain-v2.json" --quiet
  for v in 1 2; do
    base="$OUT/$domain-v$v"
    rm -rf "$base-csv" "$base.jsonl" "$base.xml" "$base.tar"
    "$FERRY" convert "$base.json" -o "$base.jsonl" --quiet
    "$FERRY" convert "$base.json" --to csv -o "$base-csv/" --quiet
    "$FERRY" convert "$base.json" -o "$base.xml" --quiet
    "$FERRY" convert "$base.json" -o "$base.tar" --quiet
  done
done
[ "$ERRORS" = --errors ] || exit 0

# Broken copies. A duplicated id: the second id of the file (the first token of the id shapes the
# generators write that differs from the first one) is replaced, at its first occurrence, by the
# first: the same edit in every format. A cut: the first 60% of the bytes.
break_file() {  # SOURCE DUP_TARGET CUT_TARGET
  python3 - "$1" "$2" "$3" <<'PY'
import re, sys
src, dup, cut = sys.argv[1:]
data = open(src, "rb").read()
shape = re.compile(rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|w-\d{5}-\d{5}|s\d{7}")
ids = []
for m in shape.finditer(data):
    if m.group() not in ids:
        ids.append(m.group())
    if len(ids) == 2:
        break
if len(ids) == 2:
    open(dup, "wb").write(data.replace(ids[1], ids[0], 1))
open(cut, "wb").write(data[: len(data) * 6 // 10])
PY
}
for domain in notes pet-story vocabulary; do
  for v in 1 2; do
    base="$OUT/$domain-v$v"
    for ext in json jsonl xml; do break_file "$base.$ext" "$base.dup-id.$ext" "$base.cut.$ext"; done
    # A CSV folder with one broken member: the main collection's file (the largest).
    main=$(ls -S "$base-csv" | head -1)
    for kind in dup-id cut; do rm -rf "$base-csv.$kind"; cp -r "$base-csv" "$base-csv.$kind"; done
    break_file "$base-csv/$main" "$base-csv.dup-id/$main" "$base-csv.cut/$main"
    # Bundles: one with CSV members, one whose JSON member has the duplicated id (packed by
    # Python's tarfile with fixed metadata; the manifest's checksum of that member no longer matches),
    # and the tar cut short.
    rm -rf "$base-csv.tar" "$tmp/b"
    "$FERRY" convert "$base.json" --data-format csv -o "$base-csv.tar" --quiet
    "$FERRY" convert "$base.json" --data-format json -o "$tmp/b/" --quiet
    member=$(cd "$tmp/b" && find . -type f -name '*.json' ! -name 'manifest.json' -printf '%s %P\n' | sort -rn | head -1 | cut -d' ' -f2)
    break_file "$tmp/b/$member" "$tmp/b/$member.new" "$tmp/cut"
    mv "$tmp/b/$member.new" "$tmp/b/$member"
    python3 - "$tmp/b" "$base.dup-id.tar" <<'PY'
import os, sys, tarfile
root, out = sys.argv[1:]
with tarfile.open(out, "w", format=tarfile.PAX_FORMAT) as tar:
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(folder, name)
            info = tar.gettarinfo(path, os.path.relpath(path, root))
            info.mtime, info.uid, info.gid, info.uname, info.gname, info.mode = 1700000000, 0, 0, "", "", 0o644
            with open(path, "rb") as f:
                tar.addfile(info, f)
PY
    head -c $(( $(stat -c %s "$base.tar") * 6 / 10 )) "$base.tar" > "$base.cut.tar"
  done
done
for layout in node-firestore backup-restore; do
  base="$OUT/vocabulary-$layout-v1"
  break_file "$base.json" "$base.dup-id.json" "$base.cut.json"
done

# The same records with every object's keys sorted, as `jq -S`, `JSONEncoder`'s `.sortedKeys` or
# Python's `sort_keys` write them (a Firestore export lists its fields in no fixed order either),
# and a copy of each with the duplicated id.
for name in notes-v1 notes-v2 pet-story-v1 pet-story-v2 vocabulary-v1 vocabulary-v2 vocabulary-node-firestore-v1 vocabulary-backup-restore-v1; do
  for ext in json jsonl; do
    [ -f "$OUT/$name.$ext" ] || continue
    python3 "$HERE/sort_keys.py" "$OUT/$name.$ext" "$OUT/$name.sorted-keys.$ext"
    break_file "$OUT/$name.sorted-keys.$ext" "$OUT/$name.sorted-keys.dup-id.$ext" "$tmp/cut"
  done
done
