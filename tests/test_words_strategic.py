"""The words a player reads in the strategic games (issue 22): every question and every option
of Lest Darkness Fall and Xenophon in plain words.

A greedy bot plays each strategic scenario against itself (a fixed seed, a few hundred
questions: a few seconds), and every question as the table and the line prompt show it
(``side: prompt``) and every option's label is scanned for what a player should not have to
read: internal IDs (``leader.rebel``, ``remove:leader.rebel``, ``xen:retreats``,
``snake_case``) and doubled words (``rebel: rebel:``, ``the the``, ``at after``). An option's
*key* may be an ID (it is what the player types and what is saved); its label and the prompt
may not. Hex numbers (``2809``), counter IDs (``lydia-L1``, ``G1``) and side IDs
(``germano-parthian``) are the games' printed vocabulary and are allowed.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from ancients_kit.plugin import Game
from ancients_kit.session import Decision

from ancients_games.ldf import GAME as LDF
from ancients_games.xenophon import GAME as XENOPHON
from tests.test_words import bot_questions, plain_words_problems

GAMES: dict[str, Game] = {"ldf": LDF, "xenophon": XENOPHON}
PLAYS = [("ldf", "campaign", 3, 1_500), ("xenophon", "cyrus-revolt", 7, 1_500), ("xenophon", "kings-war", 5, 1_500)]
"""(game, scenario, seed, questions): each a few seconds of greedy play."""

EXTRA_CHECKS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("a doubled prefix", re.compile(r"(?:^|\s)([\w-]+):\s+\1:")),
    ("'a' before a vowel", re.compile(r"\ba [aeioAEIO]\w+")),
    ("a plural after 1", re.compile(r"(?<![\d.$/])\b1 (?:units|hexes|chits|leaders|turns)\b")),
)
"""What the strategic games' texts are checked for beyond :func:`tests.test_words.plain_words_problems`
(internal IDs, doubled words, prepositions run together)."""


def problems(text: str) -> list[str]:
    """What is wrong with ``text`` (empty when it reads as plain words)."""
    return [*plain_words_problems(text),
            *(f"{name} ({m.group(0)!r})" for name, pattern in EXTRA_CHECKS for m in pattern.finditer(text))]


def repeats_key(key: str, label: str) -> bool:
    """Whether a hex (or numbered) option, shown as ``key  label``, says its number twice in a
    row (``2414  2414 Tyre``) or has a label that only repeats it (``2812  hex 2812``). Word keys
    may begin their label (``stand  stand and fight``): the key is the word the player types."""
    if label == key or not key.isdigit():
        return False  # the views leave a label equal to the key out
    return label.split(" ", 1)[0] == key or re.fullmatch(rf"(?:hex|into|in|to) {re.escape(key)}", label) is not None


def asked(game: str, scenario: str, seed: int, limit: int) -> Iterator[Decision]:
    """The first ``limit`` questions of a greedy game."""
    return bot_questions(GAMES[game], scenario, seed=seed, limit=limit)


def offending(decisions: Iterator[Decision], *, windows: bool = True) -> list[str]:
    """Every distinct offending prompt or label, with its problems (``windows=False``: the
    prompts of window questions, which the core builds, are left out)."""
    found: dict[str, str] = {}
    for d in decisions:
        if windows or not d.kind.startswith("window."):
            shown = f"{d.side}: {d.prompt}"
            if problems(shown):
                found.setdefault(f"{d.kind} prompt: {shown}", "; ".join(problems(shown)))
        for o in d.options:
            if o.label and problems(o.label):
                found.setdefault(f"{d.kind} option {o.key}: {o.label}", "; ".join(problems(o.label)))
            if o.label and repeats_key(o.key, o.label):
                found.setdefault(f"{d.kind} option {o.key}: {o.label}", "the label repeats the key")
    return [f"{text}\n    -> {why}" for text, why in found.items()]


@pytest.mark.parametrize("text", ["remove:leader.rebel", "remove leader.rebel", "move by land (ldf:12.4)",
                                  "rebel: rebel: play", "play at after a die roll", "the the", "ops_force",
                                  "name a empire satrapy", "eliminate 1 units"])
def test_the_scan_finds_ids_and_doubled_words(text: str) -> None:
    assert problems(text)


@pytest.mark.parametrize("text", ["rebel: Sardis 2809 (2 OP)", "do not maintain lydia-L1 in 2908 ($1)",
                                  "germano-parthian: attack which hex, from where?", "Collection (6.5: 12 TP due)",
                                  "play Forced March: Friendly phase: a force may operate again"])
def test_the_scan_passes_plain_words(text: str) -> None:
    assert not problems(text)


def test_an_option_says_its_key_once() -> None:
    assert repeats_key("2414", "2414 Tyre (FV 8)") and repeats_key("2812", "hex 2812")
    assert not repeats_key("2414", "Tyre (FV 8)") and not repeats_key("move:2907", "move to 2907 (1 OP)")
    assert not repeats_key("3215", "3215") and not repeats_key("stand", "stand and fight")


@pytest.mark.rule("ldf:8.1", "xen:sequence")
@pytest.mark.parametrize(("game", "scenario", "seed", "limit"), PLAYS)
def test_questions_and_options_read_as_plain_words(game: str, scenario: str, seed: int, limit: int) -> None:
    """No question a game puts (as shown: ``side: prompt``) and no option label holds an internal
    ID or a doubled word."""
    bad = offending(asked(game, scenario, seed, limit), windows=False)
    assert not bad, f"{len(bad)} texts of {game} {scenario} do not read as plain words:\n" + "\n".join(bad)


@pytest.mark.rule("ldf:14.3", "xen:chits")
@pytest.mark.parametrize(("game", "scenario", "seed", "limit"), PLAYS[:2])
def test_window_questions_read_as_plain_words(game: str, scenario: str, seed: int, limit: int) -> None:
    """The windows' questions too: their prompt is built by the core (ancients_kit.windows.Window.prompt)
    from the game's title and detail, and must not repeat the side or read ``at after``."""
    bad = offending(d for d in asked(game, scenario, seed, limit) if d.kind.startswith("window."))
    assert not bad, f"{len(bad)} window texts of {game} {scenario} do not read as plain words:\n" + "\n".join(bad)
