#!/usr/bin/env bash
# CI stage: builds the libFuzzer targets of tests/fuzz (preset fuzz: clang, ASan + UBSan,
# -DZKGPU_CUDA=OFF) and runs each on its checked-in corpus tests/fuzz/corpus/<target>/ for a
# bounded time, JOBS targets at a time. Any crash, sanitizer report, leak, input slower than
# FUZZ_TIMEOUT s or over 2 GB fails the stage; the crashing input is kept under FUZZ_WORK and
# printed in hex. New inputs go to FUZZ_WORK, never to the checked-in corpus.
#
#   scripts/ci-fuzz.sh                          # every target, 60 s each
#   FUZZ_SECONDS=600 FUZZ_RUNS=10000000 JOBS=1 FUZZ_WORK=/tmp/campaign scripts/ci-fuzz.sh mlkem_line_fuzz
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_RUNS=${FUZZ_RUNS:--1}
FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-30}
JOBS=${JOBS:-$(nproc)}
BUILD=build-asan  # the fuzz preset's binaryDir (shared with asan-ubsan)
FUZZ_WORK=${FUZZ_WORK:-$BUILD/fuzz-work}

source scripts/fuzz-targets.sh
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${FUZZ_TARGETS[@]}")

scripts/install-deps.sh clang libclang-rt-dev libomp-dev
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
start=$SECONDS
cmake --preset fuzz "${launcher[@]}" >/dev/null
cmake --build --preset fuzz -j"$JOBS"
built=$SECONDS

run_one() {
  local t=$1 dir=$FUZZ_WORK/$1
  rm -rf "$dir" && mkdir -p "$dir/corpus"
  # One OpenMP thread: the batch calls stay deterministic and JOBS fuzzers share the cores.
  OMP_NUM_THREADS=1 UBSAN_OPTIONS=print_stacktrace=1 "$BUILD/tests/fuzz/$t" \
    -max_total_time="$FUZZ_SECONDS" -runs="$FUZZ_RUNS" -max_len="${FUZZ_MAX_LEN[$t]}" -timeout="$FUZZ_TIMEOUT" \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$dir/" "$dir/corpus" "tests/fuzz/corpus/$t" \
    >"$dir/log" 2>&1 && echo 0 >"$dir/rc" || echo $? >"$dir/rc"
}

for t in "${targets[@]}"; do
  [ -n "${FUZZ_MAX_LEN[$t]:-}" ] || { echo "ci-fuzz: unknown target $t" >&2; exit 2; }
done
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
  run_one "$t" &
done
wait

failed=0
for t in "${targets[@]}"; do
  log=$FUZZ_WORK/$t/log
  if [ "$(cat "$FUZZ_WORK/$t/rc")" = 0 ]; then status=ok; else status=FAILED; failed=1; fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -E '^#[0-9]+' "$log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+' || true)
  echo "ci-fuzz: $t: $status, ${runs:-?} executions, ${cov:-no coverage line}"
  if [ "$status" = FAILED ]; then
    tail -n 60 "$log" >&2
    for a in "$FUZZ_WORK/$t"/{crash,leak,timeout,oom,slow-unit}-*; do
      [ -f "$a" ] || continue
      echo "ci-fuzz: $t input $a:" >&2
      od -A d -t x1 "$a" | head -n 40 >&2
    done
  fi
done
echo "ci-fuzz: build $((built - start)) s, fuzzing $((SECONDS - built)) s (${#targets[@]} targets, ${FUZZ_SECONDS} s each, $JOBS at a time)"
exit "$failed"
