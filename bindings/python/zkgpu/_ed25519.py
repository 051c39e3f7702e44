"""Ed25519 batch verification (include/zkgpu/ed25519.hpp, docs/ed25519.md)."""

from __future__ import annotations

import numpy as np

from . import _core, _gpu, _progress
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
    messages: a sequence of bytes-like objects, an (n, L) uint8 array, or the packed form
    (data, offsets): all messages back to back in one bytes-like object or uint8 array and n + 1
    uint64 offsets (message i is data[offsets[i]:offsets[i+1]], offsets[0] = 0, offsets[n] =
    len(data)). Arrays and the packed form are read in place; a sequence is packed once. An item
    whose key or signature has the wrong length is False, not an error. progress(done, total) is
    called between sub-batches of 2^20 items."""
    md, be = _mode(mode), _backend(backend)
    pk = byte_items(public_keys, "public_keys")
    sig = byte_items(signatures, "signatures")
    if isinstance(messages, tuple) and len(messages) == 2:
        return _verify_packed(pk, sig, messages, md, be, progress)
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


def _verify_packed(pk, sig, messages, md, be, progress) -> np.ndarray:
    raw = messages[0]
    data = raw if isinstance(raw, np.ndarray) else np.frombuffer(raw, dtype=np.uint8)
    if data.dtype != np.uint8 or data.ndim != 1:
        raise InvalidArgument("messages: the packed form's data must be bytes or a 1-D uint8 array")
    offsets = np.asarray(messages[1])
    if offsets.dtype.kind not in "ui" or offsets.ndim != 1:
        raise InvalidArgument("messages: the packed form's offsets must be a 1-D integer array of n + 1 entries")
    offsets = np.ascontiguousarray(offsets, dtype=np.uint64)
    data = np.ascontiguousarray(data)
    n = len(pk)
    if len(sig) != n or len(offsets) != n + 1:
        raise InvalidArgument(f"{n} public keys, {len(sig)} signatures and {len(offsets)} message offsets: expected "
                              "n, n and n + 1")
    out = np.zeros(n, dtype=np.uint8)

    def step(s, e):
        lo, hi = int(offsets[s]), int(offsets[e])
        part = offsets[s:e + 1] if lo == 0 else offsets[s:e + 1] - np.uint64(lo)  # each call starts at 0
        _core.ed25519_verify_packed_into(_progress.part(pk, s, e), _progress.part(sig, s, e),
                                         data if (lo == 0 and hi == len(data)) else data[lo:hi], part, out[s:e], md,
                                         be)

    _progress.run(n, step, progress)
    return out.view(np.bool_)


def ed25519_verify_batch_device(public_keys, signatures, messages, message_offsets, verdicts, mode: str = "openssl",
                                stream=None) -> None:
    """The packed batch on GPU arrays, in place (zkgpu::ed25519_verify_batch_device): public_keys
    (n, 32) uint8, signatures (n, 64) uint8, messages a 1-D uint8 array of the messages back to
    back, message_offsets n + 1 uint64 entries, verdicts an (n,) uint8 array that receives 1 or 0.
    Enqueued on the stream without waiting. The offsets are on the device, so they are checked
    per item there: an item whose range is not within messages gets verdict 0."""
    md = _mode(mode)
    k = _gpu.view(public_keys, "public_keys", 1, stream, False)
    st = k.stream if stream is None else stream
    s = _gpu.view(signatures, "signatures", 1, st, False)
    m = _gpu.view(messages, "messages", 1, st, False)
    o = _gpu.view(message_offsets, "message_offsets", 8, st, False)
    v = _gpu.view(verdicts, "verdicts", 1, st, True)
    n = k.shape[0] if len(k.shape) == 2 else -1
    if tuple(k.shape) != (n, 32) or tuple(s.shape) != (n, 64) or tuple(o.shape) != (n + 1,) or v.size != n:
        raise InvalidArgument(f"shapes {k.shape}, {s.shape}, {o.shape}, {v.shape}: expected (n, 32), (n, 64), (n + 1,) "
                              "and (n,)")
    if len(m.shape) != 1:
        raise InvalidArgument(f"messages: shape {m.shape}, expected a 1-D uint8 array")
    _core.ed25519_verify_batch_device(k.ptr, s.ptr, m.ptr, m.size, o.ptr, n, v.ptr, md, k.stream)


def ed25519_verify(public_key: bytes, signature: bytes, message: bytes, mode: str = "openssl") -> bool:
    """One verification on the calling thread (a wrong-length key or signature is False)."""
    return bool(_core.ed25519_verify(bytes(public_key), bytes(signature), bytes(message), _mode(mode)))
