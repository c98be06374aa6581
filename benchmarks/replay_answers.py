"""Every question a run asked, answered again by the installed user answerer, without a model.

    python benchmarks/replay_answers.py RUN_DIR > answers.jsonl             # a run folder (answer.jsonl)
    python benchmarks/replay_answers.py docs/track_report/report.html > answers.jsonl   # a report page

One JSON line per (instance, question) the answerer was asked, sorted: [instance, question, answer, rule,
replaced, unsupported, model requests]. Where no rule settles a question, the model's reply is the one
the run recorded for it (a run folder), else a pick of the first option offered (a report page, or a
question the run settled by a rule), so each line also holds the request the answerer would send.

Run this script against each version's package and diff the outputs (an older checkout's copy of it may
print other columns): ``PYTHONPATH=OLD_CHECKOUT python benchmarks/replay_answers.py RUN_DIR > old.jsonl``.
Identical files mean the newer answerer gives every recorded question the same answer and sends the same
request. Only the answerer is replayed:
a change to the clarifier's or the rewriter's guard needs a rerun. Runs in answer mode ``choose`` only
(the ``cpu-smoke`` preset), with the prompt version the run recorded (a report page: v3).
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
from cts_dataset.pipeline.turns import asked as asked_turn
from cts_dataset.protocol import answerer
from cts_dataset.protocol.roles import RoleSettings
from cts_dataset.protocol.views import AnswererView
from cts_dataset.text import CJK

_PAGE_DATA = re.compile(r'<script id="report-data" type="application/json">(.*?)</script>', re.DOTALL)
Asked = dict[tuple[str, str], tuple[AnswererView, str]]  # (instance, question) -> (view, recorded reply or "")


def asked_in_run(folder: Path) -> tuple[Asked, str]:
    """The questions a run folder's answerer was asked, with its views and recorded replies, and the prompt
    version it played."""
    config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    mode = ((config.get("identity") or {}).get("protocol") or {}).get("answer_mode")
    if mode != "choose":
        sys.exit(f"{folder / 'config.json'}: identity.protocol.answer_mode {mode!r}: only runs in answer mode "
                 "'choose' are replayed")
    instances = {i.id: i for i in load(config["config"]["dataset"])}
    asked: Asked = {}
    version = "v3"
    with (folder / "answer.jsonl").open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            try:
                record = json.loads(line)
                instance = instances[record["instance"]]
                question, raw = record["question"], record.get("raw") or ""
                version = record["prompt"].split("/")[1]  # "answerer/v3/en"
            except (json.JSONDecodeError, KeyError, IndexError, AttributeError) as error:
                sys.exit(f"{folder / 'answer.jsonl'}:{number}: {error!r}")
            if not re.fullmatch(r"v\d+", version):
                sys.exit(f"{folder / 'answer.jsonl'}:{number}: prompt {record['prompt']!r}: only the packaged "
                         "prompt versions (v1, v2, ...) are replayed")
            if question and asked_turn(record):  # an invalid or declined turn never reaches the answerer
                view = AnswererView(instance.fused_query, instance.language, question, instance.blurred_query)
                asked[(instance.id, question)] = (view, raw)
    return asked, version


def asked_in_report(page: Path) -> Asked:
    """The questions of every run a report page shows, with the intents and queries it holds."""
    found = _PAGE_DATA.search(page.read_text(encoding="utf-8"))
    if not found:
        sys.exit(f"{page}: no report data (a page written by `ctsbench report`?)")
    data = json.loads(found.group(1))
    asked: Asked = {}
    for row in data["rows"]:
        instance = data["instances"][row["instance"]]
        language = "zh" if re.search(rf"[{CJK}]", instance["intent"]) else "en"
        turns = zip(row.get("questions") or [], row.get("turn_status") or [], strict=False)
        for question, status in turns:  # a failed row has no questions; "invalid"/"declined" never reach it
            if question and status not in ("invalid", "declined"):
                view = AnswererView(instance["intent"], language, question, instance["blurred_query"])
                asked[(row["instance"], question)] = (view, "")
    return asked


def replay(asked: Asked, prompt_version: str = "v3") -> list[list]:
    """Each question answered by the installed answerer; the model's reply is the recorded one, else the
    first option offered. With the requests it sent."""
    requests: list[str] = []
    recorded = ""

    def reply(request: ChatRequest) -> str:
        requests.append(request.messages[-1].content)
        if recorded:
            return recorded
        listed = next((line for line in request.messages[-1].content.splitlines()
                       if line.startswith(("Options", "选项"))), "")
        options = re.findall(r'"([^"]+)"', listed)
        return json.dumps({"answer": options[0] if options else "unknown"}, ensure_ascii=False)

    model, settings = ScriptedModel(default=reply), RoleSettings(prompt_version=prompt_version)
    lines = []
    for key in sorted(asked):
        view, recorded = asked[key]
        requests.clear()
        [answer] = answerer.answer(model, [view], settings, mode="choose")
        lines.append([*key, answer.text, answer.decided_by, answer.replaced, list(answer.unsupported), list(requests)])
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", type=Path, help="a run folder, or a report page (report.html)")
    args = parser.parse_args(argv)
    if args.source.is_dir():
        asked, version = asked_in_run(args.source)
    elif args.source.is_file():
        asked, version = asked_in_report(args.source), "v3"
    else:
        sys.exit(f"{args.source}: no such run folder or report page")
    lines = replay(asked, version)
    for line in lines:
        print(json.dumps(line, ensure_ascii=False))
    print(f"{len(lines)} questions, {sum(1 for line in lines if line[3])} settled by the rules", file=sys.stderr)


if __name__ == "__main__":
    main()
