"""Keeping Python's cyclic garbage collector from rescanning a run's records over and over.

A run holds hundreds of thousands of dicts and lists (every stage record, the instances) that live on;
the collector's default pace (a young collection every 700 allocations, an older one every tenth of
those) scans them again and again, which grew to a fifth of a large run's time. Records hold no
reference cycles, so collecting less often only delays freeing the rare cyclic garbage: reference
counting frees the rest at once.

- :func:`collector_paused`: no collection during bulk work on plain data (reading a run folder or a
  dataset, computing a summary);
- :func:`collector_slowed`: collections less often during a run (its model calls included).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0
_was_enabled = False


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic collection inside the block (nested blocks and threads share one pause); the collector's
    state before the outermost block is restored after it."""
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                gc.enable()


# Young-generation threshold during a run: a young collection costs little more when it finds 10,000
# objects than when it finds 700, and the older generations then run 14 times less often.
RUN_THRESHOLD = 10_000


@contextmanager
def collector_slowed(threshold: int = RUN_THRESHOLD) -> Iterator[None]:
    """The young generation collected every ``threshold`` allocations (never more often than it was)
    inside the block; the thresholds before it are restored after it."""
    before = gc.get_threshold()
    gc.set_threshold(max(threshold, before[0]), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
