"""The Xenophon game plugin: wiring only.

:class:`Xenophon` (the ``ancients_kit`` Game) has two scenarios,
``cyrus-revolt`` (7 turns) and ``kings-war`` (15 turns), set up alike
(:mod:`.setup`). ``play`` and ``resume`` are the sequence of play
(xen:sequence, :func:`.sequence.play`, checkpoints before every phase); the
bot's hooks are :mod:`.bot`'s, the odds :mod:`.odds`'s, the views
:mod:`.render`'s.
"""

from __future__ import annotations

from collections.abc import Collection, Generator
from typing import Any

from ancients_kit.data import DataStore
from ancients_kit.plugin import Game, OptionSpec, Outcome, ScenarioInfo, TableInfo
from ancients_kit.protocol import Context, Decision

from . import bot, combat, sequence
from .hints import focused
from .intelligence import hand_of, status_line
from .setup import OPTION_SPECS, build, scenario_infos
from .state import SIDES, XenState, load_data

__all__ = ["Xenophon"]


class Xenophon(Game[XenState]):
    """Xenophon: 10,000 Against Persia (S&T 203)."""

    id = "xenophon"
    title = "Xenophon: 10,000 Against Persia"
    package = "ancients_games.xenophon"
    hidden_information = True
    asks_forced = False  # a forced answer is not a question (issue 23; docs/games/xenophon.md, How to play)
    rule_prefix = "xen"

    # -- listings ------------------------------------------------------------
    def scenarios(self, store: DataStore) -> list[ScenarioInfo]:
        return scenario_infos(store)

    def option_specs(self, store: DataStore, scenario: str) -> list[OptionSpec]:
        return list(OPTION_SPECS)

    # -- set-up and play ---------------------------------------------------------
    def setup(self, ctx: Context, scenario: str) -> XenState:
        return build(ctx, load_data(ctx.store), scenario)

    def play(self, ctx: Context, state: XenState) -> Generator[Decision, str, Outcome]:
        return focused(state, sequence.play(ctx, state))

    def copy_state(self, state: XenState) -> XenState:
        return state.copy()

    def resume(self, ctx: Context, state: XenState, where: Any) -> Generator[Decision, str, Outcome]:
        if not sequence.is_checkpoint(state, where):
            raise ValueError(f"not a checkpoint of this game: {where!r}")
        return focused(state, sequence.play(ctx, state, where))

    # -- views -------------------------------------------------------------------
    def sides(self, state: XenState) -> tuple[str, ...]:
        return SIDES

    def status(self, state: XenState, viewer: str | None) -> str:
        return status_line(state, viewer)

    def render(self, state: XenState, viewer: str | None, highlight: Collection[str] = ()) -> Any:
        from .render import render  # here, not at the top: start-up time (rich, the map drawing)

        return render(state, viewer, highlight)

    def picture(self, state: XenState, viewer: str | None) -> Any:
        from .render import picture  # start-up time, as render

        return picture(state, viewer)

    def inspect(self, state: XenState, viewer: str | None, hex_id: str) -> tuple[str, ...]:
        from .render import inspect  # start-up time, as render

        return inspect(state, viewer, hex_id)

    def hand(self, state: XenState, viewer: str | None) -> tuple[tuple[str, str], ...]:
        return hand_of(state, viewer)

    def determinize(self, state: XenState, viewer: str, rng: Any) -> None:
        bot.determinize(state, viewer, rng)

    def turn_key(self, state: XenState) -> Any:
        return (state.turn, state.player_turn)

    def evaluate(self, state: XenState, side: str) -> float:
        return bot.evaluate(state, side)

    def score_option(self, state: XenState, decision: Decision, key: str) -> float | None:
        return bot.score(state, decision, key)

    def score_options(self, state: XenState, decision: Decision) -> list[float | None]:
        return bot.score_options(state, decision)

    def tables(self, store: DataStore) -> list[TableInfo]:
        from .render import tables  # start-up time, as render

        return tables(store)

    # -- combat (xen-combat): odds.py, compare.py ------------------------------------
    @property
    def odds_help(self) -> str:  # type: ignore[override]
        from .odds import HELP  # here, not at the top: start-up time (the odds reports load only when asked)

        return HELP

    def odds(self, store: DataStore, params: Any) -> Any:
        """``ancients odds xenophon ...`` (odds.py): battles, withdrawal, personal combat, diplomacy ..."""
        from .odds import odds  # start-up time, as HELP

        return odds(store, params)

    def compare(self, store: DataStore, engagement: Any) -> Any:
        from .compare import translate  # here, not at the top: start-up time (the cross-game translation)

        return translate(store, engagement)

    def decision_odds(self, state: XenState, decision: Decision, key: str, store: DataStore | None = None) -> Any:
        """An attack offered by the operations loop (``attack:HEX``): the battle's odds (combat.py)."""
        return combat.decision_odds(state, decision, key)
