"""The run configuration: one object, YAML in, CLI flags override, resolved and saved as config.json.

A protocol preset fixes the user answerer, rewriter, searcher and judge so that runs that differ
only in the clarifier are comparable; each role can still be overridden (the override is recorded).
"""

from __future__ import annotations

import re
import warnings
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from cts_dataset.errors import CtsbenchError

ModelRef = str | dict[str, Any]
Condition = Literal["baseline", "clarify", "oracle"]


class SearcherChoice(BaseModel):
    """The run config's ``searcher:``: which searcher runs the queries, the model it runs on (the agent,
    ``react``, only) and its ``options``. :func:`cts_dataset.search.searcher.searcher_config` turns it into
    the searcher's own settings (:class:`cts_dataset.search.searcher.SearcherConfig`)."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["retrieval", "react"] = "retrieval"
    model: ModelRef | None = None
    options: dict[str, Any] = Field(default_factory=dict)


class ConfigError(CtsbenchError, ValueError):
    """A run config that cannot be used (an unknown preset, a file that is not a mapping)."""


ROLES = ("clarifier", "user_answerer", "rewriter")
# Generation caps per role with thinking off: a question, a short JSON answer, a query. A reasoning
# clarifier needs far more (its <think> block counts): raise max_tokens in `generation`.
ROLE_MAX_TOKENS = {"clarifier": 64, "user_answerer": 96, "rewriter": 128}


class Generation(BaseModel):
    """How one interaction role samples. Unset fields keep the role's defaults (greedy, ROLE_MAX_TOKENS)."""

    model_config = ConfigDict(extra="forbid")

    max_tokens: int | None = Field(None, ge=1)
    temperature: float | None = Field(None, ge=0)
    top_p: float | None = Field(None, gt=0, le=1)
    seed: int | None = None
    chat_template_kwargs: dict[str, Any] = Field(default_factory=dict,
                                                 description="Merged over the model's own, e.g. {enable_thinking: true}.")


class RunConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    preset: str = "cpu-smoke"
    clarifier: ModelRef = "default"
    user_answerer: ModelRef | None = None
    rewriter: ModelRef | None = None
    searcher: SearcherChoice | None = None
    judge: ModelRef | None = None
    judge_prompt: str | None = Field(None, description="The LLM judge's prompt: a shipped id (coverage-v1) or a YAML file.")
    budgets: list[int] = Field(default_factory=lambda: [1, 2, 3])
    conditions: list[Condition] = Field(default_factory=lambda: ["baseline", "clarify", "oracle"])
    show_budget: bool = False
    dataset: str = Field("demo", description="A shipped split name or a path to an instances JSONL file.")
    limit: int | None = Field(None, ge=1)
    sample: int | None = Field(None, ge=1, description="Run a fixed sample of this many instances, stratified by "
                               "the type of their first removed constraint (cts_dataset.data.stratified_sample).")
    ids: list[str] | None = Field(None, description="Run these instances only (in this order).")
    out_dir: Path | None = Field(None, description="Default: runs/<clarifier that ran>__<preset>; a Python "
                                 "clarifier with options: runs/<clarifier>-<hash of its options>__<preset>.")
    prompt_version: str = Field("v1", description="The interaction roles' prompts, unless `prompts` (or the "
                                "preset's `prompts`) names a role's own.")
    prompts: dict[Literal["clarifier", "user_answerer", "rewriter"], str] = Field(
        default_factory=dict, description="A role's own prompt: a shipped version (v2) or a YAML file path. "
        "`clarifier_prompt: X` is short for `prompts: {clarifier: X}`.")
    generation: dict[Literal["clarifier", "user_answerer", "rewriter"], Generation] = Field(default_factory=dict)
    answer_mode: Literal["off", "replace", "spans", "choose"] | None = Field(
        None, description="How the user answerer answers: choose (picks one of the intent's phrases or unknown "
        "under a choice grammar), or the paper's free-form answerer guarded by replace (an answer holding words "
        "the intent lacks becomes unknown) or spans (constrained to spans of the intent, then replace), or off "
        "(recorded only). Default: the preset's.")
    clarifier_reask: bool = Field(True, description="Ask once more when a reply is not one short question.")
    rewriter_guard: bool = Field(True, description="Keep the query when nothing was elicited; fall back to the "
                                 "query plus the answers when a rewrite drops the query or an answer, or adds what nobody said.")
    repeats: int = Field(1, ge=1, description="Dialogues per instance and budget (sampled clarifiers): the spread is reported.")
    max_errors: int = Field(10, ge=0, description="Stop the run once more requests than this failed after retries.")
    retry_unscored: bool = Field(False, description="Judge again the items with unscored nuggets.")
    executor: Literal["local", "ray"] = Field("local", description="Where model batches run: this process, or a "
                                              "Ray cluster (RAY_ADDRESS, else a local one).")
    batch_size: int | None = Field(None, ge=1, description=(
        "Requests per model batch and per durable write; a kill loses at most one batch (default: 4096, or "
        "32 for an engine that serves one request at a time, where a larger batch is no faster)."))
    cache: bool = True

    @model_validator(mode="before")
    @classmethod
    def _clarifier_prompt(cls, data: Any) -> Any:
        return fold_clarifier_prompt(data, "run config") if isinstance(data, dict) else data

    def prompt_for(self, role: str) -> str:
        """The prompt a role plays with: its own, else the protocol's version."""
        return self.prompts.get(role, self.prompt_version)  # type: ignore[call-overload]

    @field_validator("budgets")
    @classmethod
    def _budgets(cls, value: list[int]) -> list[int]:
        if not value or any(k < 1 for k in value):
            raise ValueError("budgets must be positive integers, e.g. [1, 2, 3]")
        return sorted(set(value))

    @field_validator("conditions")
    @classmethod
    def _conditions(cls, value: list[str]) -> list[str]:
        if not value:
            raise ValueError("conditions must name at least one of baseline, clarify, oracle")
        return [c for c in ("baseline", "clarify", "oracle") if c in value]


