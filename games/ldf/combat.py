"""Lest Darkness Fall combat: the attack action and a battle's resolution (``ldf:8.6``, ``ldf:13.x``).

One attack action (``ldf:8.6``) is one battle: one force in one hex against
every enemy unit in one adjacent hex (``ldf:13.3``-``13.7``). Its resolution,
in order (docs/games/ldf.md, "Rulings: combat"):

1. **Declaration** (``ldf:13.1``, ``13.4``): the acting player picks the hex
   attacked and the units of one adjacent hex that attack (``attack.units``);
   garrisons never attack and leaders never alone (``ldf:13.10``, ``2.6``);
   a leader in the attacking hex always goes with the force (``ldf:8.4``).
   Every unit of the hex attacked defends (``ldf:13.6``); a garrison in the
   attacking hex is left out (``ldf:13.10``).
2. **German strengths** (``ldf:2.6``): each tribe in the battle rolls d6+1,
   each roll followed by the ``after-roll`` window (Beseech the Gods).
3. **Window** ``battle-start`` (``ldf:14.3``: Flanking Move, Inspired
   Subordinates, Savaran Cavalry): attacker, then defender, as a chain.
4. **Window** ``before-attack-roll`` (``ldf:14.3``: Overwhelming Assault by
   the attacker, then They Shall Not Pass by the defender): a chain.
5. **Odds** (``ldf:13.2``, ``13.8``-``13.10``, ``13.15``): strengths summed,
   Heavy Siege Equipment doubling a loyal force attacking an unlooted
   population centre (``ldf:14.3``, chit 21), the shifts of the leaders
   (``ldf:13.9``), of a German attack across the Rhine/Danube (``ldf:13.8``)
   and of the chits, then the CRT (``ldf:14.6``): automatic AE below 1:3 and
   DE above 6:1 without a roll, otherwise the attacker's d6 and the
   ``after-roll`` window.
6. **Result** (``ldf:13.11``): AE, AS, DE, DR (retreat, ``ldf:13.12``-``13.13``),
   EX (counted in units); leaders share the fate of the last unit of their hex
   (``ldf:8.4``).
7. **Advance** (``ldf:13.14``) when the hex attacked is empty; a German tribe
   entering Rome/Ostia wins at once (``ldf:4.2``).
8. **Free chit** (``ldf:8.19``): a battle won (the hex cleared and entered)
   lets the attacker draw a chit before the next action (``state.free_chit``).

The windows and the chits played at them are ``chits.py``'s (ldf-politics):
:func:`chits.roll_die` (every roll, then ``after-roll``), :func:`chits.battle_start`
and :func:`chits.before_attack_roll`, whose :class:`chits.BattleChits` this
module applies. Every window asks every side the rule names whatever it holds
(:mod:`ancients_kit.windows`). Legality of a retreat or an advance, zones of
control and stacking are ``movement.py``'s, ``zoc.py``'s and ``stacking.py``'s
(ldf-move); what entering a hex sets off (looting, Parthian collapse, Rome) is
``economy.on_enter``'s (ldf-core); the fate of a dead leader ``politics.py``'s.
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Iterator, Sequence
from typing import Any

import attrs

from ancients_kit.battles import BattleRecord
from ancients_kit.plugin import OddsReport
from ancients_kit.protocol import Context, Decision, Option
from ancients_kit.tables import Automatic, Resolution

from . import chits, clients, economy, land_movement, model, odds, politics, stacking, unstacking, zoc
from .odds import Shift
from .state import GP, ROMAN, ROME, LDFState, Unit
from .vocab import Kind

__all__ = [
    "Battle",
    "attack_action",
    "attack_available",
    "attack_forbidden",
    "attack_targets",
    "able_attackers",
    "attackers_in",
    "battle_odds",
    "best_attack",
    "decision_odds",
    "defence_strength",
    "resolve_battle",
    "score",
    "strength",
]

ATTACK_RULES = ("ldf:8.6", "ldf:13.1", "ldf:13.3", "ldf:13.4", "ldf:13.5", "ldf:13.6", "ldf:13.7")


@attrs.define
class Battle(BattleRecord):
    """One battle being resolved: everything the chits may read or change.

    The record's fields (:class:`~ancients_kit.battles.BattleRecord`): the ``attacker`` is the
    acting player (``ldf:13.1``); the ``attackers`` never include a garrison, nor a leader
    alone (``ldf:13.10``, ``2.6``); the ``defenders`` are every unit of the hex attacked
    (``ldf:13.6``), leaders included."""

    leader: str | None = None
    """A leader in the attacking hex, who goes with the force (``ldf:8.4``, ``13.9``)."""
    german: dict[str, int] = attrs.Factory(dict)
    """Each German tribe's factor for this battle (``ldf:2.6``)."""
    shifts: list[Shift] = attrs.Factory(list)
    """Column shifts, ``+`` toward the attacker (``ldf:13.8``, ``13.9``, ``14.3``)."""
    chits: chits.BattleChits | None = None
    """What the battle chits played do (``ldf:14.3``; chits.py's windows)."""
    double_attack: bool = False
    """Heavy Siege Equipment doubles the attacking strength (``ldf:14.3``, chit 21)."""
    attack: int = 0
    defence: int = 0
    resolution: Resolution | None = None
    result: str = ""

    @property
    def shift(self) -> int:
        return odds.total_shift(self.shifts)

    @property
    def not_pass(self) -> bool:
        """They Shall Not Pass was played: DR becomes AS (``ldf:14.3``)."""
        return self.chits is not None and self.chits.dr_to_as

    @property
    def roll_twice(self) -> bool:
        """Overwhelming Assault (chit 15): the attacker rolls twice and keeps the result he prefers."""
        return self.chits is not None and self.chits.roll_twice



