#!/usr/bin/env bash
# One device call does it all: GPU tests (the whole suite: CPU tests run too, on that machine's
# CPU), then the side-by-side benchmarks for the chosen modules, ending with short tables.
#   scripts/gpu-check.sh [ntt] [poseidon2] [merkle] [pow] [whir] [ed25519] [msm] [padd] [mlkem] [mldsa]
#                        [bindings]
#   (default: ntt poseidon2 merkle pow). The primitives' JSON is merged into bench.json; every
#   other module's JSON goes to bench_<module>.json and its table to stdout.
# Environment: GTEST_FILTER (tests to run, default all; "-" skips the tests), GBENCH (a Google
# Benchmark filter: also run those benchmarks of zkgpu_bench, JSON to gbench.json), RUNS (timed
# runs per figure, default 7), MSM_LOG_N (default 16..24), PQ_BACKEND and PQ_BATCH (the ML-KEM/ML-DSA
# benchmark: default cuda, 1,256,1024,65536).
#
#   scripts/gpu-check.sh --sanitize
#   runs only the GPU tests, in small mode (ZKGPU_TEST_SMALL=1), once under each compute-sanitizer
#   tool (memcheck with --leak-check full, racecheck, initcheck, synccheck; --error-exitcode 1),
#   each with its own time limit, logs in $OUT/sanitize-<tool>.log, then a table: tool, tests
#   run, failed, sanitizer errors, seconds, result (docs/gpu-testing.md). Environment:
#   GTEST_FILTER (default: the GPU suites, SANITIZE_FILTER_DEFAULT below), SANITIZE_TOOLS (default
#   "memcheck initcheck synccheck racecheck": racecheck, by far the slowest, last), SANITIZE_BUDGET
#   (seconds for all tools together, default 540, so that the set-up and the tools fit one
#   10-minute device call: each tool gets what the ones before it left), SANITIZE_LIMIT (a cap
#   per tool, default none), COMPUTE_SANITIZER (the binary; default from PATH or
#   /usr/local/cuda/bin), ZKGPU_TEST_SMALL (default 1; 0 runs the full sizes).
# Uses binaries staged by scripts/build-for-gpu.sh in .carry/ when present, else builds here.
# Full logs and JSON go to $OUT (the device tool brings that folder back) or /tmp/gpu-check.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=${OUT:-/tmp/gpu-check}
mkdir -p "$out"
sanitize=0
if [ "${1:-}" = "--sanitize" ]; then
  sanitize=1
  shift
  [ $# -eq 0 ] || { echo "--sanitize takes no modules (got: $*)"; exit 2; }
fi
modules=("$@")
[ ${#modules[@]} -eq 0 ] && modules=(ntt poseidon2 merkle pow)
# Every test that runs GPU code in the test process (suite names as they are; the CLI tests that
# reach the GPU through a zkgpu subprocess are not in it).
SANITIZE_FILTER_DEFAULT='NttGpu.*:Poseidon2Gpu.*:MerkleGpu.*:PowGpu.*:Ed25519Gpu.*:Ed25519PackedGpu.*:Bls12377MsmGpu.*:Bls12377PaddGpu.*:AllSets/MlKemGpu.*:AllSets/MlDsaGpu.*:AllSets/MlKemDeviceGpu.*:AllSets/MlDsaDeviceGpu.*:WhirGpu.*:BenchTimingGpu.*:HostLayerGpu.*:CApiGpu.*:CApiEd25519Gpu.*:CApiPqGpu.*'

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

if [ $sanitize -eq 1 ]; then
  cs=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
  [ -x "$cs" ] || { echo "compute-sanitizer not found (set COMPUTE_SANITIZER)"; exit 2; }
  "$cs" --version | tail -1
  filter=${GTEST_FILTER:-$SANITIZE_FILTER_DEFAULT}
  budget=${SANITIZE_BUDGET:-540}
  cap=${SANITIZE_LIMIT:-$budget}
  began=$SECONDS
  export ZKGPU_TEST_SMALL=${ZKGPU_TEST_SMALL:-1} OMP_WAIT_POLICY=passive
  echo "== compute-sanitizer, ZKGPU_TEST_SMALL=$ZKGPU_TEST_SMALL, ${budget}s for all tools, filter $filter"
  : >"$out/sanitize.tsv"
  for tool in ${SANITIZE_TOOLS:-memcheck initcheck synccheck racecheck}; do
    extra=()
    case "$tool" in
      memcheck) extra=(--leak-check full) ;;
      racecheck | initcheck | synccheck) ;;
      *) echo "unknown tool $tool"; exit 2 ;;
    esac
    log=$out/sanitize-$tool.log
    limit=$((budget - (SECONDS - began)))
    [ "$limit" -gt "$cap" ] && limit=$cap
    [ "$limit" -lt 10 ] && limit=10
    echo "-- $tool (${limit}s)"
    start=$SECONDS
    # timeout signals its whole process group: the tool and the test process both end.
    timeout --kill-after=15 "$limit" "$cs" --tool "$tool" "${extra[@]}" --error-exitcode 1 --print-limit 100 \
      "$bin/zkgpu_tests" --gtest_filter="$filter" --gtest_color=no >"$log" 2>&1
    rc=$?
    printf '%s\t%s\t%s\n' "$tool" "$rc" "$((SECONDS - start))" >>"$out/sanitize.tsv"
  done
  # The table, from each log: gtest's per-test result lines and the tool's summary lines.
  python3 - "$out" <<'PY'
