"""The ``ancients`` command, driven through click's CliRunner on the test plugin."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ancients_kit.cli.main import cli


@pytest.fixture
def run(race_plugin: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("ANCIENTS_KIT_SAVES", str(tmp_path / "saves"))
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None):
        return runner.invoke(cli, list(args), input=input, catch_exceptions=False)

    return invoke


def test_help_lists_every_command(run) -> None:
    res = run("--help")
    assert res.exit_code == 0
    for cmd in ("games", "scenarios", "tables", "rules", "odds", "new", "play", "undo", "replay", "simulate", "demo"):
        assert cmd in res.output


def test_games_json_includes_plugin(run) -> None:
    res = run("games", "--json")
    assert res.exit_code == 0
    assert "race" in [g["id"] for g in json.loads(res.output)]


def test_scenarios_json(run) -> None:
    res = run("scenarios", "race", "--json")
    data = json.loads(res.output)
    assert data[0]["id"] == "short" and data[0]["sides"] == ["Red", "Blue"] and data[0]["source"] == "reconstructed"


def test_unknown_game_is_one_line_not_a_traceback(run) -> None:
    res = run("scenarios", "chess")
    assert res.exit_code == 2
    assert "no game called 'chess'" in res.output and "Traceback" not in res.output


def test_bot_game_save_undo_replay(run, tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    res = run("new", "race", "short", "--bots", "--seed", "4", "--save", str(save), "--no-map")
    assert res.exit_code == 0, res.output
    assert "game over" in res.output
    rec = json.loads(save.read_text())
    assert rec["finished"] and rec["answers"]
    res = run("replay", str(save), "--check", "--no-map")
    assert res.exit_code == 0 and "matches the save" in res.output
    res = run("undo", str(save), "-n", "2")
    assert res.exit_code == 0
    assert len(json.loads(save.read_text())["answers"]) == len(rec["answers"]) - 2


def test_human_turn_errors_then_quit_keeps_game(run, tmp_path: Path) -> None:
    save = tmp_path / "h.json"
    res = run("new", "race", "short", "--hotseat", "--seed", "1", "--save", str(save), "--no-map",
              input="bank\nfly\nroll\nquit\n")
    assert res.exit_code == 0, res.output
    assert "banking happens by holding" in res.output and "race:hold" in res.output
    assert "race:turn" in res.output  # the 'fly' refusal names the rule asking
    assert json.loads(save.read_text())["answers"] == ["roll"]
    # continue the saved game: the answers are kept, end of input saves and exits
    res = run("play", str(save), "--no-map", input="2\n")
    assert res.exit_code == 0, res.output
    assert json.loads(save.read_text())["answers"] == ["roll", "hold"]


def test_undo_in_game_skips_bot_answers(run, tmp_path: Path) -> None:
    save = tmp_path / "u.json"
    res = run("new", "race", "short", "--side", "Blue=random", "--seed", "2", "--save", str(save), "--no-map",
              input="hold\nundo\nquit\n")
    assert res.exit_code == 0, res.output
    assert json.loads(save.read_text())["answers"] == []


def test_bad_option_and_side_messages(run) -> None:
    res = run("new", "race", "short", "-o", "speed=3")
    assert res.exit_code == 2 and "no option 'speed'" in res.output
    res = run("new", "race", "short", "--side", "Green=human")
    assert res.exit_code == 2 and "Red, Blue" in res.output


def test_simulate_with_variant(run, tmp_path: Path) -> None:
    variant = tmp_path / "v.toml"
    variant.write_text(
        '[meta]\nid = "quick"\nsource = "variant"\nnote = "shorter race"\n\n'
        '[replace."race.short"]\ntitle = "Race to five"\nsides = ["Red", "Blue"]\ntarget = 5\n'
    )
    res = run("simulate", "race", "short", "-n", "6", "--variant", str(variant), "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["original"]["games"] == data["variant"]["games"] == 6
    assert data["variant"]["decisions"]["estimate"] < data["original"]["decisions"]["estimate"]


def test_variant_errors_name_file_and_key(run, tmp_path: Path) -> None:
    variant = tmp_path / "bad.toml"
    variant.write_text('[meta]\nid = "bad"\nsource = "variant"\n\n[replace."race.short"]\ntitle = "x"\nsides = ["A"]\ntarget = 5\nspeed = 1\n')
    res = run("scenarios", "race", "--variant", str(variant))
    assert res.exit_code == 2
    assert "bad.toml" in res.output and "speed" in res.output


def test_bot_game_saved_midway_then_continued_matches_straight_run(run, tmp_path: Path) -> None:
    straight, halves = tmp_path / "a.json", tmp_path / "b.json"
    assert run("new", "race", "short", "--bots", "--seed", "8", "--save", str(straight), "--no-map").exit_code == 0
    res = run("new", "race", "short", "--bots", "--seed", "8", "--save", str(halves), "--no-map", "--stop-after", "5")
    assert res.exit_code == 0 and "Stopped after 5 answers" in res.output
    assert len(json.loads(halves.read_text())["answers"]) == 5
    assert run("play", str(halves), "--no-map").exit_code == 0
    a, b = json.loads(straight.read_text()), json.loads(halves.read_text())
    assert a["answers"] == b["answers"] and a["log_sha256"] == b["log_sha256"]
