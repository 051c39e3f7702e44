"""WHIR through Python: parameters, an honest proof that verifies, rejections with reasons, and the
proof bytes being the same on every call (deterministic PoW)."""

import pytest

import zkgpu
from conftest import random_field

PARAMS = zkgpu.WhirParams(num_variables=10, folding_factor=2, pow_bits=0, security_level=32)


@pytest.fixture
def statement(rng):
    evals = random_field(rng, 1 << PARAMS.num_variables)
    point = random_field(rng, (PARAMS.num_variables, 4))
    value = zkgpu.evaluate_multilinear(evals, point)
    return evals, point[None], value[None]


def test_derive():
    d = PARAMS.derive()
    assert d["num_evaluations"] == 1 << 10 and d["n_rounds"] >= 1 and d["max_proof_bytes_one_claim"] > 0


def test_prove_verify(statement):
    evals, points, values = statement
    steps = []
    proof = zkgpu.whir_prove(PARAMS, evals, points, values, backend="cpu", progress=lambda d, t: steps.append((d, t)))
    assert steps == [(0, 1), (1, 1)]
    assert proof.data[:8] == b"ZKGPWHIR" and proof.root.shape == (8,)
    assert bytes(proof) == proof.data
    v = zkgpu.whir_verify(PARAMS, points, values, proof, expected_root=proof.root)
    assert v and v.accepted and v.reason == ""
    assert zkgpu.whir_verify(PARAMS, points, values, proof.data)  # without a pinned root
    again = zkgpu.whir_prove(PARAMS, evals, points, values, backend="cpu")
    assert again.data == proof.data  # deterministic: same bytes


def test_rejections_have_reasons(statement):
    evals, points, values = statement
    proof = zkgpu.whir_prove(PARAMS, evals, points, values)
    wrong_value = values.copy()
    wrong_value[0, 0] = (int(wrong_value[0, 0]) + 1) % zkgpu.P
    v = zkgpu.whir_verify(PARAMS, points, wrong_value, proof)
    assert not v and v.reason
    other_root = proof.root.copy()
    other_root[0] = (int(other_root[0]) + 1) % zkgpu.P
    v = zkgpu.whir_verify(PARAMS, points, values, proof, expected_root=other_root)
    assert not v and "root" in v.reason
    corrupt = bytearray(proof.data)
    corrupt[len(corrupt) // 2] ^= 1
    assert not zkgpu.whir_verify(PARAMS, points, values, bytes(corrupt))
    assert not zkgpu.whir_verify(PARAMS, points, values, proof.data[:-1])
    other = zkgpu.WhirParams(num_variables=10, folding_factor=2, pow_bits=0, security_level=33)
    v = zkgpu.whir_verify(other, points, values, proof)
    assert not v and v.reason


def test_a_false_claim_proves_nothing(statement):
    evals, points, values = statement
    false = values.copy()
    false[0, 1] = (int(false[0, 1]) + 3) % zkgpu.P
    # The prover notices (its sumcheck does not close) and says so; a forged proof of the false
    # claim, the honest one with the value swapped, is rejected.
    with pytest.raises(zkgpu.InvalidArgument, match="claimed evaluations"):
        zkgpu.whir_prove(PARAMS, evals, points, false)
    honest = zkgpu.whir_prove(PARAMS, evals, points, values)
    assert not zkgpu.whir_verify(PARAMS, points, false, honest)


def test_bad_arguments(statement):
    evals, points, values = statement
    with pytest.raises(zkgpu.InvalidArgument, match="points"):
        zkgpu.whir_prove(PARAMS, evals, points[:, :3], values)
    with pytest.raises(zkgpu.InvalidArgument, match="num_evals|2\\^10"):
        zkgpu.whir_prove(PARAMS, evals[:512], points, values)
    with pytest.raises(zkgpu.InvalidArgument, match="soundness"):
        zkgpu.WhirParams(num_variables=10, soundness="maybe")
    bad = evals.copy()
    bad[3] = zkgpu.P
    with pytest.raises(zkgpu.InvalidArgument):
        zkgpu.whir_prove(PARAMS, bad, points, values)
