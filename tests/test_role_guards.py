"""Role guards: the answerer says only what the intent states, the clarifier asks questions, the
rewriter adds only what was elicited, whatever the model does."""

import json

import pytest

from cts_dataset.models.scripted import ScriptedModel
from cts_dataset.protocol import answerer, clarifier, rewriter
from cts_dataset.protocol.role_guards import (
    deterministic_rewrite,
    intent_spans,
    question_problem,
    rewrite_problem,
)
from cts_dataset.protocol.roles import RoleSettings
from cts_dataset.protocol.views import QA, AnswererView, ClarifierView, RewriterView

SETTINGS = RoleSettings()
INTENT = "How many people died in the 1976 earthquake in Tangshan, Hebei?"


def test_spans_mode_constrains_the_answer_to_the_intent_or_unknown():
    model = ScriptedModel(default=json.dumps({"answer": "1976"}))
    (answer,) = answerer.answer(model, [AnswererView(INTENT, "en", "Which year?")], SETTINGS, mode="spans")
    enum = model.calls[0].structured.json_schema["properties"]["answer"]["enum"]
    assert enum[0] == "unknown" and "1976" in enum and "Tangshan, Hebei" in enum and "Beijing" not in enum
    assert answer.text == "1976"


def test_zh_spans_are_substrings_of_the_intent():
    spans = intent_spans("1976年唐山大地震死了多少人？", "zh")
    assert "唐山" in spans and "1976" in spans and all(s == "unknown" or s in "1976年唐山大地震死了多少人？" for s in spans)


@pytest.mark.parametrize("mode,expected", [("off", "Beijing, China"), ("replace", "unknown")])
def test_an_invented_answer_is_replaced_by_unknown_unless_the_guard_is_off(mode, expected):
    model = ScriptedModel(default=json.dumps({"answer": "Beijing, China"}))
    (answer,) = answerer.answer(model, [AnswererView(INTENT, "en", "Where?")], SETTINGS, mode=mode)
    assert answer.text == expected
    assert answer.unsupported == ("beij", "china")  # found in either mode; only replace acts on it
    assert answer.replaced == ("Beijing, China" if mode == "replace" else "")


@pytest.mark.parametrize("text,language,ok", [
    ("Which year do you mean?", "en", True),
    ("Do you mean the 1976 one", "en", True),
    ("The most notable physical properties of mercury are its density and its liquid state.", "en", False),
    ("1. Which year?\n2. Which place?", "en", False),
    ("", "en", False),
    ("你指的是哪一年？", "zh", True),
    ("汞的物理性质包括密度高。", "zh", False),
])
def test_question_check(text, language, ok):
    assert (question_problem(text, "some query", language) is None) == ok


def test_a_reply_that_is_no_question_is_asked_once_more_then_invalid():
    model = ScriptedModel({"clarifier": ["Mercury is a liquid metal.", "The answer is 42.",
                                         "Which mercury do you mean?", "Still no question."]})
    views = [ClarifierView("properties of mercury", "en", (), 1), ClarifierView("the answer", "en", (), 1)]
    fixed, failed = clarifier.ask(model, views, SETTINGS)
    assert model.batches == [2, 2]
    again = model.calls[2]
    assert again.sample_index == 1000 and again.sampling.temperature > 0, "the re-ask is a fresh sample"
    assert fixed.valid and fixed.reasked and fixed.first_raw == "Mercury is a liquid metal."
    assert not failed.valid and failed.reasked and failed.problem


def test_a_junk_rewrite_falls_back_to_the_query_and_the_answers():
    model = ScriptedModel(default="A3: The answer is a person with a specific type of entity")
    view = RewriterView("How many people died in the big earthquake?", "en", (QA("Which year?", "1976"),))
    (result,) = rewriter.rewrite(model, [view], SETTINGS)
    assert result.guarded and result.query == "How many people died in the big earthquake? (1976)"


def test_a_faithful_rewrite_is_kept():
    model = ScriptedModel(default="How many people died in the big 1976 earthquake?")
    view = RewriterView("How many people died in the big earthquake?", "en", (QA("Which year?", "1976"),))
    (result,) = rewriter.rewrite(model, [view], SETTINGS)
    assert not result.guarded and result.query == "How many people died in the big 1976 earthquake?"


