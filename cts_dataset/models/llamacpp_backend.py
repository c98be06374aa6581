"""The ``llamacpp`` backend: a GGUF file run by llama.cpp's own server, in process, through ``xllamacpp``.

``xllamacpp`` (MIT) is one prebuilt wheel with no Python dependencies (it links the system ``libgomp``).
Its server decodes ``n_parallel`` sequences at once (continuous batching), so a batch is sent as
concurrent requests from threads; JSON schemas and choice lists are enforced by llama.cpp's grammar
sampler. The server also opens an HTTP listener on 127.0.0.1; it is locked with a random API key that
only this object knows, and is used for tokenisation (``/apply-template``, ``/tokenize``) and ``/props``.
"""

from __future__ import annotations

import json
import os
import secrets
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from cts_dataset.models.base import ChatRequest, ChatResponse, Message, Usage, in_order, split_reasoning
from cts_dataset.models.llamacpp_saved_prefixes import SavedPrefixes

INSTALL_HINT = ('the llamacpp backend needs xllamacpp: pip install "ctsbench[cpu]" (xllamacpp==2026.10.11549), '
                'and the system libgomp (apt-get install libgomp1)')
_RANDOM_SEED = 0xFFFFFFFF  # llama.cpp's LLAMA_DEFAULT_SEED: "pick a random seed"
# Decoding threads of the deterministic setting: a fixed number, since llama.cpp's flash-attention
# decoding splits its sums by thread (measured: 1 and 2 threads differ); prompt threads change nothing.
DETERMINISTIC_DECODE_THREADS = 2
# How the deterministic setting reuses prompts (``prompt_reuse``). ``prefix`` (the default): each request
# starts from its own fixed prefix, the chat template up to the first non-system message's text (a role's
# instructions), computed the same way every time; the rest of the prompt is read in chunks of
# PREFIX_UBATCH from there. So the same request always takes the same path, whatever came before, and
# prompts are read in large chunks (measured: prompt chunks of different sizes, and a reused prefix that ends
# elsewhere, change the sums; benchmarks/bench_prompt_chunks.py). ``longest``: the earlier setting, which
# reuses the longest prefix any earlier prompt shares and reads the rest a token at a time (one path for
# every token, at decoding speed); its answers are cached apart.
PROMPT_REUSE = ("prefix", "longest")
PREFIX_UBATCH = 512
DETERMINISTIC_UBATCH = 1  # ``longest``
DETERMINISTIC_SLOT_SIMILARITY = 0.95  # ``longest``


