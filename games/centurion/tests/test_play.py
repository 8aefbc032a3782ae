"""Every Centurion scenario played to its end by random bots; replay determinism."""

from __future__ import annotations

import pytest

from ancients_kit.bots import GreedyBot, RandomBot, play_out
from ancients_kit.data import DataStore
from ancients_kit.session import Session

from ancients_games.centurion import GAME
from ancients_games.centurion.equipment import load_scenario, scenario_ids

STORE = DataStore("ancients_games.centurion")
SCENARIOS = scenario_ids(STORE)
MAX_DECISIONS = 20_000


@pytest.mark.rule("cen:basic.sequence", "cen:basic.victory", "cen:scenarios")
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_random_bots_finish_every_scenario(scenario):
    s = Session(GAME, scenario, seed=11, options={"version": "scenario"})
    out = play_out(s, RandomBot(), max_decisions=MAX_DECISIONS)
    assert out is not None, f"{scenario} did not finish in {MAX_DECISIONS} decisions"
    assert out.rules and all(r.startswith("cen:") for r in out.rules)
    assert 1 <= out.turn <= load_scenario(STORE, scenario).turns
    # every logged event names the rules it applied
    assert all(e.rules for e in s.log if e.kind not in ("roll",))


@pytest.mark.rule("cen:basic.sequence")
def test_basic_game_of_a_chart_scenario():
    s = Session(GAME, "numidia", seed=3, options={"version": "basic"})
    assert s.state.version == "basic"
    out = play_out(s, RandomBot(), max_decisions=MAX_DECISIONS)
    assert out is not None and "cen:basic.victory" in out.rules


@pytest.mark.rule("cen:basic.sequence", "cen:basic.combat")
def test_greedy_bots_finish_and_fight():
    s = Session(GAME, "basic-servile-war", seed=5)
    out = play_out(s, GreedyBot(), max_decisions=MAX_DECISIONS)
    assert out is not None
    assert any(e.kind == "combat" for e in s.log)


@pytest.mark.rule("cen:basic.sequence")
def test_replay_and_undo_reproduce_the_game():
    s = Session(GAME, "basic-carrhae", seed=9)
    play_out(s, RandomBot(), max_decisions=400)
    again = Session(GAME, "basic-carrhae", seed=9, answers=s.answers)
    assert again.log.digest() == s.log.digest()
    assert again.state.units_snapshot() == s.state.units_snapshot()
    before = list(s.answers)
    s.undo(3)
    assert s.answers == before[:-3]
    fresh = Session(GAME, "basic-carrhae", seed=9, answers=before[:-3])
    assert fresh.state.units_snapshot() == s.state.units_snapshot()


@pytest.mark.rule("cen:scenarios")
def test_every_optional_and_special_rule_is_a_named_option():
    import tomllib
    from pathlib import Path

    index = Path(__file__).resolve().parents[1] / "data" / "rules.index.toml"
    ids = [r["id"] for r in tomllib.loads(index.read_text("utf-8"))["rule"]]
    wanted = [i for i in ids if i.startswith(("cen:opt.", "cen:barb.", "cen:rom."))] + ["cen:full.treachery"]
    covered = {r for spec in GAME.option_specs(STORE, "numidia") for r in spec.rules}
    assert set(wanted) <= covered, sorted(set(wanted) - covered)


def test_rule_index_is_an_exact_copy_of_the_shared_one():
    from pathlib import Path

    here = Path(__file__).resolve().parents[1] / "data" / "rules.index.toml"
    shared = Path(__file__).resolve().parents[4] / "shared" / "rules" / "centurion.index.toml"
    if not shared.exists():
        pytest.skip("shared rule index not available")
    lines = here.read_text("utf-8").splitlines()
    assert lines[0].startswith("# Exact copy")
    assert lines[1:] == shared.read_text("utf-8").splitlines()
    assert len(GAME.rules_index()) == 47


@pytest.mark.rule("cen:full.sequence")
def test_greedy_bots_finish_a_full_simulation_without_forking(monkeypatch):
    def no_fork(self):  # the greedy bot must score options cheaply, never copy the session
        raise AssertionError("GreedyBot forked the session")

    monkeypatch.setattr(Session, "fork", no_fork)
    s = Session(GAME, "gaul", seed=2)
    out = play_out(s, GreedyBot(), max_decisions=MAX_DECISIONS)
    assert out is not None
