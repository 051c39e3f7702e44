"""Ed25519 batches through Python: RFC 8032 and Wycheproof known answers, every input form, wrong
lengths as invalid items, and the modes."""

import sys

import numpy as np
import pytest

import zkgpu
from conftest import load_vectors


def rfc_items():
    v = load_vectors("ed25519/rfc8032_7.1_ed25519.json")["vectors"]
    return ([bytes.fromhex(x["public_key"]) for x in v], [bytes.fromhex(x["signature"]) for x in v],
            [bytes.fromhex(x["message"]) for x in v])


def test_rfc8032_all_valid():
    pk, sig, msg = rfc_items()
    out = zkgpu.ed25519_verify_batch(pk, sig, msg)
    assert out.dtype == np.bool_ and out.shape == (len(pk),) and out.all()
    for p, s, m in zip(pk, sig, msg):
        assert zkgpu.ed25519_verify(p, s, m)


def test_wycheproof_verdicts():
    j = load_vectors("ed25519/wycheproof_ed25519_test.json")
    pk, sig, msg, want = [], [], [], []
    for g in j["testGroups"]:
        key = bytes.fromhex(g["publicKey"]["pk"])
        for t in g["tests"]:
            pk.append(key)
            sig.append(bytes.fromhex(t["sig"]))
            msg.append(bytes.fromhex(t["msg"]))
            want.append(t["result"] == "valid")
    got = zkgpu.ed25519_verify_batch(pk, sig, msg, mode="openssl", backend="cpu")
    np.testing.assert_array_equal(got, np.array(want))


def test_array_and_sequence_inputs_agree():
    pk, sig, msg = rfc_items()
    want = zkgpu.ed25519_verify_batch(pk, sig, msg)
    pk_a = np.frombuffer(b"".join(pk), np.uint8).reshape(-1, 32)
    sig_a = np.frombuffer(b"".join(sig), np.uint8).reshape(-1, 64)
    np.testing.assert_array_equal(zkgpu.ed25519_verify_batch(pk_a, sig_a, msg), want)
    np.testing.assert_array_equal(
        zkgpu.ed25519_verify_batch([bytearray(p) for p in pk], tuple(memoryview(s) for s in sig),
                                   [np.frombuffer(m, np.uint8) for m in msg]), want)
    # Bytes and other bytes-like items mixed, the first non-bytes one after bytes and before them.
    for first_other in range(len(pk)):
        mixed = [bytearray(p) if i >= first_other and i % 2 == first_other % 2 else p for i, p in enumerate(pk)]
        mixed_msg = [memoryview(m) if i == first_other else m for i, m in enumerate(msg)]
        np.testing.assert_array_equal(zkgpu.ed25519_verify_batch(mixed, sig, mixed_msg), want)


def test_tampering_is_per_item():
    pk, sig, msg = rfc_items()
    sig = list(sig)
    sig[1] = bytes([sig[1][0] ^ 1]) + sig[1][1:]
    got = zkgpu.ed25519_verify_batch(pk, sig, msg)
    assert not got[1] and got[0] and got[2:].all()


def test_wrong_lengths_are_invalid_items_not_errors():
    pk, sig, msg = rfc_items()
    pk, sig = list(pk), list(sig)
    pk[0] = pk[0][:31]
    sig[2] = sig[2] + b"\0"
    got = zkgpu.ed25519_verify_batch(pk, sig, msg)
    assert not got[0] and not got[2] and got[1] and got[3:].all()
    assert not zkgpu.ed25519_verify(pk[0], sig[0], msg[0])


def test_empty_batch():
    assert zkgpu.ed25519_verify_batch([], [], []).shape == (0,)


def test_bad_arguments():
    pk, sig, msg = rfc_items()
    with pytest.raises(zkgpu.InvalidArgument, match="one entry per item"):
        zkgpu.ed25519_verify_batch(pk, sig, msg[:-1])
    with pytest.raises(zkgpu.InvalidArgument, match="mode"):
        zkgpu.ed25519_verify_batch(pk, sig, msg, mode="lenient")
    with pytest.raises(zkgpu.InvalidArgument, match="bytes-like"):
        zkgpu.ed25519_verify_batch(pk, sig, ["text"] * len(pk))
    with pytest.raises(zkgpu.InvalidArgument, match="single bytes"):
        zkgpu.ed25519_verify_batch(pk[0], sig[0], msg[0])


