"""Battle: ranged and close combat, battle back, flags and retreats, evasion, momentum.

Owns the dice counts, the symbols that hit, losses, retreats and the close
combat sequence. Serves ``ccr:base.dice``, ``ccr:base.ranged`` (range, line of
sight, 2 dice still / 1 moved, no fire when adjacent, no battle back),
``ccr:base.close-combat`` (dice by type, swords hit, leader symbols hit with an
attached leader, battle back; elephants roll their opponent's dice, ignore
swords, re-roll their own sword hits and get no leader help),
``ccr:base.retreat`` (one retreat move per flag toward one's own baseline, a
block per hex that cannot be retreated, flags ignored for an attached leader
and for two supporting friends; elephant rampage; mounted units retreat
further from elephants),
``ccr:base.evade``, ``ccr:base.momentum`` (advance into the vacated hex;
mounted may battle once more), ``ccr:base.terrain`` (dice caps), and the
expansion's combat rules: ``ccr:heavy-cataphract``, ``ccr:cataphract-camel``,
``ccr:baggage-wagon``, ``ccr:wagon-laager``, ``ccr:praetorian-guard``,
``ccr:caltrops``, ``ccr:marian-legions``, ``ccr:julian-legions``,
``ccr:imperial-legions``, ``ccr:bridge``, ``ccr:ford`` and the scenario rules
Panic (Edessa) and drowning in retreat (Milvian Bridge).
"""

from __future__ import annotations

from collections.abc import Generator

from ancients_kit.protocol import Context, Decision

from .cards import OrderPlan
from .dice import BATTLE_DIE
from .leaders import casualty_check, escape, kill_leader, leader_called, resolve_escapes
from .movement import blocked_for, card_move_bonus, reach
from .protocol import ask
from .state import BattleState, Leader, Unit
from .units import LIGHT_FOOT, can_evade
from .victory import gain
from .vocab import Kind

__all__ = [
    "at_full_strength", "battle_options", "close_combat", "close_dice", "close_hit_symbols", "fire_at_lone_leader",
    "flags_ignored", "line_of_sight",
    "ranged_combat", "ranged_dice", "unit_at", "unit_range", "why_cannot_evade", "why_not_advance", "why_not_retreat",
]

Gen = Generator[Decision, str, None]
NO_PLAN = OrderPlan("")
LEGION_CODES = ("HI", "MI")


def unit_at(bs: BattleState, u: Unit, where: str | None = None) -> str:
    """A unit in words for a question: its type's name and its hex (``Heavy Infantry at 0506``).

    The log keeps its short notation (``HI@0506``); a question is read once, in full."""
    return f"{bs.types[u.code].name} at {where if where is not None else u.hex}"


def is_legion(bs: BattleState, u: Unit) -> str:
    """'marian', 'julian', 'imperial' when ``u`` is a legion unit under that rule, else ''."""
    if u.code in LEGION_CODES:
        return bs.legions.get(u.side, "")
    return ""


def unit_range(bs: BattleState, u: Unit) -> int:
    """Ranged combat range (ccr:base.ranged; legions throw pila 2 hexes, ccr:marian-legions)."""
    r = bs.types[u.code].range
    if not r and is_legion(bs, u):
        return 2
    return r


def _terrain_cap(bs: BattleState, att_hex: str, tgt_hex: str, foot: bool = False) -> int:
    board = bs.board
    a = board.spec(att_hex)
    t = board.spec(tgt_hex)
    caps = [c for c in (a.cap_out, t.cap_in) if c]
    if t.cap_uphill and board.terrain[att_hex] != board.terrain[tgt_hex]:
        caps.append(t.cap_uphill)  # ccr:base.terrain: battling uphill
    if foot and a.cap_out_foot:
        caps.append(a.cap_out_foot)  # ccr:base.terrain: foot battling from a hill, downhill or hill to hill
    for h in (att_hex, tgt_hex):
        if h in bs.crossing and board.terrain[h] == "river":
            caps.append(2)  # a river crossing place fights as a ford (ccr:ford)
    return min(caps) if caps else 0


def _wagon_penalty(bs: BattleState, u: Unit) -> int:
    n = 0
    if bs.wagons:
        for w in bs.wagons:
            if w.hex == u.hex:
                if w.kind == "baggage-wagon":
                    n += 1  # ccr:baggage-wagon: one fewer die on a wagon hex
                elif w.side != u.side:
                    n += 1  # ccr:wagon-laager: on an enemy laager, one fewer die
    return n


def at_full_strength(bs: BattleState, u: Unit) -> bool:
    """Full strength for the warriors' and light barbarian chariots' extra die and ignored flag: these
    last "until the combat after its first loss", so a unit that was whole when the current combat
    began keeps them to its end (commandsandcolors.net Warriors unit page; ccr:base.close-combat)."""
    return u.blocks >= u.max_blocks or u.uid in bs.fresh


def close_dice(bs: BattleState, att: Unit, tgt: Unit, bonus: int = 0, battle_back: bool = False) -> int:
    """Close combat dice after type, cards, wagons and terrain caps (ccr:base.close-combat)."""
    t = bs.types[att.code]
    base = t.battle_back_dice if battle_back else t.close
    if t.close_damaged and not at_full_strength(bs, att):
        base = t.close_damaged  # warriors from the combat after their first loss
    if t.close_as_target:
        # Elephants roll what the other unit would roll, attacking or battling back, without
        # its card bonus (ccr:base.close-combat).
        tt = bs.types[tgt.code]
        base = tt.close_damaged if (tt.close_damaged and not at_full_strength(bs, tgt)) else tt.close
    if tgt.code in t.close_vs:
        base = t.close_vs[tgt.code]  # elephants: 3 dice against elephants, warriors, chariots, camels
    n = base + bonus - _wagon_penalty(bs, att)
    cap = _terrain_cap(bs, att.hex, tgt.hex, foot=not t.mounted)
    if cap:
        n = min(n, cap + bonus)  # ccr:bridge / ccr:ford: cards raise the maximum
    return max(n, 0)


