"""The orchestrator: every stage gathers the pending work of all instances and conditions into one
batch per model call, writes its records as they finish, and skips what a previous run finished."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cts_dataset.models.base import Sampling
from cts_dataset.pipeline import components
from cts_dataset.pipeline.config import RunConfig
from cts_dataset.pipeline.dialogue import DialogueKey, dialogue_keys, history, play
from cts_dataset.pipeline.store import RunStore, record_key
from cts_dataset.protocol import rewriter
from cts_dataset.protocol.roles import RoleSettings
from cts_dataset.protocol.views import RewriterView
from cts_dataset.records import Instance

# Generation caps per role (thinking is off by default): a question, a short answer, a query.
ROLE_MAX_TOKENS = {"clarifier": 64, "user_answerer": 48, "rewriter": 96}
BATCH: int | None = None  # tests may force a small batch; otherwise config.batch_size


@dataclass(frozen=True)
class SearchJob:
    instance: Instance
    condition: str
    budget: int | None
    query: str

    @property
    def key(self) -> dict[str, Any]:
        return {"instance": self.instance.id, "condition": self.condition, "budget": self.budget}


class Progress:
    """One tqdm bar per stage on stderr; a stage's bar closes when the next stage starts."""

    def __init__(self, enabled: bool = True) -> None:
        self.enabled = enabled
        self.stage: str | None = None
        self.bar: Any = None

    def start(self, stage: str, total: int) -> None:
        self.close()
        if self.enabled and total:
            from tqdm import tqdm

            self.stage = stage
            self.bar = tqdm(total=total, desc=stage, file=sys.stderr, leave=True, dynamic_ncols=True)

    def __call__(self, stage: str, done: int) -> None:
        if self.bar is not None and stage == self.stage:
            self.bar.update(done)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        self.bar, self.stage = None, None


