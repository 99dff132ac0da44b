#!/bin/sh
# Builds the fuzz targets with libFuzzer and AddressSanitizer and runs each for SECONDS seconds
# (`make fuzz SECONDS=N`). Fails on the first target that reports a crash, trap, leak or timeout;
# the input that did it is left in $WORK/<target>/artifacts/ and named in the output.
#
# Seeds are copied from Samples/, Fuzz/seeds/ and ../shared/corpus/ (when present) into a work
# folder outside the repository: the corpus is never committed.
set -eu
SECONDS_PER_TARGET=${1:-60}
TARGETS=${TARGETS:-"FuzzJSON FuzzJSONLines FuzzCSV FuzzXML FuzzBundle FuzzFilter FuzzNotes FuzzPetStory FuzzVocabulary"}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
CORPUS=$(dirname "$ROOT")/shared/corpus
WORK=${WORK:-${TMPDIR:-/tmp}/ferry-fuzz-work}
SWIFT=${SWIFT:-swift}

cd "$HERE"
"$SWIFT" build -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library 2>&1 \
    | grep -v "Cannot export local symbol" || true
BIN=$("$SWIFT" build -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library --show-bin-path)
for target in $TARGETS; do
    [ -x "$BIN/$target" ] || { echo "fuzz: $target was not built" >&2; exit 1; }
done

# seed TARGET PATTERN...: copies files matching the name patterns (at most 256 KiB each).
seed() {
    dir="$WORK/$1/corpus"; shift
    mkdir -p "$dir"
    for pattern in "$@"; do
        for folder in "$ROOT/Samples" "$CORPUS" "$WORK/matrix"; do
            [ -d "$folder" ] || continue
            find "$folder" -type f -name "$pattern" -size -256k | while read -r file; do
                cp "$file" "$dir/$(printf '%s' "$file" | cksum | cut -d' ' -f1)-$(basename "$file")"
            done
        done
    done
}
rm -rf "$WORK"
# Every domain at V1 and V2 in every format, small, from a built ferry when there is one.
if [ -x "$ROOT/.build/debug/ferry" ]; then
    bash "$ROOT/bench/gen_matrix.sh" "$ROOT/.build/debug/ferry" "$WORK/matrix" 12 >/dev/null 2>&1 || true
fi
seed FuzzJSON '*.json'
seed FuzzJSONLines '*.json' '*.jsonl'
seed FuzzCSV '*.csv' '*.tsv'
seed FuzzXML '*.xml'
seed FuzzBundle '*.tar' '*.tar.gz' '*.tgz' '*.bz2'
# The domains' whole-path targets start from their samples and the generated matrix files.
seed FuzzNotes 'notes*.json' 'notes*.jsonl' 'notes*.xml' '*Notes.csv' 'wineTastingNotes.csv'
seed FuzzPetStory 'pet-story*.json' 'pet-story*.jsonl' 'pet-story*.xml' 'profiles.csv' 'members.csv' 'stories.csv' 'Profile.json' 'Stories.json'
seed FuzzVocabulary 'vocabulary*.json' 'vocabulary*.jsonl' 'vocabulary*.xml' 'words.csv' 'wordBooks.csv'
mkdir -p "$WORK/FuzzFilter/corpus" && cp "$HERE"/seeds/filter/* "$WORK/FuzzFilter/corpus/"

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}"
export LSAN_OPTIONS="suppressions=$HERE/lsan.supp:print_suppressions=0"
status=0
for target in $TARGETS; do
    mkdir -p "$WORK/$target/artifacts"
    echo "fuzz: $target for $SECONDS_PER_TARGET s"
    if "$BIN/$target" -max_total_time="$SECONDS_PER_TARGET" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -print_final_stats=1 -artifact_prefix="$WORK/$target/artifacts/" "$WORK/$target/corpus" \
        > "$WORK/$target/log.txt" 2>&1; then
        grep -E "stat::number_of_executed_units|Done [0-9]+ runs" "$WORK/$target/log.txt" | sed "s/^/fuzz: $target: /"
    else
        echo "fuzz: $target FAILED; log: $WORK/$target/log.txt" >&2
        grep -E "ERROR|Fatal error|SUMMARY|Test unit written|ALARM|leak" "$WORK/$target/log.txt" | head -20 >&2
        status=1
    fi
done
exit $status
