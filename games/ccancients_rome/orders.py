"""One turn: play a Command card, order units, move them, battle, draw.

Owns the staged decisions of a turn and the card effects that act at order
time. Serves ``ccr:sequence`` (the five steps), ``ccr:base.cards`` (section,
troop, leadership and tactic cards, Counter Attack, Rally, I Am Spartacus,
First Strike on one's own turn), ``ccr:base.sections`` (units on a dotted line
count for either section), ``ccr:base.movement``, ``ccr:base.leaders``
(ordering a leader alone or detaching him with a leadership card),
``ccr:baggage-wagon`` (which cards order a wagon and how far it goes),
``ccr:julian-legions`` (move 2), ``ccr:special-units`` and the Mons Graupius
reserve.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs
from ancients_kit.protocol import Context, Decision

from .cards import OrderPlan, mirror_plan, mirror_sections, order_plan
from .combat import (
    attack_lone_leader, battle_options, close_combat, fire_at_lone_leader, marsh_check, ranged_combat, unit_at,
    unit_range, why_no_battle, why_not_target,
)
from .dice import BATTLE_DIE
from .leaders import leader_called, marsh_check_leader, resolve_escapes
from .movement import allowance, blocked_for, can_step, leader_reach, reach, wagon_reach
from .protocol import ask
from .state import BattleState, Leader, Unit, Wagon
from .units import LIGHT_FOOT
from .victory import gain
from .vocab import Kind

__all__ = ["fits_sections", "order_categories", "play_turn", "troop_ok", "with_fallback"]

Gen = Generator[Decision, str, None]
Item = Unit | Leader | Wagon
SYMBOL_KEYS = ("light", "medium", "heavy")
ONE = "one"
"""Answer for a leadership card's 'or order one unit of your choice' (ccr:base.cards)."""


def _key(bs: BattleState, it: Item) -> str:
    if isinstance(it, Unit):
        return it.hex
    if isinstance(it, Leader):
        return "L" + it.hex
    return "W" + it.hex


_LABELS: dict[tuple[str, int, str | None], str] = {}
"""(unit type name, blocks, attached leader's name) -> a unit's label (the same few recur all game)."""


def _card(bs: BattleState, plan: OrderPlan) -> str:
    """The card being played, by its printed name for a question (``Inspired Leadership Centre``)."""
    spec = bs.cards.get(plan.card)
    return spec.name if spec is not None else f"Card {plan.card}"


def _label(bs: BattleState, it: Item) -> str:
    if isinstance(it, Unit):
        ld = bs.leader_with(it)
        k = (bs.types[it.code].name, it.blocks, ld.name if ld else None)
        got = _LABELS.get(k)
        if got is None:
            if len(_LABELS) > 10_000:
                _LABELS.clear()
            got = _LABELS[k] = _label_reference(bs, it)
        return got
    return _label_reference(bs, it)


def _label_reference(bs: BattleState, it: Item) -> str:
    """:func:`_label` without the shared labels (the code before issue 11 item 5; benchmarks and tests)."""
    if isinstance(it, Unit):
        ld = bs.leader_with(it)
        return (f"{bs.types[it.code].name} ({it.blocks} block{'' if it.blocks == 1 else 's'})"
                + (f" with {ld.name}" if ld else ""))
    if isinstance(it, Leader):
        return leader_called(it, side=False)
    return it.kind.replace("-", " ")


def troop_ok(bs: BattleState, it: Item, troops: str) -> bool:
    """May ``it`` be ordered by a troop card naming ``troops`` ('' for any) (ccr:base.cards)?"""
    if not troops:
        return True
    if isinstance(it, Wagon):
        return troops == "mounted"
    if isinstance(it, Leader):
        return False
    t = bs.types[it.code]
    if troops in SYMBOL_KEYS:
        return t.symbol == troops
    if troops == "mounted":
        return t.mounted
    if troops == "foot":
        return not t.mounted
    if troops == "ranged":
        return unit_range(bs, it) > 0
    if troops == "adjacent":
        return bool(bs.adjacent_enemies(it))
    return False


def order_categories(bs: BattleState, side: str, plan: OrderPlan, it: Item) -> tuple[str, ...]:
    """Order categories of the plan this item could fill."""
    secs = bs.board.sections(it.hex, bs.armies[side].key)
    out: list[str] = []
    for cat in plan.sections:
        if cat in secs:
            out.append(cat)
        elif cat == "all" and troop_ok(bs, it, plan.troops):
            out.append(cat)
        elif cat == "any":
            out.extend("any:" + s for s in secs)
        elif cat.startswith("sym:"):
            sym = cat[4:]
            if isinstance(it, Unit) and (sym == "any" or bs.types[it.code].symbol == sym):
                out.append(cat)
            elif isinstance(it, Leader) and sym == "any":
                out.append(cat)  # I Am Spartacus: a leader symbol orders any unit or a leader
    return tuple(out)