def ranged_dice(bs: BattleState, u: Unit, target_hex: str = "", bonus: int = 0) -> int:
    """Ranged dice: 2 still, 1 after moving; legions 1 if they held or moved 1 hex (ccr:base.ranged).

    With ``target_hex``, the target's terrain may cap the dice too (1 into a forest, ccr:base.terrain).
    ``bonus``: a card's extra dice (I Am Spartacus), added after the caps as cards raise the maximum.
    """
    if is_legion(bs, u) and not bs.types[u.code].range:
        n = 1 if u.moved <= 1 else 0
    else:
        n = 2 if u.moved == 0 else 1
    n -= _wagon_penalty(bs, u)
    cap = bs.board.spec(u.hex).ranged_cap_out
    if u.hex in bs.crossing and bs.board.terrain[u.hex] == "river":
        cap = 1
    if cap:
        n = min(n, cap)
    if target_hex and (cap_in := bs.board.spec(target_hex).ranged_cap_in):
        n = min(n, cap_in)
    return n + bonus if n > 0 else 0  # a unit that rolls no dice of its own may not fire at all


def _blocks_sight(bs: BattleState, h: str) -> bool:
    if not h:
        return False
    if h in bs.at or bs.board.spec(h).blocks_los:
        return True
    return any(w.hex == h for w in bs.wagons)  # wagons block sight (ccr:baggage-wagon, ccr:wagon-laager)


def line_of_sight(bs: BattleState, a: str, b: str) -> bool:
    """Clear unless a hex between blocks (both hexes, when the line runs along their edge)."""
    for x, y in bs.board.between(a, b):
        if _blocks_sight(bs, x) and (x == y or _blocks_sight(bs, y)):
            return False
    return True


def why_not_target(bs: BattleState, u: Unit, h: str, plan: OrderPlan) -> tuple[str, str]:
    """Why ``u`` may not battle the unit at ``h`` (for refusals)."""
    if h not in bs.board.row:
        return f"{h!r} is not a hex ID (CCRR) or an option number", "ccr:base.close-combat"
    v = bs.at.get(h)
    if v is None or v.side == u.side:
        return f"{h} holds no enemy unit", "ccr:base.close-combat"
    d = bs.board.distance(u.hex, h)
    if d == 1:
        if plan.no_close:
            return f"card {plan.card} allows no close combat", "ccr:base.cards"
        return f"{u.code}@{u.hex} may not close combat this turn", "ccr:base.close-combat"
    if bs.adjacent_enemies(u):
        return f"{u.code}@{u.hex} is adjacent to an enemy and may not fire", "ccr:base.ranged"
    rng = unit_range(bs, u)
    if not rng:
        return f"{u.code} has no ranged combat and {h} is not adjacent", "ccr:base.ranged"
    if d > rng:
        return f"{h} is {d} hexes away; {u.code} ranges {rng}", "ccr:base.ranged"
    if not line_of_sight(bs, u.hex, h):
        return f"line of sight from {u.hex} to {h} is blocked", "ccr:base.ranged"
    return f"{u.code}@{u.hex} may not fire this turn", "ccr:base.ranged"


def why_no_battle(bs: BattleState, u: Unit, plan: OrderPlan) -> tuple[str, str]:
    """Why an ordered unit has no combat open to it now (for refusals; mirrors :func:`battle_options`)."""
    t = bs.types[u.code]
    what = f"{u.code}@{u.hex}"
    if u.no_battle:
        spec = bs.board.spec(u.hex)
        if spec.no_battle_on_entry:
            return f"{what} entered {bs.board.terrain[u.hex]} this turn and may not battle", "ccr:base.terrain"
        return f"{what} may not battle this turn", "ccr:base.cards"
    if u.battles >= (2 if plan.fire_twice else 1):
        return f"{what} has already battled this turn", "ccr:base.close-combat"
    if t.no_battle_after_move and u.moved:
        return f"{what} moved and a war machine that moves may not battle", "ccr:base.movement"
    if t.move_no_battle and u.moved > t.move + card_move_bonus(bs, u, plan.move_bonus):
        return f"{what} moved {u.moved} hexes and may not battle after moving more than {t.move}", "ccr:base.movement"
    if is_legion(bs, u) == "julian" and u.moved >= 2 and plan.effect != "double-time":
        return f"{what} moved two hexes and forgoes combat", "ccr:julian-legions"
    if bs.adjacent_enemies(u):
        if plan.no_close:
            return f"card {plan.card} allows no close combat", "ccr:base.cards"
        return f"{what} fired this turn and may not also close combat", "ccr:base.ranged"
    rng = unit_range(bs, u)
    if not rng:
        return f"no enemy is adjacent to {what}, and {t.name.lower()} have no ranged combat", "ccr:base.ranged"
    if plan.no_ranged:
        return f"card {plan.card} allows no ranged combat", "ccr:base.cards"
    if ranged_dice(bs, u) <= 0:
        return f"{what} would roll no ranged dice after moving", "ccr:base.ranged"
    return f"no enemy unit within {rng} hexes of {what} is in its line of sight", "ccr:base.ranged"


def battle_options(bs: BattleState, u: Unit, plan: OrderPlan) -> list[tuple[str, str]]:
    """(target hex, 'close' | 'ranged') for an ordered unit this turn."""
    if u.no_battle or bs.over:
        return []
    t = bs.types[u.code]
    limit = 2 if plan.fire_twice else 1
    if u.battles >= limit:
        return []
    if t.no_battle_after_move and u.moved:
        return []
    if t.move_no_battle and u.moved > t.move + card_move_bonus(bs, u, plan.move_bonus):
        return []  # auxilia that moved 2 may not battle
    leg = is_legion(bs, u)
    if leg == "julian" and u.moved >= 2 and plan.effect != "double-time":
        return []  # ccr:julian-legions: moved two hexes, forgo combat
    adj = bs.adjacent_enemies(u)
    if adj:
        if plan.no_close or u.fired:
            return []
        return [(v.hex, "close") for v in adj] + _lone_leaders(bs, u)
    lone = [] if (plan.no_close or u.fired) else _lone_leaders(bs, u)
    if lone:
        return lone
    if plan.no_ranged or (t.move_charge and u.moved > t.move):
        return []
    rng = unit_range(bs, u)
    if not rng or ranged_dice(bs, u) <= 0:
        return []
    dist = bs.board.distances_from(u.hex)
    out = []
    for v in bs.units.values():
        if v.side != u.side and 2 <= dist[v.hex] <= rng and line_of_sight(bs, u.hex, v.hex):
            out.append((v.hex, "ranged"))
    for ld in bs.leaders:
        # a lone enemy leader may be the target of ranged combat (commandsandcolors.net FAQ 50, ccr:base.ranged)
        if ld.side != u.side and ld.hex not in bs.at and 2 <= dist[ld.hex] <= rng \
                and line_of_sight(bs, u.hex, ld.hex) and (ld.hex, "leader-ranged") not in out:
            out.append((ld.hex, "leader-ranged"))
    out.sort()
    return out


