#!/usr/bin/env bash
# Fails when a tracked C++/CUDA file differs from what clang-format (.clang-format) makes of it, and
# prints the first lines of each difference. `scripts/check-format.sh --fix` reformats in place.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.cu' '*.cuh' '*.cc' '*.h')
if [ "${1:-}" = "--fix" ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
bad=0
for f in "${files[@]}"; do
  if ! clang-format "$f" | diff -q "$f" - >/dev/null; then
    echo "check-format: $f is not formatted (scripts/check-format.sh --fix):"
    clang-format "$f" | diff "$f" - | head -8 || true
    bad=$((bad + 1))
  fi
done
if [ "$bad" -gt 0 ]; then
  echo "check-format: $bad of ${#files[@]} files need formatting" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files formatted"
