"""BLS12-377 MSM and ML-KEM / ML-DSA batches through Python, on the repository's known answers
(tests/vectors/bls12_377's MSM KAT as tests/capi/msm_kat.h encodes it; Wycheproof for ML-KEM and
ML-DSA)."""

import re

import numpy as np
import pytest

import zkgpu
from conftest import VECTORS, load_vectors


def msm_kat():
    path = VECTORS.parent / "capi" / "msm_kat.h"
    if not path.exists():
        pytest.skip(f"{path} not found")
    text = path.read_text()

    def arr(name):
        body = re.search(name + r"\[\d+\] = \{(.*?)\};", text, re.S).group(1)
        return bytes(int(x, 16) for x in re.findall(r"0x([0-9a-f]{2})", body))

    pts_c, pts_u, sc = arr("msm_kat_points_c"), arr("msm_kat_points_u"), arr("msm_kat_scalars")
    n = len(sc) // 32
    return ([pts_c[48 * i:48 * (i + 1)] for i in range(n)], [pts_u[96 * i:96 * (i + 1)] for i in range(n)],
            [int.from_bytes(sc[32 * i:32 * (i + 1)], "little") for i in range(n)], arr("msm_kat_expected_c"),
            arr("msm_kat_expected_u"))


def test_msm_known_answer_both_encodings():
    pc, pu, scalars, want_c, want_u = msm_kat()
    assert zkgpu.msm(pc, scalars, backend="cpu") == want_c
    assert zkgpu.msm(pu, scalars, compressed=False) == want_u
    assert zkgpu.msm(pc, scalars, compressed=False) == want_u
    arr = np.frombuffer(b"".join(pu), np.uint8).reshape(-1, 96)
    assert zkgpu.msm(arr, np.frombuffer(b"".join(s.to_bytes(32, "little") for s in scalars), np.uint8)
                     .reshape(-1, 32)) == want_c


def test_msm_bases_reused():
    pc, _, scalars, want_c, want_u = msm_kat()
    bases = zkgpu.MsmBases(pc)
    assert len(bases) == bases.size == len(pc)
    assert bases.msm(scalars) == want_c
    assert bases.msm(scalars, compressed=False) == want_u
    assert bases.export().shape == (len(pc), 144)


def test_msm_bad_input():
    pc, _, scalars, _, _ = msm_kat()
    with pytest.raises(zkgpu.InvalidArgument, match="group order|r\\)"):
        zkgpu.msm(pc, [zkgpu._msm.R] + scalars[1:])
    with pytest.raises(zkgpu.InvalidArgument, match="scalars"):
        zkgpu.msm(pc, scalars[:-1])
    bad = bytearray(pc[0])
    bad[0] ^= 1  # off the curve (or out of G1)
    with pytest.raises(zkgpu.InvalidArgument, match=r"points\[0\]"):
        zkgpu.msm([bytes(bad)] + pc[1:], scalars)
    with pytest.raises(zkgpu.InvalidArgument, match="48 bytes"):
        zkgpu.msm([b"\0" * 40], [1])
    assert len(zkgpu.msm([], [])) == 48  # the identity


@pytest.mark.parametrize("kset", [512, 768, 1024])
def test_mlkem_wycheproof_keygen_and_round_trip(kset):
    j = load_vectors(f"mlkem/wycheproof_mlkem_{kset}_keygen_seed_test.json")
    tests = [t for g in j["testGroups"] for t in g["tests"]][:20]
    seeds = np.array([list(bytes.fromhex(t["seed"])) for t in tests], np.uint8)
    keys = zkgpu.mlkem_keygen(seeds, set=kset, backend="cpu")
    for i, t in enumerate(tests):
        assert keys.encapsulation_keys[i].tobytes() == bytes.fromhex(t["ek"])
        assert keys.decapsulation_keys[i].tobytes() == bytes.fromhex(t["dk"])
    enc = zkgpu.mlkem_encaps(keys.encapsulation_keys, set=kset)
    assert enc.ok.all()
    dec = zkgpu.mlkem_decaps(keys.decapsulation_keys, enc.ciphertexts, set=kset)
    assert dec.ok.all()
    np.testing.assert_array_equal(dec.shared_keys, enc.shared_keys)


