#!/usr/bin/env bash
# On the development machine, after scripts/build-for-gpu.sh: stage what the GPU machine (no Go,
# no cargo) needs to run the bindings and the CUDA example there, in .carry-bindings.txz:
#   lib/libzkgpu.so.*      the library the binaries load (LD_LIBRARY_PATH)
#   bin/zkgpu_cuda_example examples/cuda (built by ctest examples_cuda_build)
#   bin/go-*.test          `go test -c` of each Go package (run with -test.v, -test.bench)
#   bin/rust-*             the Rust crate's test binaries and its bench example
# scripts/gpu-check.sh bindings runs them. BUILD: the build folder (default build).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
build=${BUILD:-build}
stage=$root/.carry-bindings
prefix=$stage/prefix
rm -rf "$stage" && mkdir -p "$stage/bin" "$stage/lib"
cmake --install "$build" --prefix "$prefix" >/dev/null
cp -P "$prefix"/lib/libzkgpu.so* "$stage/lib/"
(cd "$build" && ctest -R examples_cuda_build --output-on-failure >/dev/null)
cp "$build/examples_cuda/build/zkgpu_cuda_example" "$stage/bin/"
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig GOFLAGS=-mod=mod GOPROXY=off GOCACHE=$stage/gocache
(cd bindings/go && for p in ed25519 mlkem mldsa internal/cabi; do
  go test -c -o "$stage/bin/go-$(basename $p).test" "./$p"
done)
export CARGO_TARGET_DIR=$stage/cargo
(cd bindings/rust && cargo build --offline --release --example bench -q &&
  cargo test --offline --release --no-run -q --message-format=json 2>/dev/null |
    python3 -c 'import json,sys
for l in sys.stdin:
    m=json.loads(l)
    if m.get("reason")=="compiler-artifact" and m.get("executable") and m["profile"]["test"]: print(m["executable"])' |
    while read -r exe; do cp "$exe" "$stage/bin/rust-$(basename "$exe" | sed 's/-[0-9a-f]*$//')"; done)
cp "$CARGO_TARGET_DIR/release/examples/bench" "$stage/bin/rust-bench"
strip "$stage"/bin/* "$stage"/lib/libzkgpu.so.*.* 2>/dev/null || true
tar -C "$stage" -cJf .carry-bindings.txz bin lib
rm -rf "$stage"
du -sh .carry-bindings.txz