# ---------------------------------------------------------------- strengths


def strength(state: LDFState, u: Unit, battle: Battle | None = None) -> int:
    """A unit's combat factor in a battle (``ldf:2.6``, ``ldf:13.10``): leaders 0,
    German tribes their factor rolled for this battle, garrisons their hex's
    unlooted TP (Ctesiphon 8), every other unit 1."""
    if u.leader:
        return 0
    if u.kind == "german-tribe":
        if battle is None or u.id not in battle.german:
            raise ValueError(f"{u.id}: a German tribe's factor is rolled for each battle (ldf:2.6)")
        return battle.german[u.id]
    if u.garrison:
        assert u.hex is not None
        return model.garrison_strength(state.map, state.hex(u.hex))
    return 1


def defence_strength(state: LDFState, battle: Battle) -> int:
    """Every unit of the hex attacked defends (``ldf:13.6``), each with its factor."""
    return sum(strength(state, state.unit(uid), battle) for uid in battle.defenders)


def attack_strength(state: LDFState, battle: Battle) -> int:
    """The attacking force's factors, doubled by Heavy Siege Equipment (``ldf:14.3``, chit 21)."""
    total = sum(strength(state, state.unit(uid), battle) for uid in battle.attackers)
    return total * 2 if battle.double_attack else total


# ---------------------------------------------------------------- who may attack whom


def attackers_in(state: LDFState, side: str, hex_id: str) -> list[Unit]:
    """The units of ``side`` in ``hex_id`` able to attack: not garrisons (``ldf:13.10``),
    not leaders (``ldf:2.6``), not an inactive Palmyra's (``ldf:9.2``)."""
    out = []
    for u in state.units_at(hex_id):
        if state.side_of(u) != side or u.leader or u.garrison:
            continue
        if u.nationality == "palmyran" and state.palmyra == "inactive":
            continue
        out.append(u)
    return out


def _hostile_hex(state: LDFState, force: Sequence[Unit], hex_id: str) -> bool:
    here = state.units_at(hex_id)
    return bool(here) and all(state.hostile(force[0], d) for d in here)


def attack_forbidden(state: LDFState, force: Sequence[Unit], origin: str, target: str) -> str | None:
    """Why ``force`` may not attack ``target`` from ``origin`` (a message naming the rule), or None."""
    if not force:
        return "no unit in that hex can attack (ldf:13.10: garrisons never attack; ldf:2.6: leaders never alone)"
    why = _pair_forbidden(state, force, origin, target)
    if why:
        return why
    for u in force:
        why = _unit_forbidden(state, u, target)
        if why:
            return why
    return None


def _pair_forbidden(state: LDFState, force: Sequence[Unit], origin: str, target: str) -> str | None:
    """:func:`attack_forbidden` but for what each unit of the (non-empty) force forbids."""
    gmap = state.map
    a, b = state.hex(origin), state.hex(target)
    if b not in gmap.neighbors(a):
        return f"{target} is not adjacent to {origin} (ldf:13.4)"
    if not _hostile_hex(state, force, target):
        return f"{target} holds no enemy units (ldf:13.4)"
    if gmap.has_feature(a, b, "sea"):
        return f"{origin} and {target} are parted by an all-sea hexside (ldf:11.1, ldf:12.2; ruling)"
    if state.parthia_collapsed and state.in_region(target, "parthia"):
        return "while Parthia is collapsed no unit may attack into it (ldf:7.3)"
    return None


def _unit_forbidden(state: LDFState, u: Unit, target: str) -> str | None:
    """Why one unit may not attack into ``target`` (``ldf:9.2``, ``ldf:9.5``), or None."""
    return clients.palmyra_forbids(state, u, target, stop=False) or clients.gallic_forbids(state, u, target)


def able_attackers(state: LDFState, side: str, origin: str, target: str) -> list[Unit]:
    """The units of ``origin`` that may attack ``target`` (``attackers_in`` less those 9.2 or 9.5 keep out)."""
    return _able(state, attackers_in(state, side, origin), target)


def _able(state: LDFState, attackers: Sequence[Unit], target: str) -> list[Unit]:
    return [u for u in attackers if _unit_forbidden(state, u, target) is None]


def _attack_pairs(state: LDFState, side: str) -> Iterator[tuple[str, str]]:
    """The ``(origin, target)`` pairs of :func:`attack_targets`, one at a time, in its order."""
    for origin in sorted(set(state.occupied())):
        attackers = attackers_in(state, side, origin)
        if not attackers:
            continue
        for target in state.data.neighbours(origin):
            if not state.units_at(target):
                continue  # ldf:13.4: no enemy there (what attack_forbidden would say, found cheaply)
            force = _able(state, attackers, target)
            if force and _pair_forbidden(state, force, origin, target) is None:
                yield origin, target


def attack_targets(state: LDFState, side: str) -> list[tuple[str, str]]:
    """Every ``(origin, target)`` pair ``side`` may attack now (``ldf:8.6``, ``13.4``)."""
    return list(_attack_pairs(state, side))


def attack_available(state: LDFState, side: str) -> bool:
    """Whether ``side`` has any attack to make (the action is offered only then, ``ldf:8.1``):
    the search stops at the first target found."""
    return next(_attack_pairs(state, side), None) is not None


