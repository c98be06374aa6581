"""The orchestrator: every stage gathers the pending work of all instances and conditions into one
batch per model call, writes its records as they finish, and skips what a previous run finished.

A run folder belongs to one run identity (:mod:`cts_dataset.pipeline.identity`): resuming it with
another model, prompt, searcher, judge or version is refused. A request that fails after retries is an
error record of its stage; the run goes on until more than ``max_errors`` have failed, and a rerun
retries only those. ``retry_unscored`` judges again the instances with unscored nuggets and keeps a new
judgement only when it is no worse (:func:`~cts_dataset.scoring.judging.replaces`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from cts_dataset.clarifiers.model import ModelClarifier
from cts_dataset.collector import collector_paused, collector_slowed
from cts_dataset.errors import CtsbenchError
from cts_dataset.models.base import Sampling, serves_one_at_a_time
from cts_dataset.pipeline import components
from cts_dataset.pipeline.config import ROLE_MAX_TOKENS, ROLES, RunConfig, default_out_dir
from cts_dataset.pipeline.dialogue import DialogueKey, dialogue_keys, history, play, turns_done
from cts_dataset.pipeline.identity import (
    check_identity,
    pick,
    protocol_identity,
    run_identity,
    stored_identity,
    write_config,
)
from cts_dataset.pipeline.progress import Progress, Recorder
from cts_dataset.pipeline.store import RunStore, record_key
from cts_dataset.protocol import answerer, guards, rewriter
from cts_dataset.protocol.prompts import LANGUAGES
from cts_dataset.protocol.roles import RoleSettings
from cts_dataset.protocol.views import RewriterView
from cts_dataset.records import Instance

# Requests per model batch and per durable write, unless the config sets ``batch_size``: a batch engine
# gains from many requests at once; an engine that serves one at a time gains nothing, so it writes often.
BATCH = 4096
ONE_AT_A_TIME_BATCH = 32


class TooManyErrors(CtsbenchError):
    """More requests failed than ``max_errors`` allows: the run stops, every record is kept."""


@dataclass(frozen=True)
class SearchJob:
    instance: Instance
    condition: str
    budget: int | None
    query: str
    repeat: int = 0

    @property
    def key(self) -> dict[str, Any]:
        return {"instance": self.instance.id, "condition": self.condition, "budget": self.budget,
                "repeat": self.repeat}


class Experiment:
    def __init__(self, config: RunConfig, models: dict[str, Any] | None = None, searcher: Any = None,
                 judge: Any = None, progress: bool = True, clarifier: Any = None) -> None:
        """``clarifier`` (a :class:`~cts_dataset.clarifiers.Clarifier`), ``models`` (role -> ChatModel; a
        clarifier model is asked with the protocol's clarifier prompt), ``searcher`` and ``judge`` may be
        given as objects; the rest is built from ``config``. The run folder defaults to
        ``runs/<clarifier that runs>__<preset>``."""
        from cts_dataset.clarifiers import load_clarifier
        from cts_dataset.clarifiers.base import clarifier_name
        from cts_dataset.clarifiers.loading import import_reference, options_digest

        self.config = config
        models = dict(models or {})
        if clarifier is None and "clarifier" in models and callable(getattr(models["clarifier"], "ask", None)):
            clarifier = models.pop("clarifier")
        # Python code named by the config: its import path and options are part of the run identity.
        self.clarifier_import: dict[str, Any] | None = None
        if clarifier is None and "clarifier" not in models:
            clarifier = load_clarifier(config.clarifier)  # a reference or import path; None for a model spec
            self.clarifier_import = import_reference(config.clarifier)
        if clarifier is not None:
            self.clarifier_label = clarifier_name(clarifier)
        elif "clarifier" in models:
            self.clarifier_label = models["clarifier"].spec
        else:
            self.clarifier_label = components.label_of(config.clarifier)
        folder_label = self.clarifier_label
        if self.clarifier_import and self.clarifier_import["options"]:  # each point of a sweep its own folder
            folder_label += "-" + options_digest(self.clarifier_import["options"])
        self.folder = Path(config.out_dir) if config.out_dir else default_out_dir(folder_label, config.preset)
        self.instances = components.load_instances(config)
        self.settings = {role: self._settings(role) for role in ROLES}
        self.prompt_ids = components.prompt_ids({role: config.prompt_for(role) for role in ROLES})
        if not callable(getattr(models.get("user_answerer"), "answer_views", None)):  # a person needs no prompt
            for language in LANGUAGES:
                answerer.check_prompt(self.prompt("user_answerer", language), config.answer_mode)
        # The cheap part of the identity first: refusing after minutes of engine start-up would waste them.
        self._stored = stored_identity(self.folder)
        check_identity(pick(self._stored, self.protocol_identity()), self.protocol_identity(), str(self.folder))
        trace = self.folder / "calls.jsonl"
        for role in ROLES:
            if role not in models and not (role == "clarifier" and clarifier is not None):
                models[role] = components.load_role_model(getattr(config, role), config, trace)
        self.models = models
        self.clarifier = clarifier if clarifier is not None else ModelClarifier(
            models["clarifier"], self.settings["clarifier"], reask=config.clarifier_reask)
        self.clarifier_label = clarifier_name(self.clarifier)  # the model that runs, as it names itself
        self.searcher = searcher if searcher is not None else components.build_searcher(config, trace)
        self.judge = judge if judge is not None else components.build_judge(config, trace)
        self.run_identity = self.compute_identity()
        check_identity(self._stored, self.run_identity, str(self.folder))
        self.progress = Progress(progress)
        for model in [*self.models.values(), getattr(self.searcher, "model", None), getattr(self.judge, "model", None)]:
            if hasattr(model, "on_response"):
                model.on_response = self.progress.answered
        self.errors_this_run = 0
        self.store: RunStore | None = None

    # -- settings and identity ----------------------------------------------------------------------
    def _settings(self, role: str) -> RoleSettings:
        chosen = self.config.generation.get(role)
        sampling = Sampling(max_tokens=ROLE_MAX_TOKENS[role])
        kwargs: dict[str, Any] = {}
        if chosen is not None:
            fields = {k: v for k, v in chosen.model_dump().items() if v is not None and k != "chat_template_kwargs"}
            if fields.get("temperature", 0) > 0:
                fields.setdefault("seed", 0)  # sampled roles are seeded: reruns draw the same samples
            sampling = replace(sampling, **fields)
            kwargs = dict(chosen.chat_template_kwargs)
        return RoleSettings(prompt_version=self.config.prompt_for(role), sampling=sampling, chat_template_kwargs=tuple(sorted(kwargs.items())))

    def role_settings(self, role: str, repeat: int = 0) -> RoleSettings:
        """A role's settings in a repeat: sampled roles draw another sample, greedy ones ask the same."""
        settings = self.settings[role]
        return replace(settings, sample_index=repeat) if repeat and settings.sampling.temperature > 0 else settings

    def prompt(self, role: str, language: str) -> Any:
        return self.settings[role].prompt(components.ROLE_PROMPTS[role], language)

    def protocol_identity(self) -> dict[str, Any]:
        """The part of the identity known before any model loads (:func:`.identity.protocol_identity`)."""
        return protocol_identity(self.config, self.settings, self.prompt_ids, self.clarifier_import)

    def compute_identity(self) -> dict[str, Any]:
        """The run identity as computed now (:func:`.identity.run_identity`); ``run_identity`` holds the
        one computed at construction, which the run folder is checked against."""
        role_models = {role: self.models.get(role) for role in ROLES}
        if not isinstance(self.clarifier, ModelClarifier):  # a Python clarifier: it names itself
            role_models["clarifier"] = self.clarifier
        return run_identity(self.protocol_identity(), role_models, self.clarifier, self.searcher, self.judge)

    # -- helpers the stages share -------------------------------------------------------------------
    def chunks(self, items: Sequence[Any], by_repeat: bool = False, model: Any = None) -> Iterator[Sequence[Any]]:
        """Batches of at most :meth:`batch_size` for ``model``; ``by_repeat``: one repeat per batch (its own
        sample index)."""
        groups: list[Sequence[Any]] = [items]
        if by_repeat and self.config.repeats > 1:
            groups = [[x for x in items if _repeat_of(x) == r] for r in range(self.config.repeats)]
        size = self.batch_size(model)
        for group in groups:
            for start in range(0, len(group), size):
                yield group[start:start + size]

    def batch_size(self, model: Any = None) -> int:
        """The configured ``batch_size``, else :data:`BATCH` or, for an engine that serves one request at a
        time, :data:`ONE_AT_A_TIME_BATCH`: stage records are written once per batch, and without the
        response cache (``--no-cache``) a kill loses the batch, which on such an engine buys no speed."""
        if self.config.batch_size is not None:
            return self.config.batch_size
        return ONE_AT_A_TIME_BATCH if serves_one_at_a_time(model) else BATCH

    def recorder(self, model: Any) -> Recorder:
        return Recorder(model)

    def write(self, stage: str, records: list[dict[str, Any]], replace_done: Any = False) -> None:
        """Append a stage's records (``replace_done``: see :meth:`StageFile.append`); stop the run once more
        than ``max_errors`` requests failed (a failed retry that is not written counts too)."""
        assert self.store is not None
        self.store[stage].append(records, replace_done=replace_done)
        failed = [r for r in records if r.get("error")]
        self.errors_this_run += len(failed)
        if failed and self.errors_this_run > self.config.max_errors:
            shown = "\n  ".join(f"{record_key(r)}: {str(r['error'])[:200]}" for r in failed[:5])
            raise TooManyErrors(f"{self.errors_this_run} requests failed in this run (more than --max-errors "
                                f"{self.config.max_errors}); the last ones ({stage}):\n  {shown}\nEvery finished "
                                f"record is kept in {self.folder}; fix the cause and rerun: only the failed "
                                "requests are sent again.")

    # -- stages -------------------------------------------------------------------------------------
    def dialogues(self) -> list[DialogueKey]:
        if "clarify" not in self.config.conditions:
            return []
        return dialogue_keys(self.instances, self.config.budgets, self.config.show_budget, self.config.repeats)

    def rewrite_stage(self, dialogues: Sequence[DialogueKey]) -> None:
        assert self.store is not None
        jobs = []
        for d in dialogues:
            for k in ([d.budget] if d.budget is not None else self.config.budgets):
                key = {"instance": d.instance.id, "condition": "clarify", "budget": k, "repeat": d.repeat}
                if record_key(key) not in self.store["rewrite"] and turns_done(self.store, d, k):
                    jobs.append((d, k, key))
        self.progress.start("rewrite", len(jobs))
        for chunk in self.chunks(jobs, by_repeat=True, model=self.models["rewriter"]):
            model = self.recorder(self.models["rewriter"])
            views = [RewriterView(d.instance.blurred_query, d.instance.language, history(self.store, d, k))
                     for d, k, _ in chunk]
            tags = [record_key(key) for *_, key in chunk]
            rewrites = rewriter.rewrite(model, views, self.role_settings("rewriter", chunk[0][0].repeat), tags,
                                        guard=self.config.rewriter_guard)
            records = []
            for (d, k, key), view, r, tag in zip(chunk, views, rewrites, tags, strict=True):
                request = model.requests.get(tag)
                dialogue = [text for qa in view.dialogue for text in (qa.question, qa.answer)]
                leaks = guards.audit(request, d.instance, dialogue, self.prompt("rewriter", d.instance.language),
                                     [str(n) for n in range(1, k + 1)]) if request is not None else []
                records.append({**key, "query": r.query, "fallback": r.fallback, "raw": r.raw, "error": r.error,
                                "empty_at_length": r.empty_at_length, "guarded": r.guarded,
                                "nothing_elicited": r.nothing_elicited, "leaks": leaks, "model": model.spec,
                                **self.prompt_ids["rewriter"][d.instance.language]})
            self.write("rewrite", records)
            self.progress("rewrite", len(chunk))

    def search_jobs(self) -> list[SearchJob]:
        assert self.store is not None
        jobs = []
        for instance in self.instances:
            if "baseline" in self.config.conditions:
                jobs.append(SearchJob(instance, "baseline", None, instance.blurred_query))
            if "clarify" in self.config.conditions:
                for repeat in range(self.config.repeats):
                    for k in self.config.budgets:
                        key = {"instance": instance.id, "condition": "clarify", "budget": k, "repeat": repeat}
                        rewrite = self.store["rewrite"].get(record_key(key))
                        if rewrite is not None:  # missing: an earlier request failed; a rerun retries it
                            jobs.append(SearchJob(instance, "clarify", k, rewrite["query"], repeat))
            if "oracle" in self.config.conditions:
                jobs.append(SearchJob(instance, "oracle", None, instance.fused_query))
        return jobs

    def search_stage(self, jobs: Sequence[SearchJob]) -> None:
        assert self.store is not None
        todo = [j for j in jobs if record_key(j.key) not in self.store["search"]]
        self.progress.start("search", len(todo), calls_per_record=getattr(self.searcher, "name", "") != "react")
        for chunk in self.chunks(todo, model=getattr(self.searcher, "model", None)):
            queries, tags = [j.query for j in chunk], [record_key(j.key) for j in chunk]
            if _takes_languages(self.searcher):  # the instance's language picks the agent's prompts
                outputs = self.searcher.search(queries, tags=tags, languages=[j.instance.language for j in chunk])
            else:
                outputs = self.searcher.search(queries, tags=tags)
            if len(outputs) != len(chunk):
                raise RuntimeError(f"searcher returned {len(outputs)} outputs for {len(chunk)} queries")
            records = []
            for job, output in zip(chunk, outputs, strict=True):
                record = {**job.key, **output.model_dump(mode="json")}
                termination = str(record.get("termination", ""))
                if termination == "error" and not record.get("error"):
                    record["error"] = "search failed"
                records.append(record)
            self.write("search", records)
            self.progress("search", len(chunk))

    def judge_stage(self, jobs: Sequence[SearchJob]) -> None:
        from cts_dataset.log import open_log
        from cts_dataset.scoring.judging import JudgeJob, judge_items, replaces

        assert self.store is not None
        judged = self.store["judge"]

        def pending(job: SearchJob) -> bool:
            if record_key(job.key) not in self.store["search"]:  # type: ignore[index]
                return False
            record = judged.get(record_key(job.key))
            return record is None or bool(self.config.retry_unscored and record.get("n_unscored"))

        todo = [j for j in jobs if pending(j)]
        calls = open_log(self.folder / "judge_calls.jsonl")
        self.progress.start("judge", len(todo))
        for chunk in self.chunks(todo, model=getattr(self.judge, "model", None)):
            items = [JudgeJob(id=record_key(j.key), query=j.instance.fused_query,
                              answer=self.store["search"].get(record_key(j.key))["answer"],
                              nuggets=tuple(n.text for n in j.instance.nuggets),
                              weights=tuple(n.weight for n in j.instance.nuggets)) for j in chunk]
            results = judge_items(self.judge, items, calls)  # a failed request: "error", unscored
            records = [{**job.key, **result} for job, result in zip(chunk, results, strict=True)]
            # A retry replaces a scored judgement only when it is no worse: a failed request loses nothing.
            self.write("judge", records, replace_done=replaces if self.config.retry_unscored else False)
            self.progress("judge", len(chunk))

    # -- the whole run ------------------------------------------------------------------------------
    def run(self) -> dict[str, Any]:
        with collector_slowed():  # the run's records would be rescanned by every older collection
            return self._run()

    def _run(self) -> dict[str, Any]:
        from cts_dataset.diagnostics import diagnose
        from cts_dataset.pipeline.summary import summarise, write_summary

        self.store = RunStore(self.folder)
        try:
            self.write_config()
            try:
                dialogues = self.dialogues()
                play(self, dialogues)
                self.rewrite_stage(dialogues)
                jobs = self.search_jobs()
                self.search_stage(jobs)
                self.judge_stage(jobs)
            finally:
                self.progress.close()
            with collector_paused():  # computed from the records alone: no model runs meanwhile
                summary = summarise(self, self.store)
                # The store holds what the stage files hold: the diagnostics need not read them back.
                records = {name: stage.records for name, stage in self.store.stages.items()}
                summary["diagnostics"] = diagnose(self.folder, self.instances, records=records)
            write_summary(self.folder, summary)
            return summary
        finally:
            self.store.close()
            self.store = None
            from cts_dataset.log import close_log

            close_log(self.folder / "judge_calls.jsonl")

    def write_config(self) -> None:
        """config.json (:func:`.identity.write_config`)."""
        models = {**self.models, "clarifier": self.models.get("clarifier", self.clarifier)}
        write_config(self.folder, self.config, self.run_identity, len(self.instances), models, self.prompt_ids,
                     labels={"clarifier": self.clarifier_label})


def _takes_languages(searcher: Any) -> bool:
    import inspect

    try:
        return "languages" in inspect.signature(searcher.search).parameters
    except (TypeError, ValueError):
        return False


def _repeat_of(item: Any) -> int:
    return item[0].repeat if isinstance(item, tuple) else item.repeat
