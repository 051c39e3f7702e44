"""zkgpu batches across machines on Ray: one worker per GPU (or per CPU core), results in order.

    import zkgpu.distributed as zd
    for verdicts in zd.verify_ed25519(batches):      # batches: any iterable, even unbounded
        ...

Every call takes an iterable of batches (a generator is read only as fast as results are
consumed), runs them on Ray actors that each hold one GPU (``num_gpus=1``, backend "cuda") or,
on a cluster without GPUs, one CPU core each (backend "cpu"), and yields each batch's result in
input order. A batch whose worker dies is sent to another (the dead worker is replaced by a fresh
one); after ``max_retries`` such losses the call raises WorkerLostError. A batch's own error (a
zkgpu.InvalidArgument, say) is raised as itself. Inputs go into Ray's object store once
(``ray.put``); numpy arrays reach the library without a copy.

Without a ``pool`` each call starts its workers (``Pool``'s keyword arguments pass through) and
ends them when its iterator is exhausted or closed; pass one Pool to pay the start once.
"""

import functools

import zkgpu

try:
    import ray  # noqa: F401
except ImportError as err:  # pragma: no cover - the message is the point
    raise ImportError("zkgpu.distributed needs Ray: pip install 'zkgpu[ray]' (or pip install "
                      "ray)") from err

from . import _ops, _scheduler
from ._pool import DistributedError, Pool, check_count
from ._scheduler import WorkerLostError

__all__ = ["DistributedError", "Pool", "WorkerLostError", "imap", "mldsa_verify", "prove_whir",
           "verify_ed25519"]

# One batch running on each worker and one waiting behind it, so a worker never idles while its
# next batch travels to it; more would queue behind a slow batch instead of going to a free worker.
IN_FLIGHT_PER_WORKER = 2


def imap(fn, items, *, pool=None, max_in_flight=None, max_retries=3, progress=None, total=None,
         **pool_options):
    """Yields ``fn(item, backend)`` for each item, in input order, computed on the workers.

    fn must be picklable (a module-level function, or functools.partial of one); backend is the
    worker's ("cuda" on GPU workers, "cpu" on CPU workers). max_in_flight bounds the items taken
    from the input and not yet yielded (default two per worker, the most one worker is sent at a
    time; a larger bound lets fast batches run ahead of a slow one). progress(done, total), if
    given, is called after each result with the results yielded so far and the number of items
    (total, else len(items), else None for an input of unknown length). Items that are
    ray.ObjectRef are sent as they are.
    """
    if pool is not None and pool_options:
        raise TypeError(f"imap: pass either pool or Pool's options, not both "
                        f"({', '.join(sorted(pool_options))})")
    if not callable(fn):
        raise TypeError(f"imap: fn must be callable, not {type(fn).__name__}")
    # Checked now, not at the first next(): a wrong argument fails where it was written.
    if max_in_flight is not None:
        check_count("max_in_flight", max_in_flight, 1)
    check_count("max_retries", max_retries, 0)
    if total is None and hasattr(items, "__len__"):
        total = len(items)
    return _imap(fn, items, pool, max_in_flight, max_retries, progress, total, pool_options)


def _imap(fn, items, pool, max_in_flight, max_retries, progress, total, pool_options):
    owned = pool is None
    if owned:
        pool = Pool(**pool_options)
    try:
        bound = IN_FLIGHT_PER_WORKER * pool.workers if max_in_flight is None else max_in_flight
        yield from _scheduler.run(pool, fn, items, max_in_flight=bound, max_retries=max_retries,
                                  per_worker=IN_FLIGHT_PER_WORKER, progress=progress,
                                  total=total)
    finally:
        if owned:
            pool.close()


def verify_ed25519(batches, *, mode="openssl", **options):
    """Yields a numpy bool array per batch (public_keys, signatures, messages).

    Each batch holds the arguments of zkgpu.ed25519_verify_batch: public_keys an (n, 32) uint8
    array or a sequence of bytes, signatures (n, 64) or a sequence, messages a sequence of
    bytes-like objects. mode is "openssl", "strict" or "zip215". The other options are imap's.
    """
    # An empty batch on the driver checks mode with the library's own rule and message, now.
    zkgpu.ed25519_verify_batch([], [], [], mode=mode, backend="cpu")
    return _named(functools.partial(_ops.ed25519, mode=mode), batches, "verify_ed25519",
                  ("public_keys", "signatures", "messages"), 0, options)


def mldsa_verify(batches, *, set=65, external_mu=False, **options):  # noqa: A002
    """Yields a numpy bool array per batch (public_keys, messages, signatures[, contexts]).

    Each batch holds the arguments of zkgpu.mldsa_verify, in its order; set is 44, 65 or 87 for
    every batch, external_mu as there. The other options are imap's.
    """
    zkgpu.mldsa_verify([], [], [], set=set, external_mu=external_mu, backend="cpu")
    return _named(functools.partial(_ops.mldsa, set=set, external_mu=external_mu), batches,
                  "mldsa_verify", ("public_keys", "messages", "signatures", "contexts"), 1,
                  options)


def prove_whir(polynomials, params, **options):
    """Yields a zkgpu.WhirProof per polynomial (evals, points, values), each proven under params.

    Each item holds zkgpu.whir_prove's arguments after params: the 2^n evaluations (uint32
    canonical), the claims' points ((claims, n, 4) or (n, 4)) and values ((claims, 4) or (4,)).
    params (a zkgpu.WhirParams) travels to the workers once. The other options are imap's.
    """
    if not isinstance(params, zkgpu.WhirParams):
        raise TypeError(f"prove_whir: params must be a zkgpu.WhirParams, not "
                        f"{type(params).__name__}")
    params.derive()  # a configuration the library rejects fails here, with its reason
    return _named(functools.partial(_ops.whir, params=params), polynomials, "prove_whir",
                  ("evals", "points", "values"), 0, options)


def _named(fn, batches, call, names, optional, options):
    total = len(batches) if hasattr(batches, "__len__") else None
    items = _ops.checked_tuples(batches, call, names, optional)
    return imap(fn, items, total=total, **options)
