#!/usr/bin/env bash
# make bench: Ferry against Miller, jq and bsdtar on the same data, in the same run.
# Each case runs Ferry and its peer alternately, RUNS times; the table gives medians, the ratio
# peer/Ferry (above 1: Ferry is faster) and Ferry's peak RSS from /usr/bin/time -v.
# Environment: BENCH_RECORDS (default 1000000), BENCH_MEDIA_MB (default 2048), RUNS (default 3),
# BENCH_DIR (default bench/data, git-ignored), JOBS (Ferry's --jobs, default: the core count),
# SHARED (default ../shared/bench: where gen_notes.py is; the shared folder itself is taken to
# mean its bench/, as bench/gen_matrix.sh takes it), BENCH_BOOKS and BENCH_WORDS (the
# Firestore cases' word books and words per book, default 200 and 1000), ONLY (one section:
# notes, memory, firestore, bundle, stats, diff or matrix; default all; bench/results.md then keeps
# the last full run's tables and puts this run's rows under "## ONLY=<section> run", in place of
# that section's previous such block; the matrix is a table of its own, which an ONLY=matrix run
# replaces, with its size and runs in its heading: a run at a small MATRIX_RECORDS is not one to
# commit), MATRIX_RECORDS and MATRIX_RUNS (the matrix: bench/matrix.sh),
# BENCH_BUILD=0 (measure the release binary already built).
set -euo pipefail
cd "$(dirname "$0")/.."
RECORDS=${BENCH_RECORDS:-1000000}
MEDIA_MB=${BENCH_MEDIA_MB:-2048}
RUNS=${RUNS:-3}
JOBS=${JOBS:-$(nproc)}
DATA=${BENCH_DIR:-bench/data}
SHARED=${SHARED:-../shared/bench}   # the data generator gen_notes.py (the repository's sibling shared/)
if [ ! -f "$SHARED/gen_notes.py" ] && [ -f "$SHARED/bench/gen_notes.py" ]; then SHARED=$SHARED/bench; fi
FERRY=.build/release/ferry
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
BOOKS=${BENCH_BOOKS:-200}
WORDS=${BENCH_WORDS:-1000}
# runs SECTION: true when ONLY is unset or names SECTION.
runs() { [ -z "${ONLY:-}" ] || [ "$ONLY" = "$1" ]; }

need=""
command -v mlr >/dev/null || need="$need miller"
command -v jq >/dev/null || need="$need jq"
command -v bsdtar >/dev/null || need="$need libarchive-tools"
[ -x /usr/bin/time ] || need="$need time"
command -v xmllint >/dev/null || need="$need libxml2-utils"
if [ -n "$need" ]; then $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $need; fi

if { runs notes || runs matrix || runs stats || runs diff; } && [ ! -f "$SHARED/gen_notes.py" ]; then
  echo "make bench: $SHARED/gen_notes.py not found; set SHARED to the folder that holds it (shared/bench beside this repository)" >&2
  exit 2
fi
# The release binary as Makefile's `release` builds it: the Swift runtime and Foundation linked in
# (no dynamic relocation of their data at start: about 6 MB less resident memory, faster start).
# BENCH_BUILD=0: measure the .build/release/ferry already there (while a test run holds the build lock).
if [ "${BENCH_BUILD:-1}" != 0 ] || [ ! -x "$FERRY" ]; then
  echo "building the release binary (swift build -c release --static-swift-stdlib; a few minutes the first time) ..."
  swift build -c release --product ferry --static-swift-stdlib >/dev/null
fi
mkdir -p "$DATA/v1" "$DATA/v2" "$DATA/out"
if { runs notes || runs stats || runs diff; } && { [ ! -f "$DATA/v2/notes.jsonl" ] || [ "$(cat "$DATA/records" 2>/dev/null)" != "$RECORDS" ]; }; then
  echo "generating $RECORDS notes (V1 and V2) with $SHARED/gen_notes.py ..."
  rm -f "$DATA/v2/x4.csv" "$DATA/v2/big.xml"  # derived from the old size
  python3 "$SHARED/gen_notes.py" "$RECORDS" "$DATA/v2" --version 2
  python3 "$SHARED/gen_notes.py" "$RECORDS" "$DATA/v1" --version 1
  echo "$RECORDS" > "$DATA/records"
