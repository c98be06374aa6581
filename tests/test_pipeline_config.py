import json

import pytest
from pydantic import ValidationError

from cts_dataset.pipeline.components import share_gpu
from cts_dataset.pipeline.config import ConfigError, load_config


def test_presets_fill_the_roles_and_flags_override_yaml(tmp_path):
    path = tmp_path / "run.yaml"
    path.write_text("clarifier: openai:gpt-4.1\nbudgets: [3, 1]\njudge: embedding\nlimit: 5\n")
    config = load_config(path, limit=7)
    assert config.clarifier == "openai:gpt-4.1" and config.budgets == [1, 3] and config.limit == 7
    assert config.judge == "embedding" and config.user_answerer == "default" and config.searcher.kind == "retrieval"
    assert config.out_dir is None  # the Experiment names the folder after the clarifier that runs
    v1 = load_config(preset="ctsbench-v1", clarifier="vllm:Qwen/Qwen3-8B")
    assert v1.searcher.kind == "react" and v1.searcher.model == "qwen3-8b" and v1.judge == "qwen3-8b"


def test_each_role_plays_its_own_prompt_over_the_presets(tmp_path):
    smoke = load_config()
    assert [smoke.prompt_for(r) for r in ("clarifier", "user_answerer", "rewriter")] == ["v3", "v3", "v1"]
    assert smoke.answer_mode == "choose" and load_config(preset="ctsbench-v1").answer_mode == "replace"
    assert load_config(answer_mode="spans").answer_mode == "spans"  # the user's choice over the preset's
    mine = load_config(prompts={"user_answerer": "v1"})
    assert mine.prompt_for("user_answerer") == "v1" and mine.prompt_for("clarifier") == "v3"
    path = tmp_path / "run.yaml"
    path.write_text("clarifier_prompt: mine.yaml\nprompts: {rewriter: rw.yaml}\n")
    from_file = load_config(path, prompts={"rewriter": "v1"})
    assert from_file.prompts == {"clarifier": "mine.yaml", "user_answerer": "v3", "rewriter": "v1"}
    (tmp_path / "none.yaml").write_text("clarifier_prompt: null\n")  # "no override", as before prompts existed
    assert load_config(tmp_path / "none.yaml").prompt_for("clarifier") == "v3"
    (tmp_path / "both.yaml").write_text("clarifier_prompt: v1\nprompts: {clarifier: v2}\n")
    with pytest.raises(ConfigError, match="both.yaml: clarifier_prompt 'v1' and prompts.clarifier 'v2' disagree"):
        load_config(tmp_path / "both.yaml")
    paper = load_config(preset="ctsbench-v1")
    assert {paper.prompt_for(r) for r in ("clarifier", "user_answerer", "rewriter")} == {"v1"}


def test_bad_configs_are_refused(tmp_path):
    with pytest.raises(ValueError, match="unknown protocol preset 'nope'; known: cpu-smoke, ctsbench-v1"):
        load_config(preset="nope")
    with pytest.raises(ValidationError, match="budgets must be positive"):
        load_config(budgets=[0])
    with pytest.raises(ValidationError, match="surprise"):
        load_config(surprise=True)


def test_several_vllm_engines_share_the_gpu_memory():
    alone = load_config(preset="ctsbench-v1", clarifier="vllm:Qwen/Qwen3-8B")
    assert share_gpu(alone.clarifier, alone).engine_args["gpu_memory_utilization"] == 0.9
    two = load_config(preset="ctsbench-v1", clarifier="vllm:Qwen/Qwen3-4B")
    assert share_gpu(two.clarifier, two).engine_args["gpu_memory_utilization"] == 0.45
    assert share_gpu(two.user_answerer, two).engine_args["gpu_memory_utilization"] == 0.45
    smoke = load_config()
    assert share_gpu(smoke.clarifier, smoke).backend == "default"


def test_run_against_an_unreachable_server_fails_cleanly_naming_the_url(tmp_path, fresh_hf_env):
    from tests.conftest import run_cli

    spec = tmp_path / "down.yaml"
    spec.write_text("backend: openai\nmodel: some-model\nbase_urls: ['http://127.0.0.1:9/v1']\n"
                    "api_key_env: null\nmax_retries: 1\ntimeout_s: 2\n")
    folder = tmp_path / "run"
    result = run_cli("run", "--clarifier", str(spec), "--limit", "2", "--budgets", "1", "--out-dir", str(folder),
                     "--quiet", env=fresh_hf_env)
    assert result.returncode == 1
    assert "http://127.0.0.1:9/v1" in result.stderr and "gave up after 2 attempts" in result.stderr
    assert "Traceback" not in result.stderr and "retries only the failed requests" in result.stderr
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["errors"]["clarify"] == 2 and summary["conditions"]["baseline"]["scored_instances"] == 2


def test_run_names_a_bad_prompt_flag_or_file_before_any_model_loads(tmp_path, fresh_hf_env):
    from tests.conftest import run_cli

    bad = run_cli("run", "--prompt", "user_answerer", "--out-dir", str(tmp_path / "a"), env=fresh_hf_env)
    assert bad.returncode == 2 and "expected ROLE=SOURCE" in bad.stderr
    both = run_cli("run", "--prompt", "clarifier=v1", "--clarifier-prompt", "v2", "--out-dir", str(tmp_path / "d"),
                   env=fresh_hf_env)
    assert both.returncode == 2 and "disagree" in both.stderr
    role = run_cli("run", "--prompt", "judge=v1", "--out-dir", str(tmp_path / "b"), env=fresh_hf_env)
    assert role.returncode != 0 and "prompts.judge" in role.stderr and "Traceback" not in role.stderr
    missing = run_cli("run", "--prompt", f"user_answerer={tmp_path / 'mine.yaml'}", "--limit", "1",
                      "--out-dir", str(tmp_path / "c"), env=fresh_hf_env)
    assert missing.returncode != 0 and "mine.yaml" in missing.stderr and "Traceback" not in missing.stderr


def test_a_free_form_answer_mode_on_cpu_smoke_plays_the_free_form_prompt():
    free = load_config(answer_mode="replace")
    assert free.prompt_for("user_answerer") == "v2" and free.answer_mode == "replace"
    assert load_config(answer_mode="replace", prompts={"user_answerer": "v1"}).prompt_for("user_answerer") == "v1"
    assert load_config().prompt_for("user_answerer") == "v3"


def test_the_run_configs_searcher_choice_is_not_the_search_modules_config(tmp_path):
    from cts_dataset.pipeline import config as config_module
    from cts_dataset.pipeline.config import SearcherChoice
    from cts_dataset.search.searcher import SearcherConfig, searcher_config

    path = tmp_path / "run.yaml"
    path.write_text("searcher: {kind: react, model: qwen3-8b, options: {max_llm_calls: 7}}\n")
    choice = load_config(path).searcher
    assert isinstance(choice, SearcherChoice)
    assert choice.model_dump() == {"kind": "react", "model": "qwen3-8b", "options": {"max_llm_calls": 7}}
    settings = searcher_config(choice.model_dump())  # what the searcher is built from
    assert isinstance(settings, SearcherConfig) and settings.react.max_llm_calls == 7
    with pytest.warns(DeprecationWarning, match="SearcherChoice"):
        assert config_module.SearcherConfig is SearcherChoice  # the former name still imports
