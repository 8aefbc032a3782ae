"""The Lest Darkness Fall game plugin: the campaign, the turn sequence and the action loop.

:class:`LestDarknessFall` (the ``ancients_kit`` Game) has one scenario,
``campaign`` (five turns, 3.0-5.0). ``play`` follows the turn sequence
(5.2-5.6): the set-up choices (3.3), then per turn the mutual administrative
phase from Turn 2 (5.3, 5.5, :mod:`.admin`) and the alternating actions phase
(8.1): the Germano-Parthian first (5.3), then each player in turn chooses one
action of the Action Summary (:data:`.actions.ACTIONS`) until both pass in
immediate succession (8.20), chit 18 ends the turn (5.4) or the game is won
(4.2-4.5, :mod:`.victory`). Concession (4.4, 4.5) is offered with every action.

Checkpoints (for undo and fork): at the start of every turn
(``("turn", n)``) and before every action (``("action", n, k)``); everything
the rest of the game depends on is then in :class:`~.state.LDFState`.
"""

from __future__ import annotations

from collections.abc import Collection, Generator
from typing import Any

from ancients_kit.chance import redeal
from ancients_kit.data import DataStore
from ancients_kit.plugin import Game, OptionSpec, Outcome, ScenarioInfo, TableInfo
from ancients_kit.session import Context, Decision, Option
from ancients_kit.windows import own

from . import admin, bot, chits, combat, compare, model, movement, odds, render, unstacking, victory
from .actions import ACTIONS
from .chit_events import can_draw, free_chit
from .hints import focused
from .setup import build_campaign, deploy
from .state import GP, LAST_TURN, ROMAN, SIDES, LDFState, load_data, other_side
from .vocab import Kind

__all__ = ["LestDarknessFall", "action_menu"]

SCENARIO = "campaign"


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


def _run_action(ctx: Context, state: LDFState, side: str, key: str) -> Generator[Decision, str, Any]:
    """Carry out the action answered ``key`` (an :func:`action_menu` key)."""
    aid, _, what = key.partition(":")
    if aid == "move" and what:
        return (yield from movement.move_from(ctx, state, side, what))
    if aid == "attack" and what:
        return (yield from _answered(ACTIONS["attack"].run(ctx, state, side), "attack.target", what))
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


