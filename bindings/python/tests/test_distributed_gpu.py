"""zkgpu.distributed on a GPU worker (num_gpus=1, backend cuda): the same verdicts and proof bytes
as the CPU library called directly, on batches of several sizes, powers of two and not. Skipped
without Ray or without a usable GPU (the CPU machine of CI)."""

import numpy as np
import pytest

ray = pytest.importorskip("ray")

import zkgpu  # noqa: E402

if not zkgpu.cuda_usable():
    pytest.skip(f"no usable GPU: {zkgpu.cuda_unavailable_reason()}", allow_module_level=True)

import zkgpu.distributed as zd  # noqa: E402
from zkgpu.distributed import _bench_inputs  # noqa: E402

SIZES = [1, 255, 256, 4097, 65536]


@pytest.fixture(scope="module")
def pool():
    ray.init(num_gpus=1, include_dashboard=False, log_to_driver=False)
    with zd.Pool(workers=1, gpu=True) as p:
        assert p.backend == "cuda"
        yield p
    ray.shutdown()


def _ed25519_batches():
    rng = np.random.default_rng(20260101)
    valid = _bench_inputs.ed25519_batch(64, distinct=64)
    batches = []
    for k, n in enumerate(SIZES):
        pick = rng.integers(0, 64, n)
        pk, sig = valid[0][pick], valid[1][pick]
        # Messages as an (n, 64) array and as a list of bytes, in turn.
        msgs = valid[2][pick] if k % 2 else [bytes(valid[2][i]) for i in pick]
        bad = rng.random(n) < 0.25  # a quarter altered, at random places
        sig[bad, rng.integers(0, 64, int(bad.sum()))] ^= 1
        batches.append((pk, sig, msgs))
    return batches


def test_verify_ed25519_on_the_gpu_equals_the_cpu(pool):
    batches = _ed25519_batches()
    results = list(zd.verify_ed25519(batches, pool=pool))
    assert len(results) == len(batches)
    for batch, got in zip(batches, results):
        want = zkgpu.ed25519_verify_batch(*batch, backend="cpu")
        assert np.array_equal(got, want)
        assert len(want) == 1 or 0 < want.sum() < len(want)  # both verdicts occur


def test_mldsa_verify_on_the_gpu_equals_the_cpu(pool):
    rng = np.random.default_rng(7)
    keys = zkgpu.mldsa_keygen(rng.integers(0, 256, (8, 32), dtype=np.uint8), set=65, backend="cpu")
    batches = []
    for n in (1, 100, 257):
        who = rng.integers(0, 8, n)
        msgs = [rng.bytes(int(rng.integers(0, 200))) for _ in range(n)]
        sigs = zkgpu.mldsa_sign(keys.secret_keys[who], msgs, set=65, backend="cpu").signatures
        sigs[rng.random(n) < 0.25, 7] ^= 1
        batches.append((keys.public_keys[who], msgs, sigs))
    for batch, got in zip(batches, zd.mldsa_verify(batches, set=65, pool=pool)):
        assert np.array_equal(got, zkgpu.mldsa_verify(*batch, set=65, backend="cpu"))


def test_prove_whir_on_the_gpu_gives_the_cpu_bytes(pool):
    params = zkgpu.WhirParams(num_variables=16, folding_factor=4, pow_bits=8, security_level=64)
    rng = np.random.default_rng(3)
    polys = []
    for _ in range(3):
        evals = rng.integers(0, zkgpu.P, 1 << params.num_variables, dtype=np.uint32)
        point = rng.integers(0, zkgpu.P, (1, params.num_variables, 4), dtype=np.uint32)
        polys.append((evals, point, zkgpu.evaluate_multilinear(evals, point[0])[None]))
    for (evals, points, values), proof in zip(polys, zd.prove_whir(polys, params, pool=pool)):
        assert proof.data == zkgpu.whir_prove(params, evals, points, values, backend="cpu").data
