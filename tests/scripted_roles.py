"""Scripted interaction roles shared by the pipeline tests (and their subprocesses)."""

import json

from cts_dataset.models.scripted import ScriptedModel


def answer_from_intent(request):
    """A faithful scripted user: states the year if the intent has one, else unknown."""
    lines = request.messages[1].content.split("\n")  # need, [options,] question: whichever the prompt lists
    intent, question = lines[0], lines[-1] if lines[-1].strip() else lines[-2]
    if "year" not in question:
        return json.dumps({"answer": "unknown"})
    years = [w.strip(",.?") for w in intent.split() if w.strip(",.?").isdigit() and len(w.strip(",.?")) == 4]
    return json.dumps({"answer": years[0] if years else "unknown"})


def rewrite_with_answers(request):
    user = request.messages[1].content
    query = user.split("\n")[0].removeprefix("Original query: ")
    answers = [line.split(": ", 1)[1] for line in user.split("\n") if line.startswith("A") and ": " in line]
    return " ".join([query, *[a for a in answers if a != "unknown"]])


def make_models():
    clarifier = ScriptedModel(default=lambda r: "Which year do you mean?" if "question 1" in r.messages[1].content
                              else "Which place do you mean?")
    return {"clarifier": clarifier, "user_answerer": ScriptedModel(default=answer_from_intent),
            "rewriter": ScriptedModel(default=rewrite_with_answers)}
