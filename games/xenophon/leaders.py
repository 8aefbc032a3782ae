"""Xenophon leaders: OP multipliers, Supreme Leaders, Xenophon, Successor and Anabasis,
assassination and personal combat.

Rules: ``xen:leaders``, ``xen:supreme-leaders``, ``xen:xenophon``,
``xen:opt.personal-combat`` (docs/games/xenophon.md, "Rulings: combat").

* A leader doubles a force's OP die, Xenophon triples it (``xen:leaders``,
  ``xen:xenophon``): :func:`op_multiplier`.
* A leader adds his CS to his force and gives it one CS multiplier
  (``xen:leaders``; :mod:`combat`).
* A leader is eliminated like any unit and returns only by Leader Arises
  (chit or event). A Supreme Leader's death costs his player every chit held,
  unless he plays Anabasis first (``xen:supreme-leaders``, ``xen:stratagem``);
  Successor makes a friendly leader the new Supreme Leader. Xenophon, when
  eliminated, escapes to the nearest friendly force on 1-3 and dies on 4-6
  (ruling 1, the printed escape roll read for Xenophon); he is never replaced.
* Assassination (the Diplomacy Table's D3): 1-2 kills a Supreme Leader, 1-3 a
  regular leader; otherwise the victim's player draws a chit.
* Personal combat (optional): each player's chosen leader rolls a d6, Cyrus +1;
  the high roll kills the other leader, a tie kills neither.

Under every phase, this module is also the one way rules code takes units out of
play (:func:`eliminate_units`; one unit on its own, :func:`eliminate_unit`) and
brings a leader or a rallying unit in with a friendly force
(:func:`receive_leader`, :func:`place_with_friendly`); the Supreme Leader's loss
opens Anabasis's window (:func:`supreme_leader_eliminated`).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Sequence
from fractions import Fraction

from ancients_kit.protocol import Context, Decision, Option

from . import chits
from .battle import Battle
from .state import REBEL, SUPREME, Unit, XenState, other_side
from .vocab import Kind


__all__ = [
    "PERSONAL_DRM",
    "XENOPHON",
    "assassinate",
    "assassination_chance",
    "assassination_succeeds",
    "available_leaders",
    "eliminate",
    "eliminate_unit",
    "eliminate_units",
    "friendly_hexes",
    "is_supreme",
    "nearest_friendly_hex",
    "op_multiplier",
    "personal_combat",
    "personal_combat_chances",
    "place_with_friendly",
    "receive_leader",
    "successor",
    "supreme_leader_eliminated",
]

XENOPHON = "Xenophon"
"""The leader whose force triples its OP die (``xen:xenophon``)."""

PERSONAL_DRM: dict[str, int] = {"Cyrus": 1}
"""Die modifiers in personal combat (``xen:opt.personal-combat``: "Cyrus: +1 DRM")."""

ESCAPE_ROLLS = (1, 2, 3)
"""Xenophon's escape roll on elimination: 1-3 escapes to the nearest friendly force (ruling 1)."""


def personal_combat_chances(drm: int = 0, other_drm: int = 0) -> dict[str, Fraction]:
    """Exact chances that a leader rolling d6 + ``drm`` beats, ties or loses to
    one rolling d6 + ``other_drm`` (``xen:opt.personal-combat``)."""
    out = {"win": Fraction(0), "tie": Fraction(0), "lose": Fraction(0)}
    for a in range(1, 7):
        for b in range(1, 7):
            x, y = a + drm, b + other_drm
            out["win" if x > y else "tie" if x == y else "lose"] += Fraction(1, 36)
    return out


def assassination_succeeds(roll: int, supreme: bool) -> bool:
    """D3's assassination (``xen:diplomacy``): 1d6, 1-2 kills a Supreme Leader, 1-3 another leader."""
    if not 1 <= roll <= 6:
        raise ValueError(f"a d6 roll is 1-6, not {roll} (xen:diplomacy)")
    return roll <= (2 if supreme else 3)


def assassination_chance(supreme: bool) -> Fraction:
    """Exact chance that D3's assassination kills the leader chosen (``xen:diplomacy``): 1-2 a
    Supreme Leader (1/3), 1-3 another leader (1/2)."""
    return Fraction(sum(assassination_succeeds(r, supreme) for r in range(1, 7)), 6)


# ================================================================= on the game state

LEADER_RULES = ("xen:leaders",)
STACK_LIMIT = 10
"""xen:stacking: an escaping Xenophon joins only a hex with room for him."""


