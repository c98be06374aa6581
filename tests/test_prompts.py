"""One prompt loader for the protocol, the judge and the search prompts: identity, checks, user files."""

import hashlib
from importlib import resources

import pytest

from cts_dataset.judges.prompts import load_prompt as load_judge_prompt
from cts_dataset.prompts import ChatPrompt, PromptError, TextPrompt, content_hash, load_text_prompt
from cts_dataset.protocol.prompts import load_prompt, load_prompt_file
from cts_dataset.templates import TemplateError


def shipped(package: str, name: str) -> bytes:
    return resources.files(package).joinpath("prompts", name).read_bytes()


def test_every_package_names_a_prompt_by_id_and_the_hash_of_its_file():
    clarifier = load_prompt("clarifier", "v1", "zh")
    judge = load_judge_prompt("coverage-v1")
    search = load_text_prompt(resources.files("cts_dataset.search").joinpath("prompts", "react_system.v1.txt"),
                              "react_system.v1")
    assert clarifier.id == "clarifier/v1/zh" and judge.id == "coverage-v1"
    for prompt, data in ((clarifier, shipped("cts_dataset.protocol", "clarifier.v1.yaml")),
                         (judge, shipped("cts_dataset.judges", "coverage-v1.yaml")),
                         (search, shipped("cts_dataset.search", "react_system.v1.txt"))):
        assert prompt.hash == content_hash(data) == hashlib.sha256(data).hexdigest()[:16]
    assert load_prompt("clarifier", "v1", "en").hash == clarifier.hash  # one file, both languages


def test_rendering_checks_both_ways_and_names_the_file_and_field():
    prompt = load_prompt("rewriter", "v1", "en")
    assert issubclass(PromptError, TemplateError) and issubclass(PromptError, ValueError)
    with pytest.raises(PromptError, match=r"rewriter.v1.yaml: en.render: missing variables \['pairs'\]"):
        prompt.render(blurred_query="x")
    with pytest.raises(PromptError, match=r"unexpected variables \['fused_query'\]"):
        prompt.render(blurred_query="x", pairs="", fused_query="leak")
    with pytest.raises(PromptError, match=r"en.pair: missing variables \['answer'\]"):
        prompt.fragment("pair", n="1", question="q")
    with pytest.raises(PromptError, match="en.nope: no such fragment"):
        prompt.fragment("nope")
    with pytest.raises(PromptError, match="built: user: line 2: a '\\$' that starts no placeholder"):
        ChatPrompt("built", "s", "ok\ncosts $5")
    with pytest.raises(PromptError, match="t.v1: missing variables"):
        TextPrompt("t.v1", "$a").render()
    messages = ChatPrompt("both", "About ${topic}.", "Tell me of ${topic} for $$5.").render(topic="tea")
    assert [m["content"] for m in messages] == ["About tea.", "Tell me of tea for $5."]


CLARIFIER = resources.files("cts_dataset.protocol").joinpath("prompts", "clarifier.v1.yaml").read_text()


def test_a_users_clarifier_file_is_named_by_file_and_hashed_by_its_bytes(tmp_path):
    path = tmp_path / "my-clarifier.yaml"
    path.write_text(CLARIFIER.replace("Ask the user ONE short clarifying question", "Ask ONE crisp question"))
    prompt = load_prompt_file(path, "clarifier", "en")
    assert prompt.id == "clarifier/my-clarifier.yaml/en" and prompt.hash == content_hash(path.read_bytes())
    assert prompt.hash != load_prompt("clarifier", "v1", "en").hash
    messages = prompt.render(blurred_query="best universities", history="", turn_note=prompt.fragment("turn_note", turn="1"))
    assert "Ask ONE crisp question" in messages[0]["content"] and "best universities" in messages[1]["content"]


@pytest.mark.parametrize("edit,problem", [
    (lambda text: text.replace("    ${turn_note}\n", "", 1),
     r"my.yaml: en.user: placeholders \['blurred_query', 'history'\], but the clarifier role fills"),
    (lambda text: text.replace('  turn_note: "Write clarifying question ${turn}."\n', "", 1), "my.yaml: en.turn_note: missing"),
    (lambda text: text.replace("Search query: ${blurred_query}", "Search query: $ {blurred_query}", 1),
     "my.yaml: en.user: line 1: a '\\$' that starts no placeholder"),
    (lambda text: text.split("zh:")[0].replace("en:", "fr:"), "my.yaml: en: missing; the file has \\['fr'\\]"),
    (lambda text: "- just\n- a list\n", "my.yaml: expected a mapping"),
])
def test_a_broken_users_file_is_refused_naming_file_and_field(tmp_path, edit, problem):
    path = tmp_path / "my.yaml"
    path.write_text(edit(CLARIFIER))
    with pytest.raises(PromptError, match=problem):
        load_prompt_file(path, "clarifier", "en")


def test_missing_files_are_prompt_errors(tmp_path):
    with pytest.raises(PromptError, match="no prompt file clarifier.v9.yaml; shipped: answerer.v1.yaml"):
        load_prompt("clarifier", "v9", "en")
    with pytest.raises(PromptError, match="no prompt file there"):
        load_prompt_file(tmp_path / "absent.yaml", "clarifier", "en")


def test_every_shipped_protocol_prompt_has_both_languages_and_its_roles_placeholders():
    folder = resources.files("cts_dataset.protocol").joinpath("prompts")
    names = sorted(p.name for p in folder.iterdir() if p.name.endswith(".yaml"))
    assert {"clarifier.v3.yaml", "answerer.v2.yaml"} <= set(names)
    for name in names:
        role, version = name.split(".")[:2]
        for language in ("en", "zh"):
            checked = load_prompt_file(folder.joinpath(name), role, language)  # the user-file checks
            assert checked.hash == load_prompt(role, version, language).hash
