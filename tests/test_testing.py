"""The shared test kit (ancients_kit.testing): golden playthroughs fail when a file is
missing or differs, and are written only when asked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ancients_kit.bots import RandomBot, play_out
from ancients_kit.plugin import find_game
from ancients_kit.session import Session
from ancients_kit.testing import GOLDEN_UPDATE_VAR, check_golden, golden_record


def _short_game() -> Session:
    s = Session(find_game("ccancients_rome"), "tigranocerte", seed=9, options={"turn_limit": 2})
    play_out(s, RandomBot(), max_decisions=60)
    return s


def test_a_missing_golden_playthrough_fails_naming_how_to_write_it(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(GOLDEN_UPDATE_VAR, raising=False)
    with pytest.raises(AssertionError, match=f"missing: write it with {GOLDEN_UPDATE_VAR}=1"):
        check_golden(_short_game, tmp_path / "short")
    assert not list(tmp_path.iterdir())  # nothing written unless asked


def test_a_golden_playthrough_is_written_when_asked_then_checked(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_GAME_GOLDEN", "1")
    s = check_golden(_short_game, tmp_path / "short", update_var="MY_GAME_GOLDEN")
    rec = json.loads((tmp_path / "short.json").read_text(encoding="utf-8"))
    assert rec == golden_record(s) and rec["seed"] == 9 and rec["answers"] == s.answers
    assert (tmp_path / "short.txt").read_text(encoding="utf-8") == s.log.text()
    monkeypatch.delenv("MY_GAME_GOLDEN")
    check_golden(_short_game, tmp_path / "short")  # unchanged: passes


def test_a_golden_playthrough_fails_on_another_log_or_other_answers(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(GOLDEN_UPDATE_VAR, "1")
    check_golden(_short_game, tmp_path / "short")
    monkeypatch.delenv(GOLDEN_UPDATE_VAR)
    log = tmp_path / "short.txt"
    text = log.read_text(encoding="utf-8")
    log.write_text(text.replace("\n", "\n ", 1), encoding="utf-8")
    with pytest.raises(AssertionError, match="the log differs from the golden playthrough"):
        check_golden(_short_game, tmp_path / "short")
    log.write_text(text, encoding="utf-8")
    record = tmp_path / "short.json"
    rec = json.loads(record.read_text(encoding="utf-8"))
    record.write_text(json.dumps({**rec, "answers": rec["answers"][:-1]}), encoding="utf-8")
    with pytest.raises(AssertionError, match="other answers than the golden playthrough"):
        check_golden(_short_game, tmp_path / "short")
    record.write_text(json.dumps({**rec, "seed": 10}), encoding="utf-8")
    with pytest.raises(AssertionError, match="seed 10"):
        check_golden(_short_game, tmp_path / "short")
    with pytest.raises(AssertionError, match="bytes, over 10: play less"):
        check_golden(_short_game, tmp_path / "short", max_bytes=10)