def _lone_leaders(bs: BattleState, u: Unit) -> list[tuple[str, str]]:
    out = []
    for ld in bs.leaders:
        if ld.side != u.side and ld.hex not in bs.at and bs.board.distance(u.hex, ld.hex) == 1:
            out.append((ld.hex, "leader"))
    return out


def attack_lone_leader(ctx: Context, bs: BattleState, att: Unit, h: str) -> None:
    """Close combat against a lone enemy leader: 2 dice, a leader symbol kills him, else he escapes.

    Reconstructed (L): the base game's lone-leader rules are not in our book; this is the
    reading recorded in the report (ccr:base.leaders).
    """
    ld = next(x for x in bs.leaders if x.hex == h and x.side != att.side)
    att.battles += 1
    n = bs.types[att.code].close_vs.get("leader", 2)  # an elephant rolls 1 die (ccr:base.close-combat)
    rules = ("ccr:base.leaders",)
    faces = _roll(ctx, n, f"{att.code}@{att.hex} attacks the lone {leader_called(ld, side=False)} at {h}", rules)
    _lone_leader_struck(ctx, bs, ld, faces, "attacked", rules)


def _lone_leader_struck(ctx: Context, bs: BattleState, ld: Leader, faces: tuple[str, ...], how: str,
                        rules: tuple[str, ...]) -> None:
    """A lone leader attacked: a leader symbol kills him, otherwise he escapes (ccr:base.leaders)."""
    if "leader" in faces:
        kill_leader(ctx, bs, ld, "killed")
        return
    ctx.event("leader", f"{ld.name} is {how} alone at {ld.hex} ({', '.join(faces)}) and escapes", rules=rules,
              side=ld.side)
    escape(ctx, bs, ld)


def fire_at_lone_leader(ctx: Context, bs: BattleState, att: Unit, h: str, bonus: int = 0) -> None:
    """Ranged combat against a lone enemy leader: only a leader symbol hits, and kills him
    (commandsandcolors.net FAQ 50); a leader who survives an attack must evade (Leader unit page), so he
    escapes as after a close combat (ccr:base.ranged, ccr:base.leaders)."""
    ld = next(x for x in bs.leaders if x.hex == h and x.side != att.side and x.hex not in bs.at)
    n = ranged_dice(bs, att, h, bonus)
    att.battles += 1
    att.fired = True
    rules = ("ccr:base.ranged", "ccr:base.leaders")
    faces = _roll(ctx, n, f"ranged {att.code}@{att.hex} at the lone {leader_called(ld, side=False)} at {h}", rules)
    _lone_leader_struck(ctx, bs, ld, faces, "fired on", rules)


def leader_near(bs: BattleState, u: Unit) -> bool:
    """Is a friendly leader in ``u``'s hex or an adjacent hex (ccr:base.leaders)?"""
    near = bs.board.neighbors[u.hex]
    return any(ld.side == u.side and (ld.hex == u.hex or ld.hex in near) for ld in bs.leaders)


def close_hit_symbols(bs: BattleState, att: Unit, tgt: Unit) -> set[str]:
    """Faces that hit in close combat: target's symbol, swords, leader near a leader or for the Guard.

    Swords never hit an elephant and light foot and light cavalry score no sword hits
    (ccr:base.dice); a leader symbol hits when a friendly leader is attached to the battling
    unit or stands in an adjacent hex; an elephant gets no leader hits (ccr:base.close-combat).
    """
    tt = bs.types[tgt.code]
    at_ = bs.types[att.code]
    hits = {tt.symbol}
    if at_.sword_hits and not tt.ignore_all_swords:
        hits.add("swords")
    if at_.leader_bonus and (att.guard or leader_near(bs, att)):
        hits.add("leader")  # ccr:base.leaders, ccr:praetorian-guard
    return hits


def flags_ignored(bs: BattleState, tgt: Unit, att: Unit | None, close: bool) -> tuple[int, list[str]]:
    """Flags ``tgt`` may ignore and why (ccr:base.retreat)."""
    if close and att is not None and att.code in bs.panic.get(tgt.side, ()):
        return 0, ["panic: no flag ignored"]
    why = []
    if bs.leader_with(tgt) is not None:
        why.append("leader attached")
    if bs.friends_adjacent(tgt) >= 2:
        why.append("supported")
    if tgt.guard:
        why.append("Praetorian Guard")
    if bs.types[tgt.code].ignore_flag_full and at_full_strength(bs, tgt):
        why.append("full strength")  # warriors, light barbarian chariots: until the combat after their first loss
    foot = not bs.types[tgt.code].mounted
    if foot and bs.board.spec(tgt.hex).ignore_flag_foot:
        why.append(bs.board.terrain[tgt.hex])
    if foot:
        for w in bs.wagons:
            if w.hex == tgt.hex and w.kind == "wagon-laager" and w.side == tgt.side:
                why.append("wagon laager")
    return len(why), why


def apply_losses(ctx: Context, bs: BattleState, u: Unit, n: int, rules: tuple[str, ...]) -> bool:
    """Remove ``n`` blocks; on elimination the enemy gains a banner. Leader checks follow. True if eliminated."""
    n = min(n, u.blocks)
    if n <= 0:
        return False
    u.blocks -= n
    ld = bs.leader_with(u)
    if u.blocks <= 0:
        bs.remove_unit(u)
        bs.armies[u.side].lost.append(u.code)
        ctx.event("loss", f"{u.side} {u.code} at {u.hex} is eliminated", rules=rules, side=u.side, hex=u.hex)
        gain(ctx, bs, bs.other(u.side), 1, f"{u.code} eliminated", ("ccr:victory",))
        if ld is not None and not bs.over:
            if ld.lid in bs.checked:  # one leader casualty check per combat sequence: he only escapes
                ctx.event("leader", f"{ld.name} was checked already in this combat: no second casualty check",
                          rules=("ccr:base.leaders",), side=ld.side)
                escape(ctx, bs, ld)
            else:
                bs.checked.add(ld.lid)
                casualty_check(ctx, bs, ld, True)
        return True
    ctx.event("loss", f"{u.side} {u.code} at {u.hex} loses {n} block{'s' if n > 1 else ''} ({u.blocks} left)",
              rules=rules, side=u.side, hex=u.hex)
    if ld is not None and ld.lid not in bs.checked:
        bs.checked.add(ld.lid)  # one leader casualty check per combat sequence
        casualty_check(ctx, bs, ld, False)
    return False


