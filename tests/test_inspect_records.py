"""The inspect bridge reads requests and scores as ctsbench does: every sampling field reaches inspect's
generate config, and a sample ctsbench leaves unscored is unscored in inspect (not 0)."""

from __future__ import annotations

import asyncio
import math
import threading
from types import SimpleNamespace

from inspect_ai.model import ModelOutput
from inspect_ai.scorer import Target

from cts_dataset.inspect_tasks import InspectChatModel, restore_score
from cts_dataset.models.base import ChatRequest, Sampling


class RecordingModel:
    """An inspect-like model that keeps the config of every generate call."""

    def __init__(self) -> None:
        self.configs: list = []

    async def generate(self, messages, config):
        self.configs.append(config)
        return ModelOutput.from_content(model="recording", content="Which year do you mean?")


def test_sampling_fields_reach_inspects_generate_config():
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        model = RecordingModel()
        chat = InspectChatModel(model, loop)
        sampling = Sampling(temperature=0.7, top_p=0.9, max_tokens=64, stop=("\n\n",), seed=11)
        requests = [ChatRequest.of([{"role": "user", "content": "q"}], sampling=sampling, sample_index=index,
                                   chat_template_kwargs={"enable_thinking": False}) for index in (0, 2)]
        responses = chat.complete(requests)
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=5)
    assert [r.text for r in responses] == ["Which year do you mean?"] * 2
    first, third = model.configs
    assert (first.seed, third.seed) == (11, 13), "a sampled repeat draws with seed + sample_index"
    assert (first.top_p, first.stop_seqs, first.temperature, first.max_tokens) == (0.9, ["\n\n"], 0.7, 64)
    assert first.extra_body == {"chat_template_kwargs": {"enable_thinking": False}}


def _state(clarified: float | None) -> SimpleNamespace:
    means = {"baseline": 40.0, "clarify@1": clarified, "oracle": 80.0}
    return SimpleNamespace(metadata={"ctsbench": {"conditions": {
        name: {"restore_score_100": {"mean": value}} for name, value in means.items()}}})


def test_an_unscored_sample_stays_unscored_and_out_of_the_mean():
    score = restore_score(1)
    unscored = asyncio.run(score(_state(None), Target("")))
    scored = asyncio.run(score(_state(60.0), Target("")))
    assert math.isnan(unscored.value), "ctsbench left it unscored: inspect must not count it as 0"
    assert unscored.metadata == {"baseline": 40.0, "clarify@1": None, "oracle": 80.0}
    assert scored.value == 60.0  # NaN is inspect's unscored sentinel: its eval results leave it out of the metrics
