"""Set-up (ccr:setup): a scenario's first battle, and each battle of a series as it comes.

:func:`build_battle` lays out one battle from its file: board, armies, units,
leaders and wagons, the scenario's special rules (:mod:`.expansion`), the
shuffled Command deck, the hands dealt in secret and the first player (by the
battle's War Council or a dice-off). :func:`setup` builds the first (or only)
battle of a scenario; a Para Bellum series keeps the others for the sequence
of play (:mod:`.sequence`).
"""

from __future__ import annotations

from typing import Any

from ancients_kit.chance import Deck
from ancients_kit.protocol import Context

from .cards import load_deck
from .dice import BATTLE_DIE
from .expansion import apply_special_rules
from .scenario import BATTLE_PREFIX, SERIES_PREFIX, load_battle, load_series
from .state import Army, BattleState, GameState, Leader, Wagon, side_name
from .terrain import Board, load_terrain
from .units import load_units

__all__ = ["BATTLE_RULES", "SERIES_KEY", "army_names", "build_battle", "setup"]

SERIES_KEY = "series-"
"""Scenario ids of the Para Bellum series begin so (``series-...``)."""

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


def army_names(battle: Any) -> tuple[str, str]:
    """The two sides' names: their armies' (``Romans``), or ``top`` and ``bottom`` when both are alike."""
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
    auto = army_names(battle)
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



def setup(ctx: Context, scenario: str) -> GameState:
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
