"""Type stubs of the zkgpu package (the implementation: zkgpu/_*.py over the module zkgpu._core)."""

from typing import Any, Callable, NamedTuple, Optional, Sequence, Union

import numpy as np
import numpy.typing as npt

__version__: str
P: int  # 2013265921, the BabyBear prime

Backend = str  # "auto" | "cpu" | "cuda"
Progress = Optional[Callable[[int, int], object]]
FieldArray = npt.ArrayLike  # canonical values < P; uint32 is read without a copy
ByteRows = Union[npt.NDArray[np.uint8], Sequence[bytes]]
ByteItems = Union[npt.NDArray[np.uint8], Sequence[Union[bytes, bytearray, memoryview]]]
GpuArray = Any  # any DLPack / __cuda_array_interface__ object: CuPy, PyTorch, JAX, Numba, ...
Stream = Union[None, int, Any]  # a cudaStream_t as int, or a cupy / torch stream object

from ._errors import CudaError as CudaError, Error as Error, Internal as Internal
from ._errors import InvalidArgument as InvalidArgument, OutOfMemory as OutOfMemory, Unavailable as Unavailable

def cuda_built() -> bool:
    """Whether this build of the library has the CUDA backend."""

def cuda_usable() -> bool:
    """Whether the CUDA backend is built and a usable GPU answers."""

def cuda_unavailable_reason() -> str:
    """Why cuda_usable() is False ("" when it is True)."""

def gpu_info() -> Optional[dict[str, Any]]:
    """The GPU zkgpu uses, or None."""

def cpu_features() -> dict[str, Any]:
    """CPU model, threads, AVX2 / AVX-512 and the SIMD level in use."""

def release_gpu_caches() -> None:
    """Frees the GPU memory zkgpu keeps between calls."""

# BabyBear NTT and low-degree extensions
def ntt(values: Union[FieldArray, GpuArray], inverse: bool = False, shift: int = 1,
        backend: Backend = "auto", out: Optional[npt.NDArray[np.uint32]] = None) -> Any:
    """Forward / inverse NTT of each column of a (2^k,) or (2^k, cols) array (Plonky3's dft_batch);
    NumPy in, a new NumPy uint32 array out (a GPU array in, a new array of its library out)."""

def coset_lde(evals: FieldArray, log_blowup: int, shift: int = 31, backend: Backend = "auto",
              out: Optional[npt.NDArray[np.uint32]] = None) -> npt.NDArray[np.uint32]:
    """Low-degree extension of evaluations over H to shift * H' (|H'| = 2^(k + log_blowup))."""

def lde_from_coeffs(coeffs: FieldArray, log_blowup: int, shift: int = 1, backend: Backend = "auto",
                    out: Optional[npt.NDArray[np.uint32]] = None) -> npt.NDArray[np.uint32]:
    """Zero-pad coefficients to 2^(k + log_blowup) rows and evaluate over shift * H'."""

def to_montgomery(values: FieldArray) -> npt.NDArray[np.uint32]:
    """Canonical values -> Montgomery words (the layout of the *_device calls)."""

def from_montgomery(words: FieldArray) -> npt.NDArray[np.uint32]:
    """Montgomery words -> canonical values."""

def ntt_device(matrix: GpuArray, inverse: bool = False, shift: int = 1, stream: Stream = None) -> None:
    """ntt() in place on a GPU array, enqueued on the stream (linear: either word form)."""

def coset_lde_device(evals: GpuArray, out: GpuArray, log_blowup: int, shift: int = 31, stream: Stream = None) -> None:
    """coset_lde() from one GPU array into another, enqueued on the stream."""

def lde_from_coeffs_device(coeffs: GpuArray, out: GpuArray, log_blowup: int, shift: int = 1,
                           stream: Stream = None) -> None:
    """lde_from_coeffs() from one GPU array into another, enqueued on the stream."""

# Poseidon2 and Merkle trees
def poseidon2_permute(states: Union[FieldArray, GpuArray], constants: str = "plonky3", field: str = "babybear",
                      backend: Backend = "auto", progress: Progress = None,
                      out: Optional[npt.NDArray[np.uint32]] = None) -> Any:
    """Poseidon2 of each row of an (n, 16) or (n, 24) array: a new (n, width) uint32 array."""

