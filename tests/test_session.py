"""The decision protocol, sessions, save/load/undo/replay and bots, on the test plugin."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ancients_kit import savefile
from ancients_kit.bots import GreedyBot, RandomBot, play_out
from ancients_kit.study import simulate
from ancients_kit.errors import AmbiguousAnswer, IllegalAnswer, InvalidAnswer, ReplayError
from ancients_kit.plugin import find_game, load_games
from ancients_kit.session import Decision, Option, Session


def test_plugin_discovered_through_entry_point(race_plugin: str) -> None:
    games = load_games()
    assert race_plugin in games
    assert games["race"].title.startswith("Pig")
    assert find_game("ra") is games["race"]


def test_unknown_game_names_the_installed_ones(race_plugin: str) -> None:
    with pytest.raises(LookupError, match="no game called 'chess'.*race"):
        find_game("chess")


def test_first_decision_and_answer(race_plugin: str) -> None:
    s = Session.new("race", "short", seed=3)
    d = s.decision
    assert d is not None and d.side == "Red" and d.keys == ("roll", "hold")
    assert d.rule == "race:turn"
    events = s.answer("roll")
    assert events and all(e.rules for e in events)
    assert s.answers == ["roll"]


def test_answers_matched_ignoring_case_but_never_by_a_start(race_plugin: str) -> None:
    s = Session.new("race", "short", seed=3)
    with pytest.raises(AmbiguousAnswer, match="did you mean hold"):
        s.answer("ho")
    assert s.answers == []
    s.answer("HOLD")
    assert s.answers == ["hold"]


def test_bad_answers_explain_and_leave_session_unchanged(race_plugin: str) -> None:
    s = Session.new("race", "short", seed=3)
    before = s.log.digest()
    with pytest.raises(InvalidAnswer):
        s.answer("  ")
    with pytest.raises(IllegalAnswer) as exc:
        s.answer("bank")
    assert exc.value.rule == "race:hold" and "holding" in str(exc.value)
    with pytest.raises(IllegalAnswer, match="race:turn"):
        s.answer("fly")
    assert s.log.digest() == before and s.answers == []


def test_a_start_of_a_key_is_never_taken_silently() -> None:
    d = Decision("A", "pick", (Option("0301"), Option("0302"), Option("NE")), rule="x:y")
    with pytest.raises(AmbiguousAnswer, match="did you mean 0301, 0302"):
        d.match("030")
    with pytest.raises(AmbiguousAnswer, match="did you mean NE"):
        d.match("N")  # a facing that is not offered must not become another one
    refusing = Decision("A", "face", (Option("NE"),), rule="x:y", refuse=lambda t: ("N faces the river", "x:z"))
    with pytest.raises(IllegalAnswer, match="N faces the river; did you mean NE") as exc:
        refusing.match("N")
    assert exc.value.rule == "x:z"
    assert d.match("ne").key == "NE"


def test_unknown_scenario_and_option(race_plugin: str) -> None:
    with pytest.raises(InvalidAnswer, match="no scenario 'long'"):
        Session.new("race", "long")
    with pytest.raises(InvalidAnswer, match="no option 'speed'"):
        Session.new("race", "short", options={"speed": 3})
    s = Session.new("race", "short", options={"target": "5"})
    assert s.state.target == 5


def _play(seed: int) -> Session:
    s = Session.new("race", "short", seed=seed)
    play_out(s, RandomBot())
    return s


def test_determinism_same_seed_same_log(race_plugin: str) -> None:
    a, b = _play(11), _play(11)
    assert a.finished and a.outcome is not None
    assert a.log.text() == b.log.text() and a.log.digest() == b.log.digest()
    assert _play(12).log.digest() != a.log.digest()


def test_save_load_round_trip(race_plugin: str, tmp_path: Path) -> None:
    s = Session.new("race", "short", seed=5)
    for _ in range(7):
        if s.decision is None:
            break
        s.answer(RandomBot().choose(s, s.decision))
    saves = tmp_path / "saves"
    p = savefile.save(s, saves / "g.json")
    rec = json.loads(p.read_text())
    assert rec["answers"] == s.answers and rec["seed"] == 5
    t = savefile.load(p)
    assert t.log.text() == s.log.text() and t.replay_matches
    assert [x.name for x in saves.iterdir()] == ["g.json"]  # no temp files left behind


def test_load_refuses_tampered_answers(race_plugin: str, tmp_path: Path) -> None:
    s = Session.new("race", "short", seed=5)
    s.answer("roll")
    p = savefile.save(s, tmp_path / "g.json")
    rec = json.loads(p.read_text())
    rec["answers"] = ["jump"]
    p.write_text(json.dumps(rec))
    with pytest.raises(ReplayError, match="answer 1 .*'jump'"):
        savefile.load(p)
    p.write_text("{not json")
    with pytest.raises(ReplayError, match="not valid JSON"):
        savefile.load(p)


def test_undo_replays_all_but_last(race_plugin: str) -> None:
    s = Session.new("race", "short", seed=9)
    s.answer("roll")
    snapshot = (s.log.text(), list(s.answers))
    s.answer("hold")
    s.undo()
    assert (s.log.text(), s.answers) == snapshot
    with pytest.raises(IllegalAnswer):
        s.undo(5)


def test_replay_of_finished_game_is_identical(race_plugin: str, tmp_path: Path) -> None:
    s = _play(21)
    savefile.save(s, tmp_path / "done.json")
    t = savefile.load(tmp_path / "done.json")
    assert t.finished and t.outcome == s.outcome and t.log.digest() == s.log.digest()


def test_fork_is_independent(race_plugin: str) -> None:
    s = Session.new("race", "short", seed=2)
    s.answer("roll")
    f = s.fork()
    f.answer("hold")
    assert len(f.answers) == 2 and len(s.answers) == 1


def test_greedy_beats_nothing_worse_than_random(race_plugin: str) -> None:
    s = Session.new("race", "short", seed=4)
    out = play_out(s, {"Red": GreedyBot(), "Blue": RandomBot()})
    assert out is not None and out.winner in ("Red", "Blue")


def test_simulate_tallies(race_plugin: str) -> None:
    game = find_game("race")
    stats = simulate(game, "short", 12, seed=100)
    assert stats.games == 12 and sum(stats.wins.values()) + stats.unfinished == 12
    assert stats.mean_decisions > 0


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**40), cut=st.integers(0, 30))
def test_any_prefix_replays_exactly(seed: int, cut: int) -> None:
    # The plugin is installed once for the whole property run.
    import sys

    from pathlib import Path

    PLUGINS = Path(__file__).parent / "plugins"
    if str(PLUGINS) not in sys.path:
        sys.path.insert(0, str(PLUGINS))
    from race_game import GAME

    s = Session(GAME, "short", seed=seed)
    play_out(s, RandomBot(), max_decisions=cut)
    t = Session(GAME, "short", seed=seed, answers=s.answers)
    assert t.log.text() == s.log.text() and t.decision == s.decision