class LestDarknessFall(Game):
    """Lest Darkness Fall: Rome in Crisis, AD 235-285 (S&T 2006)."""

    id = "ldf"
    title = "Lest Darkness Fall: Rome in Crisis, AD 235-285"
    package = "ancients_games.ldf"
    hidden_information = True
    asks_forced = False  # a forced answer is not a question (issue 23; docs/games/ldf.md, How to play)
    rule_prefix = "ldf"

    # -- listings ------------------------------------------------------------
    def scenarios(self, store: DataStore) -> list[ScenarioInfo]:
        meta = model.load_counters(store).meta
        return [ScenarioInfo(SCENARIO, "The campaign: Rome in crisis, AD 235-285 (five turns)", SIDES, meta,
                             "The Germano-Parthian invades, loots and occupies; the Roman holds the core.",
                             first=GP, turns=LAST_TURN)]

    def option_specs(self, store: DataStore, scenario: str) -> list[OptionSpec]:
        return [
            OptionSpec("concession", True, "Offer 'concede' with every action (4.4, 4.5). Bot games may turn it "
                       "off so that a random player does not give up at once.", ("ldf:4.4", "ldf:4.5")),
            OptionSpec("action_limit", 0, "End a turn as if both players had passed after this many actions "
                       "(0 = never, the default). Not in the rules (8.1 sets no limit): a guard a bot study may "
                       "set; a game between people never ends on it (docs/games/ldf.md, issue 23).",
                       ("ldf:8.1", "ldf:8.20"), bounds=(0, 1_000_000)),
        ]

    # -- set-up and play ---------------------------------------------------------
    def setup(self, ctx: Context, scenario: str) -> LDFState:
        if scenario != SCENARIO:
            raise KeyError(f"LDF has no scenario {scenario!r} (scenarios: {SCENARIO})")
        return build_campaign(ctx, load_data(ctx.store))

    def play(self, ctx: Context, state: LDFState) -> Generator[Decision, str, Outcome]:
        return focused(state, self._play(ctx, state, None))

    def copy_state(self, state: LDFState) -> LDFState:
        return state.copy()

    def resume(self, ctx: Context, state: LDFState, where: Any) -> Generator[Decision, str, Outcome]:
        if not isinstance(where, tuple) or where[0] not in ("turn", "action") or where[1] != state.turn:
            raise ValueError(f"not a checkpoint of this game: {where!r}")
        return focused(state, self._play(ctx, state, where))

    def _play(self, ctx: Context, state: LDFState, where: Any) -> Generator[Decision, str, Outcome]:
        if where is None:
            state.phase = "setup"
            yield from deploy(ctx, state)
        stage = "turn" if where is None else where[0]
        while True:
            if stage == "turn":
                # A safe point: the turn depends only on the state.
                ctx.checkpoint(("turn", state.turn))
                self._start_turn(ctx, state)
                if state.turn > 1:
                    state.phase = "admin"
                    yield from admin.administrative_phase(ctx, state)  # 5.5 (skipped in Turn 1, 5.3)
                    if state.over:
                        return victory.outcome(state)
                state.phase = "actions"
                ctx.event("phase", f"Turn {state.turn}: alternating actions phase; the Germano-Parthian acts first",
                          rules=("ldf:5.2", "ldf:5.3", "ldf:8.1"))
            stage = "turn"
            yield from self._actions(ctx, state)
            if not state.over and state.turn >= LAST_TURN:
                victory.last_turn_over(ctx, state)
            if state.over:
                return victory.outcome(state)
            ctx.event("turn-end", f"Turn {state.turn} ends", rules=("ldf:5.4",))
            state.turn += 1

    @staticmethod
    def _start_turn(ctx: Context, state: LDFState) -> None:
        state.turn_over = False
        state.passes = 0
        state.action_number = 0
        state.actions_taken = {GP: 0, ROMAN: 0}
        state.active = GP  # 5.3
        state.extra_action = None
        state.free_chit = None
        chits.standing(state).begin_turn()  # "not this turn" choices at the windows lapse
        ctx.event("turn", f"Game Turn {state.turn}", rules=("ldf:5.1", "ldf:5.2"))

    def _actions(self, ctx: Context, state: LDFState) -> Generator[Decision, str, None]:
        """The alternating actions phase (8.1) until the turn ends (5.4) or the game does (4.x)."""
        limit = int(ctx.options.get("action_limit", 0) or 0)
        concession = bool(ctx.options.get("concession", True))
        while True:
            ctx.checkpoint(("action", state.turn, state.action_number))
            if state.free_chit is not None:  # 8.19: decided before the next action is announced
                winner, state.free_chit = state.free_chit, None
                if can_draw(state, winner):
                    yield from free_chit(ctx, state, winner)
                    if state.over:
                        return
                    if state.turn_over:
                        return
            side = state.active
            opts = action_menu(state, side)
            if concession:
                opts.append(Option("concede", "concede the game (4.4)"))
            # A side that asked never to be asked at a window may ask again with its next action.
            key = yield from own(
                Decision(side, f"Turn {state.turn}, action {state.action_number + 1}: choose your action",
                         tuple(opts), rule="ldf:8.1", kind=Kind.ACTION,
                         refuse=lambda text: _refuse_action(state, side, text)),
                chits.standing(state))
            if key == "concede":
                sure = yield Decision(side, "Concede the game? Your opponent wins (4.5)",
                                      (Option("no", "go on playing"), Option("yes", "concede")),
                                      rule="ldf:4.4", kind=Kind.CONCEDE)
                if sure == "yes":
                    victory.concede(ctx, state, side)
                    return
                continue
            aid = key.partition(":")[0]
            spec = ACTIONS[aid]
            ctx.event("action", f"{side}: {state.data.actions[aid].name}", rules=("ldf:8.1",) + spec.rules,
                      side=side, action=aid)
            taken = yield from _run_action(ctx, state, side, key)
            if taken is False:
                continue  # the player went back: no action spent
            yield from unstacking.settle(ctx, state)  # ldf-move: 10.7, a stack left over the limit unstacks now
            combat.release_abandoned_siege(ctx, state)  # 14.3, chit 21: no Roman unit left with it
            if key != "pass":
                state.passes = 0  # 8.20: a pass then an action gives the passer another chance
            state.action_number += 1
            state.actions_taken[side] += 1
            if limit and state.action_number >= limit and not state.turn_over and not state.over:
                state.turn_over = True
                ctx.event("turn-end", f"{limit} actions this turn: the turn ends as if both players had passed "
                          "(the action_limit option, not a rule: nobody passed)", rules=())  # audit D1/D9
            victory.check_after_action(ctx, state)
            if state.over or state.turn_over:
                return
            if state.extra_action == side:  # chit 7, Mad Dash (5.3 exception)
                state.extra_action = None
            else:
                state.active = other_side(side)

    # -- views -------------------------------------------------------------------
    def sides(self, state: LDFState) -> tuple[str, ...]:
        return SIDES

    def status(self, state: LDFState, viewer: str | None) -> str:
        hands = ", ".join(f"{s} {len(h)} chits" for s, h in state.hands.items())
        return (f"Turn {state.turn}/{LAST_TURN} {state.phase}; Roman treasury {state.treasury} TP; {hands}; "
                f"pool {len(state.pool)}")

    def render(self, state: LDFState, viewer: str | None, highlight: Collection[str] = ()) -> Any:
        return render.render(state, viewer, highlight)

    def picture(self, state: LDFState, viewer: str | None) -> Any:
        return render.picture(state)

    def inspect(self, state: LDFState, viewer: str | None, hex_id: str) -> tuple[str, ...]:
        return render.inspect(state, hex_id)

    def hand(self, state: LDFState, viewer: str | None) -> tuple[tuple[str, str], ...]:
        """The chits ``viewer`` holds (10.9: only their number is public)."""
        if viewer not in state.hands:
            return ()
        return tuple((str(n), state.data.chits.chit(int(n)).name) for n in state.hands[viewer].cards)

    def determinize(self, state: LDFState, viewer: str, rng: Any) -> None:
        """Deal the other hand again from the chits ``viewer`` has not seen (the pool and that
        hand); the sizes stay (10.9). A hand shown by chit 13 stays as shown."""
        other = other_side(viewer)
        hand = state.hands[other]
        if other in state.revealed:
            return
        redeal(hand, state.pool, rng)

    def tables(self, store: DataStore) -> list[TableInfo]:
        return render.tables(store)

    # -- bots ----------------------------------------------------------------------
    def evaluate(self, state: LDFState, side: str) -> float:
        return bot.evaluate(state, side)

    def score_option(self, state: LDFState, decision: Decision, key: str) -> float | None:
        return bot.score(state, decision, key)

    # -- combat (ldf-combat) ---------------------------------------------------------
    @property
    def odds_help(self) -> str:  # type: ignore[override]
        return odds.HELP

    def odds(self, store: DataStore, params: Any) -> Any:
        """``ancients odds ldf ...`` (odds.py): a battle's exact results, German strength mixed."""
        return odds.odds(store, params)

    def decision_odds(self, state: LDFState, decision: Decision, key: str, store: DataStore | None = None) -> Any:
        return combat.decision_odds(state, decision, key, store)

    def compare(self, store: DataStore, engagement: Any) -> Any:
        return compare.translate(store, engagement)


def _refuse_action(state: LDFState, side: str, text: str) -> tuple[str, str] | None:
    """Why an action named by ``text`` is not on the menu now (14.2, 8.1)."""
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
