"""A set of zkgpu workers on a Ray cluster: one per GPU where the cluster has GPUs, else per core."""

import os
import time
import warnings

import ray

from .._errors import Error, InvalidArgument
from ._worker import Worker

# A worker that dies while starting is replaced; this many deaths in a row mean it cannot start
# (zkgpu missing on a node, a GPU that fails), and the pool says so instead of trying forever.
MAX_START_FAILURES = 3


# Ray starts its workers at nice 15 (its worker_niceness), which suits background tasks. A zkgpu
# worker runs the library's OpenMP team on all of its cores, and at nice 15 any process at nice 0
# on the host (the driver's ray.put copies, Ray's daemons) takes a team thread's core and the whole
# parallel region waits for that thread: on the development VM, with one busy process beside it,
# a worker's call took 126 ms at nice 15 and 93 ms at nice 0, against 94 ms in the driver.
WORKER_NICENESS = 0


def init_ray(address=None, **kwargs):
    """ray.init for this module: a local cluster it starts runs its workers at WORKER_NICENESS.

    Ray takes a system config only when it starts the cluster; a cluster joined by address (or
    RAY_ADDRESS) keeps its own, set with RAY_worker_niceness=0 in `ray start`'s environment.
    """
    if address is None and not os.environ.get("RAY_ADDRESS"):
        kwargs.setdefault("_system_config", {}).setdefault("worker_niceness", WORKER_NICENESS)
    ray.init(address=address, **kwargs)


class DistributedError(Error, RuntimeError):
    """A failure of the cluster, not of a batch: workers that cannot start or keep dying."""


def check_count(name, value, least):
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise InvalidArgument(f"{name} must be an integer >= {least}, not {value!r}")


