"""What a clarifying question can be about: the constraint types of the data plus what clarifiers also ask."""

from __future__ import annotations

from typing import Literal

from cts_dataset.records import ConstraintType

QuestionType = Literal["time", "region", "scope", "entity", "number", "definition", "other",
                       "preference", "format", "none"]

CONSTRAINT_TYPES: tuple[str, ...] = tuple(t.value for t in ConstraintType)
QUESTION_TYPES: tuple[QuestionType, ...] = ("time", "region", "scope", "entity", "number", "definition", "other",
                                            "preference", "format", "none")
assert QUESTION_TYPES[:len(CONSTRAINT_TYPES)] == CONSTRAINT_TYPES, "constraint types come first, in data order"

# One line per type: the labelling guide of the test data and the LLM classifier's instructions.
DEFINITIONS: dict[str, str] = {
    "time": "a year, date, period, era, season or how recent (e.g. which year, current or historical)",
    "region": "a place: country, city, region, continent, location (e.g. which country, where)",
    "scope": "which subset, kind, category, aspect or measure of the topic (e.g. which type, by area or population)",
    "entity": "which specific named thing: person, organisation, team, work, product (e.g. who, which company)",
    "number": "a count, amount, rank, ordinal, size or threshold (e.g. how many, the third largest)",
    "definition": "the meaning or sense of a term, or the field it belongs to (e.g. what do you mean by X)",
    "other": "any other restricting attribute: language, nationality, gender, material, audience, status, "
             "or any further condition",
    "preference": "the user's purpose, motive or taste (e.g. what is it for, why, which do you prefer)",
    "format": "the shape of the answer: list, table, length, detail, sources, steps",
    "none": "no question about the need: greetings, thanks, offers to start, statements",
}
