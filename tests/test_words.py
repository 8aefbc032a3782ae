"""Words a player reads (issue 22, item 4): questions and option labels in plain words.

A question (``Decision.prompt``) and an option's label (``Option.label``) are
read by a player, so they use the game's own vocabulary: no internal IDs
(``leader.rebel``, ``remove:leader.rebel``, ``move_unit``), no doubled words
(``rebel: rebel: ...``, ``the the``) and no prepositions run together
(``play at after a die roll``). An option's *key* may stay an ID (it is what
is typed and saved); when it is one, its label must say in words what it is.

:func:`plain_words_problems` is the reusable checker (for any game's test;
:func:`decision_problems` applies it to a whole question as the views show it);
the tests below scan bot-played games of Centurion and C&C: Ancients, Imperial
Rome (every kind of question each asks), and the core's generic windows and
group choice as Lest Darkness Fall and Xenophon use them. Hex numbers
(``0412``), counter IDs (``ROM-SD01``), unit codes (``HI``) and side names are
the games' printed vocabulary and pass; a log's short notation (``HI@0506``)
does not.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Final

import pytest

from ancients_kit.bots import make_bot
from ancients_kit.data import DataStore
from ancients_kit.plugin import Game, find_game
from ancients_kit.session import Decision, Option, Session
from ancients_kit.windows import ASK, NEVER, NO, TURN, Standing, Window, offer, own

__all__ = ["decision_problems", "key_needs_label", "plain_words_problems"]

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

_AT_SIGN: Final = re.compile(r"[\w-]+@[\w-]+")
"""``HI@0506``: a unit and its hex in a log's short notation, not in words (``HI at 0506``)."""

_ABBREVIATIONS: Final = frozenset({"e.g", "i.e", "a.d", "b.c", "etc", "vs"})
"""Dotted words that are English, not IDs (``e.g.``, ``100 B.C.`` lower-cased)."""

_WORD: Final = re.compile(r"[a-z][a-z'’]*")
"""A word (lower-cased): a number or a code such as ``BYZ-BC01`` is not one."""

_PUNCTUATION: Final = ".,:;!?()\"'“”‘’"
"""Stripped from both ends of a whitespace-separated token before words are compared."""

_PREPOSITIONS: Final = frozenset(
    {"at", "after", "before", "in", "into", "of", "to", "for", "from", "by", "with", "during", "onto"}
)
"""Two of these running together (``at after``) is a sentence assembled from parts. (Not
``on``: it is as often an adverb, ``fight on for a higher level``.)"""

_IDIOMS: Final = re.compile(r"\b(?:at (?:most|least|once|all)|of course)\b")
"""Phrases that begin with a preposition but act as one word (``1 of at most 3``)."""

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
    for m in _AT_SIGN.finditer(outside):
        problems.append(f"short notation {m.group(0)!r} in {text!r}")
    words = _IDIOMS.sub(lambda m: m.group(0).replace(" ", "-"), outside.lower()).split()
    words = [w.strip(_PUNCTUATION) for w in words]
    for a, b in zip(words, words[1:]):
        if a == b and _WORD.fullmatch(a):
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


def decision_problems(d: Decision) -> list[str]:
    """What a player would read wrongly in ``d``: its question as every view shows it
    (``side: prompt``) and each option's label; an option whose key is an internal
    ID (:func:`key_needs_label`) needs a label in words other than its key."""
    where = f"[{d.kind}] "
    problems = [where + p for p in plain_words_problems(f"{d.side}: {d.prompt}")]
    for o in d.options:
        problems += [f"{where}option {o.key!r}: {p}" for p in plain_words_problems(o.label)]
        if key_needs_label(o.key) and o.label.strip() in ("", o.key):
            problems.append(f"{where}option {o.key!r} is an internal ID with no label in words")
    return problems


def bot_questions(game: Game | str, scenario: str, *, seed: int, limit: int, bot: str = "greedy",
                  options: dict[str, str] | None = None) -> Iterator[Decision]:
    """The first ``limit`` questions of a game ``bot`` plays against itself (fixed seed)."""
    s = Session.new(game, scenario, seed=seed, options=options)
    player = make_bot(bot)
    for _ in range(limit):
        d = s.decision
        if d is None:
            return
        yield d
        s.answer(player.choose(s, d))


