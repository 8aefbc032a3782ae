"""The Centurion game plugin: the wiring of the game's parts.

:class:`CenturionGame` (the ``ancients_kit`` Game) lists the scenarios
(``cen:scenarios``) and hands each hook to the module that owns it:
:mod:`.options` (the rules version, every optional rule, the Basic Game's
refusals), :mod:`.setup` (a scenario laid out, ``cen:basic.deployment``),
:mod:`.sequence` (the Basic Game, ``cen:basic.sequence``, or the Full
Simulation, ``cen:full.sequence``), :mod:`.render` (the map, the status line,
a stack inspected, the tables), :mod:`.bot` (the value of a position and the
greedy scores), :mod:`.odds` (the calculator and a Basic Game attack's odds;
the Full Simulation's are :mod:`.full.odds`) and :mod:`.compare`.

Data documents are parsed once per process and shared by sessions (they are
immutable), keyed by the variants in force, so a bot tournament does not
re-read TOML for every game.
"""

from __future__ import annotations

from collections.abc import Collection, Generator, Mapping, Sequence
from typing import Any

from ancients_kit.data import DataStore
from ancients_kit.plugin import Game, OddsReport, OptionSpec, Outcome, ScenarioInfo, TableInfo
from ancients_kit.protocol import Context, Decision

from ancients_games.centurion import bot as bot_mod
from ancients_games.centurion import compare as compare_mod
from ancients_games.centurion import odds as odds_mod
from ancients_games.centurion import options as options_mod
from ancients_games.centurion import sequence
from ancients_games.centurion import setup as setup_mod
from ancients_games.centurion.equipment import PACKAGE, load_scenario, scenario_ids
from ancients_games.centurion.full import odds as full_odds
from ancients_games.centurion.state import CenturionState

__all__ = ["CenturionGame"]


class CenturionGame(Game[CenturionState]):
    """Centurion: Tactical Warfare, 100 B.C.-600 A.D. (SPI, 1971)."""

    id = "centurion"
    title = "Centurion: Tactical Warfare, 100 B.C.-600 A.D."
    package = PACKAGE
    rule_prefix = "cen"
    hidden_information = False
    odds_help = odds_mod.HELP

    # ------------------------------------------------------------ scenarios
    def scenarios(self, store: DataStore) -> list[ScenarioInfo]:
        out = []
        for sid in scenario_ids(store):
            sc = load_scenario(store, sid)
            out.append(ScenarioInfo(
                id=sid,
                title=f"{sc.title} ({sc.year})" if sc.year else sc.title,
                sides=tuple(s.id for s in sc.sides),
                meta=sc.meta,
                summary=f"{sc.game.value}; " + ", ".join(f"{s.name} {s.counter_count()} units" for s in sc.sides),
                first=sc.first_player,
                turns=sc.turns,
            ))
        return out

    def option_specs(self, store: DataStore, scenario: str) -> list[OptionSpec]:
        return options_mod.option_specs()

    # ------------------------------------------------------------ set-up and play
    def setup(self, ctx: Context, scenario: str) -> CenturionState:
        return setup_mod.setup(ctx, scenario)

    def play(self, ctx: Context, state: CenturionState) -> Generator[Decision, str, Outcome]:
        return sequence.play(ctx, state)

    def copy_state(self, state: CenturionState) -> CenturionState:
        return state.copy()

    def resume(self, ctx: Context, state: CenturionState, where: Any) -> Generator[Decision, str, Outcome]:
        return sequence.resume(ctx, state, where)

    def sides(self, state: CenturionState) -> tuple[str, ...]:
        return tuple(state.sides)

    # ------------------------------------------------------------ display
    # render (and rich with it) is loaded on first display, in each hook: about 20 ms of
    # start-up that headless runs (simulate, bots, tests) never need
    def render(self, state: CenturionState, viewer: str | None, highlight: Collection[str] = ()) -> Any:
        from ancients_games.centurion import render as render_mod  # on first display (start-up time)

        return render_mod.render(state, viewer, highlight)

    def compare(self, store: DataStore, engagement: Any) -> Any:
        return compare_mod.translate(store, engagement)

    def picture(self, state: CenturionState, viewer: str | None) -> Any:
        from ancients_games.centurion import render as render_mod  # on first display (start-up time)

        return render_mod.picture_of(state, viewer)

    def inspect(self, state: CenturionState, viewer: str | None, hex_id: str) -> tuple[str, ...]:
        from ancients_games.centurion import render as render_mod  # on first display (start-up time)

        return render_mod.inspect(state, viewer, hex_id)

    def status(self, state: CenturionState, viewer: str | None) -> str:
        from ancients_games.centurion import render as render_mod  # on first display (start-up time)

        return render_mod.status(state, viewer)

    # ------------------------------------------------------------ bots
    def evaluate(self, state: CenturionState, side: str) -> float:
        return bot_mod.evaluate(state, side)

    def evaluate_sides(self, state: CenturionState, sides: Sequence[str]) -> dict[str, float]:
        got = bot_mod.evaluate_sides(state)
        return {s: got[s] for s in sides}

    def turn_key(self, state: CenturionState) -> Any:
        """The Player-Turn under way (cen:basic.sequence): its count since the start,
        whoever answers inside it."""
        return state.player_turn

    def search_defaults(self) -> Mapping[str, Any]:
        """Settings for the ``mcts`` bot: 140 iterations a decision over seven
        root options (``width=7``: twenty paired samples each unless pruned;
        about 1.1 s of processor time on the average decision, more early in a
        battle, when every unit still moves), paired by keyed dice
        (``pairing=keyed``: each attack is rolled under a reason naming its
        hex, so two moves compared on one sample meet the same die for the
        same attack), the look-ahead judged by :meth:`evaluate` (losses and
        the expected Combat Phase to come). Against greedy
        (benchmarks/bench_search.py): 30 wins, 1 draw in 40 games, 75%
        [59.8, 85.8]; 62.5% at 49 iterations (seven samples of each option)."""
        return {"iterations": 140, "width": 7, "pairing": "keyed"}

    def score_options(self, state: CenturionState, decision: Decision) -> list[float | None]:
        return bot_mod.scores(state, decision)

    def score_option(self, state: CenturionState, decision: Decision, key: str) -> float | None:
        return bot_mod.score(state, decision, key)

    # ------------------------------------------------------------ tables and odds
    def tables(self, store: DataStore) -> list[TableInfo]:
        from ancients_games.centurion import render as render_mod  # on first display (start-up time)

        return render_mod.table_infos(store)

    def odds(self, store: DataStore, params: Mapping[str, str]) -> OddsReport:
        return odds_mod.odds(store, params)

    def decision_odds(self, state: CenturionState, decision: Decision, key: str,
                      store: DataStore | None = None) -> OddsReport | None:
        """The odds of an attack before it is rolled: a Basic Game's (cen:basic.combat,
        :func:`.odds.decision_odds`) or a Full Simulation's (cen:full.combat,
        :func:`.full.odds.full_decision_odds`)."""
        odds_of = odds_mod.decision_odds if state.version == "basic" else full_odds.full_decision_odds
        return odds_of(state, decision, key, store or DataStore(self.package))
