"""Valid Ed25519 signatures for the benchmark, signed here: zkgpu verifies, it does not sign.

RFC 8032 section 5.1 in Python integers (extended twisted Edwards coordinates, section 5.1.4),
slow (a few milliseconds a signature) but needing nothing beyond hashlib.
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


def ed25519_batch(size, distinct=16, message_bytes=64):
    """A batch of `size` valid signatures: `distinct` of them signed, repeated to fill it."""
    keys, sigs, msgs = [], [], []
    for i in range(min(size, distinct)):
        msg = hashlib.shake_256(i.to_bytes(8, "little")).digest(message_bytes)
        public, sig = sign(hashlib.sha256(b"zkgpu bench %d" % i).digest(), msg)
        keys.append(public)
        sigs.append(sig)
        msgs.append(msg)
    pick = [i % len(keys) for i in range(size)]
    public_keys = np.frombuffer(b"".join(keys[i] for i in pick), np.uint8).reshape(size, 32)
    signatures = np.frombuffer(b"".join(sigs[i] for i in pick), np.uint8).reshape(size, 64)
    return public_keys, signatures, [msgs[i] for i in pick]