def marsh_check(ctx: Context, bs: BattleState, u: Unit) -> bool:
    """A unit entering a marsh hex (by a move, a retreat, an evasion or a momentum advance) rolls one
    die and loses a block on its own symbol (ccr:base.terrain); an attached leader then makes his
    casualty check. True if the unit is eliminated."""
    if not bs.board.spec(u.hex).sink:
        return False
    rules = ("ccr:base.terrain",)
    faces = _roll(ctx, 1, f"{u.code}@{u.hex} enters the {bs.board.terrain[u.hex]}", rules)
    if bs.types[u.code].symbol not in faces:
        return False
    return apply_losses(ctx, bs, u, 1, rules)


def _retreat_free(bs: BattleState, u: Unit, h: str) -> bool:
    if h in bs.at:
        return False
    if any(ld.hex == h and ld.side != u.side for ld in bs.leaders):
        return False
    return not blocked_for(bs, h, u.code, bs.types[u.code].mounted)


def can_retreat(bs: BattleState, u: Unit, hexes: int) -> bool:
    """Is there a path of ``hexes`` free hexes toward the baseline (for evasion, ccr:base.evade)?"""
    key = bs.armies[u.side].key
    frontier = {u.hex}
    for _ in range(hexes):
        frontier = {n for h in frontier for n in bs.board.toward_baseline(h, key) if _retreat_free(bs, u, n)}
        if not frontier:
            return False
    return True


GONE, STOPPED, ON = "gone", "stopped", "on"
"""How one hex of a retreat or an evade ended (:func:`_step_back`)."""


def _step_back(ctx: Context, bs: BattleState, u: Unit, dest: str, start: str, had_leader: bool,
               rules: tuple[str, ...], verb: str, onto: str, move: str, rule: str) -> tuple[str, str]:
    """Move ``u`` one hex of its retreat or evade (``move``, under ``rule``) into ``dest``.

    Each marsh hex entered costs a roll at once, before any other loss: the move so far is
    logged (``{verb} start -> dest``) and the unit may be lost (:data:`GONE`; ccr:base.terrain).
    A unit that came without a leader and reaches a lone friendly one takes him and stops there
    (:data:`STOPPED`; ccr:base.retreat, ccr:base.evade, ccr:base.leaders). Returns the hex the move
    still to log starts from, and how the hex ended (:data:`ON`: the move goes on).
    """
    bs.move_unit(u, dest)
    if bs.board.spec(dest).sink:
        ctx.event("retreat", f"{u.side} {u.code} {verb} {start} -> {dest}", rules=rules, side=u.side)
        start = dest
        if marsh_check(ctx, bs, u):
            return start, GONE
    if not had_leader and (ld := bs.leader_with(u)) is not None:
        ctx.event("retreat", f"{u.side} {u.code} {onto} {ld.name} at {dest}: the leader attaches and the {move} "
                  "stops", rules=(rule, "ccr:base.leaders"), side=u.side)
        return start, STOPPED
    return start, ON


def retreat(ctx: Context, bs: BattleState, u: Unit, hexes: int, rules: tuple[str, ...]) -> Gen:
    """Retreat ``hexes`` toward the own baseline; a block for each hex that cannot be retreated."""
    key = bs.armies[u.side].key
    board = bs.board
    start = u.hex
    had_leader = bs.leader_with(u) is not None
    rampage = bs.types[u.code].rampage and hexes > 0
    if rampage:
        elephant_rampage(ctx, bs, u)
        if bs.over:
            return
    for i in range(hexes):
        opts = [n for n in board.toward_baseline(u.hex, key) if _retreat_free(bs, u, n)]
        if not opts and rampage:
            opts = _trample_blockers(ctx, bs, u, key)
            if bs.over:
                return
            if not opts and any(n in bs.at for n in board.toward_baseline(u.hex, key)):
                continue  # the blockers took the loss instead of the elephant
        if not opts:
            left = hexes - i
            drown = bs.drown.get(u.side)
            if drown is not None:
                onward = board.toward_baseline(u.hex, key)
                if not onward or any(board.terrain[n] == drown for n in onward):
                    ctx.event("retreat", f"{u.side} {u.code} at {u.hex} is driven into the {drown} or off the field",
                              rules=("ccr:base.retreat", f"ccr:scenario.{bs.battle.slug}"), side=u.side)
                    apply_losses(ctx, bs, u, u.blocks, ("ccr:base.retreat", f"ccr:scenario.{bs.battle.slug}"))
                    return
            ctx.event("retreat", f"{u.side} {u.code} at {u.hex} cannot retreat {left} more hex{'es' if left > 1 else ''}",
                      rules=("ccr:base.retreat",), side=u.side)
            apply_losses(ctx, bs, u, left, ("ccr:base.retreat",))
            return
        dest = yield from ask(u.side, f"Retreat {bs.types[u.code].name} from {u.hex} ({hexes - i} to go): to which hex?",
                              [(h, "retreat") for h in opts], "ccr:base.retreat", Kind.RETREAT_HEX,
                              lambda text, _u=u: why_not_retreat(bs, _u, text),
                              highlight=opts)  # one hex: no question
        start, went = _step_back(ctx, bs, u, dest, start, had_leader, rules, "retreats", "reaches", "retreat",
                                 "ccr:base.retreat")
        if went == GONE:
            return
        if went == STOPPED:
            break
    if u.hex != start:
        ctx.event("retreat", f"{u.side} {u.code} retreats {start} -> {u.hex}", rules=rules, side=u.side)


