"""`ctsbench search`: run the search backbone on queries from the command line."""

from __future__ import annotations

import click


@click.command()
@click.argument("queries", nargs=-1, required=True)
@click.option("--searcher", "kind", type=click.Choice(["retrieval", "react"]), default="retrieval", show_default=True)
@click.option("--model", default=None, help="Model spec for the react agent (e.g. default, vllm:Qwen/Qwen3-8B).")
@click.option("--tool", "tool_kind", type=click.Choice(["corpus", "searxng", "serper"]), default="corpus",
              show_default=True)
@click.option("--url", default=None, help="Endpoint of a web tool.")
@click.option("--api-key-env", default=None, help="Environment variable holding the web tool's API key.")
@click.option("--corpus-file", type=click.Path(exists=True, dir_okay=False), default=None,
              help="A JSONL file of document records to search instead of the shipped corpus.")
@click.option("--max-llm-calls", type=int, default=None, help="Call budget of the react agent.")
@click.option("--action-grammar/--free-actions", default=None,
              help="React: hold each step to one valid action and search the question first (the react-cpu "
                   "preset's agent settings). Default: on for the packaged default model, off otherwise.")
@click.option("--json", "as_json", is_flag=True, help="Print one SearchOutput JSON record per query.")
def search(queries: tuple[str, ...], kind: str, model: str | None, tool_kind: str, url: str | None,
           api_key_env: str | None, corpus_file: str | None, max_llm_calls: int | None, action_grammar: bool | None,
           as_json: bool) -> None:
    """Search QUERIES with the retrieval baseline or the ReAct agent and print the answers."""
    from cts_dataset.search import load_searcher

    tool = {"kind": tool_kind, "url": url, "api_key_env": api_key_env, "corpus_file": corpus_file}
    config: dict = {"kind": kind, "tool": {k: v for k, v in tool.items() if v is not None}}
    if kind == "react":
        from cts_dataset.search.searcher import small_model_agent_options

        config["react"] = small_model_agent_options(model or "default", action_grammar)
    if max_llm_calls is not None:
        config.setdefault("react", {})["max_llm_calls"] = max_llm_calls
    from cts_dataset.errors import CtsbenchError

    chat_model = None
    try:
        if kind == "react":
            from cts_dataset.models.registry import load_model

            chat_model = load_model(model or "default")
        searcher = load_searcher(config, model=chat_model)
        outputs = searcher.search(list(queries))
    except (CtsbenchError, ImportError) as error:  # before ValueError: some of them are ValueErrors too
        raise click.ClickException(str(error)) from None
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    for output in outputs:
        if as_json:
            click.echo(output.model_dump_json())
            continue
        click.echo(f"# {output.query}\n[{output.termination.value}; llm calls {output.llm_calls}; "
                   f"searches {output.tool_calls.search}; visits {output.tool_calls.visit}]")
        click.echo(f"documents: {', '.join(output.retrieved_doc_ids[:10]) or '-'}")
        click.echo(output.answer or "(no answer)")
        click.echo()
