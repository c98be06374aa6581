"""What each engine promises about the bytes of one request's answer, whatever else it is asked beside it.

A benchmark's fixed roles are its ruler: the run identity records, per role, whether the engine gives the
same request the same bytes in any batch, order, slot count and thread count (``batch_invariant``), and
how (or why not). The summary names the fixed roles that cannot promise it.
"""

from __future__ import annotations

from typing import Any

NOT_PROMISED = {
    "vllm": "vLLM batches requests together; its kernels are not batch-invariant unless the engine runs "
            "in its batch-invariant mode (VLLM_BATCH_INVARIANT=1 on supported GPUs)",
    "openai": "a server decides how it batches requests; nothing here can promise the same bytes",
    "transformers": "a batch of prompts is padded together: another batch can change the sums "
                    "(batch_size: 1 removes the padding, but torch's thread count is not fixed: not measured)",
}


def determinism_of(backend: Any, backend_kind: str = "", engine_args: dict[str, Any] | None = None) -> dict[str, Any]:
    """The backend's own statement (``backend.determinism``) or what is known of its kind (a Ray actor's
    llama.cpp engine is built from the same ``engine_args``)."""
    stated = getattr(backend, "determinism", None)
    if isinstance(stated, dict):
        return dict(stated)
    kind = backend_kind or type(backend).__name__
    if kind in ("llamacpp", "default"):
        from cts_dataset.models.llamacpp_backend import DETERMINISTIC_DECODE_THREADS, determinism_record

        args = engine_args or {}
        deterministic = bool(args.get("deterministic", True))
        return determinism_record(deterministic, n_parallel=int(args.get("n_parallel", 4)),
                                  decode_threads=int(args.get("n_threads") or DETERMINISTIC_DECODE_THREADS),
                                  prompt_reuse=str(args.get("prompt_reuse", "prefix")))
    if kind == "scripted" or type(backend).__name__ == "ScriptedModel":
        return {"batch_invariant": True, "how": "scripted replies"}
    if kind == "vllm":
        import os

        if os.environ.get("VLLM_BATCH_INVARIANT") == "1":
            return {"batch_invariant": True, "how": "vLLM's batch-invariant mode (VLLM_BATCH_INVARIANT=1)"}
    return {"batch_invariant": False, "why": NOT_PROMISED.get(kind, "this engine states nothing about it")}


def not_batch_invariant(identity: dict[str, Any]) -> list[str]:
    """The fixed roles of a run identity whose engines do not promise the same bytes (the summary warns)."""
    roles = identity.get("roles", {})
    return [role for role in ("user_answerer", "rewriter")
            if (roles.get(role, {}).get("determinism") or {}).get("batch_invariant") is False]
