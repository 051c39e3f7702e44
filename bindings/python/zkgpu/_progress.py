"""Progress for long calls: a batch over SUB_BATCH items, when a progress callback is given, runs as
consecutive sub-batches of SUB_BATCH items with ``progress(done, total)`` called before the first
and after each one (the results are the same as one call's). Without a callback, or at most
SUB_BATCH items, the batch is one library call and the callback (if any) hears ``(total, total)``
once at the end. An exception raised by the callback stops the batch and propagates.
"""

from __future__ import annotations

from typing import Callable, Optional

SUB_BATCH = 1 << 20

Progress = Optional[Callable[[int, int], object]]


def run(total: int, step: Callable[[int, int], None], progress: Progress, sub_batch: Optional[int] = None) -> None:
    """step(start, stop) processes items [start, stop); sub_batch None is SUB_BATCH."""
    if sub_batch is None:
        sub_batch = SUB_BATCH
    if progress is None or total <= sub_batch:
        step(0, total)
        if progress is not None:
            progress(total, total)
        return
    progress(0, total)
    for start in range(0, total, sub_batch):
        stop = min(total, start + sub_batch)
        step(start, stop)
        progress(stop, total)


def part(items, start: int, stop: int):
    """items[start:stop], without the copy a list slice makes when that is all of it."""
    return items if start == 0 and stop == len(items) else items[start:stop]
