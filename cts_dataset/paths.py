"""Where ctsbench keeps derived files (search indexes, converted models, response caches)."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir(*parts: str) -> Path:
    """``$CTSBENCH_CACHE_DIR`` or ``$XDG_CACHE_HOME/ctsbench`` or ``~/.cache/ctsbench``, joined with parts."""
    root = os.environ.get("CTSBENCH_CACHE_DIR")
    if not root:
        root = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "ctsbench")
    path = Path(root, *parts)
    path.mkdir(parents=True, exist_ok=True)
    return path