# ---------------------------------------------------------------- the action


def attack_action(ctx: Context, state: LDFState, side: str) -> Generator[Decision, str, None]:
    """The attack action (``ldf:8.6``): declare one battle and resolve it."""
    pairs = attack_targets(state, side)
    if not pairs:
        raise ValueError(f"{side} has no enemy hex to attack (ldf:8.6, ldf:13.4)")
    options = tuple(Option(f"{o}-{t}", f"from {o} against {t} ({_stack_text(state, t)})") for o, t in pairs)
    key = yield Decision(side, "attack which hex, from where?", options, rule="ldf:13.4",
                         kind=Kind.ATTACK_TARGET, context={"highlight": sorted({t for _, t in pairs})})
    origin, _, target = key.partition("-")
    force = yield from _choose_force(state, side, origin, target)
    yield from resolve_battle(ctx, state, side, origin, target, force)


def _stack_text(state: LDFState, hex_id: str) -> str:
    return ", ".join(u.id for u in state.units_at(hex_id))


def _choose_force(state: LDFState, side: str, origin: str, target: str) -> Generator[Decision, str, list[str]]:
    """The attacking units, toggled one by one from all of them (``ldf:13.4``: attack is voluntary)."""
    eligible = [u.id for u in able_attackers(state, side, origin, target)]
    if len(eligible) == 1:
        return eligible
    chosen = list(eligible)
    while True:
        opts = [Option("attack", f"attack with {', '.join(chosen)}")] if chosen else []
        if len(chosen) < len(eligible):
            opts.append(Option("all", "attack with every unit that can"))
        opts.extend(Option(uid, f"{'leave out' if uid in chosen else 'add'} {uid}") for uid in eligible)
        key = yield Decision(side, f"which units attack {target} from {origin}?", tuple(opts),
                             rule="ldf:13.4", kind=Kind.ATTACK_UNITS,
                             context={"origin": origin, "target": target, "chosen": tuple(chosen),
                                      "highlight": [origin, target]})
        if key == "attack":
            return chosen
        if key == "all":
            chosen = list(eligible)
        elif key in chosen:
            chosen.remove(key)
        else:
            chosen.append(key)
            chosen.sort(key=eligible.index)


def new_battle(state: LDFState, side: str, origin: str, target: str, force: Iterable[str]) -> Battle:
    """The battle ``side`` declares (``ldf:13.1``-``13.7``), checked; ``ValueError`` naming the rule otherwise."""
    force = list(force)
    if len(set(force)) != len(force):
        raise ValueError("a unit attacks at most once in a combat action, with all its strength "
                         "(ldf:13.3, ldf:13.7)")
    units = [state.unit(uid) for uid in force]
    eligible = {u.id for u in attackers_in(state, side, origin)}
    for u in units:
        if u.id not in eligible:
            raise ValueError(f"{u.id} cannot attack from {origin}: one force of one hex attacks, never a "
                             "garrison or a leader alone (ldf:13.5, ldf:13.10, ldf:2.6)")
    why = attack_forbidden(state, units, origin, target)
    if why:
        raise ValueError(why)
    leader = next((u.id for u in state.units_at(origin) if u.leader and state.side_of(u) == side), None)
    defenders = [u.id for u in state.units_at(target)]
    defender = state.side_of(state.unit(defenders[0]))  # the attacker himself when he attacks his rebels (11.4)
    battle = Battle(side, defender, origin, target, [u.id for u in units], defenders, leader)
    battle.double_attack = _siege_doubles(state, battle)
    return battle


def _siege_doubles(state: LDFState, battle: Battle) -> bool:
    """Heavy Siege Equipment (chit 21, ``ldf:14.3``, ``ldf:8.16``): in the attacking hex, a loyal
    Roman force (not Palmyran, ``ldf:9.3``) attacking an unlooted population centre."""
    if state.siege != battle.origin:
        return False
    force = [state.unit(uid) for uid in battle.attackers]
    loyal = all(u.nationality == "roman" and not u.rebel for u in force)
    centre = bool(state.data.centres(battle.target)) and not state.is_looted(battle.target)
    return loyal and centre


def resolve_battle(
    ctx: Context, state: LDFState, side: str, origin: str, target: str, force: Iterable[str]
) -> Generator[Decision, str, Battle]:
    """Resolve one declared battle from its first roll to the free chit (module docstring)."""
    battle = new_battle(state, side, origin, target, force)
    ctx.event("attack", f"{side} attacks {target} from {origin} with {', '.join(battle.attackers)}"
              + (f" and {battle.leader}" if battle.leader else "")
              + f"; defending: {', '.join(battle.defenders)}", ATTACK_RULES, side=side,
              origin=origin, target=target, attackers=tuple(battle.attackers), defenders=tuple(battle.defenders))
    clients.palmyra_attacked(ctx, state, state.unit(battle.attackers[0]), target)  # 9.2: a passive Palmyra wakes
    yield from _roll_german_strengths(ctx, state, battle)
    parthians = any(state.unit(u).nationality == "parthian" for u in (*battle.attackers, *battle.defenders))
    bc = yield from chits.battle_start(ctx, state, battle.attacker, battle.defender, parthians=parthians,
                                       where=f"{side} attacks {target} from {origin}")
    battle.chits = yield from chits.before_attack_roll(ctx, state, bc)
    if battle.chits.net_shift:
        battle.shifts.append(Shift(battle.chits.net_shift, "battle chits", ("ldf:14.3",)))
    yield from _read_crt(ctx, state, battle)
    yield from apply_result(ctx, state, battle)
    return battle


