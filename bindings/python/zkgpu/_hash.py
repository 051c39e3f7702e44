"""Poseidon2 over BabyBear (include/zkgpu/poseidon2.hpp) and Merkle commitments built on it
(include/zkgpu/merkle.hpp), on canonical uint32 arrays; their device-pointer forms on GPU arrays."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import _core, _gpu, _progress
from ._arrays import P, backend as _backend, field as _field_array, log2_rows, output
from ._errors import InvalidArgument

CONSTANTS = ("plonky3", "whir")
_R = (1 << 32) % P  # the Montgomery factor 2^32 mod p
_R_INV = pow(_R, P - 2, P)


def _constants(name: str) -> str:
    if name not in CONSTANTS:
        raise InvalidArgument(f'constants {name!r} is not one of "plonky3", "whir"')
    return name


def _width(shape, what: str) -> int:
    if len(shape) != 2 or shape[1] not in (16, 24):
        raise InvalidArgument(f"{what}: expected an (n, 16) or (n, 24) array, got shape {tuple(shape)}")
    return int(shape[1])


def poseidon2_permute(states, constants: str = "plonky3", field: str = "babybear", backend: str = "auto",
                      progress=None, out=None):
    """The Poseidon2 permutation of each row of an (n, 16) or (n, 24) array of canonical values.

    constants: "plonky3" (Plonky3's default BabyBear set) or "whir" (SmallRng seed 1, the set of
    every WHIR configuration). Returns a new (n, width) uint32 array of canonical values. A GPU
    array (CuPy or PyTorch) gives a new array of its library, permuted on the GPU.
    progress(done, total) is called between sub-batches of 2^20 states (zkgpu._progress). out: a
    uint32 (n, width) array to write instead of a new one (may be states itself).
    """
    if field != "babybear":
        raise InvalidArgument(f'field {field!r}: the only field is "babybear"')
    _constants(constants)
    if _gpu.is_device_array(states):
        width = _width(tuple(states.shape), "states")
        words = _gpu_to_montgomery(states)
        poseidon2_permute_device(words, constants=constants)
        out = _gpu_from_montgomery(words)
        if progress is not None:
            progress(states.shape[0], states.shape[0])
        return out
    a = _field_array(states, "states", ndim=(2,))
    width = _width(a.shape, "states")
    out = output(out, a.shape)
    be = _backend(backend)
    _progress.run(a.shape[0], lambda s, e: _core.poseidon2_permute_into(a[s:e], out[s:e], width, constants, be),
                  progress)
    return out


def poseidon2_permute_device(states, constants: str = "plonky3", stream=None) -> None:
    """Permutes an (n, 16) or (n, 24) uint32 GPU array of Montgomery words in place, enqueued on
    the stream without waiting (to_montgomery / from_montgomery convert on the host)."""
    v = _gpu.view(states, "states", 4, stream, True)
    width = _width(v.shape, "states")
    _core.poseidon2_permute_device(v.ptr, v.shape[0], width, _constants(constants), v.stream)


def _gpu_to_montgomery(a):
    top = type(a).__module__.split(".")[0]
    if str(a.dtype) not in ("uint32", "torch.uint32"):
        raise InvalidArgument(f"states: dtype {a.dtype} is not uint32")
    if top == "cupy":
        import cupy as cp

        if bool((a >= P).any()):
            raise InvalidArgument(f"states: a value is not a canonical BabyBear value (must be < p = {P})")
        return ((a.astype(cp.uint64) * _R) % P).astype(cp.uint32)
    if top == "torch":
        import torch

        x = a.view(torch.int32).to(torch.int64)  # values < p < 2^31: the same bits as int32
        if bool(((x < 0) | (x >= P)).any()):
            raise InvalidArgument(f"states: a value is not a canonical BabyBear value (must be < p = {P})")
        return ((x * _R) % P).to(torch.int32).view(torch.uint32).contiguous()
    raise InvalidArgument(f"states: {type(a).__name__} GPU arrays go to poseidon2_permute_device (Montgomery words, "
                          "in place); poseidon2_permute converts CuPy and PyTorch arrays")


def _gpu_from_montgomery(w):
    top = type(w).__module__.split(".")[0]
    if top == "cupy":
        import cupy as cp

        return ((w.astype(cp.uint64) * _R_INV) % P).astype(cp.uint32)
    import torch

    x = w.view(torch.int32).to(torch.int64)
    return ((x * _R_INV) % P).to(torch.int32).view(torch.uint32)


class MerkleOpening(NamedTuple):
    """An opened row and its log2(rows) sibling digests, leaf level first (canonical uint32)."""

    row: np.ndarray
    siblings: np.ndarray


class MerkleTree:
    """A Merkle commitment to a (rows, cols) matrix of canonical values, as Plonky3's
    MerkleTreeMmcs with arity 2 and the Poseidon2-16 sponge and compression (rows a power of
    two). The tree keeps a copy of the matrix to answer openings."""

    def __init__(self, matrix, constants: str = "plonky3", backend: str = "auto"):
        a = _field_array(matrix, "matrix")
        rows = a.shape[0]
        cols = 1 if a.ndim == 1 else a.shape[1]
        log2_rows(rows, "matrix")
        self._tree = _core.merkle_build(a, rows, cols, _constants(constants), _backend(backend))

    rows = property(lambda self: self._tree.rows, doc="Rows of the committed matrix.")
    cols = property(lambda self: self._tree.cols, doc="Columns of the committed matrix.")
    depth = property(lambda self: self._tree.depth, doc="log2(rows): the sibling digests of an opening.")
    constants = property(lambda self: self._tree.constants, doc='The Poseidon2 constant set ("plonky3" | "whir").')

    @property
    def root(self) -> np.ndarray:
        """The root digest, 8 canonical uint32 words."""
        return self._tree.root()

    def nodes(self) -> np.ndarray:
        """Every digest, (2*rows - 1, 8): the leaves first, then each level up, the root last."""
        return self._tree.nodes()

    def open(self, index: int) -> MerkleOpening:
        """The opening of row index (InvalidArgument when index >= rows)."""
        if index < 0:
            raise InvalidArgument(f"index {index} is negative")
        return MerkleOpening(*self._tree.open(index))

    def verify(self, index: int, opening: MerkleOpening) -> bool:
        """merkle_verify against this tree's root and shape."""
        return merkle_verify(self.root, self.rows, self.cols, index, opening.row, opening.siblings, self.constants)

    def __repr__(self) -> str:
        return f"MerkleTree(rows={self.rows}, cols={self.cols}, constants={self.constants!r})"


