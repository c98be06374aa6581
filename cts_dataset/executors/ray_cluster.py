"""The Ray cluster the ``ray`` executor runs on, and the throughput settings it reads from the environment.

The cluster: ``RAY_ADDRESS`` if set, else a local one started here (and shut down at exit). The settings
(:class:`RayOptions`) change only the speed, never the answers.
"""

from __future__ import annotations

import atexit
import logging
import os
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

INSTALL_HINT = ('the ray executor needs Ray Data: pip install "ctsbench[ray]" (ray[data]==2.60.0), on the '
                'driver and on every node of the cluster')
_LOCK = threading.Lock()
_STARTED = False  # a local cluster this process started (shut down at exit)


@dataclass(frozen=True)
class RayOptions:
    """How a batch is spread over the cluster (speed only: never part of a cache key or run identity)."""

    actors: int | None = None
    gpus_per_actor: float | None = None
    cpus_per_actor: float = 1.0
    rows_per_call: int = 64
    local_cpus: int | None = None
    flush_every: int = 16  # responses per group an actor sends back ...
    flush_after_s: float = 0.5  # ... or after this long, whichever comes first

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> RayOptions:
        def number(name: str, kind: type) -> Any:
            value = env.get(name)
            return kind(value) if value not in (None, "") else None

        found = {"actors": number("CTSBENCH_RAY_ACTORS", int),
                 "gpus_per_actor": number("CTSBENCH_RAY_GPUS_PER_ACTOR", float),
                 "cpus_per_actor": number("CTSBENCH_RAY_CPUS_PER_ACTOR", float),
                 "rows_per_call": number("CTSBENCH_RAY_ROWS_PER_CALL", int),
                 "local_cpus": number("CTSBENCH_RAY_NUM_CPUS", int)}
        options = cls(**{k: v for k, v in found.items() if v is not None})
        if (options.actors is not None and options.actors < 1) or options.rows_per_call < 1:
            raise ValueError("CTSBENCH_RAY_ACTORS and CTSBENCH_RAY_ROWS_PER_CALL must be >= 1")
        return options


def ensure_ray(options: RayOptions | None = None) -> Any:
    """The ``ray`` module, connected: to ``$RAY_ADDRESS`` if set, else to a local cluster started here."""
    global _STARTED
    try:
        import ray
        import ray.data
    except ImportError as error:
        raise ImportError(INSTALL_HINT) from error
    with _LOCK:
        if not ray.is_initialized():
            address = os.environ.get("RAY_ADDRESS")
            if address:
                ray.init(address=address, logging_level=logging.WARNING)
            else:
                cpus = (options.local_cpus if options else None) or min(os.cpu_count() or 1, 16)
                # No dashboard and a small object store: the batches are text.
                ray.init(num_cpus=cpus, include_dashboard=False, object_store_memory=512 << 20,
                         logging_level=logging.WARNING)
                _STARTED = True
                atexit.register(shutdown)
            context = ray.data.DataContext.get_current()
            context.enable_progress_bars = False  # the run draws its own bars
            context.print_on_execution_start = False
            context.enable_auto_log_stats = False
            # Each group an actor yields becomes its own block, so it reaches the driver (and the cache)
            # at once instead of waiting to fill a 128 MiB block.
            context.target_max_block_size = 1
            logging.getLogger("ray.data").setLevel(logging.WARNING)
    return ray


def shutdown() -> None:
    """Stop the local cluster this process started (a cluster at ``RAY_ADDRESS`` is only disconnected)."""
    global _STARTED
    try:
        import ray
    except ImportError:
        return
    with _LOCK:
        if ray.is_initialized():
            ray.shutdown()
        _STARTED = False


def cluster_gpus(ray: Any) -> float:
    """The GPUs the connected cluster has (0 on a CPU cluster)."""
    return float(ray.cluster_resources().get("GPU", 0))


__all__ = ["INSTALL_HINT", "RayOptions", "cluster_gpus", "ensure_ray", "shutdown"]
