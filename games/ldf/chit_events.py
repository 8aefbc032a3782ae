"""Lest Darkness Fall event chits in play: drawing them and their events (``ldf:8.17``-``8.19``, ``ldf:14.3``).

:mod:`.chits` holds the chits' numbers, the hand and the windows at which
chits are played (the die rolls among them); this module draws chits and
carries out the events that are more than a window's play:

- **drawing** (8.17; the free chit of a battle won, 8.19): :func:`draw_chit`,
  :func:`receive_chit` (a chit just drawn, by an action or by chit 3), chit 18
  The Gods Are Bored (5.4);
- **resolved on the draw** (8.17): 10 Plague, 19 Bread & Circuses, 20
  Persecutions, 25 the cavalry units (:func:`on_drawn`); a chit the drawer
  cannot use is shown and put back, 21 drawn by the Germano-Parthian goes to
  the Roman (14.3);
- **played as an action** (8.18): :data:`AS_ACTION`, :func:`play_chit`; the
  heavy siege equipment deployed (8.16, chit 21): :func:`deploy_siege`.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from typing import Any, Final

from ancients_kit.protocol import Context, Decision, Option

from . import economy, land_movement, movement, politics, stacking, treasury
from .chits import (
    BREAD,
    CAVALRY,
    DEBASEMENT,
    GERMAN_INCREASE,
    JAWS,
    LIMES,
    MAD_DASH,
    MUTINY,
    ON_DRAW,
    PERSECUTIONS,
    PLAGUE,
    RESURGENCE,
    SEA_RAIDERS,
    SIEGE,
    SPIES,
    VALLEY,
    WINDFALL,
    cavalry_reserve_formed,
    chit_name,
    choose_hex,
    dole_cost,
    drawn_by_wrong_side,
    german_increase,
    jaws_draws,
    may_draw,
    plague_target,
    roll_die,
    spend,
)
from .state import GP, HAND_LIMIT, LAST_TURN, PALMYRA, ROMAN, ROME, LDFState, other_side
from .vocab import Kind
from .zoc import land_links, position


# ---------------------------------------------------------------- drawing chits (8.17, 8.19)


def gods_are_bored(ctx: Context, state: LDFState, side: str) -> Generator[Decision, Any, bool]:
    """Chit 18, The Gods Are Bored (14.3, 5.4): in Turns 1-4 roll a die, even ends the turn,
    odd returns the chit to the pool; in Turn 5 it is set aside as "No Event"."""
    if state.turn >= LAST_TURN:
        state.set_aside.append(18)
        ctx.event("chit", f"{side} draws chit 18, The Gods Are Bored: no event in Turn {LAST_TURN}",
                  rules=("ldf:14.3", "ldf:5.4"), side=side)
        return True
    state.pool.add(18)
    roll = yield from roll_die(ctx, state, side, "The Gods Are Bored: even ends the turn", ("ldf:14.3", "ldf:5.4"))
    if roll % 2 == 0:
        state.turn_over = True
        ctx.event("turn-end", f"{side} draws chit 18, The Gods Are Bored: {roll}, even: Turn {state.turn} ends",
                  rules=("ldf:14.3", "ldf:5.4"), side=side, dice=(roll,))
    else:
        ctx.event("chit", f"{side} draws chit 18, The Gods Are Bored: {roll}, odd: nothing happens; back in the pool",
                  rules=("ldf:14.3",), side=side, dice=(roll,))
    return True


def receive_chit(ctx: Context, state: LDFState, side: str, number: int) -> Generator[Decision, Any, None]:
    """A chit ``side`` just drew: resolved now if it must be (8.17), else into the hand."""
    if number == 18:
        yield from gods_are_bored(ctx, state, side)
        return
    handled = yield from on_drawn(ctx, state, side, number)  # 10, 19, 20, 25; shown or handed over
    if handled:
        return
    state.hands[side].add(number)


def _draw_one(ctx: Context, state: LDFState, side: str, why: str, rules: tuple[str, ...]) -> int:
    with ctx.secret(side):
        number = state.pool.draw(ctx.chance, why, rules)
    return int(number)  # type: ignore[call-overload]


def draw_chit(ctx: Context, state: LDFState, side: str, *, free: bool = False) -> Generator[Decision, Any, Any]:
    """Draw a chit from the pool (8.17; a free draw after a won battle, 8.19). At the hand
    limit of six the player first puts back a chit of his choice, and may draw it again."""
    rule = "ldf:8.19" if free else "ldf:8.17"
    hand = state.hands[side]
    if len(hand) >= HAND_LIMIT:
        held = sorted(set(hand.cards))  # type: ignore[type-var]
        key = yield Decision(side, f"You hold {len(hand)} chits, the most allowed: put one back before drawing",
                             tuple(Option(str(n), state.data.chits.chit(int(n)).name) for n in held),
                             rule="ldf:8.17", kind=Kind.CHIT_PUT_BACK)
        hand.remove(int(key))
        state.pool.add(int(key))
        ctx.event("chit", f"{side} puts chit {key} back into the pool before drawing", rules=("ldf:8.17",),
                  side=side, private_to=side, public_text=f"{side} puts a chit back into the pool before drawing")
    if not len(state.pool):
        ctx.event("chit", f"{side} finds the chit pool empty", rules=(rule,), side=side)
        return None
    number = _draw_one(ctx, state, side, f"{side} draws a chit", (rule,))
    if number not in state.data.chits.on_draw():
        ctx.event("chit", f"{side} draws chit {number}, {state.data.chits.chit(number).name}", rules=(rule,),
                  side=side, private_to=side, public_text=f"{side} draws a chit")
    yield from receive_chit(ctx, state, side, number)
    return None


def draw_chit_action(ctx: Context, state: LDFState, side: str) -> Generator[Decision, Any, Any]:
    return (yield from draw_chit(ctx, state, side))


def can_draw(state: LDFState, side: str) -> bool:
    """A draw needs a chit in the pool, or a full hand, which puts one back first (8.17;
    audit D2: a draw from an empty pool with room in hand would do nothing)."""
    return len(state.pool) > 0 or len(state.hands[side]) >= HAND_LIMIT


def free_chit(ctx: Context, state: LDFState, side: str) -> Generator[Decision, Any, Any]:
    """8.19: the winner of a battle may draw a free chit; the choice comes before the next action."""
    key = yield Decision(side, "You won the battle: draw a free chit?",
                         (Option("draw", "draw a chit (no action spent)"), Option("no", "do not draw")),
                         rule="ldf:8.19", kind=Kind.CHIT_FREE)
    if key == "draw":
        yield from draw_chit(ctx, state, side, free=True)
    else:
        ctx.event("chit", f"{side} declines the free chit", rules=("ldf:8.19",), side=side)


# ---------------------------------------------------------------- chits on the draw (8.17)


def _plague(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """Chit 10 (``ldf:14.3``, reconstructed; ``ldf:6.3``): the plague empties a garrison
    without looting its hex (the coin of 6.3), or takes the emperor (``ldf:14.4``)."""
    die = yield from roll_die(ctx, state, side, "Plague", ("ldf:14.3",))
    target = plague_target(die)
    rules = ("ldf:14.3", "ldf:6.3")
    if target == "emperor":
        ctx.event("chit", f"chit 10, Plague: {die}: the plague takes the emperor", ("ldf:14.3", "ldf:14.4"),
                  dice=(die,))
        yield from politics.emperor_eliminated(ctx, state, ("ldf:14.3", "ldf:14.4"))
        return
    if target == "parthian":
        chooser, hexes = ROMAN, sorted({u.hex for u in state.of_kind("parthian-garrison") if u.hex})
    elif target == "caucasus":
        caucasus = state.region("caucasus")
        chooser, hexes = GP, sorted({u.hex for u in state.of_kind("client-garrison") if u.hex in caucasus})
    else:
        chooser, hexes = ROMAN, sorted({u.hex for u in state.of_kind("client-garrison") if u.hex == PALMYRA})
    if not hexes:
        ctx.event("chit", f"chit 10, Plague: {die}: no {target} garrison is left; nothing happens", rules, dice=(die,))
        return
    where = yield from choose_hex(chooser, f"Plague: choose the {target.capitalize()} garrison it takes", hexes, "ldf:14.3",
                                   Kind.CHIT_PLAGUE)
    for u in [u for u in state.units_at(where) if u.garrison]:
        state.eliminate(u.id)
    state.plague.add(where)
    ctx.event("chit", f"chit 10, Plague: {die}: the {target} garrison of {where} dies; the hex is not looted",
              rules, dice=(die,), hex=where)


def _bread_hexes(state: LDFState) -> list[str]:
    """Where a refused Bread & Circuses puts a rebel garrison (``ldf:14.3``): unlooted
    population-centre hexes of the core, not Rome/Ostia, empty of all units."""
    return sorted(h for h in state.region("core") if h != ROME and state.data.centres(h)
                  and not state.is_looted(h) and not state.units_at(h) and _rebel_garrison_may_stand(state, h))


def _rebel_garrison_may_stand(state: LDFState, hex_id: str) -> bool:
    """A non-Gallic rebel garrison never stands in an active Gallic Empire (``ldf:9.5``;
    ``politics.side_change_problem``, ldf-core's ruling of issue 23)."""
    return politics.side_change_problem(state, hex_id) is None


def _bread(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """Chit 19, Bread & Circuses (``ldf:14.3``): the Roman pays a die plus one TP, or
    refuses before the roll and the Germano-Parthian puts a rebel garrison in an empty
    unlooted core centre (not Rome/Ostia), which pays nothing until retaken and rebuilt."""
    spare = economy.spare_garrisons(state)
    hexes = _bread_hexes(state)
    options = [Option("pay", "pay for the games: a die plus one TP")]
    if spare and hexes:
        options.append(Option("refuse", "refuse: the Germano-Parthian raises a rebel garrison in an empty core centre"))
    key = "pay"
    if len(options) > 1:
        key = yield Decision(ROMAN, "Bread & Circuses: pay for the games or refuse?", tuple(options),
                             rule="ldf:14.3", kind=Kind.CHIT_BREAD)
    if key == "pay":
        die = yield from roll_die(ctx, state, ROMAN, "Bread & Circuses", ("ldf:14.3",))
        ctx.event("chit", f"chit 19, Bread & Circuses: the Roman pays {dole_cost(die)} TP", ("ldf:14.3",),
                  dice=(die,))
        yield from economy.deduct(ctx, state, dole_cost(die), "Bread & Circuses", ("ldf:14.3",))
        return
    where = yield from choose_hex(GP, "Bread & Circuses refused: choose the hex of the rebel garrison", hexes,
                                   "ldf:14.3", Kind.CHIT_BREAD_HEX)
    g = spare[0]
    g.rebel = True
    stacking.place(state, where, [g.id], "ldf:14.3")  # ldf-core: the one placement check (10.1)
    state.looted.add(where)
    ctx.event("chit", f"chit 19, Bread & Circuses: the Roman refuses; a rebel garrison holds {where}, "
              "which pays no taxes until retaken and rebuilt", ("ldf:14.3",), hex=where)


def _persecutions(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """Chit 20, Persecutions (``ldf:14.3``): the Roman pays a die plus one TP; the chit
    leaves the game."""
    die = yield from roll_die(ctx, state, ROMAN, "Persecutions", ("ldf:14.3",))
    ctx.event("chit", f"chit 20, Persecutions: the Roman pays {dole_cost(die)} TP; the chit leaves the game",
              ("ldf:14.3",), dice=(die,))
    yield from economy.deduct(ctx, state, dole_cost(die), "Persecutions", ("ldf:14.3",))


def _cavalry(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """Chit 25 (``ldf:14.3``, ``ldf:10.8``): a cavalry vexillation joins any hex holding
    loyal Roman units and no cavalry; then a 6 lets the central cavalry reserve form
    (not subject to salting)."""
    rules = ("ldf:14.3", "ldf:10.8")
    units = sorted(state.of_kind("cavalry-vexillation", where="pool"), key=lambda u: u.id)
    hexes = sorted({u.hex for u in state.on_map() if u.hex and u.nationality == "roman" and not u.rebel}
                   - {u.hex for u in state.of_kind("cavalry-vexillation") if u.hex})
    if units:  # never into a hex it would overstack (ldf:10.8)
        hexes = [h for h in hexes if stacking.fits(state, h, [units[0]])]
    if not units or not hexes:
        state.pool.add(CAVALRY)
        ctx.event("chit", f"{side} draws a Roman cavalry vexillation; no hex may receive it: back in the pool", rules)
        return
    where = yield from choose_hex(ROMAN, "Cavalry reinforcement: place it in a hex with your units and no cavalry",
                                   hexes, "ldf:14.3", Kind.CHIT_CAVALRY)
    stacking.place(state, where, [units[0].id], "ldf:14.3")
    ctx.event("chit", f"{side} draws a Roman cavalry vexillation: {units[0].id} placed in {where}", rules,
              side=side, hex=where)
    if state.cavalry_reserve:
        return
    die = yield from roll_die(ctx, state, ROMAN, "cavalry reserve", rules)
    if cavalry_reserve_formed(die):
        state.cavalry_reserve = True
        ctx.event("chit", f"cavalry reserve roll {die}: the central cavalry reserve may be formed", rules, dice=(die,))
    else:
        ctx.event("chit", f"cavalry reserve roll {die}: no reserve yet", rules, dice=(die,))


def on_drawn(ctx: Context, state: LDFState, side: str, number: int) -> Generator[Decision, str, bool]:
    """A chit ``side`` just drew (called by :func:`receive_chit`, ldf-core; 18 is
    resolved there). Chits 10, 19, 20 and 25 are resolved now (``ldf:8.17``); a chit
    only the other side may use is shown and put back, 21 handed to the Roman
    (``ldf:14.3``). Returns ``True`` when the chit does not go into the hand."""
    if number in ON_DRAW:
        name = chit_name(state, number)
        if number != CAVALRY:
            ctx.event("chit", f"{side} draws chit {number}, {name}: resolved at once", ("ldf:8.17", "ldf:14.3"),
                      side=side)
        handler = {PLAGUE: _plague, BREAD: _bread, PERSECUTIONS: _persecutions, CAVALRY: _cavalry}[number]
        yield from handler(ctx, state, side)
        if number == PERSECUTIONS:
            state.removed_chits.append(number)
        elif number != CAVALRY:
            state.pool.add(number)
        return True
    chit = state.data.chits.chit(number)
    what = drawn_by_wrong_side(chit, side)
    if what == "shown":
        state.pool.add(number)
        ctx.event("chit", f"{side} draws chit {number}, {chit.name}, which only the {chit.player} player may use: "
                  "shown and put back in the pool; the action is spent", ("ldf:14.3",), side=side)
        return True
    if what == "handed":
        roman = state.hands[ROMAN]
        if not may_draw(len(roman)):
            back = yield Decision(ROMAN, "Chit 21 is handed to you at the hand limit: put one chit back first",
                                  tuple(Option(str(n), chit_name(state, int(n)))  # type: ignore[call-overload]
                                        for n in sorted(set(roman.cards))), rule="ldf:8.17", kind=Kind.CHIT_PUT_BACK)
            roman.remove(int(back))
            state.pool.add(int(back))
            ctx.event("chit", "roman puts a chit back into the pool", ("ldf:8.17",), side=ROMAN, private_to=ROMAN,
                      public_text="roman puts a chit back into the pool")
        roman.add(number)
        ctx.event("chit", f"{side} draws chit 21, {chit.name}, and hands it to the Roman player; the action is spent",
                  ("ldf:14.3", "ldf:8.16"), side=side)
        return True
    return False


# ---------------------------------------------------------------- chits played as actions (8.18)


def _jaws_ok(state: LDFState, side: str) -> bool:
    """3: the Roman while a German unit is in mainland Italy; the Germano-Parthian while a
    unit of the Roman side is in Barbaria or Parthia (``ldf:14.3``)."""
    if side == ROMAN:
        italy = state.region("italy")
        return any(u.hex in italy for u in state.of_kind("german-tribe"))
    places = state.region("barbaria") | state.region("parthia")
    return any(u.hex in places and state.side_of(u) == ROMAN for u in state.on_map())


def _jaws(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """3, From the Jaws of Death (``ldf:14.3``): put back any chits you want rid of, roll a die
    and draw that many at random, up to the hand limit. Chits drawn that are resolved on the
    draw are resolved at once, spending no further action (ruling); 3 itself is held out
    until the next turn (its once-a-turn sentence)."""
    spend(ctx, state, side, JAWS, "chits put back, then a die of draws", ())
    hand = state.hands[side]
    while len(hand):
        held = sorted(set(hand.cards))  # type: ignore[type-var]
        key = yield Decision(side, "From the Jaws of Death: put back another chit?",
                             (Option("done", "keep the rest"),
                              *(Option(str(n), f"put back {n}, {chit_name(state, int(n))}")  # type: ignore[call-overload]
                                for n in held)), rule="ldf:14.3", kind=Kind.CHIT_JAWS)
        if key == "done":
            break
        hand.remove(int(key))
        state.pool.add(int(key))
        ctx.event("chit", f"{side} puts chit {key} back", ("ldf:14.3",), side=side, private_to=side,
                  public_text=f"{side} puts a chit back")
    die = yield from roll_die(ctx, state, side, "From the Jaws of Death", ("ldf:14.3",))
    n = jaws_draws(die, len(hand))
    ctx.event("chit", f"From the Jaws of Death: {die}: {side} draws {n} chit(s)", ("ldf:14.3", "ldf:8.17"),
              side=side, dice=(die,))
    for _ in range(n):
        if not len(state.pool) or state.over:
            break
        number = _draw_one(ctx, state, side, f"{side} draws (Jaws of Death)", ("ldf:14.3",))
        yield from receive_chit(ctx, state, side, number)


def _mad_dash(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """7, Mad Dash (``ldf:5.3``, reconstructed): one more action at once."""
    spend(ctx, state, side, MAD_DASH, "another action at once; the opponent's next is skipped", ("ldf:5.3",))
    state.extra_action = side
    return None
    yield  # pragma: no cover


def _mutiny_targets(state: LDFState) -> list[str]:
    leaders = {u.hex for u in state.on_map() if u.leader and not u.rebel}
    return sorted(u.id for u in state.of_kind("infantry-vexillation") if not u.rebel and u.hex != ROME
                  and u.hex not in leaders)


def _mutiny(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """9, Mutiny (``ldf:14.3``, reconstructed): one loyal infantry vexillation in a hex without a
    Roman leader and outside Rome/Ostia goes to the dead pile."""
    targets = _mutiny_targets(state)
    uid = yield Decision(GP, "Mutiny: which loyal infantry vexillation?",
                         tuple(Option(t, f"{t} in {state.units[t].hex}") for t in targets), rule="ldf:14.3",
                         kind=Kind.CHIT_MUTINY)
    where = state.units[uid].hex
    spend(ctx, state, side, MUTINY, f"{uid} in {where} mutinies and goes to the dead pile", ())
    state.eliminate(uid)


def _debasement(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """11, Debasement of the Coinage (``ldf:14.3``, reconstructed; ``ldf:6.3``): +3 TP, then the
    Germano-Parthian loots one empty unlooted core centre other than Rome/Ostia."""
    spend(ctx, state, side, DEBASEMENT, "3 TP, at the price of a looted centre", ())
    treasury.gain(ctx, state, 3, "Debasement of the Coinage", ("ldf:14.3",))
    hexes = _bread_hexes(state)
    if not hexes:
        ctx.event("chit", "Debasement: no empty unlooted core centre to loot", ("ldf:14.3",))
        return
    where = yield from choose_hex(GP, "Debasement: which empty core centre is looted?", hexes, "ldf:14.3",
                                   Kind.CHIT_DEBASEMENT)
    state.looted.add(where)
    ctx.event("loot", f"Debasement of the Coinage: {where} is looted", ("ldf:14.3", "ldf:6.3"), hex=where)


def _spies(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """13 (``ldf:10.9``, ``ldf:14.3``): see every chit in the opponent's hand."""
    other = other_side(side)
    cards = tuple(int(c) for c in state.hands[other].cards)  # type: ignore[call-overload]
    spend(ctx, state, side, SPIES, f"{side} looks at the {other} player's hand", ("ldf:10.9",))
    state.revealed[other] = cards
    names = ", ".join(f"{n} {chit_name(state, n)}" for n in cards) or "no chits"
    ctx.event("chit", f"{side} sees the {other} hand: {names}", ("ldf:10.9", "ldf:14.3"), side=side, private_to=side,
              public_text=f"{side} sees the {other} hand ({len(cards)} chits)")
    return None
    yield  # pragma: no cover


def _limes_ok(state: LDFState, side: str) -> bool:
    return bool(economy.rebuild_hexes(state)) or bool(economy.garrison_hexes(state))


def _limes(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """14, Limes Restored (``ldf:14.3``, reconstructed; ``ldf:8.13``, ``ldf:8.14``): one whole
    fortification or rebuilding in this single action."""
    options = [Option(f"rebuild:{h}", f"rebuild {h}") for h in economy.rebuild_hexes(state)]
    options += [Option(f"fortify:{h}", f"fortify {h}") for h in economy.garrison_hexes(state)]  # 10.1, 10.4
    key = yield Decision(ROMAN, "Limes Restored: rebuild or fortify which hex?", tuple(options), rule="ldf:14.3",
                         kind=Kind.CHIT_LIMES)
    what, _, where = key.partition(":")
    spend(ctx, state, side, LIMES, f"{what} {where} in one action", ("ldf:8.13", "ldf:8.14"))
    if what == "rebuild":
        state.rebuilding.discard(where)
        state.looted.discard(where)
        ctx.event("rebuild", f"{where} is rebuilt at once", ("ldf:14.3", "ldf:8.14", "ldf:6.4"), side=ROMAN, hex=where)
    else:
        g = economy.spare_garrisons(state)[0]
        g.rebel = False
        stacking.place(state, where, [g.id], "ldf:8.13")
        ctx.event("fortify", f"{where} is fortified at once: garrison {g.id}", ("ldf:14.3", "ldf:8.13"), side=ROMAN,
                  hex=where)


def _black_sea(state: LDFState) -> frozenset[str]:
    """The Black Sea (Pontus): the sea hexes joined to the Bosporus' sea hex 4118 (ruling)."""
    m = state.map
    sea = {h for h in m.hexes() if m.terrain(h) == "sea"}
    start = state.hex("4118")
    seen, todo = {start}, [start]
    while todo:
        h = todo.pop()
        for n in m.neighbors(h):
            if n in sea and n not in seen:
                seen.add(n)
                todo.append(n)
    return frozenset(m.to_id(h) for h in seen)


def _raid(state: LDFState) -> tuple[list[str], list[str]]:
    """16's tribes (in Barbaria hexes on the Black Sea) and targets (centres flagged coastal,
    next to the Black Sea or the Aegean, holding no unit). The Aegean: the other sea hexes within three of the
    Hellespont, 4019 (ruling)."""
    m = state.map
    pontus = _black_sea(state)
    hel = state.hex("4019")
    aegean = {m.to_id(h) for h in m.hexes() if m.terrain(h) == "sea" and m.to_id(h) not in pontus
              and h.distance(hel) <= 3}
    barbaria = state.region("barbaria")
    tribes = sorted(u.id for u in state.of_kind("german-tribe") if u.hex in barbaria
                    and any(n in pontus for n in state.data.neighbours(u.hex)))
    targets = sorted(state.map.to_id(h) for h in m.hexes_where("centres")
                     if not state.units_at(m.to_id(h)) and not m.value(h, "narrows")
                     and m.value(h, "coastal") and any(
                         n in pontus or n in aegean for n in state.data.neighbours(m.to_id(h))))
    return tribes, targets


def _sea_raiders(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """16, Gothic Sea Raiders (``ldf:14.3``, head reconstructed; ``ldf:6.3``): a tribe on the
    Black Sea shore of Barbaria lands in an empty coastal centre of the Black Sea or the
    Aegean, which it loots on entry."""
    tribes, targets = _raid(state)
    tid = tribes[0] if len(tribes) == 1 else (yield Decision(
        GP, "Gothic Sea Raiders: which tribe sails?", tuple(Option(t, f"{t} in {state.units[t].hex}") for t in tribes),
        rule="ldf:14.3", kind=Kind.CHIT_RAIDERS))
    where = yield from choose_hex(GP, "Gothic Sea Raiders: where does it land?", targets, "ldf:14.3",
                                   Kind.CHIT_RAIDERS_HEX)
    spend(ctx, state, side, SEA_RAIDERS, f"{tid} sails from {state.units[tid].hex} to {where}", ())
    stacking.place(state, where, [tid], "ldf:14.3")
    yield from economy.on_enter(ctx, state, [tid], where)


def _resurgence(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """22, Parthian Dynastic Resurgence (``ldf:7.3``, ``ldf:14.3``): every dead Parthian unit
    returns as in 7.2; a collapse ends."""
    spend(ctx, state, side, RESURGENCE, "the dead Parthians return"
          + ("; the Parthian collapse ends" if state.parthia_collapsed else ""), ("ldf:7.3",))
    state.parthia_collapsed = False
    yield from economy.redeploy_parthia(ctx, state, ("ldf:14.3", "ldf:7.2", "ldf:7.3"))


def _german_increase(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """23, German Population Increase (``ldf:14.3``, ``ldf:7.1``): a die plus three, and up to
    that many dead tribes return, one a hex, to empty hexes of Barbaria."""
    spend(ctx, state, side, GERMAN_INCREASE, "dead tribes return to Barbaria", ("ldf:7.1",))
    die = yield from roll_die(ctx, state, GP, "German Population Increase", ("ldf:14.3",))
    most = german_increase(die)
    dead = sorted(state.of_kind("german-tribe", "dead"), key=lambda u: u.id)[:most]
    back = []
    for t in dead:
        free = sorted(h for h in state.region("barbaria") if not state.units_at(h))
        if not free:
            break
        where = yield from choose_hex(GP, f"German Population Increase: a hex for {t.id}", free, "ldf:7.1",
                                       Kind.CHIT_TRIBE)
        stacking.place(state, where, [t.id], "ldf:7.1")
        back.append(t.id)
    ctx.event("returns", f"German Population Increase: {die} + 3 = {most}: {len(back)} tribe(s) return",
              ("ldf:14.3", "ldf:7.1"), side=GP, dice=(die,))


def _windfall(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """24, Roman Revenue Windfall (``ldf:14.3``, ``ldf:6.1``): a die plus three, taken as TP
    (never more than five) and/or legion bases and infantry vexillations reclaimed free as in
    6.8, so in pairs into the same core hexes (ruling: a unit left without its pair is not
    taken)."""
    spend(ctx, state, side, WINDFALL, "a die plus three in TP and/or reclaimed legions", ("ldf:6.1",))
    die = yield from roll_die(ctx, state, ROMAN, "Roman Revenue Windfall", ("ldf:14.3",))
    n = die + 3
    pairs = min(len(state.of_kind("legion-base", "dead")), len(state.of_kind("infantry-vexillation", "dead")))
    options = []
    for tp in range(min(5, n), -1, -1):
        units = min((n - tp) // 2, pairs) * 2
        if options and tp + units <= 0:
            continue
        options.append(Option(f"tp-{tp}", f"{tp} TP and {units} units ({units // 2} legion pairs)"))
    key = options[0].key if len(options) == 1 else (yield Decision(
        ROMAN, f"Revenue Windfall: {die} + 3 = {n}: how many as TP?", tuple(options), rule="ldf:14.3",
        kind=Kind.CHIT_WINDFALL))
    tp = int(key.removeprefix("tp-"))
    treasury.gain(ctx, state, tp, "Roman Revenue Windfall", ("ldf:14.3",))
    for _ in range(min((n - tp) // 2, pairs)):
        hexes = economy.reclaim_hexes(state, "legion")
        if not hexes:
            break
        b, v = state.of_kind("legion-base", "dead")[0], state.of_kind("infantry-vexillation", "dead")[0]
        where = yield from choose_hex(ROMAN, "Revenue Windfall: place a reclaimed legion", hexes, "ldf:6.8",
                                       Kind.CHIT_WINDFALL_HEX)
        stacking.place(state, where, [b.id, v.id], "ldf:6.8")
        ctx.event("reclaim", f"Revenue Windfall: {b.id} and {v.id} return in {where}", ("ldf:14.3", "ldf:6.8"),
                  side=ROMAN, hex=where)


def _enemy_forces(state: LDFState, side: str) -> list[str]:
    """Hexes holding an enemy force that could be moved by chit 5 (it may leave an EZOC)."""
    pos = position(state)
    enemy = other_side(side)
    out = []
    for h in sorted({u.hex for u in state.on_map() if u.hex and state.side_of(u) == enemy}):
        units = movement.movable_units(pos, enemy, state.hex(h))
        if units and land_movement.force_problem(pos, units, enemy) is None and any(
                land_movement.step_problem(state.map, pos, units, state.hex(h), n) is None
                for n in land_links(state.map).get(state.hex(h), ())):
            out.append(h)
    return out


def _valley(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, object]:
    """5, Into the Valley of the Shadow of Death (``ldf:14.3``, ``ldf:11.4``): move one enemy force
    (the whole stack that may move, ruling) up to its normal allowance by the normal rules; it may
    leave the EZOC it starts in, stops on entering another, and drops nobody off. The player of
    the chit makes every choice of the move."""
    enemy = other_side(side)
    hexes = _enemy_forces(state, side)
    key = yield Decision(side, "Into the Valley of the Shadow of Death: move which enemy force?",
                         (*(Option(h, f"the enemy force in {h}") for h in hexes),
                          Option("back", "choose another action")), rule="ldf:14.3", kind=Kind.CHIT_VALLEY)
    if key == "back":
        return False
    force = [u.id for u in movement.movable_units(position(state), enemy, state.hex(key))]
    spend(ctx, state, side, VALLEY, f"{side} moves the enemy force in {key}: {', '.join(force)}", ("ldf:11.4",))
    yield from movement.move_force(ctx, state, side, force, no_drop_offs=True, leave_ezoc=True, transport=False,
                                   window=False)
    return None


AS_ACTION: Final[Mapping[int, tuple[Callable[[LDFState, str], bool],
                                    Callable[[Context, LDFState, str], Generator[Decision, str, object]]]]] = {
    JAWS: (_jaws_ok, _jaws),
    VALLEY: (lambda state, side: bool(_enemy_forces(state, side)), _valley),

    MAD_DASH: (lambda state, side: True, _mad_dash),
    MUTINY: (lambda state, side: bool(_mutiny_targets(state)), _mutiny),
    DEBASEMENT: (lambda state, side: True, _debasement),
    SPIES: (lambda state, side: True, _spies),
    LIMES: (_limes_ok, _limes),
    SEA_RAIDERS: (lambda state, side: all(_raid(state)), _sea_raiders),
    RESURGENCE: (lambda state, side: bool(state.of_kind("parthian-gund", "dead")
                                          or state.of_kind("parthian-garrison", "dead")), _resurgence),
    GERMAN_INCREASE: (lambda state, side: bool(state.of_kind("german-tribe", "dead")), _german_increase),
    WINDFALL: (lambda state, side: True, _windfall),
}
"""The chits played as an action (``ldf:8.18``): when each may be played, and its effect."""


def playable(state: LDFState, side: str) -> list[int]:
    """The chits of ``side``'s hand it may play as an action now (``ldf:8.18``)."""
    out = []
    for n in sorted(set(state.hands[side].cards)):  # type: ignore[type-var]
        entry = AS_ACTION.get(int(n))  # type: ignore[call-overload]
        chit = state.data.chits.chit(int(n))  # type: ignore[call-overload]
        if entry is not None and chit.player in ("both", side) and entry[0](state, side):
            out.append(int(n))  # type: ignore[call-overload]
    return out


def can_play_chit(state: LDFState, side: str) -> bool:
    return bool(playable(state, side))


def play_chit(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, object]:
    """Play a chit from the hand as an action (``ldf:8.18``); it does not give a new draw."""
    numbers = playable(state, side)
    key = yield Decision(side, "Play which chit?", (*(Option(str(n), f"{n}, {chit_name(state, n)}") for n in numbers),
                                                     Option("back", "choose another action")),
                         rule="ldf:8.18", kind=Kind.CHIT_PLAY)
    if key == "back":
        return False
    return (yield from AS_ACTION[int(key)][1](ctx, state, side))


# ---------------------------------------------------------------- heavy siege equipment (8.16, chit 21)


def siege_targets(state: LDFState) -> list[tuple[str, str]]:
    """(force hex, target hex) pairs for chit 21 (``ldf:8.16``, ``ldf:14.3``): a loyal Roman
    force next to an unlooted population-centre hex held by enemy units."""
    out = []
    for h in sorted({u.hex for u in state.on_map() if u.nationality == "roman" and not u.rebel and u.hex
                     and (u.mobile or u.kind == "legion-base")}):
        for n in state.data.neighbours(h):
            if state.data.centres(n) and not state.is_looted(n) and state.enemy_in(n, ROMAN):
                out.append((h, n))
    return out


def can_deploy_siege(state: LDFState, side: str) -> bool:
    return side == ROMAN and SIEGE in state.hands[ROMAN] and state.siege is None and bool(siege_targets(state))


def deploy_siege(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, object]:
    """Roman action (``ldf:8.16``): chit 21 on a loyal force about to attack an unlooted
    population centre; combat.py doubles that force's attack strength and puts the chit back
    in the pool once the place falls or no Roman unit is left with it (``ldf:14.3``)."""
    hexes = sorted({a for a, _ in siege_targets(state)})
    key = yield Decision(ROMAN, "Heavy siege equipment: with which force?",
                         (*(Option(a, f"the force in {a} (next to "
                                   f"{', '.join(t for f, t in siege_targets(state) if f == a)})") for a in hexes),
                          Option("back", "choose another action")), rule="ldf:8.16", kind=Kind.SIEGE_HEX)
    if key == "back":
        return False
    state.hands[ROMAN].remove(SIEGE)
    state.siege = key
    ctx.event("siege", f"the Roman deploys the heavy siege equipment with his force in {key}",
              ("ldf:8.16", "ldf:14.3"), side=ROMAN, hex=key)
    return None


def score(state: LDFState, decision: Decision, key: str) -> float | None:
    """The greedy bot's hints for the ``chit.*`` decisions (``bot.score`` delegates by kind):
    :func:`politics.score`'s."""
    return politics.score(state, decision, key)
