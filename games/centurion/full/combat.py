"""The Full Simulation's combat, shared by its phases (cen:full.combat).

One allocated attack (:class:`Attack`), the CRTs, terrain and markers multiplying
attack and defence (cen:full.combat N, cen:full.cross-river, cen:opt.earthworks,
cen:opt.caltrops), rounding and die modifiers (cen:opt.fortune, cen:basic.combat J,
cen:opt.command), a melee's two sides and its viability (cen:full.defensive-fire),
and the results: units destroyed or dispersed, with what follows from them
(works captured, a Command unit's loss, cen:opt.command F, G, I).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import attrs

from ancients_kit.hexgrid import Hex
from ancients_kit.protocol import Context
from ancients_kit.tables import OddsRefused, OddsTable

from ancients_games.centurion.equipment import load_crt
from ancients_games.centurion.full import fire, melee, morale, options as opt, square
from ancients_games.centurion.full.book import FullBook, book, log_event
from ancients_games.centurion.full.units import is_command, melee_factor, terrain_of, unit_type
from ancients_games.centurion.full.works import works_captured
from ancients_games.centurion.model import UnitKind
from ancients_games.centurion.state import CenturionState, Unit


@attrs.define
class Attack:
    """One allocated attack (Attack Allocation Phase)."""

    target: Hex
    mode: str
    """``melee``, ``fire`` or ``both`` (cataphracts, same target)."""
    units: list[str] = attrs.field(factory=list)


def combat_tables(ctx: Context, state: CenturionState) -> tuple[OddsTable, OddsTable]:
    """The melee and missile fire CRTs (``crt_melee.toml``, ``crt_fire.toml``; cen:full.combat),
    loaded once a game and kept on the state."""
    t = state.extra.get("full_tables")
    if t is None:
        t = (load_crt(ctx.store, "crt_melee.toml"), load_crt(ctx.store, "crt_fire.toml"))
        state.extra["full_tables"] = t
    return t  # type: ignore[return-value]


def marker_multiplier(state: CenturionState, h: Hex, effect: str) -> Fraction:
    """The product of the markers' ``effect`` (a Terrain Effects Chart multiplier such as
    ``melee_defence``) on ``h``: earthworks and caltrops (cen:opt.earthworks, cen:opt.caltrops)."""
    m = Fraction(1)
    for mk in state.markers.get(h, ()):
        mt = state.terrain_chart.get(mk)
        if mt is not None:
            m *= getattr(mt, effect)
    return m


def hex_defence_multiplier(state: CenturionState, h: Hex, attacker_hexes: Sequence[Hex]) -> Fraction:
    """Terrain and markers multiplying the defence of ``h`` (cen:full.combat N, cen:opt.earthworks)."""
    m = Fraction(1)
    ter = terrain_of(state, h)
    if ter is not None and ter.melee_defence != 1:
        if ter.defence_applies_vs != "from-lower" or any(
            state.map.terrain(a) != state.map.terrain(h) for a in attacker_hexes
        ):
            m *= ter.melee_defence
    return m * marker_multiplier(state, h, "melee_defence")


def attack_out(state: CenturionState, frm: Hex, to: Hex) -> Fraction:
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
    return m * marker_multiplier(state, frm, "melee_attack_out")


def fpf_multiplier(state: CenturionState, h: Hex) -> Fraction:
    """Terrain and markers multiplying the Fire Protection of ``h`` (cen:full.fire-protection)."""
    m = Fraction(1)
    ter = terrain_of(state, h)
    if ter is not None:
        m *= ter.fire_protection
    return m * marker_multiplier(state, h, "fire_protection")


def fire_rounding(state: CenturionState, b: FullBook, side: str) -> str:
    """cen:opt.fortune: the fortunate side's attacks (defensive fire too) round in its favour."""
    return "attacker" if b.fortune == side else "defender"


def melee_rounding(state: CenturionState, b: FullBook, side: str, hexes: Sequence[Hex],
                   target: Hex) -> tuple[str, tuple[str, ...]]:
    """Melee rounding: fortune (cen:opt.fortune), else the Command unit within five
    hexes (cen:basic.combat J, which the Full Simulation keeps)."""
    if b.fortune == side:
        return "attacker", ("cen:opt.fortune",)
    friendly = any(
        is_command(state, c) and c.hex is not None and any(c.hex.distance(h) <= (0 if c.dispersed else 5) for h in hexes)
        for c in state.live_units(side)
    )
    if friendly and not state.commands_within(target, state.opponent(side), 5):
        return "attacker", ("cen:basic.combat",)
    return "defender", ()


