"""How well the ReAct agent searches with a given model, against one BM25 retrieval on the same queries.

    python benchmarks/bench_react.py [--model default] [--split heldout|dev] [--n 10]
        [--preset react-cpu | --set action_grammar=true --set first_action=search ...] [--json FILE]

The slice is fixed: demo instances whose number ends in 7 (``heldout``, never used to tune the agent)
or in 3 (``dev``); the first ``--n`` of them, each searched with its fused and its blurred query. It
prints, per searcher: the valid-action rate (agent steps whose reply parses as one tool call or an
answer), searches and visits per question, terminations by kind, the share of runs that search at
least once and end with an answer, gold-document recall (the nuggets' source documents among the
documents the searcher was shown), restore_score_100 under the lexical and the embedding judge side by
side (no judge has a measured agreement with labels yet, and the lexical one under-credits an agent's
own words), and seconds and tokens per question. Run it with nothing else heavy on the machine.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

import cts_dataset
from cts_dataset.records import Instance
from cts_dataset.scoring.compute import restore_score
from cts_dataset.search import load_searcher
from cts_dataset.search.records import SearchOutput, Termination
from cts_dataset.search.searcher import load_tool

SLICES = {"heldout": "7", "dev": "3"}
JUDGES = ("lexical", "embedding")


def slice_of(split: str, n: int) -> list[Instance]:
    return [i for i in cts_dataset.load() if i.id.endswith(SLICES[split])][:n]


def preset_settings(name: str) -> dict[str, Any]:
    """The react settings a run preset gives its searcher (``searcher.options``)."""
    from importlib import resources

    text = resources.files("cts_dataset.pipeline").joinpath("presets", f"{name}.yaml").read_text()
    return dict((yaml.safe_load(text).get("searcher") or {}).get("options") or {})


def parsed(value: str) -> Any:
    return yaml.safe_load(value)


def agent_steps(output: SearchOutput) -> tuple[int, int]:
    """(steps, valid steps): a step is valid unless a format-error notice followed it or the run ended
    with a format error right after it."""
    steps = [i for i, e in enumerate(output.trace) if e.kind == "assistant"]
    invalid = sum(1 for i in steps if i + 1 < len(output.trace) and output.trace[i + 1].kind == "format_error")
    if output.termination is Termination.format_error and steps and steps[-1] == len(output.trace) - 1:
        invalid += 1
    return len(steps), len(steps) - invalid


def gold_recall(instances: list[Instance], outputs: list[SearchOutput], top: int | None = None) -> float:
    """The share of the nuggets' source documents among those each output was shown (its first ``top``)."""
    cited = found = 0
    for instance, output in zip(instances, outputs, strict=True):
        gold = {s for n in instance.nuggets for s in n.sources}
        cited += len(gold)
        found += len(gold & set(output.retrieved_doc_ids[:top]))
    return found / cited if cited else 0.0


def scores(instances: list[Instance], queries: list[str], outputs: list[SearchOutput]) -> dict[str, float | None]:
    references = [[{"text": n.text, "weight": n.weight} for n in i.nuggets] for i in instances]
    return {judge: restore_score([o.answer for o in outputs], references, judge=judge, queries=queries)["restore_score_100"]
            for judge in JUDGES}


def figures(instances: list[Instance], queries: list[str], outputs: list[SearchOutput], seconds: float) -> dict[str, Any]:
    n = len(outputs)
    steps = [agent_steps(o) for o in outputs]
    answered = sum(o.tool_calls.search > 0 and bool(o.answer) and
                   o.termination in (Termination.answer, Termination.token_limit) for o in outputs)
    return {
        "questions": n,
        "valid_action_rate": sum(v for _, v in steps) / sum(s for s, _ in steps) if any(s for s, _ in steps) else None,
        "steps_per_question": sum(s for s, _ in steps) / n,
        "searches_per_question": sum(o.tool_calls.search for o in outputs) / n,
        "visits_per_question": sum(o.tool_calls.visit for o in outputs) / n,
        "searched_and_answered": answered / n,
        "terminations": dict(Counter(o.termination.value for o in outputs)),
        "gold_document_recall": gold_recall(instances, outputs),
        "gold_document_recall_top5": gold_recall(instances, outputs, 5),
        "restore_score_100": scores(instances, queries, outputs),
        "seconds_per_question": seconds / n,
        "prompt_tokens_per_question": sum(o.tokens.prompt for o in outputs) / n,
        "completion_tokens_per_question": sum(o.tokens.completion for o in outputs) / n,
    }


