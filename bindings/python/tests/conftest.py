"""Shared by the Python suite: the repository's known-answer vectors (tests/vectors), a seeded
generator (ZKGPU_TEST_SEED overrides the seed) and the GPU fixtures, which skip the GPU tests
cleanly on a machine without CuPy or a usable GPU."""

import json
import os
import pathlib

# Before the library's OpenMP runtime starts: idle worker threads sleep instead of spinning, so
# thousands of small calls do not compete with their own spinning threads (2-core CI machines).
os.environ.setdefault("OMP_WAIT_POLICY", "passive")

import numpy as np
import pytest

import zkgpu

VECTORS = pathlib.Path(__file__).resolve().parents[3] / "tests" / "vectors"
SEED = int(os.environ.get("ZKGPU_TEST_SEED", "20260101"))


def load_vectors(rel: str):
    path = VECTORS / rel
    if not path.exists():
        pytest.skip(f"{path} not found (run the suite from a zkgpu checkout)")
    return json.loads(path.read_text())


@pytest.fixture
def rng():
    return np.random.default_rng(SEED)


def random_field(rng, shape):
    return rng.integers(0, zkgpu.P, size=shape, dtype=np.uint32)


@pytest.fixture
def cupy():
    """CuPy on a usable GPU, else the test is skipped (the CPU machine of CI has neither)."""
    if not zkgpu.cuda_usable():
        pytest.skip(f"no usable GPU: {zkgpu.cuda_unavailable_reason()}")
    cp = pytest.importorskip("cupy")
    return cp


@pytest.fixture
def torch_cuda():
    if not zkgpu.cuda_usable():
        pytest.skip(f"no usable GPU: {zkgpu.cuda_unavailable_reason()}")
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch without CUDA")
    return torch