def evade_first_hexes(bs: BattleState, u: Unit) -> list[str]:
    """Hexes an evading unit may enter first (ccr:base.evade).

    An evade is a 2-hex move toward the own baseline; 1 hex is allowed only when no 2-hex
    path exists. A first hex holding a lone friendly leader ends the evade there.
    """
    key = bs.armies[u.side].key
    first = [n for n in bs.board.toward_baseline(u.hex, key) if _retreat_free(bs, u, n)]

    def onward(n: str) -> bool:
        if bs.lone_leader(n) is not None:
            return True  # stopping on the leader counts as a full evade
        return any(_retreat_free(bs, u, m) for m in bs.board.toward_baseline(n, key) if m != u.hex)

    two = [n for n in first if onward(n)]
    return two or first


def evade_move(ctx: Context, bs: BattleState, u: Unit, rules: tuple[str, ...]) -> Gen:
    """Move an evading unit 2 hexes toward its baseline, or 1 if only 1 is possible (ccr:base.evade).

    An evade is not a retreat: a hex it cannot move costs no block.
    """
    key = bs.armies[u.side].key
    start = u.hex
    had_leader = bs.leader_with(u) is not None
    for step in range(2):
        opts = evade_first_hexes(bs, u) if step == 0 else [
            n for n in bs.board.toward_baseline(u.hex, key) if _retreat_free(bs, u, n)]
        if not opts:
            break
        dest = yield from ask(u.side, f"Evade {bs.types[u.code].name} from {u.hex} ({2 - step} to go): to which hex?",
                              [(h, "evade") for h in opts], "ccr:base.evade", Kind.EVADE_HEX,
                              lambda text, _u=u, _o=tuple(opts): why_not_evade_hex(bs, _u, _o, text),
                              highlight=opts)  # one hex: no question
        start, went = _step_back(ctx, bs, u, dest, start, had_leader, rules, "evades", "evades onto", "evade",
                                 "ccr:base.evade")
        if went == GONE:
            return
        if went == STOPPED:
            break
    if u.hex != start:
        ctx.event("retreat", f"{u.side} {u.code} evades {start} -> {u.hex}", rules=rules, side=u.side)


def why_not_evade_hex(bs: BattleState, u: Unit, opts: tuple[str, ...], text: str) -> tuple[str, str]:
    """Why ``text`` is not a hex ``u`` may evade into now (for refusals, ccr:base.evade)."""
    h = text.strip()
    if h in bs.board.row and h in bs.board.toward_baseline(u.hex, bs.armies[u.side].key) and h not in opts \
            and _retreat_free(bs, u, h):
        return (f"from {h} no second hex is open, and an evade must cover 2 hexes when it can "
                f"(answer {', '.join(opts)})", "ccr:base.evade")
    why, rule = why_not_retreat(bs, u, text)
    return why.replace("a retreat goes", "an evade goes").replace("never retreat", "never evade").replace(
        "a retreat moves", "an evade moves"), \
        "ccr:base.evade" if rule == "ccr:base.retreat" else rule


def elephant_rampage(ctx: Context, bs: BattleState, el: Unit) -> None:
    """Before an elephant retreats, 2 dice against every adjacent unit, friend or foe (ccr:base.retreat).

    Only the victim's own unit symbol hits: no swords, no leader symbols, flags ignored.
    """
    rules = ("ccr:base.retreat",)
    victims = sorted((bs.at[n] for n in bs.board.neighbors[el.hex] if n in bs.at), key=lambda v: v.hex)
    if not victims:
        return
    ctx.event("retreat", f"{el.side} {el.code} at {el.hex} rampages before it retreats", rules=rules, side=el.side)
    for v in victims:
        if bs.over:
            return
        if not _alive(bs, v):
            continue
        sym = bs.types[v.code].symbol
        faces = _roll(ctx, 2, f"rampage of {el.code}@{el.hex} into {v.code}@{v.hex}", rules)
        hits = faces.count(sym)
        ctx.event("combat", f"rampage {el.code}@{el.hex} -> {v.side} {v.code}@{v.hex}: {', '.join(faces)}: "
                  f"{hits} hit{'s' if hits != 1 else ''}", rules=rules, side=el.side)
        apply_losses(ctx, bs, v, hits, rules)


def _trample_blockers(ctx: Context, bs: BattleState, el: Unit, key: str) -> list[str]:
    """Units blocking an elephant's retreat each lose a block instead of it (ccr:base.retreat).

    Returns the retreat hexes freed by eliminated blockers (reconstructed reading, L).
    """
    blockers = [bs.at[n] for n in bs.board.toward_baseline(el.hex, key) if n in bs.at]
    if not blockers:
        return []
    ctx.event("retreat", f"{el.side} {el.code} at {el.hex} cannot retreat through "
              + ", ".join(f"{v.code}@{v.hex}" for v in blockers) + ": each loses a block instead",
              rules=("ccr:base.retreat",), side=el.side)
    for v in blockers:
        if bs.over:
            return []
        apply_losses(ctx, bs, v, 1, ("ccr:base.retreat",))
    return [n for n in bs.board.toward_baseline(el.hex, key) if _retreat_free(bs, el, n)]


def _reroll_swords(ctx: Context, bs: BattleState, att: Unit, faces: tuple[str, ...], cap: int,
                   rules: tuple[str, ...]) -> tuple[str, ...]:
    """An elephant rolls again each die that scored a sword hit, until none does (ccr:base.close-combat).

    ``cap`` swords the target may ignore are spent first and are not rolled again.
    """
    swords = faces.count("swords")
    used = min(swords, cap)
    pending = swords - used
    while pending:
        extra = _roll(ctx, pending, f"{att.code}@{att.hex} rolls its {pending} sword hit{'s' if pending > 1 else ''} again",
                      rules)
        faces += extra
        s = extra.count("swords")
        ign = min(s, cap - used)
        used += ign
        pending = s - ign
    return faces


def _split_rule(why: str, default: str) -> tuple[str, str]:
    """'reason [ccr:rule]' -> ('reason', 'ccr:rule')."""
    if why.endswith("]") and " [" in why:
        text, rule = why.rsplit(" [", 1)
        return text, rule.rstrip("]")
    return why, default