def test_a_refused_item_releases_the_items_before_it():
    # The items read before the bad one (bytes and buffer views alike) are let go again: their
    # reference counts and buffer exports are as before the call.
    pk, sig, msg = rfc_items()
    held = [bytes([7]) * 41, bytearray(b"view"), memoryview(b"mv" * 9)]
    before = [sys.getrefcount(x) for x in held]
    for _ in range(3):
        with pytest.raises(zkgpu.InvalidArgument, match=r"messages\[3\] is a str"):
            zkgpu.ed25519_verify_batch(pk[:4], sig[:4], held + ["text"])
    assert [sys.getrefcount(x) for x in held] == before
    held[1].extend(b"!")  # resizing a bytearray fails while a buffer view of it is exported


@pytest.mark.parametrize("mode", ["openssl", "strict", "zip215"])
def test_modes_accept_honest_signatures(mode):
    pk, sig, msg = rfc_items()
    assert zkgpu.ed25519_verify_batch(pk, sig, msg, mode=mode).all()


def test_sub_batches_give_the_same_verdicts(monkeypatch):
    from zkgpu import _progress

    pk, sig, msg = rfc_items()
    pk, sig, msg = pk * 3, list(sig * 3), msg * 3
    sig[7] = bytes(64)
    whole = zkgpu.ed25519_verify_batch(pk, sig, msg)
    monkeypatch.setattr(_progress, "SUB_BATCH", 4)
    seen = []
    parts = zkgpu.ed25519_verify_batch(pk, sig, msg, progress=lambda d, t: seen.append(d))
    np.testing.assert_array_equal(parts, whole)
    assert seen == [0, 4, 8, 12, 15] and not parts[7]


def test_message_rows_of_zero_bytes():
    pk, sig, msg = rfc_items()
    assert msg[0] == b""  # TEST 1 signs the empty message
    rows = np.zeros((1, 0), np.uint8)
    assert zkgpu.ed25519_verify_batch(pk[:1], sig[:1], rows).tolist() == [True]
    two = np.frombuffer(msg[2] * 2, np.uint8).reshape(2, len(msg[2]))  # TEST 3: a 2-byte message
    assert zkgpu.ed25519_verify_batch([pk[2]] * 2, [sig[2], bytes(64)], two).tolist() == [True, False]


def packed(msgs):
    offsets = np.zeros(len(msgs) + 1, np.uint64)
    offsets[1:] = np.cumsum([len(m) for m in msgs])
    return b"".join(msgs), offsets


def test_packed_messages(monkeypatch):
    from zkgpu import _progress

    pk, sig, msg = rfc_items()
    pk, sig, msg = pk * 3, list(sig * 3), msg * 3
    sig[4] = bytes(64)
    pk[6] = pk[6][:5]
    want = zkgpu.ed25519_verify_batch(pk, sig, msg)
    np.testing.assert_array_equal(zkgpu.ed25519_verify_batch(pk, sig, packed(msg)), want)
    data, offsets = packed(msg)
    np.testing.assert_array_equal(zkgpu.ed25519_verify_batch(pk, sig, (np.frombuffer(data, np.uint8), offsets)), want)
    monkeypatch.setattr(_progress, "SUB_BATCH", 4)  # sub-batches rebase their offsets to 0
    np.testing.assert_array_equal(zkgpu.ed25519_verify_batch(pk, sig, packed(msg), progress=lambda d, t: None), want)
    assert not want[4] and not want[6]


def test_packed_messages_bad_offsets():
    pk, sig, msg = rfc_items()
    data, offsets = packed(msg)
    with pytest.raises(zkgpu.InvalidArgument, match="n \\+ 1|offsets"):
        zkgpu.ed25519_verify_batch(pk, sig, (data, offsets[:-1]))
    bad = offsets.copy()
    bad[2], bad[3] = bad[3], bad[2] + 1  # not nondecreasing
    with pytest.raises(zkgpu.InvalidArgument):
        zkgpu.ed25519_verify_batch(pk, sig, (data, bad))
