"""The C&C: Ancients, Imperial Rome game plugin: the wiring of the game's parts.

:class:`CCAncientsRome` (the ``ancients_kit`` Game) lists the 24 battles and 2
Para Bellum series as scenarios and their options, and hands each hook to the
module that owns it: :mod:`.setup` (ccr:setup), :mod:`.sequence` (ccr:sequence,
ccr:victory, ccr:para-bellum), :mod:`.render` (what a side sees), :mod:`.bot`
(scores, evaluation, the hidden cards sampled for a search), :mod:`.odds` and
:mod:`.compare`.
"""

from __future__ import annotations

from collections.abc import Collection, Generator, Mapping
from typing import Any

from ancients_kit.data import DataStore
from ancients_kit.plugin import Game, OddsReport, OptionSpec, Outcome, ScenarioInfo, TableInfo
from ancients_kit.protocol import Context, Decision

from . import bot as bot_mod
from . import compare as compare_mod
from . import odds as odds_mod
from . import render as render_mod
from . import sequence
from . import setup as setup_mod
from .scenario import SERIES_PREFIX, list_battles, list_series, load_battle, load_series
from .setup import SERIES_KEY, army_names
from .state import GameState

__all__ = ["CCAncientsRome"]


class CCAncientsRome(Game[GameState]):
    """Commands & Colors: Ancients, Expansion #4 Imperial Rome."""

    id = "ccancients_rome"
    title = "Commands & Colors: Ancients, Expansion #4 Imperial Rome"
    package = "ancients_games.ccancients_rome"
    hidden_information = True
    rule_prefix = "ccr"
    odds_help = odds_mod.HELP

    # -- listings ----------------------------------------------------------
    def scenarios(self, store: DataStore) -> list[ScenarioInfo]:
        out = []
        for bid in list_battles(store):
            b = load_battle(store, bid)
            names = army_names(b)
            first = {"top": names[0], "bottom": names[1]}.get(b.first_player, "dice-off")
            out.append(ScenarioInfo(b.slug, f"{b.title} ({b.year})", names, b.meta, b.summary, first))  # type: ignore[arg-type]
        for sid in list_series(store):
            s = load_series(store, sid)
            b = load_battle(store, s.battles[0].battle)
            names = army_names(b)
            first = {"top": names[0], "bottom": names[1]}.get(b.first_player, "dice-off")
            out.append(ScenarioInfo(SERIES_KEY + sid.removeprefix(SERIES_PREFIX), s.title, names, s.meta, s.rule, first))  # type: ignore[arg-type]
        return out

    def option_specs(self, store: DataStore, scenario: str) -> list[OptionSpec]:
        return [
            OptionSpec("turn_limit", 150, "End a battle after this many turns per side (0 = never); the side with "
                       "more banners then wins, equal is a draw. Not in the rules: a guard for bot games.",
                       ("ccr:victory",), bounds=(0, 100_000)),
            OptionSpec("first_strike", "ask", "How a held First Strike card reacts to enemy close combat: 'ask' the "
                       "defender each time (the question shows the opponent that the card is held), 'auto' play it "
                       "at the first chance without asking (keeps the hand secret), 'never' keep it for one's own turn.",
                       ("ccr:base.cards",), ("ask", "auto", "never")),
        ]

    # -- set-up and play -----------------------------------------------------
    def setup(self, ctx: Context, scenario: str) -> GameState:
        return setup_mod.setup(ctx, scenario)

    def play(self, ctx: Context, state: GameState) -> Generator[Decision, str, Outcome]:
        return sequence.play(ctx, state)

    def copy_state(self, state: GameState) -> GameState:
        return state.copy()

    def resume(self, ctx: Context, state: GameState, where: Any) -> Generator[Decision, str, Outcome]:
        return sequence.resume(ctx, state, where)

    # -- views -----------------------------------------------------------------
    def sides(self, state: GameState) -> tuple[str, ...]:
        return tuple(state.sides)

    def render(self, state: GameState, viewer: str | None, highlight: Collection[str] = ()) -> Any:
        return render_mod.render(state, viewer, highlight)

    def compare(self, store: DataStore, engagement: Any) -> Any:
        return compare_mod.translate(store, engagement)

    def picture(self, state: GameState, viewer: str | None) -> Any:
        return render_mod.picture(state, viewer)

    def status(self, state: GameState, viewer: str | None) -> str:
        return render_mod.status(state, viewer)

    # -- bots --------------------------------------------------------------------
    def evaluate(self, state: GameState, side: str) -> float:
        return bot_mod.evaluate(state, side)

    def turn_key(self, state: GameState) -> Any:
        """The player-turn under way (ccr:sequence): the battle's turn count and the
        side playing it; the other side's retreats and evasions inside it do not
        start a new one."""
        bs = state.b
        return (bs.turn, bs.active)

    def search_defaults(self) -> Mapping[str, Any]:
        """Settings for the ``mcts`` bot: 180 iterations, at most 18 paired samples of
        each option, each sample played to the end of the side's own turn (``plies``
        1: the rest of the turn, then ``evaluate``): about 35 ms of processor time on
        the average searched decision (0.6 ms an iteration; a decision with few
        options stops sooner), 74% of 80 games won against greedy. Looking on through
        the other side's reply (``plies=2``) won 75% at 92 ms a decision
        (benchmarks/results/search.md)."""
        return {"iterations": 180, "samples": 18, "plies": 1}

    def score_option(self, state: GameState, decision: Decision, key: str) -> float | None:
        return bot_mod.score(state, decision, key)

    def score_options(self, state: GameState, decision: Decision) -> list[float | None]:
        return bot_mod.scores(state, decision)

    def determinize(self, state: GameState, viewer: str, rng: Any) -> None:
        bot_mod.determinize(state, viewer, rng)

    # -- tables and odds ---------------------------------------------------------------
    def tables(self, store: DataStore) -> list[TableInfo]:
        return render_mod.tables(store)

    def odds(self, store: DataStore, params: Mapping[str, str]) -> OddsReport:
        return odds_mod.odds(store, params)

    def decision_odds(self, state: GameState, decision: Decision, key: str,
                      store: DataStore | None = None) -> OddsReport | None:
        """Odds of a battle before the dice roll (ccr:base.close-combat, ccr:base.ranged)."""
        return odds_mod.decision_odds(state, decision, key, store or DataStore(self.package))

    def inspect(self, state: GameState, viewer: str | None, hex_id: str) -> tuple[str, ...]:
        return render_mod.inspect(state, viewer, hex_id)

    def hand(self, state: GameState, viewer: str | None) -> tuple[tuple[str, str], ...]:
        return render_mod.hand(state, viewer)
