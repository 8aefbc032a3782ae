"""The Full Simulation sequence of play: five phases a Player-Turn (cen:full.sequence).

:func:`play_full` is the generator the engine's ``game.py`` delegates to for a
Full Simulation scenario. One Game-Turn is two Player-Turns; each Player-Turn:

0. start of turn: panic strikes if due (cen:full.panic), treachery if invoked
   (cen:full.treachery), rally attempts, formations and works (square
   cen:full.square, relief cen:full.relief, earthworks/caltrops cen:opt.*,
   mount/dismount cen:opt.mount-dismount) -- staged, always with ``done``;
1. Movement (the engine's movement phase with this package's hooks; panicked
   and deserting units run first);
2. Attack Allocation: the phasing player names target hexes, the kind of
   attack (melee / fire / both for cataphracts) and the units (``all`` or one
   by one, then ``done``);
3. Defensive Fire: the other player fires at attacking hexes (and at units
   that moved next to his missile troops without attacking) in the front of
   his missile units; losses come off the attackers at once;
4. Offensive Fire: allocated fire, FEM applied (cen:full.fem);
5. Melee: allocated melee attacks; attacks made non-viable (below 1-2) by
   the fire are dropped and their units are not re-allocated
   (cen:full.defensive-fire).

At the end of each Game-Turn: panic threshold drop, panic check, and the
victory decisions (declare, concede, withdraw; cen:full.victory,
cen:full.concession). The game also ends when the scenario's turns run out.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Sequence
from fractions import Fraction
from typing import Any

import attrs

from ancients_kit.errors import IllegalAnswer
from ancients_kit.hexgrid import Hex, direction_to, in_front_arc, is_frontal
from ancients_kit.plugin import Outcome
from ancients_kit.session import Context, Decision, Option
from ancients_kit.tables import OddsRefused, OddsTable

from ancients_games.centurion.full import cavalry, fire, melee, morale, options as opt, square, victory
from ancients_games.centurion.full.morale import FullBook, book
from ancients_games.centurion.model import UnitKind, VictoryLevel
from ancients_games.centurion.movement import LAST_REACH, MOVING_GROUP, MoveHooks, movement_phase, stack_limit
from ancients_games.centurion.state import CenturionState, Unit

__all__ = ["Attack", "play_full", "move_hooks"]

DONE = "done"
SEQ = "cen:full.sequence"


@attrs.define
class Attack:
    """One allocated attack (Attack Allocation Phase)."""

    target: Hex
    mode: str
    """``melee``, ``fire`` or ``both`` (cataphracts, same target)."""
    units: list[str] = attrs.field(factory=list)


# ------------------------------------------------------------------ helpers


def _log(ctx: Context, state: CenturionState, kind: str, text: str, rules: Iterable[str] | str,
         side: str | None = None, **data: Any) -> None:
    r = (rules,) if isinstance(rules, str) else tuple(rules)
    ctx.event(kind, text, rules=r, side=side or state.active or None, turn=state.turn, **data)


def _tables(ctx: Context, state: CenturionState) -> tuple[OddsTable, OddsTable]:
    t = state.extra.get("full_tables")
    if t is None:
        from ancients_games.centurion.game import load_crt  # checked against cen:basic.combat

        t = (load_crt(ctx.store, "crt_melee.toml"), load_crt(ctx.store, "crt_fire.toml"))
        state.extra["full_tables"] = t
    return t  # type: ignore[return-value]


def _t(state: CenturionState, u: Unit):
    return state.types[u.type]


def _cap(state: CenturionState, u: Unit):
    return state.capability.get(u.type)


def _is_cmd(state: CenturionState, u: Unit) -> bool:
    return state.types[u.type].kind is UnitKind.COMMAND


def _terrain(state: CenturionState, h: Hex):
    return state.terrain_chart.get(state.map.terrain(h))


def _on_hill(state: CenturionState, h: Hex) -> bool:
    ter = _terrain(state, h)
    return ter is not None and ter.fire_range_bonus > 0


def _hex_defence_multiplier(state: CenturionState, h: Hex, attacker_hexes: Sequence[Hex]) -> Fraction:
    """Terrain and markers multiplying the defence of ``h`` (cen:full.combat N, cen:opt.earthworks)."""
    m = Fraction(1)
    ter = _terrain(state, h)
    if ter is not None and ter.melee_defence != 1:
        if ter.defence_applies_vs != "from-lower" or any(
            state.map.terrain(a) != state.map.terrain(h) for a in attacker_hexes
        ):
            m *= ter.melee_defence
    for mk in state.markers.get(h, ()):
        mt = state.terrain_chart.get(mk)
        if mt is not None:
            m *= mt.melee_defence
    return m


def _attack_out(state: CenturionState, frm: Hex, to: Hex) -> Fraction:
    """Attack multiplier for attacking from ``frm`` into ``to`` (river side, caltrops;
    cen:full.cross-river, cen:opt.caltrops)."""
    m = Fraction(1)
    feats = state.map.hexside_features(frm, to)
    for f in ("bridge", "ford", "river"):
        if f in feats:
            ft = state.terrain_chart.get(f)
            if ft is not None:
                m *= ft.melee_attack_out
            break
    for mk in state.markers.get(frm, ()):
        mt = state.terrain_chart.get(mk)
        if mt is not None:
            m *= mt.melee_attack_out
    return m


def _fpf_multiplier(state: CenturionState, h: Hex) -> Fraction:
    m = Fraction(1)
    ter = _terrain(state, h)
    if ter is not None:
        m *= ter.fire_protection
    for mk in state.markers.get(h, ()):
        mt = state.terrain_chart.get(mk)
        if mt is not None:
            m *= mt.fire_protection
    return m


def _rounding(state: CenturionState, b: FullBook, side: str) -> str:
    """cen:opt.fortune: the fortunate side's attacks (defensive fire too) round in its favour."""
    return "attacker" if b.fortune == side else "defender"


def _melee_rounding(state: CenturionState, b: FullBook, side: str, hexes: Sequence[Hex], target: Hex) -> tuple[str, tuple[str, ...]]:
    """Melee rounding: fortune (cen:opt.fortune), else the Command unit within five
    hexes (cen:basic.combat J, which the Full Simulation keeps)."""
    if b.fortune == side:
        return "attacker", ("cen:opt.fortune",)
    friendly = any(
        _is_cmd(state, c) and c.hex is not None and any(c.hex.distance(h) <= (0 if c.dispersed else 5) for h in hexes)
        for c in state.live_units(side)
    )
    if friendly and not state.commands_within(target, state.opponent(side), 5):
        return "attacker", ("cen:basic.combat",)
    return "defender", ()


def _command_modifier(state: CenturionState, side: str, units: Sequence[Unit], participating_cmd: bool) -> tuple[int, tuple[str, ...]]:
    """Die modifier from Command units (cen:opt.command A-C, E; low rolls favour the roller)
    and fury (cen:opt.command I)."""
    mod = 0
    rules: list[str] = []
    b = book(state)
    if opt.active(state, "cen:opt.command") and units:
        need = (len(units) + 1) // 2
        tribe = opt.active(state, "cen:barb.tribe") or opt.active(state, "cen:rom.legion-integrity")

        def counts(cmd: Unit, reach: int, friendly: bool) -> bool:
            n = 0
            for u in units:
                if u.hex is None or cmd.hex is None:
                    continue
                # cen:barb.tribe / cen:rom.legion-integrity limit only a friendly chief's influence;
                # an enemy Command unit's +1 reaches every troop (cen:opt.command A).
                if friendly and tribe and cmd.group and u.group and cmd.group != u.group and not cmd.supreme:
                    continue
                r = 0 if cmd.dispersed else reach
                if cmd.hex.distance(u.hex) <= r:
                    n += 1
            return n >= need

        # cen:opt.command B: "if they participate in combat themselves, within a FIVE hex radius". Read
        # as: a Command unit that has made a melee attack this Combat Phase (this one included) lends its
        # -1 to friendly troops within five hexes for the rest of the phase. Counted only for its own
        # attack, as before, the five could never matter: every attacker stands next to the target.
        ids = ({u.id for u in units} if participating_cmd else set()) | b.cmd_attacked
        if any(counts(c, 5 if c.id in ids else 3, True) for c in state.live_units(side) if _is_cmd(state, c)):
            mod -= 1
        if any(counts(c, 3, False) for c in state.live_units(state.opponent(side)) if _is_cmd(state, c)):
            mod += 1
        if mod:
            rules.append("cen:opt.command")
    if units and sum(1 for u in units if u.furious) * 2 >= len(units) and any(u.furious for u in units):
        mod -= 1
        rules.append("cen:opt.command")
    return mod, tuple(dict.fromkeys(rules))


# ------------------------------------------------------------------ removal and results


def _eliminate(ctx: Context, state: CenturionState, units: Sequence[Unit], rules: tuple[str, ...]) -> None:
    b = book(state)
    for u in units:
        if u.eliminated:
            continue
        h = u.hex
        in_works = h is not None and "earthworks" in state.markers.get(h, ())
        was_in_square = u.in_square
        state.remove(u)
        if was_in_square and h is not None:
            morale.break_up_square(state, h, u.side)
        pts = state.types[u.type].points
        if u.treachery == "leaving" and state.active == u.side:
            # cen:full.treachery D: deserters destroyed before leaving "(by troops still loyal)" are
            # not points lost; destroyed by the enemy (in its own Player-Turn) they count as usual.
            state.lost_points[u.side] -= pts
            state.turn_lost_points[u.side] = state.turn_lost_points.get(u.side, 0) - pts
            b.refund[u.side] = b.refund.get(u.side, 0) + pts
        if state.types[u.type].kind is UnitKind.MOUNT:
            state.lost_points[u.side] = state.lost_points.get(u.side, 0) + 1  # cen:opt.mount-dismount F
        if in_works and h is not None and not state.stack_at(h):
            works_captured(ctx, state, h, u.side)
        if _is_cmd(state, u):
            _command_lost(ctx, state, u)
    for u in units:
        for h in list(b.charge_start):
            if h == u.id:
                del b.charge_start[h]


WORKS_ATTACKED = "full_works_attacked"
"""``state.extra`` key: hexes whose builders were attacked since their last turn of work."""


def works_attacked(state: CenturionState, defenders: Iterable[Unit]) -> None:
    """cen:opt.earthworks: builders work "three turns uninterrupted by combat"; attacked, they
    defend at half and, if they survive, "continue working where they left off": the hex is
    noted, and the builders' next turn does not count towards the three (options._progress_works)."""
    for u in defenders:
        if u.building and u.hex is not None:
            state.extra.setdefault(WORKS_ATTACKED, set()).add(u.hex)


WORKS_CAPTURE_POINTS = 2
"""Points the defenders of captured earthworks lose, and a recapture regains (cen:opt.earthworks)."""


def works_captured(ctx: Context, state: CenturionState, h: Hex, loser: str) -> None:
    """cen:opt.earthworks: the defenders of earthworks are destroyed, so the enemy captures
    them: the defenders lose two additional points. A side taking back earthworks it lost
    by capture ("recapture represents a two point gain") regains two points (our
    reading, L: the gain is the two points the capture cost it, so it needs a capture first)."""
    winner = state.opponent(loser)
    hk = state.hid(h)
    lost_by: set[str] = state.extra.setdefault("full_works_lost", {}).setdefault(h, set())
    state.lost_points[loser] = state.lost_points.get(loser, 0) + WORKS_CAPTURE_POINTS
    _log(ctx, state, "loss", f"the earthworks at {hk} are captured: {loser} lose {WORKS_CAPTURE_POINTS} more points",
         ("cen:opt.earthworks",), side=winner, hex=hk)
    if winner in lost_by:
        lost_by.discard(winner)
        state.lost_points[winner] = state.lost_points.get(winner, 0) - WORKS_CAPTURE_POINTS
        _log(ctx, state, "result", f"{winner} recapture the earthworks at {hk}: {WORKS_CAPTURE_POINTS} points gained",
             ("cen:opt.earthworks",), side=winner, hex=hk)
    lost_by.add(loser)


