"""The small words inside a name, and the initials a name makes. Kept apart from the modules that find
names in questions so that every one of them (sources and units too) reads a name the same way."""

from __future__ import annotations

import re

NAME_PARTICLES = frozenset(["de", "del", "la", "le", "von", "van", "der", "den", "da", "di", "du"])  # Herbert von Karajan
NAME_JOINERS = frozenset(["of", "the", "with"]) | NAME_PARTICLES  # "Gone with the Wind", "Bank of England"


def initials(run: str) -> str:
    """The acronym a name makes of its words' first letters: IMF of "International Monetary Fund" (joiners
    such as "of" and "the" left out)."""
    return "".join(w[0] for w in re.findall(r"[A-Za-z][\w'’-]*", run) if w.lower() not in NAME_JOINERS | {"and", "for"}).upper()
