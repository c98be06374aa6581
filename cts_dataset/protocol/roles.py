"""Shared pieces of the three interaction roles: role settings and dialogue rendering."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from cts_dataset.models.base import ChatRequest, Sampling, StructuredOutput
from cts_dataset.protocol.prompts import Prompt, load_prompt
from cts_dataset.protocol.views import QA


@dataclass(frozen=True)
class RoleSettings:
    """How a role calls its model: prompt (a shipped version or a YAML file path), sampling, template
    kwargs, structured output."""

    prompt_version: str = "v1"
    sampling: Sampling = field(default_factory=lambda: Sampling(max_tokens=128))
    # Model-specific template kwargs (Qwen3's enable_thinking) come from the model's registry entry.
    chat_template_kwargs: tuple[tuple[str, object], ...] = ()
    structured: bool = True
    sample_index: int = 0  # the repeat of a sampled role: another sample of the same request

    def prompt(self, role: str, language: str) -> Prompt:
        if self.prompt_version.endswith((".yaml", ".yml")):
            from cts_dataset.protocol.prompts import load_prompt_file

            return load_prompt_file(self.prompt_version, role, language)
        return load_prompt(role, self.prompt_version, language)

    def request(self, role: str, messages: list[dict[str, str]], tag: str,
                structured: StructuredOutput | None = None) -> ChatRequest:
        return ChatRequest.of(
            messages, sampling=self.sampling, role=role, tag=tag,
            structured=structured if self.structured else None,
            chat_template_kwargs=dict(self.chat_template_kwargs), sample_index=self.sample_index,
        )


def render_pairs(prompt: Prompt, dialogue: Sequence[QA]) -> str:
    return "\n".join(
        prompt.fragment("pair", n=str(n), question=qa.question, answer=qa.answer)
        for n, qa in enumerate(dialogue, start=1)
    )


# "- ", "* ", "• ", "1. ", "2) " at the start of a line; a leading number without its marker is content.
_LIST_MARKER = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")


def first_line(text: str) -> str:
    """The first non-empty line, without list markers, labels or wrapping quotes."""
    for line in text.strip().splitlines():
        line = _LIST_MARKER.sub("", line).strip()
        for label in ("Question:", "Q:", "Rewritten query:", "Query:", "问题：", "改写后的查询："):
            if line.lower().startswith(label.lower()):
                line = line[len(label):].strip()
        line = line.strip("\"'“”「」 ")
        if line:
            return line
    return ""