def _command_lost(ctx: Context, state: CenturionState, cmd: Unit) -> None:
    """Effects of a Command unit's death (cen:opt.command F, I; Civil War G handled at turn end)."""
    if not opt.active(state, "cen:opt.command"):
        return
    side = cmd.side
    b = book(state)
    left = [c for c in state.live_units(side) if _is_cmd(state, c)]
    if opt.is_barbarian(state, side) and not b.panic_used.get(side) and not b.panic_pending.get(side):
        high_king = cmd.supreme or not opt.active(state, "cen:barb.tribe")
        if not left or (high_king and opt.active(state, "cen:barb.tribe")):
            b.panic_pending[side] = True  # cen:opt.command F (cen:barb.tribe: the High King's loss)
            _log(ctx, state, "morale", f"{cmd.id} is lost and the barbarians have no chief left: panic at the start "
                                       f"of their next turn", ("cen:opt.command", "cen:full.panic"), side=side)
        elif opt.active(state, "cen:barb.tribe") and cmd.group and not any(c.group == cmd.group for c in left):
            b.tribe_panic.setdefault(side, set()).add(cmd.group)  # cen:barb.tribe: only that tribe panics
            _log(ctx, state, "morale", f"the chief of tribe {cmd.group} is lost: the tribe panics at the start of its "
                                       f"next turn", ("cen:opt.command", "cen:barb.tribe", "cen:full.panic"), side=side)
    if not left and not opt.is_barbarian(state, side):
        # cen:opt.command F: for non-barbarians the loss of every Command unit "forces 'dispersed'
        # troops to remain so for TWO turns": troops dispersed already stay so for two turns from
        # now (later dispersals last two turns through _dispersal_turns).
        held = [u for u in state.live_units(side) if u.dispersed and u.dispersed < 2]
        for u in held:
            u.dispersed = 2
        if held:
            _log(ctx, state, "morale", f"{side} have lost every Command unit: {', '.join(u.id for u in held)} "
                                       f"remain dispersed for two turns", ("cen:opt.command",), side=side)
    if state.scenario.civil_war and not cmd.supreme and cmd.group:
        morale.treachery_of_command(ctx, state, side, cmd.group, True)  # cen:opt.command G
    roll = ctx.chance.d6(f"fury of the troops of {cmd.id}", ("cen:opt.command",))
    roman = opt.is_roman(state, side)
    if roll <= (2 if roman else 1):
        for u in state.live_units(side):
            if not cmd.group or u.group == cmd.group or cmd.supreme:
                u.furious = 2
        _log(ctx, state, "morale", f"the death of {cmd.id} makes its troops furious (roll {roll})",
             ("cen:opt.command",), side=side)


def _dispersal_turns(state: CenturionState, u: Unit) -> int:
    """One turn; two when demoralized (cen:full.demoralization) or when a
    non-barbarian army has lost all its Command units (cen:opt.command F)."""
    if u.demoralized:
        return 2
    if opt.active(state, "cen:opt.command") and not opt.is_barbarian(state, u.side):
        if not any(_is_cmd(state, c) for c in state.live_units(u.side)):
            return 2
    return 1


def _disperse(state: CenturionState, units: Sequence[Unit]) -> None:
    b = book(state)
    for u in units:
        if u.eliminated:
            continue
        state.disperse(u, _dispersal_turns(state, u))
        if _is_cmd(state, u):
            b.cmd_dispersed[u.side] = True
    morale.drop_out_of_square(state, units)  # a dispersed unit keeps no formation (cen:full.square)


# ------------------------------------------------------------------ movement hooks


_destination_check = opt.warrior_destination_check
"""The Full Simulation's MoveHooks.destination_check (cen:barb.warrior; None in the benchmark's
reference code, which filters destinations with ``refuse_destination`` hex by hex)."""


def move_hooks(state: CenturionState) -> MoveHooks:
    """The Full Simulation's hooks into the engine's movement (cached on the state)."""
    h = state.extra.get("full_hooks")
    if h is None:
        h = MoveHooks(
            stop_hexes=_stop_hexes,
            blocked=_blocked,
            mfa=_mfa,
            movable=_movable,
            stack_limit=_stack_limit,
            after_move=_after_move,
            extra_cost=_extra_cost,
            refuse_destination=opt.warrior_destination_problem,
            destination_check=_destination_check,
            moves_with=_moves_with,
        )
        state.extra["full_hooks"] = h
    return h


@attrs.define
class _Facts:
    """What the movement hooks need of one side's position, worked out once per
    (``state.rev``, Player-Turn, formation bookkeeping, the two rule options it
    reads) and kept on the state:
    the hooks run at every search (several times per unit and phase), the
    stacking limit at every occupied hex a search reaches. Everything that
    changes their answers bumps ``state.rev`` (moves, removals, formations,
    joins, works, retyping) or the Player-Turn."""

    squares: dict[Hex, list[str]]
    """Hex -> the side's units in square there (cen:full.square)."""
    counting: dict[Hex, int]
    """Square hex -> the side's units there that count for stacking."""
    caltrops: frozenset[Hex]
    """Hexes with caltrops (closed to cavalry, cen:opt.caltrops)."""
    tribe_bi: dict[str, frozenset[Hex]]
    """cen:barb.tribe in force: tribe -> hexes holding its Barbarian Infantry."""
    millenarian: bool
    """cen:rom.millenarian in force."""
    joinable: dict[str, frozenset[Hex]] = attrs.field(factory=dict)
    blocked: dict[str, frozenset[Hex]] = attrs.field(factory=dict)
    stops: dict[str, frozenset[Hex]] = attrs.field(factory=dict)
    extra: dict[str, dict[Hex, int]] = attrs.field(factory=dict)


def _facts(state: CenturionState, side: str) -> _Facts:
    b = book(state)
    o = state.options
    key = (state.rev, state.player_turn, len(b.square_joined), len(b.left_square), len(b.square_disbanded),
           len(b.squares_formed), o.get("barbarian_tribe"), o.get("millenarian"))
    slot = ("full_facts", side)
    got = state.extra.get(slot)
    if got is not None and got[0] == key:
        return got[1]
    squares: dict[Hex, list[str]] = {}
    bi: dict[str, set[Hex]] = {}
    tribe = opt.active(state, "cen:barb.tribe")
    types = state.types
    for u in state.live_units(side):
        if u.hex is None:
            continue
        if u.in_square:
            squares.setdefault(u.hex, []).append(u.id)
        if tribe and u.group and not _is_cmd(state, u) and types[u.type].code == "BI":
            bi.setdefault(u.group, set()).add(u.hex)
    counting = {
        h: sum(1 for x in state.stack_at(h) if x.side == side and types[x.type].counts_for_stacking) for h in squares
    }
    caltrops = frozenset(h for h, mks in state.markers.items() if "caltrops" in mks)
    f = _Facts(squares, counting, caltrops, {g: frozenset(v) for g, v in bi.items()},
               opt.active(state, "cen:rom.millenarian"))
    state.extra[slot] = (key, f)
    return f


def _stop_hexes(state: CenturionState, unit: Unit) -> frozenset[Hex]:
    """Hexes the unit must stop on entering: the squares it may join (entered, never
    passed, cen:full.square H); for Swordsmen in square, or out of a square disbanded this
    turn, every hex next to them: they move one hex (cen:full.square D, K; see _one_hex)."""
    f = _facts(state, unit.side)
    got = f.stops.get(unit.id)
    if got is None:
        # River-controlled hexes are not stop hexes: a unit not meaning to attack the controller's
        # flank "may pass through if they wish" (cen:full.cross-river); one that passes may not
        # then attack that flank (_after_move records it, _river_flank_problem refuses it).
        stops = set(_joinable_squares(state, unit))
        if _one_hex(state, unit) and unit.hex is not None:
            stops.update(unit.hex.neighbors())
        got = f.stops[unit.id] = frozenset(stops)
    return got


def _one_hex(state: CenturionState, unit: Unit) -> bool:
    """cen:full.square D, K: "Swordsmen in square have a movement factor of one hex per turn";
    after disbanding they "may move only one hex that turn". Our reading (see the rulings page):
    one hex, whatever its terrain costs, within the unit's own Movement Factor Allowance, so a
    square may step onto a hill or into woods (a cap of one Movement Factor would shut it out)."""
    return (unit.in_square and _is_square_sd(state, unit)) or unit.id in book(state).square_disbanded


def _moves_with(state: CenturionState, unit: Unit) -> tuple[frozenset[str], str, str] | None:
    """MoveHooks.moves_with: Swordsmen in square move only with their whole square, every unit
    in it (cen:full.square D; cen:full.movement C: "Each unit is moved separately (Exception:
    Roman Orbis/Testudo Rule)"). A Swordsmen unit leaves a square only by disbanding it (K);
    the one other unit and Command units may move out alone for two Movement Factors (F)."""
    if not unit.in_square or unit.hex is None or not _is_square_sd(state, unit):
        return None
    ids = frozenset(x.id for x in state.stack_at(unit.hex) if x.side == unit.side and x.in_square)
    return ids, (f"{unit.id} is in the square at {state.hid(unit.hex)}: a square moves as a whole, and its "
                 f"Swordsmen leave it only by disbanding (D, K)"), "cen:full.square"


def _river_controlled(state: CenturionState, side: str) -> frozenset[Hex]:
    """cen:full.cross-river: units directly behind a river control the hexes to their front;
    enemies must stop on entering one."""
    key = ("river_ctl", side, state.player_turn)
    got = state.extra.get(key)
    if got is not None:
        return got
    out: set[Hex] = set()
    for e in state.live_units(state.opponent(side)):
        if e.hex is None or _is_cmd(state, e):
            continue
        for d in (e.facing - 1, e.facing, e.facing + 1):
            n = e.hex.neighbor(d % 6)
            feats = state.map.hexside_features(e.hex, n)
            if any(
                f in feats and state.terrain_chart.get(f) is not None and state.terrain_chart[f].controls_front
                for f in ("river", "ford")
            ):
                out.add(n)
    fz = frozenset(out)
    state.extra[key] = fz
    return fz


def _river_controllers(state: CenturionState, side: str, h: Hex) -> list[Unit]:
    """The enemy (of ``side``) units directly behind a river whose front controls ``h``
    (cen:full.cross-river)."""
    out = []
    for n in h.neighbors():
        for e in state.stack_at(n):
            if e.side == side or _is_cmd(state, e) or e.hex is None:
                continue
            if e.hex.neighbor(e.facing % 6) != h and e.hex.neighbor((e.facing - 1) % 6) != h \
                    and e.hex.neighbor((e.facing + 1) % 6) != h:
                continue
            feats = state.map.hexside_features(e.hex, h)
            if any(f in feats and state.terrain_chart.get(f) is not None and state.terrain_chart[f].controls_front
                   for f in ("river", "ford")):
                out.append(e)
    return out


def _river_flank_problem(state: CenturionState, u: Unit, target: Hex) -> tuple[str, str] | None:
    """cen:full.cross-river: a unit that passed through hexes controlled by units behind a river
    may not attack those units' flanks this turn."""
    passed = book(state).river_passed.get(u.id)
    if not passed or u.hex is None:
        return None
    for e in state.stack_at(target):
        if e.id in passed and e.hex is not None and not is_frontal(e.hex, e.facing, u.hex):
            return (f"{u.id} passed through the river hexes {e.id} controls without stopping: it may not slip "
                    f"behind to attack its flank", "cen:full.cross-river")
    return None


def _blocked(state: CenturionState, unit: Unit) -> frozenset[Hex]:
    """Hexes a unit may not enter or pass: squares it may not join (cen:full.square
    E, F, H; those it may join are stop hexes) and, for cavalry, caltrops
    (cen:opt.caltrops)."""
    f = _facts(state, unit.side)
    got = f.blocked.get(unit.id)
    if got is not None:
        return got
    out = {h for h, ids in f.squares.items() if any(i != unit.id for i in ids)}
    out -= _joinable_squares(state, unit)
    if state.types[unit.type].mounted:
        out |= f.caltrops
    if f.tribe_bi and unit.group and not _is_cmd(state, unit):
        for g, hexes in f.tribe_bi.items():
            if g != unit.group:
                out |= hexes  # cen:barb.tribe: tribes do not stack together
    got = f.blocked[unit.id] = frozenset(out)
    return got


def square_join_problem(state: CenturionState, unit: Unit, h: Hex) -> str | None:
    """Why ``unit`` may not move into its side's formed square on ``h`` this
    Movement Phase, or None if it may (cen:full.square E, F).

    One Swordsmen unit a turn joins a square, up to four Swordsmen in it (B, E);
    one non-Swordsmen unit may be in it, Command units freely (F). Units in a
    square, units that left or disbanded one this turn, and riderless mounts
    do not join.
    """
    hk = state.hid(h)
    members = [u for u in state.stack_at(h) if u.side == unit.side and u.id != unit.id]
    if not any(u.in_square for u in members):
        return f"no square of {unit.side} at {hk}"
    b = book(state)
    if unit.in_square:
        return f"{unit.id} is in a square already"
    if unit.id in b.left_square or unit.id in b.square_disbanded:
        return f"{unit.id} left a square this turn"
    t = state.types[unit.type]
    if t.kind is UnitKind.MOUNT:
        return f"{unit.id} is a riderless mount"
    if _is_square_sd(state, unit):
        if sum(1 for u in members if _is_square_sd(state, u)) >= square.MAX_SQUARE_SWORDSMEN:
            return f"the square at {hk} holds {square.MAX_SQUARE_SWORDSMEN} Swordsmen units already (B)"
        if hk in b.square_joined:
            return f"a Swordsmen unit has joined the square at {hk} this turn already: one a turn (E)"
        return None
    if t.kind is UnitKind.COMMAND:
        return None
    if any(not _is_square_sd(state, u) and not _is_cmd(state, u) for u in members):
        return f"the square at {hk} holds its one non-Swordsmen unit already (F)"
    return None


def _is_square_sd(state: CenturionState, u: Unit) -> bool:
    c = state.capability.get(u.type)
    return c is not None and c.form_square


def square_join_cost(state: CenturionState, unit: Unit) -> int:
    """Movement Factors ``unit`` pays, on top of the terrain, to enter a square:
    three for Swordsmen (cen:full.square E), two for others (F)."""
    return square.SQUARE_JOIN_COST if _is_square_sd(state, unit) else square.SQUARE_OTHER_COST


