"""Which weights a model spec names: a hash of local files, the commit a hub model resolves to, the
root a vLLM server names. :func:`~cts_dataset.models.registry.load_model` puts them in the identity
(the cache key's model part and the run identity)."""

from __future__ import annotations

import hashlib
import logging
import re
from pathlib import Path

from cts_dataset.errors import CtsbenchError
from cts_dataset.models.spec import ModelSpec

logger = logging.getLogger(__name__)

_FINGERPRINTS: dict[str, str] = {}


def model_fingerprint(spec: ModelSpec) -> str:
    """A hash of the model's files when they are local; for a hub model (``vllm``, ``transformers``) the
    commit its revision resolves to (:func:`hub_revision`); else its revision (``unpinned`` if none)."""
    if spec.backend == "default":
        from cts_dataset.models.packaged import DEFAULT_SHA256, default_gguf

        default_gguf()  # joined and verified against the pinned SHA-256, which then names the contents
        return DEFAULT_SHA256
    path = Path(spec.model).expanduser()
    if spec.backend != "openai" and path.exists():
        return files_hash(path)
    commit = hub_revision(spec.model, spec.revision or "main") if spec.backend in HUB_BACKENDS else None
    return commit or spec.revision or "unpinned"


HUB_BACKENDS = frozenset({"vllm", "transformers"})  # they load a hub repo id (at a revision)
_COMMIT = re.compile(r"[0-9a-f]{40}")


def hub_revision(repo_id: str, ref: str = "main") -> str | None:
    """The commit ``ref`` (a branch, tag or commit) of a hub model resolves to, as a load would see it:
    online the hub's answer, offline (``HF_HUB_OFFLINE``, the default of runs) or when the hub cannot be
    reached the local cache's; None when neither knows."""
    from huggingface_hub import constants

    if _COMMIT.fullmatch(ref):
        return ref
    if not constants.HF_HUB_OFFLINE:
        try:
            from huggingface_hub import HfApi

            sha = HfApi().model_info(repo_id, revision=ref, timeout=10).sha
            if sha:
                return str(sha)
        except Exception as error:  # noqa: BLE001 - no network, gated or unknown repo: the cache may know
            logger.info("%s: the hub did not resolve %s (%s); using the local cache", repo_id, ref, error)
    refs = Path(constants.HF_HUB_CACHE) / f"models--{repo_id.replace('/', '--')}" / "refs" / ref
    return refs.read_text().strip() if refs.is_file() else None


def pinned(spec: ModelSpec, files: str) -> ModelSpec:
    """``spec`` at the commit it resolved to, for the backend: a hub model loads exactly what the
    identity names (on every Ray worker too), not whatever ``main`` is there."""
    if spec.backend in HUB_BACKENDS and _COMMIT.fullmatch(files) and spec.revision != files \
            and not Path(spec.model).expanduser().exists():
        return spec.replace(revision=files)
    return spec


_BIG_FILE = 8 << 20
_SAMPLES, _SAMPLE_SIZE = 64, 64 << 10


def files_hash(path: Path) -> str:
    """Hash of names, sizes and contents. A file over 8 MiB contributes its size, ``mtime_ns``, its first
    and last MiB and 64 blocks of 64 KiB spread evenly between them: a full read of tens of GB of weights
    per run would cost minutes, and a checkpoint changed only in the middle of a shard is still caught
    (the mtime, and the sample for a copy that kept it). Memoised per process on the files' stats."""
    path = path.resolve()
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    stats = [(file, file.stat()) for file in files]
    stamp = f"{path}|" + "|".join(f"{f}:{st.st_size}:{st.st_mtime_ns}" for f, st in stats)
    if stamp in _FINGERPRINTS:
        return _FINGERPRINTS[stamp]
    digest = hashlib.sha256()
    for file, stat in stats:
        size = stat.st_size
        digest.update(f"{file.relative_to(path) if path.is_dir() else file.name}\0{size}\0".encode())
        with file.open("rb") as handle:
            if size <= _BIG_FILE:
                digest.update(handle.read())
                continue
            digest.update(f"{stat.st_mtime_ns}\0".encode())
            digest.update(handle.read(1 << 20))
            span = size - (2 << 20) - _SAMPLE_SIZE  # the samples lie between the first and last MiB
            for k in range(_SAMPLES):
                handle.seek((1 << 20) + span * k // (_SAMPLES - 1))
                digest.update(handle.read(_SAMPLE_SIZE))
            handle.seek(size - (1 << 20))
            digest.update(handle.read())
    _FINGERPRINTS[stamp] = digest.hexdigest()[:16]
    return _FINGERPRINTS[stamp]


class ServedModelMismatch(CtsbenchError, ValueError):
    """Servers of one spec that serve different weights under its model name."""


def served_root(spec: ModelSpec, served: dict[str, str]) -> str | None:
    """The weights the servers that answered ``/v1/models`` name for the model (None when none did).

    Only that root, never which servers answered: the probe is best effort (2 s), so a server that is
    slow or down at load, or one more server of the same weights, must change neither the cache key nor
    the run identity. Servers that answer with different roots refuse the load: their answers could not
    share one cache key."""
    roots = sorted(set(served.values()))
    if len(roots) > 1:
        shown = "; ".join(f"{url} serves {root}" for url, root in sorted(served.items()))
        raise ServedModelMismatch(f"{spec.label}: the servers serve different weights under this name ({shown}); "
                                  "give each its own spec (or serve the same weights on all)")
    silent = [url for url in spec.base_urls if url not in served]
    if roots and silent:
        logger.warning("%s: %s did not say what it serves; the others serve %s", spec.label, ", ".join(silent), roots[0])
    return roots[0] if roots else None
