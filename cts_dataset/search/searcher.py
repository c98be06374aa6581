"""The ``Searcher`` protocol and the factory the protocol runner calls.

A searcher config is plain data (YAML in, CLI flags override), never a string DSL::

    kind: react                    # or: retrieval
    tool: {kind: corpus}           # or: {kind: serper, url: ..., api_key_env: SERPER_API_KEY}
    react: {max_llm_calls: 20, date: "2025-01-01"}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field, model_validator

from cts_dataset.models.base import ChatModel
from cts_dataset.search.react import ReactSearcher, ReactSettings
from cts_dataset.search.records import SearchOutput
from cts_dataset.search.retrieval import RetrievalSearcher, RetrievalSettings
from cts_dataset.search.tool import SearchTool


@runtime_checkable
class Searcher(Protocol):
    """Runs a batch of queries to completion; one output per query, in order."""

    name: str
    tool: SearchTool

    def search(self, queries: Sequence[str], tags: Sequence[str] | None = None,
               languages: Sequence[str] | None = None) -> list[SearchOutput]:
        """``languages``: ``en``/``zh`` per query (the instances'), choosing the prompts; detected when None."""
        ...

    def describe(self) -> dict[str, Any]:
        """Everything that changes the outputs (kind, tool and its data, model, settings, prompts), for the
        run's config.json and for checking that a resumed run computes what it started with."""
        ...


class ToolConfig(BaseModel):
    """Which search tool: the local corpus (default: the shipped one) or a web provider."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["corpus", "searxng", "serper"] = "corpus"
    corpus_file: str | None = Field(None, description="A JSONL file of document records instead of the shipped corpus.")
    url: str | None = Field(None, description="The provider's endpoint (web tools only).")
    api_key_env: str | None = Field(None, description="The environment variable holding the API key (never the key).")
    timeout_s: float = Field(20.0, gt=0)
    snippet_chars: int = Field(300, ge=20)
    allow_hosts: list[str] = Field(default_factory=list, description=(
        "Web tools: hosts a visit may fetch although they resolve to a private, loopback or link-local "
        "address (refused otherwise; the search endpoint's own host is always allowed)."))

    @model_validator(mode="after")
    def _check(self) -> ToolConfig:
        if self.kind == "corpus" and self.url:
            raise ValueError("tool kind 'corpus' takes no url (use corpus_file for another corpus)")
        if self.kind == "corpus" and self.allow_hosts:
            raise ValueError("tool kind 'corpus' fetches nothing: allow_hosts is for web tools")
        if self.kind != "corpus" and not self.url:
            raise ValueError(f"tool kind {self.kind!r} needs a url")
        return self


class SearcherConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["retrieval", "react"] = "retrieval"
    tool: ToolConfig = Field(default_factory=ToolConfig)
    retrieval: RetrievalSettings = Field(default_factory=RetrievalSettings)
    react: ReactSettings = Field(default_factory=ReactSettings)


def load_tool(config: ToolConfig | Mapping[str, Any] | None = None, cache_root: Path | None = None) -> SearchTool:
    """The search tool a config names (the corpus index is built or reused from the cache folder)."""
    config = config if isinstance(config, ToolConfig) else ToolConfig.model_validate(config or {})
    if config.kind == "corpus":
        from cts_dataset.search.corpus_tool import CorpusSearchTool

        if config.corpus_file:
            return CorpusSearchTool.from_file(config.corpus_file, cache_root, snippet_chars=config.snippet_chars)
        return CorpusSearchTool(None, cache_root, snippet_chars=config.snippet_chars)
    from cts_dataset.search.web_tool import WebSearchTool

    return WebSearchTool(config.kind, config.url or "", config.api_key_env, timeout_s=config.timeout_s,
                         snippet_chars=config.snippet_chars, allow_hosts=config.allow_hosts)


def searcher_config(spec: str | SearcherConfig | Mapping[str, Any]) -> SearcherConfig:
    """The config a name, a :class:`SearcherConfig` or a mapping describes.

    A mapping may also hold ``model`` (a model reference its caller resolves; ignored here) and
    ``options``: sections (``tool``, ``react``, ``retrieval``) or flat settings of the chosen kind,
    e.g. ``{"kind": "react", "options": {"max_llm_calls": 10}}``.
    """
    if isinstance(spec, SearcherConfig):
        return spec
    if isinstance(spec, str):
        return SearcherConfig.model_validate({"kind": spec})
    data = {k: v for k, v in spec.items() if k not in ("model", "options")}
    kind = data.get("kind", "retrieval")
    section_fields = {"react": ReactSettings.model_fields, "retrieval": RetrievalSettings.model_fields}.get(kind, {})
    for key, value in (spec.get("options") or {}).items():
        if key in SearcherConfig.model_fields and key != "kind":
            data[key] = {**data.get(key, {}), **value} if isinstance(value, Mapping) else value
        elif key in section_fields:
            data.setdefault(kind, {})
            data[kind] = {**data[kind], key: value}
        else:
            raise ValueError(f"unknown option {key!r} for the {kind!r} searcher; known: "
                             f"{', '.join(sorted({'tool', *section_fields}))}")
    return SearcherConfig.model_validate(data)


def load_searcher(spec: str | SearcherConfig | Mapping[str, Any] = "retrieval", model: ChatModel | None = None,
                  tool: SearchTool | None = None, summary_model: ChatModel | None = None) -> Searcher:
    """A searcher from a name (``"retrieval"``, ``"react"``), a config mapping or a :class:`SearcherConfig`.

    ``react`` needs ``model`` (the agent's chat model); ``tool`` overrides the configured tool, so
    callers can share one loaded index between searchers.
    """
    config = searcher_config(spec)
    tool = tool or load_tool(config.tool)
    if config.kind == "retrieval":
        return RetrievalSearcher(tool, config.retrieval)
    if model is None:
        raise ValueError("the 'react' searcher needs a chat model: load_searcher('react', model=...)")
    return ReactSearcher(model, tool, config.react, summary_model=summary_model)


def small_model_agent_options(model_spec: str, action_grammar: bool | None = None) -> dict[str, Any]:
    """The react settings of the ``react-cpu`` preset (an action grammar, the question searched first, short
    results) when ``action_grammar`` is on, by default for the packaged model; else none."""
    if not (action_grammar if action_grammar is not None else model_spec == "default"):
        return {}
    from cts_dataset.pipeline.config import preset

    return dict(preset("react-cpu")["searcher"]["options"])
