"""Ed25519 batch verification (include/zkgpu/ed25519.hpp, docs/ed25519.md)."""

from __future__ import annotations

import numpy as np

from . import _core, _progress
from ._arrays import backend as _backend, byte_items
from ._errors import InvalidArgument

MODES = ("openssl", "strict", "zip215")


def _mode(mode: str) -> str:
    if mode not in MODES:
        raise InvalidArgument(f'mode {mode!r} is not one of "openssl", "strict", "zip215"')
    return mode


def ed25519_verify_batch(public_keys, signatures, messages, mode: str = "openssl", backend: str = "auto",
                         progress=None) -> np.ndarray:
    """One verdict per item: a NumPy bool array, True where signature i of messages[i] is valid
    under public_keys[i] with the rules of mode ("openssl": OpenSSL, Go, BoringSSL, dalek verify;
    "strict": dalek verify_strict; "zip215": ZIP-215).

    public_keys: an (n, 32) uint8 array or a sequence of bytes; signatures: (n, 64) or a sequence;
    messages: a sequence of bytes-like objects (or an (n, L) uint8 array). Arrays are read in place,
    bytes objects without a copy. An item whose key or signature has the wrong length is False,
    not an error. progress(done, total) is called between sub-batches of 2^20 items."""
    md, be = _mode(mode), _backend(backend)
    pk = byte_items(public_keys, "public_keys")
    sig = byte_items(signatures, "signatures")
    msg = byte_items(messages, "messages")
    n = len(pk)
    if len(sig) != n or len(msg) != n:
        raise InvalidArgument(f"{n} public keys, {len(sig)} signatures and {len(msg)} messages: the three must "
                              "have one entry per item")
    out = np.zeros(n, dtype=np.uint8)
    _progress.run(n, lambda s, e: _core.ed25519_verify_into(_progress.part(pk, s, e), _progress.part(sig, s, e),
                                                          _progress.part(msg, s, e), out[s:e], md, be),
                  progress)
    return out.view(np.bool_)


def ed25519_verify(public_key: bytes, signature: bytes, message: bytes, mode: str = "openssl") -> bool:
    """One verification on the calling thread (a wrong-length key or signature is False)."""
    return bool(_core.ed25519_verify(bytes(public_key), bytes(signature), bytes(message), _mode(mode)))
