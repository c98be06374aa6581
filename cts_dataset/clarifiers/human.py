"""A person in a role, at the terminal: the clarifier (types the questions) or the user answerer (reads
the hidden intent and answers), writing the same records as a model run, so a study with people uses
the same pipeline and files."""

from __future__ import annotations

from collections.abc import Sequence

import click

from cts_dataset.protocol.role_guards import unsupported_words
from cts_dataset.protocol.views import AnswererView, ClarifierView


class HumanClarifier:
    """Shows the blurred query and the dialogue so far; the person types a question (empty: stop asking)."""

    name = spec = "human:clarifier"
    identity = {"human": "clarifier"}  # noqa: RUF012 - a constant description

    def ask(self, views: Sequence[ClarifierView]) -> list[str | None]:
        out: list[str | None] = []
        for view in views:
            click.echo(f"\nSearch query: {view.blurred_query}")
            for n, qa in enumerate(view.history, start=1):
                click.echo(f"  Q{n}: {qa.question}\n  A{n}: {qa.answer}")
            budget = f" of {view.budget}" if view.budget else ""
            text = click.prompt(f"Clarifying question {view.turn}{budget} (empty to stop asking)", default="",
                                show_default=False).strip()
            out.append(text or None)
        return out


class HumanAnswerer:
    """Shows the hidden intent and the question; the person answers from the intent, or says unknown."""

    name = spec = "human:user_answerer"
    identity = {"human": "user_answerer"}  # noqa: RUF012 - a constant description

    def answer_views(self, views: Sequence[AnswererView]) -> list[tuple[str, tuple[str, ...]]]:
        """(answer, words the intent does not contain) per view; empty input means unknown."""
        out = []
        for view in views:
            click.echo(f"\nYour information need: {view.fused_query}\nClarifying question: {view.question}")
            text = click.prompt("Answer only from your information need, or type unknown", default="unknown").strip()
            out.append((text or "unknown", unsupported_words(text, view.fused_query)))
        return out