import re, sys, os
out = sys.argv[1]
rows, bad = [], False
print(f"{'tool':10} {'tests':>6} {'failed':>6} {'errors':>6} {'seconds':>7}  result")
for line in open(os.path.join(out, "sanitize.tsv")):
    tool, rc, secs = line.split()
    rc = int(rc)
    text = open(os.path.join(out, f"sanitize-{tool}.log"), errors="replace").read()
    # "[  FAILED  ] Set/Suite.Test/0, where GetParam() = 512 (5 ms)": the name is the first word.
    done = re.findall(r"^\[ +(OK|FAILED|SKIPPED) +\] ([^\s,]+).* \(\d+ ms\)$", text, re.M)
    ran = sum(1 for r, _ in done if r != "SKIPPED")
    failed = [name for r, name in done if r == "FAILED"]
    # The tool counts a nonzero exit of the tests as one error of its own; that is a test failure.
    errors = sum(int(n) for n in re.findall(r"ERROR SUMMARY: (\d+) error", text))
    errors -= len(re.findall(r"Target application returned an error", text))
    leaks = re.findall(r"LEAK SUMMARY: (\d+) bytes leaked in (\d+) allocations", text)
    race = re.findall(r"RACECHECK SUMMARY: \d+ hazards? displayed \((\d+) errors?, (\d+) warnings?\)", text)
    errors += sum(int(e) for e, _ in race)
    warnings = sum(int(w) for _, w in race)
    started = re.findall(r"^\[ RUN +\] (\S+)$", text, re.M)
    finished = {name for _, name in done}
    if rc in (124, 137):
        pending = [s for s in started if s not in finished]
        result = "TIMEOUT" + (f" in {pending[-1]}" if pending else "")
    elif errors:
        result = "FAIL (sanitizer errors)"
    elif failed or rc != 0:
        result = f"FAIL (rc {rc}" + (f", {len(failed)} tests failed" if failed else "") + ")"
    elif ran == 0:
        result = "FAIL (no test ran)"
    else:
        result = "pass"
    if warnings:
        result += f" ({warnings} racecheck warnings)"
    if any(int(b) for b, _ in leaks):
        result += f" ({sum(int(b) for b, _ in leaks)} bytes leaked in {sum(int(a) for _, a in leaks)} allocations)"
    bad |= not result.startswith("pass")
    print(f"{tool:10} {ran:>6} {len(failed):>6} {errors:>6} {secs:>7}  {result}")
    for name in failed[:5]:
        print(f"{'':10} failed: {name}")
    heads = [l for l in text.splitlines() if re.match(
        r"========= (Invalid|Program hit|Error|Race|Uninitialized|Barrier|Leaked|Warning|Potential|Detected)", l)]
    for l in heads[:5]:
        print(f"{'':10} {l}")
