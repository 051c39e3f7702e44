"""ML-KEM (FIPS 203) and ML-DSA (FIPS 204) batches (include/zkgpu/mlkem.hpp, mldsa.hpp, docs/pq.md).

Fixed-size inputs are (n, size) uint8 arrays or sequences of bytes; outputs are (n, size) uint8
arrays. A per-item ok array (NumPy bool) says which items were accepted: a rejected item (a wrong
length, an ek that fails the modulus check, a dk whose H(ek) does not match, a context over 255
bytes, ...) gets zeroed outputs and never changes another item's result."""

from __future__ import annotations

from typing import NamedTuple, Optional

import numpy as np

from . import _core, _progress
from ._arrays import backend as _backend, byte_items, byte_rows
from ._errors import InvalidArgument

MLKEM_SETS = (512, 768, 1024)
MLDSA_SETS = (44, 65, 87)


def _set(value, allowed, what) -> str:
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    if value not in allowed:
        raise InvalidArgument(f"{what} parameter set {value!r} is not one of {', '.join(map(str, allowed))}")
    return str(value)


def mlkem_sizes(set: int = 768) -> dict:
    """Byte sizes of set: encapsulation_key, decapsulation_key, ciphertext, seed, message, shared_key."""
    return _core.mlkem_sizes(_set(set, MLKEM_SETS, "ML-KEM"))


def mldsa_sizes(set: int = 65) -> dict:
    """Byte sizes of set: public_key, secret_key, signature, seed, rnd, mu, max_context."""
    return _core.mldsa_sizes(_set(set, MLDSA_SETS, "ML-DSA"))


class _Fixed:
    """Fixed-size items as one (n, size) array plus a mask of the items whose length was wrong
    (packed as zeros and rejected after the call)."""

    def __init__(self, items, size: int, what: str):
        if isinstance(items, np.ndarray):
            self.rows = byte_rows(items, what, size)
            self.bad = np.zeros(self.rows.shape[0], dtype=bool)
            return
        items = list(byte_items(items, what))
        self.bad = np.array([len(memoryview(b)) != size for b in items], dtype=bool)
        packed = [bytes(memoryview(b)) if not bad else bytes(size) for b, bad in zip(items, self.bad)]
        self.rows = np.frombuffer(b"".join(packed), dtype=np.uint8).reshape(len(items), size).copy()

    def __len__(self) -> int:
        return self.rows.shape[0]


def _same_n(*parts) -> int:
    n = len(parts[0])
    for p in parts[1:]:
        if len(p) != n:
            raise InvalidArgument(f"the inputs have {', '.join(str(len(q)) for q in parts)} items: one per item each")
    return n


class MlKemKeys(NamedTuple):
    encapsulation_keys: np.ndarray
    decapsulation_keys: np.ndarray


class MlKemEncapsulation(NamedTuple):
    ciphertexts: np.ndarray
    shared_keys: np.ndarray
    ok: np.ndarray


class MlKemDecapsulation(NamedTuple):
    shared_keys: np.ndarray
    ok: np.ndarray


def mlkem_keygen(seeds, set: int = 768, backend: str = "auto", progress=None) -> MlKemKeys:
    """KeyGen_internal(d, z) for each 64-byte seed d || z: (ek, dk) arrays."""
    s = _set(set, MLKEM_SETS, "ML-KEM")
    sz = _core.mlkem_sizes(s)
    return MlKemKeys(*_keygen(_core.mlkem_keygen_into, s, seeds, 64, sz["encapsulation_key"],
                              sz["decapsulation_key"], backend, progress))


def _keygen(fn, s: str, seeds, seed_bytes: int, first: int, second: int, backend: str, progress):
    """Both schemes' key generation: seeds in, two (n, size) key arrays out."""
    be = _backend(backend)
    seed = byte_rows(seeds, "seeds", seed_bytes)
    n = seed.shape[0]
    a_keys, b_keys = np.zeros((n, first), np.uint8), np.zeros((n, second), np.uint8)
    _progress.run(n, lambda a, b: fn(s, seed[a:b], a_keys[a:b], b_keys[a:b], be), progress)
    return a_keys, b_keys


def mlkem_encaps(encapsulation_keys, messages=None, set: int = 768, backend: str = "auto",
                 progress=None) -> MlKemEncapsulation:
    """Encapsulation for each ek: (ciphertexts, shared_keys, ok). messages None draws each m from
    the operating system (FIPS 203 Algorithm 20); an (n, 32) array gives the deterministic
    Encaps_internal (tests, cross-checks)."""
    s, be = _set(set, MLKEM_SETS, "ML-KEM"), _backend(backend)
    sz = _core.mlkem_sizes(s)
    ek = _Fixed(encapsulation_keys, sz["encapsulation_key"], "encapsulation_keys")
    m = None if messages is None else byte_rows(messages, "messages", 32)
    n = _same_n(ek, ek if m is None else m)
    ct = np.zeros((n, sz["ciphertext"]), np.uint8)
    key = np.zeros((n, 32), np.uint8)
    st = np.zeros(n, np.uint8)
    _progress.run(n, lambda a, b: _core.mlkem_encaps_into(s, ek.rows[a:b], None if m is None else m[a:b], ct[a:b],
                                                          key[a:b], st[a:b], be), progress)
    ok = _reject(st, ek.bad, ct, key)
    return MlKemEncapsulation(ct, key, ok)


