"""The ``openai`` backend: any OpenAI-compatible server (``vllm serve``, Qianfan, OpenAI, ...).

A batch runs concurrently (at most ``max_concurrency`` requests in flight per server), spread round-robin
over several base URLs (one server per GPU); a failed attempt moves to the next URL. 429, 5xx, timeouts
and refused connections are retried with exponential backoff up to ``max_retries`` times; then the call
fails with a message naming the URL. The API key is read from the environment variable the spec names
and is never written anywhere.
"""

from __future__ import annotations

import asyncio
import os
import random
import threading
import time
from collections.abc import Sequence
from typing import Any

from cts_dataset.errors import CtsbenchError
from cts_dataset.models.base import ChatRequest, ChatResponse, Usage, split_reasoning

INSTALL_HINT = 'the openai backend needs the openai SDK: pip install "ctsbench[openai]"'
RETRIED_STATUS = {408, 409, 425, 429, 500, 502, 503, 504}


class ModelCallError(CtsbenchError, RuntimeError):
    """A request that still failed after the configured retries (or failed in a way retries cannot fix)."""


class OpenAIModel:
    def __init__(self, model: str, *, base_urls: Sequence[str] = ("https://api.openai.com/v1",),
                 api_key_env: str | None = None, max_concurrency: int = 8, timeout_s: float = 120.0,
                 max_retries: int = 4, backoff_s: float = 1.0, max_backoff_s: float = 30.0,
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
        self.spec = spec or f"openai:{model}"
        self._api_key()  # fail now, not mid-run, when the variable is missing

    def _api_key(self) -> str:
        if not self.api_key_env:
            return "EMPTY"  # local servers (vllm serve) accept any key
        key = os.environ.get(self.api_key_env)
        if not key:
            raise ModelCallError(f"{self.spec}: set the environment variable {self.api_key_env} to the API key")
        return key

    def complete(self, requests: Sequence[ChatRequest]) -> list[ChatResponse]:
        if not requests:
            return []
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.run(self._complete_all(list(requests)))
        # Called from inside an event loop (a notebook): run the batch on a thread with its own loop.
        result: list[list[ChatResponse]] = []
        errors: list[BaseException] = []

        def target() -> None:
            try:
                result.append(asyncio.run(self._complete_all(list(requests))))
            except BaseException as error:  # noqa: BLE001 - re-raised in the caller's thread
                errors.append(error)

        thread = threading.Thread(target=target)
        thread.start()
        thread.join()
        if errors:
            raise errors[0]
        return result[0]

    async def _complete_all(self, requests: list[ChatRequest]) -> list[ChatResponse]:
        key = self._api_key()
        clients = [self._openai.AsyncOpenAI(base_url=url, api_key=key, timeout=self.timeout_s, max_retries=0)
                   for url in self.base_urls]
        limits = [asyncio.Semaphore(self.max_concurrency) for _ in clients]
        try:
            tasks = [self._complete_one(request, i, clients, limits) for i, request in enumerate(requests)]
            return list(await asyncio.gather(*tasks))
        finally:
            await asyncio.gather(*(client.close() for client in clients), return_exceptions=True)

    async def _complete_one(self, request: ChatRequest, index: int, clients: list[Any],
                            limits: list[asyncio.Semaphore]) -> ChatResponse:
        openai, failures = self._openai, []
        for attempt in range(self.max_retries + 1):
            server = (index + attempt) % len(clients)  # spread the batch, and retry elsewhere
            url = self.base_urls[server]
            try:
                async with limits[server]:
                    started = time.perf_counter()
                    completion = await clients[server].chat.completions.create(**self._arguments(request))
                    return self._response(completion, time.perf_counter() - started)
            except (openai.APITimeoutError, openai.APIConnectionError) as error:
                failures.append(f"{url}: {type(error).__name__}")
                retry_after = None
            except openai.APIStatusError as error:
                failures.append(f"{url}: HTTP {error.status_code}")
                if error.status_code in (401, 403):  # servers echo part of a wrong key: never repeat it
                    raise ModelCallError(f"{self.spec}: {url} answered HTTP {error.status_code}; check the key "
                                         f"in ${self.api_key_env or '(no api_key_env set)'}") from None
                if error.status_code not in RETRIED_STATUS:
                    raise ModelCallError(f"{self.spec}: {url} answered HTTP {error.status_code}: "
                                         f"{_short(error.message)}") from error
                retry_after = _retry_after(error)
            if attempt < self.max_retries:
                delay = min(self.max_backoff_s, self.backoff_s * 2 ** attempt) * (0.5 + random.random() / 2)
                await asyncio.sleep(min(self.max_backoff_s, retry_after) if retry_after is not None else delay)
        raise ModelCallError(f"{self.spec}: gave up after {self.max_retries + 1} attempts "
                             f"(timeout {self.timeout_s:g} s): {'; '.join(failures)}")

    def _arguments(self, request: ChatRequest) -> dict[str, Any]:
        sampling = request.sampling
        arguments: dict[str, Any] = {"model": self.model, "messages": request.message_dicts(),
                                     "temperature": sampling.temperature, "top_p": sampling.top_p,
                                     "max_tokens": sampling.max_tokens}
        if sampling.stop:
            arguments["stop"] = list(sampling.stop)
        if sampling.seed is not None:
            arguments["seed"] = sampling.seed + request.sample_index
        extra: dict[str, Any] = {}
        structured = request.structured
        if structured is not None and structured.json_schema is not None:
            arguments["response_format"] = {"type": "json_schema", "json_schema": {
                "name": "output", "schema": structured.json_schema, "strict": True}}
        elif structured is not None:
            # No OpenAI field for a choice list; vLLM servers take it here (old guided_* names are ignored).
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


def _retry_after(error: Any) -> float | None:
    try:
        value = error.response.headers.get("retry-after")
        return float(value) if value is not None else None
    except (AttributeError, ValueError):
        return None


def _short(message: str, limit: int = 300) -> str:
    return message if len(message) <= limit else message[:limit] + "..."
