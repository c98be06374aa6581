"""The ``openai`` backend: any OpenAI-compatible server (``vllm serve``, Qianfan, OpenAI, ...).

A batch runs concurrently (at most ``max_concurrency`` requests in flight per server), spread round-robin
over several base URLs (one server per GPU); a failed attempt moves to the next URL. 429, 5xx, timeouts
and refused connections are retried with exponential backoff up to ``max_retries`` times. A request that
still fails (retries spent, or a 4xx that retrying cannot fix: context length, content filter) comes
back as a failure response naming the URL and status; only 401/403 (a wrong key) fail the whole batch.
:meth:`OpenAIModel.complete_iter` hands each response back as it finishes, so a caller can store it at
once. The API key is read from the environment variable the spec names and is never written anywhere.

The retry loop is written here rather than with tenacity or the SDK's ``max_retries``: each attempt moves
to the next server, and the loop is a dozen lines.
"""

from __future__ import annotations

import asyncio
import json
import os
import queue
import random
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import urlsplit

from cts_dataset.errors import CtsbenchError
from cts_dataset.models.base import (
    ChatRequest,
    ChatResponse,
    StructuredOutput,
    Usage,
    in_order,
    split_reasoning,
)
from cts_dataset.models.spec import LOCAL_HOSTS

INSTALL_HINT = 'the openai backend needs the openai SDK: pip install "ctsbench[openai]"'
RETRIED_STATUS = {408, 409, 425, 429, 500, 502, 503, 504}


class ModelCallError(CtsbenchError, RuntimeError):
    """A batch the server refuses as a whole (a missing or rejected API key)."""