def _joinable_squares(state: CenturionState, unit: Unit) -> frozenset[Hex]:
    """Hexes of its side's squares ``unit`` may join this phase (cen:full.square E, F)."""
    f = _facts(state, unit.side)
    got = f.joinable.get(unit.id)
    if got is None:
        got = f.joinable[unit.id] = frozenset(
            h for h in f.squares if h != unit.hex and square_join_problem(state, unit, h) is None
        )
    return got


def _extra_cost(state: CenturionState, unit: Unit) -> dict[Hex, int]:
    """MoveHooks.extra_cost: the penalty for entering a square (cen:full.square E, F).

    Ruling: the book's "cost of three Movement Factors to enter" (E) and "two
    Movement Factors to move into" (F, "movement penalties") are read as a
    penalty on top of the hex's terrain cost, not as its replacement."""
    f = _facts(state, unit.side)
    got = f.extra.get(unit.id)
    if got is None:
        joinable = _joinable_squares(state, unit)
        c = square_join_cost(state, unit)
        got = f.extra[unit.id] = {h: c for h in joinable}
    return got


def _mfa(state: CenturionState, unit: Unit) -> int:
    """Effective MFA: Swordsmen in square 1 (cen:full.square D), 1 after disbanding (K),
    two less for another unit moving out of a square or out of it already (F),
    heavy rain/mud -2 (cen:opt.weather), half while mounting/dismounting
    (cen:opt.mount-dismount E)."""
    b = book(state)
    m = state.types[unit.type].movement
    sd = _is_square_sd(state, unit)
    # Swordsmen in square, or just disbanded, move one hex (D, K): _one_hex stops them on the
    # first hex entered, whatever it costs within their own allowance.
    if unit.id in b.dismounting:
        m = m // 2
    if unit.id in b.left_square or (unit.in_square and not sd):
        m = max(0, m - square.SQUARE_OTHER_COST)
    if b.weather in ("heavy-rain", "mud"):
        m = max(0, m - 2)
    return m


def _movable(state: CenturionState, unit: Unit) -> tuple[str, str] | None:
    b = book(state)
    if unit.panicked:
        return f"{unit.id} is panicked and runs for the edge", "cen:full.panic"
    if unit.treachery == "leaving":
        return f"{unit.id} is leaving the field", "cen:full.treachery"
    if unit.id in b.squares_formed:
        return f"{unit.id} formed square in place this turn and may not move", "cen:full.square"
    if unit.building:
        return f"{unit.id} is building works and may not move", "cen:opt.earthworks"
    return _command_order(state, unit)


def _precedence(state: CenturionState, side: str) -> list[str]:
    """Movement order of commands (cen:opt.command H): the Supreme Command Unit's
    (with the Skirmishers and Light Cavalry and every unit of no command), then the
    subordinate commands by their keys (I, II, III)."""
    groups = sorted({u.group for u in state.live_units(side)
                     if _is_cmd(state, u) and not u.supreme and u.group})
    return ["", *groups]


def _order_key(state: CenturionState, u: Unit, groups: list[str]) -> int:
    if u.type in ("SK", "LC", "LI", "AR", "SL") or _is_cmd(state, u) and u.supreme:
        return 0
    return groups.index(u.group) if u.group in groups else 0


def _command_order(state: CenturionState, unit: Unit) -> tuple[str, str] | None:
    """cen:opt.command H: a later command moves only when the earlier ones have moved."""
    if not opt.active(state, "cen:opt.command"):
        return None
    groups = _precedence(state, unit.side)
    if len(groups) < 2:
        return None
    mine = _order_key(state, unit, groups)
    if mine == 0:
        return None
    b = book(state)
    for u in state.live_units(unit.side):
        if u.moved or u.dispersed or u.contact or u.panicked or u.treachery or u.building \
                or u.id in b.squares_formed:
            continue
        k = _order_key(state, u, groups)
        if k < mine:
            return (f"{unit.id} (command {unit.group}) moves after command {groups[k] or 'of the Supreme Command Unit'}"
                    f": {u.id} has not moved yet (move it or let it stay)", "cen:opt.command")
    return None


def _stack_limit(state: CenturionState, unit: Unit, h: Hex) -> int:
    if unit.in_square and unit.hex != h:
        # cen:full.square D: a square moves whole, into a hex free of its side's units (our reading:
        # units join a square only as E and F say, one at a time, paying for it); the whole square
        # fits there (four Swordsmen, B, and one other unit, F).
        if not any(x.side == unit.side for x in state.stack_at(h)):
            return square.MAX_SQUARE_SWORDSMEN + 1
        if _is_square_sd(state, unit):
            return 0
    if h not in state.stacks:
        return stack_limit(state, unit, h)  # an empty hex: no square, no legion stack to extend
    f = _facts(state, unit.side)
    if h in f.squares:
        if unit.hex != h:
            # cen:full.square B, E, F: a square takes a unit only when it may join
            # (square_join_problem); then exactly that one unit more
            return f.counting[h] + 1 if h in _joinable_squares(state, unit) else 0
        return 0 if state.types[unit.type].code not in ("SD", "SD-I", "SD-III") else square.MAX_SQUARE_SWORDSMEN
    lim = stack_limit(state, unit, h)
    if f.millenarian and unit.group:
        here = state.stack_at(h)
        legion_stack = [u for u in here if u.group == unit.group and (_cap(state, u) and _cap(state, u).form_square)]
        if len(legion_stack) >= 3 and not any(
            len([x for x in state.stack_at(o.hex) if x.group == unit.group]) >= 4
            for o in state.live_units(unit.side) if o.hex is not None and o.hex != h and o.group == unit.group
        ):
            lim = max(lim, 4)  # cen:rom.millenarian: one stack of four per legion
    return lim


def _after_move(ctx: Context, state: CenturionState, unit: Unit, path: list[Hex]) -> None:
    """Leave a square moved out of, join a square entered (cen:full.square E, F);
    record a charge (cen:full.cavalry): the straight run at the end of the path,
    broken by units in the way and by terrain closed to charges."""
    dest = path[-1]
    moving = state.extra.get(MOVING_GROUP, frozenset())
    with_square = any(_is_square_sd(state, state.units[i]) and state.units[i].in_square for i in moving
                      if i != unit.id and i in state.units)
    if unit.in_square and dest != path[0] and not _is_square_sd(state, unit) and not with_square:
        # F: "likewise to move out" -- the two Movement Factors came off its allowance (_mfa)
        unit.in_square = False
        book(state).left_square.add(unit.id)
        state.rev += 1
        ctx.event("formation", f"{unit.id} leaves the square at {state.hid(path[0])} "
                  f"({square.SQUARE_OTHER_COST} Movement Factors of its move)",
                  rules=("cen:full.square",), side=unit.side, unit=unit.id)
    elif len(path) > 1 and not unit.in_square and any(
        u.in_square for u in state.stack_at(dest) if u.side == unit.side and u.id != unit.id
    ):
        unit.in_square = True
        hk = state.hid(dest)
        if _is_square_sd(state, unit):
            book(state).square_joined.add(hk)
        state.rev += 1  # the movement hooks' caches key on it
        ctx.event("formation", f"{unit.id} joins the square at {hk} "
                  f"({square_join_cost(state, unit)} Movement Factors of its move)",
                  rules=("cen:full.square",), side=unit.side, unit=unit.id)
    if len(path) > 2 and _river_controlled(state, unit.side).intersection(path[1:-1]):
        passed = {e.id for h in path[1:-1] for e in _river_controllers(state, unit.side, h)}
        if passed:
            book(state).river_passed.setdefault(unit.id, set()).update(passed)
    t = state.types[unit.type]
    if t.charge_length <= 0 or unit.dismounted:
        return

    def blocked(h: Hex) -> bool:
        if state.side_at(h) is not None and h != path[-1]:
            return True
        ter = _terrain(state, h)
        if ter is not None and not ter.charge_through:
            return True
        return any(
            not state.terrain_chart[m].charge_through for m in state.markers.get(h, ()) if m in state.terrain_chart
        )

    n = cavalry.charge_length_of_path(path, unit.facing, blocked)
    start = path[-1 - n]
    if 0 < len(path) - 1 and n < t.charge_length:
        k, first = _straight_charge_possible(state, unit, path, blocked)
        if k > n:
            n, start = k, first
    b = book(state)
    if n > 0:
        # "Cavalry charging from different locations MAY NOT end their charges on the same hex"
        # (cen:full.cavalry): a run ending where another unit's charge from elsewhere ended is no charge.
        clash = [o for o in state.stack_at(dest) if o.id != unit.id and o.side == unit.side
                 and o.charged_this_turn and b.charge_start.get(o.id, start) != start]
        if clash:
            ctx.event("move", f"{unit.id} ends at {state.hid(dest)}, where {clash[0].id}'s charge from "
                      f"{state.hid(b.charge_start[clash[0].id])} ended: cavalry charging from different "
                      f"locations may not end their charges on the same hex, so its move is no charge",
                      rules=("cen:full.cavalry",), side=unit.side, unit=unit.id)
            n = 0
    unit.charge_length = n
    unit.charged_this_turn = n > 0
    if n > 0:
        b.charge_start[unit.id] = start


def _straight_charge_possible(state: CenturionState, unit: Unit, path: list[Hex], blocked: Any) -> tuple[int, Hex]:
    """The longest straight charge (up to the unit's need) that could have ended this move,
    and the hex it starts from.

    The engine moves a unit along a cheapest path to its destination and final
    facing, the one ending in the longest straight run among equally cheap
    ones; a longer run may still cost more. cen:full.cavalry lets cavalry "ride away ... to gain room for a proper charge",
    so the charge counts the longest straight run, in the final facing, that the
    unit could have made within its allowance to the same hex: reachable at the
    run's first hex already facing that way, then the run's hexes (free of units and
    open to charges) at their plain entry and hexside costs (roads not counted).
    """
    from ancients_games.centurion.movement import cost_table, reachable

    start, dest = path[0], path[-1]
    face0 = state.extra.get("full_move_start", {}).get(unit.id)
    if face0 is None or start == dest:
        return 0, dest
    f = unit.facing
    back = (f + 3) % 6
    run = [dest]
    for _ in range(state.types[unit.type].charge_length):
        run.append(run[-1].neighbor(back))
    if any(h not in state.numbering for h in run):
        run = run[: next(i for i, h in enumerate(run) if h not in state.numbering)]
    if len(run) < 2:
        return 0, dest
    hooks = move_hooks(state)
    got = state.extra.get(LAST_REACH)
    if got is not None and got[0] == unit.id and got[1] + 1 == state.rev and got[2] == face0 \
            and got[3].start == start and not unit.in_square:
        reach = got[3]  # the Movement Phase's own search, made just before this move (and nothing since)
    else:
        face_now = unit.facing
        state.move(unit, start)
        unit.facing = face0
        try:
            reach = reachable(state, unit, hooks)
        finally:
            state.move(unit, dest)
            unit.facing = face_now
    ct = cost_table(state)
    kind = str(state.types[unit.type].kind)
    budget = (hooks.mfa(state, unit) if hooks.mfa is not None else state.types[unit.type].movement) * ct.scale
    closed = set(hooks.blocked(state, unit)) if hooks.blocked is not None else set()
    closed |= set(hooks.stop_hexes(state, unit)) if hooks.stop_hexes is not None else set()
    best = (0, dest)
    for k in range(1, len(run)):
        first = run[k]
        if k > 1 and (blocked(run[k - 1]) or run[k - 1] in closed):
            break  # a charge may not pass through units, closed terrain, squares or river-controlled hexes
        at = reach.facings.get(first, {}).get(f) if first != start or face0 != f else 0
        if at is None:
            continue
        cost = at
        ok = True
        for a, b in zip(run[k:0:-1], run[k - 1::-1]):
            e = ct.entry[kind].get(b)
            x = ct.crossing[kind].get((a, b), 0)
            if e is None or x is None:
                ok = False
                break
            cost += e + x + ct.exit_marker.get(a, 0)
        if ok and cost <= budget:
            best = (k, first)
    return best


# ------------------------------------------------------------------ unit abilities


def _melee_factor(state: CenturionState, u: Unit) -> Fraction | None:
    """What ``u`` brings to a melee attack before halvings, or None if it may not attack."""
    t = _t(state, u)
    cap = _cap(state, u)
    if u.dispersed or u.panicked or u.treachery == "leaving" or u.hex is None or u.building:
        return None
    if t.kind is UnitKind.MOUNT or u.id in book(state).dismounting:
        return None
    if cap is not None and cap.melee_offence == "no":
        return None
    if u.in_square:
        members = [x for x in state.stack_at(u.hex) if x.side == u.side and x.in_square]
        if cap is not None and cap.form_square:
            att = square.square_attack([_t(state, x) for x in members], state.capability)
            return None if att is None else Fraction(t.melee_defence_front, 2)
        if cap is not None and cap.charge:
            return None  # cen:full.square J: no charging out of a square
    if t.charge_length > 0 and not u.dismounted:
        return Fraction(cavalry.charge_factor(t, u.charge_length))
    if t.melee_attack <= 0:
        return None
    return Fraction(t.melee_attack)


def _can_fire(state: CenturionState, u: Unit, defensive: bool = False) -> bool:
    """May ``u`` fire now? Panicked units may not attack but keep half their fire
    for defence (cen:full.panic B); dispersed, deserting and working units do not fire."""
    t = _t(state, u)
    cap = _cap(state, u)
    if u.dispersed or (u.panicked and not defensive) or u.treachery == "leaving" or u.hex is None or u.building:
        return False
    if cap is None or not (cap.fire_defence if defensive else cap.fire_offence):
        return False
    if u.id in book(state).dismounting:
        return False
    return fire.fire_allowed(t, book(state).weather)


