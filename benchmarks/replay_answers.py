"""Every question a run asked, answered again by the installed answerer's rules, without a model.

    python benchmarks/replay_answers.py RUN_DIR > answers.jsonl             # a run folder (answer.jsonl)
    python benchmarks/replay_answers.py docs/track_report/report.html > answers.jsonl   # a report page

One JSON line per (instance, question), sorted: [instance, question, answer, rule, model requests]. Where
no rule settles a question, a scripted model picks the first option it is offered, so the line also holds
the request the answerer would send. Run it in two checkouts (two guard versions) and diff the outputs:
identical files mean the newer rules give every recorded question the same answer and the same model
request, so a rerun would give the same dialogues. The answerer plays answer mode ``choose`` with the
``cpu-smoke`` prompt (v3).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from cts_dataset.data import load
from cts_dataset.models.base import ChatRequest
from cts_dataset.models.scripted import ScriptedModel
from cts_dataset.protocol import answerer
from cts_dataset.protocol.roles import RoleSettings
from cts_dataset.protocol.views import AnswererView

_PAGE_DATA = re.compile(r'<script id="report-data" type="application/json">(.*?)</script>', re.DOTALL)


def asked_in_run(folder: Path) -> dict[tuple[str, str], AnswererView]:
    """The questions of a run folder, with the views the answerer saw (from the run's dataset)."""
    dataset = json.loads((folder / "config.json").read_text(encoding="utf-8"))["config"]["dataset"]
    instances = {i.id: i for i in load(dataset)}
    views = {}
    with (folder / "answer.jsonl").open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            try:
                record = json.loads(line)
                instance = instances[record["instance"]]
            except (json.JSONDecodeError, KeyError) as error:
                sys.exit(f"{folder / 'answer.jsonl'}:{number}: {error!r}")
            views[(instance.id, record["question"])] = AnswererView(
                instance.fused_query, instance.language, record["question"], instance.blurred_query)
    return views


def asked_in_report(page: Path) -> dict[tuple[str, str], AnswererView]:
    """The questions of every run a report page shows, with the intents and queries it holds."""
    found = _PAGE_DATA.search(page.read_text(encoding="utf-8"))
    if not found:
        sys.exit(f"{page}: no report data (a page written by `ctsbench report`?)")
    data = json.loads(found.group(1))
    views = {}
    for row in data["rows"]:
        instance = data["instances"][row["instance"]]
        language = "zh" if re.search(r"[\u4e00-\u9fff]", instance["intent"]) else "en"
        for question in row["questions"]:
            views[(row["instance"], question)] = AnswererView(
                instance["intent"], language, question, instance["blurred_query"])
    return views


def replay(views: dict[tuple[str, str], AnswererView]) -> list[list]:
    """Each question answered by the rules, else by the first option offered; with the requests sent."""
    requests: list[str] = []

    def first_option(request: ChatRequest) -> str:
        requests.append(request.messages[-1].content)
        listed = next((line for line in request.messages[-1].content.splitlines()
                       if line.startswith(("Options", "选项"))), "")
        options = re.findall(r'"([^"]+)"', listed)
        return json.dumps({"answer": options[0] if options else "unknown"}, ensure_ascii=False)

    model, settings = ScriptedModel(default=first_option), RoleSettings(prompt_version="v3")
    lines = []
    for key in sorted(views):
        requests.clear()
        [answer] = answerer.answer(model, [views[key]], settings, mode="choose")
        lines.append([*key, answer.text, answer.decided_by, list(requests)])
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", type=Path, help="a run folder, or a report page (report.html)")
    args = parser.parse_args(argv)
    if args.source.is_dir():
        views = asked_in_run(args.source)
    elif args.source.is_file():
        views = asked_in_report(args.source)
    else:
        sys.exit(f"{args.source}: no such run folder or report page")
    lines = replay(views)
    for line in lines:
        print(json.dumps(line, ensure_ascii=False))
    print(f"{len(lines)} questions, {sum(1 for line in lines if line[3])} settled by the rules", file=sys.stderr)


if __name__ == "__main__":
    main()