def _unit(state: XenState, u: str | Unit) -> Unit:
    return u if isinstance(u, Unit) else state.unit(u)


def op_multiplier(state: XenState, force: Iterable[str | Unit]) -> int:
    """How many times a force's OP die counts (``xen:leaders``, ``xen:xenophon``): 3 for a
    Rebel force with Xenophon, 2 for a force with any other leader, else 1."""
    units = [_unit(state, u) for u in force]
    if any(u.id == XENOPHON and u.side == REBEL for u in units):
        return 3
    if any(u.leader for u in units):
        return 2
    return 1


def is_supreme(state: XenState, u: str | Unit) -> bool:
    """Whether a leader is his side's Supreme Leader (``xen:supreme-leaders``)."""
    unit = _unit(state, u)
    return unit.leader and state.supreme.get(unit.side) == unit.id


def _distance(state: XenState, a: str, b: str) -> int:
    m = state.map
    return m.from_id(a).distance(m.from_id(b))


def nearest_friendly_hex(state: XenState, side: str, origin: str, exclude: Iterable[str] = ()) -> str | None:
    """The hex of the nearest friendly force to ``origin`` with room for one more unit
    (xen:stacking), ties to the lowest hex ID; never ``origin`` itself, nor a hex holding
    only ``exclude``'s units. None if there is none."""
    skip = set(exclude)
    hexes = {u.hex for u in state.on_map() if u.side == side and u.id not in skip and u.hex is not None
             and len(state.units_at(u.hex)) < STACK_LIMIT}
    hexes.discard(origin)
    if not hexes:
        return None
    return min(hexes, key=lambda h: (_distance(state, origin, h), h))


def eliminate(
    ctx: Context, state: XenState, uid: str, why: str, rules: Sequence[str] = ()
) -> Generator[Decision, str, None]:
    """A leader eliminated (``xen:leaders``): back among the leaders who may arise again.

    Xenophon rolls: 1-3 he escapes to the nearest friendly force, 4-6 he is killed
    and removed for good (``xen:xenophon``, ruling 1). A Supreme Leader's player
    may play Anabasis at once, then discards every chit held (``xen:supreme-leaders``).
    """
    u = state.unit(uid)
    if u.where != "map":
        return
    side, here = u.side, u.hex
    assert here is not None
    base = tuple(dict.fromkeys((*rules, "xen:leaders")))
    if u.id == XENOPHON:
        r = (*base, "xen:xenophon")
        roll = yield from chits.roll(ctx, state, "Xenophon's escape roll", r)
        dest = nearest_friendly_hex(state, side, here, exclude=[uid]) if roll in ESCAPE_ROLLS else None
        if dest is not None:
            state.place(uid, dest)
            ctx.event("leader-escapes", f"Xenophon escapes ({why}; roll {roll}) to the nearest friendly force, "
                      f"in {dest}", r, side=side, dice=(roll,))
            return
        state.eliminate(uid, permanent=True)
        reason = "killed" if roll not in ESCAPE_ROLLS else "has no friendly force to escape to"
        ctx.event("leader-killed", f"Xenophon {reason} ({why}; roll {roll}): removed from the game for good", r,
                  side=side, dice=(roll,))
        return
    supreme = is_supreme(state, u)
    state.eliminate(uid)
    if not supreme:
        ctx.event("leader-eliminated", f"{side}: leader {uid} eliminated ({why})", base, side=side)
        return
    r = (*base, "xen:supreme-leaders")
    ctx.event("supreme-leader-eliminated", f"{side}: Supreme Leader {uid} eliminated ({why})", r, side=side)
    yield from supreme_leader_eliminated(ctx, state, side)


def aboard(state: XenState, fleet: str) -> list[str]:
    """The land units carried by ``fleet`` now (xen:naval-transport), in the order they arrived."""
    u = state.unit(fleet)
    if not u.fleet or u.where != "map":
        return []
    return [o.id for o in state.units.values() if o.embarked == fleet and o.where == "map"]