def fits_sections(cats: list[tuple[str, ...]], plan: OrderPlan) -> bool:
    """Can the chosen items be spread over the plan's categories (ccr:base.sections)?"""
    caps = dict(plan.sections)
    if "any" in caps:
        n = caps["any"]
        if len(cats) > n:
            return False
        return any(all(("any:" + s) in c for c in cats) for s in ("left", "centre", "right"))
    cats = sorted(cats, key=len)

    def place(i: int) -> bool:
        if i == len(cats):
            return True
        for c in cats[i]:
            if caps.get(c, 0) > 0:
                caps[c] -= 1
                if place(i + 1):
                    return True
                caps[c] += 1
        return False

    return place(0)


def _orderable(bs: BattleState, side: str, plan: OrderPlan) -> list[Item]:
    out: list[Item] = []
    for u in bs.units.values():
        if u.side == side:
            out.append(u)
    for ld in bs.leaders:
        if ld.side != side:
            continue
        if plan.leaders or bs.lone_leader(ld.hex) is ld:
            out.append(ld)
    if plan.wagon and plan.effect != "i-am-spartacus":
        for w in bs.wagons:
            if w.side == side and w.kind == "baggage-wagon":
                out.append(w)  # ccr:baggage-wagon: ordered like a unit by section / mounted cards
    out.sort(key=lambda it: _key(bs, it))
    return out


def _chain_leaders(bs: BattleState, side: str, plan: OrderPlan) -> list[Leader]:
    key = bs.armies[side].key
    return [ld for ld in bs.leaders if ld.side == side and
            ("any" in plan.leader_chain or set(plan.leader_chain) & set(bs.board.sections(ld.hex, key)))]


def with_fallback(bs: BattleState, side: str, plan: OrderPlan) -> OrderPlan:
    """The plan as played: a card whose leader chain or troops have nobody to order orders one
    unit of choice instead (ccr:base.cards)."""
    if plan.leader_chain and not _chain_leaders(bs, side, plan):
        return attrs.evolve(plan, sections={"all": 1}, leader_chain=())  # no leader: one unit of choice
    if plan.fallback_one and plan.troops and not any(
        troop_ok(bs, it, plan.troops) for it in _orderable(bs, side, plan) if not isinstance(it, Leader)
    ):
        return attrs.evolve(plan, sections={"all": 1}, troops="")  # troop cards: one unit of choice
    return plan


def _why_not_order(bs: BattleState, side: str, plan: OrderPlan, chosen: list[Item], cats: list[tuple[str, ...]],
                   text: str) -> tuple[str, str]:
    """Why ``text`` may not be ordered with ``plan`` now, naming the rule (for refusals)."""
    t = text.strip().upper()
    h = t[1:] if t[:1] in ("L", "W") and t[1:] in bs.board.row else t
    if h not in bs.board.row:
        if t.isdigit():
            return f"there is no option {t} here; answer an option number listed or a hex ID", "ccr:base.cards"
        return f"{text.strip()!r} is neither a hex ID (CCRR) nor an option number", "ccr:base.cards"
    items = [it for it in _orderable(bs, side, plan) if it.hex == h]
    if t.startswith("L"):
        items = [it for it in items if isinstance(it, Leader)]
    elif t.startswith("W"):
        items = [it for it in items if isinstance(it, Wagon)]
    if not items:
        v = bs.at.get(h)
        if v is not None and v.side != side:
            return f"{h} holds the enemy's {v.code}, not one of your units", "ccr:base.cards"
        if any(ld.hex == h and ld.side == side for ld in bs.leaders):
            return (f"your leader at {h} may be ordered only by a card with the helmet or a leadership card, "
                    f"and card {plan.card} has none", "ccr:base.leaders")
        return f"{h} holds none of your units", "ccr:base.cards"
    it = items[0]
    what = f"{it.code}@{h}" if isinstance(it, Unit) else _label(bs, it) + f" at {h}"
    if it.ordered:
        return f"{what} is already ordered this turn; each unit takes one order", "ccr:base.cards"
    if plan.troops and not troop_ok(bs, it, plan.troops):
        kind = bs.types[it.code].symbol if isinstance(it, Unit) else "not a unit"
        return f"card {plan.card} orders {plan.troops} units only, and {what} is {kind}", "ccr:base.cards"
    c = order_categories(bs, side, plan, it)
    secs = bs.board.sections(h, bs.armies[side].key)
    wanted = [k for k in plan.sections if k in ("left", "centre", "right")]
    if not c and wanted:
        return (f"{what} is in your {' and '.join(secs)} section{'s' if len(secs) > 1 else ''}; card {plan.card} "
                f"orders units in your {' and '.join(wanted)} section{'s' if len(wanted) > 1 else ''}",
                "ccr:base.sections")
    if plan.chain and chosen and not any(bs.board.distance(h, o.hex) == 1 for o in chosen):
        return f"{what} is not adjacent to a unit already ordered; card {plan.card} orders a linked group", \
            "ccr:base.cards"
    if c and not fits_sections(cats + [c], plan):
        return (f"card {plan.card} has no order left for {what}'s section "
                f"({', '.join(secs)}): {len(chosen)} already given", "ccr:base.sections")
    return f"{what} cannot be ordered with card {plan.card} now", "ccr:base.cards"