class Experiment:
    def __init__(self, config: RunConfig, models: dict[str, Any] | None = None, searcher: Any = None,
                 judge: Any = None, progress: bool = True) -> None:
        """``models`` (role -> ChatModel), ``searcher`` and ``judge`` may be given (tests); else built from config."""
        self.config = config
        self.folder = Path(config.out_dir)
        self.instances = components.load_instances(config)
        self.check_folder()  # before any model loads: refusing late would waste minutes of engine start-up
        self.store = RunStore(self.folder)
        trace = self.folder / "calls.jsonl"
        models = dict(models or {})
        for role in ("clarifier", "user_answerer", "rewriter"):
            if role not in models:
                models[role] = components.load_role_model(getattr(config, role), config, trace)
        self.models = models
        self.searcher = searcher if searcher is not None else components.build_searcher(config, trace)
        self.judge = judge if judge is not None else components.build_judge(config, self.folder / "judge_calls.jsonl")
        self.settings = {role: RoleSettings(prompt_version=config.prompt_version, sampling=Sampling(max_tokens=ROLE_MAX_TOKENS[role]))
                         for role in ROLE_MAX_TOKENS}
        self.prompt_ids = components.prompt_ids(config.prompt_version)
        self.progress = Progress(progress)
        self.batch = BATCH or config.batch_size

    # -- stages -------------------------------------------------------------------------------------
    def dialogues(self) -> list[DialogueKey]:
        if "clarify" not in self.config.conditions:
            return []
        return dialogue_keys(self.instances, self.config.budgets, self.config.show_budget)

    def rewrite_stage(self, dialogues: Sequence[DialogueKey]) -> None:
        jobs = []
        for d in dialogues:
            budgets = [d.budget] if d.budget is not None else self.config.budgets
            for k in budgets:
                key = {"instance": d.instance.id, "condition": "clarify", "budget": k}
                if record_key(key) not in self.store["rewrite"]:
                    jobs.append((d, k, key))
        self.progress.start("rewrite", len(jobs))
        for start in range(0, len(jobs), self.batch):
            chunk = jobs[start:start + self.batch]
            views = [RewriterView(d.instance.blurred_query, d.instance.language, history(self.store, d, k)) for d, k, _ in chunk]
            model = self.models["rewriter"]
            rewrites = rewriter.rewrite(model, views, self.settings["rewriter"], [str(key) for *_, key in chunk])
            self.store["rewrite"].append(
                {**key, "query": r.query, "fallback": r.fallback, "raw": r.raw, "model": model.spec,
                 **self.prompt_ids["rewriter"][d.instance.language]} for (d, _, key), r in zip(chunk, rewrites))
            self.progress("rewrite", len(chunk))

    def search_jobs(self) -> list[SearchJob]:
        jobs = []
        for instance in self.instances:
            if "baseline" in self.config.conditions:
                jobs.append(SearchJob(instance, "baseline", None, instance.blurred_query))
            if "clarify" in self.config.conditions:
                for k in self.config.budgets:
                    rewrite = self.store["rewrite"].get(record_key({"instance": instance.id, "condition": "clarify", "budget": k}))
                    jobs.append(SearchJob(instance, "clarify", k, rewrite["query"]))
            if "oracle" in self.config.conditions:
                jobs.append(SearchJob(instance, "oracle", None, instance.fused_query))
        return jobs

    def search_stage(self, jobs: Sequence[SearchJob]) -> None:
        todo = [j for j in jobs if record_key(j.key) not in self.store["search"]]
        self.progress.start("search", len(todo))
        for start in range(0, len(todo), self.batch):
            chunk = todo[start:start + self.batch]
            outputs = self.searcher.search([j.query for j in chunk], tags=[record_key(j.key) for j in chunk])
            self.store["search"].append({**j.key, **o.model_dump(mode="json")} for j, o in zip(chunk, outputs))
            self.progress("search", len(chunk))

    def judge_stage(self, jobs: Sequence[SearchJob]) -> None:
        from cts_dataset.judges.base import JudgeItem
        from cts_dataset.scoring.restore import score_instance

        todo = [j for j in jobs if record_key(j.key) not in self.store["judge"]]
        self.progress.start("judge", len(todo))
        for start in range(0, len(todo), self.batch):
            chunk = todo[start:start + self.batch]
            items = [JudgeItem(answer=self.store["search"].get(record_key(j.key))["answer"],
                               nuggets=tuple(n.text for n in j.instance.nuggets), query=j.instance.fused_query,
                               id=record_key(j.key)) for j in chunk]
            judgements = self.judge.judge(items)
            records = []
            for job, judgement in zip(chunk, judgements):
                labels = list(judgement.labels)
                score = score_instance([n.weight for n in job.instance.nuggets], judgement.labels)
                records.append({**job.key, "labels": labels, "raw": judgement.raw, "evidence": judgement.evidence,
                                "judge": _judge_name(self.judge), **score.as_dict()})
            self.store["judge"].append(records)
            self.progress("judge", len(chunk))

    # -- the whole run ------------------------------------------------------------------------------
    def run(self) -> dict[str, Any]:
        from cts_dataset.pipeline.summary import summarise, write_summary

        self.write_config()
        try:
            dialogues = self.dialogues()
            play(self.store, dialogues, self.models["clarifier"], self.models["user_answerer"], self.settings,
                 self.prompt_ids, self.batch, self.progress)
            self.rewrite_stage(dialogues)
            jobs = self.search_jobs()
            self.search_stage(jobs)
            self.judge_stage(jobs)
        finally:
            self.progress.close()
        summary = summarise(self.config, self.instances, self.store)
        write_summary(self.folder, summary)
        return summary

    def check_folder(self) -> None:
        """Refuse a run folder that holds a run of another config or dataset (its records would mix)."""
        path = self.folder / "config.json"
        if not path.exists():
            return
        previous = json.loads(path.read_text())
        current = json.loads(self.config.model_dump_json())
        if _comparable(previous.get("config", {})) != _comparable(current) or \
                previous.get("dataset_revision") != components.dataset_revision(self.config):
            raise ValueError(f"{path}: this folder holds a run with another config or dataset; "
                             "choose another --out-dir (or delete the folder to start over)")

    def write_config(self) -> None:
        from cts_dataset import __version__

        config = json.loads(self.config.model_dump_json())
        path = self.folder / "config.json"
        resolved = {
            "config": config,
            "ctsbench_version": __version__,
            "dataset_revision": components.dataset_revision(self.config),
            "instances": len(self.instances),
            "models": {role: _model_description(model) for role, model in self.models.items()},
            "searcher": getattr(self.searcher, "describe", lambda: type(self.searcher).__name__)(),
            "judge": _judge_name(self.judge),
            "prompts": self.prompt_ids,
        }
        path.write_text(json.dumps(resolved, indent=2, ensure_ascii=False, default=str) + "\n")


def _model_description(model: Any) -> dict[str, Any]:
    spec = getattr(model, "spec", str(model))
    resolved = getattr(model, "model_spec", None)
    description = {"spec": spec}
    if resolved is not None and hasattr(resolved, "to_dict"):
        description["resolved"] = resolved.to_dict()
    return description


def _judge_name(judge: Any) -> str:
    return getattr(judge, "spec", None) or getattr(judge, "name", None) or type(judge).__name__


def _comparable(config: dict[str, Any]) -> dict[str, Any]:
    """The config without settings that change how a run goes, not what it computes."""
    return {k: v for k, v in config.items() if k not in ("cache", "batch_size")}