class LlamaCppModel:
    """A chat model on a GGUF file, run on the CPU by llama.cpp.

    ``n_ctx`` is the whole KV cache, shared by ``n_parallel`` slots: each request gets
    ``max_model_len`` tokens (prompt and output), read back from the server (about ``n_ctx // n_parallel``).
    The deterministic setting serves one request at a time from one slot of ``n_ctx // n_parallel``
    tokens, so each request still gets that much.
    ``n_threads`` decode and ``n_threads_batch`` read prompts; both default to the cores this process may
    use (to a fixed number in the deterministic setting). llama.cpp busy-waits its threads: more than the
    free cores only slows it down, and with other heavy work on the same cores ``n_threads=1`` is far
    steadier. Other keyword arguments set ``xllamacpp.CommonParams`` fields.

    ``deterministic`` (the default): the same request gets the same bytes whatever else is asked, in any
    order, with any number of slots or prompt threads. Measured on this engine: sequences decoded
    together change the sums (a greedy answer in 10-20 differed), and so do prompt chunks of different
    sizes and reused prefixes that end elsewhere. So requests are served one at a time from one slot, with
    flash attention, by :data:`DETERMINISTIC_DECODE_THREADS` threads unless ``n_threads`` says otherwise,
    and each prompt is read the same way every time (``prompt_reuse``, see :data:`PROMPT_REUSE`). It holds
    for one llama.cpp build, whose CPU kernels the identity names (other SIMD widths sum in another order).
    ``deterministic=False`` decodes ``n_parallel`` requests at once.

    ``cache_ram_mib`` caps llama.cpp's prompt cache in RAM; the ``prefix`` setting turns it off, since the
    slot must hold exactly the prefix it was reset to. ``save_prefixes=False`` rereads each prefix rather
    than restoring its saved state (the same bytes, slower: for measuring what the saved states save).
    """

    def __init__(self, path: str | Path, *, n_ctx: int = 16384, n_parallel: int = 4, n_threads: int | None = None,
                 n_threads_batch: int | None = None, deterministic: bool = True, prompt_reuse: str = "prefix",
                 cache_ram_mib: int = 2048, save_prefixes: bool = True, verbosity: int = -1, spec: str | None = None,
                 **params: Any) -> None:
        try:
            import xllamacpp
        except ImportError as error:
            raise ImportError(INSTALL_HINT) from error
        path = Path(path).expanduser()
        if not path.is_file():
            raise FileNotFoundError(f"no GGUF file at {path}")
        if n_parallel < 1 or n_ctx < n_parallel:
            raise ValueError(f"{spec or path}: need n_parallel >= 1 and n_ctx >= n_parallel "
                             f"(got n_ctx={n_ctx}, n_parallel={n_parallel})")
        if prompt_reuse not in PROMPT_REUSE:
            raise ValueError(f"{spec or path}: prompt_reuse must be one of {', '.join(PROMPT_REUSE)}, "
                             f"not {prompt_reuse!r}")
        self.spec = spec or f"llamacpp:{path}"
        self.path, self.n_parallel, self.deterministic = path, n_parallel, deterministic
        self.from_prefix = deterministic and prompt_reuse == "prefix"
        self.one_at_a_time = deterministic  # the pipeline then writes its records in small batches
        self._slot_prefix: list[int] | None = None  # the prefix the slot holds, as last checked
        self._saved: SavedPrefixes | None = None  # the prefix states restored instead of read again
        self._slot_lock = threading.Lock()  # a reset and its request go together
        self.prefix_tokens_read = 0  # prompt tokens read to reset the slot (benchmarks count them)
        self.requests_sent = 0  # requests this engine has served (a cache in front of it sends fewer)
        options = xllamacpp.CommonParams()
        options.model.path = str(path)
        # One request at a time needs one slot: with more, the second request of a role went to an empty
        # slot and read the whole shared prompt again (measured: 3 of the main job's 93 calls, 38 s of 330).
        slots = 1 if deterministic else n_parallel
        options.n_ctx, options.n_parallel = n_ctx // n_parallel * slots, slots
        cores = len(os.sched_getaffinity(0))
        threads = n_threads or (DETERMINISTIC_DECODE_THREADS if deterministic else cores)
        options.cpuparams.n_threads = threads
        options.cpuparams_batch.n_threads = n_threads_batch or (threads if deterministic else cores)
        # Earlier prompts kept in RAM for reuse (llama.cpp's default is 8 GiB): ~11 MB a 400-token prompt
        # of the packaged model, so 2 GiB holds a 20-instance run's prompts of every role. The prefix
        # setting turns it off (below).
        options.cache_ram_mib = cache_ram_mib
        if deterministic:
            options.flash_attn_type = xllamacpp.llama_flash_attn_type.LLAMA_FLASH_ATTN_TYPE_ENABLED
        if self.from_prefix:
            # The slot must hold exactly the prefix it was reset to: no stored prompt may replace it, and
            # no saved state of a sliding-window or recurrent model may stand in for part of it.
            options.n_ubatch, options.cache_ram_mib = PREFIX_UBATCH, 0
            options.swa_full, options.n_ctx_checkpoints = True, 0
        elif deterministic:
            # Every token through one code path: a prompt read a token at a time sums like decoding,
            # wherever a reused prefix ends. Reuse then matters most, so a request takes the stored prompt
            # that shares the most with it (llama.cpp's prompt cache in RAM) unless the slot shares 95%.
            options.n_ubatch = DETERMINISTIC_UBATCH
            options.slot_prompt_similarity = DETERMINISTIC_SLOT_SIMILARITY
        if self.from_prefix and save_prefixes:
            self._saved = SavedPrefixes(self._http)
            options.slot_save_path, options.endpoint_slots = self._saved.save_path, True
        options.verbosity = verbosity  # -1: no per-request log lines; errors come back in the responses
        # Keep <think> blocks in the text: split_reasoning separates them as for every other backend.
        options.reasoning_format = xllamacpp.common_reasoning_format.COMMON_REASONING_FORMAT_NONE
        self._key = secrets.token_urlsafe(24)
        options.api_keys = [self._key]  # the HTTP listener answers only this object
        for name, value in params.items():
            if not hasattr(options, name):
                raise ValueError(f"unknown llama.cpp option {name!r} (an xllamacpp.CommonParams field)")
            setattr(options, name, value)
        self._server: Any = xllamacpp.Server(options)
        self.max_model_len: int = int(self._http("/props")["default_generation_settings"]["n_ctx"])
        self.determinism: dict[str, Any] = determinism_record(
            deterministic, decode_threads=threads, n_parallel=n_parallel, prompt_reuse=prompt_reuse,
            flash_attention=str(options.flash_attn_type.name).removeprefix("LLAMA_FLASH_ATTN_TYPE_").lower())

    def complete(self, requests: Sequence[ChatRequest]) -> list[ChatResponse]:
        """One response per request, in order (a request that fails comes back as a failure response)."""
        return in_order(self.complete_iter(requests), len(requests))

    def complete_iter(self, requests: Sequence[ChatRequest]) -> Iterator[tuple[int, ChatResponse]]:
        """``(index, response)`` for every request, as each finishes (so a cache can store them early).
        Leaving early cancels the requests that have not started."""
        if self._server is None:
            raise RuntimeError(f"{self.spec}: the model was closed")
        if not requests:
            return
        self.requests_sent += len(requests)
        # One thread per slot; the server batches whatever the slots hold at each decoding step. The
        # deterministic setting sends one at a time: a sequence decoded alone sums the same way every time.
        workers = 1 if self.deterministic else min(len(requests), self.n_parallel)
        with ThreadPoolExecutor(max_workers=workers) as pool:
            futures = {pool.submit(self._complete_one, r): i for i, r in enumerate(requests)}
            try:
                for future in as_completed(futures):
                    yield futures[future], future.result()
            finally:
                for future in futures:
                    future.cancel()

    def _complete_one(self, request: ChatRequest) -> ChatResponse:
        started = time.perf_counter()
        try:
            result = self.chat(request_body(request))
            choice = result["choices"][0]
            message = choice.get("message") or {}
            raw = message.get("content") or ""
            if message.get("reasoning_content"):  # in case a template's parser split it off anyway
                raw = f"<think>{message['reasoning_content']}</think>{raw}"
            usage = result.get("usage") or {}
        except Exception as error:  # noqa: BLE001 - one bad request must not lose the rest of the batch
            return ChatResponse.failure(f"{type(error).__name__}: {error}", model=self.spec)
        text, reasoning = split_reasoning(raw)
        return ChatResponse(
            text=text, reasoning=reasoning, finish_reason=choice.get("finish_reason") or "stop",
            usage=Usage(int(usage.get("prompt_tokens", 0)), int(usage.get("completion_tokens", 0)),
                        _timing(result, "cache_n")),
            latency_s=time.perf_counter() - started, model=self.spec, raw=raw)

    def chat(self, body: dict[str, Any]) -> dict[str, Any]:
        """llama.cpp's answer to one chat-completion ``body`` (raises on an error answer); in the ``prefix``
        setting the slot first goes back to the request's own prefix."""
        if self._server is None:
            raise RuntimeError(f"{self.spec}: the model was closed")
        if not self.from_prefix:
            return _answer(self._server.handle_chat_completions(body))
        with self._slot_lock:
            prefix = self._reset_to_prefix(body)
            try:
                answer = _answer(self._server.handle_chat_completions({**body, "cache_prompt": bool(prefix)}))
            except Exception:
                self._slot_prefix = None  # a failed request may have cleared the slot: reset it whole next time
                raise
            if _timing(answer, "cache_n") != len(prefix):  # it did not read from the prefix: do not trust the slot
                self._slot_prefix = None
            return answer

    def _reset_to_prefix(self, body: dict[str, Any]) -> list[int]:
        """Leave the slot holding exactly the request's prefix, always computed the same way: read whole
        from an empty slot, then its last token read again alone (llama.cpp rereads the last token of a
        prompt it holds entirely, so this step is the same whether or not the slot already held it). That
        state is saved to a file once and restored for later requests with the same prefix: the same
        bytes, without reading anything. The request then reads the rest of its prompt from there. Returns
        the prefix (empty: none; the prompt is then read whole)."""
        prefix = self._prefix_tokens(body)
        if not prefix:
            self._slot_prefix = None
            return prefix
        name = SavedPrefixes.name_of(prefix)
        warm, self._slot_prefix = prefix == self._slot_prefix, None  # unknown until the reset is seen to end well
        if self._saved is not None and name in self._saved:
            if self._saved.restore(name, len(prefix)):
                self._slot_prefix = prefix
                return prefix
            warm = False  # a failed restore leaves the slot empty
        if not (warm and self._reread_last_token(prefix)):  # the slot did not hold it: read it whole first
            self._read_prefix(prefix, cache_prompt=False)
            if not self._reread_last_token(prefix):
                raise RuntimeError(f"{self.spec}: could not reset the slot to the request's prefix "
                                   f"({len(prefix)} tokens); the request was not sent")
        self._slot_prefix = prefix
        if self._saved is not None:
            self._saved.save(name, len(prefix))
        return prefix

    def _reread_last_token(self, prefix: list[int]) -> bool:
        """Send the prefix to a slot that holds it: llama.cpp reads its last token again, alone (True), and
        drops what followed; False when it read anything else."""
        answer = self._read_prefix(prefix, cache_prompt=True)
        return _timing(answer, "prompt_n") == 1 and _timing(answer, "cache_n") == len(prefix) - 1

    def _read_prefix(self, prefix: list[int], cache_prompt: bool) -> dict[str, Any]:
        answer = _answer(self._server.handle_completions({"prompt": prefix, "n_predict": 0,
                                                          "cache_prompt": cache_prompt}))
        self.prefix_tokens_read += _timing(answer, "prompt_n")
        return answer

    def _prefix_tokens(self, body: dict[str, Any]) -> list[int]:
        """The tokens of the prompt up to the first non-system message's text: where rendering the same
        conversation with that text changed first parts from it (so it holds for any chat template)."""
        messages = body["messages"]
        first = next((i for i, m in enumerate(messages) if m["role"] != "system"), None)
        if first is None or not isinstance(messages[first].get("content"), str):
            return []
        marked = [dict(m) for m in messages]
        marked[first]["content"] = "\u0001" + marked[first]["content"]
        # The whole body: a template may write a response format or tools into the prompt.
        whole = self._http("/apply-template", body)["prompt"]
        other = self._http("/apply-template", {**body, "messages": marked})["prompt"]
        shared = len(os.path.commonprefix([whole, other]))
        tokens, prefix = self._prompt_tokens(whole), self._prompt_tokens(whole[:shared])
        # Keep only what the whole prompt's own tokens begin with, and leave it at least one token to read.
        agreed = len(os.path.commonprefix([tokens, prefix]))
        return tokens[:min(agreed, len(tokens) - 1)]

    def count_tokens(self, messages: str | Sequence[Message | dict[str, str]],
                     chat_template_kwargs: dict[str, Any] | None = None) -> int:
        """Tokens of a plain text, or of a conversation's whole prompt as the chat template renders it
        (with the generation prompt): what ``usage.prompt_tokens`` reports for it."""
        if isinstance(messages, str):
            return len(self._http("/tokenize", {"content": messages, "add_special": False})["tokens"])
        dicts = [m if isinstance(m, dict) else {"role": m.role, "content": m.content} for m in messages]
        body: dict[str, Any] = {"messages": dicts}
        if chat_template_kwargs:
            body["chat_template_kwargs"] = chat_template_kwargs
        return len(self._prompt_tokens(self._http("/apply-template", body)["prompt"]))

    def _prompt_tokens(self, prompt: str) -> list[int]:
        """A rendered prompt's tokens, as the server reads a chat prompt (special tokens parsed)."""
        return self._http("/tokenize", {"content": prompt, "add_special": True, "parse_special": True})["tokens"]

    def _http(self, route: str, body: dict[str, Any] | None = None) -> Any:
        if self._server is None:
            raise RuntimeError(f"{self.spec}: the model was closed")
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self._server.listening_address + route, data=data, headers={
            "Authorization": f"Bearer {self._key}", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return json.loads(answer.read())
        except urllib.error.HTTPError as error:  # the server's own message says what was wrong
            try:
                said = json.loads(error.read()).get("error", {})
            except ValueError:
                said = {}
            message = said.get("message", str(said)) if isinstance(said, dict) else str(said)
            raise RuntimeError(f"{route}: {message or error}") from error

    def close(self) -> None:
        """Stops the server and frees the weights, the KV cache and the saved prefixes (safe to call twice)."""
        with self._slot_lock:  # not while a reset is saving or restoring
            self._server = None
            if self._saved is not None:
                self._saved.close()


def _timing(answer: dict[str, Any], name: str) -> int:
    """A figure of llama.cpp's ``timings`` (``prompt_n``: tokens read; ``cache_n``: tokens reused)."""
    return int((answer.get("timings") or {}).get(name, 0))


def _answer(result: Any) -> dict[str, Any]:
    """A server answer as a dict; an error answer raises."""
    if isinstance(result, (str, bytes)):
        result = json.loads(result)
    if "error" in result:
        error = result["error"]
        raise RuntimeError(error.get("message", str(error)) if isinstance(error, dict) else str(error))
    return result


# The CPU kernels of the prebuilt x86-64 wheel (``xllamacpp.get_system_info()``), the reference build: its
# answers are cached under the engine setting alone. A build with other kernels (say, compiled for a CPU with
# AVX-512) sums in another order, so its engine setting names them and its answers are cached apart.
REFERENCE_KERNELS = "SSE3 SSSE3 AVX AVX2 F16C FMA BMI2 LLAMAFILE OPENMP REPACK"


def cpu_kernels() -> str | None:
    """The CPU kernels the installed llama.cpp build was compiled with (None without xllamacpp): the
    ``CPU`` part of ``xllamacpp.get_system_info()``, whatever other backends it lists."""
    try:
        import xllamacpp
    except ImportError:
        return None
    kernels, info = [], str(xllamacpp.get_system_info())
    if "CPU :" not in info:
        return None
    for part in info.split("CPU :", 1)[1].split("|"):
        if ":" in part:  # the next backend's part
            break
        name, _, value = part.partition("=")
        if value.strip() == "1":
            kernels.append(name.strip())
    return " ".join(kernels)


def determinism_record(deterministic: bool, *, decode_threads: int, n_parallel: int, prompt_reuse: str = "prefix",
                       flash_attention: str = "enabled") -> dict[str, Any]:
    """What this engine promises about the same request's bytes (the run identity records it); ``how`` is
    the engine setting in the model's identity, so answers of another setting or build are cached apart.
    A build with other CPU kernels than the prebuilt wheel's names them; the wheel's record is unchanged,
    so its run folders resume and its answers keep their cache keys."""
    import importlib.metadata

    try:
        build = f"xllamacpp {importlib.metadata.version('xllamacpp')}"
    except importlib.metadata.PackageNotFoundError:
        build = "xllamacpp"
    kernels = cpu_kernels()
    other_build = {"cpu_kernels": kernels} if kernels not in (None, REFERENCE_KERNELS) else {}
    if deterministic:
        how = (f"one request at a time, flash attention, each prompt read from its fixed prefix in "
               f"{PREFIX_UBATCH}-token chunks, {decode_threads} threads" if prompt_reuse == "prefix" else
               f"one request at a time, flash attention, one-token prompt chunks, {decode_threads} threads")
        if other_build:
            how += f", CPU kernels {kernels}"
        return {"batch_invariant": True, "engine": build, **other_build, "decode_threads": decode_threads,
                "how": how, "holds_for": "this llama.cpp build on one CPU instruction set"}
    return {"batch_invariant": False, "engine": build, **other_build, "decode_threads": decode_threads,
            "how": f"up to {n_parallel} requests decoded together (flash attention {flash_attention})",
            "why": "sequences decoded together change llama.cpp's sums: the same request can get other "
                   "bytes in another batch (engine_args deterministic: true serves one at a time)"}


def request_body(request: ChatRequest) -> dict[str, Any]:
    """The OpenAI-shaped body llama.cpp's chat endpoint takes for ``request``."""
    sampling = request.sampling
    body: dict[str, Any] = {
        "messages": request.message_dicts(), "max_tokens": sampling.max_tokens,
        "temperature": sampling.temperature, "top_p": sampling.top_p,
        # llama.cpp adds top_k=40 and min_p=0.05 by default; the other backends sample with top_p alone.
        "top_k": 0, "min_p": 0.0, "stream": False}
    if sampling.stop:
        body["stop"] = list(sampling.stop)
    seed = request.sample_seed(modulus=_RANDOM_SEED)  # never the "random seed" value itself
    if seed is not None:
        body["seed"] = seed
    if request.chat_template_kwargs:
        body["chat_template_kwargs"] = dict(request.chat_template_kwargs)
    structured = request.structured
    if structured is not None and structured.json_schema is not None:
        body["response_format"] = {"type": "json_schema",
                                   "json_schema": {"name": "output", "schema": structured.json_schema, "strict": True}}
    elif structured is not None and structured.grammar is not None:
        body["grammar"] = structured.grammar
    elif structured is not None:
        # A GBNF alternation of the choices as string literals (JSON escapes are GBNF escapes too).
        body["grammar"] = "root ::= " + " | ".join(json.dumps(c, ensure_ascii=False) for c in structured.choice or ())
    return body
