"""The C&C: Ancients, Imperial Rome game plugin: scenarios, set-up, the play loop, bots' hints.

Owns :class:`CCAncientsRome` (the ``ancients_kit`` Game): 24 battles and 2
Para Bellum series as scenarios, options, ``setup`` (``ccr:setup``: board,
armies, leaders, wagons, shuffled deck, hands dealt in secret), ``play``
(``ccr:sequence``: alternate turns until a side reaches its Victory Banners,
``ccr:victory``; series per ``ccr:para-bellum``), tables, odds, render and the
greedy bot's cheap scores.
"""

from __future__ import annotations

from collections.abc import Collection

from collections.abc import Generator, Mapping
from typing import Any

from ancients_kit.chance import Deck
from ancients_kit.data import DataStore
from ancients_kit.plugin import Game, OddsReport, OptionSpec, Outcome, ScenarioInfo, TableInfo
from ancients_kit.protocol import Context, Decision

from . import bot as bot_mod
from . import compare as compare_mod
from . import odds as odds_mod
from . import render as render_mod
from .cards import load_deck
from .dice import BATTLE_DIE
from .expansion import apply_special_rules
from .orders import play_turn, turn_after_orders
from .scenario import BATTLE_PREFIX, SERIES_PREFIX, list_battles, list_series, load_battle, load_series
from .series import leave_out, rally_lost
from .state import Army, BattleState, GameState, Leader, Wagon, side_name
from .terrain import Board, load_terrain
from .units import load_units
from .victory import start_of_turn

__all__ = ["CCAncientsRome", "build_battle"]

SERIES_KEY = "series-"

BATTLE_RULES: tuple[str, ...] = (
    "ccr:scenario.tigranocerte", "ccr:scenario.carrhes", "ccr:scenario.philippi-i", "ccr:scenario.philippi-ii",
    "ccr:scenario.cilician-gates", "ccr:scenario.antonys-siege-train", "ccr:scenario.medway",
    "ccr:scenario.boudicas-revolt-watling-street", "ccr:scenario.first-bedriacum", "ccr:scenario.mons-graupius",
    "ccr:scenario.issus", "ccr:scenario.lugdunum", "ccr:scenario.nisibis", "ccr:scenario.hormuz",
    "ccr:scenario.carthage", "ccr:scenario.abrittus", "ccr:scenario.edessa", "ccr:scenario.naissus",
    "ccr:scenario.placentia", "ccr:scenario.fano", "ccr:scenario.pavia", "ccr:scenario.immae",
    "ccr:scenario.milvian-bridge", "ccr:scenario.cibalae",
)
"""The battles this engine plays: each War Council and special rules are read from
``data/battles/<slug>.toml`` by :func:`build_battle` and :mod:`.expansion` (ccr:setup)."""


def _names(battle: Any) -> tuple[str, str]:
    top, bottom = side_name(battle.top.army), side_name(battle.bottom.army)
    return (top, bottom) if top != bottom else ("top", "bottom")


