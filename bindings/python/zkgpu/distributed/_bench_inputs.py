"""The benchmark's batches: valid signatures, a few distinct ones repeated to the batch size.

zkgpu verifies Ed25519 signatures but does not make them, so they are signed here: RFC 8032
section 5.1 in Python integers (extended twisted Edwards coordinates, section 5.1.4), slow (tens
of milliseconds a signature) but needing nothing beyond hashlib. ML-DSA's come from zkgpu.
"""

import hashlib

import numpy as np

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = -121665 * pow(121666, P - 2, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)


def _base():
    y = 4 * pow(5, P - 2, P) % P
    xx = (y * y - 1) * pow(D * y * y + 1, P - 2, P) % P
    x = pow(xx, (P + 3) // 8, P)
    if (x * x - xx) % P:
        x = x * SQRT_M1 % P
    if x & 1:
        x = P - x
    return (x, y, 1, x * y % P)


G = _base()


def _add(p, q):
    a = (p[1] - p[0]) * (q[1] - q[0]) % P
    b = (p[1] + p[0]) * (q[1] + q[0]) % P
    c = 2 * p[3] * q[3] * D % P
    d = 2 * p[2] * q[2] % P
    e, f, g, h = b - a, d - c, d + c, b + a
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def _mul(s, p):
    q = (0, 1, 1, 0)
    while s:
        if s & 1:
            q = _add(q, p)
        p = _add(p, p)
        s >>= 1
    return q


def _encode(p):
    zinv = pow(p[2], P - 2, P)
    x, y = p[0] * zinv % P, p[1] * zinv % P
    return (y | (x & 1) << 255).to_bytes(32, "little")


def _h(*parts):
    return int.from_bytes(hashlib.sha512(b"".join(parts)).digest(), "little")


def sign(seed, message):
    """(public key, signature) of message under the 32-byte secret seed."""
    digest = hashlib.sha512(seed).digest()
    a = int.from_bytes(digest[:32], "little")
    a = (a & ~7 & ((1 << 254) - 1)) | (1 << 254)
    public = _encode(_mul(a, G))
    r = _h(digest[32:], message) % L
    big_r = _encode(_mul(r, G))
    s = (r + _h(big_r, public, message) * a) % L
    return public, big_r + s.to_bytes(32, "little")


def _message(i, size):
    return hashlib.shake_256(i.to_bytes(8, "little")).digest(size)


def _tile(rows, size):
    """An (size, len) uint8 array of the byte strings rows, repeated."""
    array = np.frombuffer(b"".join(rows), np.uint8).reshape(len(rows), -1)
    return np.ascontiguousarray(array[np.arange(size) % len(rows)])


def ed25519_batch(size, distinct=16, message_bytes=64):
    """(public_keys, signatures, messages) of `size` valid signatures, as uint8 arrays: arrays
    travel through Ray's object store without pickling each item."""
    signed = [sign(hashlib.sha256(b"zkgpu bench %d" % i).digest(), _message(i, message_bytes))
              for i in range(min(size, distinct))]
    messages = [_message(i, message_bytes) for i in range(len(signed))]
    return (_tile([k for k, _ in signed], size), _tile([s for _, s in signed], size),
            _tile(messages, size))


def mldsa_batch(size, distinct=16, message_bytes=64, set=65):  # noqa: A002 - zkgpu's name
    """(public_keys, messages, signatures) of `size` valid ML-DSA signatures, as uint8 arrays."""
    import zkgpu

    n = min(size, distinct)
    seeds = _tile([hashlib.sha256(b"zkgpu bench %d" % i).digest() for i in range(n)], n)
    keys = zkgpu.mldsa_keygen(seeds, set=set, backend="cpu")
    messages = _tile([_message(i, message_bytes) for i in range(n)], n)
    signed = zkgpu.mldsa_sign(keys.secret_keys, messages, set=set, backend="cpu")
    pick = np.arange(size) % n
    return (np.ascontiguousarray(keys.public_keys[pick]), np.ascontiguousarray(messages[pick]),
            np.ascontiguousarray(signed.signatures[pick]))
