"""Building the run's parts from its config: instances, role models, searcher, judge, prompt ids."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cts_dataset.pipeline.config import RunConfig
from cts_dataset.protocol.prompts import LANGUAGES, load_prompt
from cts_dataset.records import Instance

ROLE_PROMPTS = {"clarifier": "clarifier", "user_answerer": "answerer", "rewriter": "rewriter"}


def load_instances(config: RunConfig) -> list[Instance]:
    from cts_dataset.data import SPLITS, load
    from cts_dataset.jsonl import read_records

    if config.dataset in SPLITS:
        instances = load(config.dataset)
    else:
        path = Path(config.dataset)
        if not path.is_file():
            raise FileNotFoundError(f"dataset {config.dataset!r} is neither a shipped split ({', '.join(SPLITS)}) nor a file")
        instances = read_records(path, "instance")
    return instances[: config.limit] if config.limit else instances


def dataset_revision(config: RunConfig) -> str:
    import hashlib

    from cts_dataset.data import SPLITS, dataset_revision as shipped_revision

    if config.dataset in SPLITS:
        return shipped_revision(config.dataset)
    return hashlib.sha256(Path(config.dataset).read_bytes()).hexdigest()[:16]


def prompt_ids(version: str) -> dict[str, dict[str, dict[str, str]]]:
    """role -> language -> {"prompt": id, "prompt_hash": hash}: stamped on every record."""
    ids: dict[str, dict[str, dict[str, str]]] = {}
    for role, prompt_role in ROLE_PROMPTS.items():
        ids[role] = {}
        for language in LANGUAGES:
            prompt = load_prompt(prompt_role, version, language)
            ids[role][language] = {"prompt": prompt.id, "prompt_hash": prompt.hash}
    return ids


def load_role_model(ref: Any, config: RunConfig, trace: Path):
    from cts_dataset.models.registry import load_model

    return load_model(ref, cache=config.cache, trace=trace)


def build_searcher(config: RunConfig, trace: Path):
    from cts_dataset.search import load_searcher

    searcher = config.searcher
    model = load_role_model(searcher.model, config, trace) if searcher.model is not None else None
    return load_searcher(searcher.model_dump(), model=model)


def build_judge(config: RunConfig, trace: Path):
    """An offline judge by name, or the LLM judge over the configured model (traced and cached)."""
    from cts_dataset.judges import OFFLINE_JUDGES, make_judge

    if isinstance(config.judge, str) and config.judge in OFFLINE_JUDGES:
        return make_judge(config.judge)
    from cts_dataset.judges.llm import LLMJudge

    ref = config.judge.removeprefix("llm:") if isinstance(config.judge, str) else config.judge
    return LLMJudge(load_role_model(ref, config, trace))
