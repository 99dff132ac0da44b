#!/usr/bin/env bash
# compare-outputs.sh BASE_REF [HEAD_REF]: do two builds of Ferry give the same outputs?
# Builds both refs (HEAD_REF defaults to HEAD) in git worktrees under a temporary folder, runs
# every command (validate, inspect, convert to each format, migrate, schema, formats, --help) on
# Samples/, the corpus (../shared/corpus) and a generated matrix (bench/gen_matrix.sh: 3 domains x
# V1/V2 x JSON document, JSON Lines, CSV folder, XML, tar bundle, both Firestore layouts, and
# broken copies of each), with each build in turn in the same folder, and compares stdout, stderr,
# exit code and every output file byte for byte. Prints a report: cells compared, and for each
# difference the cell, what differs and the first differing line of each side.
# Exit status: 0 no difference, 1 differences, 2 usage or set-up error.
# Environment:
#   CONFIG          debug (default) or release
#   COMPARE_DIR     working folder (default: a new temporary folder, removed at the end unless KEEP=1)
#   COMPARE_CACHE   built binaries by the hash of their sources (default bench/data/compare-builds:
#                   a ref whose Sources/, Package.swift and Plugins/ are those of a build already
#                   made is not built again; both refs with the same sources build once)
#   CORPUS          the public suites (default ../shared/corpus; skipped with a message when absent)
#   MATRIX_RECORDS  records per generated file (default 40)
#   SUITES          which inputs: any of samples corpus matrix (default all three)
#   PARALLEL        cells run at once (default: the core count)
#   KEEP=1          keep COMPARE_DIR (the outputs of both builds under results/base and results/head)
# Inputs: Samples/ of HEAD_REF; the matrix generated once with the base build. Each run has
# SOURCE_DATE_EPOCH=1700000000, LC_ALL=C, NO_COLOR=1 and a 120 s time limit.
set -euo pipefail

if [ "${1:-}" = __cell ]; then
  # One cell: run it with each build in the same folder, keep each side's outputs, compare.
  id=$2; W=$COMPARE_DIR
  args=$(sed -n "${id}p" "$W/cells")
  for side in base head; do
    bin="$W/bin/$side/ferry"; res="$W/results/$side/$id"; cwd="$W/run/$id"
    rm -rf "$cwd" "$res"; mkdir -p "$cwd" "$res"
    status=0
    (cd "$cwd" && eval "timeout 120 \"\$bin\" $args" >"$res/stdout" 2>"$res/stderr" </dev/null) || status=$?
    echo "$status" >"$res/rc"
    if [ -d "$cwd/out" ]; then mv "$cwd/out" "$res/out"; fi
    rm -rf "$cwd"
  done
  b="$W/results/base/$id" h="$W/results/head/$id" report=""
  line_of() { sed -n "${2}p" "$1" | cut -c1-200; }
  first_diff() {  # FILE_A FILE_B LABEL
    local said at
    said=$(cmp "$1" "$2" 2>&1 || true)
    at=$(sed -n 's/.*line \([0-9]*\).*/\1/p' <<<"$said")
    case $said in
      *EOF*empty*) at=1 ;;
      *EOF*) at=$(( ${at:-0} + 1 )) ;;  # one side ends after line AT: the next line differs
    esac
    report+="    $3 differs at line $at"$'\n'"      base: $(line_of "$1" "$at")"$'\n'"      head: $(line_of "$2" "$at")"$'\n'
  }
  cmp -s "$b/rc" "$h/rc" || report+="    exit code: base $(cat "$b/rc"), head $(cat "$h/rc")"$'\n'
  cmp -s "$b/stdout" "$h/stdout" || first_diff "$b/stdout" "$h/stdout" stdout
  cmp -s "$b/stderr" "$h/stderr" || first_diff "$b/stderr" "$h/stderr" stderr
  listing() { if [ -d "$1/out" ]; then (cd "$1/out" && find . -printf '%y %P\n' | sort); fi; }
  if [ "$(listing "$b")" != "$(listing "$h")" ]; then
    report+="    output files differ: base [$(listing "$b" | tr '\n' ' ')] head [$(listing "$h" | tr '\n' ' ')]"$'\n'
  elif [ -d "$b/out" ]; then
    while IFS= read -r f; do
      cmp -s "$b/out/$f" "$h/out/$f" || first_diff "$b/out/$f" "$h/out/$f" "out/$f"
    done < <(cd "$b/out" && find . -type f -printf '%P\n' | sort)
  fi
  if [ -n "$report" ]; then printf 'cell %s: ferry %s\n%s' "$id" "$args" "$report" >"$W/diffs/$id"; fi
  exit 0
