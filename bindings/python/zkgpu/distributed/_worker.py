"""The Ray actor behind every zkgpu.distributed worker: one process, one GPU or a few CPU cores."""

import os
import time


class Worker:
    """Runs one batch at a time (a Ray actor executes its tasks in order, one after another)."""

    def __init__(self, backend):
        # Importing here makes a broken installation fail the actor's start, which the pool reports
        # as such, instead of failing every batch it is sent.
        import zkgpu  # noqa: F401

        self._backend = backend
        self._calls = 0
        self._busy_s = 0.0

    def ready(self):
        """Answers once the actor has started; its process id lets a caller find (or kill) it."""
        return os.getpid()

    def run(self, fn, item):
        # Ray hands numpy arrays inside `item` over as read-only views of the object store's shared
        # memory: nothing is copied between the driver's ray.put and the library call.
        start = time.perf_counter()
        try:
            return fn(item, self._backend)
        finally:
            self._calls += 1
            self._busy_s += time.perf_counter() - start

    def stats(self):
        """(batches run, seconds spent in them): the rest of a call's time is Ray's."""
        return self._calls, self._busy_s
