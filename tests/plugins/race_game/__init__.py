"""A tiny third-party game used by the core's tests: "Pig", a dice race.

It proves that a game outside this project registers through the
``ancients_kit.games`` entry-point group and runs through the same decision
protocol as the built-in games. Each turn a side rolls a die as often as it
likes; a 1 loses the turn's total, holding banks it; first to the target wins.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import attrs

from ancients_kit.data import DataStore
from ancients_kit.plugin import Game, OptionSpec, Outcome, ScenarioInfo
from ancients_kit.session import Context, Decision, Option


@attrs.frozen
class RaceScenario:
    title: str
    sides: tuple[str, ...]
    target: int


@attrs.define
class RaceState:
    sides: tuple[str, ...]
    target: int
    banked: dict[str, int]
    turn: int = 0


class Race(Game):
    id = "race"
    title = "Pig (test plugin)"
    package = "race_game"
    rule_prefix = "race"

    def scenarios(self, store: DataStore) -> list[ScenarioInfo]:
        meta, scen = store.load("short.toml", RaceScenario)
        return [ScenarioInfo("short", scen.title, scen.sides, meta, first=scen.sides[0])]

    def option_specs(self, store: DataStore, scenario: str) -> list[OptionSpec]:
        return [OptionSpec("target", 0, "Points to win (0: the scenario's)")]

    def setup(self, ctx: Context, scenario: str) -> RaceState:
        if scenario != "short":
            raise KeyError(scenario)
        _, scen = ctx.store.load("short.toml", RaceScenario)
        target = ctx.options.get("target") or scen.target
        return RaceState(scen.sides, target, {s: 0 for s in scen.sides})

    def play(self, ctx: Context, state: RaceState) -> Generator[Decision, str, Outcome]:
        while True:
            for side in state.sides:
                state.turn += 1
                ctx.event("turn", f"Turn {state.turn}: {side}", "race:turn", side=side)
                pot = 0
                while True:
                    key = yield Decision(
                        side,
                        f"{side} has {state.banked[side]} banked and {pot} at risk: roll or hold?",
                        (Option("roll", "roll the die"), Option("hold", "bank the points at risk")),
                        rule="race:turn",
                        kind="race.choice",
                        refuse=lambda t: ("banking happens by holding", "race:hold") if t == "bank" else None,
                    )
                    if key == "hold":
                        state.banked[side] += pot
                        ctx.event("hold", f"{side} holds {pot}: {state.banked[side]}", "race:hold", side=side)
                        break
                    value = ctx.chance.d6(f"{side} rolls", ("race:roll",))
                    if value == 1:
                        ctx.event("bust", f"{side} rolls a 1 and loses {pot}", "race:roll", side=side)
                        break
                    pot += value
                if state.banked[side] >= state.target:
                    return Outcome(side, f"{side} reaches {state.banked[side]}", rules=("race:win",), turn=state.turn,
                                   scores=dict(state.banked))

    def evaluate(self, state: Any, side: str) -> float:
        other = sum(v for s, v in state.banked.items() if s != side)
        return state.banked[side] - other


GAME = Race()
