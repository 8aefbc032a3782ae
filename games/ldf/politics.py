"""Lest Darkness Fall politics: emperors, co-emperors, rebels, treachery and diplomacy.

Rules served (``ldf:`` IDs):

- 8.3  rebel conversion: :func:`convert` rolls for one hex a moving rebel
  co-emperor has come next to (even: the hex's loyal Roman units turn rebel);
  movement (``movement.py``) calls it once per hex moved adjacent to;
- 8.7  creating a loyal co-emperor (Roman, free placement) or a rebel one
  (Germano-Parthian, 5-6); removing a rebel co-emperor flips every non-Gallic
  rebel back to loyal (:func:`rebels_return`);
- 8.8  salting: the Roman spends 1-3 TP for +1 each on his own diplomacy or
  treachery roll, or -1 each on the Germano-Parthian's; with chit 17 (+2/-2)
  no combination moves a roll by more than 3 (:class:`Modifiers`); results
  above six are read as six (:func:`result`); a reroll by chit 2 keeps no
  earlier salting or chit;
- 8.9  treachery against the emperor, then the Emperor Creation Table (14.4);
- 8.10 diplomacy with a loyal co-emperor; 8.11 treachery against a rebel
  co-emperor; 8.12 diplomacy against a German tribe in the Roman core;
- 14.4 the Emperor Creation Table (:func:`succession`), with the errata's
  "if two or more hexes" (the Roman player chooses among tied hexes).

Every diplomacy and treachery roll succeeds on a final 5 or 6
(:data:`SUCCESS_FROM`). The functions that need no game state (the
probabilities, the modifier arithmetic, the table's candidate hexes) come
first; the actions follow.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Final

import attrs

from ancients_kit.hexgrid import Hex

__all__ = [
    "AGENTS",
    "AGENTS_EFFECT",
    "CAP",
    "SALT_MAX",
    "SUCCESS_FROM",
    "Modifiers",
    "Succession",
    "SuccessionFacts",
    "conversion_succeeds",
    "result",
    "succeeds",
    "succession",
    "success_chance",
]

SUCCESS_FROM: Final = 5
"""Diplomacy, treachery and the rebel co-emperor's creation succeed on 5 or 6
(``ldf:8.7``, ``8.9``-``8.12``, ``9.4``)."""
SALT_MAX: Final = 3
"""At most three TP of salt in one roll (``ldf:8.8``)."""
CAP: Final = 3
"""No combination of salting and chit play moves a roll by more than 3 (``ldf:8.8``)."""
AGENTS: Final = 17
"""Agents in Enemy Camp (``ldf:8.8``, ``ldf:14.3``)."""
AGENTS_EFFECT: Final = 2
"""+2 on one's own diplomacy/treachery roll, -2 on the opponent's (``ldf:14.3``)."""
ROMAN: Final = "roman"
GP: Final = "germano-parthian"


def result(die: int, modifier: int = 0) -> int:
    """The final result of a diplomacy or treachery roll: ``die + modifier``,
    with results above six read as six (``ldf:8.8``) and below one as one."""
    if not 1 <= die <= 6:
        raise ValueError(f"a d6 roll is 1-6, got {die} (ldf:8.8)")
    if abs(modifier) > CAP:
        raise ValueError(f"a diplomacy or treachery roll may be moved by at most {CAP}, got {modifier:+d} (ldf:8.8)")
    return max(1, min(6, die + modifier))


def succeeds(die: int, modifier: int = 0) -> bool:
    """Whether a diplomacy or treachery roll succeeds: final 5 or 6 (``ldf:8.9``-``8.12``)."""
    return result(die, modifier) >= SUCCESS_FROM


def success_chance(modifier: int = 0) -> Fraction:
    """Exact chance that a roll with ``modifier`` succeeds (``ldf:8.8``): 1/3 unmodified,
    1/2, 2/3 and 5/6 salted by +1, +2, +3; 1/6 at -1 and 0 at -2 or -3."""
    return Fraction(sum(succeeds(d, modifier) for d in range(1, 7)), 6)


def conversion_succeeds(die: int) -> bool:
    """A rebel conversion roll (``ldf:8.3``): even converts, odd stays loyal."""
    if not 1 <= die <= 6:
        raise ValueError(f"a d6 roll is 1-6, got {die} (ldf:8.3)")
    return die % 2 == 0


@attrs.define
class Modifiers:
    """What has been declared for one diplomacy or treachery roll (``ldf:8.8``).

    ``actor`` is the side making the roll. ``salt`` is the Roman's TP spent
    (always positive); its effect is ``+salt`` on a Roman roll and ``-salt`` on
    a Germano-Parthian one. ``agents`` holds the sides that declared chit 17
    for this roll (+2 for the actor, -2 for its opponent).
    """

    actor: str
    salt: int = 0
    agents: list[str] = attrs.Factory(list)

    @property
    def salt_effect(self) -> int:
        return self.salt if self.actor == ROMAN else -self.salt

    def agents_effect(self, side: str) -> int:
        return AGENTS_EFFECT if side == self.actor else -AGENTS_EFFECT

    @property
    def total(self) -> int:
        """The net modifier, always within ``-CAP..CAP``."""
        return self.salt_effect + sum(self.agents_effect(s) for s in self.agents)

    def salt_choices(self, tp: int) -> tuple[int, ...]:
        """The TP the Roman may spend on salt now: 1-3, no more than he holds
        (``ldf:6.10``, no deficits) and none that would move the roll past the
        cap (``ldf:8.8``). Empty once he has salted this roll."""
        if self.salt:
            return ()
        sign = 1 if self.actor == ROMAN else -1
        return tuple(n for n in range(1, min(SALT_MAX, tp) + 1) if abs(self.total + sign * n) <= CAP)

    def may_play_agents(self, side: str) -> bool:
        """Whether ``side`` may declare chit 17 now: once per side and roll, and
        only within the cap (``ldf:8.8``: a play past +3 is refused, not cut)."""
        return side not in self.agents and abs(self.total + self.agents_effect(side)) <= CAP

    def add_salt(self, n: int) -> None:
        if n not in self.salt_choices(n):
            raise ValueError(f"salt of {n} TP refused: 1-{SALT_MAX} TP once a roll, never past {CAP:+d} (ldf:8.8)")
        self.salt = n

    def add_agents(self, side: str) -> None:
        if not self.may_play_agents(side):
            raise ValueError(f"chit {AGENTS} refused for {side}: no combination may pass {CAP:+d} (ldf:8.8)")
        self.agents.append(side)

    def clear(self) -> None:
        """A reroll keeps no earlier salting or chit (``ldf:8.8``)."""
        self.salt = 0
        self.agents.clear()

    def describe(self) -> str:
        parts = []
        if self.salt:
            parts.append(f"salt {self.salt_effect:+d}")
        parts.extend(f"chit {AGENTS} ({s}) {self.agents_effect(s):+d}" for s in self.agents)
        return ", ".join(parts) or "no modifier"


# ---------------------------------------------------------------- Emperor Creation Table (14.4)


@attrs.frozen
class SuccessionFacts:
    """The public facts the Emperor Creation Table reads (``ldf:14.4``).

    ``loyal_mobile``: loyal Roman mobile units per hex; ``loyal_any``: hexes
    with any loyal Roman unit (static or mobile); ``rome``: the Rome/Ostia hex;
    ``enemy_in_rome``: an enemy unit (German, Parthian, anti-Roman Palmyran or
    rebel) is in Rome/Ostia; ``co_emperor``: the co-emperor's hex, if on the map;
    ``co_emperor_loyal``: whether he is loyal.
    """

    loyal_mobile: Mapping[Hex, int]
    loyal_any: frozenset[Hex]
    rome: Hex
    enemy_in_rome: bool = False
    co_emperor: Hex | None = None
    co_emperor_loyal: bool = False


@attrs.frozen
class Succession:
    """What a result of the Emperor Creation Table calls for (``ldf:14.4``)."""

    code: str
    """The table's result code (``PRAETORIANS`` ... ``ORDERLY``)."""
    applied: str
    """The code whose placement was used (``LEGIONS`` when a result falls back to 2)."""
    hexes: tuple[Hex, ...]
    """Where the emperor may be placed; more than one: the Roman player chooses."""
    replaces_co_emperor: bool = False
    """Result 5: the loyal co-emperor leaves the map and the emperor takes his hex."""
    rebel_roll: bool = False
    """Result 4: the Germano-Parthian may at once roll to create a rebel co-emperor."""