fi

usage() { sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
case "$1" in -h|--help) usage ;; esac
cd "$(dirname "$0")/.."
ROOT=$(pwd)
base_sha=$(git rev-parse --verify --quiet "$1^{commit}") || { echo "compare-outputs: no commit '$1'" >&2; exit 2; }
head_sha=$(git rev-parse --verify --quiet "${2:-HEAD}^{commit}") || { echo "compare-outputs: no commit '${2:-HEAD}'" >&2; exit 2; }
CONFIG=${CONFIG:-debug}
case "$CONFIG" in debug|release) ;; *) echo "compare-outputs: CONFIG is debug or release" >&2; exit 2 ;; esac
CACHE=${COMPARE_CACHE:-$ROOT/bench/data/compare-builds}
CORPUS=${CORPUS:-$ROOT/../shared/corpus}
SUITES=${SUITES:-samples corpus matrix}
PARALLEL=${PARALLEL:-$(nproc)}
if [ -n "${COMPARE_DIR:-}" ]; then W=$COMPARE_DIR; rm -rf "$W"; mkdir -p "$W"; else W=$(mktemp -d /tmp/ferry-compare.XXXXXX); fi
W=$(cd "$W" && pwd)
worktrees=()
cleanup() {
  for t in "${worktrees[@]}"; do git -C "$ROOT" worktree remove --force "$t" >/dev/null 2>&1 || true; done
  if [ "${KEEP:-}" != 1 ]; then rm -rf "$W"; fi
}
trap cleanup EXIT
export SOURCE_DATE_EPOCH=1700000000 LC_ALL=C NO_COLOR=1
unset TZ

# sources_key REF: what a build depends on (the blobs of Sources/, Package.swift, Plugins/) and CONFIG.
sources_key() { echo "$(git ls-tree -r "$1" -- Sources Package.swift Package.resolved Plugins | sha1sum | cut -c1-16)-$CONFIG"; }
# build SHA SIDE: the ferry binary of SHA in $W/bin/SIDE, from the cache when its sources were built.
build() {
  local sha=$1 side=$2 key src
  key=$(sources_key "$sha")
  mkdir -p "$W/bin/$side"
  if [ ! -x "$CACHE/$key/ferry" ] && [ "$(sources_key HEAD)" = "$key" ] && [ -z "$(git status --porcelain -- Sources Package.swift Package.resolved Plugins)" ]; then
    # This checkout has the same sources, unchanged: its own (incremental) build is that build.
    echo "building $side ($sha, $CONFIG) in this checkout, which has the same sources ..."
    swift build -c "$CONFIG" --product ferry >"$W/build-$side.log" 2>&1 \
      || { echo "compare-outputs: the build of $side failed; see $W/build-$side.log" >&2; KEEP=1; exit 2; }
    mkdir -p "$CACHE/$key"; cp "$ROOT/.build/$CONFIG/ferry" "$CACHE/$key/ferry"
  elif [ ! -x "$CACHE/$key/ferry" ]; then
    src="$W/src-$side"
    echo "building $side ($sha, $CONFIG) in $src ..."
    git -C "$ROOT" worktree add --detach --quiet "$src" "$sha"
    worktrees+=("$src")
    (cd "$src" && swift build -c "$CONFIG" --product ferry >"$W/build-$side.log" 2>&1) \
      || { echo "compare-outputs: the build of $side failed; see $W/build-$side.log" >&2; KEEP=1; exit 2; }
    mkdir -p "$CACHE/$key.tmp"
    cp -R "$src/.build/$CONFIG/ferry" "$CACHE/$key.tmp/"
    rm -rf "$CACHE/$key"; mv "$CACHE/$key.tmp" "$CACHE/$key"
    git -C "$ROOT" worktree remove --force "$src"
  else
    echo "$side ($sha): the build of the same sources in $CACHE/$key"
  fi
  cp "$CACHE/$key/ferry" "$W/bin/$side/ferry"
}
build "$base_sha" base
build "$head_sha" head