def _roll_german_strengths(ctx: Context, state: LDFState, battle: Battle) -> Generator[Decision, str, None]:
    """Each tribe in the battle rolls d6+1 at the start of its resolution (``ldf:2.6``), by the
    Germano-Parthian player, each roll open to a reroll (``chits.roll_die``, ``ldf:14.3``)."""
    for uid in (*battle.attackers, *battle.defenders):
        if state.unit(uid).kind != "german-tribe":
            continue
        die = yield from chits.roll_die(ctx, state, GP, f"{uid} combat factor (d6+1)", ("ldf:2.6",))
        battle.german[uid] = die + 1
        ctx.event("german-strength", f"{uid} fights at {die} + 1 = {die + 1} in this battle", "ldf:2.6",
                  side=GP, unit=uid, factor=die + 1)


def battle_shifts(state: LDFState, battle: Battle) -> list[Shift]:
    """The leaders' shift (``ldf:13.9``) and a German attack across the Rhine/Danube (``ldf:13.8``)."""
    force = [state.unit(uid) for uid in battle.attackers]
    lead = odds.leader_shift(battle.leader is not None, any(state.unit(d).leader for d in battle.defenders))
    a, b = state.hex(battle.origin), state.hex(battle.target)
    across = any(u.kind == "german-tribe" for u in force) and any(
        state.map.has_feature(a, b, r) for r in ("rhine", "danube"))
    return [s for s in (lead, odds.river_shift(across)) if s is not None]


def _read_crt(ctx: Context, state: LDFState, battle: Battle) -> Generator[Decision, str, None]:
    """Odds and the CRT (``ldf:13.2``, ``13.8``, ``13.9``, ``13.15``, ``14.6``)."""
    battle.shifts[:0] = battle_shifts(state, battle)
    battle.attack = attack_strength(state, battle)
    battle.defence = defence_strength(state, battle)
    crt = state.data.crt
    col = crt.odds(battle.attack, battle.defence, shift=battle.shift)
    rules = ["ldf:13.2", "ldf:13.15", "ldf:14.6"]
    for s in battle.shifts:
        rules.extend(r for r in s.rules if r not in rules)
    if battle.double_attack or battle.not_pass:
        rules.append("ldf:14.3")
    if any(state.unit(d).garrison for d in battle.defenders):
        rules.append("ldf:13.10")
    if battle.german:
        rules.append("ldf:2.6")
    shifts = "; ".join(s.describe() for s in battle.shifts)
    if isinstance(col, Automatic):
        res = crt.resolve(battle.attack, battle.defence, 1, shift=battle.shift)  # 13.15: no die is rolled
    else:
        why = f"{battle.attacker} attacks {battle.target}"
        roll = yield from chits.roll_die(ctx, state, battle.attacker, why, ("ldf:13.2",))
        res = crt.resolve(battle.attack, battle.defence, roll, shift=battle.shift)
        if battle.roll_twice:
            second = yield from chits.roll_die(ctx, state, battle.attacker, f"{why}, second roll (chit 15)",
                                               ("ldf:14.3",))
            other = crt.resolve(battle.attack, battle.defence, second, shift=battle.shift)
            if _result(battle, other.result) != _result(battle, res.result):
                key = yield Decision(battle.attacker, "keep which roll?",
                                     (Option("first", f"{roll}: {_result(battle, res.result)}"),
                                      Option("second", f"{second}: {_result(battle, other.result)}")),
                                     rule="ldf:14.3", kind=Kind.ATTACK_KEEP_ROLL)
                if key == "second":
                    res = other
    battle.resolution = res
    battle.result = _result(battle, res.result)  # They Shall Not Pass: a DR converts to an AS (ldf:14.3)
    text = f"{battle.attack} against {battle.defence}" + (f" ({shifts})" if shifts else "") + f": {res.explain()}"
    if battle.result != res.result:
        text += f"; They Shall Not Pass makes it {battle.result}"
    ctx.event("battle", text, tuple(dict.fromkeys(rules)), side=battle.attacker, result=battle.result,
              attack=battle.attack, defence=battle.defence, shift=battle.shift, automatic=res.automatic)


def _result(battle: Battle, code: str) -> str:
    return "AS" if battle.not_pass and code == "DR" else code


# ---------------------------------------------------------------- results (13.11-13.14)


def apply_result(ctx: Context, state: LDFState, battle: Battle) -> Generator[Decision, str, None]:
    """Apply the battle's result to the units involved only (``ldf:13.11``)."""
    code = battle.result
    leaders = [u.id for u in state.on_map() if u.leader]
    if code == "AE":
        involved = [*battle.attackers, *([battle.leader] if battle.leader else [])]
        eliminate(ctx, state, involved, "attacker eliminated", ("ldf:13.11",))
    elif code == "AS":
        ctx.event("stalled", "attack stalled: nothing happens", "ldf:13.11", side=battle.attacker)
    elif code == "DE":
        eliminate(ctx, state, battle.defenders, "defender eliminated", ("ldf:13.11",))
    elif code == "DR":
        static = [uid for uid in battle.defenders if state.unit(uid).static]
        if static:
            eliminate(ctx, state, static, "static defenders eliminated by a retreat result", ("ldf:13.11",))
        movers = [uid for uid in battle.defenders if state.unit(uid).on_map and not state.unit(uid).static]
        yield from retreat(ctx, state, battle, movers)
    elif code == "EX":
        yield from _exchange(ctx, state, battle)
    else:
        raise ValueError(f"unknown combat result {code!r} (ldf:13.11)")
    _siege_after(ctx, state, battle)
    lost = [uid for uid in leaders if not state.unit(uid).on_map]
    if lost:
        yield from leaders_lost(ctx, state, lost)
        for h in (battle.origin, battle.target):  # a stack left over the limit by its leader's loss (10.7)
            yield from unstacking.emergency_unstack(ctx, state, h)
    if not state.over and not state.units_at(battle.target) and code in ("DE", "DR", "EX"):
        yield from advance(ctx, state, battle)