def order_units(ctx: Context, bs: BattleState, side: str, plan: OrderPlan) -> Generator[Decision, str, list[Item]]:
    """Stage 2: order units (and leaders / wagon) one at a time; 'done' ends (ccr:base.cards)."""
    chosen: list[Item] = []
    cats: list[tuple[str, ...]] = []
    if not plan.sections:
        return chosen
    if plan.leader_chain:
        return (yield from _order_leader_chain(ctx, bs, side, plan))
    # keys and labels are fixed while units are ordered (nothing moves or loses blocks): made once
    pool = [(it, c, _key(bs, it), _label(bs, it)) for it in _orderable(bs, side, plan)
            if (c := order_categories(bs, side, plan, it))]
    while True:
        opts: list[tuple[str, str]] = []
        cand: dict[str, tuple[Item, tuple[str, ...]]] = {}
        fit_cache: dict[tuple[str, ...], bool] = {}
        for it, c, k, label in pool:
            if it.ordered:
                continue
            ok = fit_cache.get(c)
            if ok is None:
                ok = fit_cache[c] = fits_sections(cats + [c], plan)
            if not ok:
                continue
            if plan.chain and chosen and not any(bs.board.distance(it.hex, o.hex) == 1 for o in chosen):
                continue
            if k in cand:
                continue
            cand[k] = (it, c)
            opts.append((k, label))
        if not opts:
            break
        opts.append(("done", "stop ordering"))

        def refuse(text: str, _c: dict = cand) -> tuple[str, str]:
            return _why_not_order(bs, side, plan, chosen, cats, text)

        k = yield from ask(side, f"{_card(bs, plan)}: order a unit ({len(chosen)} ordered)", opts, "ccr:base.sections",
                           Kind.ORDER_UNIT, refuse)
        if k == "done":
            break
        it, c = cand[k]
        chosen.append(it)
        cats.append(c)
        it.ordered = True
        ctx.event("order", f"{side} orders {_label(bs, it)} at {it.hex}", rules=("ccr:base.sections",), side=side)
    return chosen


def _order_leader_chain(ctx: Context, bs: BattleState, side: str, plan: OrderPlan) -> Generator[Decision, str, list[Item]]:
    """Leadership cards: a leader (with his unit), then units in adjacent linked hexes (ccr:base.leaders)."""
    leaders = _chain_leaders(bs, side, plan)
    opts = [("L" + ld.hex, _label(bs, ld)) for ld in sorted(leaders, key=lambda x: x.hex)]
    if plan.choice_one:
        # "... or order one unit of your choice": a free choice, not only when no leader qualifies (printed cards)
        opts.append((ONE, "order one unit of your choice instead"))
    k = yield from ask(side, f"{_card(bs, plan)}: order which leader?", opts + [("done", "order nobody")],
                       "ccr:base.leaders", Kind.ORDER_UNIT,
                       lambda text: (f"{text.strip()!r} is not one of your leaders this card may order "
                                     f"(answer {', '.join(k for k, _ in opts)} or done)", "ccr:base.leaders"))
    if k == "done":
        return []
    if k == ONE:
        ctx.event("order", f"{side} orders one unit of its choice with card {plan.card}", rules=("ccr:base.cards",),
                  side=side)
        one = attrs.evolve(plan, sections={"all": 1}, leader_chain=(), choice_one=False)
        got = yield from order_units(ctx, bs, side, one)
        if got:
            bs.armies[side].last_sections = bs.board.sections(got[0].hex, bs.armies[side].key)
        return got
    ld = next(x for x in leaders if "L" + x.hex == k)
    bs.armies[side].last_sections = bs.board.sections(ld.hex, bs.armies[side].key)  # for a Counter Attack
    chosen: list[Item] = []
    u = bs.at.get(ld.hex)
    if u is not None and u.side == side:
        u.ordered = True
        chosen.append(u)  # the leader goes with his unit: one order
    else:
        ld.ordered = True
        chosen.append(ld)
    ctx.event("order", f"{side} orders {leader_called(ld, side=False)} at {ld.hex}" + (f" with his {u.code}" if chosen[0] is u else ""),
              rules=("ccr:base.leaders", "ccr:base.cards"), side=side)
    limit = plan.sections.get("all", 1)
    while len(chosen) < limit:
        linked = {ld.hex} | {c.hex for c in chosen}
        cand = sorted((v for v in bs.side_units(side) if not v.ordered and
                       any(bs.board.distance(v.hex, h) == 1 for h in linked)), key=lambda v: v.hex)
        if not cand:
            break
        k = yield from ask(side, f"{_card(bs, plan)}: order a linked unit ({len(chosen)} of {limit})",
                           [(v.hex, _label(bs, v)) for v in cand] + [("done", "stop ordering")],
                           "ccr:base.leaders", Kind.ORDER_UNIT,
                           lambda text, _l=frozenset(linked): (
                               f"{text.strip()!r} is not an unordered unit of yours adjacent to the leader or a unit "
                               f"already ordered (linked hexes: {', '.join(sorted(_l))})", "ccr:base.leaders"))
        if k == "done":
            break
        v = bs.at[k]
        v.ordered = True
        chosen.append(v)
        ctx.event("order", f"{side} orders {_label(bs, v)} at {v.hex}", rules=("ccr:base.cards",), side=side)
    return chosen


