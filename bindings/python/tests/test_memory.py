"""Memory is released when objects die: 10^5 small calls (arrays in and out, trees, bases, WHIR
proofs, calls that raise) leave the resident set where the warm-up left it."""

import gc
import os

import numpy as np
import pytest

import zkgpu

CALLS = 100_000
WARMUP = 10_000
ALLOWED_GROWTH = 4 << 20  # 40 bytes a call


def rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc (Linux)")
def test_no_growth_over_many_small_calls():
    rng = np.random.default_rng(1)
    v = rng.integers(0, zkgpu.P, 8, dtype=np.uint32)
    s = rng.integers(0, zkgpu.P, (1, 16), dtype=np.uint32)
    m = rng.integers(0, zkgpu.P, (4, 2), dtype=np.uint32)
    pk, sig = [bytes(32)], [bytes(64)]
    bad = np.full(4, zkgpu.P, np.uint32)
    params = zkgpu.WhirParams(num_variables=4, folding_factor=2, pow_bits=0, security_level=16)
    evals = rng.integers(0, zkgpu.P, 16, dtype=np.uint32)
    point = rng.integers(0, zkgpu.P, (4, 4), dtype=np.uint32)
    value = zkgpu.evaluate_multilinear(evals, point)
    seeds = np.zeros((1, 64), np.uint8)

    def one(i):
        k = i % 8
        if k == 0:
            zkgpu.ntt(v, inverse=bool(i & 8))
        elif k == 1:
            zkgpu.poseidon2_permute(s)
        elif k == 2:
            t = zkgpu.MerkleTree(m)
            t.open(1)
            t.root
        elif k == 3:
            zkgpu.ed25519_verify_batch(pk, sig, [b"msg"])
        elif k == 4:
            try:
                zkgpu.ntt(bad)
            except zkgpu.InvalidArgument:
                pass
        elif k == 5:
            zkgpu.msm([], [])
        elif k == 6 and i % 800 == 6:  # the slower calls, less often
            proof = zkgpu.whir_prove(params, evals, point, value)
            zkgpu.whir_verify(params, point, value, proof)
            zkgpu.mlkem_keygen(seeds, set=512)
        else:
            zkgpu.from_montgomery(zkgpu.to_montgomery(v))

    for i in range(WARMUP):
        one(i)
    gc.collect()
    before = rss()
    for i in range(WARMUP, CALLS):
        one(i)
    gc.collect()
    grown = rss() - before
    assert grown < ALLOWED_GROWTH, f"resident set grew by {grown} bytes over {CALLS - WARMUP} calls"
