#!/usr/bin/env bash
# CI's Python step (.ci/run, after `make test`): the pinned build and test requirements into a
# venv, `pip install .` CPU-only into it (with ccache when there is one), then the pytest suite
# against the installed package, from outside the source tree's package directory.
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=build/python-ci-venv
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --upgrade pip
"$venv/bin/python" -m pip install -q -r bindings/python/requirements-dev.txt
cmake_args="-DZKGPU_CUDA=OFF"
if command -v ccache >/dev/null 2>&1; then
  cmake_args="$cmake_args -DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
fi
# --no-build-isolation: build with the pinned nanobind and scikit-build-core just installed.
CMAKE_ARGS="$cmake_args" "$venv/bin/python" -m pip install -q --no-build-isolation .
"$venv/bin/python" -c "import zkgpu, sys; print('zkgpu', zkgpu.__version__, 'from', zkgpu.__file__)"
OMP_WAIT_POLICY=passive "$venv/bin/python" -m pytest -q -p no:cacheprovider bindings/python/tests
