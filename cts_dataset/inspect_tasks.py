"""The inspect_ai bridge: ``inspect eval ctsbench/clarify_then_search --model MODEL`` plays the closed-book
protocol with the inspect model as the clarifier (the protocol's clarifier prompt and guards) and scores
restore_score_100 at the chosen budget; the other roles come from a protocol preset, as in
``ctsbench run``. Each sample writes an ordinary run folder, so ``ctsbench`` tools read it too.

Needs ``pip install "ctsbench[inspect]"``.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageUser, GenerateConfig, get_model
from inspect_ai.scorer import Score, Target, mean, scorer, stderr
from inspect_ai.solver import Generate, TaskState, solver

from cts_dataset.models.base import ChatRequest, ChatResponse, Usage, split_reasoning

# One protocol run at a time in this process: the shared local engines are not made for concurrent batches.
_RUN_LOCK = threading.Lock()


class InspectChatModel:
    """An inspect model behind the project's chat-model protocol (called from a worker thread)."""

    def __init__(self, model: Any, loop: asyncio.AbstractEventLoop) -> None:
        self.model, self.loop = model, loop
        self.spec = f"inspect:{model}"
        self.identity = {"backend": "inspect", "model": str(model), "config": str(getattr(model, "config", ""))}

    def complete(self, requests: Sequence[ChatRequest]) -> list[ChatResponse]:
        return [self._one(r) for r in requests]

    def _one(self, request: ChatRequest) -> ChatResponse:
        messages = [ChatMessageSystem(content=m.content) if m.role == "system" else ChatMessageUser(content=m.content)
                    for m in request.messages]
        config = generate_config(request)
        started = time.perf_counter()
        try:
            output = asyncio.run_coroutine_threadsafe(self.model.generate(messages, config=config), self.loop).result()
        except Exception as error:  # noqa: BLE001 - a failed request is recorded, the run goes on
            return ChatResponse.failure(f"{self.spec}: {type(error).__name__}: {error}", model=self.spec)
        text, reasoning = split_reasoning(output.completion or "")
        usage = output.usage
        return ChatResponse(text=text, reasoning=reasoning, model=self.spec, raw=output.completion or "",
                            finish_reason="length" if output.stop_reason == "max_tokens" else "stop",
                            usage=Usage(usage.input_tokens, usage.output_tokens) if usage else Usage(),
                            latency_s=time.perf_counter() - started)


def generate_config(request: ChatRequest) -> GenerateConfig:
    """The inspect settings of a request, as the project's backends read it: a sampled repeat draws with
    ``seed + sample_index``; template kwargs (Qwen3's enable_thinking) go in the body, only when set."""
    sampling = request.sampling
    seed = None if sampling.seed is None else sampling.seed + request.sample_index
    extra = {"chat_template_kwargs": dict(request.chat_template_kwargs)} if request.chat_template_kwargs else None
    return GenerateConfig(max_tokens=sampling.max_tokens, temperature=sampling.temperature, top_p=sampling.top_p,
                          stop_seqs=list(sampling.stop) or None, seed=seed, extra_body=extra)


@solver
def play_protocol(settings: dict[str, Any], out_dir: str) -> Any:
    """The protocol for one sample with the evaluated model as clarifier; the run's summary goes to metadata."""
    from cts_dataset.pipeline.config import load_config, slug
    from cts_dataset.pipeline.experiment import Experiment

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        model = get_model()
        chat = InspectChatModel(model, asyncio.get_running_loop())
        config = load_config(None, **settings, ids=[str(state.sample_id)],
                             out_dir=Path(out_dir) / slug(str(model)) / str(state.sample_id))

        def run() -> dict[str, Any]:
            with _RUN_LOCK:
                return Experiment(config, models={"clarifier": chat}, progress=False).run()

        summary = await asyncio.to_thread(run)
        state.metadata["ctsbench"] = {"run": summary["run"], "conditions": summary["conditions"]}
        rewrite = Path(summary["run"]) / "rewrite.jsonl"
        state.output.completion = rewrite.read_text(encoding="utf-8") if rewrite.exists() else ""
        return state

    return solve


@scorer(metrics=[mean(), stderr()])
def restore_score(budget: int) -> Any:
    """restore_score_100 of clarify@budget; baseline and oracle of the same sample in the metadata.

    A sample ctsbench leaves unscored (a judge that could not label it, an errored dialogue) is unscored
    here too, not 0: inspect's metrics skip it, so both tools report the same mean."""

    async def score(state: TaskState, target: Target) -> Score:
        conditions = state.metadata["ctsbench"]["conditions"]
        value = conditions[f"clarify@{budget}"]["restore_score_100"]["mean"]
        metadata = {name: entry["restore_score_100"]["mean"] for name, entry in conditions.items()}
        if value is None:
            return Score.unscored(reason="ctsbench left clarify@k unscored", metadata=metadata)
        return Score(value=value, metadata=metadata)

    return score


@task
def clarify_then_search(budget: int = 3, preset: str = "cpu-smoke", dataset: str = "demo", limit: int | None = None,
                        user_answerer: str | None = None, rewriter: str | None = None, judge: str | None = None,
                        out_dir: str = "runs/inspect") -> Task:
    """Clarify-Then-Search at budget k with the evaluated model as the clarifier."""
    from cts_dataset.pipeline import components
    from cts_dataset.pipeline.config import load_config

    settings = {k: v for k, v in {"preset": preset, "dataset": dataset, "budgets": [budget],
                                  "user_answerer": user_answerer, "rewriter": rewriter, "judge": judge}.items()
                if v is not None}
    instances = components.load_instances(load_config(None, **settings, limit=limit))
    samples = [Sample(id=i.id, input=i.blurred_query, metadata={"language": i.language}) for i in instances]
    return Task(dataset=samples, solver=play_protocol(settings, out_dir), scorer=restore_score(budget))
