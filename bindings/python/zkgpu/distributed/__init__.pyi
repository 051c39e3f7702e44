"""Type stubs of zkgpu.distributed (the implementation: zkgpu/distributed/_*.py, over Ray)."""

from typing import Any, Callable, Iterable, Iterator, Optional, Sequence, Tuple, TypeVar, Union

import numpy as np
import numpy.typing as npt

from .. import Error, WhirParams, WhirProof

T = TypeVar("T")
R = TypeVar("R")
Progress = Optional[Callable[[int, Optional[int]], object]]
ByteItems = Union[npt.NDArray[np.uint8], Sequence[Union[bytes, bytearray, memoryview]]]
Ed25519Batch = Tuple[ByteItems, ByteItems, ByteItems]  # public_keys, signatures, messages
MlDsaBatch = Union[Tuple[ByteItems, ByteItems, ByteItems],  # public_keys, messages, signatures
                   Tuple[ByteItems, ByteItems, ByteItems, ByteItems]]  # ..., contexts
WhirPolynomial = Tuple[npt.ArrayLike, npt.ArrayLike, npt.ArrayLike]  # evals, points, values

IN_FLIGHT_PER_WORKER: int

class DistributedError(Error, RuntimeError):
    """A failure of the cluster, not of a batch: workers that cannot start or keep dying."""

class WorkerLostError(DistributedError):
    """A batch whose workers died more often than the call's retry limit allows."""

class Pool:
    """Ray actors that run zkgpu batches; reuse one across calls to pay the workers' start once."""

    gpu: bool
    backend: str
    workers: int
    cpus_per_worker: int
    start_timeout_s: float
    restarts: int
    def __init__(self, workers: Optional[int] = None, *, gpu: Optional[bool] = None,
                 backend: Optional[str] = None, cpus_per_worker: Optional[int] = None,
                 address: Optional[str] = None, start_timeout_s: float = 300.0,
                 actor_options: Optional[dict] = None) -> None: ...
    def __enter__(self) -> "Pool": ...
    def __exit__(self, *exc: Any) -> None: ...
    def close(self) -> None:
        """Ends every worker; the pool cannot run batches afterwards."""
    @property
    def actors(self) -> list:
        """The actor handles of the workers that have started."""
    def pids(self) -> list:
        """The process ids of the workers that have started, in the order of ``actors``."""

def imap(fn: Callable[[T, str], R], items: Iterable[T], *, pool: Optional[Pool] = None,
         max_in_flight: Optional[int] = None, max_retries: int = 3, progress: Progress = None,
         total: Optional[int] = None, **pool_options: Any) -> Iterator[R]:
    """Yields fn(item, backend) for each item, in input order, computed on the workers."""

def verify_ed25519(batches: Iterable[Ed25519Batch], *, mode: str = "openssl", pool: Optional[Pool] = None,
                   max_in_flight: Optional[int] = None, max_retries: int = 3, progress: Progress = None,
                   **pool_options: Any) -> Iterator[npt.NDArray[np.bool_]]:
    """Yields a numpy bool array per batch (public_keys, signatures, messages)."""

def mldsa_verify(batches: Iterable[MlDsaBatch], *, set: int = 65, external_mu: bool = False,
                 pool: Optional[Pool] = None, max_in_flight: Optional[int] = None, max_retries: int = 3,
                 progress: Progress = None, **pool_options: Any) -> Iterator[npt.NDArray[np.bool_]]:
    """Yields a numpy bool array per batch (public_keys, messages, signatures[, contexts])."""

def prove_whir(polynomials: Iterable[WhirPolynomial], params: WhirParams, *, pool: Optional[Pool] = None,
               max_in_flight: Optional[int] = None, max_retries: int = 3, progress: Progress = None,
               **pool_options: Any) -> Iterator[WhirProof]:
    """Yields a zkgpu.WhirProof per polynomial (evals, points, values), each proven under params."""
