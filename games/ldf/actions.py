"""The Action Summary List (``ldf:14.2``) as code: one :class:`ActionSpec` per action.

``ACTIONS`` has one entry for every action of ``data/actions.toml`` (key = its
``id``). The alternating actions phase (8.1, :mod:`.sequence`) offers the acting
player every entry whose data allow it (his side, the turn) and whose
``available(state, side)`` says yes (:func:`action_menu`; :func:`refusal` says
why a named action is not on it); choosing one runs ``run(ctx, state, side)``,
a generator of decisions (:func:`run_action`). An action's ``run`` may return ``False`` to
say it was not taken after all (the player went back): no action is spent and
the menu is asked again. Entries costing ``free`` in the data (the free chit
of 8.19, the Emperor Creation Table, clearing a deficit, the collapse
withdrawal, emergency unstacking) are never in the menu: the rules call them.

Each branch registers its actions here, one line per action, grouped by owner.

Hooks between the branches (call them; do not copy them):

- :func:`.chit_events.receive_chit` (ldf-core): a chit just drawn (8.17, 8.19, chit 3). It
  resolves chit 18 itself (5.4) and hands the others to ``chit_events.on_drawn(ctx,
  state, side, number)``: a generator returning ``True`` if it dealt with the
  chit (resolved on the draw, put back, handed over), ``False`` to keep it in
  the hand.
- :func:`~.economy.on_enter` (ldf-core): call it for every hex a unit enters
  (move, advance, retreat, sea or river move); it loots (6.3), pays Parthian TP
  (6.5), halts rebuilding or fortifying (6.4, 8.13), ends the game on a German
  entry into Rome/Ostia (4.2) and collapses Parthia (7.3). Stop moving when
  ``state.over`` is set.
- :func:`~.economy.deduct` (ldf-core): TP taken from the Roman treasury (a chit,
  a rebel in Rome), clearing any deficit by 6.10.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

import attrs

from ancients_kit.protocol import Context, Decision, Option

from . import chit_events, clients, combat, economy, movement, politics, unstacking
from .chit_events import can_draw, draw_chit_action, free_chit
from .state import LDFState
from .vocab import Kind

__all__ = ["ACTIONS", "Action", "ActionSpec", "action_menu", "refusal", "run_action"]

Action = Callable[[Context, LDFState, str], Generator[Decision, Any, Any]]


@attrs.frozen
class ActionSpec:
    """One action of the Action Summary List (14.2)."""

    available: Callable[[LDFState, str], bool]
    """Whether ``side`` may choose it now (beyond the data's side and turns)."""
    run: Action
    rules: tuple[str, ...]


# ---------------------------------------------------------------- passing (8.20)


def pass_action(ctx: Context, state: LDFState, side: str) -> Generator[Decision, Any, Any]:
    """Pass (8.20): two passes in immediate succession end the turn (5.4)."""
    state.passes += 1
    ctx.event("pass", f"{side} passes" + (": both players have passed" if state.passes >= 2 else ""),
              rules=("ldf:8.20", "ldf:5.4") if state.passes >= 2 else ("ldf:8.20",), side=side)
    if state.passes >= 2:
        state.turn_over = True
    return None
    yield  # pragma: no cover


def _both(state: LDFState, side: str) -> bool:
    return True


# ---------------------------------------------------------------- the registry

# One line per action, grouped by owner. Keys are the ids of data/actions.toml.

ACTIONS: dict[str, ActionSpec] = {
    # ldf-core: passing, drawing, the economy actions (8.13-8.14), free actions of 6.10 and 7.3
    "pass": ActionSpec(available=_both, run=pass_action, rules=("ldf:8.20",)),  # 5.4 only on the second pass
    "draw-chit": ActionSpec(available=can_draw, run=draw_chit_action, rules=("ldf:8.17",)),
    "free-chit": ActionSpec(available=lambda s, side: s.free_chit == side and can_draw(s, side), run=free_chit,
                            rules=("ldf:8.19",)),
    "start-fortify": ActionSpec(available=economy.can_start_fortify, run=economy.start_fortify, rules=("ldf:8.13",)),
    "finish-fortify": ActionSpec(available=economy.can_finish_fortify, run=economy.finish_fortify,
                                 rules=("ldf:8.13",)),
    "start-rebuild": ActionSpec(available=economy.can_start_rebuild, run=economy.start_rebuild,
                                rules=("ldf:6.4", "ldf:8.14")),
    "finish-rebuild": ActionSpec(available=economy.can_finish_rebuild, run=economy.finish_rebuild,
                                 rules=("ldf:6.4", "ldf:8.14")),
    "clear-deficit": ActionSpec(available=lambda s, side: False, run=economy.clear_deficit_action,
                                rules=("ldf:6.10",)),
    "collapse-withdrawal": ActionSpec(available=lambda s, side: False, run=economy.withdrawal_action,
                                      rules=("ldf:7.3",)),
    # ldf-move: movement (8.2-8.5, 10.x-12.x)
    "move": ActionSpec(available=movement.can_move, run=movement.move_action, rules=("ldf:8.2",)),
    "emergency-unstacking": ActionSpec(available=lambda s, side: False, run=unstacking.emergency_unstacking_action,
                                       rules=("ldf:10.7",)),
    # ldf-combat: attacks (8.6, 13.x)
    "attack": ActionSpec(available=combat.attack_available, run=combat.attack_action, rules=("ldf:8.6",)),
    # ldf-politics: chits, leaders, diplomacy, treachery, client states (8.7-8.12, 8.15-8.18, 9.x)
    "play-chit": ActionSpec(available=chit_events.can_play_chit, run=chit_events.play_chit, rules=("ldf:8.18",)),
    "create-co-emperor": ActionSpec(available=politics.can_create_co_emperor, run=politics.create_co_emperor, rules=("ldf:8.7",)),
    "treachery-rebel": ActionSpec(available=politics.can_treachery_rebel, run=politics.treachery_rebel, rules=("ldf:8.7", "ldf:8.11")),
    "diplomacy-german": ActionSpec(available=politics.can_diplomacy_german, run=politics.diplomacy_german, rules=("ldf:8.12",)),
    "activate-palmyra": ActionSpec(available=clients.can_activate_palmyra, run=clients.activate_palmyra, rules=("ldf:8.15", "ldf:9.3")),
    "deploy-siege": ActionSpec(available=chit_events.can_deploy_siege, run=chit_events.deploy_siege, rules=("ldf:8.16",)),
    "create-rebel": ActionSpec(available=politics.can_create_rebel, run=politics.create_rebel, rules=("ldf:8.7",)),
    "treachery-emperor": ActionSpec(available=politics.can_treachery_emperor, run=politics.treachery_emperor, rules=("ldf:8.9",)),
    "diplomacy-co-emperor": ActionSpec(available=politics.can_diplomacy_co_emperor, run=politics.diplomacy_co_emperor, rules=("ldf:8.10",)),
    "diplomacy-palmyra": ActionSpec(available=clients.can_diplomacy_palmyra, run=clients.diplomacy_palmyra, rules=("ldf:8.15", "ldf:9.4")),
    "activate-gallic": ActionSpec(available=clients.can_activate_gallic, run=clients.activate_gallic, rules=("ldf:8.15", "ldf:9.5")),
    "emperor-creation": ActionSpec(available=lambda s, side: False, run=politics.emperor_creation_action, rules=("ldf:8.9", "ldf:14.4")),
}


# ---------------------------------------------------------------- the menu (8.1, 14.2)


def action_menu(state: LDFState, side: str) -> list[Option]:
    """The actions ``side`` may choose now (8.1, 14.2): his side's, in this turn's limits, available.

    The move and attack actions are offered with what they act on, so that one answer
    declares them: ``move:<hex>``, the force in that hex moves (8.2,
    :func:`.movement.move_options`); ``attack:<origin>-<target>``, the battle (8.6, 13.4)."""
    opts = []
    for aid, spec in ACTIONS.items():
        info = state.data.actions.get(aid)
        if info is None or info.cost != "action":
            continue
        if info.side not in ("both", side) or not info.allowed_in(state.turn):
            continue
        if aid == "move":
            opts += movement.move_options(state, side)
            continue
        if aid == "attack":
            opts += [Option(f"attack:{o}-{t}", f"attack {t} from {o} ({', '.join(u.id for u in state.units_at(t))})")
                     for o, t in combat.attack_targets(state, side)]
            continue
        if not spec.available(state, side):
            continue
        opts.append(Option(aid, info.name))
    return opts


def run_action(ctx: Context, state: LDFState, side: str, key: str) -> Generator[Decision, str, Any]:
    """Carry out the action answered ``key`` (an :func:`action_menu` key); ``False`` if the
    player went back (no action spent)."""
    aid, _, what = key.partition(":")
    if aid == "move" and what:
        return (yield from movement.move_from(ctx, state, side, what))
    if aid == "attack" and what:
        return (yield from _answered(ACTIONS["attack"].run(ctx, state, side), Kind.ATTACK_TARGET, what))
    return (yield from ACTIONS[aid].run(ctx, state, side))


def _answered(play: Generator[Decision, str, Any], kind: str, key: str) -> Generator[Decision, str, Any]:
    """``play`` with its first question of ``kind`` answered ``key`` already (the answer the
    action menu's option gave); ``ValueError`` if that question does not offer ``key``."""
    try:
        d = next(play)
        if d.kind == kind:
            if key not in d.keys:
                raise ValueError(f"{key!r} is not an answer to {d.prompt!r} ({d.rule})")
            d = play.send(key)
        while True:
            d = play.send((yield d))
    except StopIteration as stop:
        return stop.value


def refusal(state: LDFState, side: str, text: str) -> tuple[str, str] | None:
    """Why an action named by ``text`` is not on the menu now, with the rule (14.2, 8.1)."""
    word = text.strip().lower()
    if word in ("move", "attack"):
        what = "move:<hex of the force>" if word == "move" else "attack:<hex of the attackers>-<hex attacked>"
        return (f"name the force with the action: {what}", "ldf:8.2" if word == "move" else "ldf:13.4")
    aid, _, what = word.partition(":")
    if aid == "move" and what:
        return movement.start_refusal(state, side)(what) if what in state.data.ids else None
    if aid == "attack" and what:
        origin, _, target = what.partition("-")
        if origin not in state.data.ids or target not in state.data.ids:
            return None
        why = combat.attack_forbidden(state, combat.able_attackers(state, side, origin, target), origin, target)
        return (why, "ldf:13.4") if why else None
    info = state.data.actions.get(aid)
    if info is None:
        return None
    if info.cost == "free":
        return (f"{info.name!r} is not chosen as an action: the rules call it when it applies", info.rules[0])
    if info.side not in ("both", side):
        return (f"only the {info.side} player may choose {info.name!r}", "ldf:14.2")
    if not info.allowed_in(state.turn):
        return (f"{info.name!r} may be chosen only in Turn(s) {info.turns}", info.rules[-1])
    return (f"{info.name!r} is not possible now", info.rules[0])