def poseidon2_permute_device(states: GpuArray, constants: str = "plonky3", stream: Stream = None) -> None:
    """Poseidon2 in place on an (n, 16|24) GPU array of Montgomery words, enqueued on the stream."""

class MerkleOpening(NamedTuple):
    row: npt.NDArray[np.uint32]
    siblings: npt.NDArray[np.uint32]

class MerkleTree:
    """A Merkle commitment (Plonky3 MerkleTreeMmcs, arity 2, Poseidon2-16) to a (rows, cols) matrix."""

    rows: int
    cols: int
    depth: int
    constants: str
    def __init__(self, matrix: FieldArray, constants: str = "plonky3", backend: Backend = "auto") -> None: ...
    @property
    def root(self) -> npt.NDArray[np.uint32]:
        """The root digest (8 words)."""
    def nodes(self) -> npt.NDArray[np.uint32]:
        """(2*rows - 1, 8) digests, leaves first, the root last."""
    def open(self, index: int) -> MerkleOpening:
        """The opening of row index."""
    def verify(self, index: int, opening: MerkleOpening) -> bool:
        """merkle_verify against this tree's root and shape."""

def merkle_build(matrix: FieldArray, constants: str = "plonky3", backend: Backend = "auto") -> MerkleTree:
    """MerkleTree(matrix, constants, backend)."""

def merkle_root(matrix: FieldArray, constants: str = "plonky3", backend: Backend = "auto") -> npt.NDArray[np.uint32]:
    """The root of the commitment to matrix."""

def merkle_verify(root: FieldArray, rows: int, cols: int, index: int, row: npt.ArrayLike, siblings: npt.ArrayLike,
                  constants: str = "plonky3") -> bool:
    """True iff (row, siblings) opens row index of a rows x cols commitment with this root."""

def merkle_build_device(matrix: GpuArray, nodes: GpuArray, constants: str = "plonky3", stream: Stream = None) -> None:
    """The tree's (2*rows - 1, 8) digests of a GPU matrix of Montgomery words into nodes."""

# WHIR
class WhirParams:
    """WHIR's protocol parameters (the verifier's own choice)."""

    num_variables: int
    security_level: int
    pow_bits: int
    folding_factor: int
    first_folding_factor: Optional[int]
    soundness: str
    starting_log_inv_rate: int
    rs_reduction: Optional[int]
    enforce_pow_budget: bool
    def __init__(self, num_variables: int, security_level: int = 100, pow_bits: int = 16, folding_factor: int = 4,
                 first_folding_factor: Optional[int] = None, soundness: str = "ud", starting_log_inv_rate: int = 1,
                 rs_reduction: Optional[int] = None, enforce_pow_budget: bool = False) -> None: ...
    def derive(self) -> dict[str, Any]:
        """What the parameters derive; InvalidArgument for a configuration zkgpu rejects."""

class WhirProof(NamedTuple):
    data: bytes
    root: npt.NDArray[np.uint32]

class WhirVerdict(NamedTuple):
    accepted: bool
    reason: str

def whir_prove(params: WhirParams, evals: FieldArray, points: FieldArray, values: FieldArray,
               backend: Backend = "auto", progress: Progress = None) -> WhirProof:
    """Commits to 2^n evaluations and proves the claims; the proof file's bytes and the root."""

def whir_verify(params: WhirParams, points: FieldArray, values: FieldArray, proof: Union[bytes, WhirProof],
                expected_root: Optional[FieldArray] = None) -> WhirVerdict:
    """Verifies proof bytes against the verifier's parameters, claims and (optionally) root."""

def evaluate_multilinear(evals: FieldArray, point: FieldArray) -> npt.NDArray[np.uint32]:
    """The multilinear extension of 2^m evaluations at an (m, 4) BabyBear4 point."""

# Ed25519
def ed25519_verify_batch(public_keys: ByteRows, signatures: ByteRows, messages: ByteItems, mode: str = "openssl",
                         backend: Backend = "auto", progress: Progress = None) -> npt.NDArray[np.bool_]:
    """One verdict per item; a wrong-length key or signature is False, not an error."""