def scan(questions: Iterable[Decision], kinds: set[str] | None = None) -> list[str]:
    """Every distinct problem of ``questions`` (the kinds met are added to ``kinds``)."""
    found: dict[str, None] = {}
    for d in questions:
        if kinds is not None:
            kinds.add(d.kind)
        for p in decision_problems(d):
            found.setdefault(p, None)
    return list(found)


def report(problems: list[str], what: str) -> str:
    """An assertion message: how many texts of ``what`` do not read as plain words, the first few."""
    return f"{len(problems)} texts of {what} do not read as plain words:\n" + "\n".join(problems[:30])


# -- the checker itself ------------------------------------------------------


def test_checker_passes_plain_words() -> None:
    for text in (
        "Romans: play a chit after a die roll (d6 [3])?",
        "Choose a stack to move, or done",
        "move to 0412 (2 MP left), e.g. along the road",
        "attack at 3:1 odds [cen:basic.combat]",
        "Heavy infantry BI3 faces north-east; 1.5 movement points",
        "done (2 chosen)",
        "form the force in 2809 (1 of at most 3 chosen: H1)",
        "accept, or refuse and fight on for a higher level?",
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


def test_decision_problems_reads_the_question_as_shown_and_every_label() -> None:
    d = Decision("rebel", "rebel: choose", (Option("remove:leader.rebel"), Option("add:x", "add leader.rebel"),
                                            Option("pass")))
    problems = decision_problems(d)
    assert any("doubled word 'rebel'" in p for p in problems)
    assert any("'remove:leader.rebel' is an internal ID with no label" in p for p in problems)
    assert any("dotted id 'leader.rebel'" in p for p in problems)
    assert not any("'pass'" in p for p in problems)


# -- the core's windows (used by Lest Darkness Fall and Xenophon) -----------------------

sys.path.insert(0, str(Path(__file__).parent / "plugins"))

WINDOW_TITLES = [
    "after a die roll", "the start of a battle", "an attack, before its roll", "the start of your move",
    "a diplomacy or treachery roll, before it is made", "the start of the Diplomacy phase",
    "a Diplomacy attempt", "the end of an enemy force's operations", "a battle's odds",
    "before a treachery roll", "an enemy attack, before the roll",
]
"""Window titles of the four games and the test games, as they pass them to :class:`Window`."""


@pytest.mark.rule("ldf:14.3", "xen:chits")
@pytest.mark.parametrize("title", WINDOW_TITLES)
def test_a_window_question_and_its_answers_read_as_plain_words(title: str) -> None:
    """The question does not repeat the side every view already shows before it, and the
    moment reads as English after ``play`` (``play after a die roll``, never ``at after``)."""
    window = Window("w", title, "ldf:14.3", ("Romans",), detail="Romans' d6 [3]")
    standing = Standing()
    gen = offer(window, standing, lambda side: [Option("reroll", "play chit 2: roll again")])
    d = next(gen)
    assert not d.prompt.startswith("Romans:"), d.prompt
    assert not decision_problems(d), decision_problems(d)
    assert d.keys == (NO, TURN, NEVER, "reroll")
    try:
        gen.send(NEVER)
    except StopIteration:
        pass
    again = next(own(Decision("Romans", "choose an action", (Option("pass", "pass"), Option("draw", "draw"))),
                     standing))
    assert again.keys == ("pass", "draw", f"{ASK}w") and not decision_problems(again), decision_problems(again)


@pytest.mark.rule("ldf:14.3", "ldf:8.8", "xen:chits", "xen:opt.reaction")
@pytest.mark.parametrize(("game", "scenario", "bot", "limit"), [
    ("ldf", "campaign", "greedy", 600), ("xenophon", "cyrus-revolt", "greedy", 600),
    ("xenophon", "kings-war", "random", 1_500),
])
def test_window_questions_of_the_strategic_games_read_as_plain_words(game: str, scenario: str, bot: str,
                                                                      limit: int) -> None:
    """The prompts the core builds for the strategic games' windows, and the core's own
    answers (``no``, ``never``, ``ask:<window>``); the games' own texts are the business of
    tests/test_words_strategic.py."""
    core = {NO, NEVER}
    asked = [d for d in bot_questions(game, scenario, seed=7, limit=limit, bot=bot)
             if d.kind.startswith("window.") or any(o.key.startswith(ASK) for o in d.options)]
    assert asked
    shown = [Decision(d.side, d.prompt if d.kind.startswith("window.") else "your own decision",
                      tuple(o for o in d.options if o.key in core or o.key.startswith(ASK)) or (Option(NO, "no"),),
                      kind=d.kind) for d in asked]
    bad = scan(shown)
    assert not bad, report(bad, f"{game} {scenario} windows")


# -- the core's staged choice of a group ---------------------------------------------------


@pytest.mark.rule("xen:forces", "xen:stacking")
def test_a_staged_choice_names_its_groups_in_words() -> None:
    """Groups named by an internal ID (``leader.rebel``) read as words in the labels; the
    keys (``add:leader.rebel``) stay what is typed and saved."""
    from ancients_kit.choice import choose_group
    from ancients_kit.testing import drive

    units = [Option(f"L{i}", f"L{i} (rebel leader)", data="leader.rebel") for i in (1, 2)]
    units.append(Option("H1", "H1 (hoplite)", data="hoplite.rebel"))
    said = {"leader.rebel": "a rebel leader", "hoplite.rebel": "a rebel hoplite"}
    gen = choose_group("rebel", "form the force in 2809", units, at_most=3, rule="xen:stacking",
                       same=lambda o: str(o.data), words=said.__getitem__)
    asked, force = drive(gen, ["add:leader.rebel", "add:hoplite.rebel", "remove:leader.rebel", "done"])
    assert force == ("H1",)
    assert asked[1].keys == ("done", "add:leader.rebel", "add:hoplite.rebel", "remove:leader.rebel")
    assert asked[1].option("add:leader.rebel").label == "add a rebel leader (1 left)"
    assert asked[1].option("remove:leader.rebel").label == "remove a rebel leader"
    bad = scan(asked)
    assert not bad, report(bad, "a staged choice")


# -- the tactical games, played by bots -----------------------------------------------------

FULL_OPTIONS: Final = {"placement": "true", "treachery": "both"}
"""Centurion's options that add questions: deployment by centre of mass, treachery rolls."""

CENTURION_PLAYS: Final = [
    ("basic-gaul", "greedy", {}),
    ("busta-gallorum", "random", {}),
    ("daras", "random", {}),
    ("busta-gallorum", "random", FULL_OPTIONS),
    ("carrhae", "greedy", FULL_OPTIONS),
    ("gaul", "greedy", FULL_OPTIONS),
    ("mons-graupius", "random", FULL_OPTIONS),
]
"""(scenario, bot, options): the Basic Game and Full Simulations that, between them, put
every kind of question Centurion asks (seed 3, at most 800 questions each). The slow test
plays every scenario too, for each army's own units and rules."""

CENTURION_KINDS: Final = frozenset({
    "move.unit", "move.hex", "move.facing", "combat.hex", "combat.attackers", "retreat",
    "deploy.unit", "deploy.hex", "deploy.facing", "treachery", "start.action", "start.square",
    "start.disband", "start.leave", "start.relief", "start.works", "start.dismount", "start.dismount-as",
    "start.mount", "start.destroy-mounts", "attack.target", "attack.mode", "attack.unit", "fire.defensive",
    "melee.allot", "works.raze", "victory.concede", "victory.accept", "victory.declare",
})
"""Every kind of question in games/centurion (the ``kind=`` of each Decision there)."""

CC_PLAYS: Final = [
    *((s, "greedy") for s in (
        "tigranocerte", "carrhes", "philippi-i", "philippi-ii", "cilician-gates", "antonys-siege-train",
        "medway", "boudicas-revolt-watling-street", "first-bedriacum", "mons-graupius", "issus", "lugdunum",
        "nisibis", "hormuz", "carthage", "abrittus", "edessa", "naissus", "placentia", "fano", "pavia",
        "immae", "milvian-bridge", "cibalae", "series-nisibis", "series-placentia-fano-pavia")),
    ("carrhes", "random"), ("pavia", "random"),
]
"""(scenario, bot): every battle and series of C&C: Ancients, Imperial Rome by the greedy
bot, and two by the random bot for the First Strike and exit questions (seed 1, at most
800 questions each)."""

CC_KINDS: Final = frozenset({
    "card", "order.unit", "move.unit", "move.hex", "battle.unit", "battle.target", "react.evade",
    "react.first-strike", "evade.hex", "retreat.hex", "momentum.advance", "momentum.extra", "momentum.bonus",
    "leader.escape", "reserve", "exit", "series.leave-out",
})
"""Every kind of question in games/ccancients_rome (the ``kind`` of each ``ask`` there)."""


@pytest.mark.rule("cen:basic.sequence", "cen:full.sequence")
def test_every_centurion_question_and_option_reads_as_plain_words() -> None:
    kinds: set[str] = set()
    bad: list[str] = []
    game = find_game("centurion")
    for scenario, bot, options in CENTURION_PLAYS:
        bad += scan(bot_questions(game, scenario, seed=3, limit=800, bot=bot, options=options), kinds)
    assert kinds == CENTURION_KINDS, f"not asked: {sorted(CENTURION_KINDS - kinds)}; new: {sorted(kinds - CENTURION_KINDS)}"
    assert not bad, report(sorted(set(bad)), "Centurion")


@pytest.mark.slow
@pytest.mark.rule("cen:basic.sequence", "cen:full.sequence")
@pytest.mark.parametrize("bot", ["greedy", "random"])
def test_every_centurion_scenario_reads_as_plain_words(bot: str) -> None:
    """Every scenario (each army's own units, special rules and victory conditions), whole games."""
    game = find_game("centurion")
    bad: list[str] = []
    for info in game.scenarios(DataStore(game.package, ())):
        for options in ({}, FULL_OPTIONS) if not info.id.startswith("basic-") else ({},):
            bad += scan(bot_questions(game, info.id, seed=5, limit=5_000, bot=bot, options=options))
    assert not bad, report(sorted(set(bad)), "Centurion")


@pytest.mark.rule("ccr:sequence")
def test_every_imperial_rome_question_and_option_reads_as_plain_words() -> None:
    kinds: set[str] = set()
    bad: list[str] = []
    for scenario, bot in CC_PLAYS:
        asked = list(bot_questions(find_game("ccancients_rome"), scenario, seed=1, limit=800, bot=bot))
        bad += scan(asked, kinds)
        bad += [f"[exit] not a question: {d.prompt!r}" for d in asked if d.kind == "exit" and not d.prompt.endswith("?")]
    assert kinds == CC_KINDS, f"not asked: {sorted(CC_KINDS - kinds)}; new: {sorted(kinds - CC_KINDS)}"
    assert not bad, report(sorted(set(bad)), "C&C: Ancients, Imperial Rome")


@pytest.mark.rule("cen:full.victory")
def test_a_concession_is_offered_in_a_sentence() -> None:
    """``The romans concede: accept ...``, not ``romans concedes``: Centurion's sides are peoples."""
    from ancients_kit.bots import play_until

    s = Session.new("centurion", "busta-gallorum", seed=3, options=FULL_OPTIONS)
    d = play_until(s, "victory.accept", make_bot("random"), limit=800)
    assert re.match(r"The [a-z]+ concede: accept an? [a-z]+ victory, or refuse", d.prompt), d.prompt


@pytest.mark.rule("ccr:base.cards", "ccr:base.evade", "ccr:base.retreat", "ccr:base.leaders")
def test_imperial_rome_questions_name_cards_and_units_in_words() -> None:
    """A card by its printed name (``Inspired Leadership Centre: order which leader?``, not
    ``Card ILC``), a unit by its type's name (``Retreat Medium Cavalry from 0104``, not
    ``Retreat MC``); the key a player types (``ILC``, a hex) is unchanged."""
    seen: dict[str, list[Decision]] = {}
    for scenario, bot in (("carrhes", "greedy"), ("tigranocerte", "greedy"), ("antonys-siege-train", "greedy")):
        for d in bot_questions("ccancients_rome", scenario, seed=1, limit=800, bot=bot):
            seen.setdefault(d.kind, []).append(d)
    for kind in ("order.unit", "retreat.hex", "evade.hex", "battle.target", "leader.escape"):
        assert seen.get(kind), kind
    assert not [d.prompt for d in seen["order.unit"] if d.prompt.startswith("Card ")]
    code = re.compile(r"^(?:Retreat|Evade) [A-Z]{2,4} ")
    assert not [d.prompt for d in seen["retreat.hex"] + seen["evade.hex"] if code.match(d.prompt)]
    labels = {o.label.split(" against ")[0] for d in seen["battle.target"] for o in d.options if o.key != "back"}
    assert labels <= {"close combat", "ranged combat", "fire at the lone leader", "attack the lone leader"}, labels
    assert all(d.prompt.startswith("Your leader ") for d in seen["leader.escape"])
    for kind in ("momentum.advance", "momentum.extra"):  # "... may advance into 0705: advance?"
        assert seen.get(kind) and all(d.prompt.endswith("?") for d in seen[kind]), kind