def command_modifier(state: CenturionState, side: str, units: Sequence[Unit],
                     participating_cmd: bool) -> tuple[int, tuple[str, ...]]:
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
        if any(counts(c, 5 if c.id in ids else 3, True) for c in state.live_units(side) if is_command(state, c)):
            mod -= 1
        if any(counts(c, 3, False) for c in state.live_units(state.opponent(side)) if is_command(state, c)):
            mod += 1
        if mod:
            rules.append("cen:opt.command")
    if units and sum(1 for u in units if u.furious) * 2 >= len(units) and any(u.furious for u in units):
        mod -= 1
        rules.append("cen:opt.command")
    return mod, tuple(dict.fromkeys(rules))


def allocated_units(attacks: Sequence[Attack]) -> set[str]:
    """The IDs of every unit in ``attacks`` (cen:full.combat L: one attack a unit a turn)."""
    return {uid for a in attacks for uid in a.units}


def merged(attacks: Sequence[Attack], mode: str) -> list[Attack]:
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


def melee_sides(state: CenturionState, side: str, a: Attack, attackers: Sequence[Unit] | None = None,
                 only_defenders: Sequence[Unit] | None = None) -> tuple[Fraction, Fraction, list[Unit], list[Hex]]:
    """(attack factor, defence factor, attacking units, attacker hexes) for a melee attack.

    ``only_defenders``: the defending units allotted to this battle when a
    differently faced stack meets attacks from several sides (combat case J)."""
    units = [state.units[i] for i in a.units] if attackers is None else list(attackers)
    units = [u for u in units if not u.eliminated and u.hex is not None and melee_factor(state, u) is not None]
    hexes = sorted({u.hex for u in units if u.hex is not None})
    heavy = book(state).weather in ("heavy-rain", "mud")
    att = Fraction(0)
    tribe = opt.active(state, "cen:barb.tribe")
    for u in units:
        assert u.hex is not None
        t = unit_type(state, u)
        base = melee_factor(state, u)
        assert base is not None
        is_charge = t.charge_length > 0 and not u.dismounted
        halved = tribe and opt.isolated_tribesman(state, u)
        mu = melee.Attacker(
            t, u.hex, demoralized=bool(u.demoralized), charge_factor=base if (is_charge or u.in_square) else None,
            attack_out=attack_out(state, u.hex, a.target), halved=halved,
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
    dd = [melee.Defender(unit_type(state, x), None if unit_type(state, x).kind is UnitKind.MOUNT else x.facing,
                         dispersed=bool(x.dispersed), panicked=x.panicked,
                         working=bool(x.building) or (rain and x.type in melee.SPEAR_CODES))
          for x in defenders]
    sq = [x for x in defenders if x.in_square]
    if sq:
        dfn = square.square_defence([unit_type(state, x) for x in sq], state.capability)
        others = [d for x, d in zip(defenders, dd) if not x.in_square]
        dfn += melee.defence_total(others, a.target, hexes)
        dfn *= hex_defence_multiplier(state, a.target, hexes)
    else:
        dfn = melee.defence_total(dd, a.target, hexes, hex_defence_multiplier(state, a.target, hexes))
    return att, dfn, units, hexes


def viability(state: CenturionState, side: str, a: Attack) -> str | None:
    """The CRT column an attack would be read on, or None if non-viable (below 1-2)."""
    table, _ = state.extra.get("full_tables") or (None, None)
    att, dfn, units, hexes = melee_sides(state, side, a)
    if not units or att <= 0:
        return None
    if dfn <= 0:
        return "auto"
    if table is None:
        return "?" if att * 2 >= dfn else None
    ai, di = fire.whole_odds(att, dfn)
    rnd, _ = melee_rounding(state, book(state), side, hexes, a.target)
    try:
        col = table.odds(ai, di, rnd)
    except OddsRefused:
        return None
    return getattr(col, "label", "auto")


def eliminate(ctx: Context, state: CenturionState, units: Sequence[Unit], rules: tuple[str, ...]) -> None:
    """Destroy ``units``: a square they leave breaks up, deserters destroyed by their own side
    count no loss (cen:full.treachery D), mounts cost a point (cen:opt.mount-dismount F),
    earthworks left empty are captured (cen:opt.earthworks), a Command unit's loss follows
    (cen:opt.command F, G, I)."""
    b = book(state)
    for u in units:
        if u.eliminated:
            continue
        h = u.hex
        in_works = h is not None and "earthworks" in state.markers.get(h, ())
        was_in_square = u.in_square
        state.remove(u)
        if was_in_square and h is not None:
            square.break_up_square(state, h, u.side)
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
        if is_command(state, u):
            _command_lost(ctx, state, u)
    for u in units:
        for h in list(b.charge_start):
            if h == u.id:
                del b.charge_start[h]


def _command_lost(ctx: Context, state: CenturionState, cmd: Unit) -> None:
    """Effects of a Command unit's death (cen:opt.command F, I; Civil War G handled at turn end)."""
    if not opt.active(state, "cen:opt.command"):
        return
    side = cmd.side
    b = book(state)
    left = [c for c in state.live_units(side) if is_command(state, c)]
    if opt.is_barbarian(state, side) and not b.panic_used.get(side) and not b.panic_pending.get(side):
        high_king = cmd.supreme or not opt.active(state, "cen:barb.tribe")
        if not left or (high_king and opt.active(state, "cen:barb.tribe")):
            b.panic_pending[side] = True  # cen:opt.command F (cen:barb.tribe: the High King's loss)
            log_event(ctx, state, "morale", f"{cmd.id} is lost and the barbarians have no chief left: panic at the start "
                                       f"of their next turn", ("cen:opt.command", "cen:full.panic"), side=side)
        elif opt.active(state, "cen:barb.tribe") and cmd.group and not any(c.group == cmd.group for c in left):
            b.tribe_panic.setdefault(side, set()).add(cmd.group)  # cen:barb.tribe: only that tribe panics
            log_event(ctx, state, "morale", f"the chief of tribe {cmd.group} is lost: the tribe panics at the start of its "
                                       f"next turn", ("cen:opt.command", "cen:barb.tribe", "cen:full.panic"), side=side)
    if not left and not opt.is_barbarian(state, side):
        # cen:opt.command F: for non-barbarians the loss of every Command unit "forces 'dispersed'
        # troops to remain so for TWO turns": troops dispersed already stay so for two turns from
        # now (later dispersals last two turns through _dispersal_turns).
        held = [u for u in state.live_units(side) if u.dispersed and u.dispersed < 2]
        for u in held:
            u.dispersed = 2
        if held:
            log_event(ctx, state, "morale", f"{side} have lost every Command unit: {', '.join(u.id for u in held)} "
                                       f"remain dispersed for two turns", ("cen:opt.command",), side=side)
    if state.scenario.civil_war and not cmd.supreme and cmd.group:
        morale.treachery_of_command(ctx, state, side, cmd.group, True)  # cen:opt.command G
    roll = ctx.chance.d6(f"fury of the troops of {cmd.id}", ("cen:opt.command",))
    roman = opt.is_roman(state, side)
    if roll <= (2 if roman else 1):
        for u in state.live_units(side):
            if not cmd.group or u.group == cmd.group or cmd.supreme:
                u.furious = 2
        log_event(ctx, state, "morale", f"the death of {cmd.id} makes its troops furious (roll {roll})",
             ("cen:opt.command",), side=side)


def _dispersal_turns(state: CenturionState, u: Unit) -> int:
    """One turn; two when demoralized (cen:full.demoralization) or when a
    non-barbarian army has lost all its Command units (cen:opt.command F)."""
    if u.demoralized:
        return 2
    if opt.active(state, "cen:opt.command") and not opt.is_barbarian(state, u.side):
        if not any(is_command(state, c) for c in state.live_units(u.side)):
            return 2
    return 1


def disperse(state: CenturionState, units: Sequence[Unit]) -> None:
    """Disperse ``units`` for their turns (cen:full.demoralization, cen:opt.command F); a
    dispersed unit keeps no place in a square (cen:full.square)."""
    b = book(state)
    for u in units:
        if u.eliminated:
            continue
        state.disperse(u, _dispersal_turns(state, u))
        if is_command(state, u):
            b.cmd_dispersed[u.side] = True
    square.drop_out_of_square(state, units)  # a dispersed unit keeps no formation (cen:full.square)
