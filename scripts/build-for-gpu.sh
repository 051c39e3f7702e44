#!/usr/bin/env bash
# On the development machine: build for sm_90 and stage the binaries (plus the shared libraries
# the GPU machine's image lacks or has in another version) under .carry/, which the device call
# carries, so device minutes go to running rather than compiling.
set -euo pipefail
cd "$(dirname "$0")/.."
# BUILD names an existing build folder to reuse (it must have the CUDA backend for sm_90).
build=${BUILD:-build-gpu}
[ -f "$build/CMakeCache.txt" ] ||
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DZKGPU_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null
grep -q "^CMAKE_CUDA_FLAGS:" "$build/CMakeCache.txt" || { echo "build-for-gpu: $build has no CUDA backend" >&2; exit 1; }
cmake --build "$build" -j"$(nproc)"
rm -rf .carry && mkdir -p .carry/bin .carry/lib
# The Google Benchmark program is optional (WITH_GBENCH=0 leaves it out): the tracked tree plus
# the carry must stay under the device call's 64 MiB.
cp "$build/zkgpu" "$build/zkgpu_tests" .carry/bin/
[ "${WITH_GBENCH:-1}" = 1 ] && cp "$build/zkgpu_bench" .carry/bin/
strip .carry/bin/*
for exe in .carry/bin/*; do
  ldd "$exe" | awk '/libbenchmark|libgomp|libfmt|libsodium|libgmp|libcrypto/ {print $3}'
done | sort -u | xargs -r -I{} cp -L {} .carry/lib/
# The device call carries at most 64 MiB; the CUDA fatbins compress about 4x.
tar czf .carry.tgz .carry && rm -rf .carry
du -sh .carry.tgz
