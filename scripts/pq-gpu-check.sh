#!/usr/bin/env bash
# One device call for ML-KEM / ML-DSA: build with CUDA on that machine (all cores), run the pq tests
# (CPU and GPU), the OpenSSL differential test, then the benchmarks side by side: our CPU on one
# core, our GPU, OpenSSL 3.5 (pyca/cryptography wheel from .whl/, when carried).
#   scripts/pq-gpu-check.sh          (BUILD_ONLY=1: stop after the build)
# Logs and JSON go to $OUT (the device tool brings that folder back) or /tmp/pq-gpu-check.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/pq-gpu-check}
mkdir -p "$out"
[ -d .whl ] && python3 -m pip install -q --no-index --find-links .whl cryptography >"$out/pip.log" 2>&1
gen=""
command -v ninja >/dev/null && gen="-G Ninja"
# Binaries staged by scripts/build-for-gpu.sh (carried as .carry.tgz) are used when present.
[ -f .carry.tgz ] && [ ! -d .carry ] && tar xzf .carry.tgz
if [ -x .carry/bin/zkgpu_tests ]; then
  mkdir -p build-gpu && cp .carry/bin/zkgpu .carry/bin/zkgpu_tests build-gpu/
  export LD_LIBRARY_PATH=$PWD/.carry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
elif [ ! -x build-gpu/zkgpu_tests ] || [ "${REBUILD:-1}" = 1 ]; then
  cmake -S . -B build-gpu $gen -DCMAKE_BUILD_TYPE=Release -DZKGPU_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 >"$out/build.log" 2>&1 &&
    cmake --build build-gpu -j"$(nproc)" --target zkgpu_tests zkgpu_cli >>"$out/build.log" 2>&1 ||
    { tail -40 "$out/build.log"; exit 1; }
fi
echo "== built $(date +%T)"
[ "${BUILD_ONLY:-0}" = 1 ] && exit 0
export ZKGPU_VECTORS_DIR=$PWD/tests/vectors ZKGPU_CLI_PATH=$PWD/build-gpu/zkgpu OMP_WAIT_POLICY=passive
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
echo "== tests"
build-gpu/zkgpu_tests --gtest_filter='Keccak*:*MlKem*:*MlDsa*:PqCli*' --gtest_brief=1 >"$out/tests.log" 2>&1
echo "tests rc=$?"
grep -E "FAILED|PASSED|SKIPPED|tests ran" "$out/tests.log" | tail -15
python3 scripts/pq_openssl_diff.py build-gpu/zkgpu 2>&1 | tail -6
echo "== benchmarks"
python3 scripts/pq_bench.py --zkgpu build-gpu/zkgpu --threads 1 --batches "${CPU_BATCHES:-1,64}" \
  --gpu-batches "${GPU_BATCHES:-4096,65536}" --sets "${SETS:-512,768,1024,44,65,87}" --json "$out/pq_bench.json"
for k in mlkem mldsa; do
  build-gpu/zkgpu $k bench --threads "$(nproc)" --batch 4096 --json >"$out/${k}_cpu_allcores.json" 2>&1
done
python3 - "$out" <<'PY'
import json, sys
for k in ("mlkem", "mldsa"):
    for r in json.load(open(f"{sys.argv[1]}/{k}_cpu_allcores.json"))["rows"]:
        print(f"all cores: {r['set']} {r['op']} batch {r['batch']} threads {r['threads']}: {r['ops_per_s']:,.0f}/s")
PY
