"""Checks every installed game must pass (a consistency test in the OpenSpiel manner).

For each game: its rule index matches the shared rulebook index; every table
and scenario names its provenance with rule IDs from that index; every
scenario starts, answers random legal moves, replays identically from its
answers, and survives a save/load round trip; every log event names a rule;
every scenario ends with greedy and random bots; a game with checkpoints,
rebuilt from each safe point it passed, equals the game.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from ancients_kit import savefile
from ancients_kit.bots import RandomBot, make_bot, play_out
from ancients_kit.checkpoints import every_safe_point, verify
from ancients_kit.data import DataStore
from ancients_kit.plugin import LOAD_ERRORS, load_games, supports_checkpoints
from ancients_kit.session import Session

SHARED = Path(__file__).resolve().parents[2] / "shared" / "rules"
INDEX_FILE = {"centurion": "centurion", "ccancients_rome": "ccancients_rome", "ldf": "ldf", "xenophon": "xenophon"}

GAMES = load_games()
BUILT_IN = sorted(g for g in GAMES if g in INDEX_FILE)
SCENARIOS = [(g, s.id) for g in BUILT_IN for s in GAMES[g].scenarios(DataStore(GAMES[g].package))]


def test_every_built_in_game_loads() -> None:
    assert not {k: v for k, v in LOAD_ERRORS.items() if k in INDEX_FILE}
    assert {"centurion", "ccancients_rome"} <= set(BUILT_IN)


@pytest.mark.parametrize("game", BUILT_IN)
def test_rule_index_is_the_shared_one(game: str) -> None:
    index = GAMES[game].rules_index()
    assert index, f"{game} ships no data/rules.index.toml"
    shared = SHARED / f"{INDEX_FILE[game]}.index.toml"
    if not shared.exists():
        pytest.skip("shared rule indexes not beside the checkout")
    ids = [r["id"] for r in tomllib.loads(shared.read_text())["rule"]]
    assert [r.id for r in index] == ids


@pytest.mark.parametrize("game", BUILT_IN)
def test_tables_carry_provenance(game: str) -> None:
    g = GAMES[game]
    known = {r.id for r in g.rules_index()}
    tables = g.tables(DataStore(g.package))
    assert tables, f"{game} lists no tables"
    for t in tables:
        assert t.meta.source in ("rulebook", "reconstructed"), t.id
        assert t.meta.rules, f"{t.id} names no rule"
        assert set(t.meta.rules) <= known, f"{t.id}: unknown rule IDs {set(t.meta.rules) - known}"
        if t.meta.source == "reconstructed":
            assert t.meta.note.strip(), f"{t.id}: reconstructed without a note"


@pytest.mark.parametrize(("game", "scenario"), SCENARIOS)
def test_scenario_starts_replays_and_saves(game: str, scenario: str, tmp_path: Path) -> None:
    g = GAMES[game]
    known = {r.id for r in g.rules_index()}
    s = Session(g, scenario, seed=7)
    assert s.decision is not None and s.decision.options
    bot = RandomBot()
    for _ in range(40):
        if s.decision is None:
            break
        s.answer(bot.choose(s, s.decision))
    for e in s.log:
        assert e.rules, f"event without a rule: {e.kind}: {e.text}"
        assert set(e.rules) <= known, f"unknown rule IDs in {e.text!r}: {set(e.rules) - known}"
    again = Session(g, scenario, seed=7, answers=s.answers)
    assert again.log.text() == s.log.text()
    loaded = savefile.load(savefile.save(s, tmp_path / "s.json"))
    assert loaded.log.digest() == s.log.digest() and loaded.decision == s.decision
    if s.answers:
        s.undo()
        assert s.log.text() == Session(g, scenario, seed=7, answers=again.answers[:-1]).log.text()


# -- every game ends ------------------------------------------------------------
# Every scenario of every installed game (whatever the registry holds) is played to its end
# with greedy bots on every side, and greedy against random both ways round, each on its
# own seed; the games' own suites play every scenario with random bots on every side. The
# bots' progress watch turns a loop into a failure naming the answer where it began
# (ancients_kit.bots.ProgressWatch); the cap turns a game that never ends into one.
# A wider sweep (more seeds, random bots too) runs under the ``slow`` marker.

ALL_SCENARIOS = [(g, s.id) for g in sorted(GAMES) for s in GAMES[g].scenarios(DataStore(GAMES[g].package))]
PAIRINGS = {"greedy": (1, "greedy", "greedy"), "greedy-random": (2, "greedy", "random"),
            "random-greedy": (3, "random", "greedy")}
"""Name -> (seed, bot of the first side, bot of the other sides). Seed 1 with greedy bots is
``ancients new GAME SCENARIO --bots --seed 1``."""
GAME_CAP = 60_000
"""Answers a game may take (the longest bot games today take about 5,000)."""


def _play_to_the_end(game: str, scenario: str, seed: int, first: str, rest: str) -> None:
    g = GAMES[game]
    s = Session(g, scenario, seed=seed)
    sides = g.sides(s.state)
    bots = {side: make_bot(first if i == 0 else rest) for i, side in enumerate(sides)}
    out = play_out(s, bots, max_decisions=GAME_CAP)
    assert out is not None, f"{game} {scenario} (seed {seed}, {first} v {rest}) not over after {GAME_CAP} answers"
    assert out.winner is None or out.winner in sides
    known = {r.id for r in g.rules_index()}
    assert not known or set(out.rules) <= known, f"unknown rule IDs in the outcome: {set(out.rules) - known}"


@pytest.mark.parametrize("pairing", list(PAIRINGS))
@pytest.mark.parametrize(("game", "scenario"), ALL_SCENARIOS)
def test_every_scenario_ends_with_greedy_and_random_bots(game: str, scenario: str, pairing: str) -> None:
    seed, first, rest = PAIRINGS[pairing]
    _play_to_the_end(game, scenario, seed, first, rest)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [4, 5, 6, 7])
@pytest.mark.parametrize(("game", "scenario"), ALL_SCENARIOS)
def test_every_scenario_ends_sweep(game: str, scenario: str, seed: int) -> None:
    for first in ("random", "greedy"):
        for rest in ("random", "greedy"):
            _play_to_the_end(game, scenario, seed, first, rest)


CHECKPOINTED = [g for g in sorted(GAMES) if supports_checkpoints(GAMES[g])]


@pytest.mark.parametrize("game", CHECKPOINTED)
def test_a_game_rebuilt_from_every_safe_point_equals_the_game(game: str) -> None:
    """The checkpoint consistency check (ancients_kit.checkpoints.verify) for every installed
    game that keeps checkpoints: its first scenario, random bots, a copy at every safe point;
    each rebuilt game logs byte for byte and holds the state the game held there."""
    g = GAMES[game]
    scenario = g.scenarios(DataStore(g.package))[0].id
    with every_safe_point():
        s = Session(g, scenario, seed=3)
        play_out(s, RandomBot(), max_decisions=1_500)
        assert len(s.checkpoints) >= 3, f"{game} {scenario}: {len(s.checkpoints)} safe points in {len(s.answers)} answers"
        assert verify(s) == len(s.checkpoints)