def _fire_factor(state: CenturionState, u: Unit) -> Fraction:
    v = Fraction(_t(state, u).fire)
    if u.panicked:
        v /= 2  # cen:full.panic B
    return v


def _reach(state: CenturionState, u: Unit) -> int:
    assert u.hex is not None
    return fire.fire_range(_t(state, u), _on_hill(state, u.hex), book(state).weather)


def _fire_blocked(state: CenturionState):
    def blocked(h: Hex) -> bool:
        if state.stacks.get(h):
            return True
        ter = _terrain(state, h)
        return ter is not None and ter.blocks_fire
    return blocked


def _deserter_hexes(state: CenturionState, side: str) -> list[Hex]:
    """Hexes holding only ``side``'s own deserters: its loyal troops may attack them before they
    leave (cen:full.treachery D)."""
    out: list[Hex] = []
    for u in state.units.values():  # state.live_units(side), the deserters tested first (most games have none)
        if u.treachery == "leaving" and u.side == side and u.hex is not None and not u.eliminated and \
                u.hex not in out and all(x.side == side and x.treachery == "leaving" for x in state.stack_at(u.hex)):
            out.append(u.hex)
    return out


def _is_deserter_hex(state: CenturionState, side: str, h: Hex) -> bool:
    st = state.stack_at(h)
    return bool(st) and all(x.side == side and x.treachery == "leaving" for x in st)


def _fire_targets(state: CenturionState, u: Unit) -> list[Hex]:
    assert u.hex is not None
    enemy = state.opponent(u.side)
    units = state.units
    targets = [h for h, ids in state.stacks.items() if ids and units[ids[0]].side == enemy]  # occupied_by(enemy)
    if u.treachery != "leaving":
        targets.extend(_deserter_hexes(state, u.side))  # cen:full.treachery D
    return fire.fire_targets_in_reach(
        u.hex, u.facing, _reach(state, u), _on_hill(state, u.hex), targets, _fire_blocked(state)
    )


_ADJACENT: dict[Hex, tuple[Hex, ...]] = {}
"""hex -> ``hex.neighbors()`` (geometry only, the same for every map; asked for every unit
at every melee allocation)."""


def _adjacent(h: Hex) -> tuple[Hex, ...]:
    got = _ADJACENT.get(h)
    if got is None:
        if len(_ADJACENT) > 100_000:
            _ADJACENT.clear()
        got = _ADJACENT[h] = h.neighbors()
    return got


def _melee_targets(state: CenturionState, u: Unit) -> list[Hex]:
    assert u.hex is not None
    out = []
    for h in _adjacent(u.hex):
        s = state.side_at(h)
        if s is None or not is_frontal(u.hex, u.facing, h):
            continue
        if s == u.side and (u.treachery == "leaving" or not _is_deserter_hex(state, s, h)):
            continue  # own troops; only deserters still on the field may be attacked (cen:full.treachery D)
        if _is_cmd(state, u) and not opt.active(state, "cen:opt.command"):
            # cen:full.combat: Command units melee only dispersed units and enemy Command units.
            if not all(x.dispersed or _is_cmd(state, x) for x in state.stack_at(h)):
                continue
        if _river_flank_problem(state, u, h) is not None:  # cen:full.cross-river
            continue
        out.append(h)
    return out


# ------------------------------------------------------------------ the game


def play_full(ctx: Context, state: CenturionState,
              resume: tuple[Any, ...] | None = None) -> Generator[Decision, str, Outcome]:
    """Play a Full Simulation game from its set-up state (cen:full.sequence).

    Each Player-Turn starts at a checkpoint ``("full", game-turn, side index)``,
    and the choices of a unit in its Movement Phase made while the side's units moved
    number a multiple of :data:`MOVE_CHECKPOINT_EVERY` are one named ``("full",
    game-turn, side index, "move")``; ``resume`` (the checkpoint without its
    ``"full"``) plays on from there (``CenturionGame.resume``)."""
    from ancients_games.centurion.full import deployment

    b = book(state)
    if resume is None:
        _tables(ctx, state)
        opt.apply_setup_options(ctx, state)
        yield from deployment.deployment_phase(ctx, state)
    first_turn, first_side = resume[:2] if resume is not None else (1, 0)
    turns = state.scenario.turns or 12
    for turn in range(first_turn, turns + 1):
        if resume is None or turn != first_turn:
            state.turn = turn
            state.begin_game_turn()
            b.cmd_dispersed = {}
            _log(ctx, state, "turn", f"Game-Turn {turn}", SEQ, side=None)
        for i, side in enumerate(state.sides):
            if resume is not None and turn == first_turn and i < first_side:
                continue
            if resume is not None and turn == first_turn and i == first_side and resume[2:] == ("move",):
                out = yield from player_turn_from_movement(ctx, state, side, ("full", turn, i, "move"))
                resume = None
                if out is not None:
                    return out
                continue
            ctx.checkpoint(("full", turn, i))
            out = yield from player_turn(ctx, state, side)
            if out is not None:
                return out
        morale.threshold_drop(ctx, state)
        morale.check_panic(ctx, state)
        out = yield from end_of_turn(ctx, state)
        if out is not None:
            return out
    return final_outcome(state, "the scenario's last turn is played")


def player_turn(ctx: Context, state: CenturionState, side: str) -> Generator[Decision, str, Outcome | None]:
    """One Player-Turn of ``side``: start, then the five phases (cen:full.sequence)."""
    b = book(state)
    state.begin_player_turn(side)
    state.phase = "start"
    b.squares_formed.clear()
    b.square_disbanded.clear()
    b.dismounting.clear()
    b.charge_start.clear()
    b.square_joined.clear()
    b.left_square.clear()
    b.river_passed.clear()
    for k in [k for k in state.extra if isinstance(k, tuple) and k and k[0] == "river_ctl"]:
        del state.extra[k]
    for u in state.live_units(side):
        if u.furious:
            u.furious -= 1
    if b.panic_pending.get(side):
        morale.start_panic(ctx, state, side)
    for g in sorted(b.tribe_panic.pop(side, ())):
        morale.start_panic(ctx, state, side, group=g)
    out = yield from opt.treachery_step(ctx, state, side)
    if out is not None:
        return out
    push_out_light_cavalry(ctx, state)  # defectors may have closed a ring
    morale.rally(ctx, state, side)
    yield from opt.start_of_turn_actions(ctx, state, side)
    # 1. Movement
    state.phase = "movement"
    morale.run_for_the_edge(ctx, state, side)
    state.extra["full_move_start"] = {u.id: u.facing for u in state.live_units(side)}
    state.extra["full_move_start_hex"] = {u.id: u.hex for u in state.live_units(side)}
    return (yield from player_turn_from_movement(ctx, state, side, ("full", state.turn, state.sides.index(side), "move")))


MOVE_CHECKPOINT_EVERY = 6
"""The Movement Phase (cen:full.movement) is a session checkpoint at the choices of a unit
made while the number of the side's units already moved is a multiple of this: a
checkpoint copy (about 270 objects) and the garbage collector's walks over the hundreds a
game keeps cost more than replaying the answers of the moves in between (undo and fork
replay at most that many moves)."""


def player_turn_from_movement(ctx: Context, state: CenturionState, side: str,
                              checkpoint: tuple[Any, ...]) -> Generator[Decision, str, Outcome | None]:
    """The rest of ``side``'s Player-Turn from its Movement Phase (cen:full.sequence); each
    choice of a unit to move made while the number of units moved is a multiple of
    :data:`MOVE_CHECKPOINT_EVERY` is the session checkpoint ``checkpoint``."""
    yield from movement_phase(ctx, state, side, move_hooks(state), checkpoint, MOVE_CHECKPOINT_EVERY)
    opt.after_movement(ctx, state, side)
    push_out_light_cavalry(ctx, state)
    yield from opt.raze_step(ctx, state, side)
    # 2. Attack allocation
    state.phase = "allocation"
    attacks = yield from allocation_phase(ctx, state, side)
    # 3. Defensive fire
    state.phase = "defensive-fire"
    yield from defensive_fire_phase(ctx, state, side, attacks)
    # 4. Offensive fire
    state.phase = "offensive-fire"
    offensive_fire_phase(ctx, state, side, attacks)
    # 5. Melee
    state.phase = "melee"
    yield from melee_phase(ctx, state, side, attacks)
    state.end_player_turn(side)
    morale.end_of_player_turn_morale(ctx, state, side, {s: opt.is_barbarian(state, s) for s in state.sides})
    morale.check_panic(ctx, state)
    return civil_war_check(state)


# ------------------------------------------------------------------ 2. allocation


def _allocated(attacks: Sequence[Attack]) -> set[str]:
    return {uid for a in attacks for uid in a.units}


def _melee_mates(state: CenturionState, attacks: Sequence[Attack], cur: Attack, target: Hex,
                 h: Hex | None) -> list[Unit]:
    """Units on ``h`` already meleeing ``target`` this phase, in ``cur`` or in another attack on it:
    all melee on one hex is one battle (cen:full.combat J, see ``_merged``), so case H's
    homogeneity binds them together."""
    ids = list(cur.units)
    for a in attacks:
        if a is not cur and a.target == target and a.mode in ("melee", "both"):
            ids.extend(i for i in a.units if i not in ids)
    return [state.units[i] for i in ids if state.units[i].hex == h]


_Memo = dict[tuple[str, str], list[Hex]]
"""Attack Allocation's memo: (``fire`` or ``melee``, unit id) -> the unit's targets. The phase
changes nothing on the map, so a unit's fire and melee targets stay the same through it."""


def _memo_targets(memo: _Memo | None, kind: str, state: CenturionState, u: Unit) -> list[Hex]:
    """:func:`_fire_targets` (``kind`` ``fire``) or :func:`_melee_targets` of ``u``, worked out
    once per Attack Allocation when the phase hands in its ``memo``."""
    if memo is None:
        return _fire_targets(state, u) if kind == "fire" else _melee_targets(state, u)
    got = memo.get((kind, u.id))
    if got is None:
        got = memo[(kind, u.id)] = _fire_targets(state, u) if kind == "fire" else _melee_targets(state, u)
    return got


def _eligible(state: CenturionState, side: str, target: Hex, mode: str, attacks: Sequence[Attack], cur: Attack,
              first: bool = False, memo: _Memo | None = None) -> list[Unit]:
    """Units that may join ``cur`` (cen:full.combat A-C, H, L; cen:full.cavalry; cen:rom.legion-integrity);
    with ``first``, only the first of them (enough to know whether any may: :func:`_targets`)."""
    used = _allocated(attacks) | set(cur.units)
    b = book(state)
    out = []
    li = opt.active(state, "cen:rom.legion-integrity")
    for u in state.live_units(side):
        if u.id in used or u.hex is None:
            continue
        ok = False
        if mode in ("melee", "both"):
            if u.hex.distance(target) == 1 and target in _memo_targets(memo, "melee", state, u) and _melee_factor(state, u) is not None:
                same = _melee_mates(state, attacks, cur, target, u.hex)
                if not same or melee.homogeneity_problem(
                    [_t(state, x) for x in [*same, u]], [x.group for x in [*same, u]], li
                ) is None:
                    ok = True
                if ok and _t(state, u).charge_length > 0 and u.charged_this_turn:
                    start = b.charge_start.get(u.id)
                    others = [b.charge_start[x] for x in cur.units if x in b.charge_start and state.units[x].hex == u.hex]
                    if start is not None and cavalry.charge_problem(u.hex, target, u.facing, others, start):
                        ok = False
            if mode == "both":
                cap = _cap(state, u)
                ok = ok and cap is not None and cap.fire_and_melee == "same-target" and _can_fire(state, u) \
                    and target in _memo_targets(memo, "fire", state, u)
        elif mode == "fire":
            ok = _can_fire(state, u) and target in _memo_targets(memo, "fire", state, u)
        if ok:
            out.append(u)
            if first:
                break
    return out


def _fill_all(state: CenturionState, side: str, attacks: Sequence[Attack], cur: Attack,
              memo: _Memo | None = None) -> Attack:
    """Add every unit that may still join ``cur``, one by one (homogeneity re-checked each time)."""
    for u in _eligible(state, side, cur.target, cur.mode, attacks, cur, memo=memo):
        if u in _eligible(state, side, cur.target, cur.mode, attacks, cur, memo=memo):
            cur.units.append(u.id)
    return cur


