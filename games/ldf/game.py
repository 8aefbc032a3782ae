"""The Lest Darkness Fall game plugin: wiring only.

:class:`LestDarknessFall` (the ``ancients_kit`` Game) has one scenario,
``campaign`` (five turns, 3.0-5.0). Its hooks call the modules that hold the
rules: ``play`` and ``resume`` the sequence of play (:mod:`.sequence`, 5.2-5.6,
8.1, 8.20, with its checkpoints ``("turn", n)`` and ``("action", n, k)``), the
views :mod:`.render`, the bots :mod:`.bot`, the battles :mod:`.combat`,
:mod:`.odds` and :mod:`.compare`.
"""

from __future__ import annotations

from collections.abc import Collection, Generator
from typing import Any

from ancients_kit.data import DataStore
from ancients_kit.plugin import Game, OptionSpec, Outcome, ScenarioInfo, TableInfo
from ancients_kit.protocol import Context, Decision

from . import bot, chits, combat, compare, model, odds, render, sequence
from .setup import build_campaign
from .state import GP, LAST_TURN, SIDES, LDFState, load_data

__all__ = ["LestDarknessFall"]

SCENARIO = "campaign"


class LestDarknessFall(Game[LDFState]):
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
        return sequence.play(ctx, state)

    def copy_state(self, state: LDFState) -> LDFState:
        return state.copy()

    def resume(self, ctx: Context, state: LDFState, where: Any) -> Generator[Decision, str, Outcome]:
        return sequence.resume(ctx, state, where)

    # -- views -------------------------------------------------------------------
    def sides(self, state: LDFState) -> tuple[str, ...]:
        return SIDES

    def status(self, state: LDFState, viewer: str | None) -> str:
        return render.status(state)

    def render(self, state: LDFState, viewer: str | None, highlight: Collection[str] = ()) -> Any:
        return render.render(state, viewer, highlight)

    def picture(self, state: LDFState, viewer: str | None) -> Any:
        return render.picture(state)

    def inspect(self, state: LDFState, viewer: str | None, hex_id: str) -> tuple[str, ...]:
        return render.inspect(state, hex_id)

    def hand(self, state: LDFState, viewer: str | None) -> tuple[tuple[str, str], ...]:
        return chits.hand_shown(state, viewer)

    def determinize(self, state: LDFState, viewer: str, rng: Any) -> None:
        bot.determinize(state, viewer, rng)

    def tables(self, store: DataStore) -> list[TableInfo]:
        return render.tables(store)

    # -- bots ----------------------------------------------------------------------
    def evaluate(self, state: LDFState, side: str) -> float:
        return bot.evaluate(state, side)

    def turn_key(self, state: LDFState) -> Any:
        return sequence.player_turn(state)

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