def _through(plan: OrderPlan, it: Item) -> bool:
    """May this ordered unit move through friendly units (light foot on Order Light Troops or
    Move-Fire-Move, ccr:base.cards)?"""
    return plan.light_foot_through_friends and isinstance(it, Unit) and it.code in LIGHT_FOOT


def _move_phase(ctx: Context, bs: BattleState, side: str, plan: OrderPlan, items: list[Item], again: bool = False,
                resume: bool = False) -> Gen:
    """Stage 3: move ordered units one at a time (ccr:base.movement); every second choice
    of a unit is a checkpoint (the units moved are kept on ``bs.move_done``), taken once the
    units that can move are known."""
    if not resume:
        bs.move_done = set()
    done = bs.move_done
    while not bs.over:
        opts: list[tuple[str, str]] = []
        dests: dict[str, tuple[Item, dict[str, int] | int]] = {}
        for i, it in enumerate(items):
            if i in done:
                continue
            r: dict[str, int] | int
            if isinstance(it, Unit):
                if bs.units.get(it.uid) is not it or not it.can_move:
                    continue
                steps = (bs.types[it.code].move if it.fired else 0) if again else \
                    allowance(bs, it, plan.move_bonus, plan.move_cap, plan.hc_move)
                # the full search waits until the unit is chosen: a first step decides if it can move
                r = steps if steps > 0 and can_step(bs, it, steps >= 2 and _through(plan, it)) else 0
            elif isinstance(it, Leader):
                r = leader_reach(bs, it) if it in bs.leaders and plan.move_cap != 0 else {}
            else:
                r = wagon_reach(bs, it, plan.wagon) if it in bs.wagons else {}
            if not r:
                continue
            k = _key(bs, it)
            if k in dests:
                continue
            dests[k] = (it, r)
            opts.append((k, _label(bs, it)))
        if not opts:
            return
        # stage checkpoint: once there is a unit to choose (listing them changes nothing), before every
        # second choice; a state copy (with the collection of the copies kept) costs more than replaying
        # the two answers in between, and the parity is read from the state, so a resumed game agrees
        if len(done) % 2 == 0:
            ctx.checkpoint(("stage", bs.turn, side, "again" if again else "move"))
        opts.append(("done", "end movement"))
        def refuse_mover(text: str, _d: dict = dests) -> tuple[str, str]:
            t = text.strip().upper()
            h = t[1:] if t[:1] in ("L", "W") else t
            if h not in bs.board.row:
                return f"{text.strip()!r} is neither a hex ID (CCRR) nor an option number", "ccr:base.movement"
            mine = [it for it in items if it.hex == h]
            if not mine:
                v = bs.at.get(h)
                if v is not None and v.side == side:
                    return f"{v.code}@{h} was not ordered this turn; only ordered units move", "ccr:base.cards"
                if v is not None:
                    return f"{h} holds the enemy's {v.code}, not one of your units", "ccr:base.movement"
                return f"{h} holds none of your ordered units", "ccr:base.movement"
            it = mine[0]
            if any(items[i] is it for i in done):
                return f"{_label(bs, it)} at {h} has already moved this turn", "ccr:base.movement"
            if isinstance(it, Unit) and not it.can_move:
                return f"{it.code}@{h} may battle but not move with card {plan.card}", "ccr:base.cards"
            return f"{_label(bs, it)} at {h} has no hex it can move to", "ccr:base.movement"

        k = yield from ask(side, "Move which ordered unit?", opts, "ccr:base.movement", Kind.MOVE_UNIT, refuse_mover)
        if k == "done":
            return
        it, found = dests[k]
        r = found if isinstance(found, dict) else reach(bs, it, found, _through(plan, it))  # type: ignore[arg-type]
        charge_only: set[str] = set()
        if isinstance(it, Unit) and not again and (tt := bs.types[it.code]).move_charge:
            # Warriors move their second hex only to charge: they must end adjacent to an enemy (ccr:base.movement);
            # on Double Time they move 2 or 3, and then too must close combat (Double Time card page, ccr:base.cards)
            plain = tt.move
            charge_only = {h for h, d in r.items() if d > plain and not any(
                (v := bs.at.get(n)) is not None and v.side != side for n in bs.board.neighbors[h])}
            r = {h: d for h, d in r.items() if h not in charge_only}
        done.add(next(i for i, x in enumerate(items) if x is it))
        start = it.hex
        hexes = sorted(r)
        bs.current = it

        def refuse(text: str, _r: dict = r, _it: Item = it, _c: frozenset = frozenset(charge_only)) -> tuple[str, str]:
            t = text.strip()
            if t in _c:
                return (f"warriors move more than {bs.types[_it.code].move if isinstance(_it, Unit) else 1} hex only "
                        f"to charge, and {t} is not adjacent to an enemy unit",
                        "ccr:base.movement")
            if t == start:
                return f"{_it.hex if isinstance(_it, Unit) else t} is where it stands; answer 'stay' to hold", \
                    "ccr:base.movement"
            if t in bs.at:
                return f"{t} is occupied; units may not enter or pass through other units", "ccr:base.movement"
            if t in bs.board.neighbors and isinstance(_it, Unit):
                why = blocked_for(bs, t, _it.code, bs.types[_it.code].mounted)
                if why:
                    return why.rsplit(" [", 1)[0], why.rsplit("[", 1)[1].rstrip("]")
                far = max(_r.values(), default=0)
                d = bs.board.distance(start, t)
                if d > far:
                    return f"{t} is {d} hexes away; {_it.code} may move at most {far} this turn", "ccr:base.movement"
                return (f"no open path to {t}: units, enemy leaders and terrain that stops or blocks "
                        f"movement lie in the way", "ccr:base.movement")
            return f"{text!r} is not a hex the unit can reach", "ccr:base.movement"

        dest = yield from ask(side, f"Move {_label(bs, it)} from {start} to which hex?",
                              [(h, f"{r[h]} hex{'es' if r[h] > 1 else ''}") for h in hexes] + [("stay", "do not move")],
                              "ccr:base.movement", Kind.MOVE_HEX, refuse, highlight=hexes)
        if dest == "stay":
            continue
        rules: tuple[str, ...] = ("ccr:base.movement",)
        if isinstance(it, Unit):
            bs.move_unit(it, dest, ordered=True)
            it.moved += r[dest]
            spec = bs.board.spec(dest)
            if spec.no_battle_on_entry and it.code not in spec.battle_on_entry_units:
                it.no_battle = True
                rules += ("ccr:base.terrain",)
            if bs.board.terrain[dest] == "ford":
                rules += ("ccr:ford",)
            if any(w.hex == dest for w in bs.wagons):
                rules += ("ccr:wagon-laager",) if bs.wagon_at(dest, "wagon-laager") else ("ccr:baggage-wagon",)
        elif isinstance(it, Leader):
            it.hex = dest
            it.moved = True
            rules = ("ccr:base.leaders",)
        else:
            it.hex = dest
            it.moved = True
            rules = ("ccr:baggage-wagon",)
        ctx.event("move", f"{side} {_label(bs, it)} moves {start} -> {dest}", rules=rules, side=side)
        if isinstance(it, Unit) and bs.board.spec(dest).sink:
            bs.checked.clear()  # a leader's casualty check of its own, outside any combat (ccr:base.leaders)
            marsh_check(ctx, bs, it)
            yield from resolve_escapes(ctx, bs)
        elif isinstance(it, Leader):
            marsh_check_leader(ctx, bs, it)


