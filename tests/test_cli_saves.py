"""The CLI and save files when things go wrong (issue 13, items 2 and 3): the
in-game ``save PATH`` never ends the game, undo through a symlink rewrites its
target, and every refused command is one line with exit code 2."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from ancients_kit import savefile
from ancients_kit.cli.main import cli


@pytest.fixture
def run(race_plugin: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("ANCIENTS_KIT_SAVES", str(tmp_path / "saves"))
    monkeypatch.delenv("ANCIENTS_DEBUG", raising=False)
    monkeypatch.chdir(tmp_path)  # relative save names land here, not in the checkout
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None):
        return runner.invoke(cli, list(args), input=input, catch_exceptions=False)

    return invoke


def _answers(p: Path) -> list[str]:
    return json.loads(p.read_text())["answers"]


def test_in_game_save_to_a_bad_place_reports_and_plays_on(run, tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    (tmp_path / "afile").write_text("x")
    bad = [
        (str(tmp_path), "it is a directory"),
        ("x" * 300 + ".json", "the name is too long"),
        ("a\x00b.json", "NUL byte"),
        (str(tmp_path / "afile" / "copy.json"), "cannot write"),
        ("/".join(["abcdefgh"] * 600), "cannot write"),
    ]
    lines = [f"save {p}" for p, _ in bad] + ["roll", f"save {tmp_path / 'copy.json'}", "quit"]
    res = run("new", "race", "short", "--seed", "4", "--save", str(save), "--no-map", input="\n".join(lines) + "\n")
    assert res.exit_code == 0, res.output
    refused = [ln for ln in res.output.splitlines() if "not saved:" in ln]
    assert len(refused) == len(bad)
    for line, (_, why) in zip(refused, bad, strict=True):
        assert why in line
    assert "roll" in _answers(save)  # the game went on after every refusal
    assert _answers(tmp_path / "copy.json") == _answers(save)


def test_undo_through_a_symlink_rewrites_the_target(run, tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    run("new", "race", "short", "--seed", "4", "--save", str(save), "--no-map", input="roll\nroll\nquit\n")
    link = tmp_path / "link.json"
    link.symlink_to("g.json")
    n = len(_answers(save))
    res = run("undo", str(link))
    assert res.exit_code == 0, res.output
    assert link.is_symlink() and os.readlink(link) == "g.json"
    assert len(_answers(save)) == n - 1


def test_stray_temp_files_go_on_the_next_save(run, tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    run("new", "race", "short", "--seed", "4", "--save", str(save), "--no-map", "--stop-after", "0")
    stray = tmp_path / ".g.json.q7x_k2mz.tmp"  # what a save killed mid-write leaves
    stray.write_text('{"format": "ancients-ki')
    res = run("play", str(save), "--no-map", input="roll\nquit\n")
    assert res.exit_code == 0 and not stray.exists()


@pytest.mark.parametrize(
    ("content", "command", "expected"),
    [
        (b"", "play", "not valid JSON"),
        (b"[]", "undo", "expected a JSON object"),
        (b'{"format": "ancients-kit/session", "version": 1}', "replay", "missing required key"),
        (b"\xff\xfe\x00", "play", "not UTF-8"),
    ],
)
def test_bad_save_is_one_line_exit_2_and_untouched(run, tmp_path: Path, content: bytes, command: str,
                                                   expected: str) -> None:
    (tmp_path / "here").mkdir()
    p = tmp_path / "here" / "bad.json"
    p.write_bytes(content)
    res = run(command, str(p), *(("--no-map",) if command != "undo" else ()), input="quit\n")
    assert res.exit_code == 2
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and expected in lines[0], res.output
    assert p.read_bytes() == content
    assert os.listdir(p.parent) == ["bad.json"]  # no lock or temporary file left behind


def test_devices_and_fifos_are_refused_not_read(run, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    for target in ("/dev/zero", str(fifo)):
        for command in ("play", "undo", "replay"):
            res = run(command, target)
            assert res.exit_code == 2 and "not a save file; refused without reading" in res.output, res.output


def test_bad_sides_in_a_save_are_refused_before_play(run, tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    run("new", "race", "short", "--seed", "4", "--save", str(save), "--no-map", "--stop-after", "0")
    rec = json.loads(save.read_text())
    rec["meta"]["sides"]["Blue"] = "alphago"
    save.write_text(json.dumps(rec))
    res = run("play", str(save), "--no-map", input="quit\n")
    assert res.exit_code == 2 and "meta.sides.Blue: 'alphago' is not a controller" in res.output


def test_unicode_digits_are_not_option_numbers(run, tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    res = run("new", "race", "short", "--seed", "4", "--save", str(save), "--no-map", input="²\n٣\nquit\n")
    assert res.exit_code == 0 and "internal error" not in res.output
    assert _answers(save) == []


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("demo", "race", "short", "--delay", "-1"), "'--delay': -1.0 is not in the range"),
        (("simulate", "race", "short", "-n", "1", "-o", "target=lots"), "option 'target' takes a whole number"),
        (("new", "race", "short", "--variant", "/dev/zero"), "/dev/zero: is a device, not a variant file"),
        (("simulate", "race", "short", "-n", "1", "--variant", "/dev/zero"), "is a device, not a variant file"),
        (("replay", str(Path(__file__).parent / "data" / "saves" / "race-short-v1.json"), "--follow", "--json"),
         "does not combine with --json"),
    ],
    ids=["negative-delay", "simulate-bad-option", "variant-device", "simulate-variant-device", "follow-json"],
)
def test_bad_arguments_are_exit_2_not_internal_errors(run, args: tuple[str, ...], expected: str) -> None:
    res = run(*args, input="quit\n")
    assert res.exit_code == 2 and expected in res.output and "internal error" not in res.output, res.output


def test_replay_viewer_must_be_a_side(run, tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    run("new", "race", "short", "--seed", "4", "--save", str(save), "--no-map", input="roll\nquit\n")
    res = run("replay", str(save), "--viewer", "nobody", "--no-map")
    assert res.exit_code == 2 and "--viewer 'nobody' is not a side of this game (sides: Red, Blue)" in res.output
    assert run("replay", str(save), "--viewer", "red", "--no-map").exit_code == 0


def test_save_with_a_device_as_variant_is_refused_unread(run, tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    run("new", "race", "short", "--seed", "4", "--save", str(save), "--no-map", "--stop-after", "0")
    rec = json.loads(save.read_text())
    rec["variants"] = [{"path": "/dev/zero", "id": "v", "sha256": "0" * 64}]
    save.write_text(json.dumps(rec))
    res = run("replay", str(save), "--no-map")
    assert res.exit_code == 2 and "variants[0]: /dev/zero: is a device, not a variant file" in res.output


def test_new_never_overwrites_a_game_in_progress_or_another_file(run, tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    run("new", "race", "short", "--seed", "4", "--save", str(save), "--no-map", input="roll\nquit\n")
    before = save.read_bytes()
    res = run("new", "race", "short", "--seed", "5", "--save", str(save), "--no-map", "--stop-after", "0")
    assert res.exit_code == 2 and "holds a game in progress (1 answers)" in res.output
    assert save.read_bytes() == before
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    res = run("new", "race", "short", "--save", str(notes), "--no-map", "--stop-after", "0")
    assert res.exit_code == 2 and "not overwriting it with a new game" in res.output
    assert notes.read_text() == "my notes"
    # a finished game, or one without answers, may be started over
    done = tmp_path / "done.json"
    assert run("new", "race", "short", "--bots", "--seed", "4", "--save", str(done), "--no-map").exit_code == 0
    assert run("new", "race", "short", "--bots", "--seed", "6", "--save", str(done), "--no-map").exit_code == 0
    assert json.loads(done.read_text())["seed"] == 6
    fresh = tmp_path / "fresh.json"
    assert run("new", "race", "short", "--save", str(fresh), "--no-map", "--stop-after", "0").exit_code == 0
    assert run("new", "race", "short", "--save", str(fresh), "--no-map", "--stop-after", "0").exit_code == 0


def test_in_game_copy_never_overwrites_another_game(run, tmp_path: Path) -> None:
    other = tmp_path / "other.json"
    run("new", "race", "short", "--seed", "9", "--save", str(other), "--no-map", input="roll\nquit\n")
    before = other.read_bytes()
    save, copy = tmp_path / "g.json", tmp_path / "copy.json"
    res = run("new", "race", "short", "--seed", "4", "--save", str(save), "--no-map",
              input=f"save {other}\nroll\nsave {copy}\nhold\nsave {copy}\nquit\n")
    assert res.exit_code == 0, res.output
    assert "not saved:" in res.output and "holds a game in progress" in res.output
    assert other.read_bytes() == before
    # a copy of an earlier point of this same game may be brought up to date
    assert _answers(copy) == _answers(save)[: len(_answers(copy))] and len(_answers(copy)) >= 2


def test_follow_announces_answers_taken_back(race_plugin: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    from ancients_kit.bots import RandomBot
    from ancients_kit.cli import play
    from ancients_kit.session import Session

    save = tmp_path / "g.json"
    s = Session.new("race", "short", seed=4)
    for a in ("roll", "roll", "roll"):
        s.answer(a)
    savefile.save(s, save)
    watched = savefile.load(save)
    taken_back = Session.new("race", "short", seed=4, answers=["roll"])
    finished = Session.new("race", "short", seed=4, answers=["roll"])
    bot = RandomBot()
    while finished.decision is not None:
        finished.answer(bot.choose(finished, finished.decision))
    steps = iter([lambda: None, lambda: savefile.save(taken_back, save), lambda: savefile.save(finished, save)])
    monkeypatch.setattr(play.time, "sleep", lambda _: next(steps)())  # each look at the file finds the next save
    end = play._follow(str(save), watched, None)
    out = capsys.readouterr().out
    assert end.finished and end.log.digest() == finished.log.digest()
    assert "-- answers taken back: the game is at answer 1 again --" in out
    assert finished.log.lines(None)[-1] in out