class OpenAIModel:
    """``structured_output``: how a JSON schema is sent (``json_schema``: ``response_format`` with the
    schema; ``json_object``: JSON mode, the schema as text in the system message; ``none``: text only).
    ``max_model_len``: the server's context limit if given (else what a vLLM server's ``/v1/models`` says).
    ``served``: base URL -> the weights a vLLM server names as this model's ``root`` (see :meth:`query_servers`).
    """

    def __init__(self, model: str, *, base_urls: Sequence[str] = ("https://api.openai.com/v1",),
                 api_key_env: str | None = None, max_concurrency: int = 8, timeout_s: float = 120.0,
                 max_retries: int = 4, backoff_s: float = 1.0, max_backoff_s: float = 30.0,
                 structured_output: str = "json_schema", max_model_len: int | None = None,
                 spec: str | None = None) -> None:
        try:
            import openai
        except ImportError as error:
            raise ImportError(INSTALL_HINT) from error
        self._openai = openai
        self.model, self.base_urls = model, [u.rstrip("/") for u in base_urls]
        if not self.base_urls:
            raise ValueError("the openai backend needs at least one base URL")
        self.api_key_env, self.max_concurrency = api_key_env, max_concurrency
        self.timeout_s, self.max_retries = timeout_s, max_retries
        self.backoff_s, self.max_backoff_s = backoff_s, max_backoff_s
        self.structured_output = structured_output
        self.spec = spec or f"openai:{model}"
        self._api_key()  # fail now, not mid-run, when the variable is missing
        self._max_model_len, self._server_limit = max_model_len, None
        self.served: dict[str, str] = {}
        self._queried = False

    def query_servers(self) -> dict[str, str]:
        """Asks each server's ``/v1/models`` once (best effort, see :func:`_model_cards`): records the weights
        each vLLM server runs under this name (``served``) and its context limit. Called at every load, so
        a server restarted on other weights is seen by the next load."""
        cards = _model_cards(self.base_urls, self.model, self._api_key())
        self.served = {url: str(card["root"]) for url, card in cards.items() if card.get("root")}
        limits = [int(card["max_model_len"]) for card in cards.values() if card.get("max_model_len")]
        self._server_limit, self._queried = (min(limits) if limits else None), True
        return dict(self.served)

    @property
    def max_model_len(self) -> int | None:
        """The context limit: the spec's (``engine_args.max_model_len``), else the smallest a server reports."""
        if self._max_model_len is None and not self._queried:
            self.query_servers()
        return self._max_model_len or self._server_limit

    def _api_key(self) -> str:
        if not self.api_key_env:
            return "EMPTY"  # local servers (vllm serve) accept any key
        key = os.environ.get(self.api_key_env)
        if not key:
            raise ModelCallError(f"{self.spec}: set the environment variable {self.api_key_env} to the API key")
        return key

    def complete(self, requests: Sequence[ChatRequest]) -> list[ChatResponse]:
        """One response per request, in order (failed requests as failure responses)."""
        return in_order(self.complete_iter(requests), len(requests))

    def complete_iter(self, requests: Sequence[ChatRequest]) -> Iterator[tuple[int, ChatResponse]]:
        """``(index, response)`` for every request, as each finishes. A request that fails after its retries
        yields a failure response; a rejected key (401/403) raises :class:`ModelCallError` and stops the rest.

        The requests run on an event loop in a thread of their own (so this works inside a notebook's loop
        too); leaving the loop early cancels the requests still in flight."""
        requests = list(requests)
        if not requests:
            return
        finished: queue.SimpleQueue[Any] = queue.SimpleQueue()
        running: dict[str, Any] = {}

        async def batch() -> None:
            running["loop"], running["task"] = asyncio.get_running_loop(), asyncio.current_task()
            await self._complete_all(requests, finished.put)

        def target() -> None:
            try:
                asyncio.run(batch())
                finished.put(_DONE)
            except BaseException as error:  # noqa: BLE001 - re-raised in the caller's thread
                finished.put(_Raised(error))

        thread = threading.Thread(target=target, name=f"{self.spec} batch", daemon=True)
        thread.start()
        try:
            while (item := finished.get()) is not _DONE:
                if isinstance(item, _Raised):
                    raise item.error
                yield item
        finally:
            if thread.is_alive() and "task" in running:
                try:
                    running["loop"].call_soon_threadsafe(running["task"].cancel)
                except RuntimeError:  # the loop closed meanwhile
                    pass
            thread.join()

    async def _complete_all(self, requests: list[ChatRequest],
                            deliver: Callable[[tuple[int, ChatResponse]], None]) -> None:
        key = self._api_key()
        clients = [self._openai.AsyncOpenAI(base_url=url, api_key=key, timeout=self.timeout_s, max_retries=0)
                   for url in self.base_urls]
        limits = [asyncio.Semaphore(self.max_concurrency) for _ in clients]

        async def one(index: int, request: ChatRequest) -> None:
            deliver((index, await self._complete_one(request, index, clients, limits, key)))

        try:
            # A TaskGroup: the first 401/403 cancels every request still running.
            async with asyncio.TaskGroup() as group:
                for index, request in enumerate(requests):
                    group.create_task(one(index, request))
        except ExceptionGroup as failures:
            raise failures.exceptions[0] from None
        finally:
            await asyncio.gather(*(client.close() for client in clients), return_exceptions=True)

    async def _complete_one(self, request: ChatRequest, index: int, clients: list[Any],
                            limits: list[asyncio.Semaphore], key: str) -> ChatResponse:
        openai, failures = self._openai, []
        for attempt in range(self.max_retries + 1):
            server = (index + attempt) % len(clients)  # spread the batch, and retry elsewhere
            url = self.base_urls[server]
            try:
                async with limits[server]:
                    started = time.perf_counter()
                    completion = await clients[server].chat.completions.create(**self._arguments(request))
                    latency = time.perf_counter() - started
            except (openai.APITimeoutError, openai.APIConnectionError) as error:
                failures.append(f"{url}: {type(error).__name__}")
                retry_after = None
            except openai.APIStatusError as error:
                failures.append(f"{url}: HTTP {error.status_code}")
                if error.status_code in (401, 403):  # servers echo part of a wrong key: never repeat it
                    raise ModelCallError(f"{self.spec}: {url} answered HTTP {error.status_code}; check the key "
                                         f"in ${self.api_key_env or '(no api_key_env set)'}") from None
                if error.status_code not in RETRIED_STATUS:  # context length, content filter, bad request
                    message = error.message if key == "EMPTY" else error.message.replace(key, "***")
                    return self._failure(f"{url} answered HTTP {error.status_code}: {_short(message)}")
                retry_after = _retry_after(error)
            except openai.APIError as error:  # a reply the SDK cannot read
                return self._failure(f"{url}: {type(error).__name__}")
            else:
                try:
                    return self._response(completion, latency)
                except (AttributeError, IndexError, TypeError, ValueError) as error:  # e.g. no choices
                    return self._failure(f"{url}: unreadable reply ({type(error).__name__}: {error})")
            if attempt < self.max_retries:
                delay = min(self.max_backoff_s, self.backoff_s * 2 ** attempt) * (0.5 + random.random() / 2)
                await asyncio.sleep(min(self.max_backoff_s, retry_after) if retry_after is not None else delay)
        return self._failure(f"gave up after {self.max_retries + 1} attempts (timeout {self.timeout_s:g} s): "
                             f"{'; '.join(failures)}")

    def _failure(self, message: str) -> ChatResponse:
        return ChatResponse.failure(f"{self.spec}: {message}", model=self.spec)

    def _arguments(self, request: ChatRequest) -> dict[str, Any]:
        sampling = request.sampling
        structured = request.structured
        messages = request.message_dicts()
        if structured is not None and self.structured_output != "json_schema":
            messages = _with_format_note(messages, structured)  # the server cannot enforce it: say it
        arguments: dict[str, Any] = {"model": self.model, "messages": messages,
                                     "temperature": sampling.temperature, "top_p": sampling.top_p,
                                     "max_tokens": sampling.max_tokens}
        if sampling.stop:
            arguments["stop"] = list(sampling.stop)
        seed = request.sample_seed()
        if seed is not None:
            arguments["seed"] = seed
        extra: dict[str, Any] = {}
        if structured is not None and structured.json_schema is not None:
            if self.structured_output == "json_schema":
                arguments["response_format"] = {"type": "json_schema", "json_schema": {
                    "name": "output", "schema": structured.json_schema, "strict": True}}
            elif self.structured_output == "json_object":
                arguments["response_format"] = {"type": "json_object"}
        elif structured is not None and self.structured_output == "json_schema":
            # No OpenAI field for a choice list or a grammar; vLLM servers take them here (old guided_* names
            # are ignored), llama.cpp servers read a top-level "grammar".
            if structured.grammar is not None:
                extra["structured_outputs"] = {"grammar": structured.grammar}
                extra["grammar"] = structured.grammar
            else:
                extra["structured_outputs"] = {"choice": list(structured.choice or ())}
        if request.chat_template_kwargs:
            # Sent only when set: hosted APIs reject fields they do not know.
            extra["chat_template_kwargs"] = dict(request.chat_template_kwargs)
        if extra:
            arguments["extra_body"] = extra
        return arguments

    def _response(self, completion: Any, latency: float) -> ChatResponse:
        choice = completion.choices[0]
        content = choice.message.content or ""
        separate = getattr(choice.message, "reasoning_content", None) or getattr(choice.message, "reasoning", None)
        text, reasoning = split_reasoning(content)
        if separate:  # servers with a reasoning parser return the thoughts apart
            reasoning = (str(separate) + ("\n" + reasoning if reasoning else "")).strip()
        raw = f"<think>{separate}</think>{content}" if separate else content
        usage = completion.usage
        return ChatResponse(text=text, reasoning=reasoning, finish_reason=choice.finish_reason or "stop",
                            usage=Usage(usage.prompt_tokens, usage.completion_tokens) if usage else Usage(),
                            latency_s=latency, model=self.spec, raw=raw)