def why_not_retreat(bs: BattleState, u: Unit, text: str) -> tuple[str, str]:
    """Why ``text`` is not a hex ``u`` may retreat into now (for refusals, ccr:base.retreat)."""
    rule = "ccr:base.retreat"
    board = bs.board
    h = text.strip()
    if h not in board.row:
        return f"{text!r} is not a hex of the battlefield", rule
    if h == u.hex:
        return f"{u.code} stands at {h}; a retreat moves it back toward your own baseline", rule
    if h not in board.neighbors[u.hex]:
        return f"{h} is not adjacent to {u.code}@{u.hex}; a retreat goes one hex at a time", rule
    if h not in board.toward_baseline(u.hex, bs.armies[u.side].key):
        return f"{h} is not toward your own baseline; units never retreat sideways or forward", rule
    v = bs.at.get(h)
    if v is not None:
        return f"{h} is occupied by {v.side} {v.code}; no unit retreats onto or through another unit", rule
    if any(ld.hex == h and ld.side != u.side for ld in bs.leaders):
        return f"an enemy leader stands alone at {h} and blocks the retreat", rule
    why = blocked_for(bs, h, u.code, bs.types[u.code].mounted)
    if why:
        return _split_rule(why, rule)
    return f"{h} may not be retreated into now", rule


def why_cannot_evade(bs: BattleState, tgt: Unit, att: Unit) -> tuple[str, str] | None:
    """Why ``tgt`` may not evade a close combat by ``att`` (None if it may; ccr:base.evade)."""
    rule = "ccr:base.evade"
    tt = bs.types[tgt.code]
    if not tt.evade:
        return f"{tt.name.lower()} may not evade ({tgt.code}@{tgt.hex})", rule
    if not can_evade(tt, att.code, bs.types[att.code]):
        return (f"{tt.name.lower()} may evade only attacks by {' or '.join(e.replace('-', ' ') for e in tt.evade)} "
                f"units, and {att.code} is not one", rule)
    if not can_retreat(bs, tgt, 1):
        return f"{tgt.code}@{tgt.hex} has no open hex toward its own baseline to evade into", rule
    return None


def why_not_advance(bs: BattleState, att: Unit, target_hex: str, text: str) -> tuple[str, str]:
    """Why ``text`` is not an answer to a momentum advance question (ccr:base.momentum)."""
    rule = "ccr:base.momentum"
    h = text.strip()
    if h not in bs.board.row:
        return f"{text!r} is neither the vacated hex {target_hex} nor 'stay'", rule
    if h == att.hex:
        return f"{att.code} is at {h} already; answer 'stay' to hold", rule
    return f"{h} is not the hex {target_hex} the defender left; a momentum advance enters only that hex", rule


def _why_not_extra(bs: BattleState, att: Unit, from_hex: str, more: list[str], text: str) -> tuple[str, str]:
    rule = "ccr:base.momentum"
    h = text.strip()
    if h not in bs.board.row:
        return f"{text.strip()!r} is neither a hex ({', '.join(more)}) nor 'stay'", rule
    if h == from_hex:
        return f"{att.code} is at {h} already; answer 'stay' to keep it there", rule
    if h not in bs.board.neighbors[from_hex]:
        return f"{h} is not adjacent to {att.code}@{from_hex}; after a momentum advance it moves only 1 more hex", rule
    why = blocked_for(bs, h, att.code, True)
    if why:
        return _split_rule(why, rule)
    return f"{h} is occupied or holds an enemy leader; {att.code} may move on only into {', '.join(more)}", rule


def _why_not_bonus(bs: BattleState, att: Unit, text: str) -> tuple[str, str]:
    rule = "ccr:base.momentum"
    h = text.strip()
    if h not in bs.board.row:
        return f"{h!r} is neither a hex ID (CCRR) nor 'none'", rule
    if h == att.hex:
        return f"{h} is where {att.code} stands; name an adjacent enemy unit or 'none'", rule
    v = bs.at.get(h)
    if v is None or v.side == att.side:
        return f"{h} holds no enemy unit", rule
    return f"{v.code}@{h} is not adjacent to {att.code}@{att.hex}; bonus close combat is against an adjacent unit", rule


def _roll(ctx: Context, n: int, why: str, rules: tuple[str, ...]) -> tuple[str, ...]:
    return ctx.chance.symbols(BATTLE_DIE, n, why, rules) if n > 0 else ()


def _resolve(ctx: Context, bs: BattleState, att: Unit, tgt: Unit, faces: tuple[str, ...], close: bool,
             rules: tuple[str, ...]) -> Gen:
    """Apply hits and flags of ``faces`` rolled by ``att`` against ``tgt``; then leaders left alone escape."""
    yield from _apply_roll(ctx, bs, att, tgt, faces, close, rules)
    yield from resolve_escapes(ctx, bs)


def _apply_roll(ctx: Context, bs: BattleState, att: Unit, tgt: Unit, faces: tuple[str, ...], close: bool,
                rules: tuple[str, ...]) -> Gen:
    tt = bs.types[tgt.code]
    at_ = bs.types[att.code]
    laager = close and not tt.mounted and any(
        w.hex == tgt.hex and w.kind == "wagon-laager" and w.side == tgt.side for w in bs.wagons)
    if close:
        hitset = close_hit_symbols(bs, att, tgt)
        if at_.reroll_swords and "swords" in hitset:
            faces = _reroll_swords(ctx, bs, att, faces, tt.ignore_swords + (1 if laager else 0), rules)
    else:
        hitset = {tt.symbol}
    hits = sum(1 for f in faces if f in hitset)
    notes = []
    if close:
        swords = faces.count("swords")
        if tt.ignore_all_swords and swords:
            notes.append(f"{swords} sword{'s' if swords > 1 else ''} cannot hit an elephant (ccr:base.close-combat)")
        if "swords" not in hitset:
            swords = 0  # no sword hits to ignore (light attackers, elephants as targets)
        ign = min(swords, tt.ignore_swords)
        if tt.ignore_swords and ign:
            why_rule = {"HCC": "ccr:heavy-cataphract", "CCA": "ccr:cataphract-camel"}.get(tgt.code, "ccr:base.close-combat")
            notes.append(f"ignores {ign} sword ({why_rule})")
        if laager:
            more = min(swords - ign, 1)
            if more:
                notes.append("ignores 1 sword in its wagon laager (ccr:wagon-laager)")
            ign += more
        hits -= ign
        if tt.ignore_vs_mounted and at_.mounted and att.code not in ("EL", "CA", "CCA") and hits > 0:
            hits -= tt.ignore_vs_mounted
            notes.append(f"{tt.name.lower()} ignores 1 hit from cavalry or chariots "
                         f"({'ccr:cataphract-camel' if tgt.code == 'CCA' else 'ccr:base.close-combat'})")
    flags = faces.count("flag")
    ev = ctx.event("combat", f"{att.code}@{att.hex} -> {tgt.code}@{tgt.hex}: {', '.join(faces) or 'no dice'}: "
                   f"{hits} hit{'s' if hits != 1 else ''}, {flags} flag{'s' if flags != 1 else ''}"
                   + (f" ({'; '.join(notes)})" if notes else ""), rules=rules, side=att.side,
                   dice_rolled=len(faces), faces=list(faces), hitting=sorted(hitset), hits=hits, flags=flags,
                   mode="close" if close else "ranged")
    del ev
    if apply_losses(ctx, bs, tgt, hits, rules) or bs.over:
        return
    if flags:
        ign, why = flags_ignored(bs, tgt, att, close)
        left = max(0, flags - ign)
        if ign and flags:
            ctx.event("flag", f"{tgt.code}@{tgt.hex} ignores {min(ign, flags)} flag{'s' if min(ign, flags) > 1 else ''} "
                      f"({', '.join(why)})", rules=("ccr:base.retreat",) + (("ccr:praetorian-guard",) if tgt.guard else ()),
                      side=tgt.side)
        if left:
            extra = att.code in tt.extra_retreat_vs  # horses shy from elephants (ccr:base.retreat)
            per = tt.retreat + (1 if extra else 0)
            if extra:
                ctx.event("flag", f"{tgt.code}@{tgt.hex} retreats {per} hexes per flag from {att.code}",
                          rules=("ccr:base.retreat",) + (("ccr:heavy-cataphract",) if tgt.code == "HCC" else ()),
                          side=tgt.side)
            yield from retreat(ctx, bs, tgt, left * per, ("ccr:base.retreat",))


