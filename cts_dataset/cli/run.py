"""`ctsbench run`: baseline, clarify@k and oracle for one clarifier, searched, judged and scored."""

from __future__ import annotations

from pathlib import Path

import click


def _budgets(values: tuple[str, ...], extra: tuple[int, ...]) -> list[int] | None:
    """``--budgets 1 2 3`` and ``--budgets 1,2,3`` both work (click options take one value each)."""
    if not values:
        if extra:
            raise click.UsageError(f"unexpected arguments: {' '.join(map(str, extra))}")
        return None
    out = [int(v) for value in values for v in value.replace(",", " ").split()]
    return out + list(extra)


def _generation(values: tuple[str, ...]) -> dict[str, dict]:
    """``--generation clarifier.max_tokens=2048 --generation clarifier.enable_thinking=true`` -> per-role
    settings; keys other than max_tokens/temperature/top_p/seed are chat-template kwargs."""
    import yaml

    out: dict[str, dict] = {}
    for item in values:
        target, sep, raw = item.partition("=")
        role, dot, key = target.partition(".")
        if not sep or not dot or not key:
            raise click.UsageError(f"--generation {item!r}: expected ROLE.KEY=VALUE, e.g. clarifier.max_tokens=2048")
        value = yaml.safe_load(raw)
        settings = out.setdefault(role, {})
        if key in ("max_tokens", "temperature", "top_p", "seed"):
            settings[key] = value
        else:
            settings.setdefault("chat_template_kwargs", {})[key.removeprefix("chat_template_kwargs.")] = value
    return out


def _prompts(values: tuple[str, ...], clarifier_prompt: str | None) -> dict[str, str]:
    """``--prompt user_answerer=v1 --prompt rewriter=mine.yaml`` (and ``--clarifier-prompt``) -> {role: source}."""
    out: dict[str, str] = {}
    for item in values:
        role, sep, source = item.partition("=")
        if not sep or not role.strip() or not source.strip():
            raise click.UsageError(f"--prompt {item!r}: expected ROLE=SOURCE, e.g. user_answerer=v1")
        out[role.strip()] = source.strip()
    if clarifier_prompt:
        if out.get("clarifier", clarifier_prompt) != clarifier_prompt:
            raise click.UsageError(f"--clarifier-prompt {clarifier_prompt!r} and --prompt clarifier={out['clarifier']} "
                                   "disagree; keep one")
        out["clarifier"] = clarifier_prompt
    return out


@click.command(context_settings={"show_default": True})
@click.argument("extra_budgets", nargs=-1, type=int, metavar="")
@click.option("--config", "config_path", type=click.Path(dir_okay=False, path_type=Path), help="A YAML run config; flags override it.")
@click.option("--clarifier", help="Model spec of the clarifier, e.g. vllm:Qwen/Qwen3-8B, openai:gpt-4.1, default.")
@click.option("--preset", help="Protocol preset fixing the other roles (cpu-smoke, ctsbench-v1).")
@click.option("--user-answerer", help="Override the preset's user answerer model.")
@click.option("--rewriter", help="Override the preset's rewriter model.")
@click.option("--searcher", type=click.Choice(["retrieval", "react"]), help="Override the preset's searcher.")
@click.option("--search-model", help="Model spec of the ReAct search agent.")
@click.option("--judge", help="Override the preset's judge: lexical, embedding or a model spec.")
@click.option("--judge-prompt", help="The LLM judge's prompt: a shipped id (coverage-v1) or a YAML file.")
@click.option("--budgets", multiple=True, help="Clarification budgets k, e.g. --budgets 1 2 3.")
@click.option("--conditions", help="Comma-separated subset of baseline,clarify,oracle.")
@click.option("--show-budget", is_flag=True, default=None, help="Tell the clarifier the budget (one dialogue per k).")
@click.option("--dataset", help="A shipped split (demo, test, smoke; default demo), an imported one (hard518) or an instances JSONL file.")
@click.option("--limit", type=int, help="Run the first N instances only.")
@click.option("--sample", type=int, help="Run a fixed sample of N instances, stratified by removed-constraint type "
              "(the main job runs --sample 20).")
@click.option("--ids", help="Comma-separated instance ids to run (in this order).")
@click.option("--out-dir", type=click.Path(file_okay=False, path_type=Path), help="The run folder (resumed if it exists).")
@click.option("--clarifier-prompt", help="The clarifier's prompt apart from the protocol's: a shipped version or a YAML file.")
@click.option("--prompt", "prompts", multiple=True, metavar="ROLE=SOURCE",
              help="A role's own prompt: user_answerer=v1, rewriter=my_rewriter.yaml (clarifier, user_answerer, rewriter).")
