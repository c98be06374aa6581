"""`ctsbench build INTENTS --out-dir DIR`: new instances from intent queries, as the paper built its gold."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click


@click.command(context_settings={"show_default": True})
@click.argument("intents", type=click.Path(dir_okay=False, exists=True, path_type=Path))
@click.option("--out-dir", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="Folder for instances.jsonl, traces.jsonl, model_calls.jsonl, report.md and build.json.")
@click.option("--model", "model_spec", default="default", help="Model spec for blurring, extraction and the agent.")
@click.option("--searcher", "kind", type=click.Choice(["react", "retrieval"]), default="react",
              help="The deep-search backbone run once on each intent query.")
@click.option("--max-llm-calls", default=8, help="ReAct: the agent's calls per run.")
@click.option("--max-tokens-per-call", type=int, default=None,
              help="ReAct: generation limit per agent step (default: one that fits the model's context).")
@click.option("--action-grammar/--free-actions", default=None,
              help="ReAct: hold each step to one valid action and search the intent first (the react-cpu "
                   "preset's agent settings). Default: on for the packaged default model, off otherwise.")
@click.option("--tool", "tool_kind", type=click.Choice(["corpus", "searxng", "serper"]), default="corpus",
              help="What the backbone searches: the shipped corpus or a web provider.")
@click.option("--url", help="The web provider's endpoint.")
@click.option("--api-key-env", help="The environment variable holding the web provider's key.")
@click.option("--id-prefix", default="built", help="Ids of intents that have none: PREFIX-0001, ...")
@click.option("--attempts", default=3, help="Model attempts per step (blurring, extraction) before an intent is rejected.")
@click.option("--max-docs", default=4, help="Evidence documents shown to the extraction step.")
@click.option("--min-nuggets", default=2)
@click.option("--max-nuggets", default=6)
@click.option("--no-cache", is_flag=True, help="Bypass the response cache.")
def build(intents: Path, out_dir: Path, model_spec: str, kind: str, max_llm_calls: int,
          max_tokens_per_call: int | None, action_grammar: bool | None, tool_kind: str,
          url: str | None, api_key_env: str | None, id_prefix: str, attempts: int, max_docs: int,
          min_nuggets: int, max_nuggets: int, no_cache: bool) -> None:
    """Build instances from INTENTS (a text file, one intent query per line, or JSONL with query/id/language).

    Each intent is blurred by the model into a query with typed removed constraints (checked: each removed
    value occurs in the intent and not in the blurred query), searched once by the backbone (its trace
    archived), and given weighted, atomic nuggets with the ids of the documents that state them; the set
    is then checked as `ctsbench check-data` does and what fails is dropped, with the reasons in
    build.json and traces.jsonl.
    """
    from cts_dataset.build.builder import BuildSettings, read_intents
    from cts_dataset.build.builder import build as run_build
    from cts_dataset.errors import CtsbenchError
    from cts_dataset.models.registry import load_model
    from cts_dataset.search import load_searcher
    from cts_dataset.search.searcher import small_model_agent_options

    try:
        found = read_intents(intents, id_prefix)
        out_dir.mkdir(parents=True, exist_ok=True)
        model = load_model(model_spec, cache=not no_cache, trace=out_dir / "model_calls.jsonl")
        tool = {"kind": tool_kind, **({"url": url} if url else {}), **({"api_key_env": api_key_env} if api_key_env else {})}
        react: dict[str, Any] = {"max_llm_calls": max_llm_calls, "max_tokens_per_call": max_tokens_per_call}
        react = {**small_model_agent_options(model_spec, action_grammar), **react}
        options = {"tool": tool, **(react if kind == "react" else {})}
        searcher = load_searcher({"kind": kind, "options": options}, model=model)
        settings = BuildSettings(id_prefix=id_prefix, attempts=attempts, max_docs=max_docs, min_nuggets=min_nuggets,
                                 max_nuggets=max_nuggets)
        summary = run_build(found, model, searcher, out_dir, settings, log=lambda m: click.echo(m, err=True))
    except (CtsbenchError, ValueError) as error:
        raise click.ClickException(str(error)) from None
    for intent_id, reasons in summary["rejected"].items():
        click.echo(f"rejected {intent_id}: {'; '.join(reasons)}", err=True)
    methods = ", ".join(f"{m} {n}" for m, n in summary["blur_methods"].items())
    click.echo(f"kept {summary['kept']} of {summary['intents']} intent(s); blurring: {methods}; checks: {summary['checks']}")
    click.echo(f"wrote {out_dir}/instances.jsonl, traces.jsonl, model_calls.jsonl, build.json"
               + (", report.md" if (out_dir / "report.md").exists() else ""))
    click.echo(f"check with: ctsbench validate {out_dir}/instances.jsonl && ctsbench check-data {out_dir}/instances.jsonl")
    if not summary["kept"]:
        raise SystemExit(1)
