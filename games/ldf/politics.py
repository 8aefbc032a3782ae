"""Lest Darkness Fall politics: emperors, co-emperors, rebels, treachery and diplomacy.

Rules served (``ldf:`` IDs):

- 8.3  rebel conversion: :func:`convert` rolls for one hex a moving rebel
  co-emperor has come next to (even: the hex's loyal Roman units turn rebel);
  movement.py finds the hexes (``movement.conversion_targets``) and calls it once
  per hex moved adjacent to; :func:`.economy.rebel_takes_rome` when he enters Rome/Ostia;
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
- 8.4  a leader shares the fate of the last friendly unit in his hex
  (:func:`share_fate`), with what follows for the emperor (14.4) or a rebel
  co-emperor (8.7).

Every diplomacy and treachery roll succeeds on a final 5 or 6
(:data:`SUCCESS_FROM`). The functions that need no game state (the
probabilities, the modifier arithmetic, the table's candidate hexes) come
first; the actions follow.
"""

from __future__ import annotations

import re
from collections.abc import Generator, Mapping, Sequence
from fractions import Fraction
from typing import Any, Final

import attrs

from ancients_kit.hexgrid import Hex
from ancients_kit.protocol import Context, Decision, Option
from ancients_kit.windows import Play, Window, chain

from . import chits, stacking, treasury
from .state import GP, ROMAN, ROME, LDFState
from .vocab import Kind

__all__ = [
    "AGENTS",
    "AGENTS_EFFECT",
    "CAP",
    "Modifiers",
    "SALT_MAX",
    "SUCCESS_FROM",
    "Succession",
    "SuccessionFacts",
    "can_create_co_emperor",
    "can_create_rebel",
    "can_diplomacy_co_emperor",
    "can_diplomacy_german",
    "can_treachery_emperor",
    "can_treachery_rebel",
    "convertible",
    "conversion_succeeds",
    "convert",
    "create_co_emperor",
    "create_rebel",
    "diplomacy_co_emperor",
    "diplomacy_german",
    "emperor_creation_action",
    "emperor_eliminated",
    "modified_roll",
    "political_roll",
    "rebel_co_emperor_removed",
    "rebels_return",
    "recovery_roll",
    "result",
    "roll_succeeded",
    "score",
    "share_fate",
    "side_change_problem",
    "succeeds",
    "success_chance",
    "succession",
    "succession_facts",
    "treachery_emperor",
    "treachery_rebel",
]

SUCCESS_FROM: Final = 5
"""Diplomacy, treachery and the rebel co-emperor's creation succeed on 5 or 6
(``ldf:8.7``, ``8.9``-``8.12``, ``9.4``)."""
NATURAL_SUCCESS: Final = 6
"""A six on the die succeeds whatever the modifiers: "no such die roll can ever be made a sure
thing" (``ldf:8.8``) binds the Roman's negative salt too (ruling, docs/games/ldf.md, issue 23)."""
SALT_MAX: Final = 3
"""At most three TP of salt in one roll (``ldf:8.8``)."""
CAP: Final = 3
"""No combination of salting and chit play moves a roll by more than 3 (``ldf:8.8``)."""
AGENTS: Final = 17
"""Agents in Enemy Camp (``ldf:8.8``, ``ldf:14.3``)."""
AGENTS_EFFECT: Final = 2
"""+2 on one's own diplomacy/treachery roll, -2 on the opponent's (``ldf:14.3``)."""


def result(die: int, modifier: int = 0) -> int:
    """The final result of a diplomacy or treachery roll: ``die + modifier``,
    with results above six read as six (``ldf:8.8``) and below one as one."""
    if not 1 <= die <= 6:
        raise ValueError(f"a d6 roll is 1-6, got {die} (ldf:8.8)")
    if abs(modifier) > CAP:
        raise ValueError(f"a diplomacy or treachery roll may be moved by at most {CAP}, got {modifier:+d} (ldf:8.8)")
    return max(1, min(6, die + modifier))