fi
CSV="$DATA/v2/wineTastingNotes.csv"
JSONL="$DATA/v2/notes.jsonl"
V1JSONL="$DATA/v1/notes.jsonl"
OUT="$DATA/out"

# The jq program doing the V1 -> V2 field mapping of SCHEMAS.md for wine notes (the peer of `ferry migrate`).
JQ_MIGRATE='if has("$collection") then
  {"$collection": "wineTastingNotes", id, title, category, createdAt}
  + (if .imageData then {imageData} else {} end)
  + {alcoholByVolume: .alcohol,
     look: (.look | (index(",")) as $i | if $i then {tint: (.[:$i] | gsub("^\\s+|\\s+$"; "")), note: (.[$i+1:] | gsub("^\\s+|\\s+$"; ""))} else {tint: (. | gsub("^\\s+|\\s+$"; "")), note: ""} end),
     smells: [.smells[] | {label: .}], tastes, grape: {variety: .grape}, think, rating, isFavorite}
else .schemaVersion = 2 end'

results=()   # rows: case|ferry|peer|ratio|rss|note
matrix_rows=()   # the matrix section's rows (bench/matrix.sh)

# measure CMD...: prints "seconds rss_kb cpu_seconds" for one run (stdout of CMD discarded);
# cpu_seconds is user + system time, which other load on the machine disturbs less than wall time.
# Each run starts with the outputs of its tool's earlier runs removed and the disk's dirty pages
# written out (`rm -rf CLEAR; sync`, not timed), so that no run pays for the writeback of the one
# before (bundle unpack and bsdtar -xf write 2 GB each), nor for freeing its blocks: this disk is
# mounted with `discard`, and removing a 450 MB file takes about 0.4 s, which the next run paid (in
# a rename over the old output, or a shell's truncation of it).
# measure CLEAR CMD: prints "seconds rss_kb cpu_seconds ok|failed" for one run of CMD (its stdout
# discarded, its stderr appended to $OUT/stderr.log); CLEAR is a list of paths, or "".
measure() {
  local clear=$1 cmd=$2 tmp status=ok; tmp=$(mktemp)
  # shellcheck disable=SC2086  # a list of paths
  if [ -n "$clear" ]; then rm -rf $clear; fi
  sync
  # Wall time from the clock in nanoseconds: time's own "Elapsed" counts in steps of 10 ms, 5-7% of
  # the sub-second cells of the matrix.
  local start end
  start=$(date +%s%N)
  /usr/bin/time -v -o "$tmp" bash -c "$cmd" >/dev/null 2>>"$OUT/stderr.log" || { echo "FAILED: $cmd" >&2; status=failed; }
  end=$(date +%s%N)
  local secs rss cpu
  secs=$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.3f", (b - a) / 1e9}')
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$tmp")
  cpu=$(awk -F': ' '/User time|System time/ {s+=$2} END {printf "%.2f", s}' "$tmp")
  rm -f "$tmp"
  echo "$secs $rss $cpu $status"
}

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# target_check RATIO RATE RSS_MB MIN_RATIO MIN_RATE FAILED: "met" or "not met: <what>" for issue
# 7's targets (ratio and rate minimums when given; peak RSS under 64 MB for every case; no run
# failed).
target_check() {
  local ratio=$1 rate=$2 rss=$3 min_ratio=$4 min_rate=$5 failed=$6 miss=()
  if [ "$failed" -gt 0 ]; then miss+=("$failed runs failed (bench/data/out/stderr.log)"); fi
  if [ -n "$min_ratio" ] && awk -v r="$ratio" -v m="$min_ratio" 'BEGIN {exit !(r < m)}'; then miss+=("ratio < $min_ratio"); fi
  if [ -n "$min_rate" ] && awk -v r="$rate" -v m="$min_rate" 'BEGIN {exit !(r < m)}'; then miss+=("rate < $min_rate/s"); fi
  local max_rss=${MAX_RSS_MB:-64}
  if [ "$rss" -ge "$max_rss" ]; then miss+=("RSS >= $max_rss MB"); fi
  if [ -n "${MAX_SECONDS:-}" ] && awk -v s="$SECONDS_MEDIAN" -v m="$MAX_SECONDS" 'BEGIN {exit !(s > m)}'; then miss+=("time > ${MAX_SECONDS}s"); fi
  if [ -n "${SAME_RSS_AS:-}" ] && awk -v a="$rss" -v b="$SAME_RSS_AS" 'BEGIN {exit !(a > b * 1.1 + 1)}'; then miss+=("RSS grew from $SAME_RSS_AS MB"); fi
  if [ ${#miss[@]} -eq 0 ]; then echo "met"; else local IFS=,; echo "not met: ${miss[*]}"; fi
}

# bench NAME FERRY_CMD PEER_CMD [records] [min ratio] [min records/s]
# (In the environment: SAME_RSS_AS=MB: the peak RSS must not grow beyond that case's;
# MAX_SECONDS=S: Ferry's median wall time must not exceed S;
# MAX_RSS_MB: the case's peak RSS target, default 64; VALUE_MB: the size of the one value the
# case converts, to print peak RSS as a multiple of it;
# FERRY_OUT, PEER_OUT: the paths each command writes, removed before each of its runs, untimed.)
bench() {
  local name=$1 ferry_cmd=$2 peer_cmd=$3 records=${4:-} min_ratio=${5:-} min_rate=${6:-}
  local f=() p=() r=() c=() failed=0 ok
  for _ in $(seq "$RUNS"); do
    read -r s rss cpu ok <<<"$(measure "${FERRY_OUT:-}" "$ferry_cmd")"; f+=("$s"); r+=("$rss"); c+=("$cpu")
    [ "$ok" = ok ] || failed=$((failed + 1))
    if [ -n "$peer_cmd" ]; then
      read -r s _ _ ok <<<"$(measure "${PEER_OUT:-}" "$peer_cmd")"; p+=("$s")
      [ "$ok" = ok ] || failed=$((failed + 1))
    fi
  done
  local fm pm ratio rssm cm note=""
  fm=$(median "${f[@]}"); rssm=$(median "${r[@]}"); cm=$(median "${c[@]}")
  if [ -n "$peer_cmd" ]; then pm=$(median "${p[@]}"); ratio=$(awk -v a="$pm" -v b="$fm" 'BEGIN {printf "%.2f", (b > 0 ? a / b : 0)}'); else pm="-"; ratio="-"; fi
  local rate=0
  if [ -n "$records" ]; then
    rate=$(awk -v n="$records" -v s="$fm" 'BEGIN {printf "%.0f", (s > 0 ? n / s : 0)}'); note="$rate records/s"
  fi
  local rssmb; rssmb=$(awk -v k="$rssm" 'BEGIN {printf "%.0f", k / 1024}')
  if [ -n "${VALUE_MB:-}" ]; then note="peak RSS $(awk -v r="$rssmb" -v v="$VALUE_MB" 'BEGIN {printf "%.2f", r / v}')x the value"; fi
  LAST_RSS=$rssmb
  LAST_SECONDS=$fm
  SECONDS_MEDIAN=$fm
  local target; target=$(target_check "$ratio" "$rate" "$rssmb" "$min_ratio" "$min_rate" "$failed")
  results+=("$name|$fm|$cm|$pm|$ratio|$rssmb MB|$note|$target")
  local peer_text="peer ${pm}s, ratio $ratio"; [ "$pm" = "-" ] && peer_text="no peer"
  echo "  $name: ferry ${fm}s (cpu ${cm}s), $peer_text, rss $rssmb MB $note: target $target"
}

LOAD_AT_START=$(cut -d' ' -f1-3 /proc/loadavg)
[ "${ONLY:-}" = matrix ] || echo "running $RUNS runs per case on $(nproc) cores (load $LOAD_AT_START) ..."
if runs notes; then
FERRY_OUT="$OUT/a.jsonl" PEER_OUT="$OUT/b.jsonl" bench "CSV -> JSON Lines (mlr --icsv --ojsonl cat)" \
  "$FERRY convert $CSV --to jsonl -o $OUT/a.jsonl --quiet --jobs $JOBS" "mlr --icsv --ojsonl cat $CSV > $OUT/b.jsonl" "$RECORDS" 10
FERRY_OUT="$OUT/a.csv" PEER_OUT="$OUT/b.csv" bench "JSON Lines -> CSV (mlr --ijsonl --ocsv unsparsify)" \
  "$FERRY convert $JSONL --to csv -o $OUT/a.csv --quiet --jobs $JOBS" "mlr --ijsonl --ocsv unsparsify $JSONL > $OUT/b.csv" "$RECORDS" 10
PEER_OUT="$OUT/b2.jsonl" bench "JSON Lines validation (jq -c .)" \
  "$FERRY validate $JSONL --quiet --jobs $JOBS" "jq -c . $JSONL > $OUT/b2.jsonl" "$RECORDS" 3
FERRY_OUT="$OUT/m.jsonl" PEER_OUT="$OUT/m2.jsonl" bench "V1 -> V2 migration, JSON Lines (jq mapping)" \
  "$FERRY migrate $V1JSONL --to-version 2 -o $OUT/m.jsonl --quiet --jobs $JOBS" "jq -c '$JQ_MIGRATE' $V1JSONL > $OUT/m2.jsonl" "$RECORDS" 5 250000
bench "validate V2 set (JSON document)" "$FERRY validate $DATA/v2/notes.json --quiet --jobs $JOBS" "" "$RECORDS"

# Peak memory must not grow with the input: CSV -> JSON Lines at 1x and 4x. The 4x file repeats
# the 1x records, so both are read under neutral names (x1.csv, x4.csv: no domain detected from
# the name) and converted schema-free: the same work per record at both sizes. (A domain run also
# keeps every id for the uniqueness check, about 30 MB per million unique ids: the rows above.)
if [ ! -f "$DATA/v2/x4.csv" ]; then
  { cat "$CSV"; for _ in 1 2 3; do tail -n +2 "$CSV"; done; } > "$DATA/v2/x4.csv"
fi
ln -sf "$(basename "$CSV")" "$DATA/v2/x1.csv"
FERRY_OUT="$OUT/a.jsonl" bench "memory: CSV -> JSON Lines, schema-free, at 1x" "$FERRY convert $DATA/v2/x1.csv --to jsonl -o $OUT/a.jsonl --quiet" "" "$RECORDS"
FERRY_OUT="$OUT/a4.jsonl" SAME_RSS_AS=$LAST_RSS bench "memory: CSV -> JSON Lines, schema-free, at 4x" "$FERRY convert $DATA/v2/x4.csv --to jsonl -o $OUT/a4.jsonl --quiet" "" "$((RECORDS * 4))"

# XML: a large generated document streams with flat memory (issue: XML adapter).
if [ ! -f "$DATA/v2/big.xml" ]; then $FERRY convert "$JSONL" --to xml -o "$DATA/v2/big.xml" --quiet || true; fi
if [ -f "$DATA/v2/big.xml" ]; then
  FERRY_OUT="$OUT/x.jsonl" bench "XML ($(du -m "$DATA/v2/big.xml" | cut -f1) MB) -> JSON Lines" "$FERRY convert $DATA/v2/big.xml --to jsonl -o $OUT/x.jsonl --quiet" "" "$RECORDS"
fi

fi

if runs memory; then
# One long value: a record whose string is 250 MB. Converting it may cost about twice the value
# (the reader's bytes of the record and the decoded string); the target is CSV under 600 MB.
# JSON Lines, the JSON document and XML are measured against the same figure.
LONG="$DATA/long-string.json"
if [ ! -f "$LONG" ]; then
  $FERRY migrate Samples/notes-v1.json --to-version 2 -o "$DATA/long-base.json" --quiet
  python3 - "$DATA/long-base.json" "$LONG" <<'PY'
import json, sys
note = json.load(open(sys.argv[1]))["wineTastingNotes"][0]
note.pop("imageData", None)
note["think"] = "@@"
before, after = json.dumps({"domain": "notes", "schemaVersion": 2, "wineTastingNotes": [note]}).split('"@@"')
with open(sys.argv[2], "w") as out:
    out.write(before + '"')
    for _ in range(250):
        out.write("x" * 1000000)
    out.write('"' + after)
PY
fi
for to in csv jsonl json xml; do
  FERRY_OUT="$OUT/long.$to" MAX_RSS_MB=600 VALUE_MB=250 bench "memory: one 250 MB string, notes V2 JSON -> $to" \
    "$FERRY convert $LONG -o $OUT/long.$to --quiet" "" ""
done
rm -f "$OUT"/long.*
fi

# Firestore exports (vocabulary V1): BOOKS word books of WORDS words in each export layout,
# migrated to V2 against the same words in the flat envelope (the peer: ratio = flat seconds /
# layout seconds, at least 0.667 = at most 1.5x the flat time), then at 4x the books (at most
# 4.6x the 1x time: linear, not quadratic; peak RSS at most twice the flat envelope's at the
# same size). gen_vocabulary.py writes compact JSON; the three migrate to the same bytes.
if runs firestore; then
  VOC="$DATA/vocabulary"
  for scale in 1 4; do
    if [ ! -f "$VOC/x$scale/node-firestore.json" ] || [ "$(cat "$VOC/x$scale/size" 2>/dev/null)" != "$BOOKS $WORDS" ]; then
      echo "generating $((BOOKS * scale)) word books x $WORDS words with bench/gen_vocabulary.py ..."
      python3 bench/gen_vocabulary.py "$VOC/x$scale" "$((BOOKS * scale))" "$WORDS"
      echo "$BOOKS $WORDS" > "$VOC/x$scale/size"
    fi
  done
  # Memory: the documents are streamed, so a layout's peak RSS is the flat envelope's (the id
  # table, which grows with the words) and the id table's packed pointers of nested documents
  # (about 30 bytes a word): at most twice the flat envelope's; the flat rows measure it.
  FERRY_OUT="$OUT/flat.json" MAX_RSS_MB=100000 bench "vocabulary V1 -> V2, flat envelope, $BOOKS x $WORDS words" \
    "$FERRY migrate $VOC/x1/flat.json --to-version 2 -o $OUT/flat.json --quiet" "" "$((BOOKS * WORDS))"
  flat_rss=$LAST_RSS
  FERRY_OUT="$OUT/flat-4.json" MAX_RSS_MB=100000 bench "vocabulary V1 -> V2, flat envelope, at 4x" \
    "$FERRY migrate $VOC/x4/flat.json --to-version 2 -o $OUT/flat-4.json --quiet" "" "$((BOOKS * WORDS * 4))"
  flat4_rss=$LAST_RSS
  for layout in node-firestore backup-restore; do
    FERRY_OUT="$OUT/$layout.json" PEER_OUT="$OUT/flat.json" MAX_RSS_MB=$((flat_rss * 2)) bench \
      "vocabulary V1 -> V2, $layout layout, $BOOKS x $WORDS words (peer: the same words flat)" \
      "$FERRY migrate $VOC/x1/$layout.json --to-version 2 -o $OUT/$layout.json --quiet" \
      "$FERRY migrate $VOC/x1/flat.json --to-version 2 -o $OUT/flat.json --quiet" "$((BOOKS * WORDS))" 0.667
    limit=$(awk -v s="$LAST_SECONDS" 'BEGIN {printf "%.2f", s * 4.6}')
    FERRY_OUT="$OUT/$layout-4.json" MAX_RSS_MB=$((flat4_rss * 2)) MAX_SECONDS=$limit bench \
      "vocabulary V1 -> V2, $layout layout, at 4x ($((BOOKS * 4)) x $WORDS words)" \
      "$FERRY migrate $VOC/x4/$layout.json --to-version 2 -o $OUT/$layout-4.json --quiet" "" "$((BOOKS * WORDS * 4))"
  done
fi

if runs bundle; then
# Bundles: pack and unpack a pet-story folder with MEDIA_MB of media, against bsdtar.
MEDIA="$DATA/pets"
if [ ! -d "$MEDIA/Stories" ] || [ "$(cat "$DATA/media-mb" 2>/dev/null)" != "$MEDIA_MB" ]; then
  python3 bench/gen_pets.py "$MEDIA" "$MEDIA_MB"
  echo "$MEDIA_MB" > "$DATA/media-mb"
fi
rm -rf "$OUT/pets.tar" "$OUT/unpacked" "$OUT/unpacked-bsdtar"
FERRY_OUT="$OUT/pets.tar" PEER_OUT="$OUT/b.tar" bench "bundle pack ${MEDIA_MB} MB (bsdtar -cf)" \
  "$FERRY convert $MEDIA -o $OUT/pets.tar --quiet" "bsdtar -cf $OUT/b.tar -C $MEDIA ." "" 0.769
FERRY_OUT="$OUT/unpacked" PEER_OUT="$OUT/ub" bench "bundle unpack ${MEDIA_MB} MB (bsdtar -xf)" \
  "$FERRY convert $OUT/pets.tar -o $OUT/unpacked/ --quiet" "mkdir -p $OUT/ub; bsdtar -xf $OUT/b.tar -C $OUT/ub" "" 0.769
fi

if runs diff; then
# Diff: RECORDS V2 notes against a copy with every 100th record's rating changed (1%): `ferry diff`
# finds them all (exit 1: different). No peer knows the schema; memory holds the id tables only.
CHANGED="$DATA/v2/notes-1pct.jsonl"
if [ ! -f "$CHANGED" ] || [ "$CHANGED" -ot "$JSONL" ]; then
  python3 - "$JSONL" "$CHANGED" <<'PY'
import json, sys
with open(sys.argv[1], encoding="utf-8") as src, open(sys.argv[2], "w", encoding="utf-8") as out:
    for n, line in enumerate(src):
        if n > 0 and n % 100 == 0:
            record = json.loads(line)
            record["rating"] = 4.5 if record.get("rating") == 5 else 5
            line = json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
        out.write(line)
PY
fi
MAX_RSS_MB=1024 bench "diff ${RECORDS} notes vs 1% changed (no peer)" \
  "$FERRY diff $JSONL $CHANGED --quiet; test \$? -eq 1" "" "$RECORDS"
fi

# ferry stats: one pass over the generated notes (JSON Lines, read through the domain) in bounded
# memory: per field at most 100,000 distinct hashes, then a 16 KiB HyperLogLog (Docs/stats.md).
# Peer: Miller's summary of the same file (it keeps every value for its percentiles).
if runs stats; then
  MAX_RSS_MB=${STATS_MAX_RSS_MB:-128} bench "stats of $RECORDS notes, JSON Lines (mlr summary)" \
    "$FERRY stats $JSONL --report json --quiet" "mlr --ijsonl --ojson summary $JSONL" "$RECORDS"
fi

if runs matrix; then
  # shellcheck source=bench/matrix.sh
  source bench/matrix.sh
fi

# bench/results.md: this run's sections; a section this run left out keeps its last rows.
prev_top="" prev_matrix=""
if [ -f bench/results.md ]; then
  prev_top=$(sed '/^## The matrix/,$d' bench/results.md)
  prev_matrix=$(sed -n '/^## The matrix/,$p' bench/results.md)
fi
{
if [ ${#results[@]} -eq 0 ]; then printf '%s\n' "$prev_top"
elif [ -n "${ONLY:-}" ]; then
  # One section: the last full run's table stays as it was, and this run's rows replace the block
  # of the previous run of the same section (a block runs from its heading to the next heading).
  printf '%s\n' "$prev_top" | awk -v h="## ONLY=$ONLY run" '$0 == h {skip = 1; next} skip && /^## / {skip = 0} !skip'
  echo "## ONLY=$ONLY run"
  echo
  echo "Date: $(date -u +%Y-%m-%d); runs per case: $RUNS (median); load average (1, 5, 15 min) at the start: $LOAD_AT_START; at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
  echo
  echo "| case | Ferry s | Ferry CPU s | peer s | ratio | Ferry peak RSS | rate | target |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
  for row in "${results[@]}"; do echo "| ${row//|/ | } |"; done
  echo
else
  echo "# Benchmark results"
  echo
  echo "Machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; date: $(date -u +%Y-%m-%d); records: $RECORDS; runs per case: $RUNS (median)."
  echo "Peers: $(mlr --version 2>&1 | head -1), $(jq --version), $(bsdtar --version | head -1)."
  echo "Ferry runs with --jobs $JOBS (JSON Lines and CSV inputs are processed on $JOBS worker threads; JSON documents, XML and bundles are read record by record)."
  echo "Load average (1, 5, 15 min) when the run started: $LOAD_AT_START; when it ended: $(cut -d' ' -f1-3 /proc/loadavg) (other work on these cores slows every figure)."
  echo "Ratio = peer wall seconds / Ferry wall seconds (above 1: Ferry is faster). CPU = Ferry's user + system seconds. Every run starts with its tool's earlier outputs removed and a \`sync\` (neither timed)."
  echo "RSS = Ferry's peak resident memory. All figures are medians over the runs."
  echo
  echo "The first five cases are domain runs (wine notes, validated as SCHEMAS.md says); they keep every id for the uniqueness check (about 30 MB per million unique ids)."
  echo "Target: issue 7's \"Done when\" for the case (ratio and rate minimums; 0.769 = within 1.3x of bsdtar's time; RSS under 64 MB everywhere but the one-long-string rows, under 600 MB there, and at 4x the same as at 1x: within 10% + 1 MB, the spread of peak RSS between runs)."
  echo
  echo "| case | Ferry s | Ferry CPU s | peer s | ratio | Ferry peak RSS | rate | target |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
  for row in "${results[@]}"; do echo "| ${row//|/ | } |"; done
  echo
fi
if [ ${#matrix_rows[@]} -eq 0 ]; then printf '%s\n' "$prev_matrix"; else
  echo "## The matrix (bench/matrix.sh)"
  echo
  echo "Machine: $(nproc) cores; date: $(date -u +%Y-%m-%d); $MN records of each domain's main collection at 1x (wine notes, stories, words), 4x generated the same way; $MRUNS runs a cell (median), $MPAIRED of each cell in turn with notes' (the 70% floor) and of each JSON document's --jobs 1 with its --jobs $JOBS; wall times from the clock in nanoseconds; Ferry with --jobs $JOBS."
  echo "Load average (1, 5, 15 min) at the start of the run: $LOAD_AT_START; at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
  echo "Peers: $("$JAQ" --version), DuckDB $("$VENV/bin/python" -c 'import duckdb; print(duckdb.__version__)') (Python package), $(xmllint --version 2>&1 | head -1), $(bsdtar --version | cut -d' ' -f1-2)."
  echo "Work: validate the V2 file; migrate the V1 file to V2 in its own format; convert the V2 file to JSON Lines (Firestore exports are V1: all three on the V1 file). CSV is a folder of one file a collection. Records: every record of the file, all collections."
  echo "4x ratio: the median time at 4x the input over the time at 1x (linear: at most 4.6; the same of CPU seconds beside it, which other load on the machine disturbs less; linear \"CPU yes, wall no\": the wall ratio alone is over). 4x MB/s vs notes: the cell's MB/s at 4x over notes' in the same format doing the same work (the rates to compare are taken at 4x, where a run's start weighs little; the 70% targets below come from runs of the cell in turn with notes' same cell, which the machine's drift moves less). Peers run alternately with Ferry at 1x and at 4x; peer / Ferry: above 1, Ferry is faster."
  echo "Peak RSS includes the id table (about 30 bytes per unique id, every collection's ids, where the target below allows 40: about $(( $(records_of pet-story "$MN") * 30 / 1048576 + 1 )) MB at most at 1x, 4 times that at 4x)."
  echo
  matrix_table
  echo
  echo "### Targets at 4x (issue: one record path)"
  echo
  matrix_gates
fi
} > bench/results.md.tmp
mv bench/results.md.tmp bench/results.md
echo; cat bench/results.md