def _targets(state: CenturionState, side: str, attacks: Sequence[Attack],
             memo: _Memo | None = None) -> dict[Hex, set[str]]:
    used = _allocated(attacks)
    taken = {(a.target, a.mode) for a in attacks}
    out: dict[Hex, set[str]] = {}
    for u in state.live_units(side):
        if u.id in used or u.hex is None:
            continue
        if _melee_factor(state, u) is not None:
            for h in _memo_targets(memo, "melee", state, u):
                if (h, "melee") not in taken:
                    out.setdefault(h, set()).add("melee")
        if _can_fire(state, u):
            for h in _memo_targets(memo, "fire", state, u):
                if (h, "fire") not in taken:
                    out.setdefault(h, set()).add("fire")
                cap = _cap(state, u)
                if cap is not None and cap.fire_and_melee == "same-target" and h in _memo_targets(memo, "melee", state, u) \
                        and _melee_factor(state, u) is not None and (h, "both") not in taken:
                    out.setdefault(h, set()).add("both")
    # A target and kind of attack is offered only if some unit may actually join it: a unit that
    # fronts the hex may still be barred by case H's homogeneity with stack-mates already meleeing
    # it in another attack (cen:full.combat H), or by its charge (cen:full.cavalry). Offering such a
    # pair would lead to an empty attack that changes nothing and the same question again.
    for h in list(out):
        out[h] = {m for m in out[h] if _eligible(state, side, h, m, attacks, Attack(h, m), first=True, memo=memo)}
        if not out[h]:
            del out[h]
    return out


def _stack_text(state: CenturionState, h: Hex) -> str:
    kinds: dict[str, int] = {}
    for u in state.stack_at(h):
        kinds[u.type] = kinds.get(u.type, 0) + 1
    return " ".join(f"{n}x{k}" if n > 1 else k for k, n in kinds.items())


def _charge_note(state: CenturionState, u: Unit) -> str:
    """How a cavalry unit's charge counts (cen:full.cavalry): only the straight run at the
    end of its move is a charge; each hex short of its Melee Attack Factor costs one."""
    t = _t(state, u)
    if t.charge_length <= 0 or u.dismounted:
        return ""
    n = u.charge_length
    f = cavalry.charge_factor(t, n)
    if n >= t.charge_length:
        return f", full charge of {n} straight hexes: attack {f}"
    return (f", charge of {n} straight hexes of the {t.charge_length} needed (a charge must be straight "
            f"along its whole length): attack {f}")


def _unit_of(state: CenturionState, text: str) -> Unit | None:
    t = text.strip()
    return state.units.get(t.upper()) or state.units.get(t)


def _cannot_attack(state: CenturionState, u: Unit) -> tuple[str, str] | None:
    """Why ``u`` may not attack at all this Player-Turn, or None."""
    b = book(state)
    if u.eliminated or u.hex is None:
        return f"{u.id} is no longer on the map", "cen:full.combat"
    if u.dispersed:
        return f"{u.id} is dispersed and may not attack", "cen:full.combat"
    if u.panicked:
        return f"{u.id} is panicked: units in panic may not attack (B)", "cen:full.panic"
    if u.treachery == "leaving":
        return f"{u.id} has turned traitor and is leaving the field", "cen:full.treachery"
    if u.building:
        return f"{u.id} is building works and may not fight until they are done", "cen:opt.earthworks"
    if _t(state, u).kind is UnitKind.MOUNT:
        return f"{u.id} is a riderless mount with no Combat Factor (B)", "cen:opt.mount-dismount"
    if u.id in b.dismounting:
        return f"{u.id} is mounting or dismounting this turn: no combat may occur (E)", "cen:opt.mount-dismount"
    return None


def _melee_problem(state: CenturionState, u: Unit, target: Hex) -> tuple[str, str] | None:
    """Why ``u`` may not melee ``target`` (cen:full.combat A, M; cen:full.facing; square; Command units)."""
    assert u.hex is not None
    tk, uh = state.hid(target), state.hid(u.hex)
    d = u.hex.distance(target)
    if d != 1:
        return (f"{u.id} at {uh} is {d} hexes from {tk}: units melee only enemy units in one of the three hexes "
                f"adjacent to their front (case A)", "cen:full.combat")
    if not is_frontal(u.hex, u.facing, target):
        return (f"{tk} is not to the front of {u.id} (it faces {state.numbering.direction_name(u.facing)}): a unit "
                f"may attack only to its front (case M)", "cen:full.facing")
    cap = _cap(state, u)
    if _is_cmd(state, u) and not opt.active(state, "cen:opt.command") and target not in _melee_targets(state, u):
        return (f"{u.id} is a Command unit: Command units melee only dispersed units and enemy Command units",
                "cen:full.combat")
    if u.in_square:
        members = [x for x in state.stack_at(u.hex) if x.side == u.side and x.in_square]
        if cap is not None and cap.form_square and square.square_attack(
                [_t(state, x) for x in members], state.capability) is None:
            return (f"the square at {uh} holds a non-Swordsmen unit: Swordsmen in square may not attack (G)",
                    "cen:full.square")
        if cap is not None and cap.charge:
            return f"{u.id} may not charge out of a square (J)", "cen:full.square"
    if cap is not None and cap.melee_offence == "no" or _melee_factor(state, u) is None:
        return f"{u.id} has no Melee Attack Factor to use", "cen:full.combat"
    return _river_flank_problem(state, u, target)


def _fire_problem(state: CenturionState, u: Unit, target: Hex, defensive: bool = False) -> tuple[str, str] | None:
    """Why ``u`` may not fire at ``target`` (cen:full.combat B, D; cen:opt.weather)."""
    assert u.hex is not None
    t = _t(state, u)
    cap = _cap(state, u)
    tk, uh = state.hid(target), state.hid(u.hex)
    if t.fire <= 0 or cap is None or not (cap.fire_defence if defensive else cap.fire_offence):
        return (f"{u.id} has no range weapon: only missile troops fire (Pikemen, Swordsmen, Barbarian "
                f"Infantry, Light Cavalry and Command units fight hand to hand only)", "cen:full.combat")
    w = book(state).weather
    if not fire.fire_allowed(t, w):
        return f"{u.id} may not fire in this weather ({w})", "cen:opt.weather"
    if u.panicked and not defensive:
        return f"{u.id} is panicked and may not attack (B)", "cen:full.panic"
    reach = _reach(state, u)
    d = u.hex.distance(target)
    hill = _on_hill(state, u.hex)
    if d > reach:
        why = "one hex, two from a hilltop" + ("; fog stops fire beyond basic range" if w == "fog" else "")
        return (f"{tk} is {d} hexes from {u.id} at {uh}: out of range (its range here is {reach}: {why}; "
                f"cases B, D)", "cen:full.combat")
    if not in_front_arc(u.hex, u.facing, target):
        return (f"{tk} is outside the 120-degree arc of fire of {u.id} (it faces "
                f"{state.numbering.direction_name(u.facing)}; case B)", "cen:full.facing")
    if not hill and d > 1 and not fire.in_field_of_fire(u.hex, u.facing, target, reach, hill, _fire_blocked(state)):
        return (f"units or obstacles stand between {u.id} and {tk}: missile units may not fire through them "
                f"except from a hilltop (case D)", "cen:full.combat")
    return None


def _join_problem(state: CenturionState, side: str, u: Unit, target: Hex, mode: str, attacks: Sequence[Attack],
                  cur: Attack) -> tuple[str, str] | None:
    """Why unit ``u`` may not join the attack ``cur`` (cen:full.combat A-C, H, L; cen:full.cavalry)."""
    if u.side != side:
        return f"{u.id} is not yours", "cen:full.combat"
    if u.id in cur.units:
        return f"{u.id} is already in this attack", "cen:full.combat"
    if u.id in _allocated(attacks):
        return (f"{u.id} is already allocated to another attack: no unit may take part in more than one attack "
                f"a turn (case L)", "cen:full.combat")
    why = _cannot_attack(state, u)
    if why is not None:
        return why
    if mode in ("melee", "both"):
        why = _melee_problem(state, u, target)
        if why is not None:
            return why
        same = _melee_mates(state, attacks, cur, target, u.hex)
        li = opt.active(state, "cen:rom.legion-integrity")
        h = melee.homogeneity_problem([_t(state, x) for x in [*same, u]], [x.group for x in [*same, u]], li) \
            if same else None
        if h is not None:
            return f"{h} (case H)", "cen:rom.legion-integrity" if "legion" in h else "cen:full.combat"
        b = book(state)
        if _t(state, u).charge_length > 0 and u.charged_this_turn and u.hex is not None:
            start = b.charge_start.get(u.id)
            others = [b.charge_start[x] for x in cur.units if x in b.charge_start and state.units[x].hex == u.hex]
            if start is not None:
                p = cavalry.charge_problem(u.hex, target, u.facing, others, start)
                if p is not None:
                    return (f"{u.id} charged from {state.hid(start)} to {state.hid(u.hex)}: {p}; charges must be "
                            f"straight along their whole length and end adjacent to the attacked unit, facing it",
                            "cen:full.cavalry")
        if mode == "both":
            cap = _cap(state, u)
            if cap is None or cap.fire_and_melee != "same-target":
                return (f"{u.id} may not fire and melee in one turn: only Byzantine Cataphracts may, and only against "
                        f"the same target", "cen:full.cavalry")
            return _fire_problem(state, u, target)
        return None
    return _fire_problem(state, u, target)


def _barred_melee(state: CenturionState, side: str, h: Hex, attacks: Sequence[Attack]) -> tuple[str, str] | None:
    """Why the nearest unallocated unit of ``side`` that fronts ``h`` may still not join a melee on it
    (case H with stack-mates already meleeing it, or its charge: see ``_join_problem``), or None."""
    used = _allocated(attacks)
    for u in sorted((u for u in state.live_units(side) if u.hex is not None and u.id not in used),
                    key=lambda u: (u.hex.distance(h), u.id)):
        if _cannot_attack(state, u) is not None or _melee_problem(state, u, h) is not None:
            continue
        why = _join_problem(state, side, u, h, "melee", attacks, Attack(h, "melee"))
        if why is not None:
            if u.id in why[0]:
                return why
            return f"{u.id} at {state.hid(u.hex)} may not melee {state.hid(h)}: {why[0]}", why[1]
    return None


def _target_problem(state: CenturionState, side: str, h: Hex, attacks: Sequence[Attack]) -> tuple[str, str]:
    """Why no attack may be allocated against ``h``: the reason of the nearest of ``side``'s units."""
    hk = state.hid(h)
    if state.side_at(h) in (None, side) and not _is_deserter_hex(state, side, h):
        return f"{hk} holds no enemy units (nor deserters of yours)", "cen:full.combat"
    if any(a.target == h for a in attacks) and not _targets(state, side, attacks).get(h):
        barred = _barred_melee(state, side, h, attacks)
        if barred is not None:
            return barred
        return (f"{hk} is already attacked by every unit of yours that can reach it (case L: one attack a unit)",
                "cen:full.combat")
    used = _allocated(attacks)
    cands = sorted((u for u in state.live_units(side) if u.hex is not None and u.id not in used),
                   key=lambda u: (u.hex.distance(h), u.id))
    if not cands:
        return "all your units are already allocated to attacks (case L)", "cen:full.combat"
    melee_why: tuple[str, str] | None = None
    fire_why: tuple[str, str] | None = None
    other: tuple[str, str] | None = None
    for u in cands:
        why = _cannot_attack(state, u)
        if why is not None:
            other = other or why
            continue
        if fire_why is None and _t(state, u).fire > 0:
            fire_why = _fire_problem(state, u, h)
        if melee_why is None and (_cap(state, u) is None or _cap(state, u).melee_offence != "no"):
            melee_why = _melee_problem(state, u, h)
        if melee_why is not None and fire_why is not None:
            break
    parts = [w for w in (melee_why, fire_why) if w is not None] or ([other] if other else [])
    if not parts:
        return (f"no unit of yours can attack {hk} now (attacks go only to the front, in melee from an adjacent "
                f"hex, in fire within range: cases A, B, M)", "cen:full.combat")
    return "; and ".join(p[0] for p in parts), parts[0][1]


def _allocation_record(state: CenturionState, attacks: Sequence[Attack]) -> list[tuple[str, str, list[str]]]:
    """The attacks allocated so far as plain data (target hex ID, mode, unit IDs), for a
    question's context: the odds shown before an attack is committed (full/odds.py) read them."""
    return [(state.hid(a.target), a.mode, list(a.units)) for a in attacks]