def merkle_build(matrix, constants: str = "plonky3", backend: str = "auto") -> MerkleTree:
    """MerkleTree(matrix, constants, backend)."""
    return MerkleTree(matrix, constants, backend)


def merkle_root(matrix, constants: str = "plonky3", backend: str = "auto") -> np.ndarray:
    """The root of the commitment to matrix (8 canonical uint32 words)."""
    return MerkleTree(matrix, constants, backend).root


def _opening_words(x) -> np.ndarray | None:
    a = np.asarray(x)
    if a.dtype.kind not in "ui":
        raise InvalidArgument(f"opening: dtype {a.dtype} is not an integer dtype")
    if a.size and (int(a.min()) < 0 or int(a.max()) >= 1 << 32):
        return None
    return np.ascontiguousarray(a, dtype=np.uint32)


def merkle_verify(root, rows: int, cols: int, index: int, row, siblings, constants: str = "plonky3") -> bool:
    """True iff (row, siblings) opens row index of a rows x cols commitment with this root. An
    opening that is wrong in any way (lengths, words >= p, digests) is False, not an error; the
    root (the verifier's own) must be 8 canonical words."""
    r = _field_array(root, "root", ndim=(1,))
    row_w, sib_w = _opening_words(row), _opening_words(siblings)
    if row_w is None or sib_w is None or index < 0 or rows < 0 or cols < 0:
        return False
    if sib_w.size % 8:
        return False
    return bool(_core.merkle_verify(r, rows, cols, index, row_w.reshape(-1), sib_w.reshape(-1), _constants(constants)))


def merkle_build_device(matrix, nodes, constants: str = "plonky3", stream=None) -> None:
    """The digests of a (rows, cols) uint32 GPU matrix of Montgomery words into the GPU array nodes
    ((2*rows - 1, 8) uint32, Montgomery words, the layout of MerkleTree.nodes()), enqueued on the
    stream without waiting."""
    v = _gpu.view(matrix, "matrix", 4, stream, False)
    if len(v.shape) not in (1, 2):
        raise InvalidArgument(f"matrix: expected a (rows, cols) GPU array, got shape {v.shape}")
    rows = v.shape[0]
    cols = 1 if len(v.shape) == 1 else v.shape[1]
    log2_rows(rows, "matrix")
    o = _gpu.view(nodes, "nodes", 4, v.stream if stream is None else stream, True)
    if o.size != (2 * rows - 1) * 8:
        raise InvalidArgument(f"nodes: {o.size} words, the tree needs (2*rows - 1) * 8 = {(2 * rows - 1) * 8}")
    _core.merkle_build_device(v.ptr, rows, cols, _constants(constants), o.ptr, v.stream)
