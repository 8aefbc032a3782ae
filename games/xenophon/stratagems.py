"""Xenophon stratagem chits: the pool, hands of 15, draws, losses and every chit's moment (``xen:stratagem``, ``xen:chits``).

The chits' names, counts and texts are data (``data/stratagems.toml``, 21
printed, 19 rebuilt); this module gives each its **moment of play** and, where
the effect is the stratagem rules' own, the effect itself.

Moments (:data:`WINDOW_CHITS`). A chit played outside the player's own
Stratagem phase is offered through an interrupt window
(:mod:`ancients_kit.windows`) that the rules owning the moment open by name,
asking every side the rule allows whatever it holds:

========================  =======================================  ======================  =================
window                    opened by                                asked                   chits
========================  =======================================  ======================  =================
``after-roll``            :func:`roll` (every die roll a player    phasing, then the other Consult Oracles
                          may have rerolled)
``diplomacy``             diplomacy.py, the bidding                non-phasing, phasing    Agent, Expedition,
                                                                                           Great King,
                                                                                           Hellenistic League,
                                                                                           Treachery
``treasury``              treasury.py, start of the phase          phasing                 Currency Reform
``recruit``               recruit.py, start of the Recruit phase   phasing                 Ten Thousand
``levy``                  recruit.py, start of the Levy phase      phasing                 Leader Arises,
                                                                                           Empire Mobilizes
``operations``            operations.py, before each force         phasing                 Forced March (A),
                          is designated                                                    Royal Road
``reaction``              operations.py, after each phasing        non-phasing             Forced March (B,
                          force's operations                                               with opt.reaction),
                                                                                           Scorched Earth
``battle``                combat.py, the attack declared, before   attacker                Bribery
                          the defender's withdrawal choice
``before-odds``           combat.py, the defender stands, before   attacker, defender      Military Advantage
                          the odds (one a side a battle)
``supreme-leader-lost``   leaders.py, the instant a Supreme        its owner               Anabasis
                          Leader is eliminated
========================  =======================================  ======================  =================

King's Eye, Successor and the return of chits to the pool "at any time" are
offered in the friendly Stratagem phase (``PHASES["stratagem"]``); the Blank
does nothing.

Hands (``xen:stratagem``): at most 15 chits; a player awarded a chit with 15
in hand draws it and returns one of his choice (ruling 19). Losses are random
among the chits held and go back to the pool; the death of a Supreme Leader
loses them all (after the Anabasis window).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import attrs

from ancients_kit.data import DataError

from .model import ChitsDoc

__all__ = [
    "CHIT_RULES",
    "EFFECTS",
    "Effect",
    "HAND_LIMIT",
    "PURCHASE_COST",
    "RULE",
    "WINDOWS",
    "WINDOW_CHITS",
    "WindowSpec",
    "check_chits",
    "chit_key",
    "key_chit",
]

RULE: Final = "xen:stratagem"
CHITS_RULE: Final = "xen:chits"
CHIT_RULES: Final = (RULE, CHITS_RULE)

HAND_LIMIT: Final = 15
"""Players may hold up to 15 chits (``xen:stratagem``)."""
PURCHASE_COST: Final = 2
"""$2 a chit in the friendly Treasury phase (``xen:stratagem``, ``xen:treasury``)."""

EMPIRE: Final = "empire"
REBEL: Final = "rebel"
BOTH: Final = (EMPIRE, REBEL)


@attrs.frozen
class WindowSpec:
    """A named moment at which chits are played, who is asked and the rule opening it."""

    name: str
    title: str
    asked: str
    """Who is asked, from public facts: ``phasing``, ``non-phasing``, ``both``, ``attacker``, ``owner``."""
    rule: str


WINDOWS: Final[Mapping[str, WindowSpec]] = {
    w.name: w
    for w in (
        WindowSpec("after-roll", "after a die roll", "both", CHITS_RULE),
        WindowSpec("diplomacy", "a Diplomacy attempt", "both", "xen:diplomacy"),
        WindowSpec("treasury", "the start of the Treasury phase", "phasing", "xen:treasury"),
        WindowSpec("recruit", "the start of the Recruit phase", "phasing", "xen:recruit"),
        WindowSpec("levy", "the start of the Levy phase", "phasing", "xen:levy"),
        WindowSpec("operations", "the designation of a force", "phasing", "xen:operations"),
        WindowSpec("reaction", "the end of an enemy force's operations", "non-phasing", "xen:opt.reaction"),
        WindowSpec("battle", "an attack declared", "attacker", "xen:combat"),
        WindowSpec("before-odds", "a battle's odds", "both", "xen:combat"),
        WindowSpec("supreme-leader-lost", "a Supreme Leader's elimination", "owner", "xen:supreme-leaders"),
    )
}
"""The windows chits are played at; other modules open them by these names."""


@attrs.frozen
class Effect:
    """When and by whom a chit kind may be played (``xen:chits``)."""

    chit: str
    moment: str
    """A window name of :data:`WINDOWS`, ``stratagem`` (the friendly Stratagem
    phase) or ``never`` (the Blank)."""
    sides: tuple[str, ...] = BOTH
    """Players who may play it (Empire Mobilizes: Empire; Ten Thousand: Rebel)."""
    leaves_game: bool = False
    """Removed from the game once played instead of returning to the pool (Empire Mobilizes)."""
    rules: tuple[str, ...] = CHIT_RULES
    """Rule IDs its play applies."""


EFFECTS: Final[Mapping[str, Effect]] = {
    e.chit: e
    for e in (
        Effect("Agent", "diplomacy", rules=(*CHIT_RULES, "xen:diplomacy")),
        Effect("Expedition", "diplomacy", rules=(*CHIT_RULES, "xen:diplomacy")),
        Effect("Great King", "diplomacy", rules=(*CHIT_RULES, "xen:diplomacy")),
        Effect("Hellenistic League", "diplomacy", rules=(*CHIT_RULES, "xen:diplomacy")),
        Effect("Treachery", "diplomacy", rules=(*CHIT_RULES, "xen:diplomacy")),
        Effect("Anabasis", "supreme-leader-lost", rules=(*CHIT_RULES, "xen:supreme-leaders")),
        Effect("Consult Oracles", "after-roll"),
        Effect("Currency Reform", "treasury", rules=(*CHIT_RULES, "xen:treasury")),
        Effect("Empire Mobilizes", "levy", sides=(EMPIRE,), leaves_game=True, rules=(*CHIT_RULES, "xen:levy")),
        Effect("Forced March", "operations", rules=(*CHIT_RULES, "xen:forced-march")),
        Effect("King's Eye", "stratagem", rules=(*CHIT_RULES, "xen:intelligence")),
        Effect("Leader Arises", "levy", rules=(*CHIT_RULES, "xen:leaders")),
        Effect("Military Advantage", "before-odds", rules=(*CHIT_RULES, "xen:combat")),
        Effect("Successor", "stratagem", rules=(*CHIT_RULES, "xen:supreme-leaders")),
        Effect("Ten Thousand", "recruit", sides=(REBEL,), rules=(*CHIT_RULES, "xen:recruit")),
        Effect("Royal Road", "operations", rules=(*CHIT_RULES, "xen:movement")),
        Effect("Bribery", "battle", rules=(*CHIT_RULES, "xen:combat")),
        Effect("Scorched Earth", "reaction", rules=(*CHIT_RULES, "xen:supply")),
        Effect("Blank", "never"),
    )
}
"""Every chit kind of ``data/stratagems.toml`` and its moment of play."""

EXTRA_MOMENTS: Final[Mapping[str, tuple[str, ...]]] = {"Forced March": ("reaction",)}
"""Chits played at a second moment too: Forced March's text B, a Reaction in the
enemy Operations phase (only with the optional rule, ``xen:opt.reaction``)."""


def _window_chits() -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {name: [] for name in WINDOWS}
    for e in EFFECTS.values():
        for moment in (e.moment, *EXTRA_MOMENTS.get(e.chit, ())):
            if moment in out:
                out[moment].append(e.chit)
    return {k: tuple(v) for k, v in out.items()}


WINDOW_CHITS: Final[Mapping[str, tuple[str, ...]]] = _window_chits()
"""Window name -> the chit kinds played there."""


def chit_key(chit: str) -> str:
    """Stable option key of a chit kind: ``consult-oracles``, ``king-s-eye``."""
    return "".join(c if c.isalnum() else "-" for c in chit.lower())


_BY_KEY: Final = {chit_key(c): c for c in EFFECTS}


def key_chit(key: str) -> str:
    """The chit kind an option key names; ValueError naming the rule if none."""
    try:
        return _BY_KEY[key]
    except KeyError:
        raise ValueError(f"{key!r} is not a stratagem chit ({CHITS_RULE})") from None


def check_chits(doc: ChitsDoc, file: str = "stratagems.toml") -> None:
    """Every chit of the data has a moment here and every moment a chit of the data
    (``xen:chits``); the phases the data names agree with the moments."""
    names = [c.name for c in doc.chit]
    missing = sorted(set(names) - set(EFFECTS))
    if missing:
        raise DataError(file, f"no effect for the chit(s) {', '.join(missing)} ({CHITS_RULE})", "chit")
    unknown = sorted(set(EFFECTS) - set(names))
    if unknown:
        raise DataError(file, f"the pool has no {', '.join(unknown)} chit ({CHITS_RULE})", "chit")
    phase_of = {
        "diplomacy": "diplomacy",
        "treasury": "treasury",
        "recruit": "recruit",
        "levy": "levy",
        "operations": "operations",
        "reaction": "operations",
        "battle": "combat",
        "before-odds": "combat",
        "after-roll": "any",
        "supreme-leader-lost": "any",
        "stratagem": "any",
        "never": "none",
    }
    for i, c in enumerate(doc.chit):
        if phase_of[EFFECTS[c.name].moment] != c.phase:
            raise DataError(
                file, f"{c.name} is played at {EFFECTS[c.name].moment}, not in phase {c.phase!r} ({CHITS_RULE})", f"chit[{i}].phase"
            )
