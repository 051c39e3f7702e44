#!/usr/bin/env bash
# A long fuzz campaign over prebuilt libFuzzer targets (for example on the 16-core GPU machine,
# which has no clang): every target at once, WORKERS processes each (libFuzzer's -fork), on its
# checked-in corpus, for SECONDS; then one line per target: executions, coverage, crashes.
# Crashing inputs and the logs go to $OUT/fuzz-<target>/ (or /tmp/fuzz-campaign).
#
#   scripts/fuzz-campaign.sh DIR [targets...]     # DIR holds the binaries (build-asan/tests/fuzz)
#   SECONDS_PER_TARGET=500 WORKERS=2 NICE=19 scripts/fuzz-campaign.sh .fuzz/bin
# Build the binaries with `cmake --preset fuzz && cmake --build --preset fuzz`; docs/fuzzing.md.
set -uo pipefail
cd "$(dirname "$0")/.."
dir=$1
shift
source scripts/fuzz-targets.sh
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${FUZZ_TARGETS[@]}")
secs=${SECONDS_PER_TARGET:-500}
workers=${WORKERS:-2}
out=${OUT:-/tmp/fuzz-campaign}
for t in "${targets[@]}"; do
  w=$out/fuzz-$t
  mkdir -p "$w/corpus"
  # -fork runs `workers` child processes and merges what they find; the summary lines
  # (#N ... cov: C ft: F ... exec/s) count every child's executions.
  OMP_NUM_THREADS=1 nice -n "${NICE:-0}" "$dir/$t" -fork="$workers" -ignore_crashes=1 -max_total_time="$secs" \
    -max_len="${FUZZ_MAX_LEN[$t]}" -timeout=30 -rss_limit_mb=2048 -artifact_prefix="$w/" "$w/corpus" "tests/fuzz/corpus/$t" \
    >"$w/log" 2>&1 &
done
wait
printf '%-26s %12s %8s %8s %8s\n' target executions cov ft crashes
for t in "${targets[@]}"; do
  w=$out/fuzz-$t
  last=$(grep -E '^#[0-9]+' "$w/log" | tail -1)
  execs=$(sed -nE 's/^#([0-9]+).*/\1/p' <<<"$last")
  cov=$(grep -oE 'cov: [0-9]+' <<<"$last" | cut -d' ' -f2)
  ft=$(grep -oE 'ft: [0-9]+' <<<"$last" | cut -d' ' -f2)
  crashes=$(find "$w" -maxdepth 1 -name 'crash-*' -o -maxdepth 1 -name 'leak-*' -o -maxdepth 1 -name 'timeout-*' -o -maxdepth 1 -name 'oom-*' | wc -l)
  printf '%-26s %12s %8s %8s %8s\n' "$t" "${execs:-?}" "${cov:-?}" "${ft:-?}" "$crashes"
  rm -rf "$w/corpus"  # what it found is not brought back (the crashes are)
done
