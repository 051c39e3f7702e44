#!/usr/bin/env bash
# On the development machine: build for sm_90 and stage the binaries (plus the shared libraries
# the GPU machine's image lacks or has in another version) under .carry/, which the device call
# carries, so device minutes go to running rather than compiling.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DZKGPU_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null
cmake --build build-gpu -j"$(nproc)"
rm -rf .carry && mkdir -p .carry/bin .carry/lib
# The Google Benchmark program is optional (WITH_GBENCH=0 leaves it out): the tracked tree plus
# the carry must stay under the device call's 64 MiB.
cp build-gpu/zkgpu build-gpu/zkgpu_tests .carry/bin/
[ "${WITH_GBENCH:-1}" = 1 ] && cp build-gpu/zkgpu_bench .carry/bin/
strip .carry/bin/*
for exe in .carry/bin/*; do
  ldd "$exe" | awk '/libbenchmark|libgomp|libfmt|libsodium|libgmp|libcrypto/ {print $3}'
done | sort -u | xargs -r -I{} cp -L {} .carry/lib/
# The device call carries at most 64 MiB; the CUDA fatbins compress about 4x.
tar czf .carry.tgz .carry && rm -rf .carry
du -sh .carry.tgz