sys.exit(1 if bad else 0)
PY
  exit $?
fi

test_rc=0
if [ "${GTEST_FILTER:-*}" != "-" ]; then
  echo "== tests"
  OMP_WAIT_POLICY=passive "$bin/zkgpu_tests" --gtest_brief=1 --gtest_filter="${GTEST_FILTER:-*}" \
    --gtest_output=json:"$out/tests.json" >"$out/tests.log" 2>&1
  test_rc=$?
  grep -E "^\[  (FAILED|PASSED|SKIPPED) |tests? ran|FAILED" "$out/tests.log" | tail -25
fi

# The module `bindings`: the CUDA example, the Go and Rust tests (their GPU paths run here) and the
# Ed25519 binding benchmarks next to the C++ API, from scripts/build-bindings-for-gpu.sh's
# .carry-bindings.txz (this machine has neither Go nor cargo).
run_bindings() {
  local dir=$root/.carry-bindings rc=0
  if [ ! -d "$dir" ]; then
    [ -f "$root/.carry-bindings.txz" ] || { echo "bindings: no .carry-bindings.txz"; return 1; }
    mkdir -p "$dir" && tar -C "$dir" -xJf "$root/.carry-bindings.txz"
  fi
  export LD_LIBRARY_PATH=$dir/lib:${LD_LIBRARY_PATH:-} ZKGPU_VECTORS_DIR=$root/tests/vectors
  echo "-- examples/cuda"
  "$dir/bin/zkgpu_cuda_example" || rc=1
  for t in "$dir"/bin/go-*.test "$dir"/bin/rust-*; do
    [ "${t##*/}" = rust-bench ] && continue
    if "$t" >"$out/${t##*/}.log" 2>&1; then echo "-- ${t##*/}: pass"; else echo "-- ${t##*/}: FAIL"; tail -20 "$out/${t##*/}.log"; rc=1; fi
  done
  echo "-- go BatchVerify vs crypto/ed25519 (verifications/s)"
  # Each benchmark reports median-ms (per call) beside verifs/s; 30 calls per small size, 5 of the
  # GPU ones at 2^20, one CPU call there (~5 s).
  "$dir/bin/go-ed25519.test" -test.run '^$' -test.bench '/n=(1|64|4096)$' -test.benchtime 30x >"$out/go_bench.log" 2>&1 || rc=1
  "$dir/bin/go-ed25519.test" -test.run '^$' -test.bench 'BatchVerify(Cuda|Packed|PackedCuda)?/n=1048576$' \
    -test.benchtime 5x >>"$out/go_bench.log" 2>&1 || rc=1
  "$dir/bin/go-ed25519.test" -test.run '^$' -test.bench 'BatchVerifyCpu/n=1048576$' -test.benchtime 1x \
    >>"$out/go_bench.log" 2>&1 || rc=1
  grep -E "^Benchmark" "$out/go_bench.log"
  echo "-- rust verify_batch next to the C ABI call"
  "$dir/bin/rust-bench" --cli "$bin/zkgpu" --runs 5 >"$out/rust_bench.json" 2>"$out/rust_bench.err" || rc=1
  cat "$out/rust_bench.json"
  return $rc
}

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
    mlkem|mldsa) cmd=("$bin/zkgpu" "$m" bench --set all --backend "${PQ_BACKEND:-cuda}" --batch "${PQ_BATCH:-1,256,1024,65536}") ;;
    bindings) run_bindings || bench_rc=1; continue ;;
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