def eliminate_units(
    ctx: Context,
    state: XenState,
    ids: Sequence[str],
    why: str,
    rules: Sequence[str] = (),
    *,
    with_cargo: bool = True,
    announce: Callable[[list[str]], None] | None = None,
) -> Generator[Decision, str, list[str]]:
    """The one way rules code takes units out of play (``xen:leaders``: "Leaders are
    eliminated just like other combat units"); returns the IDs eliminated, in order.

    - A fleet takes the land units aboard it (``with_cargo``: combat, the Disband
      Table's "Disband/mutiny affects units aboard as well", a Forced March's loss).
      Without ``with_cargo`` (supply: each unit is fed or not on its own) the units
      aboard go ashore on a coast, but in an all-sea hex they are lost with their
      fleet: a land unit never stays at sea without one (``xen:naval-transport``;
      docs, Rulings: operations 12).
    - The units that are not leaders go to the counter mix together, announced by
      ``announce(ids)`` (the caller's event) or one ``eliminated`` event.
    - Then each leader goes through :func:`eliminate`: Xenophon's escape roll, a
      Supreme Leader's Anabasis window and lost chits, never back by levy or purchase
      (``xen:leaders``, ``xen:supreme-leaders``, ``xen:xenophon``). Leaders go last, so
      an escaping Xenophon never joins a force that falls with him.

    :meth:`.state.XenState.eliminate` is the bare removal under this: no rule is
    applied there, and no rules module calls it for a unit in play
    (tests/test_departures.py reads the sources to hold that).
    """
    out: list[str] = []
    for uid in ids:
        u = state.unit(uid)
        if u.where != "map" or uid in out:
            continue
        out.append(uid)
        if u.fleet:
            sea = state.data.terrain.get(u.hex or "") == "sea"
            for c in aboard(state, uid):
                if with_cargo or sea:
                    if c not in out:
                        out.append(c)
                else:
                    state.unit(c).embarked = None  # ashore on the coast (xen:naval-transport)
    if not out:
        return out
    plain = [u for u in out if not state.unit(u).leader]
    for uid in plain:
        state.eliminate(uid)
    if plain:
        if announce is not None:
            announce(plain)
        else:
            side = state.unit(plain[0]).side
            ctx.event("eliminated", f"{side}: {', '.join(plain)} eliminated ({why})", tuple(rules), side=side,
                      units=plain)
    for uid in out:
        if state.unit(uid).leader:
            yield from eliminate(ctx, state, uid, why, tuple(rules))
    return out


def successor(state: XenState, side: str, leader: str) -> None:
    """Successor (``xen:supreme-leaders``): a friendly leader on the map becomes Supreme Leader
    once the old one is gone. ValueError naming the rule otherwise."""
    if state.supreme_leader(side) is not None:
        raise ValueError(f"{side}'s Supreme Leader is still on the map: no Successor (xen:supreme-leaders)")
    u = state.unit(leader)
    if not u.leader or u.side != side or u.where != "map":
        raise ValueError(f"{leader} is not a friendly leader on the map (xen:supreme-leaders)")
    state.supreme[side] = leader


def assassinate(ctx: Context, state: XenState, side: str, leader: str) -> Generator[Decision, str, bool]:
    """A D3 assassination attempt by ``side`` on an enemy leader (``xen:diplomacy``, ``xen:leaders``):
    1-2 kills a Supreme Leader, 1-3 another leader; otherwise the victim's player draws 1 chit.
    Returns True if the leader died."""
    u = state.unit(leader)
    if not u.leader or u.side != other_side(side) or u.where != "map":
        raise ValueError(f"{leader} is not an enemy leader on the map (xen:diplomacy: D3)")
    supreme = is_supreme(state, u)
    rules = ("xen:diplomacy", "xen:leaders") + (("xen:supreme-leaders",) if supreme else ())
    roll = yield from chits.roll(ctx, state, f"assassination of {leader}", rules)
    if assassination_succeeds(roll, supreme):
        ctx.event("assassination", f"{side} assassinates {leader} (roll {roll})", rules, side=side, dice=(roll,))
        yield from eliminate(ctx, state, leader, "assassinated", rules)
        return True
    ctx.event("assassination", f"{side} fails to assassinate {leader} (roll {roll}); {u.side} draws a chit",
              rules, side=side, dice=(roll,))
    yield from chits.draw(ctx, state, u.side, 1, "a failed assassination", (*rules, "xen:stratagem"))
    return False


# ---------------------------------------------------------------- personal combat (optional)

PERSONAL_RULES = ("xen:opt.personal-combat",)