def plan(workers=None, *, gpu=None, backend=None, cpus_per_worker=None):
    """Pool's choices for these arguments on the cluster Ray is connected to (see Pool)."""
    resources = ray.cluster_resources()
    gpus, cpus = int(resources.get("GPU", 0)), int(resources.get("CPU", 0))
    gpu = gpus > 0 if gpu is None else bool(gpu)
    if backend is None:
        backend = "cuda" if gpu else "cpu"
    if backend not in ("auto", "cpu", "cuda"):
        raise InvalidArgument(f"backend must be 'auto', 'cpu' or 'cuda', not {backend!r}")
    if cpus_per_worker is None:
        # Half the CPUs per GPU: the other half stays free for whatever feeds the batches (the
        # driver's ray.put copies) and Ray's daemons. A GPU call's host side is copies into
        # pinned staging, which half the cores keep up with, and an OpenMP team that loses a
        # core to another busy process stalls at every barrier (docs/python.md).
        cpus_per_worker = max(1, cpus // gpus // 2) if gpu and gpus else 1
    if isinstance(cpus_per_worker, bool) or not isinstance(cpus_per_worker, (int, float)) or not (
            cpus_per_worker > 0):
        raise InvalidArgument(f"cpus_per_worker must be a positive number, not {cpus_per_worker!r}")
    if workers is None:
        workers = max(1, gpus if gpu else int(cpus // cpus_per_worker))
    check_count("workers", workers, 1)
    return {"gpu": gpu, "backend": backend, "cpus_per_worker": cpus_per_worker,
            "workers": workers}


class _Slot:
    """One worker: its actor, and until it has answered, the reference its answer will arrive on."""

    def __init__(self, handle, since):
        self.handle = handle
        self.ready_ref = handle.ready.remote()
        self.pid = None
        self.since = since


class Pool:
    """Ray actors that run zkgpu batches; reuse one across calls to pay the workers' start once.

    workers: how many (default: one per GPU, or one per ``cpus_per_worker`` CPUs without GPUs).
    gpu: True for workers holding a GPU each (``num_gpus=1``), False for CPU workers, None to take
    GPUs when the cluster has any. backend: what the workers pass to zkgpu ("cuda" on GPU workers,
    "cpu" on CPU workers unless given). cpus_per_worker: the CPUs Ray reserves for each, and its
    threads (default 1 on CPU workers; on GPU workers half the cluster's CPUs per GPU, for the host
    side of each call, leaving the rest to the driver feeding the batches).
    address: the cluster to join when Ray is not initialised yet (None starts a local one, as
    ``ray.init()``). start_timeout_s: how long a worker may take to start. actor_options: further
    ``ray.remote`` options for the actors (runtime_env, scheduling_strategy, resources, ...).
    """

    def __init__(self, workers=None, *, gpu=None, backend=None, cpus_per_worker=None, address=None,
                 start_timeout_s=300.0, actor_options=None):
        if not ray.is_initialized():
            init_ray(address)
        shape = plan(workers, gpu=gpu, backend=backend, cpus_per_worker=cpus_per_worker)
        if start_timeout_s <= 0:
            raise InvalidArgument(f"start_timeout_s must be positive, not {start_timeout_s!r}")
        self.gpu, self.backend = shape["gpu"], shape["backend"]
        self.workers, self.cpus_per_worker = shape["workers"], shape["cpus_per_worker"]
        self.start_timeout_s = float(start_timeout_s)
        self.restarts = 0
        self._start_failures = 0
        self._need = {"num_cpus": self.cpus_per_worker, "num_gpus": 1 if self.gpu else 0}
        # Ray's own restarts are off: a replacement is a fresh actor this pool starts, so a batch's
        # retry is never silently re-run by Ray as well.
        options = {**self._need, "max_restarts": 0, "max_task_retries": 0, **(actor_options or {})}
        self._actor = ray.remote(Worker).options(**options)
        self._slots = [self._start() for _ in range(self.workers)]
        try:
            self._wait_started()
        except BaseException:
            self.close()
            raise

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        """Ends every worker; the pool cannot run batches afterwards."""
        for slot in self._slots:
            # After ray.shutdown() (or at the interpreter's exit) the workers are gone already.
            if slot.handle is not None and ray.is_initialized():
                ray.kill(slot.handle, no_restart=True)
                slot.handle = None
        self._slots = []

    @property
    def actors(self):
        """The actor handles of the workers that have started (for ray.kill, or ray.get_actor)."""
        return [s.handle for s in self._slots if s.pid is not None]

    def pids(self):
        """The process ids of the workers that have started, in the order of ``actors``."""
        return [s.pid for s in self._slots if s.pid is not None]

    def _start(self):
        return _Slot(self._actor.remote(self.backend), time.monotonic())

    def _wait_started(self):
        refs = [s.ready_ref for s in self._slots]
        ray.wait(refs, num_returns=len(refs), timeout=self.start_timeout_s, fetch_local=False)
        for ref in refs:
            self.started(ref, initial=True)
        self.check_overdue(initial=True)

    # The scheduler's side: which workers can take a batch, and what to do when one goes away.

    def ready_slots(self):
        return [s for s in self._slots if s.pid is not None]

    def starting_refs(self):
        return [s.ready_ref for s in self._slots if s.pid is None]

    def started(self, ref, initial=False):
        """Records a worker's start answer (ref from starting_refs) if it has arrived."""
        slot = next((s for s in self._slots if s.ready_ref == ref), None)
        if slot is None or not ray.wait([ref], timeout=0, fetch_local=False)[0]:
            return
        try:
            slot.pid = ray.get(ref)
        except ray.exceptions.RayError as err:
            self._start_failures += 1
            if initial or self._start_failures >= MAX_START_FAILURES:
                raise DistributedError(
                    f"a zkgpu worker could not start ({self._need}, backend {self.backend!r}): "
                    f"{err}") from err
            self.replace(slot)
            return
        slot.ready_ref = None
        self._start_failures = 0

    def replace(self, slot):
        """Ends a worker that died or stopped answering and starts a fresh one in its place."""
        if slot not in self._slots:
            return  # already replaced: several of its batches report the same death
        if slot.handle is not None:
            ray.kill(slot.handle, no_restart=True)
        self._slots[self._slots.index(slot)] = self._start()
        self.restarts += 1

    def start_deadline(self):
        """When the longest-starting worker runs out of time (None when every worker has started)."""
        starts = [s.since for s in self._slots if s.pid is None]
        return min(starts) + self.start_timeout_s if starts else None

    def check_overdue(self, initial=False):
        """Gives up on workers that have not started in time: an error when the pool is starting
        or none would be left, else a warning and fewer workers (a replacement whose node went
        away may never be placed, and the others can finish the call)."""
        now = time.monotonic()
        late = [s for s in self._slots if s.pid is None and now >= s.since + self.start_timeout_s]
        if not late:
            return
        available = ray.available_resources()
        message = (f"{len(late)} zkgpu worker(s) needing {self._need} did not start within "
                   f"{self.start_timeout_s:g} s; the cluster has CPU {available.get('CPU', 0):g}, "
                   f"GPU {available.get('GPU', 0):g} free")
        if initial or len(late) == len(self._slots):
            raise DistributedError(message)
        for slot in late:
            ray.kill(slot.handle, no_restart=True)
            self._slots.remove(slot)
        warnings.warn(f"{message}; going on with {len(self._slots)}", RuntimeWarning, stacklevel=2)