def run(searcher: Any, instances: list[Instance], queries: list[str]) -> tuple[list[SearchOutput], float]:
    start = time.perf_counter()
    outputs = searcher.search(queries, languages=[i.language for i in instances])
    return outputs, time.perf_counter() - start


def show(name: str, found: dict[str, Any]) -> None:
    judged = ", ".join(f"{j} {v:.1f}" if v is not None else f"{j} -" for j, v in found["restore_score_100"].items())
    valid = found["valid_action_rate"]
    print(f"{name}: {found['questions']} questions; valid actions {'-' if valid is None else f'{valid:.1%}'}; "
          f"searches/q {found['searches_per_question']:.2f}, visits/q {found['visits_per_question']:.2f}; "
          f"searched and answered {found['searched_and_answered']:.1%}; terminations {found['terminations']}; "
          f"gold-document recall {found['gold_document_recall']:.3f} (first five shown "
          f"{found['gold_document_recall_top5']:.3f}); restore_score_100 {judged}; "
          f"{found['seconds_per_question']:.1f} s/q, {found['prompt_tokens_per_question']:.0f} prompt + "
          f"{found['completion_tokens_per_question']:.0f} completion tokens/q")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="default")
    parser.add_argument("--split", choices=sorted(SLICES), default="heldout")
    parser.add_argument("--n", type=int, default=10, help="Instances (each gives a fused and a blurred query).")
    parser.add_argument("--preset", default=None, help="Take the react settings of this run preset (e.g. react-cpu).")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="A react setting.")
    parser.add_argument("--json", type=Path, default=None, help="Write the figures and the outputs here.")
    args = parser.parse_args()

    chosen = slice_of(args.split, args.n)
    instances = [i for i in chosen for _ in ("fused_query", "blurred_query")]
    queries = [getattr(i, field) for i in chosen for field in ("fused_query", "blurred_query")]
    settings = preset_settings(args.preset) if args.preset else {}
    settings.update({k: parsed(v) for k, v in (item.split("=", 1) for item in args.set)})
    tool = load_tool()
    print(f"slice: {args.split}, {len(chosen)} instances ({chosen[0].id} ... {chosen[-1].id}), "
          f"{len(queries)} queries (fused and blurred); react settings {settings or 'defaults'}")

    retrieved, seconds = run(load_searcher("retrieval", tool=tool), instances, queries)
    found = {"retrieval": figures(instances, queries, retrieved, seconds)}
    show("retrieval (BM25: 10 listed, the top 5 as passages)", found["retrieval"])

    from cts_dataset.models.registry import load_model

    model = load_model(args.model)
    agent = load_searcher({"kind": "react", "options": settings}, model=model, tool=tool)
    described = agent.describe()
    print(f"agent: {args.model} ({described['max_model_len']} tokens a request; step {described['step_tokens']}, "
          f"final answer {described['final_answer_tokens']}, cap {described['context_cap']})")
    outputs, seconds = run(agent, instances, queries)
    found["react"] = figures(instances, queries, outputs, seconds)
    show("react", found["react"])
    print("judges: lexical and embedding side by side; neither has a measured agreement with labels yet")
    if args.json:
        args.json.write_text(json.dumps({"settings": settings, "model": args.model, "split": args.split,
                                         "ids": [i.id for i in chosen], "figures": found,
                                         "react_outputs": [o.model_dump(mode="json") for o in outputs]},
                                        ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