@click.option("--generation", "generation", multiple=True, metavar="ROLE.KEY=VALUE",
              help="Per-role generation: clarifier.max_tokens=2048, clarifier.temperature=0.7, "
                   "clarifier.enable_thinking=true (other keys go to the chat template).")
@click.option("--answer-mode", type=click.Choice(["choose", "replace", "spans", "off"]),
              help="How the user answerer answers [default: the preset's; cpu-smoke: choose]: choose picks one of the "
                   "intent's phrases or unknown under a choice grammar (prompt v3); the free-form modes (prompts v1, v2) "
                   "guard a written answer: replace turns an answer with words the intent lacks into unknown, spans "
                   "also constrains it to spans of the intent.")
@click.option("--repeats", type=int, help="Dialogues per instance (for sampled clarifiers); the spread is reported.")
@click.option("--max-errors", type=int, help="Stop once more requests than this failed after retries [default: 10].")
@click.option("--retry-unscored", is_flag=True, default=None, help="Judge again the items with unscored nuggets.")
@click.option("--executor", type=click.Choice(["local", "ray"]), help="Run model batches here or on Ray [default: local].")
@click.option("--no-cache", is_flag=True, help="Bypass the response cache.")
@click.option("--quiet", is_flag=True, help="No progress bars.")
def run(extra_budgets: tuple[int, ...], config_path: Path | None, clarifier: str | None, preset: str | None,
        user_answerer: str | None, rewriter: str | None, searcher: str | None, search_model: str | None,
        judge: str | None, judge_prompt: str | None, budgets: tuple[str, ...], conditions: str | None, show_budget: bool | None,
        dataset: str | None, limit: int | None, sample: int | None, ids: str | None, out_dir: Path | None, clarifier_prompt: str | None,
        prompts: tuple[str, ...],
        generation: tuple[str, ...], answer_mode: str | None, repeats: int | None, max_errors: int | None, retry_unscored: bool | None,
        executor: str | None, no_cache: bool, quiet: bool) -> None:
    """Run the Clarify-Then-Search experiment and write a run folder with every intermediate record.

    A killed run resumes where it stopped when started again with the same --out-dir; a folder of
    another run identity (models, prompts, searcher, judge, version) is refused, naming what changed.
    """
    from pydantic import ValidationError

    from cts_dataset.errors import CtsbenchError
    from cts_dataset.pipeline.config import load_config
    from cts_dataset.pipeline.experiment import Experiment
    from cts_dataset.pipeline.summary import render_markdown

    searcher_config = None
    if searcher or search_model:
        searcher_config = {"kind": searcher or "react", "model": search_model}
    try:
        config = load_config(
            config_path, clarifier=clarifier, preset=preset, user_answerer=user_answerer, rewriter=rewriter,
            searcher=searcher_config, judge=judge, judge_prompt=judge_prompt, budgets=_budgets(budgets, extra_budgets),
            conditions=conditions.split(",") if conditions else None, show_budget=show_budget, dataset=dataset,
            limit=limit, sample=sample, ids=[i.strip() for i in ids.split(",") if i.strip()] if ids else None, out_dir=out_dir, cache=False if no_cache else None,
            prompts=_prompts(prompts, clarifier_prompt),
            generation=_generation(generation), answer_mode=answer_mode, repeats=repeats, max_errors=max_errors, retry_unscored=retry_unscored,
            executor=executor,
        )
        experiment = Experiment(config, progress=not quiet)
    except (CtsbenchError, ValidationError, ValueError, FileNotFoundError, ImportError) as error:
        raise click.ClickException(str(error)) from None
    try:
        summary = experiment.run()
    except CtsbenchError as error:
        raise click.ClickException(
            f"{error}\nFinished records are kept in {experiment.folder}; the same command resumes the run.") from None
    click.echo(render_markdown(summary))
    for warning in summary["warnings"]:
        click.secho(f"WARNING: {warning}", fg="red", bold=True, err=True)
    click.echo(f"run folder: {experiment.folder} (summary.md, summary.json, config.json, one JSONL per stage)")
    if any(summary["errors"].values()):
        shown = "\n".join(f"  {stage} {e['key']}: {e['error']}" for stage, found in summary["error_examples"].items()
                          for e in found)
        raise click.ClickException(f"some requests failed after retries:\n{shown}\nEvery finished record is kept in "
                                   f"{experiment.folder}; the same command retries only the failed requests.")