def build_battle(ctx: Context, battle_id: str, names: tuple[str, str] | None = None, banners: int = 0) -> BattleState:
    """Set up one battle (ccr:setup): board, units, leaders, wagons, deck, hands, first player."""
    store = ctx.store
    battle = load_battle(store, battle_id)
    board = Board(battle, load_terrain(store))
    bs = BattleState(battle, board)
    bs.types = load_units(store).types
    deckfile = load_deck(store)
    bs.cards = deckfile.by_id()
    auto = _names(battle)
    if names is not None:
        # same sides in every battle of a series: match by army name, else by board edge
        names = names if auto == names or set(auto) != set(names) else auto
    top, bottom = names or auto
    for key, name, side in (("top", top, battle.top), ("bottom", bottom, battle.bottom)):
        a = Army(key, name, side.army, side.command_cards, banners or battle.victory.banners)
        a.reserve = [(r.unit, tuple(r.flags)) for r in side.reserve]
        a.reserve_leaders = side.reserve_leaders
        bs.armies[name] = a
        bs.by_key[key] = a
    for key, name, side in (("top", top, battle.top), ("bottom", bottom, battle.bottom)):
        for p in side.units:
            bs.add_unit(name, p.unit, p.hex, bs.types[p.unit].blocks, "praetorian-guard" in p.flags, bool(p.flags))
        for i, lp in enumerate(side.leader_hexes):
            bs.leaders.append(Leader(len(bs.leaders) + 1, name, lp.name or f"{name} leader {i + 1}", lp.hex))
        for w in side.wagons:
            bs.wagons.append(Wagon(name, w.kind, w.hex))
    apply_special_rules(bs)
    bs.first_strike = str(ctx.options.get("first_strike", "ask"))
    deck = Deck(deckfile.deck_list(), "command deck")
    ctx.chance.shuffle(deck, "shuffle the Command cards", ("ccr:setup", "ccr:base.cards"))
    bs.deck = deck
    for name in (top, bottom):
        a = bs.armies[name]
        with ctx.secret(name):
            for _ in range(a.command):
                a.hand.add(deck.draw(ctx.chance, f"{name} is dealt a Command card", ("ccr:setup",)))
    if battle.first_player == "dice-off":
        while True:
            got = {}
            for name in (top, bottom):
                faces = ctx.chance.symbols(BATTLE_DIE, bs.armies[name].command, f"{name} rolls for first move",
                                           ("ccr:sequence", f"ccr:scenario.{battle.slug}"))
                got[name] = faces.count("leader")
            if got[top] != got[bottom]:
                bs.first = max(got, key=lambda k: got[k])
                break
    else:
        bs.first = top if battle.first_player == "top" else bottom
    ctx.event("setup", f"{battle.title} ({battle.year}): {top} (top, {bs.armies[top].command} cards) against "
              f"{bottom} (bottom, {bs.armies[bottom].command} cards); {bs.first} moves first; "
              f"{bs.armies[top].target}/{bs.armies[bottom].target} banners to win",
              rules=("ccr:setup", "ccr:sequence", "ccr:victory", f"ccr:scenario.{battle.slug}"))
    return bs


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
            names = _names(b)
            first = {"top": names[0], "bottom": names[1]}.get(b.first_player, "dice-off")
            out.append(ScenarioInfo(b.slug, f"{b.title} ({b.year})", names, b.meta, b.summary, first))  # type: ignore[arg-type]
        for sid in list_series(store):
            s = load_series(store, sid)
            b = load_battle(store, s.battles[0].battle)
            names = _names(b)
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
        """Build the first (or only) battle; a series keeps its later battles for ``play``."""
        if scenario.startswith(SERIES_KEY):
            series = load_series(ctx.store, SERIES_PREFIX + scenario.removeprefix(SERIES_KEY))
            first = series.battles[0]
            bs = build_battle(ctx, first.battle, banners=first.banners)
            state = GameState(scenario, tuple(bs.armies))  # type: ignore[arg-type]
            state.series = series
            state.label = first.label or bs.battle.title
            ctx.event("series", f"Para Bellum series {series.title}: {state.label}", rules=("ccr:para-bellum",))
        else:
            slug = scenario.removeprefix(BATTLE_PREFIX)
            bs = build_battle(ctx, slug)
            state = GameState(scenario, tuple(bs.armies))  # type: ignore[arg-type]
        state.battle = bs
        return state

    def play(self, ctx: Context, state: GameState) -> Generator[Decision, str, Outcome]:
        return self._play(ctx, state, None)

    def copy_state(self, state: GameState) -> GameState:
        return state.copy()

    def resume(self, ctx: Context, state: GameState, where: Any) -> Generator[Decision, str, Outcome]:
        """Play on from the start of a turn (the checkpoint ``_battle`` marks)."""
        if where[0] == "stage":  # inside a turn: a unit to move or to battle (orders.turn_after_orders)
            _, _turn, side, stage = where
            return self._play(ctx, state, side, stage)
        kind, index, _turn, side = where
        if kind != "turn" or index != state.index:
            raise ValueError(f"not a checkpoint of this game: {where!r}")
        return self._play(ctx, state, side)

    def _play(self, ctx: Context, state: GameState, resume_side: str | None,
              stage: str = "") -> Generator[Decision, str, Outcome]:
        while True:
            bs = state.b
            result = yield from self._battle(ctx, bs, state.index, resume_side, stage)
            resume_side, stage = None, ""
            if state.series is None:
                return result
            for s in state.sides:
                state.totals[s] += bs.armies[s].banners
            state.results.append((state.label, {s: bs.armies[s].banners for s in state.sides}, result.winner))
            ctx.event("series", f"{state.label}: {result.text}; totals " +
                      ", ".join(f"{s} {state.totals[s]}" for s in state.sides), rules=("ccr:para-bellum",))
            state.index += 1
            if state.index >= len(state.series.battles):
                return self._series_outcome(state, bs)
            rally_lost(ctx, state, bs)
            nb = state.series.battles[state.index]
            state.label = nb.label or nb.battle
            nxt = build_battle(ctx, nb.battle, names=state.sides, banners=nb.banners)
            state.battle = nxt
            yield from leave_out(ctx, state, nxt)

    def _series_outcome(self, state: GameState, bs: BattleState) -> Outcome:
        a, b = state.sides
        ta, tb = state.totals[a], state.totals[b]
        margin = state.series.decisive_margin if state.series else 0
        if ta == tb:
            return Outcome(None, f"Series drawn at {ta} banners each", scores=dict(state.totals),
                           rules=("ccr:para-bellum",), turn=bs.turn)
        w = a if ta > tb else b
        level = "decisive" if margin and abs(ta - tb) >= margin else "victory"
        return Outcome(w, f"{w} wins the series {max(ta, tb)}-{min(ta, tb)} in banners ({level})", level=level,
                       scores=dict(state.totals), rules=("ccr:para-bellum", "ccr:victory"), turn=bs.turn)

    def _battle(self, ctx: Context, bs: BattleState, index: int = 0, resume_side: str | None = None,
                stage: str = "") -> Generator[Decision, str, Outcome]:
        limit = int(ctx.options.get("turn_limit", 0) or 0)
        side = resume_side or bs.first
        while True:
            if stage:  # resumed inside the turn (a checkpoint of orders.turn_after_orders)
                assert bs.turn_orders is not None
                yield from turn_after_orders(ctx, bs, side, *bs.turn_orders, resume=stage)
                stage = ""
            else:
                # A safe point: the battle depends only on the state and the side to play.
                ctx.checkpoint(("turn", index, bs.turn + 1, side))
                bs.turn += 1
                bs.active = side
                ctx.event("turn", f"Turn {bs.turn}: {side}", rules=("ccr:sequence",), side=side)
                start_of_turn(ctx, bs, side)
                if not bs.over:
                    yield from play_turn(ctx, bs, side)
            for s in bs.armies:
                if not bs.over and not bs.side_units(s):
                    bs.over, bs.winner = True, bs.other(s)
            if bs.over:
                break
            if limit and bs.turn >= 2 * limit:
                bs.over = True
                a, b = bs.armies
                if bs.armies[a].banners != bs.armies[b].banners:
                    bs.winner = max(bs.armies, key=lambda k: bs.armies[k].banners)
                ctx.event("end", f"turn limit {limit} reached", rules=("ccr:victory",))
                break
            side = bs.other(side)
        scores = {s: bs.armies[s].banners for s in bs.armies}
        limited = " at the turn limit" if limit and bs.turn >= 2 * limit and all(
            bs.armies[s].banners < bs.armies[s].target for s in bs.armies) else ""
        if bs.winner is None:
            return Outcome(None, f"{bs.battle.title}: drawn at the turn limit ({scores})", scores=scores,
                           rules=("ccr:victory",), turn=bs.turn)
        loser = bs.other(bs.winner)
        return Outcome(bs.winner, f"{bs.winner} wins {bs.battle.title} {scores[bs.winner]}-{scores[loser]} in Victory Banners{limited}",
                       level="turn limit" if limited else "", scores=scores, rules=("ccr:victory",), turn=bs.turn)

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
        bs = state.b
        other = bs.other(side)
        mine = sum(u.blocks for u in bs.side_units(side))
        theirs = sum(u.blocks for u in bs.side_units(other))
        return 10.0 * (bs.armies[side].banners - bs.armies[other].banners) + 0.5 * (mine - theirs)

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
        """The unit on ``hex_id``: its type's dice, movement, range and retreat, blocks,
        leader and this turn's orders (nothing on the board is hidden in C&C)."""
        bs = state.battle
        u = bs.at.get(hex_id) if bs is not None else None
        if u is None:
            return ()
        t = bs.types[u.code]
        ld = bs.leader_with(u)
        facts = [f"{u.code} {t.name} ({t.symbol}, {'mounted' if t.mounted else 'foot'}): "
                 f"{u.blocks} of {u.max_blocks} block{'s' if u.max_blocks != 1 else ''}",
                 f"move {t.move}, close combat {t.close} dice" + (f", range {t.range}" if t.range else "")
                 + f", retreat {t.retreat} per flag" + (f", evades {', '.join(t.evade)}" if t.evade else "")]
        state_ = [x for x, on in (("ordered", u.ordered), (f"moved {u.moved}", u.moved), ("Praetorian Guard", u.guard)) if on]
        if ld is not None:
            state_.append(f"with {ld.name}")
        if state_:
            facts.append(", ".join(state_))
        return tuple(facts)

    def hand(self, state: GameState, viewer: str | None) -> tuple[tuple[str, str], ...]:
        """The Command cards ``viewer`` holds (ccr:base.cards); the other hand stays hidden."""
        bs = state.battle
        if bs is None or viewer is None or viewer not in bs.armies:
            return ()
        cards = bs.armies[viewer].hand.visible_to(viewer)
        return tuple((str(c), bs.cards[c].name) for c in cards) if isinstance(cards, tuple) else ()
