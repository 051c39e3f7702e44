"""The loop under every zkgpu.distributed call: bounded, in input order, retrying lost workers."""

import bisect
import collections
import time

import ray
from ray import exceptions as rex

from ._pool import DistributedError, check_count

# Failures that mean a worker (or the node holding a result) went away, not that the batch is
# bad: the batch is sent again. A batch's own exception (RayTaskError) is the caller's to see.
WORKER_LOST = (rex.RayActorError, rex.WorkerCrashedError, rex.ObjectLostError, rex.NodeDiedError,
               rex.OutOfMemoryError)


class WorkerLostError(DistributedError):
    """A batch whose workers died more often than the call's retry limit allows."""


class _Calls:
    """The batches of one call between leaving the input and being yielded."""

    def __init__(self):
        self.inputs = {}  # index -> object ref of the batch, put once and resent on a retry
        self.failures = collections.Counter()  # index -> workers lost while running it
        self.queue = []  # indices to send, sorted: the oldest batch holds up every later result
        self.running = {}  # task ref -> (index, slot)
        self.done = {}  # index -> result, until every earlier batch has been yielded
        self.sent = collections.defaultdict(collections.deque)  # slot -> its task refs, in order
        # slot -> the task it was running when it died: a worker runs its tasks in the order they
        # were sent, so that is its oldest unanswered one. Only that batch is charged the loss; the
        # ones queued behind it go back free, so a batch that kills its worker every time reaches
        # the retry limit itself instead of taking its neighbours with it.
        self.culprit = {}


def run(pool, fn, items, *, max_in_flight, max_retries, per_worker, progress=None, total=None):
    """Yields fn(item, backend) for each item, in input order, run by the pool's workers.

    At most max_in_flight items are taken from the input and not yet yielded (the back-pressure
    bound: an unbounded generator is read only as fast as results are consumed), and at most
    per_worker of them are sent to one worker at a time: the rest wait here, for whichever
    worker frees up first, rather than behind a slow batch in one worker's queue. A batch whose
    worker dies is resent to another (and the dead worker replaced by a fresh one), at most
    max_retries times; its result is yielded once, whichever attempt produced it.
    """
    check_count("max_in_flight", max_in_flight, 1)
    check_count("max_retries", max_retries, 0)
    calls = _Calls()
    fn_ref = ray.put(fn)
    source = iter(items)
    taken = yielded = 0
    exhausted = False
    try:
        while True:
            while not exhausted and taken - yielded < max_in_flight:
                try:
                    item = next(source)
                except StopIteration:
                    exhausted = True
                    break
                calls.inputs[taken] = item if isinstance(item, ray.ObjectRef) else ray.put(item)
                calls.queue.append(taken)
                taken += 1
            _send(pool, fn_ref, calls, per_worker)
            if yielded in calls.done:
                result = calls.done.pop(yielded)
                del calls.inputs[yielded]
                yielded += 1
                if progress is not None:
                    progress(yielded, total)
                yield result
            elif exhausted and yielded == taken:
                return
            else:
                _collect(pool, calls, max_retries)
    finally:
        if ray.is_initialized():
            for ref in calls.running:
                ray.cancel(ref)  # queued batches of an abandoned call leave the workers free


def _send(pool, fn_ref, calls, per_worker):
    slots = pool.ready_slots()
    while calls.queue and slots:
        slot = min(slots, key=lambda s: len(calls.sent[s]))
        if len(calls.sent[slot]) >= per_worker:
            break
        index = calls.queue.pop(0)
        ref = slot.handle.run.remote(fn_ref, calls.inputs[index])
        calls.running[ref] = (index, slot)
        calls.sent[slot].append(ref)


def _collect(pool, calls, max_retries):
    """Waits for one answer (a batch's result, or a worker's start) and files it."""
    waiting = list(calls.running) + pool.starting_refs()
    if not waiting:
        raise DistributedError("no zkgpu worker is left to run the remaining batches")
    deadline = pool.start_deadline()
    timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
    ready, _ = ray.wait(waiting, num_returns=1, timeout=timeout, fetch_local=False)
    if not ready:
        pool.check_overdue()
        return
    ref = ready[0]
    if ref not in calls.running:
        pool.started(ref)
        return
    index, slot = calls.running.pop(ref)
    oldest = calls.sent[slot][0]
    calls.sent[slot].remove(ref)
    try:
        calls.done[index] = ray.get(ref)
    except rex.RayTaskError as err:
        _raise_cause(err, index)
    except WORKER_LOST as err:
        if calls.culprit.setdefault(slot, oldest) == ref:
            calls.failures[index] += 1
            if calls.failures[index] > max_retries:
                raise WorkerLostError(
                    f"batch {index}: its worker was lost {calls.failures[index]} times while "
                    f"running it, more than max_retries={max_retries} allows; last: "
                    f"{type(err).__name__}: {err}") from err
        pool.replace(slot)
        bisect.insort(calls.queue, index)


def _raise_cause(err, index):
    """Raises the batch's own exception (zkgpu.InvalidArgument, ...) rather than Ray's wrapper."""
    cause = err.cause if isinstance(getattr(err, "cause", None), BaseException) else err
    if hasattr(cause, "add_note"):  # Python 3.11 and later
        cause.add_note(f"zkgpu.distributed: raised by batch {index} on a worker")
    raise cause from err
