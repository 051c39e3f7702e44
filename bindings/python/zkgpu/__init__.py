"""zkgpu: proving and verification cryptography on the CPU and CUDA GPUs.

BabyBear NTTs and low-degree extensions, Poseidon2, Merkle trees, WHIR polynomial commitments,
Ed25519 batch verification, BLS12-377 MSM, ML-KEM and ML-DSA, over NumPy arrays on the CPU and,
through the *_device functions, over GPU arrays of any library (DLPack or
__cuda_array_interface__: CuPy, PyTorch, JAX, ...) used in place on their stream.

Conventions (docs/python.md):
- Field elements are canonical uint32 values (< p = 2013265921); bytes are uint8. Arrays are read
  without a copy when they are C-contiguous and of the right dtype; other integer dtypes are
  range-checked and converted, non-contiguous arrays copied, anything else refused.
- backend="auto" | "cpu" | "cuda": auto uses the GPU when the library has CUDA, a GPU answers and
  the work reaches the operation's measured crossover; "cuda" without a GPU raises Unavailable.
- Errors are zkgpu.Error subclasses carrying the library's message: InvalidArgument (also a
  ValueError), OutOfMemory (a MemoryError), Unavailable, CudaError, Internal. Batches of
  independent items (signatures, KEM/DSA operations) report per item and never raise for one bad
  item.
- Long batches take progress=callable(done, total), called between sub-batches of 2^20 items.
- GPU buffers hold the library's layout: BabyBear as Montgomery words (to_montgomery converts).
  The NTT and LDEs are linear, so they also work on canonical words.

`python -m zkgpu bench ed25519|ntt|poseidon2|msm` times the Python calls against the C++ API.
"""

from . import _core
from ._errors import CudaError, Error, Internal, InvalidArgument, OutOfMemory, Unavailable
from ._arrays import P
from ._field import (coset_lde, coset_lde_device, from_montgomery, lde_from_coeffs, lde_from_coeffs_device, ntt,
                     ntt_device, to_montgomery)
from ._hash import (MerkleOpening, MerkleTree, merkle_build, merkle_build_device, merkle_root, merkle_verify,
                    poseidon2_permute, poseidon2_permute_device)
from ._whir import WhirParams, WhirProof, WhirVerdict, evaluate_multilinear, whir_prove, whir_verify
from ._ed25519 import ed25519_verify, ed25519_verify_batch
from ._msm import MsmBases, msm, msm_device
from ._pq import (MlDsaKeys, MlDsaSignatures, MlKemDecapsulation, MlKemEncapsulation, MlKemKeys, mldsa_keygen,
                  mldsa_sign, mldsa_sizes, mldsa_verify, mlkem_decaps, mlkem_encaps, mlkem_keygen, mlkem_sizes)

__version__: str = _core.version()


def cuda_built() -> bool:
    """Whether this build of the library has the CUDA backend."""
    return _core.cuda_built()


def cuda_usable() -> bool:
    """Whether the CUDA backend is built and a usable GPU (compute capability >= 7.0) answers."""
    return _core.cuda_usable()


def cuda_unavailable_reason() -> str:
    """Why cuda_usable() is False, in words a user can act on ("" when it is True)."""
    return _core.cuda_unavailable_reason()


def gpu_info():
    """The GPU zkgpu uses (name, compute capability, memory, ...) as a dict, or None."""
    return _core.gpu_info()


def cpu_features() -> dict:
    """The CPU: model, threads, AVX2 / AVX-512 and the SIMD level the CPU kernels use."""
    return _core.cpu_features()


def release_gpu_caches() -> None:
    """Frees the GPU memory zkgpu keeps between calls (contexts, workspaces, tables); call it when
    no zkgpu call is in flight. Objects you own (MsmBases) keep theirs until they die."""
    _core.release_gpu_caches()


__all__ = [
    "__version__", "P", "Error", "InvalidArgument", "OutOfMemory", "Unavailable", "CudaError", "Internal",
    "cuda_built", "cuda_usable", "cuda_unavailable_reason", "gpu_info", "cpu_features", "release_gpu_caches",
    "ntt", "coset_lde", "lde_from_coeffs", "to_montgomery", "from_montgomery", "ntt_device", "coset_lde_device",
    "lde_from_coeffs_device", "poseidon2_permute", "poseidon2_permute_device", "MerkleTree", "MerkleOpening",
    "merkle_build", "merkle_root", "merkle_verify", "merkle_build_device", "WhirParams", "WhirProof", "WhirVerdict",
    "whir_prove", "whir_verify", "evaluate_multilinear", "ed25519_verify_batch", "ed25519_verify", "MsmBases", "msm",
    "msm_device", "mlkem_sizes", "mlkem_keygen", "mlkem_encaps", "mlkem_decaps", "mldsa_sizes", "mldsa_keygen",
    "mldsa_sign", "mldsa_verify", "MlKemKeys", "MlKemEncapsulation", "MlKemDecapsulation", "MlDsaKeys",
    "MlDsaSignatures",
]