def allocation_phase(ctx: Context, state: CenturionState, side: str) -> Generator[Decision, str, list[Attack]]:
    """Attack Allocation (cen:full.sequence phase 2, cen:full.defensive-fire E)."""
    attacks: list[Attack] = []
    rule = "cen:full.combat"
    dropped: set[tuple[Hex, str]] = set()
    """Target/mode pairs found non-viable this phase: not offered again (keeps the phase finite)."""
    memo: _Memo = {}
    while True:
        tg = _targets(state, side, attacks, memo)
        for h, m in dropped:
            if h in tg:
                tg[h].discard(m)
                if not tg[h]:
                    del tg[h]
        if not tg:
            break
        opts = [Option(DONE, "end Attack Allocation")]
        for h in sorted(tg, key=state.hid):
            opts.append(Option(state.hid(h), f"{_stack_text(state, h)} ({'/'.join(sorted(tg[h]))})", h))

        def refuse(text: str, _tg: dict = tg) -> tuple[str, str] | None:
            try:
                h = state.hex_of(text.strip())
            except ValueError as exc:
                u = _unit_of(state, text)
                if u is not None:
                    return f"answer the target hex (the enemy stack), not a unit: {u.id} is chosen next", rule
                return f"{exc}: answer an enemy-held hex ID or done", rule
            for hh, m in dropped:
                if hh == h:
                    return (f"an attack on {text.strip()} would be below 1-2 (non-viable) with the units that can "
                            f"still reach it", "cen:full.defensive-fire")
            return _target_problem(state, side, h, attacks)

        key = yield Decision(side, f"Attack Allocation, turn {state.turn}: choose a target hex, or done",
                             tuple(opts), rule=SEQ, kind="attack.target", refuse=refuse,
                             context={"highlight": [o.key for o in opts[1:]], "modes": {
                                 state.hid(h): sorted(m) for h, m in tg.items()},
                                 "allocated": _allocation_record(state, attacks)})
        if key == DONE:
            break
        target = state.hex_of(key)
        modes = sorted(tg[target])
        mode = modes[0]
        if len(modes) > 1:
            labels = {"melee": "melee attack", "fire": "missile fire", "both": "fire and melee (cataphracts, same target)"}
            def refuse_mode(text: str, _modes: list[str] = modes, _key: str = key) -> tuple[str, str] | None:
                m = text.strip().lower()
                if m == "both":
                    return (f"no unit of yours may both fire at and melee {_key}: only Byzantine Cataphracts fire "
                            f"and melee in one turn, against the same target", "cen:full.cavalry")
                if m in ("fire", "melee"):
                    return (f"no unit of yours may {'fire at' if m == 'fire' else 'melee'} {_key} now "
                            f"(modes open: {', '.join(_modes)})", rule)
                return None

            mode = yield Decision(side, f"Attack on {key}: melee or missile?",
                                  tuple(Option(m, labels[m]) for m in modes), rule=rule, kind="attack.mode",
                                  refuse=refuse_mode,
                                  context={"target": key, "allocated": _allocation_record(state, attacks)})
        cur = Attack(target, mode)
        while True:
            el = _eligible(state, side, target, mode, attacks, cur, memo=memo)
            if not el:
                break
            o2 = [Option(DONE, "no more units for this attack" if cur.units else "cancel this attack")]
            o2.append(Option("all", f"every eligible unit ({len(el)})"))
            for u in el:
                o2.append(Option(u.id, state.describe(u) + _charge_note(state, u)))
            def refuse_unit(text: str, _cur: Attack = cur, _mode: str = mode) -> tuple[str, str] | None:
                u = _unit_of(state, text)
                if u is None:
                    return None
                return _join_problem(state, side, u, _cur.target, _mode, attacks, _cur)

            k2 = yield Decision(side, f"{mode} attack on {key}: add a unit, all, or done", tuple(o2), rule=rule,
                                kind="attack.unit", refuse=refuse_unit,
                                context={"highlight": sorted({state.hid(u.hex) for u in el}), "target": key,
                                         "mode": mode, "chosen": list(cur.units),
                                         "allocated": _allocation_record(state, attacks)})
            if k2 == DONE:
                break
            if k2 == "all":
                _fill_all(state, side, attacks, cur, memo)
                break
            cur.units.append(k2)
        if not cur.units:
            continue
        if mode != "fire" and _viability(state, side, cur) is None:
            _log(ctx, state, "combat", f"the attack on {key} would be below 1-2 (non-viable) and is not made",
                 ("cen:full.defensive-fire", rule), side=side)
            best = _fill_all(state, side, attacks, Attack(target, mode), memo)
            if not best.units or _viability(state, side, best) is None:
                dropped.add((target, mode))
            continue
        attacks.append(cur)
        _log(ctx, state, "combat", f"{side} allocates a {mode} attack on {key}: {', '.join(cur.units)}",
             (SEQ, rule), side=side, target=key, units=list(cur.units), mode=mode)
    opt.barbarian_must_attack(ctx, state, side, attacks)
    return attacks


# ------------------------------------------------------------------ melee odds


def _melee_sides(state: CenturionState, side: str, a: Attack, attackers: Sequence[Unit] | None = None,
                 only_defenders: Sequence[Unit] | None = None):
    """(attack factor, defence factor, attacking units, attacker hexes) for a melee attack.

    ``only_defenders``: the defending units allotted to this battle when a
    differently faced stack meets attacks from several sides (combat case J)."""
    units = [state.units[i] for i in a.units] if attackers is None else list(attackers)
    units = [u for u in units if not u.eliminated and u.hex is not None and _melee_factor(state, u) is not None]
    hexes = sorted({u.hex for u in units if u.hex is not None})
    heavy = book(state).weather in ("heavy-rain", "mud")
    att = Fraction(0)
    tribe = opt.active(state, "cen:barb.tribe")
    for u in units:
        assert u.hex is not None
        t = _t(state, u)
        base = _melee_factor(state, u)
        assert base is not None
        is_charge = t.charge_length > 0 and not u.dismounted
        halved = tribe and opt.isolated_tribesman(state, u)
        mu = melee.Attacker(
            t, u.hex, demoralized=bool(u.demoralized), charge_factor=base if (is_charge or u.in_square) else None,
            attack_out=_attack_out(state, u.hex, a.target), halved=halved,
        )
        if is_charge:
            rain = heavy
        elif u.in_square:
            # cen:full.square G: a square attacks with its defence factor, which heavy rain and mud
            # (cen:opt.weather 5/6: charges and Spearmen only) leave whole unless the unit is a spearman.
            rain = heavy and t.code in melee.SPEAR_CODES
        else:
            rain = heavy
        v = melee.attacker_factor(mu, heavy_rain=rain)
        att += v
    defenders = list(state.stack_at(a.target)) if only_defenders is None else list(only_defenders)
    rain = heavy
    dd = [melee.Defender(_t(state, x), None if _t(state, x).kind is UnitKind.MOUNT else x.facing,
                         dispersed=bool(x.dispersed), panicked=x.panicked,
                         working=bool(x.building) or (rain and x.type in melee.SPEAR_CODES))
          for x in defenders]
    sq = [x for x in defenders if x.in_square]
    if sq:
        dfn = square.square_defence([_t(state, x) for x in sq], state.capability)
        others = [d for x, d in zip(defenders, dd) if not x.in_square]
        dfn += melee.defence_total(others, a.target, hexes)
        dfn *= _hex_defence_multiplier(state, a.target, hexes)
    else:
        dfn = melee.defence_total(dd, a.target, hexes, _hex_defence_multiplier(state, a.target, hexes))
    return att, dfn, units, hexes


def _viability(state: CenturionState, side: str, a: Attack) -> str | None:
    """The CRT column an attack would be read on, or None if non-viable (below 1-2)."""
    table, _ = state.extra.get("full_tables") or (None, None)
    att, dfn, units, hexes = _melee_sides(state, side, a)
    if not units or att <= 0:
        return None
    if dfn <= 0:
        return "auto"
    if table is None:
        return "?" if att * 2 >= dfn else None
    ai, di = fire.whole_odds(att, dfn)
    rnd, _ = _melee_rounding(state, book(state), side, hexes, a.target)
    try:
        col = table.odds(ai, di, rnd)
    except OddsRefused:
        return None
    return getattr(col, "label", "auto")


# ------------------------------------------------------------------ 3. defensive fire


def _moved_this_turn(state: CenturionState, u: Unit) -> bool:
    """``u`` changed hex in this Movement Phase (a "stay" answer or a turn in place is no move
    adjacent: cen:full.combat, the missile "zone of control")."""
    start = state.extra.get("full_move_start_hex", {})
    if u.id in start:
        return start[u.id] != u.hex
    return u.moved


def defensive_fire_phase(ctx: Context, state: CenturionState, side: str, attacks: list[Attack]) -> Generator[Decision, str, None]:
    """Defensive Fire (cen:full.sequence phase 3, cen:full.defensive-fire, combat E).

    The defender's missile units in attacked hexes fire at attacking hexes on
    their front; missile units also fire at enemies that moved next to them
    without attacking (their limited "zone of control").
    """
    defender = state.opponent(side)
    _, fire_table = _tables(ctx, state)
    used: set[str] = set()
    attacked = {a.target for a in attacks}
    allocated = _allocated(attacks)
    while True:
        # firing options: attacking hex -> defending firers able to reach it
        options: dict[Hex, list[Unit]] = {}
        for u in state.live_units(defender):
            if u.id in used or u.hex is None or not _can_fire(state, u, defensive=True):
                continue
            for h in _fire_targets(state, u):
                here = [x for x in state.stack_at(h) if x.side == side]
                attacking_me = u.hex in attacked and any(
                    x.id in allocated and any(a.target == u.hex and x.id in a.units for a in attacks) for x in here)
                idle_neighbour = h.distance(u.hex) == 1 and any(
                    _moved_this_turn(state, x) and x.id not in allocated for x in here)
                if attacking_me or idle_neighbour:
                    options.setdefault(h, []).append(u)
        if not options:
            return
        opts = [Option(DONE, "no (more) defensive fire")]
        for h in sorted(options, key=state.hid):
            opts.append(Option(state.hid(h), f"fire {sum(_fire_factor(state, u) for u in options[h])} at "
                                             f"{_stack_text(state, h)}"))
        def refuse_fire(text: str, _options: dict = options) -> tuple[str, str] | None:
            try:
                h = state.hex_of(text.strip())
            except ValueError:
                return None
            rule = "cen:full.defensive-fire"
            if state.side_at(h) != side:
                return f"{text.strip()} holds no enemy units", rule
            here = [x for x in state.stack_at(h)]
            if not any(x.id in allocated for x in here) and not any(x.moved for x in here):
                return (f"the units at {text.strip()} neither attack you nor moved next to your missile troops: "
                        f"defensive fire goes only at hexes from which enemy units attack (combat E)", rule)
            firers = [u for u in state.live_units(defender) if u.id not in used and u.hex is not None
                      and _t(state, u).fire > 0]
            if not firers:
                return "you have no unused missile units to fire", rule
            why = next((w for w in (_fire_problem(state, u, h, defensive=True) for u in
                                    sorted(firers, key=lambda x: (x.hex.distance(h), x.id))[:4]) if w), None)
            return why or (f"none of your unused missile units has {text.strip()} to its front within range "
                           f"(defensive fire only to the front)", rule)

        key = yield Decision(defender, "Defensive Fire: choose an attacking hex to fire at, or done", tuple(opts),
                             rule="cen:full.defensive-fire", kind="fire.defensive", refuse=refuse_fire,
                             context={"highlight": [o.key for o in opts[1:]],
                                      "firers": {state.hid(h): [u.id for u in us] for h, us in options.items()},
                                      "allocated": sorted(allocated)})
        if key == DONE:
            return
        h = state.hex_of(key)
        firers = options[h]
        used.update(u.id for u in firers)
        mod = 0
        rules = ["cen:full.defensive-fire", "cen:full.fire-protection", "cen:full.fem"]
        targets = [x for x in state.stack_at(h) if x.side == side]
        if any(x.in_square for x in targets) and any(x.id in allocated for x in targets if x.in_square):
            mod += square.SQUARE_DEFENSIVE_FIRE_MODIFIER  # cen:full.square G
            rules.append("cen:full.square")
        _resolve_fire(ctx, state, defender, firers, h, fire_table, mod, tuple(rules))


def _resolve_fire(ctx: Context, state: CenturionState, side: str, firers: Sequence[Unit], target: Hex,
                  table: OddsTable, mod: int, rules: tuple[str, ...]) -> str:
    """Resolve one missile attack (cases G, I; FEM) and apply its result at once."""
    b = book(state)
    targets = list(state.stack_at(target))
    if not targets or not firers:
        return "NE"
    f_hexes = sorted({u.hex for u in firers if u.hex is not None})
    fcf = fire.effective_fire([_fire_factor(state, u) for u in firers], [_t(state, x) for x in targets])
    fpf = fire.stack_fpf(target, [(_t(state, x), None if _t(state, x).kind is UnitKind.MOUNT else x.facing)
                                  for x in targets], f_hexes, _fpf_multiplier(state, target),
                         [bool(x.building) for x in targets], [x.in_square for x in targets])
    for u in firers:
        u.fired_this_turn = True
    works_attacked(state, targets)
    cmod, crules = _command_modifier(state, side, firers, False)
    mod += cmod
    rules = (*rules, *crules)
    if b.fortune == side:
        rules = (*rules, "cen:opt.fortune")
    if fpf <= 0:
        res_code = "DE"
        _log(ctx, state, "combat", f"fire at {state.hid(target)}: nothing protects it", rules, side=side)
    else:
        ai, di = fire.whole_odds(fcf, fpf)
        try:
            res = table.roll(ctx.chance, ai, di, modifier=mod, rounding=_rounding(state, b, side),
                             reason=f"fire at {state.hid(target)}", rules=rules)
        except OddsRefused:
            _log(ctx, state, "combat", f"fire {fcf} against protection {fpf} at {state.hid(target)} is below 1-2: "
                                       f"no effect", (*rules, "cen:full.defensive-fire"), side=side)
            return "NE"
        res_code = res.result
        _log(ctx, state, "combat", f"{', '.join(u.id for u in firers)} fire at {state.hid(target)}: fire {fcf} "
                                   f"(FEM) against protection {fpf}: {res.explain()}", rules, side=side,
             target=state.hid(target), result=res_code)
    b.first_blood = True
    if res_code == "DE":
        _eliminate(ctx, state, targets, rules)
        _log(ctx, state, "loss", f"{', '.join(x.id for x in targets)} at {state.hid(target)} destroyed by fire", rules,
             side=side)
    elif res_code == "DD":
        _disperse(state, targets)
        _log(ctx, state, "result", f"{', '.join(x.id for x in targets)} at {state.hid(target)} dispersed by fire",
             rules, side=side)
    return res_code