# The inputs, the same files for both sides; cells name them relative to the cell's folder.
mkdir -p "$W/in" "$W/results/base" "$W/results/head" "$W/diffs" "$W/run"
git -C "$ROOT" archive "$head_sha" Samples | tar -x -C "$W/in"
cells="$W/cells"; : >"$cells"
cell() { printf '%q ' "$@" >>"$cells"; echo >>"$cells"; }
I=../../in
# Every command on one input (a file or a folder): each output format, migrate, validate, inspect.
# The corpus's 800 files (few of a domain) take the first eight; Samples/ and the matrix all.
data_cells() {
  local f=$1
  cell validate "$f"
  cell inspect "$f" --json
  cell convert "$f" --to jsonl
  cell convert "$f" -o out/x.json
  cell convert "$f" -o out/x.xml
  cell convert "$f" --to csv -o out/csv/
  cell convert "$f" -o out/x.tar
  cell migrate "$f" --to-version 2 --to jsonl
  [ "${2:-}" = all ] || return 0
  cell validate "$f" --report json
  cell inspect "$f"
  cell convert "$f" --to jsonl --jobs 2
  cell convert "$f" --lenient -o out/x.jsonl
  cell migrate "$f" --to-version 2 -o out/m.json
  # What a filter, a selection or an observer sees of each record.
  cell convert "$f" --to jsonl --where 'id CONTAINS "1"'
  cell convert "$f" --to csv -o out/w/ --where 'id CONTAINS "1"' --jobs 2
  cell convert "$f" --to-version 2 -o out/w.xml --where 'id CONTAINS "2"'
  cell convert "$f" --to jsonl --skip 1 --limit 2
  cell convert "$f" -o out/s.json --sample 2 --seed 3 --jobs 2
  cell convert "$f" --to jsonl --select /id
  cell head "$f" -n 2
  cell stats "$f"
  cell stats "$f" --report json --jobs 2
}
for suite in $SUITES; do
  case $suite in
    samples)
      while IFS= read -r f; do data_cells "$I/$f" all; done < <(cd "$W/in" && find Samples -mindepth 1 -maxdepth 2 \( -name '*.json' -o -name '*-documents' \) | sort) ;;
    corpus)
      if [ ! -d "$CORPUS" ]; then echo "compare-outputs: no corpus at $CORPUS; its cells are skipped"; continue; fi
      cp -R "$CORPUS" "$W/in/corpus"
      while IFS= read -r f; do data_cells "$I/$f"; done < <(cd "$W/in" && find corpus -type f ! -name 'PROVENANCE*' ! -name 'LICENSE*' ! -name 'README*' ! -name 'COPYING*' ! -name '.gitattributes' | sort) ;;
    matrix)
      echo "generating the matrix (${MATRIX_RECORDS:-40} records a file) with the base build ..."
      bash "$ROOT/bench/gen_matrix.sh" "$W/bin/base/ferry" "$W/in/matrix" "${MATRIX_RECORDS:-40}" --errors >/dev/null
      while IFS= read -r f; do data_cells "$I/$f" all; done < <(cd "$W/in" && find matrix -mindepth 1 -maxdepth 1 | sort) ;;
    *) echo "compare-outputs: unknown suite '$suite' (samples, corpus, matrix)" >&2; exit 2 ;;
  esac
done
for d in notes pet-story vocabulary; do
  for v in 1 2; do cell schema "$d" --schema-version "$v"; cell schema "$d" --schema-version "$v" --as xsd; done
done
cell formats; cell formats --json; cell --version; cell --help
for c in convert migrate validate inspect run formats schema; do cell "$c" --help; done
cell convert "$I/Samples/notes-v1.json" --to nope
cell validate "$I/Samples/no-such-file.json"

n=$(wc -l <"$cells")
echo "running $n cells with each build ($PARALLEL at a time) ..."
export COMPARE_DIR=$W
seq "$n" | xargs -P "$PARALLEL" -n 1 bash "$ROOT/bench/compare-outputs.sh" __cell
ndiff=$(find "$W/diffs" -type f | wc -l)
echo
echo "compare-outputs: base $1 ($base_sha), head ${2:-HEAD} ($head_sha), $CONFIG builds"
echo "cells compared: $n (stdout, stderr, exit code and output files of each); cells that differ: $ndiff"
if [ "$ndiff" -gt 0 ]; then
  find "$W/diffs" -type f -printf '%f\n' | sort -n | while read -r id; do cat "$W/diffs/$id"; done
  exit 1
fi