def _exchange(ctx: Context, state: LDFState, battle: Battle) -> Generator[Decision, str, None]:
    """EX (``ldf:13.11``): every defender goes; the attacker loses as many units, his choice,
    his leader only with the last of them. Leaders are not counted (ruling)."""
    lost = sum(1 for uid in battle.defenders if not state.unit(uid).leader)
    eliminate(ctx, state, battle.defenders, "exchange: every defender eliminated", ("ldf:13.11",))
    left = [uid for uid in battle.attackers if state.unit(uid).on_map]
    n = min(lost, len(left))
    chosen: list[str] = []
    if n == len(left):
        chosen = list(left)
    else:
        while len(chosen) < n:
            opts = tuple(Option(uid, f"remove {uid}") for uid in left if uid not in chosen)
            key = yield Decision(battle.attacker, f"exchange, remove {n - len(chosen)} more of "
                                 "your attacking units", opts, rule="ldf:13.11", kind=Kind.BATTLE_EXCHANGE,
                                 context={"highlight": [battle.origin]})
            chosen.append(key)
    if battle.leader and len(chosen) == len(left):
        chosen.append(battle.leader)  # his force is gone: he goes with it (ldf:13.11, ldf:8.4)
    if chosen:
        eliminate(ctx, state, chosen, f"exchange: the attacker loses {n} unit{'s' if n != 1 else ''}",
                  ("ldf:13.11",))


def eliminate(ctx: Context, state: LDFState, uids: Iterable[str], why: str, rules: Sequence[str]) -> None:
    """Units to the dead pile (cavalry before the reserve back to the pool, 14.3 #25); a leader left
    without any unit of his own in his hex shares their fate (``ldf:8.4``)."""
    uids = [u for u in uids if state.unit(u).on_map]
    if not uids:
        return
    hexes = {state.unit(u).hex for u in uids}
    places = [f"{u}{' (to the pool)' if state.eliminate(u) == 'pool' else ''}" for u in uids]
    ctx.event("eliminated", f"{why}: {', '.join(places)}", tuple(rules), units=tuple(uids))
    for h in hexes:
        if h is None:
            continue
        here = state.units_at(h)
        for lead in [u for u in here if u.leader]:
            if not any(o is not lead and state.side_of(o) == state.side_of(lead) for o in here):
                state.eliminate(lead.id)
                ctx.event("eliminated", f"{lead.id} shares the fate of the last unit in {h}", "ldf:8.4",
                          units=(lead.id,))


def leaders_lost(ctx: Context, state: LDFState, uids: Sequence[str]) -> Generator[Decision, str, None]:
    """What follows a leader's death in battle, at once and inside the attack action: the
    Emperor Creation Table for the emperor (``ldf:8.9``, ``ldf:14.4``), every non-Gallic rebel
    back to loyal for a rebel co-emperor (``ldf:8.7``); politics.py's (ldf-politics)."""
    for uid in uids:
        u = state.unit(uid)
        if u.kind == "emperor":
            yield from politics.emperor_eliminated(ctx, state, ("ldf:8.9", "ldf:14.4", "ldf:13.11"))
        elif u.kind == "co-emperor" and u.rebel:
            politics.rebel_co_emperor_removed(ctx, state, "dead", ("ldf:8.7", "ldf:13.11"))


def _siege_after(ctx: Context, state: LDFState, battle: Battle) -> None:
    """Heavy Siege Equipment stays until the centre attacked is taken or no Roman unit is left
    with it; then it goes back to the pool (``ldf:14.3``, chit 21)."""
    if state.siege != battle.origin:
        return
    if battle.double_attack and not state.units_at(battle.target):
        _release_siege(ctx, state)
    else:
        release_abandoned_siege(ctx, state)


def release_abandoned_siege(ctx: Context, state: LDFState) -> None:
    """Heavy Siege Equipment left with no loyal Roman unit in its hex (they moved away, were
    destroyed or turned rebel) goes back to the pool (``ldf:14.3``, chit 21); the game calls
    this after every action, combat after every battle fought from its hex."""
    if state.siege is None:
        return
    if not any(u.nationality == "roman" and not u.rebel and not u.leader for u in state.units_at(state.siege)):
        _release_siege(ctx, state)


def _release_siege(ctx: Context, state: LDFState) -> None:
    state.siege = None
    state.pool.add(21)
    ctx.event("siege", "the heavy siege equipment goes back to the pool", "ldf:14.3", side=ROMAN)


# ---------------------------------------------------------------- retreat (13.12, 13.13)