def personal_combat(ctx: Context, state: XenState, b: Battle) -> Generator[Decision, str, None]:
    """Personal combat (``xen:opt.personal-combat``), after the defender stands, before the odds.

    The attacker, then the defender, may declare it when both forces have a
    leader. The other may refuse, and then has no leader multiplier this battle.
    The declarer picks a leader first; if he picks his Supreme Leader and the
    other's Supreme Leader is in the battle, the other must pick him too or lose
    his leader multiplier. Each rolls d6 (Cyrus +1); the high roll kills the
    other leader; a tie kills neither.
    """
    forces = {b.attacker: [u for u in b.attackers if state.unit(u).leader and state.unit(u).where == "map"],
              b.defender: [u for u in b.defenders if state.unit(u).leader and state.unit(u).where == "map"]}
    if not forces[b.attacker] or not forces[b.defender]:
        return
    def edge(side: str) -> float:
        """Win minus lose of the side's best leader against the other's (a bot's hint)."""
        mine = max(PERSONAL_DRM.get(c, 0) for c in forces[side])
        theirs = max(PERSONAL_DRM.get(c, 0) for c in forces[other_side(side)])
        ch = personal_combat_chances(mine, theirs)
        return float(ch["win"] - ch["lose"])

    declarer = None
    for side in (b.attacker, b.defender):
        key = yield Decision(side, "declare personal combat between the leaders?",
                             (Option("no", "no personal combat", {"score": 0.0}),
                              Option("declare", "declare personal combat", {"score": edge(side)})),
                             rule=PERSONAL_RULES[0], kind=Kind.COMBAT_PERSONAL)
        if key == "declare":
            declarer = side
            break
    if declarer is None:
        return
    other = b.defender if declarer == b.attacker else b.attacker
    key = yield Decision(other, f"{declarer} declares personal combat: accept, or refuse "
                         "(and fight without a leader multiplier)?",
                         (Option("accept", "accept", {"score": edge(other)}),
                          Option("refuse", "refuse: no leader multiplier this battle", {"score": -0.5})),
                         rule=PERSONAL_RULES[0], kind=Kind.COMBAT_PERSONAL_ANSWER)
    if key == "refuse":
        b.no_leader_multiplier.add(other)
        ctx.event("personal-combat", f"{other} refuses personal combat: no leader multiplier this battle",
                  PERSONAL_RULES, side=other)
        return
    picks: dict[str, str] = {}
    for side in (declarer, other):
        cands = forces[side]
        must = side == other and is_supreme(state, picks[declarer]) and any(is_supreme(state, c) for c in cands)
        opts = []
        for c in cands:
            note = ""
            if must and not is_supreme(state, c):
                note = " (not your Supreme Leader: no leader multiplier this battle)"
            hint = -1.0 if note else 0.0 if is_supreme(state, c) else 1.0
            opts.append(Option(c, f"{c}{' (Supreme Leader)' if is_supreme(state, c) else ''}{note}", {"score": hint}))
        if len(opts) == 1:
            pick = opts[0].key
        else:
            pick = yield Decision(side, "which leader fights the personal combat?", tuple(opts),
                                  rule=PERSONAL_RULES[0], kind=Kind.COMBAT_PERSONAL_LEADER)
        picks[side] = pick
        if must and not is_supreme(state, pick):
            b.no_leader_multiplier.add(side)
    rolls = {}
    for side in (declarer, other):
        drm = PERSONAL_DRM.get(picks[side], 0)
        rolls[side] = (yield from chits.roll(ctx, state, f"personal combat: {picks[side]}", PERSONAL_RULES)) + drm
    a, d = rolls[declarer], rolls[other]
    text = f"personal combat: {picks[declarer]} {a} against {picks[other]} {d}"
    if a == d:
        ctx.event("personal-combat", f"{text}: a tie, neither dies", PERSONAL_RULES, side=declarer)
        return
    loser = other if a > d else declarer
    ctx.event("personal-combat", f"{text}: {picks[loser]} is killed", PERSONAL_RULES, side=declarer)
    yield from eliminate(ctx, state, picks[loser], "killed in personal combat", PERSONAL_RULES)


# ---------------------------------------------------------------- arising, placing and the Supreme Leader's loss


def available_leaders(state: XenState, side: str) -> list[str]:
    """Leaders ``side`` may receive (Leader Arises, Anabasis): its own, off the map,
    not removed, not a Supreme Leader (``xen:leaders``)."""
    banned = {SUPREME.get(side), state.supreme.get(side)}
    return sorted(u.id for u in state.leaders(side, where="mix") if u.id not in banned)


