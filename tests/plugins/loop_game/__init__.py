"""A test game whose scenarios loop on purpose, for the bots' progress watch.

Each scenario is a tiny game of three turns in which the greedy bot (through
:meth:`Loops.score_option`, which prefers the first option after ``done``)
walks into a different kind of endless play:

- ``dead-end``: the shape of the Centurion Attack Allocation fault: a target
  is offered, then a kind of attack that no unit may join, which ends empty,
  logs nothing and asks for the target again (``melee``); ``fire`` would
  attack and end the turn;
- ``no-op``: an answer (``wait``) that brings back the very same decision;
- ``forced``: two decisions with one option each that lead to each other;
- ``quiet``: a counter that changes the prompt forever without logging;
- ``chatty``: an answer (``again``) that logs an event every time but never
  brings the end nearer: only a decision cap stops it;
- ``take-backs``: a sound game whose every choice can be taken back
  (choose a unit, then ``back``): bots must finish it without a false alarm.

A random bot escapes every loop except ``forced`` by chance, sooner or later;
the watch must catch the greedy bot quickly and never flag ``take-backs``.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

from ancients_kit.data import DataStore, Meta
from ancients_kit.plugin import Game, Outcome, ScenarioInfo
from ancients_kit.session import Context, Decision, Option

SIDES = ("Red", "Blue")
TURNS = 3
SCENARIOS = ("dead-end", "no-op", "forced", "quiet", "chatty", "take-backs")
RULE = "loop:turn"


@attrs.define
class LoopState:
    scenario: str
    sides: tuple[str, ...] = SIDES
    turn: int = 0
    score: dict[str, int] = attrs.field(factory=lambda: {s: 0 for s in SIDES})


class Loops(Game):
    id = "loop"
    title = "Loops (test plugin)"
    package = "loop_game"
    rule_prefix = "loop"

    def scenarios(self, store: DataStore) -> list[ScenarioInfo]:
        meta = Meta("loop.scenarios", "reconstructed", (RULE,), "Test fixture: games that loop on purpose.")
        return [ScenarioInfo(s, s, SIDES, meta, first=SIDES[0], turns=TURNS) for s in SCENARIOS]

    def setup(self, ctx: Context, scenario: str) -> LoopState:
        if scenario not in SCENARIOS:
            raise KeyError(scenario)
        return LoopState(scenario)

    def score_option(self, state: LoopState, decision: Decision, key: str) -> float | None:
        keys = decision.keys
        preferred = next((k for k in keys if k not in ("done", "back")), keys[0])
        return 1.0 if key == preferred else 0.0

    def play(self, ctx: Context, state: LoopState) -> Generator[Decision, str, Outcome]:
        turn = getattr(self, f"_turn_{state.scenario.replace('-', '_')}")
        for state.turn in range(1, TURNS + 1):
            for side in state.sides:
                ctx.event("turn", f"Turn {state.turn}: {side}", RULE, side=side)
                yield from turn(ctx, state, side)
        best = max(state.score.values())
        winners = [s for s, v in state.score.items() if v == best]
        return Outcome(winners[0] if len(winners) == 1 else None, "the turns ran out", rules=(RULE,),
                       scores=dict(state.score), turn=TURNS)

    def _ask(self, side: str, prompt: str, *keys: str) -> Decision:
        return Decision(side, prompt, tuple(Option(k, k) for k in keys), rule=RULE, kind="loop")

    def _turn_dead_end(self, ctx: Context, state: LoopState, side: str) -> Generator[Decision, str, None]:
        while True:
            key = yield self._ask(side, f"turn {state.turn}: choose a target, or done", "done", "A")
            if key == "done":
                return
            mode = yield self._ask(side, "attack on A: melee or fire?", "melee", "fire")
            if mode == "fire":
                state.score[side] += 1
                ctx.event("attack", f"{side} fires at A", RULE, side=side)
                return
            # melee: no unit may join it, so the attack is empty: nothing happens, and the same question comes back

    def _turn_no_op(self, ctx: Context, state: LoopState, side: str) -> Generator[Decision, str, None]:
        while (yield self._ask(side, f"turn {state.turn}: wait or go?", "wait", "go")) == "wait":
            pass

    def _turn_forced(self, ctx: Context, state: LoopState, side: str) -> Generator[Decision, str, None]:
        while True:
            yield self._ask(side, "the gate", "on")
            yield self._ask(side, "the yard", "back")

    def _turn_quiet(self, ctx: Context, state: LoopState, side: str) -> Generator[Decision, str, None]:
        n = 0
        while (yield self._ask(side, f"turn {state.turn}: counted {n}; done or count?", "done", "count")) != "done":
            n += 1

    def _turn_chatty(self, ctx: Context, state: LoopState, side: str) -> Generator[Decision, str, None]:
        while (yield self._ask(side, f"turn {state.turn}: done or again?", "done", "again")) != "done":
            ctx.event("again", f"{side} tries again; nothing comes of it", RULE, side=side)

    def _turn_take_backs(self, ctx: Context, state: LoopState, side: str) -> Generator[Decision, str, None]:
        left = ["u1", "u2"]
        while left:
            unit = yield self._ask(side, f"turn {state.turn}: choose a unit to act, or done", "done", *left)
            if unit == "done":
                return
            act = yield self._ask(side, f"{unit}: act, or back", "back", "act")
            if act == "act":
                left.remove(unit)
                state.score[side] += 1
                ctx.event("act", f"{side} {unit} acts", RULE, side=side)


GAME = Loops()
