"""Every game ends: the bots' progress watch and decision caps, on the looping test plugin.

``tests/plugins/loop_game`` has one scenario per kind of endless play (see its docstring).
A loop is a failing test, not a hang: :class:`~ancients_kit.bots.ProgressWatch` raises
:class:`~ancients_kit.bots.EndlessGame` naming the scenario, the seed and the answer where
the stall began, and ``ancients simulate`` / ``ancients new --bots`` end with that message.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from ancients_kit import savefile
from ancients_kit.bots import EndlessGame, GreedyBot, ProgressWatch, RandomBot, play_out
from ancients_kit.study import simulate
from ancients_kit.cli.main import cli
from ancients_kit.cli.play import PlayLoop
from ancients_kit.session import Session

PLUGINS = Path(__file__).parent / "plugins"
sys.path.insert(0, str(PLUGINS))

from loop_game import GAME  # noqa: E402


def _session(scenario: str, seed: int = 1) -> Session:
    return Session(GAME, scenario, seed=seed)


def test_greedy_bot_in_a_dead_end_is_stopped_with_the_place_of_the_loop() -> None:
    s = _session("dead-end", seed=5)
    with pytest.raises(EndlessGame) as exc:
        play_out(s, GreedyBot())
    e = exc.value
    assert (e.game, e.scenario, e.seed, e.answer) == ("loop", "dead-end", 5, 1)
    msg = str(e)
    assert msg.startswith("loop dead-end (seed 5), from answer 1: no progress: the decision of Red ")
    assert "'turn 1: choose a target, or done' came back unchanged" in msg and "answers A, melee" in msg
    assert len(s.answers) < 60  # caught within a few dozen answers, not after the decision cap
    assert s.answers[:4] == ["A", "melee", "A", "melee"]


def test_an_answer_that_brings_back_the_same_decision_fails_at_once() -> None:
    for bot in (GreedyBot(), RandomBot()):
        s = _session("no-op", seed=2)
        with pytest.raises(EndlessGame, match=r"came back unchanged after the answer 'wait', which logged nothing"):
            play_out(s, bot)
        assert s.answers[-1] == "wait"
        assert s.answers.count("wait") == 1


def test_a_forced_cycle_fails_after_three_rounds_for_any_bot() -> None:
    for bot in (GreedyBot(), RandomBot()):
        s = _session("forced")
        with pytest.raises(EndlessGame, match="came back unchanged 3 times after the answers on, back"):
            play_out(s, bot)
        assert len(s.answers) == 6


def test_a_long_quiet_run_fails() -> None:
    s = _session("quiet")
    with pytest.raises(EndlessGame, match="no progress: 50 answers without any event"):
        play_out(s, GreedyBot(), watch=ProgressWatch(quiet=50))
    assert len(s.answers) == 50


def test_a_game_that_logs_but_never_ends_meets_the_decision_cap() -> None:
    s = _session("chatty")
    assert play_out(s, GreedyBot(), max_decisions=300) is None and len(s.answers) == 300
    with pytest.raises(EndlessGame, match=r"loop chatty \(seed 3\), answer 300: the game did not end within 300"):
        simulate(GAME, "chatty", 2, bots="greedy", seed=3, max_decisions=300)
    stats = simulate(GAME, "chatty", 2, bots="greedy", seed=3, max_decisions=300, strict=False)
    assert stats.unfinished == 2


def test_without_the_watch_the_dead_end_runs_to_the_cap() -> None:
    s = _session("dead-end")
    assert play_out(s, GreedyBot(), max_decisions=500, check_progress=False) is None
    assert len(s.answers) == 500


@pytest.mark.parametrize("scenario", ["dead-end", "quiet", "chatty", "take-backs"])
def test_random_bots_escape_loops_that_have_a_way_out(scenario: str) -> None:
    for seed in range(40):
        assert play_out(_session(scenario, seed), RandomBot()) is not None


def test_take_backs_are_not_a_loop_but_repetition_alone_would_say_so() -> None:
    """A random bot choosing a unit and then ``back`` repeats short cycles by chance; the
    watch's chance test keeps that from being called a loop. Without it (``improbable=1``:
    any third repetition is a loop) some of these same games would be stopped."""
    strict = 0
    for seed in range(150):
        s = _session("take-backs", seed)
        assert play_out(s, RandomBot()) is not None
        try:
            play_out(_session("take-backs", seed), RandomBot(), watch=ProgressWatch(improbable=1.0))
        except EndlessGame:
            strict += 1
    assert strict > 0
    assert play_out(_session("take-backs"), GreedyBot()) is not None


# -- the command line ---------------------------------------------------------


@pytest.fixture
def loop_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Install the looping test game through a real entry point, as the race plugin is."""
    dist = tmp_path / "loop_game_plugin-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: loop-game-plugin\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[ancients_kit.games]\nloop = loop_game:GAME\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("ANCIENTS_KIT_SAVES", str(tmp_path / "saves"))
    yield "loop"


def test_simulate_reports_a_loop_with_scenario_seed_and_answer(loop_plugin: str) -> None:
    res = CliRunner().invoke(cli, ["simulate", "loop", "dead-end", "--bot", "greedy", "-n", "3", "--seed", "4"])
    assert res.exit_code == 2, res.output
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and "loop dead-end (seed 4), from answer 1: no progress" in lines[0]


def test_simulate_reports_the_decision_cap(loop_plugin: str) -> None:
    res = CliRunner().invoke(cli, ["simulate", "loop", "chatty", "--bot", "greedy", "-n", "1", "--max-decisions", "99"])
    assert res.exit_code == 2 and "loop chatty (seed 1), answer 99: the game did not end within 99" in res.output


def test_new_with_bots_stops_a_loop_and_keeps_the_save(loop_plugin: str, tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    res = CliRunner().invoke(cli, ["new", "loop", "dead-end", "--bots", "--seed", "1", "--no-map", "--save", str(save)])
    assert res.exit_code == 2, res.output
    assert "loop dead-end (seed 1), from answer 1: no progress" in res.output
    assert f"saved in {save}" in res.output.replace("\n", "")
    assert savefile.load(save).answers[:2] == ["A", "melee"]


def test_play_loop_caps_bot_answers_in_a_row(loop_plugin: str, tmp_path: Path) -> None:
    from ancients_kit.cli import ui

    s = _session("chatty")
    loop = PlayLoop(s, {"Red": "greedy", "Blue": "greedy"}, tmp_path / "c.json", show_map=False, max_bot_answers=40)
    with pytest.raises(ui.UsageProblem, match=r"loop chatty \(seed 1\), answer 40: bots gave 40 answers in a row"):
        loop.run()
    assert len(savefile.load(tmp_path / "c.json").answers) == 40