def receive_leader(
    ctx: Context, state: XenState, side: str, why: str, rules: Sequence[str]
) -> Generator[Decision, str, str | None]:
    """``side`` chooses an available leader, placed with a friendly unit with room
    (Leader Arises; Anabasis A; events' placement). Returns the leader placed, or None."""
    names = available_leaders(state, side)
    if not names:
        ctx.event("leader", f"{side}: no leader can arise ({why}): none available", tuple(rules), side=side)
        return None
    who = yield Decision(side, f"which leader arises ({why})?",
                         tuple(Option(n, n) for n in names), rule="xen:leaders", kind=Kind.LEADER_ARISE)
    yield from place_with_friendly(ctx, state, side, state.unit(who), why, tuple(rules))
    return who if state.unit(who).on_map else None


def supreme_leader_eliminated(ctx: Context, state: XenState, side: str) -> Generator[Decision, str, None]:
    """The instant ``side``'s Supreme Leader is eliminated (:func:`eliminate`, a battle's window):
    the ``supreme-leader-lost`` window offers Anabasis (A: receive a leader on a
    friendly force; B: return every other chit and draw 1d6; C: Anabasis back to
    the pool); without it every chit is discarded (``xen:supreme-leaders``)."""
    rules = ("xen:supreme-leaders", chits.RULE)
    got = yield from chits.open_window(ctx, state, "supreme-leader-lost", sides=(side,),
                                 detail=f"{side}'s Supreme Leader eliminated")
    if got is None:
        chits.lose_all(ctx, state, side, "Supreme Leader eliminated", rules)
        return
    arules = chits.EFFECTS["Anabasis"].rules
    state.pool.remove("Anabasis")  # C: it goes back only after B's draws
    yield from receive_leader(ctx, state, side, "Anabasis", arules)
    chits.lose_all(ctx, state, side, "Anabasis: every other chit returned", arules)
    n = yield from chits.roll(ctx, state, "Anabasis: chits drawn", arules)
    yield from chits.draw(ctx, state, side, n, "Anabasis", arules)
    state.pool.add("Anabasis")


def friendly_hexes(state: XenState, side: str, room: int = 1) -> list[str]:
    """Hexes holding a unit of ``side`` with room for ``room`` more (xen:stacking)."""
    return sorted(h for h in state.occupied() if state.occupier(h) == side and len(state.units_at(h)) + room <= STACK_LIMIT)


def place_with_friendly(ctx: Context, state: XenState, side: str, u: Unit, why: str,
                        rules: tuple[str, ...]) -> Generator[Decision, str, None]:
    """``u`` comes into play with a friendly unit with room, in a hex ``side`` chooses (a fleet
    only on a coast or at sea): a leader arising, a unit rallying (xen:leaders, xen:random-events)."""
    cand = friendly_hexes(state, side)
    if u.fleet:
        cand = [h for h in cand if h in state.data.coastal or state.data.terrain.get(h) == "sea"]
    if not cand:
        ctx.event("event", f"{why}: no friendly unit with room to receive {u.id}", rules, side=side)
        return
    key = yield Decision(side, f"{why}: place {u.id} with which friendly unit?",
                         tuple(Option(h, f"{state.satrapy_of(h) or 'sea'}, {len(state.units_at(h))} "
                                         f"unit{'' if len(state.units_at(h)) == 1 else 's'} there")
                               for h in cand), rule=rules[0], kind=Kind.EVENT_PLACE, context={"highlight": tuple(cand)})
    state.place(u.id, key)
    ctx.event("event", f"{side}: {u.id} placed in {key} ({why})", rules, side=side, unit=u.id, hex=key)


def eliminate_unit(ctx: Context, state: XenState, uid: str, why: str,
                   rules: tuple[str, ...]) -> Generator[Decision, str, None]:
    """Eliminate one unit to the counter mix through :func:`eliminate_units`: a leader
    by the leader rules (Xenophon's escape roll, a Supreme Leader's Anabasis window and lost
    chits); the units a fleet carries go ashore on a coast and are lost with it at sea
    (each unit is fed or lost on its own in the Supply phase, and chosen on its own by Attrition)."""
    u = state.unit(uid)

    def announce(plain: list[str]) -> None:
        for p in plain:
            ctx.event("eliminated", f"{p} eliminated ({why})" if p == uid else f"{p} eliminated (aboard {uid}, "
                      f"lost at sea with it: {why})", rules + (("xen:naval-transport",) if p != uid else ()),
                      side=u.side, unit=p)

    yield from eliminate_units(ctx, state, [uid], why, rules, with_cargo=False, announce=announce)