def _battle_phase(ctx: Context, bs: BattleState, side: str, plan: OrderPlan, items: list[Item]) -> Gen:
    """Stage 4: ordered units battle one at a time (ccr:base.ranged, ccr:base.close-combat);
    every second choice of a unit is a checkpoint."""
    while not bs.over:
        opts: list[tuple[str, str]] = []
        targets: dict[str, tuple[Unit, list[tuple[str, str]]]] = {}
        for it in items:
            if not isinstance(it, Unit) or bs.units.get(it.uid) is not it:
                continue
            t = battle_options(bs, it, plan)
            if t and it.hex not in targets:
                targets[it.hex] = (it, t)
                opts.append((it.hex, _label(bs, it)))
        if not opts:
            return
        # stage checkpoint: as in _move_phase, before every second choice (by the battles fought this step)
        if sum(it.battles for it in items if isinstance(it, Unit)) % 2 == 0:
            ctx.checkpoint(("stage", bs.turn, side, "battle"))
        opts.append(("done", "end the battle step"))
        def refuse_unit(text: str) -> tuple[str, str]:
            v = bs.at.get(text.strip())
            if v is None or v.side != side:
                return f"{text!r} is not one of your units", "ccr:sequence"
            if not v.ordered:
                return f"{v.code}@{v.hex} was not ordered this turn", "ccr:base.cards"
            return why_no_battle(bs, v, plan)

        k = yield from ask(side, "Which ordered unit battles?", opts, "ccr:sequence", Kind.BATTLE_UNIT, refuse_unit)
        if k == "done":
            return
        u, t = targets[k]
        bs.current = u
        bs.plan = plan
        tk = yield from ask(side, f"{unit_at(bs, u)} battles which enemy unit?",
                            [(h, f"{mode} combat against {bs.types[bs.at[h].code].name}" if h in bs.at else
                              "fire at the lone leader" if mode == "leader-ranged" else "attack the lone leader")
                             for h, mode in t] + [("back", "choose another unit")],
                            "ccr:base.close-combat" if t[0][1] == "close" else "ccr:base.ranged", Kind.BATTLE_TARGET,
                            lambda text, _u=u: why_not_target(bs, _u, text.strip(), plan), highlight=[h for h, _ in t])
        if tk == "back":
            continue
        mode = dict(t)[tk]
        if mode == "leader":
            attack_lone_leader(ctx, bs, u, tk)
            yield from resolve_escapes(ctx, bs)
            continue
        if mode == "leader-ranged":
            fire_at_lone_leader(ctx, bs, u, tk, plan.ranged_bonus)
            yield from resolve_escapes(ctx, bs)
            continue
        tgt = bs.at[tk]
        if mode == "ranged":
            yield from ranged_combat(ctx, bs, u, tgt, plan.ranged_bonus)
        else:
            yield from close_combat(ctx, bs, u, tgt, plan)


