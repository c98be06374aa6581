"""The ReAct agent's settings: every one is recorded in each output and in the run identity."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class ReactSettings(BaseModel):
    """Agent settings; every one is recorded in each output. Defaults follow WebDancer's demo."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    date: str = Field("2025-01-01", pattern=r"^\d{4}-\d{2}-\d{2}$",
                      description="The 'current date' in the system prompt, pinned so prompts and cache keys never drift.")
    max_llm_calls: int = Field(20, ge=1, description="The agent's own calls per run (visit summaries not included).")
    max_context_tokens: int = Field(32000, ge=64, description=(
        "The context limit assumed for a model that reports no max_model_len (a hosted API whose spec gives "
        "no engine_args.max_model_len): the cap and every call's max_tokens are kept under it. The cap is "
        "the limit - a step - final answer tokens - context_margin_tokens."))
    max_tokens_per_call: int | None = Field(None, ge=1, description=(
        "Generation limit per step, clamped to the room left. None: an eighth of max_model_len (of "
        "max_context_tokens when the model reports none), from 256 to 4096 tokens."))
    final_answer_tokens: int | None = Field(None, ge=1, description=(
        "Generation limit of the call that asks for the final answer. None: twice a step's, at most 4096."))
    context_margin_tokens: int = Field(256, ge=0, description=(
        "Tokens kept free under max_model_len for what the count may miss (template tokens)."))
    min_tokens_per_call: int = Field(128, ge=1, description=(
        "With less room than this left under max_model_len, the run ends with 'token limit' instead of calling."))
    max_format_errors: int = Field(3, ge=0, description="Unreadable replies in a row tolerated before giving up.")
    temperature: float = Field(0.6, ge=0)
    top_p: float = Field(0.95, gt=0, le=1)
    seed: int = Field(0, ge=0, description="Base seed: each run samples with a seed derived from it and its query.")
    search_k: int = Field(10, ge=1, description="Results per search query.")
    max_queries_per_call: int = Field(3, ge=1)
    visit_max_chars: int = Field(8000, ge=100, description="Page text shown by visit without a summary model.")
    summarize_visits: bool = Field(False, description="Let a model summarise visited pages for the goal.")
    action_grammar: bool = Field(False, description=(
        "Hold each reply to <think>...</think> and then one valid action (search, a visit to a link shown, "
        "or an answer) with a grammar; for models that do not keep WebDancer's format by themselves."))
    first_action: Literal["any", "search", "question"] = Field("any", description=(
        "'search': the first step must search (an earlier answer is refused as a format error); 'question': "
        "and, with action_grammar, its first query is the user's question as asked."))
    prompt_version: str = "v1"
    chat_template_kwargs: dict[str, Any] = Field(default_factory=dict)
