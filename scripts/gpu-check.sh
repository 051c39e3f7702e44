#!/usr/bin/env bash
# One device call does it all: GPU tests (the whole suite: CPU tests run too, on that machine's
# CPU), then the side-by-side benchmarks for the chosen modules, ending with a short table.
#   scripts/gpu-check.sh [ntt] [poseidon2] [merkle] [pow]      (default: all four)
# Environment: GTEST_FILTER (tests to run, default all), GBENCH (a Google Benchmark filter: also run
# those benchmarks of zkgpu_bench, JSON to gbench.json), RUNS (timed runs per figure, default 7).
# Uses binaries staged by scripts/build-for-gpu.sh in .carry/ when present, else builds here.
# Full logs and JSON go to $OUT (the device tool brings that folder back) or /tmp/gpu-check.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=${OUT:-/tmp/gpu-check}
mkdir -p "$out"
modules=("$@")
[ ${#modules[@]} -eq 0 ] && modules=(ntt poseidon2 merkle pow)

[ -f .carry.tgz ] && [ ! -d .carry ] && tar xzf .carry.tgz
if [ -x .carry/bin/zkgpu_tests ] && LD_LIBRARY_PATH=$root/.carry/lib .carry/bin/zkgpu info >/dev/null 2>&1; then
  bin=$root/.carry/bin
  export LD_LIBRARY_PATH=$root/.carry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
else
  echo "== building on this machine"
  cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DZKGPU_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 >"$out/cmake.log" 2>&1 &&
    cmake --build build-gpu -j"$(nproc)" >>"$out/cmake.log" 2>&1 || { tail -40 "$out/cmake.log"; exit 1; }
  bin=$root/build-gpu
fi
export ZKGPU_VECTORS_DIR=$root/tests/vectors ZKGPU_CLI_PATH=$bin/zkgpu

nvidia-smi --query-gpu=name,memory.total,memory.used,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv | tee "$out/nvidia-smi.csv"
"$bin/zkgpu" info | tee "$out/info.txt"

echo "== tests"
"$bin/zkgpu_tests" --gtest_brief=1 --gtest_filter="${GTEST_FILTER:-*}" --gtest_output=json:"$out/tests.json" >"$out/tests.log" 2>&1
test_rc=$?
grep -E "^\[  (FAILED|PASSED|SKIPPED) |tests? ran|FAILED" "$out/tests.log" | tail -25

echo "== benchmarks: ${modules[*]}"
bench_rc=0
for m in "${modules[@]}"; do
  "$bin/zkgpu" bench "$m" --json --runs "${RUNS:-7}" >"$out/bench_$m.json" 2>"$out/bench.err" || { bench_rc=1; cat "$out/bench.err"; }
done
if [ -n "${GBENCH:-}" ]; then
  echo "== google benchmark: $GBENCH"
  "$bin/zkgpu_bench" --benchmark_filter="$GBENCH" --benchmark_out="$out/gbench.json" --benchmark_out_format=json \
    --benchmark_format=console 2>&1 | grep -v "^\*\*\*" | tail -60
fi
python3 - "$out" "${modules[@]}" <<'PY'
import json, sys, os
out, mods = sys.argv[1], sys.argv[2:]
print(f"{'operation':16} {'size':26} {'CPU ms':>10} {'GPU ms':>10} {'GPU+copy':>10} {'GPU/CPU':>8} {'%limit':>7}")
for m in mods:
    p = os.path.join(out, f"bench_{m}.json")
    try:
        j = json.load(open(p))
    except Exception as e:
        print(f"{m}: no results ({e})"); continue
    for r in j["results"]:
        f = lambda v: "-" if v is None else (f"{v:.4f}" if v < 1 else f"{v:.2f}")
        ratio = r.get("gpu_over_cpu"); frac = r.get("gpu_fraction_of_limit")
        print(f"{r['operation']:16} {r['size']:26} {f(r['cpu_ms']):>10} {f(r['gpu_ms']):>10} {f(r['gpu_with_copies_ms']):>10} "
              f"{('-' if ratio is None else f'{ratio:.1f}x'):>8} {('-' if frac is None else f'{100*frac:.0f}%'):>7}")
PY
# One JSON for all modules (the device tool brings back at most 8 files).
python3 - "$out" "${modules[@]}" <<'PY'
import json, sys, os
out, mods = sys.argv[1], sys.argv[2:]
merged = {}
for m in mods:
    p = os.path.join(out, f"bench_{m}.json")
    if os.path.exists(p):
        merged[m] = json.load(open(p)); os.remove(p)
json.dump(merged, open(os.path.join(out, "bench.json"), "w"), indent=1)
PY
rm -f "$out/bench.err" "$out/cmake.log"
echo "tests rc=$test_rc bench rc=$bench_rc"
[ $test_rc -eq 0 ] && [ $bench_rc -eq 0 ]