def _rally(ctx: Context, bs: BattleState, side: str, n: int) -> None:
    """Rally card: each symbol matching a damaged unit's type (a leader symbol: any) returns a block."""
    faces = ctx.chance.symbols(BATTLE_DIE, n, f"{side} rallies", ("ccr:base.cards",))
    for f in faces:
        if f not in SYMBOL_KEYS and f != "leader":
            continue
        hurt = [u for u in bs.side_units(side) if u.blocks < u.max_blocks and (f == "leader" or bs.types[u.code].symbol == f)]
        if not hurt:
            continue
        u = min(hurt, key=lambda v: (v.blocks - v.max_blocks, v.hex))
        u.blocks += 1
        ctx.event("rally", f"{side} {u.code}@{u.hex} regains a block ({u.blocks})", rules=("ccr:base.cards",), side=side)


def _spartacus(ctx: Context, bs: BattleState, side: str, plan: OrderPlan, n: int) -> OrderPlan:
    """I Am Spartacus: each unit symbol orders a unit of that type, a leader symbol any unit or a leader; the
    card carries the helmet, so an attached leader may detach for one order (ccr:base.cards, ccr:base.leaders)."""
    faces = ctx.chance.symbols(BATTLE_DIE, n, f"{side} plays I Am Spartacus", ("ccr:base.cards",))
    secs: dict[str, int] = {}
    for f in faces:
        if f in SYMBOL_KEYS:
            secs["sym:" + f] = secs.get("sym:" + f, 0) + 1
        elif f == "leader":
            secs["sym:any"] = secs.get("sym:any", 0) + 1
    ctx.event("card", f"I Am Spartacus rolls {', '.join(faces)}", rules=("ccr:base.cards",), side=side)
    return attrs.evolve(plan, sections=secs, wagon=0, leaders=True)