def mlkem_decaps(decapsulation_keys, ciphertexts, set: int = 768, backend: str = "auto",
                 progress=None) -> MlKemDecapsulation:
    """Decapsulation with implicit rejection: (shared_keys, ok). A ciphertext that does not
    re-encrypt still gives a (pseudorandom) key and ok; ok is False only for a malformed dk or a
    wrong length."""
    s, be = _set(set, MLKEM_SETS, "ML-KEM"), _backend(backend)
    sz = _core.mlkem_sizes(s)
    dk = _Fixed(decapsulation_keys, sz["decapsulation_key"], "decapsulation_keys")
    ct = _Fixed(ciphertexts, sz["ciphertext"], "ciphertexts")
    n = _same_n(dk, ct)
    key = np.zeros((n, 32), np.uint8)
    st = np.zeros(n, np.uint8)
    _progress.run(n, lambda a, b: _core.mlkem_decaps_into(s, dk.rows[a:b], ct.rows[a:b], key[a:b], st[a:b], be),
                  progress)
    return MlKemDecapsulation(key, _reject(st, dk.bad | ct.bad, key))


def _reject(status: np.ndarray, bad: np.ndarray, *outputs) -> np.ndarray:
    for o in outputs:
        o[bad] = 0
    return (status == 0) & ~bad


class MlDsaKeys(NamedTuple):
    public_keys: np.ndarray
    secret_keys: np.ndarray


class MlDsaSignatures(NamedTuple):
    signatures: np.ndarray
    ok: np.ndarray


def mldsa_keygen(seeds, set: int = 65, backend: str = "auto", progress=None) -> MlDsaKeys:
    """KeyGen_internal(xi) for each 32-byte seed: (pk, sk) arrays."""
    s = _set(set, MLDSA_SETS, "ML-DSA")
    sz = _core.mldsa_sizes(s)
    return MlDsaKeys(*_keygen(_core.mldsa_keygen_into, s, seeds, 32, sz["public_key"], sz["secret_key"], backend,
                              progress))


def _optional(items, what):
    return None if items is None else byte_items(items, what)


def mldsa_sign(secret_keys, messages, contexts=None, rnd: Optional[object] = None, set: int = 65,
               external_mu: bool = False, backend: str = "auto", progress=None) -> MlDsaSignatures:
    """Signs messages[i] under secret_keys[i] (expanded keys) with context contexts[i] (at most 255
    bytes; None: every context empty). rnd None signs deterministically; "random" draws 32 bytes
    per item from the operating system (hedged signing); an (n, 32) array gives them. external_mu:
    each message is the 64-byte mu itself. Returns (signatures, ok)."""
    s, be = _set(set, MLDSA_SETS, "ML-DSA"), _backend(backend)
    sz = _core.mldsa_sizes(s)
    sk = byte_items(secret_keys, "secret_keys")
    msg = byte_items(messages, "messages")
    ctx = _optional(contexts, "contexts")
    n = _same_n(sk, msg, *([ctx] if ctx is not None else []))
    if isinstance(rnd, str):
        if rnd != "random":
            raise InvalidArgument(f'rnd {rnd!r}: None (deterministic), "random" or (n, 32) bytes')
        import os

        rnd = np.frombuffer(os.urandom(32 * n), dtype=np.uint8).reshape(n, 32).copy()
    r = _optional(rnd, "rnd")
    if r is not None:
        _same_n(sk, r)
    sig = np.zeros((n, sz["signature"]), np.uint8)
    st = np.zeros(n, np.uint8)
    P = _progress.part
    _progress.run(n, lambda a, b: _core.mldsa_sign_into(s, P(sk, a, b), P(msg, a, b),
                                                        None if ctx is None else P(ctx, a, b),
                                                        None if r is None else P(r, a, b), bool(external_mu),
                                                        sig[a:b], st[a:b], be), progress)
    return MlDsaSignatures(sig, st == 0)


def mldsa_verify(public_keys, messages, signatures, contexts=None, set: int = 65, external_mu: bool = False,
                 backend: str = "auto", progress=None) -> np.ndarray:
    """One verdict per item (NumPy bool): signature i valid for (public key i, message i,
    context i). Wrong lengths and contexts over 255 bytes are False."""
    s, be = _set(set, MLDSA_SETS, "ML-DSA"), _backend(backend)
    pk = byte_items(public_keys, "public_keys")
    msg = byte_items(messages, "messages")
    sig = byte_items(signatures, "signatures")
    ctx = _optional(contexts, "contexts")
    n = _same_n(pk, msg, sig, *([ctx] if ctx is not None else []))
    ok = np.zeros(n, np.uint8)
    P = _progress.part
    _progress.run(n, lambda a, b: _core.mldsa_verify_into(s, P(pk, a, b), P(msg, a, b),
                                                          None if ctx is None else P(ctx, a, b), P(sig, a, b),
                                                          bool(external_mu), ok[a:b], be), progress)
    return ok.view(np.bool_)