def test_a_rewrite_that_drops_an_elicited_answer_falls_back():
    # Seen with the 1.5B default at k = 2: the country elicited at turn 1 vanished from the rewrite.
    model = ScriptedModel(default="What is the capital of Congo, and how many people live there?")
    dialogue = (QA("Which country?", "Democratic Republic of the Congo"), QA("Which year?", "unknown"))
    view = RewriterView("What is the capital of Congo, and how many people live there?", "en", dialogue)
    (result,) = rewriter.rewrite(model, [view], SETTINGS)
    assert result.guarded.startswith("drops the answer") and "Democratic Republic" in result.query
    assert rewrite_problem("大地震死了多少人", "大地震死了多少人", (QA("哪一年？", "1976年"),)) == "drops the answer '1976年'"
    confirmed = (QA("Do you mean the one in China?", "Yes."),)  # a rewrite need not say "yes"
    assert rewrite_problem("How many died in the earthquake in China?", "How many died in the earthquake?", confirmed) is None
    said = (QA("Which one?", "Yes, the 1976 one"), QA("Where?", "I don't know"))
    assert rewrite_problem("How many died in the big 1976 earthquake?", "How many died in the big earthquake?", said) is None
    bank = (QA("Left or right bank?", "right"),)  # a one-word value, not a confirmation
    assert rewrite_problem("Cafes on the bank of the Seine?", "Cafes on the bank of the Seine?", bank) is not None
    zh = (QA("哪一次？", "是的，1976年那次"),)
    assert rewrite_problem("1976年的大地震死了多少人", "大地震死了多少人", zh) is None


def test_with_nothing_elicited_the_query_is_the_rewrite_without_a_call():
    model = ScriptedModel(default="something else entirely")
    view = RewriterView("the big earthquake", "en", (QA("Which year?", "unknown"),))
    (result,) = rewriter.rewrite(model, [view], SETTINGS)
    assert result.query == "the big earthquake" and result.nothing_elicited and model.calls == []


def test_rewrite_checks_in_chinese():
    dialogue = (QA("哪一年？", "1976年"),)
    assert rewrite_problem("1976年唐山的大地震死了多少人", "大地震死了多少人", dialogue) is not None  # 唐山 nobody said
    assert rewrite_problem("1976年的大地震死了多少人", "大地震死了多少人", dialogue) is None
    assert deterministic_rewrite("大地震死了多少人", dialogue, "zh") == "大地震死了多少人（1976年）"


def test_an_edit_to_any_guard_file_changes_the_guards_source_hash(tmp_path):
    import shutil
    from pathlib import Path

    import cts_dataset
    from cts_dataset.protocol.role_guards import GUARD_FILES, guards_source

    package = Path(cts_dataset.__file__).parent
    for name in GUARD_FILES:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(package / name, tmp_path / name)
    assert guards_source(tmp_path) == guards_source()  # the installed files, read the same way
    seen = {guards_source(tmp_path)}
    for name in GUARD_FILES:
        path = tmp_path / name
        path.write_bytes(path.read_bytes() + b"\n# an edit\n")
        guards_source.cache_clear()
        seen.add(guards_source(tmp_path))
    assert len(seen) == len(GUARD_FILES) + 1


def test_line_endings_do_not_change_the_guards_source_hash(tmp_path):
    from pathlib import Path

    import cts_dataset
    from cts_dataset.protocol.role_guards import GUARD_FILES, guards_source

    package = Path(cts_dataset.__file__).parent
    for name in GUARD_FILES:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes((package / name).read_bytes().replace(b"\n", b"\r\n"))
    assert guards_source(tmp_path) == guards_source()


# Modules the guard files import that hold no rule of what an answer, a question or a rewrite may say.
_NOT_RULES = {"corpus.py", "errors.py", "models/base.py", "prompts.py", "protocol/prompts.py",
              "protocol/__init__.py", "records.py", "templates.py"}


def test_every_module_the_guards_read_is_hashed_or_named_as_no_rule():
    import ast
    from pathlib import Path

    import cts_dataset
    from cts_dataset.protocol.role_guards import GUARD_FILES

    package = Path(cts_dataset.__file__).parent

    def imported(name: str) -> set[str]:
        found = set()
        for node in ast.walk(ast.parse((package / name).read_text(encoding="utf-8"))):
            modules = ([node.module] + [f"{node.module}.{a.name}" for a in node.names]
                       if isinstance(node, ast.ImportFrom) and node.module else
                       [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            for module in (m for m in modules if m.startswith("cts_dataset.")):
                path = Path(*module.split(".")[1:])
                found |= {str(p) for p in (path.with_suffix(".py"), path / "__init__.py") if (package / p).is_file()}
        return found

    seen, todo = set(), list(GUARD_FILES)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += imported(name)
    assert seen - set(GUARD_FILES) - _NOT_RULES == set()
