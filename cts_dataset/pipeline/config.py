"""The run configuration: one object, YAML in, CLI flags override, resolved and saved as config.json.

A protocol preset fixes the user answerer, rewriter, searcher and judge so that runs that differ
only in the clarifier are comparable; each role can still be overridden (the override is recorded).
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator

ModelRef = str | dict[str, Any]
Condition = Literal["baseline", "clarify", "oracle"]


class SearcherConfig(BaseModel):
    """Which searcher runs the queries; ``model`` is needed by the agent (``react``) only."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["retrieval", "react"] = "retrieval"
    model: ModelRef | None = None
    options: dict[str, Any] = Field(default_factory=dict)


class RunConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    preset: str = "cpu-smoke"
    clarifier: ModelRef = "default"
    user_answerer: ModelRef | None = None
    rewriter: ModelRef | None = None
    searcher: SearcherConfig | None = None
    judge: ModelRef | None = None
    budgets: list[int] = Field(default_factory=lambda: [1, 2, 3])
    conditions: list[Condition] = Field(default_factory=lambda: ["baseline", "clarify", "oracle"])
    show_budget: bool = False
    dataset: str = Field("demo", description="A shipped split name or a path to an instances JSONL file.")
    limit: int | None = None
    out_dir: Path | None = Field(None, description="Default: runs/<clarifier>__<preset>.")
    prompt_version: str = "v1"
    batch_size: int = Field(4096, ge=1, description="Requests per model batch and per durable write; a kill loses at most one batch.")
    cache: bool = True

    @field_validator("budgets")
    @classmethod
    def _budgets(cls, value: list[int]) -> list[int]:
        if not value or any(k < 1 for k in value):
            raise ValueError("budgets must be positive integers, e.g. [1, 2, 3]")
        return sorted(set(value))

    @property
    def max_turns(self) -> int:
        return max(self.budgets) if "clarify" in self.conditions else 0


@cache
def preset(name: str) -> dict[str, Any]:
    """A protocol preset (YAML shipped in cts_dataset/pipeline/presets/)."""
    folder = resources.files("cts_dataset.pipeline").joinpath("presets")
    path = folder.joinpath(f"{name}.yaml")
    if not path.is_file():
        known = sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".yaml"))
        raise ValueError(f"unknown protocol preset {name!r}; known: {', '.join(known)}")
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def resolve(config: RunConfig) -> RunConfig:
    """Fill the roles the user left open from the preset."""
    fixed = preset(config.preset)
    changes: dict[str, Any] = {}
    for role in ("user_answerer", "rewriter", "judge"):
        if getattr(config, role) is None:
            changes[role] = fixed[role]
    if config.searcher is None:
        changes["searcher"] = SearcherConfig.model_validate(fixed["searcher"])
    return config.model_copy(update=changes)


def load_config(path: Path | None = None, **overrides: Any) -> RunConfig:
    """A YAML config file (optional) with CLI overrides on top (None values mean 'not given')."""
    data: dict[str, Any] = {}
    if path is not None:
        loaded = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
        if not isinstance(loaded, dict):
            raise ValueError(f"{path}: a run config must be a YAML mapping")
        data.update(loaded)
    data.update({k: v for k, v in overrides.items() if v is not None})
    config = resolve(RunConfig.model_validate(data))
    if config.out_dir is None:
        config = config.model_copy(update={"out_dir": Path("runs") / f"{slug(config.clarifier)}__{config.preset}"})
    return config


def slug(ref: ModelRef) -> str:
    """A folder-safe name of a model reference (``vllm:Qwen/Qwen3-8B`` -> ``vllm-Qwen-Qwen3-8B``)."""
    text = ref if isinstance(ref, str) else str(ref.get("name") or ref.get("model") or "custom")
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-") or "model"