def ed25519_verify(public_key: bytes, signature: bytes, message: bytes, mode: str = "openssl") -> bool:
    """One verification on the calling thread."""

# BLS12-377 MSM
class MsmBases:
    """Bases prepared once for repeated MSMs, resident on the GPU after the first GPU MSM."""

    size: int
    def __init__(self, points: ByteRows) -> None: ...
    def __len__(self) -> int: ...
    def msm(self, scalars: Union[Sequence[int], npt.NDArray[np.uint8]], backend: Backend = "auto",
            compressed: bool = True) -> bytes:
        """sum scalars[i] * bases[i], encoded."""
    def export(self) -> npt.NDArray[np.uint8]:
        """(n, 144) mixed-adder rows, for msm_device."""

def msm(points: ByteRows, scalars: Union[Sequence[int], npt.NDArray[np.uint8]], backend: Backend = "auto",
        compressed: bool = True) -> bytes:
    """sum scalars[i] * points[i] on G1, encoded (48 bytes compressed, else 96)."""

def msm_device(points: GpuArray, scalars: GpuArray, window_bits: int = 0, compressed: bool = True,
               stream: Stream = None) -> bytes:
    """The MSM of (n, 144) GPU bases and (n, 32) GPU scalars, after the stream's queued work."""

# ML-KEM / ML-DSA
class MlKemKeys(NamedTuple):
    encapsulation_keys: npt.NDArray[np.uint8]
    decapsulation_keys: npt.NDArray[np.uint8]

class MlKemEncapsulation(NamedTuple):
    ciphertexts: npt.NDArray[np.uint8]
    shared_keys: npt.NDArray[np.uint8]
    ok: npt.NDArray[np.bool_]

class MlKemDecapsulation(NamedTuple):
    shared_keys: npt.NDArray[np.uint8]
    ok: npt.NDArray[np.bool_]

class MlDsaKeys(NamedTuple):
    public_keys: npt.NDArray[np.uint8]
    secret_keys: npt.NDArray[np.uint8]

class MlDsaSignatures(NamedTuple):
    signatures: npt.NDArray[np.uint8]
    ok: npt.NDArray[np.bool_]

def mlkem_sizes(set: int = 768) -> dict[str, int]:
    """Byte sizes of an ML-KEM parameter set."""

def mlkem_keygen(seeds: ByteRows, set: int = 768, backend: Backend = "auto", progress: Progress = None) -> MlKemKeys:
    """KeyGen_internal(d, z) for each 64-byte seed."""

def mlkem_encaps(encapsulation_keys: ByteRows, messages: Optional[ByteRows] = None, set: int = 768,
                 backend: Backend = "auto", progress: Progress = None) -> MlKemEncapsulation:
    """Encapsulation (random m when messages is None)."""

def mlkem_decaps(decapsulation_keys: ByteRows, ciphertexts: ByteRows, set: int = 768, backend: Backend = "auto",
                 progress: Progress = None) -> MlKemDecapsulation:
    """Decapsulation with implicit rejection."""

def mldsa_sizes(set: int = 65) -> dict[str, int]:
    """Byte sizes of an ML-DSA parameter set."""

def mldsa_keygen(seeds: ByteRows, set: int = 65, backend: Backend = "auto", progress: Progress = None) -> MlDsaKeys:
    """KeyGen_internal(xi) for each 32-byte seed."""

def mldsa_sign(secret_keys: ByteItems, messages: ByteItems, contexts: Optional[ByteItems] = None,
               rnd: Union[None, str, ByteItems] = None, set: int = 65, external_mu: bool = False,
               backend: Backend = "auto", progress: Progress = None) -> MlDsaSignatures:
    """Signatures and per-item ok (deterministic unless rnd is "random" or given)."""

def mldsa_verify(public_keys: ByteItems, messages: ByteItems, signatures: ByteItems,
                 contexts: Optional[ByteItems] = None, set: int = 65, external_mu: bool = False,
                 backend: Backend = "auto", progress: Progress = None) -> npt.NDArray[np.bool_]:
    """One verdict per item."""