def ranged_combat(ctx: Context, bs: BattleState, att: Unit, tgt: Unit, bonus: int = 0) -> Gen:
    """Ranged combat: only the target's symbol hits; flags retreat; no battle back (ccr:base.ranged).

    ``bonus``: a card's extra dice for the ordered unit (I Am Spartacus, ccr:base.cards).
    """
    saved, bs.fresh = bs.fresh, _fresh(tgt)
    try:
        yield from _ranged_combat(ctx, bs, att, tgt, bonus)
    finally:
        bs.fresh = saved


def _fresh(*units: Unit) -> set[int]:
    """The units at full strength as a combat begins (see :func:`at_full_strength`)."""
    return {u.uid for u in units if u.blocks >= u.max_blocks}


def _ranged_combat(ctx: Context, bs: BattleState, att: Unit, tgt: Unit, bonus: int) -> Gen:
    bs.checked.clear()
    n = ranged_dice(bs, att, tgt.hex, bonus)
    leg = is_legion(bs, att)
    rules = ("ccr:base.ranged",) + ((f"ccr:{leg}-legions",) if leg and not bs.types[att.code].range else ())
    faces = _roll(ctx, n, f"ranged {att.code}@{att.hex} at {tgt.code}@{tgt.hex}", rules)
    att.battles += 1
    att.fired = True
    yield from _resolve(ctx, bs, att, tgt, faces, False, rules)


def _alive(bs: BattleState, u: Unit) -> bool:
    return bs.units.get(u.uid) is u


def _why_not_react(bs: BattleState, tgt: Unit, att: Unit, text: str, answers: str,
                   rule: str = "ccr:base.close-combat") -> tuple[str, str]:
    """Refusal for the defender's questions: explains a wish to evade, else lists the answers."""
    t = text.strip().lower()
    if t == "evade":
        why = why_cannot_evade(bs, tgt, att)
        if why is not None:
            return why
        return "decide on First Strike first; evasion is asked next if you keep the card", "ccr:base.evade"
    if t in bs.board.row:
        return (f"the defender does not choose hexes here; an evading unit picks its hexes after the attack is "
                f"rolled (answer {answers})", "ccr:base.evade")
    return f"{text.strip()!r} is not an answer here: {answers}", rule


def close_combat(ctx: Context, bs: BattleState, att: Unit, tgt: Unit, plan: OrderPlan, bonus: bool = False) -> Gen:
    """A whole close combat: first strike, evasion, attack, battle back, momentum (ccr:base.close-combat).

    A momentum bonus combat is a combat of its own (warriors hurt in the first roll 3 dice in it).
    """
    saved, bs.fresh = bs.fresh, _fresh(att, tgt)
    try:
        yield from _close_combat(ctx, bs, att, tgt, plan, bonus)
    finally:
        bs.fresh = saved