def retreat(ctx: Context, state: LDFState, battle: Battle, movers: list[str]) -> Generator[Decision, str, None]:
    """Retreat the defending mobile units and leader one hex (``ldf:13.12``), beyond it when
    that hex would be overstacked (``ldf:13.13``); units that cannot are eliminated."""
    if not movers:
        return
    units = [state.unit(uid) for uid in movers]
    owner = state.side_of(units[0])
    troops = [u for u in units if not u.leader]
    if not troops:  # a leader alone never moves (ldf:8.4): he shares the fate of his hex's last unit
        eliminate(ctx, state, movers, "a leader cannot retreat alone", ("ldf:13.12", "ldf:8.4"))
        return
    first = _retreat_hexes(state, units, battle.target, exclude=())
    if not first:
        eliminate(ctx, state, movers, f"no legal retreat from {battle.target}", ("ldf:13.12",))
        return
    fitting = [h for h in first if _fits(state, h, units)]
    pool = fitting or first
    choices = _prefer_no_ezoc(state, units, pool)
    dest = yield from _pick_hex(owner, choices, f"retreat {', '.join(movers)} from {battle.target} to?",
                                "ldf:13.12" if fitting else "ldf:13.13")
    for uid in movers:
        state.place(uid, dest)
    rules = ("ldf:13.12",) + (() if fitting else ("ldf:13.13",))
    ctx.event("retreat", f"{', '.join(movers)} retreat from {battle.target} to {dest}", rules, side=owner,
              units=tuple(movers), to=dest)
    yield from economy.on_enter(ctx, state, movers, dest)  # a retreat enters a hex too (6.3, 4.2 ...)
    if fitting or state.over:
        return
    yield from _beyond(ctx, state, units, dest, battle.target, owner)


def _beyond(ctx: Context, state: LDFState, units: list[Unit], via: str, origin: str,
            owner: str) -> Generator[Decision, str, None]:
    """13.13: from the overstacked hex on one more hex, into one or more hexes where they stack;
    the units no hex can take are eliminated. The leader is placed first (where he goes his
    stacking limit of eight applies, ``ldf:10.7``), then each unit in turn; the overstacked hex
    itself keeps those it can hold, and the hex the retreat began in is not "beyond" (ruling)."""
    beyond = _retreat_hexes(state, units, via, exclude=(origin,))
    for u in units:
        state.remove(u.id, "aside")  # lifted off while they are placed again, one by one
    leader = next((u for u in units if u.leader), None)
    if leader is not None:
        dest = yield from _pick_hex(owner, [via, *beyond], f"{leader.id} retreats from {via} to?",
                                    "ldf:13.13")
        state.place(leader.id, dest)
        if dest != via:
            yield from economy.on_enter(ctx, state, [leader.id], dest)
    for u in [u for u in units if not u.leader]:
        opts = [h for h in (via, *beyond) if _fits(state, h, [u])]
        if not opts:
            state.place(u.id, via)
            eliminate(ctx, state, [u.id], f"{u.id}: no hex can take it beyond {via}", ("ldf:13.13",))
            continue
        dest = yield from _pick_hex(owner, _prefer_no_ezoc(state, [u], opts),
                                    f"{u.id} retreats from the overstacked {via} to?", "ldf:13.13")
        state.place(u.id, dest)
        ctx.event("retreat", f"{u.id} retreats on from {via} to {dest}" if dest != via else
                  f"{u.id} stays in {via}", "ldf:13.13", side=owner, units=(u.id,), to=dest)
        if dest != via:
            yield from economy.on_enter(ctx, state, [u.id], dest)
    if leader is not None:
        h = state.unit(leader.id).hex
        if not any(o is not leader and state.side_of(o) == owner for o in state.units_at(h or "")):
            eliminate(ctx, state, [leader.id], f"{leader.id} is left without a unit in {h}", ("ldf:13.13", "ldf:8.4"))
        else:
            ctx.event("retreat", f"{leader.id} retreats to {h}", ("ldf:13.13",), side=owner, units=(leader.id,),
                      to=h)


def _pick_hex(side: str, choices: Sequence[str], prompt: str, rule: str) -> Generator[Decision, str, str]:
    if len(choices) == 1:
        return choices[0]
    key = yield Decision(side, prompt, tuple(Option(h, h) for h in choices), rule=rule, kind=Kind.BATTLE_RETREAT,
                         context={"highlight": list(choices)})
    return key


def _prefer_no_ezoc(state: LDFState, units: Sequence[Unit], hexes: Sequence[str]) -> list[str]:
    """13.12: when some retreat hexes are free of enemy ZOC, the retreat must go to one of them."""
    free = [h for h in hexes if not _in_ezoc(state, units, h)]
    return free or list(hexes)


def _retreat_hexes(state: LDFState, units: Sequence[Unit], frm: str, exclude: Iterable[str]) -> list[str]:
    """Hexes next to ``frm`` every unit may enter (``ldf:13.12``: never a hex or hexside prohibited to it)."""
    ex = set(exclude)
    return [h for h in state.data.neighbours(frm) if h not in ex and _may_enter(state, units, frm, h)]


# -- movement.py's, zoc.py's and stacking.py's rules (ldf-move), for retreats and advances ------------


def _position(state: LDFState) -> zoc.Position:
    return zoc.position(state)


def _zunit(state: LDFState, u: Unit, hex_id: str) -> zoc.Unit:
    """``u`` as the movement rules see it, standing in ``hex_id``."""
    return zoc.Unit(u.id, u.kind, state.hex(hex_id), zoc.camp_of(state, u))


def _may_enter(state: LDFState, units: Sequence[Unit], frm: str, to: str) -> bool:
    """Whether ``units`` may go from ``frm`` into the adjacent ``to`` and stay there
    (``ldf:13.12``: no hex or hexside "otherwise prohibited"; ``land_movement.step_problem``:
    all-sea, narrows, enemy units, the other leader, Palmyra, the Gallic Empire,
    collapsed Parthia; ``clients.palmyra_forbids``: not ending in an allied Palmyra)."""
    pos = _position(state)
    zs = [_zunit(state, u, frm) for u in units]
    if land_movement.step_problem(state.map, pos, zs, state.hex(frm), state.hex(to)) is not None:
        return False
    return all(clients.palmyra_forbids(state, u, to, stop=True) is None for u in units)


