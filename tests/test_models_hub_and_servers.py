"""What names a model's weights must not depend on chance: which of several servers answered a 2 s probe,
how many servers there are, or which executor built the backend.

Real HTTP servers on loopback (the fake OpenAI server, a socket that never answers, a closed port); a
hub cache in a temporary folder with a stand-in for vLLM's download, so no weights are loaded."""

from __future__ import annotations

import importlib.util
import socket
from pathlib import Path
from types import SimpleNamespace

import pytest

from cts_dataset.errors import CtsbenchError
from cts_dataset.models import backends
from cts_dataset.models.base import ChatRequest
from cts_dataset.models.cache import ResponseCache
from cts_dataset.models.registry import load_model
from cts_dataset.models.scripted import ScriptedModel
from tests.fake_openai_server import FakeOpenAIServer

ROOTS = {"test-model": "/ckpt/step-1000"}
DOWN = "http://127.0.0.1:9/v1"  # nothing listens on the discard port: connection refused


def ask(text: str) -> ChatRequest:
    return ChatRequest.of([{"role": "user", "content": text}])


def served(cache: Path, urls: list[str]):
    spec = {"backend": "openai", "model": "test-model", "base_urls": urls, "max_retries": 3, "timeout_s": 5}
    return load_model(spec, cache=ResponseCache(cache))


@pytest.fixture
def silent():
    """A server that accepts connections and never answers (a server busy or hung at load)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    yield f"http://127.0.0.1:{listener.getsockname()[1]}/v1"
    listener.close()


# -- served models: a probe, not a key ----------------------------------------------------------------------
def test_a_slow_down_or_extra_server_of_the_same_weights_keeps_the_identity_and_the_cache(tmp_path, silent):
    cache = tmp_path / "cache.sqlite"
    with FakeOpenAIServer(roots=ROOTS) as one, FakeOpenAIServer(roots=ROOTS) as two, \
            FakeOpenAIServer(roots=ROOTS) as three:
        first = served(cache, [one.url, two.url])
        assert "/ckpt/step-1000" in str(first.identity["served"])
        first.complete([ask("q")])
        for urls in ([one.url, DOWN], [three.url, two.url, one.url], [two.url]):
            again = served(cache, urls)
            assert again.identity == first.identity, urls
            assert again.complete([ask("q")])[0].cached, urls
        assert served(cache, [silent, one.url]).identity == first.identity
        assert len(one.bodies) + len(two.bodies) + len(three.bodies) == 1, "every later answer came from the cache"


def test_servers_that_serve_other_weights_under_one_name_refuse_to_start(tmp_path):
    with FakeOpenAIServer(roots=ROOTS) as one, FakeOpenAIServer(roots={"test-model": "/ckpt/step-2000"}) as two:
        with pytest.raises(CtsbenchError, match="step-1000.*step-2000|step-2000.*step-1000") as refused:
            served(tmp_path / "cache.sqlite", [one.url, two.url])
        assert one.url in str(refused.value) and two.url in str(refused.value)
        assert one.bodies == two.bodies == [], "nothing was asked"


# -- hub models: one identity under both executors ------------------------------------------------------
REPO = "org/unpinned-model"
UPSTREAM = "0123456789abcdef0123456789abcdef01234567"
CACHED = "89abcdef0123456789abcdef0123456789abcdef"


@pytest.fixture
def hub(tmp_path, monkeypatch):
    """A hub cache of its own and a vllm factory that, as vLLM does, downloads ``main`` on first load.
    Returns the specs the local backend was built from."""
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.setattr(backends, "_BACKENDS", {})
    refs = tmp_path / "hub" / f"models--{REPO.replace('/', '--')}" / "refs"
    built = []

    def vllm(spec):
        if not (refs / "main").exists():
            refs.mkdir(parents=True, exist_ok=True)
            (refs / "main").write_text(UPSTREAM)
        built.append(spec)
        return ScriptedModel(default="ok", spec=spec.label)

    monkeypatch.setitem(backends._FACTORIES, "vllm", vllm)
    # The Ray backend is built on the driver without the cluster: only its installed package is checked.
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *args: SimpleNamespace() if name == "ray" else real(name, *args))
    return SimpleNamespace(refs=refs, built=built, constants=constants)


def test_an_unpinned_hub_model_gets_the_same_identity_on_ray_as_locally_online(hub, monkeypatch):
    from huggingface_hub import HfApi

    monkeypatch.setattr(hub.constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setattr(HfApi, "model_info", lambda self, repo_id, **kwargs: SimpleNamespace(sha=UPSTREAM))
    on_ray = load_model(f"vllm:{REPO}", executor="ray", cache=False)  # the driver never downloads it
    here = load_model(f"vllm:{REPO}", executor="local", cache=False)
    assert on_ray.identity == here.identity and here.identity["files"] == UPSTREAM
    # Both load the commit the identity names, not whatever main is on a worker.
    assert on_ray.backend.model_spec.revision == UPSTREAM and hub.built[-1].revision == UPSTREAM


def test_offline_both_executors_take_the_commit_in_the_drivers_cache(hub, monkeypatch):
    from huggingface_hub import HfApi

    def no_network(self, repo_id, **kwargs):
        raise OSError("no network")

    monkeypatch.setattr(HfApi, "model_info", no_network)
    hub.refs.mkdir(parents=True)
    (hub.refs / "main").write_text(CACHED)
    for offline in (True, False):  # offline, and online with the hub unreachable
        monkeypatch.setattr(hub.constants, "HF_HUB_OFFLINE", offline)
        on_ray = load_model(f"vllm:{REPO}", executor="ray", cache=False)
        here = load_model(f"vllm:{REPO}", executor="local", cache=False)
        assert on_ray.identity == here.identity and here.identity["files"] == CACHED
        assert on_ray.backend.model_spec.revision == CACHED and hub.built[-1].revision == CACHED
    pinned = load_model(f"vllm:{REPO}", executor="ray", cache=False, revision=UPSTREAM)
    assert pinned.identity["files"] == UPSTREAM, "a commit the spec names is used as it is"
