"""One writer per game, with two real processes (issue 13, item 4).

Before the lock, two ``ancients play`` of one save each wrote their own answers
and the later writer silently dropped the other's. Now the second is refused,
naming the first; a writer that ignores the lock is caught before its answers
are overwritten; a killed player leaves no lock behind that matters.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ancients_kit import savefile
from ancients_kit.files import SaveLocked, lock_path
from ancients_kit.savefile import SaveSlot
from ancients_kit.session import Session

from .conftest import PLUGINS

WAIT = 120.0
"""Generous: the machine running the suite may be busy (this is no timing test)."""


def _env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    # the race_plugin fixture put its dist-info into tmp_path
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(PLUGINS), env.get("PYTHONPATH", "")])
    env["ANCIENTS_KIT_SAVES"] = str(tmp_path / "saves")
    env.pop("ANCIENTS_DEBUG", None)
    return env


def _cmd(*args: str) -> list[str]:
    return [sys.executable, "-c", "from ancients_kit.cli.main import main; main()", *args]


def _run(tmp_path: Path, *args: str, input: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(_cmd(*args), env=_env(tmp_path), input=input, capture_output=True, text=True,
                          timeout=WAIT, cwd=tmp_path)


def _start_player(tmp_path: Path, save: Path) -> subprocess.Popen[str]:
    """`ancients play SAVE` waiting at the human's prompt, holding the lock."""
    p = subprocess.Popen(_cmd("play", str(save), "--no-map"), env=_env(tmp_path), stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    deadline = time.monotonic() + WAIT
    lp = lock_path(save)
    while time.monotonic() < deadline:
        try:
            if json.loads(lp.read_text())["pid"] == p.pid:
                return p
        except (OSError, ValueError, KeyError):
            pass
        if p.poll() is not None:
            raise AssertionError(f"player ended early: {p.communicate()}")
        time.sleep(0.05)
    p.kill()
    raise AssertionError("the player never took the lock")


def _wait_for(p: subprocess.Popen[str], text: str) -> str:
    """Block until ``p`` has printed ``text``; returns what it printed so far."""
    import selectors

    assert p.stdout is not None
    sel = selectors.DefaultSelector()
    sel.register(p.stdout, selectors.EVENT_READ)
    seen = ""
    deadline = time.monotonic() + WAIT
    while text not in seen:
        if time.monotonic() > deadline or p.poll() is not None:
            p.kill()
            raise AssertionError(f"never printed {text!r}: {seen[-500:]!r}")
        if sel.select(timeout=0.5):
            seen += os.read(p.stdout.fileno(), 4096).decode("utf-8", "replace")
    sel.close()
    return seen


def _wait_for_prompt(p: subprocess.Popen[str]) -> None:
    """Block until the player has loaded the game and asks its first question."""
    _wait_for(p, "roll or hold")


@pytest.fixture
def save(race_plugin: str, tmp_path: Path) -> Path:
    path = tmp_path / "g.json"
    res = _run(tmp_path, "new", "race", "short", "--seed", "4", "--save", str(path), "--no-map", "--stop-after", "0")
    assert res.returncode == 0, res.stderr
    return path


def _answers(path: Path) -> list[str]:
    return json.loads(path.read_text())["answers"]


def test_second_player_is_refused_naming_the_first(save: Path, tmp_path: Path) -> None:
    first = _start_player(tmp_path, save)
    try:
        for args in (("play", str(save), "--no-map"), ("undo", str(save)),
                     ("new", "race", "short", "--seed", "9", "--save", str(save), "--no-map", "--stop-after", "0")):
            res = _run(tmp_path, *args, input="hold\nquit\n")
            assert res.returncode == 2, (args, res.stdout, res.stderr)
            lines = res.stderr.strip().splitlines()
            assert len(lines) == 1 and f"is being played by process {first.pid}" in lines[0], res.stderr
        watch = _run(tmp_path, "replay", str(save), "--no-map")  # watching is always allowed
        assert watch.returncode == 0, watch.stderr
        assert _answers(save) == []  # nobody else wrote
        out, err = first.communicate("roll\nquit\n", timeout=WAIT)
    finally:
        if first.poll() is None:
            first.kill()
    assert first.returncode == 0, err
    assert _answers(save) == ["roll"]  # the first player's answer is kept
    assert not lock_path(save).exists()
    then = _run(tmp_path, "play", str(save), "--no-map", input="hold\nquit\n")  # now free
    assert then.returncode == 0, then.stderr
    assert _answers(save)[:2] == ["roll", "hold"]


def test_writer_ignoring_the_lock_is_never_overwritten(save: Path, tmp_path: Path) -> None:
    first = _start_player(tmp_path, save)
    _wait_for_prompt(first)  # it has read the file
    try:
        # Someone writes the file behind the player's back (an old version, an editor ...).
        intruder = Session.new("race", "short", seed=4)
        intruder.answer("hold")
        savefile.save(intruder, save)
        written = save.read_bytes()
        out, err = first.communicate("roll\n", timeout=WAIT)
    finally:
        if first.poll() is None:
            first.kill()
    assert first.returncode == 2, (out, err)
    assert len(err.strip().splitlines()) == 1 and "was changed by another program" in err, err
    assert save.read_bytes() == written  # the other writer's answers are intact
    conflict = tmp_path / f"g.conflict-{first.pid}.json"
    assert conflict.exists() and _answers(conflict) == ["roll"]  # and this player's are kept too
    assert savefile.load(conflict).answers == ["roll"]


def test_killed_player_leaves_no_lock_that_matters(save: Path, tmp_path: Path) -> None:
    first = _start_player(tmp_path, save)
    first.send_signal(signal.SIGKILL)
    first.wait(timeout=WAIT)
    assert lock_path(save).exists()  # the file stays, but its flock died with the process
    res = _run(tmp_path, "play", str(save), "--no-map", input="roll\nquit\n")
    assert res.returncode == 0, res.stderr
    assert _answers(save) == ["roll"]


def test_slot_in_one_process_refuses_a_second_slot(save: Path) -> None:
    a, b = SaveSlot(save), SaveSlot(save)
    link = save.with_name("link.json")
    link.symlink_to(save.name)
    with a.locked():
        with pytest.raises(SaveLocked, match=f"process {os.getpid()}"):
            b.acquire()
        with pytest.raises(SaveLocked):  # the same game under another name
            SaveSlot(link).acquire()
    with b.locked():
        pass


def test_save_killed_before_its_rename_leaves_old_file_and_a_temp_the_next_save_removes(
    save: Path, tmp_path: Path
) -> None:
    before = save.read_bytes()
    child = (
        "import os, signal, sys\n"
        "from ancients_kit import files\n"
        "files.os.replace = lambda *a: os.kill(os.getpid(), signal.SIGKILL)\n"
        "files.write_atomic(sys.argv[1], '{\"half\": ')\n"
    )
    res = subprocess.run([sys.executable, "-c", child, str(save)], env=_env(tmp_path), timeout=WAIT)
    assert res.returncode == -signal.SIGKILL
    assert save.read_bytes() == before  # kill -9 mid-save: the old game is whole
    stray = [n for n in os.listdir(tmp_path) if n.startswith(".g.json.") and n.endswith(".tmp")]
    assert len(stray) == 1
    res = _run(tmp_path, "play", str(save), "--no-map", input="roll\nquit\n")
    assert res.returncode == 0, res.stderr
    assert not [n for n in os.listdir(tmp_path) if n.startswith(".g.json.") and n.endswith(".tmp")]
    assert _answers(save) == ["roll"]


def test_a_watcher_follows_the_game_being_played_to_its_end(save: Path, tmp_path: Path) -> None:
    watcher = subprocess.Popen(_cmd("replay", str(save), "--follow", "--no-map"), env=_env(tmp_path),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        seen = _wait_for(watcher, "Turn 1: Red")  # it has read the game as it stands
        # the player now plays the game out (bots on both sides), saving after every answer
        player = _run(tmp_path, "play", str(save), "--side", "Red=greedy", "--no-map")
        assert player.returncode == 0, player.stderr
        out, err = watcher.communicate(timeout=WAIT)
    finally:
        if watcher.poll() is None:
            watcher.kill()
    assert watcher.returncode == 0, err
    followed = (seen + out).splitlines()
    full = _run(tmp_path, "replay", str(save), "--no-map").stdout.splitlines()
    assert savefile.load(save).finished
    # every event, in order, once (a watcher between two saves sees the later one whole)
    assert followed == full