def _fits(state: LDFState, hex_id: str, coming: Sequence[Unit]) -> bool:
    """Whether the units in ``hex_id`` with ``coming`` break no stacking limit (``stacking.fits``, ``ldf:10.x``)."""
    return stacking.fits(state, hex_id, coming)


def _in_ezoc(state: LDFState, units: Sequence[Unit], hex_id: str) -> bool:
    """Whether an enemy zone of control reaches ``hex_id`` (``zoc.in_ezoc``, ``ldf:11.1``-``11.5``)."""
    return zoc.in_ezoc(state.map, _position(state), state.hex(hex_id), zoc.camp_of(state, units[0]))


# ---------------------------------------------------------------- advance (13.14)


def advance(ctx: Context, state: LDFState, battle: Battle) -> Generator[Decision, str, None]:
    """Advance after combat into the emptied hex (``ldf:13.14``): any of the surviving non-static
    attackers, regardless of EZOC; legion bases never (``ldf:13.10``); a leader only with a unit
    (``ldf:8.4``). A battle won this way earns a free chit (``ldf:8.19``)."""
    side = battle.attacker
    able = [uid for uid in battle.attackers if state.unit(uid).on_map and not state.unit(uid).static
            and _may_enter(state, [state.unit(uid)], battle.origin, battle.target)]
    lead = battle.leader if battle.leader and state.unit(battle.leader).on_map else None
    if not able:
        return
    chosen: list[str] = []
    with_leader = False
    while True:
        group = [state.unit(u) for u in chosen] + ([state.unit(lead)] if with_leader and lead else [])
        legal = _advance_legal(state, battle, group)
        opts: list[Option] = []
        if not chosen:
            opts += _advance_everyone(state, battle, able, lead)
        if legal:
            opts.append(Option("done", f"advance with {', '.join(u.id for u in group)}" if group else "do not advance"))
        if len(chosen) < len(able) and _advance_legal(state, battle, [state.unit(u) for u in able]):
            opts.append(Option("all", "every unit that can advances"))
        opts.extend(Option(uid, f"{'hold back' if uid in chosen else 'advance'} {uid}") for uid in able)
        if lead and chosen:
            opts.append(Option(lead, f"{'hold back' if with_leader else 'advance'} {lead}"))
        key = yield Decision(side, f"advance into {battle.target}?", tuple(opts), rule="ldf:13.14",
                             kind=Kind.ADVANCE_UNITS, context={"highlight": [battle.target], "chosen": tuple(chosen)})
        if key == "advance":  # every unit that can, in one answer (issue 23)
            chosen = list(able)
            with_leader = not _advance_legal(state, battle, [state.unit(u) for u in able])
            break
        if key == "done":
            break
        if key == "all":
            chosen = list(able)
        elif key == lead:
            with_leader = not with_leader
        elif key in chosen:
            chosen.remove(key)
            if not chosen:
                with_leader = False
        else:
            chosen.append(key)
            chosen.sort(key=able.index)
    if not chosen:
        ctx.event("advance", f"{side} does not advance into {battle.target}", "ldf:13.14", side=side)
        return
    movers = chosen + ([lead] if with_leader and lead else [])
    for uid in movers:
        state.place(uid, battle.target)
    ctx.event("advance", f"{', '.join(movers)} advance into {battle.target}", ("ldf:13.14",), side=side,
              units=tuple(movers), to=battle.target)
    yield from economy.on_enter(ctx, state, movers, battle.target)  # 6.3 looting, 7.3, 4.2 sudden death ...
    if not state.over:
        state.free_chit = side
        ctx.event("battle-won", f"{side} won the battle for {battle.target}: a free chit may be drawn before "
                  "the next action", "ldf:8.19", side=side)


def _advance_everyone(state: LDFState, battle: Battle, able: Sequence[str], lead: str | None) -> list[Option]:
    """The one-answer advance (issue 23: a sensible default, the other choices still offered):
    every unit that can, without the leader if that is legal, else with him (``ldf:13.14``,
    ``ldf:8.4``); none when neither is legal."""
    units = [state.unit(u) for u in able]
    if _advance_legal(state, battle, units):
        return [Option("advance", f"advance with every unit that can: {', '.join(able)}")]
    if lead and _advance_legal(state, battle, units + [state.unit(lead)]):
        return [Option("advance", f"advance with every unit that can and the leader: {', '.join([*able, lead])}")]
    return []


def _advance_legal(state: LDFState, battle: Battle, group: Sequence[Unit]) -> bool:
    """The advancing group stacks legally in the hex it enters and leaves a legal stack behind."""
    stay = [u for u in state.units_at(battle.origin) if u not in group]
    return _fits(state, battle.target, group) and _fits_left(state, stay)


def _fits_left(state: LDFState, staying: Sequence[Unit]) -> bool:
    """The units left behind must still stack legally (``ldf:10.1``) and a leader not stay alone (``ldf:8.4``)."""
    if not staying:
        return True
    if all(u.leader for u in staying):
        return False
    hex_id = staying[0].hex
    assert hex_id is not None
    return stacking.is_legal(_position(state), [_zunit(state, u, hex_id) for u in staying])




