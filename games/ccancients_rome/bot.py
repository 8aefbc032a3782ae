"""Cheap option scores for the greedy bot (no look-ahead, no forking).

Serves no rule of its own; it reads the state the rules keep to rank the
options of one decision: which card orders the most units that can battle
(``ccr:base.cards``, ``ccr:base.sections``), which target gives the most
expected hits for the least battle back (``ccr:base.close-combat``,
``ccr:base.ranged``, ``ccr:base.dice``), where to move (close in, keep
support for ``ccr:base.retreat``, avoid terrain that forbids battle,
``ccr:base.terrain``), when to evade (``ccr:base.evade``) and where to
retreat. Every score is a few loops over neighbours and units, so bots stay
fast enough for the battles-per-minute benchmark.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ancients_kit.protocol import Decision

from .cards import order_plan
from .combat import close_dice, close_hit_symbols, ranged_dice, unit_range
from .orders import fits_sections, order_categories, troop_ok, with_fallback
from .state import BattleState, GameState, Unit
from .vocab import Kind

__all__ = ["determinize", "evaluate", "score", "scores"]

_FIXED = {
    "done": -1.0, "stay": 0.0, "back": -2.0, "none": -0.5, "no": 0.0, "strike": 1.0, "stand": 0.2,
    "evade": 0.0, "reserve": 1.0, "keep": 0.0, "exit": 1.0,
}
FACES = 6


def _foes(bs: BattleState, side: str) -> tuple[str, ...]:
    """The hexes of the units not of ``side``."""
    return tuple(u.hex for u in bs.units.values() if u.side != side)


def _nearest(dist: dict[str, int], hexes: tuple[str, ...]) -> int:
    """The least of ``dist`` over ``hexes`` (99 when there are none)."""
    d = 99
    for e in hexes:
        x = dist[e]
        if x < d:
            d = x
    return d


def _expected(n: int, hitting: int) -> float:
    return n * hitting / FACES


def _close_value(bs: BattleState, u: Unit, t: Unit, bonus: int = 0) -> float:
    """Expected hits on ``t`` per block it has, plus a kill bonus, minus the battle back risk."""
    n = close_dice(bs, u, t, bonus)
    hitset = close_hit_symbols(bs, u, t)
    exp = _expected(n, len(hitset))
    v = 2.0 * exp / max(t.blocks, 1) + (1.5 if exp >= t.blocks else 0.0) + 0.3 * _expected(n, 1)  # flags
    if exp < t.blocks:
        nb = close_dice(bs, t, u, 0, battle_back=True)
        v -= 1.2 * _expected(nb, len(close_hit_symbols(bs, t, u))) / max(u.blocks, 1)
    if bs.leader_with(t) is not None:
        v += 0.2  # a leader casualty check is a chance at a banner
    return v


def _ranged_value(bs: BattleState, u: Unit, t: Unit) -> float:
    exp = _expected(ranged_dice(bs, u, t.hex), 1)
    return 2.0 * exp / max(t.blocks, 1) + (1.0 if exp >= t.blocks else 0.0) + 0.2 * exp


def _activity(bs: BattleState, u: Unit, foes: tuple[str, ...] | None = None) -> float:
    """How much ordering ``u`` is worth now: battling at once beats closing in beats idling
    (``foes``: :func:`_foes` of its side, when the caller has them)."""
    adj = bs.adjacent_enemies(u)
    if adj:
        return 2.0 + max(_close_value(bs, u, t) for t in adj) * 0.5
    rng = unit_range(bs, u)
    d = _nearest(bs.board.distances_from(u.hex), foes if foes is not None else _foes(bs, u.side))
    if rng and d <= rng:
        return 1.5
    reach = bs.types[u.code].move + 1
    if d <= reach:
        return 1.2
    return 0.6


def _activities(bs: BattleState, side: str) -> dict[int, float]:
    key = (bs.turn, side, len(bs.units))
    cache = bs.bot_cache
    if cache.get("key") != key:
        cache.clear()
        cache["key"] = key
        foes = _foes(bs, side)
        cache["act"] = {u.uid: _activity(bs, u, foes) for u in bs.side_units(side)}
    return cache["act"]  # type: ignore[no-any-return]


def _card_value(bs: BattleState, side: str, card: str) -> float:
    spec = bs.cards[card]
    army = bs.armies[side]
    if spec.effect == "counter-attack":
        last = bs.armies[bs.other(side)].last_card
        return _card_value(bs, side, last) if last and last != card and last in bs.cards else 1.0
    if spec.effect == "rally":
        return 0.5 * sum(u.max_blocks - u.blocks for u in bs.side_units(side))
    if spec.effect == "first-strike":
        return 0.5  # better kept to answer an attack
    plan = order_plan(spec, army.command)
    if not plan.sections:
        return float(army.command) + 0.5
    plan = with_fallback(bs, side, plan)
    act = _activities(bs, side)
    units = sorted(bs.side_units(side), key=lambda u: (-act[u.uid], u.hex))
    chosen: list[tuple[str, ...]] = []
    total = 0.0
    limit = sum(plan.sections.values())
    for u in units:
        if len(chosen) >= limit:
            break
        if plan.troops and not troop_ok(bs, u, plan.troops):
            continue
        c = order_categories(bs, side, plan, u)
        if c and fits_sections(chosen + [c], plan):
            chosen.append(c)
            a = act[u.uid]
            if plan.cc_bonus and a >= 2.0:
                a += 0.4 * plan.cc_bonus
            total += a
    if plan.leader_chain:
        total *= 0.8  # linked units are fewer than the count suggests
    return total + (0.3 if spec.kind == "tactic" else 0.0)


def _move_value(bs: BattleState, u: Unit, h: str, side: str, foes: tuple[str, ...] | None = None) -> float:
    """How good a hex is for ``u`` to stand in; ``foes``, :func:`_foes` of ``side`` (worked
    out here when not given: a whole decision's hexes share them, :func:`scores`)."""
    board = bs.board
    t = bs.types[u.code]
    at = bs.at
    enemies = [v for n in board.neighbors[h] if (v := at.get(n)) is not None and v.side != side]
    friends = sum(1 for n in board.neighbors[h] if (v := at.get(n)) is not None and v.side == side and v is not u)
    rng = unit_range(bs, u)
    shooter = rng > 0 and not t.mounted and u.code != "AX" and t.close <= 2
    spec = board.spec(h)
    blocked = spec.no_battle_on_entry and u.code not in spec.battle_on_entry_units
    v = 0.0
    if enemies:
        if shooter:
            v -= 0.8  # light foot should shoot, not brawl
        elif blocked:
            v -= 0.6  # it may not battle this turn after entering
        else:
            weakest = min(enemies, key=lambda e: (e.blocks, e.hex))
            v += 1.5 + 0.4 * (weakest.max_blocks - weakest.blocks) + (0.5 if weakest.blocks <= 1 else 0.0)
            if u.blocks <= 1:
                v -= 1.0
    else:
        d = _nearest(board.distances_from(h), foes if foes is not None else _foes(bs, side))
        want = 2 if shooter else 1
        v += 1.0 - abs(d - want) * 0.3
    if friends >= 2:
        v += 0.3  # support: one flag ignored (ccr:base.retreat)
    if spec.ignore_flag_foot and not t.mounted:
        v += 0.2
    return v


def _evade_or_stand(bs: BattleState, side: str, key: str) -> float | None:
    """Evade or stand against the attack under way; None for any other answer (scored as any)."""
    if bs.attack is None or key not in ("evade", "stand"):
        return None
    att, tgt = bs.attack
    n = close_dice(bs, att, tgt)
    stand = _expected(n, len(close_hit_symbols(bs, att, tgt)))
    evade = _expected(n, 1)
    if key == "stand":
        nb = close_dice(bs, tgt, att, 0, battle_back=True)
        back = _expected(nb, len(close_hit_symbols(bs, tgt, att)))
        return back / max(att.blocks, 1) - stand / max(tgt.blocks, 1) - 0.1  # 0.1: a flag may find no way back
    return -evade / max(tgt.blocks, 1)


def _card(bs: BattleState, side: str, key: str) -> float:
    return _card_value(bs, side, key) if key in bs.cards else 0.0


def _order_unit(bs: BattleState, side: str, key: str) -> float:
    u = bs.at.get(key)
    if u is None:
        return 0.2
    return _activities(bs, side).get(u.uid, _activity(bs, u)) + u.blocks * 0.05


def _mover(bs: BattleState, side: str, key: str) -> float:
    return 1.0


def _battler(bs: BattleState, side: str, key: str) -> float:
    u = bs.at.get(key)
    if u is None:
        return 1.0
    adj = bs.adjacent_enemies(u)
    return 1.0 + (max(_close_value(bs, u, t) for t in adj) if adj else 0.0)


def _move_hex(bs: BattleState, side: str, key: str) -> float:
    u = bs.current
    if not isinstance(u, Unit):
        return 0.5
    return _move_value(bs, u, key, side)


def _target_of(bs: BattleState, u: Any, key: str) -> float:
    t = bs.at.get(key)
    if t is None:
        return 1.5  # a lone leader: a banner on a helmet
    if not isinstance(u, Unit) or bs.units.get(u.uid) is not u:
        return 3.0 - t.blocks * 0.5
    if bs.board.distance(u.hex, t.hex) == 1:
        return _close_value(bs, u, t)
    return _ranged_value(bs, u, t)


def _battle_target(bs: BattleState, side: str, key: str) -> float:
    return _target_of(bs, bs.current, key)


def _bonus_target(bs: BattleState, side: str, key: str) -> float:
    return _target_of(bs, bs.attack[0] if bs.attack is not None else None, key)


def _advance(bs: BattleState, side: str, key: str) -> float:
    u = bs.attack[0] if bs.attack is not None else None
    if not isinstance(u, Unit) or key not in bs.board.row:
        return 0.5
    gain = _move_value(bs, u, key, side) - _move_value(bs, u, u.hex, side)
    again = bs.types[u.code].mounted or bs.leader_with(u) is not None
    return gain + (1.0 if again else 0.2)  # mounted units, and foot with a leader, may battle again


def _extra_hex(bs: BattleState, side: str, key: str) -> float:
    u = bs.attack[0] if bs.attack is not None else None
    if not isinstance(u, Unit) or key not in bs.board.row:
        return 0.5
    return _move_value(bs, u, key, side) - _move_value(bs, u, u.hex, side)


def _way_out(bs: BattleState, side: str, key: str) -> float:
    near = [v for n in bs.board.neighbors[key] if (v := bs.at.get(n)) is not None]
    foes = sum(1 for v in near if v.side != side)
    friends = sum(1 for v in near if v.side == side)
    return -float(foes) + 0.3 * min(friends, 3)


def _escape(bs: BattleState, side: str, key: str) -> float:
    return 1.0 if key in bs.at else 0.0


_SCORERS: dict[str, Callable[[BattleState, str, str], float | None]] = {
    Kind.CARD: _card,
    Kind.ORDER_UNIT: _order_unit,
    Kind.MOVE_UNIT: _mover,
    Kind.BATTLE_UNIT: _battler,
    Kind.MOVE_HEX: _move_hex,
    Kind.BATTLE_TARGET: _battle_target,
    Kind.MOMENTUM_BONUS: _bonus_target,
    Kind.MOMENTUM_ADVANCE: _advance,
    Kind.MOMENTUM_EXTRA: _extra_hex,
    Kind.EVADE_HEX: _way_out,
    Kind.LEADER_ESCAPE: _escape,
}
"""Decision kind -> its score (``bs``, the side asked, the option's key), asked after the
answers every kind shares (``done``, ``back``, ``stay`` ...: :data:`_FIXED`); a kind in
neither scores 0."""
_BEFORE_FIXED: dict[str, Callable[[BattleState, str, str], float | None]] = {
    Kind.REACT_EVADE: _evade_or_stand,
    Kind.RETREAT_HEX: _way_out,
}
"""Decision kind -> its score, asked first (None: go on to :data:`_FIXED`)."""


def score(state: GameState, decision: Decision, key: str) -> float | None:
    bs = state.battle
    if bs is None:
        return 0.0
    kind = decision.kind
    first = _BEFORE_FIXED.get(kind)
    if first is not None:
        got = first(bs, decision.side, key)
        if got is not None:
            return got
    if key in _FIXED:
        return _FIXED[key]
    fn = _SCORERS.get(kind)
    return fn(bs, decision.side, key) if fn is not None else 0.0


def scores(state: GameState, decision: Decision) -> list[float | None]:
    """:func:`score` of every option of ``decision``, in order; the hexes of a move share
    the enemy units' hexes, found once."""
    bs = state.battle
    kind = decision.kind
    if bs is not None and kind == Kind.MOVE_HEX and isinstance(bs.current, Unit):
        u, side = bs.current, decision.side
        foes = _foes(bs, side)
        return [_FIXED[o.key] if o.key in _FIXED else _move_value(bs, u, o.key, side, foes)
                for o in decision.options]
    return [score(state, decision, o.key) for o in decision.options]


def evaluate(state: GameState, side: str) -> float:
    """A position's value for ``side``: Victory Banners ahead (ten points each) and blocks ahead (half a point)."""
    bs = state.b
    other = bs.other(side)
    mine = sum(u.blocks for u in bs.side_units(side))
    theirs = sum(u.blocks for u in bs.side_units(other))
    return 10.0 * (bs.armies[side].banners - bs.armies[other].banners) + 0.5 * (mine - theirs)


def determinize(state: GameState, viewer: str, rng: Any) -> None:
    """Deal the other side's hand again from the cards ``viewer`` has not seen.

    The only hidden information is the cards (ccr:base.cards): the other
    side's hand and the order of the draw pile. Both are gathered, put in a
    fixed order (so the sample depends only on what ``viewer`` sees, not on
    where the real cards lie), shuffled with ``rng``, and dealt back in the
    same numbers: the hand keeps its size, the pile its length. The
    objects stay the same (the rules generator holds them).
    """
    bs = state.b
    deck = bs.deck
    others = [a.hand for name, a in bs.armies.items() if name != viewer]
    unseen: list[Any] = list(deck.draw_pile) if deck is not None else []
    for hand in others:
        unseen.extend(hand.cards)
    unseen.sort(key=str)
    rng.shuffle(unseen)
    for hand in others:
        held = len(hand)
        for card in hand.cards:
            hand.remove(card)
        for _ in range(held):
            hand.add(unseen.pop())
    if deck is not None:
        deck.draw_pile[:] = unseen
