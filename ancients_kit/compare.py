"""One engagement under every installed game's combat system (``ancients compare``).

An :class:`Engagement` is described once, in words common to the games:
unit kinds and how many of each on either side, the defender's terrain,
leaders, support, melee or missile. Each game translates it through the
plugin contract (``Game.compare``) into its own terms (which units, which
column or how many dice) and answers with a :class:`Translation`: the exact
outcome distribution of its own table, the steps of the translation, and how
each of its outcomes falls into the common :data:`CLASSES`, so that the
systems can be read side by side. The core names no game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, Literal

import attrs

from ancients_kit.data import DataStore
from ancients_kit.errors import GameError
from ancients_kit.plugin import parse_flag

__all__ = ["CLASSES", "KINDS", "CompareError", "Engagement", "Translation", "chart_rows", "class_totals",
           "parse_engagement", "translate_all"]

KINDS: tuple[str, ...] = (
    "heavy-infantry", "medium-infantry", "light-infantry", "warband", "spearmen", "pikemen",
    "archers", "slingers", "light-cavalry", "medium-cavalry", "heavy-cavalry", "cataphracts", "elephants",
)
"""The common vocabulary of unit kinds each game maps onto its own units."""

CLASSES: tuple[str, ...] = (
    "attacker harmed", "no effect", "defender retreats or disperses", "defender loses strength",
    "defender eliminated",
)
"""Common outcome classes, from best for the defender to worst."""

TERRAINS = ("clear", "hill", "forest", "town", "river", "ford", "bridge", "fort")


class CompareError(GameError):
    """An engagement that cannot be read (unknown kind, bad count)."""


@attrs.frozen
class Engagement:
    """One attack described in words every game can translate."""

    attacker: tuple[tuple[str, int], ...]
    """``(kind, count)`` of the attacking units."""
    defender: tuple[tuple[str, int], ...]
    """``(kind, count)`` of the defending units (one hex)."""
    terrain: str = "clear"
    """The defender's terrain."""
    mode: Literal["melee", "missile"] = "melee"
    attacker_leader: bool = False
    defender_leader: bool = False
    support: bool = False
    """The defender has friendly units beside it."""
    flank: bool = False
    """The attack comes on the defender's flank (games with facing)."""

    def describe(self) -> str:
        def side(units: Sequence[tuple[str, int]]) -> str:
            return " + ".join(f"{n} {k}" for k, n in units)

        extras = [x for x, on in (("attacker leader", self.attacker_leader), ("defender leader", self.defender_leader),
                                  ("support", self.support), ("flank", self.flank)) if on]
        return (f"{self.mode}: {side(self.attacker)} against {side(self.defender)} in {self.terrain}"
                + (f" ({', '.join(extras)})" if extras else ""))


@attrs.frozen
class Translation:
    """What one game makes of an engagement."""

    game: str
    system: str
    """The mechanism used (``melee CRT, odds ratio``, ``battle dice``)."""
    steps: tuple[str, ...]
    """How the engagement became the game's inputs, one step a line."""
    distribution: Mapping[str, Fraction]
    """The game's own outcomes with their exact probabilities (summing to 1)."""
    classes: Mapping[str, str]
    """Each outcome -> one of :data:`CLASSES`."""
    rules: tuple[str, ...] = ()

    def __attrs_post_init__(self) -> None:
        total = sum(self.distribution.values(), Fraction(0))
        if total != 1:
            raise ValueError(f"{self.game}: outcome probabilities sum to {total}, not 1")
        bad = {c for c in self.classes.values() if c not in CLASSES}
        if bad or set(self.classes) != set(self.distribution):
            raise ValueError(f"{self.game}: every outcome needs one of the common classes")

    def to_json(self) -> dict[str, object]:
        return {
            "game": self.game,
            "system": self.system,
            "steps": list(self.steps),
            "distribution": {k: {"exact": str(v), "probability": float(v)} for k, v in self.distribution.items()},
            "classes": {c: {"exact": str(v), "probability": float(v)} for c, v in class_totals(self).items()},
            "rules": list(self.rules),
        }


def class_totals(t: Translation) -> dict[str, Fraction]:
    """Probability of each common class under ``t`` (every class listed)."""
    out = {c: Fraction(0) for c in CLASSES}
    for outcome, p in t.distribution.items():
        out[t.classes[outcome]] += p
    return out


def translate_all(games: Mapping[str, Any], e: Engagement) -> tuple[list[Translation], dict[str, str]]:
    """Every game's translation of ``e`` (games in name order), and the reason of each
    game that refuses it (a unit kind it lacks), by game title."""
    results: list[Translation] = []
    refused: dict[str, str] = {}
    for _, g in sorted(games.items()):
        try:
            t = g.compare(DataStore(g.package), e)
        except ValueError as exc:
            refused[g.title] = str(exc)
            continue
        if t is not None:
            results.append(t)
    return results, refused


def chart_rows(results: Sequence[Translation]) -> list[tuple[str, dict[str, float]]]:
    """``(game and system, class -> probability)`` per translation, for the class chart."""
    return [(f"{t.game}\n{t.system}", {c: float(v) for c, v in class_totals(t).items()}) for t in results]




def _units(text: str, key: str) -> tuple[tuple[str, int], ...]:
    out = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        kind, _, count = part.partition("*")
        kind = kind.strip().lower()
        if kind not in KINDS:
            raise CompareError(f"{key}: unknown unit kind {kind!r} (kinds: {', '.join(KINDS)})")
        try:
            n = int(count) if count else 1
        except ValueError:
            raise CompareError(f"{key}: {part!r}: the count after * must be a whole number") from None
        if not 1 <= n <= 12:
            raise CompareError(f"{key}: {part!r}: give 1 to 12 units of a kind")
        out.append((kind, n))
    if not out:
        raise CompareError(f"{key}: name at least one unit kind, e.g. {key}=heavy-infantry*2")
    return tuple(out)


def parse_engagement(params: Mapping[str, str]) -> Engagement:
    """``attacker=heavy-infantry*2 defender=warband terrain=hill leader=yes ...``."""
    known = {"attacker", "defender", "terrain", "mode", "leader", "attacker_leader", "defender_leader", "support",
             "flank"}
    bad = sorted(set(params) - known)
    if bad:
        raise CompareError(f"unknown key(s) {', '.join(bad)} (keys: {', '.join(sorted(known))})")
    for need in ("attacker", "defender"):
        if need not in params:
            raise CompareError(f"missing {need}=KIND[*N],... (kinds: {', '.join(KINDS)})")

    def flag(name: str) -> bool:
        try:
            return parse_flag(params.get(name, "no"), name)
        except ValueError as exc:
            raise CompareError(str(exc)) from None

    terrain = params.get("terrain", "clear").strip().lower()
    if terrain not in TERRAINS:
        raise CompareError(f"terrain: {terrain!r} is not one of {', '.join(TERRAINS)}")
    mode = params.get("mode", "melee").strip().lower()
    if mode not in ("melee", "missile"):
        raise CompareError(f"mode: melee or missile, not {mode!r}")
    return Engagement(
        attacker=_units(params["attacker"], "attacker"),
        defender=_units(params["defender"], "defender"),
        terrain=terrain,
        mode=mode,  # type: ignore[arg-type]
        attacker_leader=flag("leader") or flag("attacker_leader"),
        defender_leader=flag("defender_leader"),
        support=flag("support"),
        flank=flag("flank"),
    )