def _close_combat(ctx: Context, bs: BattleState, att: Unit, tgt: Unit, plan: OrderPlan, bonus: bool) -> Gen:
    rules: tuple[str, ...] = ("ccr:base.close-combat",)
    bs.checked.clear()
    bs.attack = (att, tgt)
    at_ = bs.types[att.code]
    tt = bs.types[tgt.code]
    att.battles += 1
    origin = att.hex
    target_hex = tgt.hex
    cc_bonus = plan.cc_bonus if att.ordered else 0
    if bonus and plan.cc_bonus_first_only:
        cc_bonus = 0  # Clash of Shields: the bonus close combat rolls the normal dice (ccr:base.cards)
    # First Strike: the defender may play it when close combat is declared (ccr:base.cards).
    defender = bs.armies[tgt.side]
    first = False
    if not bonus and bs.first_strike != "never" and "FS" in defender.hand and bs.deck is not None:
        if bs.first_strike == "auto":
            k = "strike"
        else:
            k = yield from ask(tgt.side, f"{unit_at(bs, att)} attacks your {unit_at(bs, tgt)}: play First Strike?",
                               [("strike", "play First Strike: battle first"), ("no", "keep the card")],
                               "ccr:base.cards", Kind.REACT_FIRST_STRIKE,
                               lambda text: _why_not_react(bs, tgt, att, text, "'strike' or 'no'", "ccr:base.cards"))
        if k == "strike":
            first = True
            defender.hand.remove("FS")
            bs.deck.discard("FS")
            ctx.event("card", f"{tgt.side} plays First Strike", rules=("ccr:base.cards",), side=tgt.side)
            bs.draw_first.append(tgt.side)  # "at the end of the turn, draw a command card first" (printed card)
            n = close_dice(bs, tgt, att, 0, battle_back=True)
            faces = _roll(ctx, n, f"first strike {tgt.code}@{tgt.hex}", rules + ("ccr:base.cards",))
            yield from _resolve(ctx, bs, tgt, att, faces, True, rules + ("ccr:base.cards",))
            if bs.over or not _alive(bs, att) or att.hex != origin:
                return
    # Evasion (ccr:base.evade)
    evading = False
    if not first and can_evade(tt, att.code, at_) and can_retreat(bs, tgt, 1):
        k = yield from ask(tgt.side, f"{unit_at(bs, att)} attacks your {unit_at(bs, tgt)}: evade?",
                           [("evade", "evade 2 hexes: only your unit symbol hits"), ("stand", "stand and fight")],
                           "ccr:base.evade", Kind.REACT_EVADE,
                           lambda text: _why_not_react(bs, tgt, att, text, "'evade' or 'stand'", "ccr:base.evade"))
        evading = k == "evade"
    n = close_dice(bs, att, tgt, cc_bonus)
    if evading:
        ev_rules = ("ccr:base.evade",)
        caltrops = tgt.code in LIGHT_FOOT and tgt.side in bs.caltrops and at_.mounted
        if caltrops:
            ev_rules += ("ccr:caltrops",)
        faces = _roll(ctx, n, f"{att.code}@{att.hex} against evading {tgt.code}@{tgt.hex}", ev_rules)
        hits = faces.count(tt.symbol)
        back = faces.count("swords") if caltrops else 0
        ctx.event("combat", f"{att.code}@{att.hex} -> evading {tgt.code}@{tgt.hex}: {', '.join(faces) or 'no dice'}: "
                  f"{hits} hit{'s' if hits != 1 else ''}" + (f", caltrops: {back} hit{'s' if back != 1 else ''} on the attacker" if caltrops else ""),
                  rules=ev_rules, side=att.side)
        dead = apply_losses(ctx, bs, tgt, hits, ev_rules)
        if back:
            apply_losses(ctx, bs, att, back, ("ccr:caltrops",))
        if bs.over:
            return
        if not dead:
            yield from evade_move(ctx, bs, tgt, ev_rules)
        yield from resolve_escapes(ctx, bs)
    else:
        faces = _roll(ctx, n, f"close combat {att.code}@{att.hex} at {tgt.code}@{tgt.hex}", rules)
        yield from _resolve(ctx, bs, att, tgt, faces, True, rules)
        if bs.over:
            return
        # Battle back (ccr:base.close-combat): the defender stood its ground.
        if (not first and _alive(bs, tgt) and tgt.hex == target_hex and _alive(bs, att) and att.hex == origin):
            nb = close_dice(bs, tgt, att, 0, battle_back=True)
            if nb > 0:
                bs.checked.clear()
                faces = _roll(ctx, nb, f"battle back {tgt.code}@{tgt.hex} at {att.code}@{att.hex}", rules)
                yield from _resolve(ctx, bs, tgt, att, faces, True, rules)
                if bs.over:
                    return
    # Momentum advance (ccr:base.momentum); never into the hex of a unit that evaded (ccr:base.evade)
    if evading or not _alive(bs, att) or att.hex != origin or bs.over:
        return
    if target_hex in bs.at or any(ld.hex == target_hex and ld.side != att.side for ld in bs.leaders):
        return
    if at_.no_battle_after_move or blocked_for(bs, target_hex, att.code, at_.mounted):
        return
    k = yield from ask(att.side, f"{unit_at(bs, att, origin)} may advance into {target_hex}: advance?",
                       [(target_hex, "momentum advance"), ("stay", "stay")], "ccr:base.momentum", Kind.MOMENTUM_ADVANCE,
                       lambda text: why_not_advance(bs, att, target_hex, text), highlight=[target_hex])
    if k != target_hex:
        return
    bs.move_unit(att, target_hex)
    ctx.event("move", f"{att.side} {att.code} advances {origin} -> {target_hex}", rules=("ccr:base.momentum",),
              side=att.side)
    if marsh_check(ctx, bs, att):
        yield from resolve_escapes(ctx, bs)
        return
    spec = bs.board.spec(target_hex)
    if spec.no_battle_on_entry and att.code not in spec.battle_on_entry_units:
        return
    if (not at_.mounted and bs.leader_with(att) is None) or bonus or att.bonus_done or evading or plan.no_close:
        return  # foot battle again only with an attached leader (Leader unit page; ccr:base.momentum)
    if at_.momentum_extra and target_hex not in bs.stop_hexes() and bs.wagon_at(target_hex) is None:
        # Light cavalry may move one more hex after the advance, before its bonus combat (ccr:base.momentum).
        more = sorted(reach(bs, att, at_.momentum_extra))
        if more:
            k = yield from ask(att.side, f"{unit_at(bs, att)} may move {at_.momentum_extra} more hex before its "
                               f"bonus close combat: to which hex?", [(h, "move on") for h in more] + [("stay", "stay")],
                               "ccr:base.momentum", Kind.MOMENTUM_EXTRA,
                               lambda text, _h=att.hex: _why_not_extra(bs, att, _h, more, text), highlight=more)
            if k != "stay":
                start = att.hex
                bs.move_unit(att, k)
                ctx.event("move", f"{att.side} {att.code} moves on {start} -> {k} after its momentum advance",
                          rules=("ccr:base.momentum",), side=att.side)
                if marsh_check(ctx, bs, att):
                    yield from resolve_escapes(ctx, bs)
                    return
                spec = bs.board.spec(k)
                if spec.no_battle_on_entry and att.code not in spec.battle_on_entry_units:
                    return
    targets = [v.hex for v in bs.adjacent_enemies(att)]
    if not targets:
        return
    att.bonus_done = True
    k = yield from ask(att.side, f"Bonus close combat for {unit_at(bs, att)}: which target?",
                       [(h, f"attack {bs.types[bs.at[h].code].name}") for h in sorted(targets)] + [("none", "no bonus combat")],
                       "ccr:base.momentum", Kind.MOMENTUM_BONUS, lambda text: _why_not_bonus(bs, att, text),
                       highlight=targets)
    if k == "none":
        return
    ctx.event("combat", f"{att.code}@{att.hex} makes a bonus close combat against {bs.at[k].code}@{k}",
              rules=("ccr:base.momentum",), side=att.side)
    yield from close_combat(ctx, bs, att, bs.at[k], plan, bonus=True)