# ------------------------------------------------------------------ 4. offensive fire


def _merged(attacks: Sequence[Attack], mode: str) -> list[Attack]:
    """The attacks of ``mode`` (``fire`` or ``melee``; a cataphract ``both`` attack counts as either) joined
    into one attack a target hex, in the order first allocated: firers on one hex total their factors
    into one attack (cen:full.combat I) and a hex is met in one melee (cen:full.combat J), so a hex is
    never fired on or meleed twice in a phase."""
    out: dict[Hex, Attack] = {}
    for a in attacks:
        if a.mode not in (mode, "both"):
            continue
        m = out.setdefault(a.target, Attack(a.target, mode))
        m.units.extend(i for i in a.units if i not in m.units)
    return list(out.values())


def offensive_fire_phase(ctx: Context, state: CenturionState, side: str, attacks: list[Attack]) -> None:
    """Offensive Fire (cen:full.sequence phase 4, combat F): allocated fire, losses at once; all fire on
    one hex is one attack (cen:full.combat I).

    Each fire attack made counts among the side's attacks of the turn, and one that neither
    destroys nor disperses its target (no effect, or below 1-2) as a failed one
    (cen:full.demoralization: "80% or more of the attacks made on that turn fail"; the Attack
    Allocation Phase names missile and melee alike as attacks)."""
    _, fire_table = _tables(ctx, state)
    b = book(state)
    for a in _merged(attacks, "fire"):
        firers = [state.units[i] for i in a.units]
        firers = [u for u in firers if not u.eliminated and _can_fire(state, u) and u.hex is not None
                  and a.target in _fire_targets(state, u)]
        if not firers or not state.stack_at(a.target):
            continue
        code = _resolve_fire(ctx, state, side, firers, a.target, fire_table, 0,
                             ("cen:full.combat", "cen:full.fire-protection", "cen:full.fem"))
        b.attacks += 1  # cen:full.demoralization
        if code not in ("DE", "DD"):
            b.failed += 1


# ------------------------------------------------------------------ 5. melee


def melee_phase(ctx: Context, state: CenturionState, side: str, attacks: list[Attack]) -> Generator[Decision, str, None]:
    """Melee (cen:full.sequence phase 5): allocated attacks; non-viable ones dropped; all attacks on one
    hex are one melee (cen:full.combat J)."""
    b = book(state)
    melee_table, _ = _tables(ctx, state)
    _chiefs_able(state, side, attacks)
    for a in _merged(attacks, "melee"):
        key = state.hid(a.target)
        if not state.stack_at(a.target) or (state.side_at(a.target) == side
                                            and not _is_deserter_hex(state, side, a.target)):
            _log(ctx, state, "combat", f"the melee attack on {key} finds no defender left", SEQ, side=side)
            continue
        # Light Cavalry may retreat before combat (combat, 2nd paragraph; cen:full.cavalry).
        yield from _light_cavalry_retreat(ctx, state, side, a)
        if not state.stack_at(a.target):
            continue
        defenders = list(state.stack_at(a.target))
        if all(_t(state, x).kind is UnitKind.MOUNT for x in defenders):
            _eliminate(ctx, state, defenders, ("cen:opt.mount-dismount",))
            _log(ctx, state, "loss", f"riderless mounts at {key} destroyed", ("cen:opt.mount-dismount",), side=side)
            continue
        squares = [x for x in defenders if x.in_square]
        if squares:
            _melee_square(ctx, state, side, a, melee_table)
            continue
        split = _split_battles(state, a)
        if split is None:
            _melee_one(ctx, state, side, a, melee_table, None)
            continue
        alts = _allotments(state, split)
        if len(alts) > 1:
            # cen:full.combat J: the defender allots his units to the attacks (each met from the front)
            defs = [d for _, dfs in split for d in dfs]
            labels = []
            for pick in alts:
                labels.append(", ".join(f"{d.id} meets {state.hid(split[pick[d.id]][0][0].hex)}" for d in defs))
            keys = ["auto", *[f"a{i}" for i in range(2, len(alts) + 1)]]
            choice = yield Decision(state.opponent(side), f"Melee on {key}: allot your units to the attacks",
                                    tuple(Option(k, lab) for k, lab in zip(keys, labels)),
                                    rule="cen:full.combat", kind="melee.allot")
            pick = alts[keys.index(choice)]
            split = [(grp, [d for d in defs if pick[d.id] == i]) for i, (grp, _) in enumerate(split)]
        for grp, dfs in split:
            live = [d for d in dfs if not d.eliminated and d.hex == a.target]
            if live:
                _log(ctx, state, "combat", f"the stack at {key} faces several ways and is attacked from several "
                                           f"sides: separate battle against {', '.join(d.id for d in live)}",
                     ("cen:full.combat", "cen:full.facing"), side=side)
                _melee_one(ctx, state, side, a, melee_table, grp, live)
    _ = b


def _chiefs_able(state: CenturionState, side: str, attacks: Sequence[Attack]) -> None:
    """Without the Command Unit Rules, note which of a barbarian army's Command units could join
    one of this turn's melee attacks (only those fail the demoralization test by staying out,
    cen:full.demoralization; see morale.end_of_player_turn_morale)."""
    b = book(state)
    if opt.active(state, "cen:opt.command") or not opt.is_barbarian(state, side):
        b.cmd_able = None
        return
    targets = {a.target for a in _merged(attacks, "melee")}
    b.cmd_able = {c.id for c in state.live_units(side) if _is_cmd(state, c) and c.hex is not None
                  and _melee_factor(state, c) is not None and targets.intersection(_melee_targets(state, c))}


def _split_battles(state: CenturionState, a: Attack) -> list[tuple[list[Unit], list[Unit]]] | None:
    """Combat case J: defenders facing different ways, attacked from more than one side,
    meet each attack with the units fronting it; None when the hex fights one combined battle.

    Each attacking hex is one side. Every attack must be met by a front-facing unit if
    possible; "If this is not possible, one or more of the defending units must defend as
    if on a front/flank attack": the battles stay separate, and an attack no unit left can
    front is met by a unit at its flank value (our reading; only more attacking sides
    than defending units make one combined battle, each unit at the value facing the
    attack). Remaining units join the strongest attack on their front, else the strongest
    attack as flank defenders. The allotment is made for the defender, strongest first,
    with as many attacks met frontally as can be (our reading, L).
    """
    defenders = [d for d in state.stack_at(a.target) if state.types[d.type].kind is not UnitKind.MOUNT]
    if len({d.facing for d in defenders}) < 2:
        return None
    groups: dict[Hex, list[Unit]] = {}
    for i in a.units:
        u = state.units[i]
        if not u.eliminated and u.hex is not None and _melee_factor(state, u) is not None:
            groups.setdefault(u.hex, []).append(u)
    if len(groups) < 2 or len(groups) > len(defenders):
        return None
    order = sorted(groups, key=lambda h: (-sum(_melee_factor(state, u) or 0 for u in groups[h]), h))
    assigned: dict[str, Hex] = {}
    for h in order:
        cands = [d for d in defenders if d.id not in assigned and is_frontal(a.target, d.facing, h)]
        if not cands:
            assigned = _flank_allotment(state, a.target, order, defenders)
            break
        best = max(cands, key=lambda d: (state.types[d.type].melee_defence_front, d.id))
        assigned[best.id] = h
    for d in defenders:
        if d.id in assigned:
            continue
        front = [h for h in order if is_frontal(a.target, d.facing, h)]
        assigned[d.id] = front[0] if front else order[0]
    out = []
    for h in order:
        out.append((groups[h], [d for d in defenders if assigned[d.id] == h]))
    return out


def _flank_allotment(state: CenturionState, target: Hex, order: list[Hex], defenders: list[Unit]) -> dict[str, Hex]:
    """cen:full.combat J when not every attack can be met by a front-facing unit: one defending
    unit for each attacking hex (``order``, strongest attack first), as many of them met
    frontally as can be; of the allotments that do so, the one whose units' values (front or
    flank, as each faces its attack) are best for the strongest attacks first."""
    from itertools import permutations

    def value(d: Unit, h: Hex) -> int:
        t = state.types[d.type]
        return t.melee_defence_front if is_frontal(target, d.facing, h) else t.melee_defence_flank

    best: tuple[Any, ...] | None = None
    pick: dict[str, Hex] = {}
    for perm in permutations(sorted(defenders, key=lambda d: d.id), len(order)):
        fronted = sum(1 for d, h in zip(perm, order) if is_frontal(target, d.facing, h))
        k = (fronted, tuple(value(d, h) for d, h in zip(perm, order)))
        if best is None or k > best:
            best, pick = k, {d.id: h for d, h in zip(perm, order)}
    return pick


def _allotments(state: CenturionState, split: list[tuple[list[Unit], list[Unit]]]) -> list[dict[str, int]]:
    """Every allotment open to the defender in case J: each defending unit meets one attacking
    hex (index into ``split``), and every attack is met by a unit fronting it
    (cen:full.combat J: "may allocate his defense as he desires but must meet all attacks on
    that hex with a front-facing unit if possible"). The automatic allotment comes first."""
    from itertools import product

    target = split[0][1][0].hex if split[0][1] else None
    defenders = [d for _, dfs in split for d in dfs]
    if target is None or len(defenders) > 4:
        return []
    hexes = [grp[0].hex for grp, _ in split]
    auto = {d.id: i for i, (_, dfs) in enumerate(split) for d in dfs}
    out = [auto]
    for combo in product(range(len(split)), repeat=len(defenders)):
        pick = {d.id: i for d, i in zip(defenders, combo)}
        if pick == auto:
            continue
        if all(any(pick[d.id] == i and is_frontal(target, d.facing, h) for d in defenders)
               for i, h in enumerate(hexes)):
            out.append(pick)
    return out


def _melee_one(ctx: Context, state: CenturionState, side: str, a: Attack, table: OddsTable,
               only: Sequence[Unit] | None, only_defenders: Sequence[Unit] | None = None) -> str | None:
    b = book(state)
    key = state.hid(a.target)
    att, dfn, units, hexes = _melee_sides(state, side, a, only, only_defenders)
    rules: tuple[str, ...] = ("cen:full.combat", "cen:full.facing")
    if not units:
        _log(ctx, state, "combat", f"the melee attack on {key} has no attackers left (dispersed or destroyed by "
                                   f"defensive fire)", ("cen:full.defensive-fire", SEQ), side=side)
        return None
    if any(_t(state, u).charge_length > 0 for u in units):
        rules = (*rules, "cen:full.cavalry")
    if any(_attack_out(state, u.hex, a.target) != 1 for u in units if u.hex is not None):
        rules = (*rules, "cen:full.cross-river")
    b.attacks += 1
    for u in units:
        u.attacked = True
        if _is_cmd(state, u):
            b.cmd_attacked.add(u.id)
    works_attacked(state, state.stack_at(a.target) if only_defenders is None else only_defenders)
    rnd, rrules = _melee_rounding(state, b, side, hexes, a.target)
    mod, crules = _command_modifier(state, side, units, any(_is_cmd(state, u) for u in units))
    rules = (*rules, *rrules, *crules)
    b.first_blood = True
    if dfn <= 0:
        code = "DE"
        _log(ctx, state, "combat", f"melee on {key}: the defenders cannot defend", rules, side=side)
    else:
        ai, di = fire.whole_odds(att, dfn)
        try:
            res = table.roll(ctx.chance, ai, di, modifier=mod, rounding=rnd, reason=f"melee on {key}", rules=rules)
        except OddsRefused:
            b.failed += 1
            _log(ctx, state, "combat", f"melee on {key}: {att} against {dfn} is below 1-2 after defensive fire: the "
                                       f"attack has no effect", ("cen:full.defensive-fire", SEQ), side=side)
            return None
        code = res.result
        _log(ctx, state, "combat", f"{', '.join(u.id for u in units)} attack {key}: {att} against {dfn}: "
                                   f"{res.explain()}", rules, side=side, target=key, result=code)
    targets = list(state.stack_at(a.target)) if only_defenders is None else list(only_defenders)
    _apply_melee(ctx, state, side, code, units, targets, a.target, rules)
    return code


def _apply_melee(ctx: Context, state: CenturionState, side: str, code: str, attackers: Sequence[Unit],
                 defenders: Sequence[Unit], target: Hex, rules: tuple[str, ...]) -> None:
    b = book(state)
    key = state.hid(target)
    if code not in ("DE", "DD"):
        b.failed += 1
    if code == "DE":
        _eliminate(ctx, state, defenders, rules)
        _log(ctx, state, "loss", f"defenders at {key} eliminated: {', '.join(u.id for u in defenders)}", rules,
             side=side, units=[u.id for u in defenders])
    elif code == "DD":
        _disperse(state, defenders)
        _log(ctx, state, "result", f"defenders at {key} dispersed: {', '.join(u.id for u in defenders)}", rules,
             side=side)
    elif code == "AE":
        _eliminate(ctx, state, attackers, rules)
        _log(ctx, state, "loss", f"attackers eliminated: {', '.join(u.id for u in attackers)}", rules, side=side)
    elif code == "AD":
        _disperse(state, attackers)
        _log(ctx, state, "result", f"attackers dispersed: {', '.join(u.id for u in attackers)}", rules, side=side)
    else:
        for x in attackers:
            for y in defenders:
                x.contact.add(y.id)
                y.contact.add(x.id)
        _log(ctx, state, "result", f"contact at {key}: the units stay locked in combat",
             (*rules, "cen:full.contact"), side=side)