def _reserve(ctx: Context, bs: BattleState, side: str, card: str) -> Generator[Decision, str, list[Unit]]:
    """Mons Graupius: the Roman reserve enters the centre baseline on a leadership card."""
    army = bs.armies[side]
    rule = next((r for r in bs.battle.rules_of("reserve") if army.key in r.sides), None)
    if rule is None or not army.reserve:
        return []
    names = {"leadership-any-section": "LAS", "inspired-leadership-center": "ILC"}
    if card not in {names.get(c, c) for c in rule.cards}:
        return []
    k = yield from ask(side, "Bring the reserve into play?", [("reserve", "enter the reserve"), ("keep", "keep it back")],
                       f"ccr:scenario.{bs.battle.slug}", Kind.RESERVE,
                       lambda text: (f"{text.strip()!r}: answer 'reserve' to place the reserve on your centre baseline "
                                     f"now, or 'keep' to hold it back", f"ccr:scenario.{bs.battle.slug}"))
    if k != "reserve":
        return []
    row = bs.board.baseline_row(army.key)
    free = [h for h in bs.board.hexes if bs.board.row[h] == row and rule.section in bs.board.sections(h, army.key)
            and h not in bs.at and h not in bs.board.impassable and not bs.leaders_at(h)]
    placed: list[Unit] = []
    for code, flags in list(army.reserve):
        if not free:
            break
        h = free.pop(0)
        u = bs.add_unit(side, code, h, bs.types[code].blocks, "praetorian-guard" in flags, bool(flags))
        u.ordered = True
        u.can_move = False
        placed.append(u)
        army.reserve.remove((code, flags))
    if placed and army.reserve_leaders:
        bs.leaders.append(Leader(100 + len(bs.leaders), side, "reserve leader", placed[0].hex))
        army.reserve_leaders = 0
    if rule.banners:
        army.target = rule.banners
    ctx.event("reserve", f"{side} brings its reserve into {', '.join(u.hex for u in placed)}; it needs {army.target} banners",
              rules=(f"ccr:scenario.{bs.battle.slug}", "ccr:victory"), side=side)
    return placed


def _exits(ctx: Context, bs: BattleState, side: str, items: list[Item]) -> Gen:
    """Exit banners: a unit or wagon on the exit edge may leave the battlefield (scenario rule)."""
    key = bs.armies[side].key
    for r in bs.exits:
        if key not in r.sides:
            continue
        edge = bs.board.edge_hexes(r.edge)
        for it in list(items):
            if it.hex not in edge:
                continue
            if isinstance(it, Wagon):
                if "baggage-wagon" not in r.units or it not in bs.wagons:
                    continue
            elif isinstance(it, Unit):
                if r.units and it.code not in r.units:
                    continue
                if bs.units.get(it.uid) is not it or (r.full_strength and it.blocks < it.max_blocks):
                    continue
            else:
                continue
            k = yield from ask(side, f"{_label(bs, it)} at {it.hex} may leave the battlefield by the {r.edge} edge: leave?",
                               [("exit", f"leave: {r.banners} banner"), ("stay", "stay")],
                               f"ccr:scenario.{bs.battle.slug}", Kind.EXIT,
                               lambda text, _h=it.hex: (f"{text.strip()!r}: answer 'exit' to leave the battlefield from "
                                                        f"{_h} for the banner, or 'stay'",
                                                        f"ccr:scenario.{bs.battle.slug}"))
            if k != "exit":
                continue
            if isinstance(it, Wagon):
                bs.wagons.remove(it)
            else:
                ld = bs.leader_with(it)
                bs.remove_unit(it)
                if ld is not None:
                    bs.leaders.remove(ld)
            ctx.event("exit", f"{side} {_label(bs, it)} leaves the battlefield at {it.hex}",
                      rules=(f"ccr:scenario.{bs.battle.slug}",), side=side)
            gain(ctx, bs, side, r.banners, "exit", (f"ccr:scenario.{bs.battle.slug}",))
            if bs.over:
                return