def succeeds(die: int, modifier: int = 0) -> bool:
    """Whether a diplomacy or treachery roll succeeds: final 5 or 6 (``ldf:8.9``-``8.12``), and
    always on a six (``ldf:8.8``: no roll "can ever be made a sure thing", a failure neither;
    +3 at most already leaves a 1 failing)."""
    return die == NATURAL_SUCCESS or result(die, modifier) >= SUCCESS_FROM


def roll_succeeded(die: int, final: int) -> bool:
    """:func:`succeeds` from the die and the final result already read (``ldf:8.8``)."""
    return die == NATURAL_SUCCESS or final >= SUCCESS_FROM


def success_chance(modifier: int = 0) -> Fraction:
    """Exact chance that a roll with ``modifier`` succeeds (``ldf:8.8``): 1/3 unmodified,
    1/2, 2/3 and 5/6 salted by +1, +2, +3; 1/6 at -1, -2 or -3 (the six still succeeds)."""
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
    free_core: frozenset[Hex] = frozenset()
    """Core land hexes without enemy units: the last resort when no loyal Roman unit is left
    anywhere and Rome/Ostia is held by the enemy."""


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
    unit anywhere: any hex with a loyal Roman unit; with none at all, Rome/Ostia, or if
    the enemy holds it any core hex free of enemy units (ruling, docs/games/ldf.md)."""
    counts = {h: n for h, n in facts.loyal_mobile.items() if n > 0 and h not in banned}
    if counts:
        top = max(counts.values())
        return tuple(sorted(h for h, n in counts.items() if n == top))
    anywhere = sorted(facts.loyal_any - banned)
    if anywhere:
        return tuple(anywhere)
    if not facts.enemy_in_rome or not facts.free_core - banned:
        return (facts.rome,)
    return tuple(sorted(facts.free_core - banned))


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


# ================================================================ in play (needs the game state)


def _loyal_roman(u: Any) -> bool:
    return u.nationality == "roman" and not u.rebel and u.on_map


def modified_roll(ctx: Context, state: LDFState, actor: str, what: str, rules: tuple[str, ...]
                  ) -> Generator[Decision, str, tuple[int, int, Modifiers]]:
    """One diplomacy or treachery roll by ``actor`` with the whole chain of ``ldf:8.8``;
    returns the die, the final result and the modifiers that stood:

    1. the Roman announces his salting first (1-3 TP, +1 each on his own roll, -1
       each on the Germano-Parthian's; the Germano-Parthian pauses for it), the TP
       spent at once (:func:`.treasury.spend`);
    2. the ``before-roll`` window: either player, the actor first, may declare
       Agents in Enemy Camp (17: +2 own, -2 opponent's), never past the +3 cap;
    3. the die is rolled (:func:`chits.roll_die`): the ``after-roll`` window lets
       either player answer with Beseech the Gods (2); the reroll keeps no earlier
       salt or chit 17, so steps 1-2 are put again before it, within the same action;
    4. the final result is the die plus the modifiers, above six read as six.
    """
    mods = Modifiers(actor)
    opponent = GP if actor == ROMAN else ROMAN

    def declare() -> Generator[Decision, str, None]:
        if mods.salt or mods.agents:
            ctx.event("modifiers", f"the reroll keeps none of: {mods.describe()}", ("ldf:8.8",))
        mods.clear()
        choices = mods.salt_choices(state.treasury)
        if choices:
            sign = "+" if actor == ROMAN else "-"
            key = yield Decision(
                ROMAN, f"Salt the {actor} player's roll for {what}? ({state.treasury} TP)",
                (Option("salt-0", "no salt"),
                 *(Option(f"salt-{n}", f"spend {n} TP: {sign}{n} to the roll") for n in choices)),
                rule="ldf:8.8", kind=Kind.SALT)
            n = int(key.removeprefix("salt-"))
            if n:
                mods.add_salt(n)
                # "the spent TP are indeed spent" (8.8)
                treasury.spend(ctx, state, n, f"salt {mods.salt_effect:+d} on the {what} roll", ("ldf:8.8",))

        def plays(side: str) -> list[Option]:
            if AGENTS in state.hands[side] and mods.may_play_agents(side):
                return [Option(f"chit-{AGENTS}", f"play chit {AGENTS}, {chits.chit_name(state, AGENTS)}: "
                               f"{mods.agents_effect(side):+d} to the roll")]
            return []

        def resolve(play: Play) -> Generator[Decision, str, None]:
            mods.add_agents(play.side)
            chits.spend(ctx, state, play.side, AGENTS, f"{mods.agents_effect(play.side):+d} to the {what} roll",
                        ("ldf:8.8",))
            return None
            yield  # pragma: no cover

        window = Window("before-roll", "a diplomacy or treachery roll, before it is made", "ldf:8.8",
                        (actor, opponent), detail=what)
        yield from chain(window, chits.standing(state), plays, resolve, ctx=ctx)

    yield from declare()
    die = yield from chits.roll_die(ctx, state, actor, f"{actor} {what}", rules, redeclare=declare)
    return die, result(die, mods.total), mods


def political_roll(ctx: Context, state: LDFState, actor: str, what: str, rules: tuple[str, ...]
                   ) -> Generator[Decision, str, bool]:
    """A diplomacy or treachery roll (:func:`modified_roll`): success on a final 5-6
    (``ldf:8.7``, ``8.9``-``8.12``, ``9.4``)."""
    die, final, mods = yield from modified_roll(ctx, state, actor, what, rules)
    ok = roll_succeeded(die, final)
    natural = " (a six always succeeds)" if ok and final < SUCCESS_FROM else ""
    ctx.event("politics", f"{actor} {what}: {die} ({mods.describe()}) = {final}: "
              f"{'success' if ok else 'failure'}{natural}",
              tuple(dict.fromkeys((*rules, "ldf:8.8"))) if mods.total else rules, side=actor, dice=(die,))
    return ok


def recovery_roll(ctx: Context, state: LDFState) -> Generator[Decision, str, tuple[int, int]]:
    """The Parthian recovery roll of 7.3 (called by ``admin.parthian_recovery``): the
    Roman may salt it negatively and either player play chits on it (``ldf:7.3``,
    ``ldf:8.8``; ruling: 7.3's "salted ... by either player" means the Roman's negative
    salt and both players' chits 17 and 2, since 8.8 gives the Germano-Parthian no
    salt). Returns the die and the final result (5-6 recovers, and a six always:
    :func:`roll_succeeded`)."""
    die, final, mods = yield from modified_roll(ctx, state, GP, "Parthian recovery", ("ldf:7.3",))
    if mods.total:
        ctx.event("politics", f"Parthian recovery: {die} ({mods.describe()}) = {final}", ("ldf:7.3", "ldf:8.8"),
                  side=GP, dice=(die,))
    return die, final


def rebels_return(ctx: Context, state: LDFState, rules: tuple[str, ...]) -> None:
    """Every rebel Roman unit, static and mobile, outside the Gallic Empire flips back to
    loyal (``ldf:8.7``, ``ldf:8.11``): when a rebel co-emperor leaves play for any reason."""
    flipped = [u.id for u in state.units.values() if u.nationality == "roman" and u.rebel and not u.gallic
               and u.kind != "co-emperor" and u.on_map]
    for uid in flipped:
        state.units[uid].rebel = False
    ctx.event("loyalty", f"{len(flipped)} rebel unit(s) return to loyalty", rules, units=tuple(flipped))


def rebel_co_emperor_removed(ctx: Context, state: LDFState, where: str, rules: tuple[str, ...]) -> None:
    """The rebel co-emperor leaves play, by combat or treachery (``ldf:8.7``): he goes to
    ``where`` (``dead`` after treachery, 8.11; combat: the dead pile) and every
    non-Gallic rebel flips back. combat.py calls this when it eliminates him."""
    ce = state.units["CE"]
    state.remove("CE", where)  # type: ignore[arg-type]
    ce.rebel = False
    rebels_return(ctx, state, rules)


def _co_emperor_hexes(state: LDFState) -> list[str]:
    """8.7: a loyal co-emperor is placed in any hex with loyal Roman mobile units, not the
    emperor's (the leaders never share a hex, 8.3; ``stacking.placement_problem``)."""
    ce = state.units["CE"]
    return sorted(h for h in {u.hex for u in state.on_map() if _loyal_roman(u) and u.mobile and u.hex}
                  if stacking.placement_problem(state, h, [ce], rebel=False) is None)


def side_change_problem(state: LDFState, hex_id: str, rebel: bool = True,
                        joining: tuple[Any, ...] = ()) -> tuple[str, str] | None:
    """Why the Roman units of ``hex_id`` may not turn rebel (``rebel``) where they stand, or
    ``None`` (``ldf:8.3``, ``8.7``, ``8.10``; ruling, docs/games/ldf.md, issue 23): the hex
    must stay a legal stack (10.1: a client garrison or a Palmyran there stays the Roman's, and
    enemies never stack), and no non-Gallic rebel ever stands in an active Gallic Empire (9.5:
    they may not enter it; a rising or a conversion there would put them in it). ``joining``:
    Roman counters placed there on that side at the same time (the rebel co-emperor of 8.7)."""
    if rebel and state.gallic_active and state.in_region(hex_id, "gallic-empire"):
        return ("no non-Gallic rebel stands in an active Gallic Empire", "ldf:9.5")
    flipping = [u for u in state.units_at(hex_id) if u.nationality == "roman" and u.kind != "emperor"
                and not u.gallic]
    return stacking.flip_problem(state, hex_id, [*flipping, *joining], rebel)


def convertible(m: Any, pos: Any, h: Hex) -> bool:
    """Whether the loyal Roman units in hex ``h`` of position ``pos`` could turn rebel where
    they stand (``ldf:8.3``; :func:`side_change_problem` for a game state): no unit of the
    Roman side's other camps (a client garrison, an allied Palmyran) shares the hex, and it is
    not in an active Gallic Empire. movement.py's ``conversion_targets`` rolls for no other hex."""
    if pos.gallic_active and h in m.region("gallic-empire"):
        return False
    return not any(u.camp in ("client", "palmyran") for u in pos.at(h))


def _rebel_hexes(state: LDFState) -> list[str]:
    """8.7: a rebel co-emperor is placed in a hex with loyal Roman units other than the
    emperor and not Rome/Ostia (ruling: never the emperor's hex, 8.3), where the units can
    turn rebel as a legal stack (:func:`side_change_problem`: not with a Caucasus garrison,
    not in an active Gallic Empire)."""
    emperor = state.leader("emperor")
    banned = {ROME, emperor.hex if emperor else None}
    ce = state.units["CE"]
    hexes = {u.hex for u in state.on_map() if _loyal_roman(u) and not u.leader and u.hex and not u.gallic} - banned
    return sorted(h for h in hexes if h is not None and side_change_problem(state, h, joining=(ce,)) is None)


def _no_co_emperor(state: LDFState) -> bool:
    return state.leader("co-emperor") is None


def can_create_co_emperor(state: LDFState, side: str) -> bool:
    return side == ROMAN and _no_co_emperor(state) and state.units["CE"].where != "removed" \
        and bool(_co_emperor_hexes(state))


def create_co_emperor(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """Roman action (``ldf:8.7``): place the co-emperor, loyal side up, with loyal mobile units."""
    where = yield from chits.choose_hex(ROMAN, "Place the loyal co-emperor", _co_emperor_hexes(state), "ldf:8.7",
                                   Kind.CO_EMPEROR_HEX)
    state.units["CE"].rebel = False
    stacking.place(state, where, ["CE"], "ldf:8.7")
    ctx.event("co-emperor", f"the Roman player creates a loyal co-emperor in {where}", ("ldf:8.7",), side=ROMAN,
              hex=where)


def can_create_rebel(state: LDFState, side: str) -> bool:
    return side == GP and _no_co_emperor(state) and state.units["CE"].where != "removed" \
        and bool(_rebel_hexes(state))


def create_rebel(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """Germano-Parthian action (``ldf:8.7``): on a 5-6 a rebel co-emperor rises in a hex of
    loyal Romans (not the emperor's, not Rome/Ostia) and its units turn rebel. Not a
    diplomacy or treachery roll, so not salted (ruling); chit 2 may reroll it."""
    die = yield from chits.roll_die(ctx, state, GP, "rebel co-emperor", ("ldf:8.7",))
    if die < SUCCESS_FROM:
        ctx.event("co-emperor", f"the Germano-Parthian tries to raise a rebel co-emperor: {die}, no rising",
                  ("ldf:8.7",), side=GP, dice=(die,))
        return
    hexes = _rebel_hexes(state)
    if not hexes:
        ctx.event("co-emperor", f"rebel co-emperor: {die}, but no hex of loyal Romans may receive him",
                  ("ldf:8.7",), side=GP, dice=(die,))
        return
    where = yield from chits.choose_hex(GP, "Place the rebel co-emperor", hexes, "ldf:8.7", Kind.REBEL_HEX)
    flipped = [u.id for u in state.units_at(where) if u.nationality == "roman" and u.kind != "co-emperor"]
    for uid in flipped:  # the hex's units turn rebel first, so the placement check reads them as they end
        state.units[uid].rebel = True
    state.units["CE"].rebel = True
    stacking.place(state, where, ["CE"], "ldf:8.7")
    ctx.event("co-emperor", f"{die}: a rebel co-emperor rises in {where}; {len(flipped)} unit(s) there turn rebel",
              ("ldf:8.7",), side=GP, dice=(die,), hex=where)


def can_treachery_rebel(state: LDFState, side: str) -> bool:
    ce = state.leader("co-emperor")
    return side == ROMAN and ce is not None and ce.rebel


def treachery_rebel(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """Roman action (``ldf:8.7``, ``ldf:8.11``): on 5-6 the rebel co-emperor goes to the dead
    pile and every non-Gallic rebel flips back to loyal."""
    ok = yield from political_roll(ctx, state, ROMAN, "treachery against the rebel co-emperor",
                                   ("ldf:8.11", "ldf:8.7"))
    if ok:
        rebel_co_emperor_removed(ctx, state, "dead", ("ldf:8.11", "ldf:8.7"))


def can_treachery_emperor(state: LDFState, side: str) -> bool:
    return side == GP and state.leader("emperor") is not None


def treachery_emperor(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """Germano-Parthian action (``ldf:8.9``): on 5-6 the emperor is eliminated and the
    Emperor Creation Table is consulted within the same action."""
    ok = yield from political_roll(ctx, state, GP, "treachery against the emperor", ("ldf:8.9",))
    if ok:
        yield from emperor_eliminated(ctx, state, ("ldf:8.9", "ldf:14.4"))


def can_diplomacy_co_emperor(state: LDFState, side: str) -> bool:
    """8.10 against a loyal co-emperor whose stack can turn rebel where it stands (ruling:
    not with a Caucasus garrison or in an active Gallic Empire, :func:`side_change_problem`)."""
    ce = state.leader("co-emperor")
    return side == GP and ce is not None and not ce.rebel and ce.hex is not None \
        and side_change_problem(state, ce.hex) is None


def diplomacy_co_emperor(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """Germano-Parthian action (``ldf:8.10``): on 5-6 the loyal co-emperor and every Roman
    unit stacked with him turn rebel."""
    ok = yield from political_roll(ctx, state, GP, "diplomacy with the loyal co-emperor", ("ldf:8.10",))
    if not ok:
        return
    ce = state.units["CE"]
    assert ce.hex is not None
    flipped = [u.id for u in state.units_at(ce.hex) if u.nationality == "roman"]
    for uid in flipped:
        state.units[uid].rebel = True
    ctx.event("loyalty", f"the co-emperor in {ce.hex} and {len(flipped) - 1} unit(s) with him turn rebel",
              ("ldf:8.10",), side=GP, hex=ce.hex)


def _germans_in_core(state: LDFState) -> list[str]:
    core = state.region("core")
    return sorted(u.id for u in state.of_kind("german-tribe") if u.hex in core)


def can_diplomacy_german(state: LDFState, side: str) -> bool:
    return side == ROMAN and bool(_germans_in_core(state))


def diplomacy_german(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """Roman action (``ldf:8.12``): against one German tribe inside Roman core territory; on
    5-6 it goes to the dead pile (back by 7.1 next turn)."""
    tribes = _germans_in_core(state)
    uid = tribes[0]
    if len(tribes) > 1:
        uid = yield Decision(ROMAN, "Diplomacy against which German tribe?",
                             tuple(Option(t, f"{t} in {state.units[t].hex}") for t in tribes), rule="ldf:8.12",
                             kind=Kind.DIPLOMACY_TRIBE)
    where = state.units[uid].hex
    ok = yield from political_roll(ctx, state, ROMAN, f"diplomacy against tribe {uid} in {where}", ("ldf:8.12",))
    if ok:
        state.eliminate(uid)
        ctx.event("diplomacy", f"tribe {uid} in {where} succumbs to diplomacy: to the dead pile", ("ldf:8.12",),
                  side=ROMAN, hex=where)


# ---------------------------------------------------------------- the emperor replaced (8.9, 14.4)


def succession_facts(state: LDFState) -> SuccessionFacts:
    """The public facts the Emperor Creation Table reads, from the state (``ldf:14.4``)."""
    mobile: dict[Hex, int] = {}
    anywhere: set[Hex] = set()
    for u in state.on_map():
        if _loyal_roman(u) and not u.leader and u.hex:
            h = state.hex(u.hex)
            anywhere.add(h)
            if u.mobile:
                mobile[h] = mobile.get(h, 0) + 1
    ce = state.leader("co-emperor")
    free = frozenset(state.hex(h) for h in state.region("core")
                     if state.map.terrain(state.hex(h)) == "land" and not state.enemy_in(h, ROMAN)) \
        if not anywhere else frozenset()
    return SuccessionFacts(mobile, frozenset(anywhere), state.hex(ROME), enemy_in_rome=state.enemy_in(ROME, ROMAN),
                           co_emperor=state.hex(ce.hex) if ce and ce.hex else None,
                           co_emperor_loyal=bool(ce and not ce.rebel), free_core=free)


def emperor_eliminated(ctx: Context, state: LDFState, rules: tuple[str, ...]) -> Generator[Decision, str, None]:
    """The emperor is eliminated (treachery 8.9, combat, the plague): the Roman rolls on
    the Emperor Creation Table at once (``ldf:14.4``), no action spent, and places the
    new emperor as the result says; among two or more hexes he chooses (errata).
    combat.py calls this after taking the emperor off the map with his force."""
    if state.units["E"].on_map:
        state.remove("E", "aside")
    die = yield from chits.roll_die(ctx, state, ROMAN, "Emperor Creation Table", ("ldf:14.4",))
    res = state.data.emperor_table.resolve(die)
    facts = succession_facts(state)
    if "ldf:8.9" not in rules:  # 8.7: a co-emperor leaves play "only" by combat or treachery (audit D8)
        facts = attrs.evolve(facts, co_emperor_loyal=False)  # so result 5 reads as result 2 after the plague
    s = succession(res.result, facts)
    if s.replaces_co_emperor:
        state.remove("CE", "aside")
    ids = _emperor_hexes(state, [state.map.to_id(h) for h in s.hexes])
    where = yield from chits.choose_hex(ROMAN, "Emperor Creation Table: choose the new emperor's hex", ids,
                                         "ldf:errata" if s.applied == "LEGIONS" else "ldf:14.4", Kind.EMPEROR_HEX)
    stacking.place(state, where, ["E"], "ldf:14.4")
    text = f"Emperor Creation Table {die}: {res.result}"
    if s.applied != s.code:
        text += f" (as {s.applied})"
    ctx.event("emperor", f"{text}: the new emperor takes the purple in {where}"
              + ("; the co-emperor succeeds and leaves his counter" if s.replaces_co_emperor else ""),
              # the errata changes only the LEGIONS result ("if two or more hexes"): cited only there
              tuple(dict.fromkeys((*rules, "ldf:14.4") + (("ldf:errata",) if s.applied == "LEGIONS" and len(ids) > 1
                                                          else ()))),
              side=ROMAN, dice=(die,), hex=where)
    if s.rebel_roll and state.leader("co-emperor") is None and _rebel_hexes(state):
        key = yield Decision(GP, "Disputed succession: roll for a rebel co-emperor now (no action)?",
                             (Option("roll", "roll: 5-6 raises a rebel co-emperor"), Option("no", "do not roll")),
                             rule="ldf:14.4", kind=Kind.EMPEROR_STRIFE)
        if key == "roll":
            yield from create_rebel(ctx, state, GP)


def _emperor_hexes(state: LDFState, hexes: list[str]) -> list[str]:
    """The table's hexes where the new emperor may stand (``stacking.placement_problem``: an
    allied Palmyran in Rome/Ostia, say, keeps him out, 10.4); if none of them can take him, any
    hex of loyal Roman units that can, else any core hex free of enemy units that can."""
    e = state.units["E"]

    def fit(hs: Any) -> list[str]:
        return sorted(h for h in hs if stacking.placement_problem(state, h, [e]) is None)

    out = fit(hexes)
    if not out:
        out = fit({u.hex for u in state.on_map() if _loyal_roman(u) and not u.leader and u.hex})
    if not out:
        out = fit(h for h in state.region("core") if state.map.terrain(state.hex(h)) == "land"
                  and not state.enemy_in(h, ROMAN))
    return out or hexes


# ---------------------------------------------------------------- conversion while moving (8.3)


def convert(ctx: Context, state: LDFState, hex_id: str) -> Generator[Decision, str, bool]:
    """One conversion roll (``ldf:8.3``) for the loyal Roman units of ``hex_id``, next to
    the moving rebel co-emperor: even, they all turn rebel together (static units and
    garrisons too, ruling); odd, they stay loyal (and the move ends, which movement.py
    decides). Returns whether they converted."""
    why = side_change_problem(state, hex_id)
    if why is not None:  # movement.conversion_targets skips such hexes; never a roll, never a flip
        ctx.event("conversion", f"{hex_id} cannot be converted: {why[0]}", ("ldf:8.3", why[1]), side=GP, hex=hex_id)
        return False
    die = yield from chits.roll_die(ctx, state, GP, f"conversion of {hex_id}", ("ldf:8.3",))
    units = [u for u in state.units_at(hex_id) if _loyal_roman(u) and u.kind != "emperor"]
    ok = conversion_succeeds(die)
    if ok:
        for u in units:
            u.rebel = True
    ctx.event("conversion", f"conversion roll for {hex_id}: {die}, "
              + (f"even: {len(units)} unit(s) turn rebel" if ok else "odd: they stay loyal"),
              ("ldf:8.3",), side=GP, dice=(die,), hex=hex_id)
    return ok


def emperor_creation_action(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """The free entry of the Action Summary (``ldf:14.4``): never chosen from the menu; the
    rules call :func:`emperor_eliminated`."""
    yield from emperor_eliminated(ctx, state, ("ldf:8.9", "ldf:14.4"))


# ---------------------------------------------------------------- a leader never alone (8.4)


def share_fate(ctx: Context, state: LDFState, rules: Sequence[str],
               why: str = "") -> Generator[Decision, Any, list[str]]:
    """8.4: "a leader shares the fate of the last friendly unit, mobile or static, in his hex",
    wherever that unit went: eliminated, demobilised (6.7), lost to emergency taxation (6.6) or
    to the plague (chit 10). Each leader left alone goes to the dead pile at once, with what
    follows: the Emperor Creation Table for the emperor (8.9, 14.4), every non-Gallic rebel
    back to loyal for a rebel co-emperor (8.7). No emperor or co-emperor is ever left alone on
    the map. ``rules``: the rules of what took the unit away. Returns the leaders lost."""
    lost = stacking.lone_leaders(state)
    for uid in lost:
        lead = state.unit(uid)
        h = lead.hex
        rebel = lead.rebel
        state.eliminate(uid)
        ctx.event("eliminated", f"{uid} shares the fate of the last unit in {h}" + (f" ({why})" if why else ""),
                  tuple(dict.fromkeys((*rules, "ldf:8.4"))), units=(uid,), hex=h)
        if uid == "E":
            yield from emperor_eliminated(ctx, state, ("ldf:8.4", "ldf:14.4"))
        elif rebel:
            rebel_co_emperor_removed(ctx, state, "dead", ("ldf:8.4", "ldf:8.7"))
        if state.over:
            break
    return lost


# ---------------------------------------------------------------- hints for the greedy bot

_MY_KINDS = ("salt", "co-emperor.", "rebel.", "emperor.", "diplomacy.", "chit.", "siege.", "window.")


def score(state: LDFState, decision: Decision, key: str) -> float | None:
    """Cheap scores for the decisions of politics.py, chits.py and clients.py (the greedy bot's
    ``Game.score_option``: ``bot.score`` delegates here by kind): salt while the treasury can
    spare it, play battle and roll chits when offered, never mute a window, pay for the games
    when rich. Hints, not rules: every option offered is legal. ``None`` for other kinds."""
    kind = decision.kind
    if not kind.startswith(_MY_KINDS):
        return None
    if key == "back":
        return -1.0
    if kind == Kind.SALT:
        n = int(key.removeprefix("salt-"))
        return float(min(n, state.treasury - 2 - n))
    if kind == "window.after-roll":
        if key in ("no", "never"):
            return 0.5 if key == "no" else -1.0
        # reroll one's own 1-2 or the opponent's 5-6 (the prompt names the roller and the face)
        m = re.search(r"\((roman|germano-parthian)'s d6 [^\d(]*(\d)", decision.prompt)
        if m is None:
            return 0.0
        own, face = m.group(1) == decision.side, int(m.group(2))
        return 1.0 if (own and face <= 2) or (not own and face >= 5) else 0.0
    if kind.startswith("window."):
        if key == "never":
            return -1.0
        return 0.0 if key == "no" else 1.0
    if kind == Kind.CHIT_BREAD:
        return 1.0 if (key == "pay") == (state.treasury >= 6) else 0.0
    if kind == Kind.CHIT_WINDFALL:
        return float(key.removeprefix("tp-"))
    if kind == Kind.CHIT_JAWS:
        return 1.0 if key == "done" else 0.0
    if kind in (Kind.EMPEROR_HEX, Kind.CO_EMPEROR_HEX, Kind.REBEL_HEX) and key.isdigit():
        return float(sum(1 for u in state.units_at(key) if u.mobile))
    return 0.0