# ---------------------------------------------------------------- the odds before an attack is declared


def battle_odds(state: LDFState, side: str, origin: str, target: str, force: Sequence[str]) -> OddsReport:
    """The exact result distribution of a battle about to be declared (``ldf:13.2``, ``13.15``):
    German strengths mixed over their six values (``ldf:2.6``), the leaders' and the river's
    shifts (``ldf:13.8``, ``13.9``), siege equipment (``ldf:14.3``); the battle chits still to
    be played are not counted. The same report as ``ancients odds ldf`` for these inputs."""
    battle = new_battle(state, side, origin, target, force)
    units = [state.unit(u) for u in battle.attackers]
    defenders = [state.unit(u) for u in battle.defenders]
    params = {
        "attack": str(sum(1 for u in units if u.kind != "german-tribe")),
        "defense": str(sum(strength(state, d) for d in defenders if d.kind != "german-tribe")),
        "german_attack": str(sum(1 for u in units if u.kind == "german-tribe")),
        "german_defense": str(sum(1 for d in defenders if d.kind == "german-tribe")),
    }
    shifts = battle_shifts(state, battle)
    if battle.leader:
        params["attacker_leader"] = "yes"
    if any(d.leader for d in defenders):
        params["defender_leader"] = "yes"
    if any(s.rules == ("ldf:13.8",) for s in shifts):
        params["river"] = "yes"
    if battle.double_attack:
        params["siege"] = "yes"
    report = odds.table_odds(state.data.crt, params)  # the CRT this game plays with, variants included
    command = "ancients odds ldf " + " ".join(f"{k}={v}" for k, v in params.items())
    return attrs.evolve(report, title=f"{report.title}: {', '.join(battle.attackers)} from {origin} on {target}",
                        explain=(*report.explain, "battle chits (Flanking Move, They Shall Not Pass ...) not counted",
                                 f"same as: {command}"))


def decision_odds(state: LDFState, decision: Decision, key: str, store: Any = None) -> OddsReport | None:
    """For :meth:`Game.decision_odds`: the odds of the battle an ``attack.target`` answer
    (every unit that can attacks) or an ``attack.units`` answer (the units chosen, with the
    toggled one in or out) would start, read on the CRT the game plays with (``store`` is
    the hook's and not needed: the state holds its tables)."""
    if decision.kind == Kind.ATTACK_TARGET and key in decision.keys:
        origin, _, target = key.partition("-")
        force = [u.id for u in able_attackers(state, decision.side, origin, target)]
    elif decision.kind == Kind.ATTACK_UNITS and key in decision.keys:
        origin, target = str(decision.context["origin"]), str(decision.context["target"])
        chosen = list(decision.context.get("chosen", ()))
        if key == "all":
            force = [u.id for u in able_attackers(state, decision.side, origin, target)]
        elif key == "attack":
            force = chosen
        else:
            force = [u for u in chosen if u != key] if key in chosen else [*chosen, key]
    else:
        return None
    if not force:
        return None
    try:
        return battle_odds(state, decision.side, origin, target, force)
    except ValueError:
        return None


# ---------------------------------------------------------------- bot scores


def _value(code: str, attackers: int, defenders: int, wins: bool) -> float:
    """A result's worth to the attacker in units (and the game, when it takes Rome, 4.2)."""
    if code == "AE":
        return -float(attackers)
    if code == "AS":
        return 0.0
    gain = {"DR": 0.5 * defenders, "EX": float(defenders - min(defenders, attackers)), "DE": float(defenders)}[code]
    return gain + (100.0 if wins else 0.0)


def best_attack(state: LDFState, side: str) -> float:
    """The expected units won by ``side``'s best attack now (:func:`score` of its best target),
    for the greedy bot's choice of the attack action; 0 when it has none."""
    pairs = attack_targets(state, side)
    if not pairs:
        return 0.0
    d = Decision(side, "attack?", tuple(Option(f"{o}-{t}", "") for o, t in pairs), kind=Kind.ATTACK_TARGET)
    return max(score(state, d, k) or 0.0 for k in d.keys)


def score(state: LDFState, decision: Decision, key: str) -> float | None:
    """Cheap scores of the combat decisions for the greedy bot (``Game.score_option``): an
    attack by the expected units won or lost over its exact distribution; attack with every
    unit; advance with every unit; any retreat hex and any exchange loss alike; keep the
    better of two rolls (chit 15). ``None`` for the decisions of other modules."""
    kind = decision.kind
    if kind == Kind.ATTACK_TARGET:
        report = decision_odds(state, decision, key)
        if report is None:
            return 0.0
        origin, _, target = key.partition("-")
        force = able_attackers(state, decision.side, origin, target)
        defenders = sum(1 for u in state.units_at(target) if not u.leader)
        wins = target == ROME and any(u.kind == "german-tribe" for u in force)
        return sum(float(p) * _value(c, len(force), defenders, wins) for c, p in report.distribution.items())
    if kind == Kind.ATTACK_UNITS:
        return 1.0 if key == "attack" else 0.5 if key == "all" else 0.0
    if kind == Kind.ADVANCE_UNITS:
        return 3.0 if key == "advance" else 2.0 if key == "all" else 1.0 if key == "done" else 0.0
    if kind in (Kind.BATTLE_RETREAT, Kind.BATTLE_EXCHANGE):
        return 0.0
    if kind == Kind.ATTACK_KEEP_ROLL:
        label = decision.option(key).label
        return _value(label.rsplit(": ", 1)[-1], 1, 1, False)
    return None