@cache
def preset(name: str) -> dict[str, Any]:
    """A protocol preset (YAML shipped in cts_dataset/pipeline/presets/)."""
    folder = resources.files("cts_dataset.pipeline").joinpath("presets")
    path = folder.joinpath(f"{name}.yaml")
    if not path.is_file():
        known = sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".yaml"))
        raise ConfigError(f"unknown protocol preset {name!r}; known: {', '.join(known)}")
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def resolve(config: RunConfig) -> RunConfig:
    """Fill the roles the user left open from the preset."""
    fixed = preset(config.preset)
    changes: dict[str, Any] = {}
    for role in ("user_answerer", "rewriter", "judge"):
        if getattr(config, role) is None:
            changes[role] = fixed[role]
    if config.searcher is None:
        changes["searcher"] = SearcherChoice.model_validate(fixed["searcher"])
    preset_mode = fixed.get("answer_mode", "replace")
    mode = changes["answer_mode"] = config.answer_mode or preset_mode
    if fixed.get("prompts"):  # the preset's prompts, under the ones the user chose
        preset_prompts = dict(fixed["prompts"])
        if mode != preset_mode and mode != "choose" and "free_form_answerer_prompt" in fixed:
            preset_prompts["user_answerer"] = fixed["free_form_answerer_prompt"]  # --answer-mode replace on cpu-smoke
        changes["prompts"] = {**preset_prompts, **config.prompts}
    return config.model_copy(update=changes)


def fold_clarifier_prompt(data: dict[str, Any], where: str) -> dict[str, Any]:
    """``clarifier_prompt: X`` as ``prompts: {clarifier: X}`` (``null``: no choice); two different choices
    are refused."""
    if "clarifier_prompt" not in data:
        return data
    data = dict(data)
    chosen = data.pop("clarifier_prompt")
    named = (data.get("prompts") or {}).get("clarifier")
    if chosen is not None and named is not None and named != chosen:
        raise ConfigError(f"{where}: clarifier_prompt {chosen!r} and prompts.clarifier {named!r} disagree; keep one")
    if chosen is not None:
        data["prompts"] = {**(data.get("prompts") or {}), "clarifier": chosen}
    return data


def load_config(path: Path | None = None, **overrides: Any) -> RunConfig:
    """A YAML config file (optional) with CLI overrides on top (None values mean 'not given')."""
    data: dict[str, Any] = {}
    if path is not None:
        loaded = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
        if not isinstance(loaded, dict):
            raise ConfigError(f"{path}: a run config must be a YAML mapping")
        data.update(loaded)
    generation = overrides.pop("generation", None) or {}
    data = fold_clarifier_prompt(data, str(path))  # the file's shorthand first, so that flags merge over it
    data["prompts"] = {**(data.get("prompts") or {}), **(overrides.pop("prompts", None) or {})}
    data.update({k: v for k, v in overrides.items() if v is not None})
    for role, settings in generation.items():  # CLI settings merge over the file's, field by field
        merged = {**data.get("generation", {}).get(role, {}), **settings}
        if "chat_template_kwargs" in settings:
            merged["chat_template_kwargs"] = {**data.get("generation", {}).get(role, {}).get("chat_template_kwargs", {}),
                                              **settings["chat_template_kwargs"]}
        data.setdefault("generation", {})[role] = merged
    return resolve(RunConfig.model_validate(data))


def __getattr__(name: str) -> Any:
    # The former name of SearcherChoice, kept for old imports: it read as the search module's SearcherConfig.
    if name == "SearcherConfig":
        warnings.warn("cts_dataset.pipeline.config.SearcherConfig is now SearcherChoice", DeprecationWarning,
                      stacklevel=2)
        return SearcherChoice
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def default_out_dir(clarifier_label: str, preset_name: str) -> Path:
    """``runs/<clarifier that ran>__<preset>``."""
    return Path("runs") / f"{slug(clarifier_label)}__{preset_name}"


def slug(ref: ModelRef) -> str:
    """A folder-safe name of a model reference (``vllm:Qwen/Qwen3-8B`` -> ``vllm-Qwen-Qwen3-8B``)."""
    text = ref if isinstance(ref, str) else str(ref.get("name") or ref.get("model") or "custom")
    return re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-") or "model"