def test_mlkem_wycheproof_encaps():
    j = load_vectors("mlkem/wycheproof_mlkem_768_encaps_test.json")
    tests = [t for g in j["testGroups"] for t in g["tests"]]
    ek = [bytes.fromhex(t["ek"]) for t in tests]
    m = np.array([list(bytes.fromhex(t["m"])) for t in tests], np.uint8)
    out = zkgpu.mlkem_encaps(ek, m, set=768)
    for i, t in enumerate(tests):
        assert out.ok[i] == (t["result"] == "valid"), t["tcId"]
        if t["result"] == "valid":
            assert out.ciphertexts[i].tobytes() == bytes.fromhex(t["c"])
            assert out.shared_keys[i].tobytes() == bytes.fromhex(t["K"])
        else:
            assert not out.ciphertexts[i].any() and not out.shared_keys[i].any()


def test_mlkem_wrong_lengths_are_per_item():
    keys = zkgpu.mlkem_keygen(np.arange(128, dtype=np.uint8).reshape(2, 64))
    eks = [keys.encapsulation_keys[0].tobytes(), keys.encapsulation_keys[1].tobytes()[:-1]]
    out = zkgpu.mlkem_encaps(eks)
    assert out.ok.tolist() == [True, False] and not out.ciphertexts[1].any()
    with pytest.raises(zkgpu.InvalidArgument, match="parameter set"):
        zkgpu.mlkem_sizes(700)


@pytest.mark.parametrize("dset", [44, 65, 87])
def test_mldsa_wycheproof_sign_and_verify(dset):
    j = load_vectors(f"mldsa/wycheproof_mldsa_{dset}_sign_seed_test.json")
    for g in j["testGroups"][:3]:
        keys = zkgpu.mldsa_keygen([bytes.fromhex(g["privateSeed"])], set=dset)
        assert keys.public_keys[0].tobytes() == bytes.fromhex(g["publicKey"])
        tests = [t for t in g["tests"] if "mu" in t or "msg" in t][:6]
        sk = [keys.secret_keys[0].tobytes()] * len(tests)
        msgs = [bytes.fromhex(t["msg"]) for t in tests]
        ctx = [bytes.fromhex(t.get("ctx", "")) for t in tests]
        sigs = zkgpu.mldsa_sign(sk, msgs, ctx, set=dset)
        for i, t in enumerate(tests):
            valid = t["result"] == "valid"
            assert sigs.ok[i] == valid, t["tcId"]
            if valid:
                assert sigs.signatures[i].tobytes() == bytes.fromhex(t["sig"]), t["tcId"]
        ok = zkgpu.mldsa_verify([keys.public_keys[0].tobytes()] * len(tests), msgs, sigs.signatures, ctx, set=dset)
        np.testing.assert_array_equal(ok, sigs.ok)


def test_mldsa_wycheproof_verify():
    j = load_vectors("mldsa/wycheproof_mldsa_65_verify_test.json")
    pk, msg, sig, ctx, want = [], [], [], [], []
    for g in j["testGroups"]:
        for t in g["tests"]:
            pk.append(bytes.fromhex(g["publicKey"]))
            msg.append(bytes.fromhex(t["msg"]))
            sig.append(bytes.fromhex(t["sig"]))
            ctx.append(bytes.fromhex(t.get("ctx", "")))
            want.append(t["result"] == "valid")
    np.testing.assert_array_equal(zkgpu.mldsa_verify(pk, msg, sig, ctx, set=65, backend="cpu"), np.array(want))


def test_mldsa_hedged_and_mu():
    keys = zkgpu.mldsa_keygen(np.ones((2, 32), np.uint8), set=44)
    msgs = [b"a", b"b"]
    det = zkgpu.mldsa_sign(keys.secret_keys, msgs, set=44)
    hedged = zkgpu.mldsa_sign(keys.secret_keys, msgs, rnd="random", set=44)
    assert det.ok.all() and hedged.ok.all()
    assert not np.array_equal(det.signatures, hedged.signatures)
    assert zkgpu.mldsa_verify(keys.public_keys, msgs, hedged.signatures, set=44).all()
    bad = zkgpu.mldsa_sign(keys.secret_keys, msgs, contexts=[b"x" * 256, b""], set=44)
    assert bad.ok.tolist() == [False, True]
