#!/usr/bin/env bash
# One device call does it all: GPU tests (the whole suite: CPU tests run too, on that machine's
# CPU), then the side-by-side benchmarks for the chosen modules, ending with short tables.
#   scripts/gpu-check.sh [ntt] [poseidon2] [merkle] [pow] [whir] [ed25519] [msm] [padd] [mlkem] [mldsa]
#   (default: ntt poseidon2 merkle pow). The primitives' JSON is merged into bench.json; every
#   other module's JSON goes to bench_<module>.json and its table to stdout.
# Environment: GTEST_FILTER (tests to run, default all; "-" skips the tests), GBENCH (a Google
# Benchmark filter: also run those benchmarks of zkgpu_bench, JSON to gbench.json), RUNS (timed
# runs per figure, default 7), MSM_LOG_N (default 16..24).
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

test_rc=0
if [ "${GTEST_FILTER:-*}" != "-" ]; then
  echo "== tests"
  OMP_WAIT_POLICY=passive "$bin/zkgpu_tests" --gtest_brief=1 --gtest_filter="${GTEST_FILTER:-*}" \
    --gtest_output=json:"$out/tests.json" >"$out/tests.log" 2>&1
  test_rc=$?
  grep -E "^\[  (FAILED|PASSED|SKIPPED) |tests? ran|FAILED" "$out/tests.log" | tail -25
fi

echo "== benchmarks: ${modules[*]}"
bench_rc=0
primitives=()
for m in "${modules[@]}"; do
  case "$m" in
    ntt|poseidon2|merkle|pow) primitives+=("$m"); cmd=("$bin/zkgpu" bench "$m" --runs "${RUNS:-7}") ;;
    whir) cmd=("$bin/zkgpu" whir bench --vars 24 --fold 4 --rate 1 --runs "${RUNS:-7}") ;;
    ed25519) cmd=("$bin/zkgpu" ed25519 bench) ;;
    msm) cmd=("$bin/zkgpu" msm bench --curve bls12-377 --log-n "${MSM_LOG_N:-16..24}") ;;
    padd) cmd=("$bin/zkgpu" padd bench) ;;
    mlkem|mldsa) cmd=("$bin/zkgpu" "$m" bench) ;;
    *) echo "unknown module $m"; bench_rc=1; continue ;;
  esac
  if [[ " ntt poseidon2 merkle pow " == *" $m "* ]]; then
    "${cmd[@]}" --json >"$out/bench_$m.json" 2>"$out/bench.err" || { bench_rc=1; cat "$out/bench.err"; }
  else
    echo "-- $m: ${cmd[*]##*/}"
    "${cmd[@]}" --json >"$out/bench_$m.json" 2>"$out/bench_$m.err" || { bench_rc=1; tail -5 "$out/bench_$m.err"; }
    python3 - "$out/bench_$m.json" <<'PY' || true
import json, sys
j = json.load(open(sys.argv[1]))
rows = j.get("rows") or j.get("results") or []
for r in rows:
    print("  " + ", ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}" for k, v in r.items()
                           if not isinstance(v, (list, dict))))
PY
  fi
done
modules=("${primitives[@]}")
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
find "$out" -name 'bench_*.err' -size 0 -delete
echo "tests rc=$test_rc bench rc=$bench_rc"
[ $test_rc -eq 0 ] && [ $bench_rc -eq 0 ]
