"""Words a player reads (issue 22, item 4): questions and option labels in plain words.

A question (``Decision.prompt``) and an option's label (``Option.label``) are
read by a player, so they use the game's own vocabulary: no internal IDs
(``leader.rebel``, ``remove:leader.rebel``, ``move_unit``), no doubled words
(``rebel: rebel: ...``, ``the the``) and no prepositions run together
(``play at after a die roll``). An option's *key* may stay an ID (it is what
is typed and saved); when it is one, its label must say in words what it is.

:func:`plain_words_problems` is the reusable checker (the strategic games'
test imports it); the tests below scan bot-played games of Centurion and
C&C: Ancients, Imperial Rome, and the core's generic windows and group choice.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["key_needs_label", "plain_words_problems"]

_BRACKET: Final = re.compile(r"\[[^\[\]]*\]")
"""A bracketed part (``[cen:basic.zoc]``): where a UI may show a rule ID."""

_COLON_ID: Final = re.compile(r"(?<![\w.:-])[a-z][a-z0-9_-]*:[a-z0-9_][\w.:-]*")
"""``kind:thing`` or ``kind:thing.sub`` written together, as keys and rule IDs are."""

_DOTTED_ID: Final = re.compile(r"(?<![\w.:-])[a-z][a-z0-9_-]*(?:\.[a-z0-9_-]*[a-z_][a-z0-9_-]*)+")
"""``leader.rebel``: lower-case words joined by dots with no space (not ``3.5``, not an ending)."""

_SNAKE: Final = re.compile(r"(?<![\w.:-])[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+")
"""``move_unit``: words joined by underscores."""

_CAMEL: Final = re.compile(r"(?<![\w.:-])[a-z]+[A-Z][A-Za-z0-9]*")
"""``unitId``: lower-case start with an inner capital."""

_ABBREVIATIONS: Final = frozenset({"e.g", "i.e", "a.d", "b.c", "etc", "vs"})
"""Dotted words that are English, not IDs (``e.g.``, ``100 B.C.`` lower-cased)."""

_WORD: Final = re.compile(r"[A-Za-z][A-Za-z'’]*")

_PREPOSITIONS: Final = frozenset(
    {"at", "after", "before", "on", "in", "into", "of", "to", "for", "from", "by", "with", "during", "onto"}
)
"""Two of these running together (``at after``) is a sentence assembled from parts."""

_PAIRS_ALLOWED: Final = frozenset({("from", "before"), ("in", "on"), ("on", "to"), ("in", "to")})
"""Preposition pairs English does use (``from before``, ``move on to``)."""


def plain_words_problems(text: str) -> list[str]:
    """What in ``text`` is not plain words for a player: each problem as a short message.

    Flags internal IDs (``leader.rebel``, ``kind:thing.sub``, ``snake_case``,
    ``camelCase``) outside square brackets (``[cen:basic.zoc]``, where a UI
    may add the rule), a word written twice in a row (``rebel: rebel:``,
    ``the the``, ignoring punctuation and case) and two prepositions in a row
    (``at after``). Returns ``[]`` for plain text.
    """
    problems: list[str] = []
    outside = _BRACKET.sub(" ", text)
    seen: set[str] = set()
    for what, pattern in (("id", _COLON_ID), ("dotted id", _DOTTED_ID), ("snake_case id", _SNAKE),
                          ("camelCase id", _CAMEL)):
        for m in pattern.finditer(outside):
            token = m.group(0).rstrip(".:-")
            if token.lower() in _ABBREVIATIONS or token in seen or not token:
                continue
            if what == "dotted id" and "." not in token:
                continue
            if what == "id" and ":" not in token:
                continue
            seen.add(token)
            problems.append(f"internal {what} {token!r} in {text!r}")
    words = [w.lower() for w in _WORD.findall(outside)]
    for a, b in zip(words, words[1:]):
        if a == b:
            problems.append(f"doubled word {a!r} in {text!r}")
        elif a in _PREPOSITIONS and b in _PREPOSITIONS and (a, b) not in _PAIRS_ALLOWED:
            problems.append(f"prepositions run together {a + ' ' + b!r} in {text!r}")
    return problems


def key_needs_label(key: str) -> bool:
    """Whether an option key is an internal ID, so that its label must say it in words.

    Plain keys (``pass``, ``done``, a hex number ``0412``, a unit code ``BI3``)
    explain themselves; ``remove:leader.rebel`` or ``move_unit`` do not.
    """
    return bool(plain_words_problems(key)) or any(c in key for c in ":._")


# -- the checker itself ------------------------------------------------------


def test_checker_passes_plain_words() -> None:
    for text in (
        "Romans: play a chit after a die roll (d6 [3])?",
        "Choose a stack to move, or done",
        "move to 0412 (2 MP left), e.g. along the road",
        "attack at 3:1 odds [cen:basic.combat]",
        "Heavy infantry BI3 faces north-east; 1.5 movement points",
        "done (2 chosen)",
    ):
        assert plain_words_problems(text) == [], text


def test_checker_finds_internal_ids_and_doubled_words() -> None:
    cases = {
        "remove:leader.rebel": "internal id",
        "add leader.rebel": "dotted id",
        "choose move_unit": "snake_case",
        "pick unitId": "camelCase",
        "rebel: rebel: choose": "doubled word",
        "the the army": "doubled word",
        "Romans: play at after a die roll?": "prepositions run together",
        "as cen:basic.zoc says": "internal id",
    }
    for text, what in cases.items():
        problems = plain_words_problems(text)
        assert any(what in p for p in problems), (text, problems)


def test_key_needs_label() -> None:
    assert key_needs_label("remove:leader.rebel") and key_needs_label("ask:after-roll")
    assert key_needs_label("move_unit")
    assert not key_needs_label("pass") and not key_needs_label("0412") and not key_needs_label("BI3")