def _melee_square(ctx: Context, state: CenturionState, side: str, a: Attack, table: OddsTable) -> None:
    """Attacks on a square: one battle per attacking hexside, simultaneous (cen:full.square C)."""
    units = [state.units[i] for i in a.units if not state.units[i].eliminated]
    by_hex: dict[Hex, list[Unit]] = {}
    for u in units:
        if u.hex is not None and _melee_factor(state, u) is not None:
            by_hex.setdefault(u.hex, []).append(u)
    results: list[tuple[str, list[Unit]]] = []
    b = book(state)
    key = state.hid(a.target)
    sq = [x for x in state.stack_at(a.target) if x.in_square]
    sdef = square.square_defence([_t(state, x) for x in sq], state.capability)
    sdef *= _hex_defence_multiplier(state, a.target, list(by_hex))
    rules = ("cen:full.square", "cen:full.combat")
    tribe = opt.active(state, "cen:barb.tribe")
    for h in sorted(by_hex):
        grp = by_hex[h]
        heavy = b.weather in ("heavy-rain", "mud")
        # isolated tribesmen attack at half here too (cen:barb.tribe)
        att = sum((melee.attacker_factor(melee.Attacker(
            _t(state, u), h, bool(u.demoralized),
            _melee_factor(state, u) if _t(state, u).charge_length > 0 else None,
            _attack_out(state, h, a.target), halved=tribe and opt.isolated_tribesman(state, u)), heavy)
            for u in grp), Fraction(0))
        b.attacks += 1
        for u in grp:
            u.attacked = True
        rnd, rrules = _melee_rounding(state, b, side, [h], a.target)
        mod, crules = _command_modifier(state, side, grp, False)
        ai, di = fire.whole_odds(att, sdef)
        try:
            res = table.roll(ctx.chance, ai, di, modifier=mod, rounding=rnd, reason=f"melee on the square at {key}",
                             rules=(*rules, *rrules, *crules))
        except OddsRefused:
            b.failed += 1
            _log(ctx, state, "combat", f"attack from {state.hid(h)} on the square at {key} is non-viable",
                 (*rules, "cen:full.defensive-fire"), side=side)
            continue
        _log(ctx, state, "combat", f"{', '.join(u.id for u in grp)} attack the square at {key} from {state.hid(h)}: "
                                   f"{res.explain()}", (*rules, *rrules, *crules), side=side)
        results.append((res.result, grp))
    b.first_blood = True
    worst = "DE" if any(r == "DE" for r, _ in results) else "DD" if any(r == "DD" for r, _ in results) else ""
    for code, grp in results:
        if code in ("AE", "AD", "C"):
            _apply_melee(ctx, state, side, code, grp, sq, a.target, rules)
        else:
            b.failed += 0
    if worst:
        n = square.square_casualties([_t(state, x) for x in sq], state.capability)
        struck = sorted((x for x in sq if _cap(state, x) and _cap(state, x).form_square),
                        key=lambda x: -_t(state, x).melee_defence_front)[:n]
        if worst == "DE":
            _eliminate(ctx, state, struck, rules)
            _log(ctx, state, "loss", f"the square at {key} loses {', '.join(x.id for x in struck)} (only up to half "
                                     f"its strength is struck)", rules, side=side)
        else:
            _disperse(state, struck)  # they drop out of the square
            _log(ctx, state, "result", f"in the square at {key}, {', '.join(x.id for x in struck)} dispersed", rules,
                 side=side)
    else:
        b.failed += 0


def _light_cavalry_retreat(ctx: Context, state: CenturionState, side: str, a: Attack) -> Generator[Decision, str, None]:
    """Light Cavalry may retreat before combat, up to four hexes (combat, 2nd paragraph)."""
    defender = state.opponent(side)
    lcs = [x for x in state.stack_at(a.target) if _cap(state, x) is not None and _cap(state, x).retreat_before_combat
           and not x.dispersed and not x.contact]
    if not lcs:
        return
    key = yield Decision(defender, f"Light Cavalry at {state.hid(a.target)} is attacked: retreat before combat?",
                         (Option("stand", "receive the attack"), Option("retreat", "retreat up to four hexes")),
                         rule="cen:full.cavalry", kind="retreat")
    if key != "retreat":
        return
    from ancients_games.centurion.movement import cost_table, stack_room, step_ticks

    attackers = {state.units[i].hex for i in a.units if state.units[i].hex is not None}
    hooks = move_hooks(state)
    for u in lcs:
        n = _cap(state, u).retreat_before_combat
        h = u.hex
        assert h is not None
        # The retreat is a move (cen:full.movement F names it the one movement after combat), so it
        # obeys terrain: each step must be open to cavalry (no earthworks, no caltrops, no square,
        # cen:opt.earthworks, cen:opt.caltrops, cen:full.square H) and the steps' costs (river
        # hexsides, woods, leaving caltrops) stay within the unit's Movement Factor Allowance.
        budget = _mfa(state, u) * cost_table(state).scale
        path, spent = [h], 0
        for _ in range(n):
            best = None
            for nb in state.neighbors(path[-1]):
                if state.side_at(nb) not in (None, defender) or nb in path:
                    continue
                if not stack_room(state, u, nb):
                    continue
                c = step_ticks(state, u, path[-1], nb, hooks)
                if c is None or spent + c > budget:
                    continue
                d = min(nb.distance(x) for x in attackers) if attackers else 0
                k = (-d, state.hid(nb))
                if best is None or k < best[0]:
                    best = (k, nb, c)
            if best is None:
                break
            path.append(best[1])
            spent += best[2]
        if len(path) > 1:
            state.move(u, path[-1])
            u.facing = direction_to(path[-1], min(attackers, key=lambda x: (x.distance(path[-1]), x))) \
                if attackers and min(x.distance(path[-1]) for x in attackers) == 1 else u.facing
            _log(ctx, state, "move", f"{u.id} retreats before combat {state.hid(h)} -> {state.hid(path[-1])}",
                 ("cen:full.cavalry", "cen:full.combat"), side=defender)


def _is_light_cavalry(state: CenturionState, u: Unit) -> bool:
    cap = _cap(state, u)
    return cap is not None and cap.retreat_before_combat > 0 and not u.dismounted


def is_surrounded(state: CenturionState, u: Unit) -> bool:
    """Every hex next to ``u`` holds enemy units or is off the map (our reading of
    "surrounded", L: no zones of control in the Full Simulation, so only occupied hexes close a ring)."""
    assert u.hex is not None
    enemy = state.opponent(u.side)
    for n in u.hex.neighbors():
        if n in state.numbering and state.side_at(n) != enemy:
            return False
    return True


def push_out_light_cavalry(ctx: Context, state: CenturionState) -> list[Unit]:
    """cen:full.cavalry: "Light Cavalry ... may never be surrounded, but must be pushed out
    of any encirclement" (also cen:full.combat, 2nd paragraph).

    A Light Cavalry unit whose six neighbours are all enemy-held (or off the map)
    is placed on the nearest hex outside the ring: free of enemy units, with
    stacking room, open to cavalry (never earthworks, caltrops or a square:
    cen:opt.earthworks, cen:opt.caltrops, cen:full.square H; ``terrain_open``) and
    not itself surrounded (ties broken by hex ID). Its facing is kept; contact is
    broken. If the whole map offers no such hex it stays (never seen in play).
    Returns the units pushed.
    """
    from ancients_games.centurion.movement import stack_room, terrain_open

    hooks = move_hooks(state)

    pushed = []
    for u in sorted(state.live_units(), key=lambda x: x.id):
        if u.hex is None or not _is_light_cavalry(state, u) or not is_surrounded(state, u):
            continue
        enemy = state.opponent(u.side)
        frm = u.hex
        best = None
        for h in state.numbering.hexes():
            if h == frm or state.side_at(h) == enemy or not stack_room(state, u, h) \
                    or not terrain_open(state, u, h, hooks):
                continue
            if all(n not in state.numbering or state.side_at(n) == enemy for n in h.neighbors()):
                continue
            k = (h.distance(frm), state.hid(h))
            if best is None or k < best[0]:
                best = (k, h)
        if best is None:
            _log(ctx, state, "combat", f"{u.id} at {state.hid(frm)} is surrounded and there is no hex to push it to",
                 ("cen:full.cavalry",), side=u.side)
            continue
        for o in state.units.values():
            o.contact.discard(u.id)
        u.contact.clear()
        state.move(u, best[1])
        pushed.append(u)
        _log(ctx, state, "move", f"{u.id} is surrounded at {state.hid(frm)} and is pushed out of the encirclement "
                                 f"to {state.hid(best[1])} (Light Cavalry may never be surrounded)",
             ("cen:full.cavalry", "cen:full.combat"), side=u.side, unit=u.id)
    return pushed


# ------------------------------------------------------------------ end of turn and victory


def civil_war_check(state: CenturionState) -> Outcome | None:
    """cen:opt.command G: in a Civil War, losing the Supreme Command Unit loses the battle."""
    if not state.scenario.civil_war or not opt.active(state, "cen:opt.command"):
        return None
    for s in state.sides:
        had = [u for u in state.units.values() if u.original_side == s and u.supreme]
        if had and all(u.eliminated for u in had):
            w = state.opponent(s)
            return Outcome(w, f"{state.side_names.get(w, w)} win: the enemy Supreme Command Unit is lost",
                           level="automatic", scores=_scores(state), rules=("cen:opt.command", "cen:full.victory"),
                           turn=state.turn)
    return None


def _scores(state: CenturionState) -> dict[str, float]:
    return {f"{s} points lost": float(state.lost_points.get(s, 0)) for s in state.sides}


def _marks(state: CenturionState) -> dict[str, tuple[VictoryLevel, ...]]:
    return {s.id: tuple(s.victory_levels) for s in state.scenario.sides}


def final_outcome(state: CenturionState, why: str, cap: VictoryLevel | None = None) -> Outcome:
    a = victory.assess(state.sides, state.lost_points, state.start_points, _marks(state))
    lvl = a.level if cap is None else victory.cap_level(a.level, cap)
    if a.leader is None or lvl is None:
        return Outcome(None, f"Draw ({why}): points lost "
                             + ", ".join(f"{s} {state.lost_points.get(s, 0)}" for s in state.sides),
                       level="draw", scores=_scores(state), rules=("cen:full.victory",), turn=state.turn)
    name = state.side_names.get(a.leader, a.leader)
    return Outcome(a.leader, f"{name} win a {lvl.value} victory ({why}): points lost "
                   + ", ".join(f"{s} {state.lost_points.get(s, 0)}" for s in state.sides),
                   level=lvl.value, scores=_scores(state),
                   rules=("cen:full.victory",) + (("cen:full.concession",) if cap else ()), turn=state.turn)


def end_of_turn(ctx: Context, state: CenturionState) -> Generator[Decision, str, Outcome | None]:
    """End of a complete Game-Turn: withdrawal, concession and declaring victory
    (cen:full.victory, cen:full.concession)."""
    if state.scenario.fight_to_death:
        return None
    a = victory.assess(state.sides, state.lost_points, state.start_points, _marks(state))
    if a.leader is None or a.trailer is None:
        return None
    trailer, leader = a.trailer, a.leader
    lost = state.lost_points
    # The trailing side may concede (before turn six too) or withdraw at 2 to 1.
    opts = [Option("fight", "fight on")]
    if a.level is not None:
        opts.append(Option("concede", f"concede the battle ({a.level.value} victory for {leader})"))
    if a.level is not None and victory.may_withdraw(trailer, leader, lost):
        opts.append(Option("withdraw", "withdraw from the field (tactical concession: at most a Tactical Victory)"))
    if len(opts) > 1:
        k = yield Decision(trailer, f"End of turn {state.turn}: you have lost {lost.get(trailer, 0)} points to "
                                    f"{lost.get(leader, 0)}. Fight on?", tuple(opts), rule="cen:full.victory",
                           kind="victory.concede")
        if k == "withdraw":
            return final_outcome(state, f"{trailer} withdraws", cap=VictoryLevel.TACTICAL)
        if k == "concede":
            r = yield Decision(leader, f"The {trailer} concede: accept a {a.level.value} victory, or refuse and fight on "
                                       f"for a higher level?",
                               (Option("accept", "accept the concession"), Option("refuse", "refuse and fight on")),
                               rule="cen:full.victory", kind="victory.accept")
            if r == "accept":
                return final_outcome(state, f"{trailer} concedes")
    if a.level is not None and state.turn >= max(victory.MIN_TURNS, state.scenario.min_turns or 0) \
            and state.turn < (state.scenario.turns or 12):
        k = yield Decision(leader, f"End of turn {state.turn}: declare a {a.level.value} victory?",
                           (Option("continue", "fight on"), Option("declare", f"declare a {a.level.value} victory")),
                           rule="cen:full.victory", kind="victory.declare")
        if k == "declare":
            return final_outcome(state, f"{leader} declares victory after turn {state.turn}")
    return None


def refuse_not_option(text: str, rule: str) -> IllegalAnswer:
    return IllegalAnswer(f"{text!r} is not allowed here", answer=text, rule=rule)