def play_turn(ctx: Context, bs: BattleState, side: str) -> Gen:
    """One player's turn (ccr:sequence)."""
    army = bs.armies[side]
    assert bs.deck is not None
    bs.phase = "card"
    hand = army.hand.cards
    # Counter Attack cannot copy First Strike (the card's page): not offered after one, unless it is
    # all the hand holds (then it orders as when there is no card to copy)
    countered = bs.armies[bs.other(side)].last_card
    no_counter = bool(countered) and bs.cards[countered].effect == "first-strike" \
        and any(bs.cards[c].effect != "counter-attack" for c in hand)
    opts = []
    for c in dict.fromkeys(hand):
        spec = bs.cards[c]
        if no_counter and spec.effect == "counter-attack":
            continue
        opts.append((c, spec.name))

    def refuse(text: str) -> tuple[str, str]:
        t = text.strip().upper()
        if no_counter and t in hand and bs.cards[t].effect == "counter-attack":
            return (f"Counter Attack cannot copy First Strike, the card {bs.other(side)} played last; "
                    f"play another card", "ccr:base.cards")
        if t in bs.cards:
            return f"you do not hold {bs.cards[t].name} ({t}); your hand: {', '.join(hand)}", "ccr:base.cards"
        return f"{text!r} is not a Command card id", "ccr:base.cards"

    card = yield from ask(side, "Play a Command card", opts, "ccr:base.cards", Kind.CARD, refuse)
    army.hand.remove(card)
    bs.deck.discard(card)
    bs.card = card
    spec = bs.cards[card]
    ctx.event("card", f"{side} plays {spec.name}", rules=("ccr:base.cards", "ccr:sequence"), side=side, card=card)
    if card == "CTA":
        # Counter Attack repeats the opponent's last card, flanks mirrored (ccr:base.cards).
        last = bs.armies[bs.other(side)].last_card or "2C"
        if last == "CTA" or bs.cards[last].effect == "first-strike":
            last = "2C"  # nothing it may copy: it orders as at the start of the battle
        spec = bs.cards[last]
        ctx.event("card", f"Counter Attack repeats {spec.name}", rules=("ccr:base.cards",), side=side)
        plan = mirror_plan(order_plan(spec, army.command))
        opp = bs.armies[bs.other(side)]
        if spec.kind == "leadership" and "any" in plan.leader_chain and opp.last_sections:
            # "Leadership any Section when countered, must be ordered in the same section as played by your
            # opponent" (printed Counter Attack): the same flank of the battlefield, seen from this side
            secs = mirror_sections(opp.last_sections)
            plan = attrs.evolve(plan, leader_chain=secs)
            ctx.event("card", f"Counter Attack orders Leadership Any Section in the {' or '.join(secs)} section, "
                      f"where {bs.other(side)} played it", rules=("ccr:base.cards",), side=side)
    else:
        plan = order_plan(spec, army.command)
    army.last_sections = ()
    army.last_card = card if card != "CTA" else spec.id
    if plan.effect == "rally":
        _rally(ctx, bs, side, army.command)
    if plan.effect == "i-am-spartacus":
        plan = _spartacus(ctx, bs, side, plan, army.command)
    plan = with_fallback(bs, side, plan)
    bs.phase = "order"
    extra = yield from _reserve(ctx, bs, side, spec.id)
    items = yield from order_units(ctx, bs, side, plan)
    items = items + [u for u in extra]
    return (yield from turn_after_orders(ctx, bs, side, plan, items))


def turn_after_orders(ctx: Context, bs: BattleState, side: str, plan: OrderPlan, items: list[Item],
                      resume: str = "") -> Gen:
    """The rest of ``side``'s turn once its units are ordered: move, exits, battle, move
    after battle, draw (ccr:sequence).

    The plan and the ordered units are kept on ``bs.turn_orders``, what has moved on
    ``bs.move_done``, so every second choice of a unit to move or to battle is a session
    checkpoint ``("stage", turn, side, stage)``; ``resume`` (``move``, ``battle`` or
    ``again``) plays on from that stage (``CCAncientsRome.resume``)."""
    army = bs.armies[side]
    bs.turn_orders = (plan, items)
    if resume in ("", "move"):
        bs.phase = "move"
        if plan.move_cap != 0 or any(isinstance(i, Wagon) for i in items):
            yield from _move_phase(ctx, bs, side, plan, items, resume=resume == "move")
        for ld in bs.leaders:
            ld.ordered = False
        if bs.exits and not bs.over:
            yield from _exits(ctx, bs, side, items)
    if resume in ("", "move", "battle"):
        bs.phase = "battle"
        if not bs.over:
            yield from _battle_phase(ctx, bs, side, plan, items)
    if plan.move_after_fire and not bs.over:
        yield from _move_phase(ctx, bs, side, plan, items, again=True, resume=resume == "again")
    if plan.reshuffle and not bs.over:
        # I Am Spartacus: "Reshuffle Deck & Discards!" before the new card is drawn (ccr:base.cards)
        bs.deck.reshuffle(ctx.chance, "I Am Spartacus: the deck and the discards are reshuffled", ("ccr:base.cards",))
    # First Strike players draw first, then the active side draws a new Command card (ccr:base.cards, ccr:sequence)
    for s in bs.draw_first if not bs.over else ():
        with ctx.secret(s):
            bs.armies[s].hand.add(bs.deck.draw(ctx.chance, f"{s} draws a Command card for its First Strike",
                                               ("ccr:base.cards",)))
    bs.draw_first.clear()
    if not bs.over:
        with ctx.secret(side):
            army.hand.add(bs.deck.draw(ctx.chance, f"{side} draws a Command card", ("ccr:base.cards", "ccr:sequence")))
    for u in bs.units.values():
        u.reset()
    for ld in bs.leaders:
        ld.ordered = ld.moved = False
    for w in bs.wagons:
        w.ordered = w.moved = False