class _Raised:
    def __init__(self, error: BaseException) -> None:
        self.error = error


_DONE = object()


def _with_format_note(messages: list[dict[str, str]], structured: StructuredOutput) -> list[dict[str, str]]:
    """The messages with the output format stated in the system message (added first if there is none)."""
    if structured.json_schema is not None:
        note = ("Answer with one JSON object, and nothing else, that follows this JSON schema:\n"
                + json.dumps(structured.json_schema, ensure_ascii=False))
    elif structured.grammar is not None:
        note = "Write your reply in the format this GBNF grammar describes:\n" + structured.grammar
    else:
        note = "Answer with exactly one of these, and nothing else: " + " | ".join(structured.choice or ())
    if messages and messages[0]["role"] == "system":
        return [{"role": "system", "content": f"{messages[0]['content']}\n\n{note}"}, *messages[1:]]
    return [{"role": "system", "content": note}, *messages]


def _model_cards(urls: Sequence[str], model: str, key: str, timeout_s: float = 2.0) -> dict[str, dict[str, Any]]:
    """Best effort: URL -> the ``/v1/models`` entry for ``model`` on each plain-HTTP or local server (where
    vLLM runs; it names the weights as ``root`` and gives ``max_model_len``). Hosted HTTPS APIs are not
    asked; a server that does not answer in ``timeout_s`` is left out."""
    def card(url: str) -> dict[str, Any] | None:
        parts = urlsplit(url)
        if parts.scheme != "http" and parts.hostname not in LOCAL_HOSTS:
            return None
        request = urllib.request.Request(f"{url}/models", headers={"Authorization": f"Bearer {key}"})
        try:
            with urllib.request.urlopen(request, timeout=timeout_s) as answer:
                entries = json.loads(answer.read()).get("data") or []
        except (OSError, ValueError, AttributeError):
            return None
        return next((e for e in entries if isinstance(e, dict) and e.get("id") == model), None)

    with ThreadPoolExecutor(max_workers=min(8, len(urls))) as pool:
        found = dict(zip(urls, pool.map(card, urls), strict=True))
    return {url: entry for url, entry in found.items() if entry}


def _retry_after(error: Any) -> float | None:
    try:
        value = error.response.headers.get("retry-after")
        return float(value) if value is not None else None
    except (AttributeError, ValueError):
        return None


def _short(message: str, limit: int = 300) -> str:
    return message if len(message) <= limit else message[:limit] + "..."