def _legions(facts: SuccessionFacts, banned: frozenset[Hex]) -> tuple[Hex, ...]:
    """Result 2: the hex with the most loyal Roman mobile units; "if two or more
    hexes" tie (errata), all of them (the Roman chooses). With no loyal mobile
    unit anywhere: any hex with a loyal Roman unit; with none at all, Rome/Ostia
    (ruling, docs/games/ldf.md)."""
    counts = {h: n for h, n in facts.loyal_mobile.items() if n > 0 and h not in banned}
    if counts:
        top = max(counts.values())
        return tuple(sorted(h for h, n in counts.items() if n == top))
    anywhere = sorted(facts.loyal_any - banned)
    if anywhere:
        return tuple(anywhere)
    return (facts.rome,)


def succession(code: str, facts: SuccessionFacts) -> Succession:
    """Where the new emperor goes for one result of the Emperor Creation Table
    (``ldf:14.4``, ``ldf:8.9``). No result places him with the co-emperor: the
    two leaders never share a hex (``ldf:8.3``); result 5 removes the loyal
    co-emperor first."""
    banned = frozenset({facts.co_emperor}) if facts.co_emperor is not None else frozenset()
    if code == "PRAETORIANS" and facts.rome in facts.loyal_any and facts.rome not in banned:
        return Succession(code, code, (facts.rome,))
    if code == "SENATE" and not facts.enemy_in_rome and facts.rome not in banned:
        return Succession(code, code, (facts.rome,))
    if code == "COLLEAGUE" and facts.co_emperor is not None and facts.co_emperor_loyal:
        return Succession(code, code, (facts.co_emperor,), replaces_co_emperor=True)
    if code == "ORDERLY":
        choice = tuple(sorted(h for h, n in facts.loyal_mobile.items() if n > 0 and h not in banned))
        if choice:
            return Succession(code, code, choice)
    if code not in ("PRAETORIANS", "LEGIONS", "SENATE", "STRIFE", "COLLEAGUE", "ORDERLY"):
        raise ValueError(f"no Emperor Creation Table result {code!r} (ldf:14.4)")
    return Succession(code, "LEGIONS", _legions(facts, banned), rebel_roll=code == "STRIFE")


def counts_by_hex(pairs: Iterable[Hex]) -> dict[Hex, int]:
    """How many items stand in each hex (helper for :class:`SuccessionFacts`)."""
    out: dict[Hex, int] = {}
    for h in pairs:
        out[h] = out.get(h, 0) + 1
    return out
