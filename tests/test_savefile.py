"""Save files as a hostile user makes them: every damage is a one-line ReplayError
naming the file and the key, the file is never changed by a failed load, and
saves written by SAVE_VERSION 1 code keep loading (issue 13, items 1, 3, 7)."""

from __future__ import annotations

import copy
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ancients_kit import savefile
from ancients_kit.bots import RandomBot
from ancients_kit.errors import InvalidAnswer, ReplayError
from ancients_kit.plugin import OptionSpec
from ancients_kit.files import SaveError, clean_stray_temps, write_atomic
from ancients_kit.savefile import parse_option
from ancients_kit.session import Session

SAVES = Path(__file__).parent / "data" / "saves"


@pytest.fixture
def saved(race_plugin: str, tmp_path: Path) -> Path:
    """A race game six answers in, saved with who plays which side."""
    s = Session.new("race", "short", seed=5)
    bot = RandomBot()
    for _ in range(6):
        s.answer(bot.choose(s, s.decision))
    s.meta["sides"] = {"Red": "human", "Blue": "greedy"}
    return savefile.save(s, tmp_path / "g.json")


def _load_refused(p: Path, *fragments: str) -> str:
    before = p.read_bytes()
    with pytest.raises(ReplayError) as info:
        savefile.load(p)
    msg = str(info.value)
    assert "\n" not in msg and msg.startswith(str(p)), msg
    for f in fragments:
        assert f in msg, msg
    assert p.read_bytes() == before  # a failed load never changes the file
    return msg


# -- saves made by the SAVE_VERSION 1 code before this schema ----------------------


def test_version_1_saves_made_before_the_schema_still_load(race_plugin: str, tmp_path: Path) -> None:
    # Both files were written by the code of commit 4f9ce3d (before the schema); their
    # log_sha256 was re-recorded when roll texts changed (issue 14: dice printed as faces):
    # with the old texts patched back in, the replay gives the digest first recorded.
    s = savefile.load(SAVES / "race-short-v1.json")
    assert s.replay_matches and not s.finished and len(s.answers) == 9
    assert s.options["target"] == 30 and s.meta["sides"] == {"Red": "human", "Blue": "greedy"}
    done = savefile.load(SAVES / "race-short-finished-v1.json")
    assert done.replay_matches and done.finished and done.outcome is not None
    assert done.outcome.winner == "Blue"
    # and what the new code writes is the same format, key for key, with the set-up's digest
    again = json.loads(savefile.save(s, tmp_path / "again.json").read_text())
    assert again.pop("setup_sha256") == s.setup_digest()
    assert again == json.loads((SAVES / "race-short-v1.json").read_text())


# -- the schema: types, unknown and missing keys -------------------------------------


def _set(*path: Any, value: Any) -> Callable[[dict[str, Any]], None]:
    def damage(rec: dict[str, Any]) -> None:
        cur = rec
        for k in path[:-1]:
            cur = cur[k]
        cur[path[-1]] = value

    return damage


def _drop(key: str) -> Callable[[dict[str, Any]], None]:
    return lambda rec: rec.pop(key)


DAMAGE: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("version is true", _set("version", value=True), "save version true is not supported"),
    ("version 2", _set("version", value=2), "save version the number 2"),
    ("format", _set("format", value="other/thing"), "not an ancients-kit save file"),
    ("game a number", _set("game", value=5), "game: expected a string, got the number 5"),
    ("game unknown", _set("game", value="chess"), "game: no game called 'chess'"),
    ("scenario null", _set("scenario", value=None), "scenario: expected a string, got null"),
    ("scenario unknown", _set("scenario", value="long"), "race has no scenario 'long'"),
    ("seed a string", _set("seed", value="5"), "seed: expected a whole number, got the string '5'"),
    ("seed a float", _set("seed", value=5.0), "seed: expected a whole number"),
    ("seed a bool", _set("seed", value=False), "seed: expected a whole number, got false"),
    ("seed 2**70", _set("seed", value=2**70), "seed: expected a seed between"),
    ("options a list", _set("options", value=["target"]), "options: expected an object, got a list"),
    ("option a list", _set("options", "target", value=[1]), "options.target: expected a string, a whole number"),
    ("option a float", _set("options", "target", value=2.5), "options.target: expected a string, a whole number"),
    ("option a bool", _set("options", "target", value=True), "options.target: option 'target' takes a whole number"),
    ("option text", _set("options", "target", value="lots"), "options.target: option 'target' takes a whole number"),
    ("option unknown", _set("options", "speed", value=3), "options.speed: race has no option 'speed'"),
    ("variants an object", _set("variants", value={}), "variants: expected a list, got an object"),
    ("variants strings", _set("variants", value=["x.toml"]), "variants[0]: "),
    ("variant without hash", _set("variants", value=[{"path": "v.toml", "id": "v"}]), "sha256"),
    ("variant bad hash", _set("variants", value=[{"path": "v.toml", "id": "v", "sha256": "abc"}]),
     "variants[0].sha256: expected a sha256 digest"),
    ("answers a string", _set("answers", value="roll"), "answers: expected a list, got the string 'roll'"),
    ("answer a number", _set("answers", 2, value=7), "answers[2]: expected a string, got the number 7"),
    ("answer null", _set("answers", 0, value=None), "answers[0]: expected a string, got null"),
    ("answer empty", _set("answers", 1, value=""), "answers[1]: expected an answer of 1 to"),
    ("answer illegal", _set("answers", 0, value="jump"), "saved answer 1 ('jump') is no longer legal"),
    ("answers too many", _set("answers", value=["roll"] * 100_001), "answers: expected at most 100000 items"),
    ("finished a string", _set("finished", value="no"), "finished: expected true or false"),
    ("outcome a list", _set("outcome", value=[]), "outcome: expected an object, got a list"),
    ("log digest a number", _set("log_sha256", value=0), "log_sha256: expected a string"),
    ("log digest null", _set("log_sha256", value=None), "log_sha256: expected a string, got null"),
    ("log digest short", _set("log_sha256", value="ab12"), "log_sha256: expected a sha256 digest"),
    ("log digest lost", _drop("log_sha256"), "log_sha256: missing required key"),
    ("variant records lost", _drop("variants"), "variants: missing required key"),
    ("answers lost", _drop("answers"), "answers: missing required key"),
    ("options lost", _drop("options"), "options: missing required key"),
    ("meta a list", _set("meta", value=[]), "meta: expected an object, got a list"),
    ("sides a string", _set("meta", "sides", value="Red"), "meta.sides: expected an object"),
    ("side a number", _set("meta", "sides", "Red", value=1), "meta.sides.Red: expected a string, got the number 1"),
    ("side no bot", _set("meta", "sides", "Red", value="deep-blue"), "meta.sides.Red: 'deep-blue' is not a controller"),
    ("side unknown", _set("meta", "sides", "Green", value="random"), "meta.sides: 'Green' is not a side"),
    ("unknown key", _set("cheat", value=1), "unknown key(s): cheat"),
]


@pytest.mark.parametrize(("damage", "expected"), [(d, e) for _, d, e in DAMAGE], ids=[n for n, _, _ in DAMAGE])
def test_damaged_field_is_a_one_line_error_naming_file_and_key(
    saved: Path, damage: Callable[[dict[str, Any]], None], expected: str
) -> None:
    rec = json.loads(saved.read_text())
    damage(rec)
    saved.write_text(json.dumps(rec))
    _load_refused(saved, expected)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b"", "not valid JSON"),
        (b'{"format": "ancients-kit/session", "vers', "not valid JSON"),
        (b'{"format": "\xff\xfe"}', "not UTF-8 text (byte 12 is 0xff)"),
        (b"[1, 2]", "expected a JSON object, got a list"),
        (b'"a save"', "expected a JSON object, got the string"),
        (b"null", "expected a JSON object, got null"),
        (b"[" * 100_000 + b"]" * 100_000, "nested more than"),
        (b'{"meta": ' + b'{"a": ' * 40 + b"1" + b"}" * 41, "nested more than 16 deep"),
        (b'{"seed": NaN}', "NaN is not a number a save may hold"),
        (b'{"seed": 1, "seed": 2}', "key 'seed' appears twice"),
        (b'{"seed": ' + b"9" * 5000 + b"}", "not a save file"),
    ],
    ids=["empty", "truncated", "not-utf8", "list", "string", "null", "deep-lists", "deep-meta", "nan",
         "duplicate-key", "5000-digit-number"],
)
def test_damaged_bytes_are_refused(race_plugin: str, tmp_path: Path, raw: bytes, expected: str) -> None:
    p = tmp_path / "bad.json"
    p.write_bytes(raw)
    _load_refused(p, expected)


def test_truncated_at_every_tenth_byte_is_refused(saved: Path) -> None:
    raw = saved.read_bytes()
    for cut in range(0, len(raw) - 2, 10):
        saved.write_bytes(raw[:cut])
        _load_refused(saved)


def test_too_big_is_refused_before_reading(saved: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(savefile, "MAX_SAVE_BYTES", 200)
    _load_refused(saved, "more than a save file may hold (200 bytes)")


def test_device_fifo_and_directory_refused_without_reading(race_plugin: str, tmp_path: Path) -> None:
    with pytest.raises(ReplayError, match="is a device, not a save file; refused without reading"):
        savefile.load("/dev/zero")
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)  # nobody writes to it: reading would block forever
    with pytest.raises(ReplayError, match="is a FIFO"):
        savefile.load(fifo)
    with pytest.raises(ReplayError, match="is a directory"):
        savefile.load(tmp_path)
    with pytest.raises(ReplayError, match="No such file"):
        savefile.load(tmp_path / "missing.json")
    with pytest.raises(ReplayError, match="NUL byte"):
        savefile.load("a\x00b.json")


def test_from_record_refuses_what_is_not_an_object(race_plugin: str) -> None:
    for rec in ([], "x", 5, None):
        with pytest.raises(ReplayError, match="not an ancients-kit save file"):
            savefile.from_record(rec)  # type: ignore[arg-type]


# -- meaning: options as `new` parses them, digests, variants ---------------------------


def test_option_values_are_taken_only_as_a_save_writes_them(race_plugin: str, tmp_path: Path) -> None:
    """A save records every option as the game holds it (issue 27 item 4): text where the game holds
    a number, or padding, was edited by hand and is refused, naming the option; so is a missing one."""
    p = tmp_path / "done.json"
    rec = json.loads((SAVES / "race-short-finished-v1.json").read_text())
    for edited in (" 30 ", "30"):  # what `--option target=" 30 "` takes on the command line
        rec["options"]["target"] = edited
        p.write_text(json.dumps(rec))
        with pytest.raises(ReplayError, match=r"options\.target: .* is not written as a save records it \(30\)"):
            savefile.load(p)
    rec["options"]["target"] = 30
    p.write_text(json.dumps(rec))
    s = savefile.load(p)
    assert s.options["target"] == 30 and s.replay_matches and s.finished
    rec["options"]["target"] = 100  # another game: its answers no longer end it
    p.write_text(json.dumps(rec))
    with pytest.raises(ReplayError, match="finished: the save says the game is finished"):
        savefile.load(p)
    del rec["options"]["target"]
    p.write_text(json.dumps(rec))
    with pytest.raises(ReplayError, match="options: the save does not give target"):
        savefile.load(p)


def test_parse_option_keeps_json_types_apart() -> None:
    flag = OptionSpec("fortune", False, "")
    number = OptionSpec("turns", 10, "")
    choice = OptionSpec("weather", "fine", "", choices=("fine", "rain"))
    assert parse_option(flag, True) is True and parse_option(flag, "yes") is True and parse_option(flag, "off") is False
    assert parse_option(number, 12) == 12 and parse_option(number, "12") == 12
    assert parse_option(choice, "RAIN") == "rain"
    for spec, bad in [(flag, 1), (flag, 0), (number, True), (number, 1.0), (choice, 3), (choice, False),
                      (flag, "maybe"), (number, "ten"), (choice, "snow")]:
        with pytest.raises(ValueError, match=repr(spec.name)):
            parse_option(spec, bad)


def test_changed_log_digest_loads_but_is_flagged(saved: Path) -> None:
    rec = json.loads(saved.read_text())
    rec["log_sha256"] = "0" * 64
    saved.write_text(json.dumps(rec))
    assert not savefile.load(saved).replay_matches
    rec = json.loads(saved.read_text())
    rec["finished"] = True  # a finished flag its answers do not bear out is refused, not flagged
    rec["log_sha256"] = savefile.load(SAVES / "race-short-v1.json").log.digest()
    saved.write_text(json.dumps(rec))
    with pytest.raises(ReplayError, match="finished: the save says the game is finished"):
        savefile.load(saved)


def _variant(tmp_path: Path, target: int) -> Path:
    v = tmp_path / "v.toml"
    v.write_text(
        f'[meta]\nid = "short-race"\nsource = "variant"\nnote = "test"\n\n[options]\ntarget = {target}\n\n'
        '[replace."race.short"]\ntitle = "Green race"\nsides = ["Green", "Blue"]\ntarget = 20\n'
    )
    return v


def test_variant_records_are_checked(race_plugin: str, tmp_path: Path) -> None:
    v = _variant(tmp_path, 25)
    s = Session.new("race", "short", seed=3, variants=[v])
    s.answer("roll")
    p = savefile.save(s, tmp_path / "g.json")
    assert savefile.load(p).replay_matches
    rec = json.loads(p.read_text())
    # another variant's id under the same path
    rec["variants"][0]["id"] = "other"
    p.write_text(json.dumps(rec))
    _load_refused(p, "variants[0]:", "is variant 'short-race', the save names 'other'")
    # the variant file went away: the save carries its text
    rec["variants"][0]["id"] = "short-race"
    p.write_text(json.dumps(rec))
    v.rename(tmp_path / "gone.toml")
    assert savefile.load(p).replay_matches
    # a save from before saves carried their variants names the file only
    del rec["variants"][0]["text"], rec["variants"][0]["includes"]
    p.write_text(json.dumps(rec))
    _load_refused(p, "variants[0]:", "no such file")
    # ... and that file changed
    _variant(tmp_path, 26)
    _load_refused(p, "is not the variant this game was saved with")


def test_lost_variant_records_are_flagged_loudly(race_plugin: str, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from ancients_kit.cli.main import cli

    s = Session.new("race", "short", seed=3, variants=[_variant(tmp_path, 25)])
    s.answer("hold")
    p = savefile.save(s, tmp_path / "g.json")
    rec = json.loads(p.read_text())
    rec["variants"] = []
    p.write_text(json.dumps(rec))
    _load_refused(p, "the set-up of 'short' is not the one this game was played from")  # Red where Green was
    del rec["setup_sha256"]  # a save from before the set-up digest: loaded, and its log differs
    p.write_text(json.dumps(rec))
    assert not savefile.load(p).replay_matches
    res = CliRunner().invoke(cli, ["replay", str(p), "--check", "--no-map"])
    assert res.exit_code == 2 and "differs from the saved one" in res.output
    res = CliRunner().invoke(cli, ["undo", str(p)])
    assert res.exit_code == 0 and "warning: the rules or data changed" in res.output
    assert "replayed log differs" in res.output


# -- the API refuses non-string answers -------------------------------------------------


@pytest.mark.parametrize("bad", [None, 1, 0, 2.5, True, b"roll", ["roll"], ("roll",), {"roll": 1}, object()],
                         ids=lambda b: type(b).__name__)
def test_answer_refuses_what_is_not_text(race_plugin: str, bad: Any) -> None:
    s = Session.new("race", "short", seed=2)
    s.answer("roll")
    before = (list(s.answers), s.log.digest(), s.decision)
    with pytest.raises(InvalidAnswer, match="an answer must be text"):
        s.answer(bad)
    assert (list(s.answers), s.log.digest(), s.decision) == before


def test_non_text_answers_given_to_new_are_a_replay_error(race_plugin: str) -> None:
    for bad in (5, None, b"roll", ["roll"]):
        with pytest.raises(ReplayError, match="saved answer 2 .*an answer must be text"):
            Session.new("race", "short", seed=2, answers=["roll", bad])  # type: ignore[list-item]
    d = Session.new("race", "short", seed=2).decision
    assert d is not None
    with pytest.raises(InvalidAnswer, match="an answer must be text"):
        d.match(7)  # type: ignore[arg-type]


def test_answer_refuses_a_huge_string(race_plugin: str) -> None:
    s = Session.new("race", "short", seed=2)
    with pytest.raises(InvalidAnswer, match="at most 200 characters"):
        s.answer("roll" * 1000)
    assert s.answers == []


# -- writing: symlinks, stray temp files, bad places ---------------------------------------


def test_save_through_symlink_writes_the_target(saved: Path, tmp_path: Path) -> None:
    link = tmp_path / "link.json"
    link.symlink_to(saved.name)
    s = savefile.load(link)
    s.undo()
    assert savefile.save(s, link) == saved
    assert link.is_symlink() and os.readlink(link) == saved.name
    assert len(json.loads(saved.read_text())["answers"]) == 5
    dangling = tmp_path / "dangling.json"
    dangling.symlink_to(tmp_path / "no-such-folder" / "x.json")
    with pytest.raises(SaveError, match="whose folder does not exist"):
        savefile.save(s, dangling)
    assert dangling.is_symlink()


def test_stray_temp_files_are_cleaned_but_not_a_save_in_progress(saved: Path, tmp_path: Path) -> None:
    import fcntl

    stray = [tmp_path / ".g.json.k1ll3d_1.tmp", tmp_path / ".g.json.abcdefgh.tmp"]
    for p in stray:
        p.write_text("{half a sav")
    busy = tmp_path / ".g.json.writing.tmp"
    busy.write_text("{")
    other = [tmp_path / ".other.json.x1.tmp", tmp_path / "g.json.tmp"]
    for p in other:
        p.write_text("keep")
    with open(busy, "rb") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)  # as a save being written right now holds it
        savefile.save(savefile.load(saved), saved)
        assert busy.exists()
    assert not any(p.exists() for p in stray)
    assert all(p.exists() for p in other)
    assert clean_stray_temps(saved) == [busy.name]


@pytest.mark.parametrize(
    ("where", "expected"),
    [
        (lambda t: t, "it is a directory"),
        (lambda t: t / ("x" * 300 + ".json"), "the name is too long"),
        (lambda t: Path(str(t) + "/a\x00b.json"), "NUL byte"),
        (lambda t: t / "g.json" / "inside.json", "cannot write"),
    ],
    ids=["directory", "long-name", "nul", "under-a-file"],
)
def test_unwritable_save_is_a_one_line_save_error(saved: Path, tmp_path: Path,
                                                  where: Callable[[Path], Path], expected: str) -> None:
    before = saved.read_bytes()
    listing = sorted(os.listdir(tmp_path))
    with pytest.raises(SaveError) as info:
        savefile.save(savefile.load(saved), where(tmp_path))
    assert expected in str(info.value) and "\n" not in str(info.value)
    assert isinstance(info.value, OSError)  # callers catching OSError keep working
    assert saved.read_bytes() == before and sorted(os.listdir(tmp_path)) == listing


def test_never_renamed_over_a_device_or_fifo(saved: Path, tmp_path: Path) -> None:
    import stat

    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    link = tmp_path / "null.json"
    link.symlink_to("/dev/null")
    s = savefile.load(saved)
    for target in (Path("/dev/null"), fifo, link):
        with pytest.raises(SaveError, match="is a (device|FIFO), not a save file; refused without reading or writing"):
            savefile.save(s, target)
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode) and stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert not [n for n in os.listdir("/dev") if n.startswith(".null.")]


@pytest.mark.skipif(os.geteuid() == 0 if hasattr(os, "geteuid") else True, reason="root writes anywhere")
def test_read_only_folder(saved: Path, tmp_path: Path) -> None:
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        with pytest.raises(SaveError, match="Permission denied"):
            savefile.save(savefile.load(saved), ro / "g.json")
    finally:
        ro.chmod(0o700)


def test_read_only_save_is_never_rewritten(saved: Path) -> None:
    saved.chmod(0o444)
    before = saved.read_bytes()
    s = savefile.load(saved)
    s.undo()
    with pytest.raises(SaveError, match="it is read-only"):
        savefile.save(s, saved)
    assert saved.read_bytes() == before


def test_save_keeps_the_file_mode(saved: Path) -> None:
    saved.chmod(0o640)
    savefile.save(savefile.load(saved), saved)
    assert saved.stat().st_mode & 0o777 == 0o640


def test_write_atomic_leaves_no_temp_behind_on_failure(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = tmp_path / "x.json"
    p.write_text("old")

    def broken(src: Any, dst: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(savefile.os, "replace", broken)
    with pytest.raises(SaveError, match="No space left on device"):
        write_atomic(p, "new")
    assert p.read_text() == "old" and os.listdir(tmp_path) == ["x.json"]


def test_fixture_files_are_what_the_old_code_wrote() -> None:
    # Guard against someone "fixing" the fixtures: they must stay version 1 records.
    for name in ("race-short-v1.json", "race-short-finished-v1.json"):
        rec = json.loads((SAVES / name).read_text())
        assert rec["version"] == 1 and set(rec) == {
            "format", "version", "game", "scenario", "seed", "options", "variants", "answers", "finished",
            "outcome", "log_sha256", "meta",
        }


def test_deepcopy_of_record_round_trips(saved: Path) -> None:
    rec = json.loads(saved.read_text())
    s = savefile.from_record(copy.deepcopy(rec), where="mem")
    assert savefile.to_record(s) == rec
    shutil.copy(saved, saved.with_name("copy.json"))
    assert savefile.load(saved.with_name("copy.json")).replay_matches


def test_messages_stay_on_one_line_whatever_the_file_holds(saved: Path) -> None:
    # found by the long fuzzing profile: a key "\n" printed raw split the message
    rec = json.loads(saved.read_text())
    rec["\n"] = None
    saved.write_text(json.dumps(rec))
    msg = _load_refused(saved, "unknown key(s): \\n")
    rec = json.loads(saved.read_text())
    del rec["\n"]
    rec["answers"][0] = "ro\nll\x1b[2J"
    saved.write_text(json.dumps(rec))
    _load_refused(saved, "no longer legal")
    assert msg.isprintable()


def test_record_in_memory_nested_too_deep_or_cyclic(saved: Path) -> None:
    rec = json.loads(saved.read_text())
    deep: dict[str, Any] = {}
    cur = deep
    for _ in range(50):
        cur["x"] = {}
        cur = cur["x"]
    rec["meta"]["notes"] = deep
    with pytest.raises(ReplayError, match="nested more than 16 deep"):
        savefile.from_record(rec, where="mem")
    cyclic: dict[str, Any] = {}
    cyclic["self"] = cyclic
    rec["meta"]["notes"] = cyclic
    with pytest.raises(ReplayError, match="nested more than 16 deep"):
        savefile.from_record(rec, where="mem")


def test_a_variant_option_the_save_does_not_record_is_checked_too(race_plugin: str, tmp_path: Path) -> None:
    v = tmp_path / "v.toml"
    v.write_text('[meta]\nid = "odd"\nsource = "variant"\nnote = "test"\n\n[options]\ntarget = "lots"\n')
    from ancients_kit.data import Variant

    var = Variant.from_file(v)
    p = tmp_path / "g.json"
    rec = json.loads((SAVES / "race-short-v1.json").read_text())
    rec["options"] = {}
    rec["variants"] = [{"path": str(v), "id": "odd", "sha256": var.digest}]
    p.write_text(json.dumps(rec))
    msg = _load_refused(p)
    assert f"variants[0]: {v}: options.target: option 'target' takes a whole number, not 'lots'" in msg


def test_a_save_names_its_game_and_answers_exactly(saved: Path, tmp_path: Path) -> None:
    """A prefix finds a game on the command line, and the session takes an answer padded or in
    another case; a save holds neither (issue 27 item 4): both are refused, naming what it should say."""
    rec = json.loads(saved.read_text())
    p = tmp_path / "edited.json"
    rec["game"] = "rac"
    p.write_text(json.dumps(rec))
    with pytest.raises(ReplayError, match=r"game: 'rac' is not a game's id .*'race'\?"):
        savefile.load(p)
    rec = json.loads(saved.read_text())
    first = rec["answers"][0]
    for edited in (f" {first} ", first.upper()):
        rec["answers"][0] = edited
        p.write_text(json.dumps(rec))
        with pytest.raises(ReplayError, match=rf"answers\[0\]: {edited!r} is not written as the game records"):
            savefile.load(p)
    assert savefile.load(saved).answers[0] == first  # the save as written loads


def test_option_numbers_beyond_64_bits_are_refused(saved: Path, tmp_path: Path) -> None:
    rec = json.loads(saved.read_text())
    p = tmp_path / "huge.json"
    p.write_text(json.dumps(rec).replace('"target": 0', '"target": 1' + "0" * 400))
    with pytest.raises(ReplayError, match="options.target: expected a whole number between -2\\*\\*63 and 2\\*\\*63"):
        savefile.load(p)


def test_whole_number_options_have_bounds() -> None:
    """LDF's action_limit of -3 or 10**4000 and C&C's negative turn_limit were taken (issue 27)."""
    for game, scenario, name in (("ldf", "campaign", "action_limit"), ("ccancients_rome", "tigranocerte", "turn_limit")):
        for bad in ("-3", "1" + "0" * 4000, -1):
            with pytest.raises((ValueError, InvalidAnswer), match=repr(name)):
                Session.new(game, scenario, seed=1, options={name: bad})
    assert Session.new("ldf", "campaign", seed=1, options={"action_limit": "400"}).options["action_limit"] == 400
    spec = OptionSpec("turns", 10, "", bounds=(1, 20))
    assert spec.parse(" 20 ") == 20 and spec.check(1) == 1
    for bad in ("0", "21", "x" * 50):
        with pytest.raises(ValueError, match="'turns'"):
            spec.parse(bad)


# -- the set-up a save was played from ------------------------------------------------------


def test_a_scenario_changed_by_hand_is_refused_before_it_is_played_on(tmp_path: Path) -> None:
    """Cyrus' Revolt's first answers are legal in The King's War too: the save
    passed with a warning (issue 27 item 4). Its set-up digest tells them apart."""
    from ancients_kit.bots import make_bot

    s = Session.new("xenophon", "cyrus-revolt", seed=1)
    bot = make_bot("greedy")
    for _ in range(4):
        s.answer(bot.choose(s, s.decision))
    p = savefile.save(s, tmp_path / "g.json")
    rec = json.loads(p.read_text())
    assert rec["setup_sha256"] == s.setup_digest() and savefile.load(p).replay_matches
    rec["scenario"] = "kings-war"
    p.write_text(json.dumps(rec))
    _load_refused(p, "scenario: the set-up of 'kings-war' is not the one this game was played from")
    del rec["setup_sha256"]  # a save from before the digest: the full log still tells
    p.write_text(json.dumps(rec))
    assert not savefile.load(p).replay_matches


@pytest.mark.parametrize(("bad", "message"), [
    ("0" * 64, "scenario: the set-up of 'short' is not the one"),
    ("xyz", "setup_sha256: expected a sha256 digest"),
    (5, "setup_sha256: expected a string"),
])
def test_a_wrong_setup_digest_is_refused(saved: Path, bad: Any, message: str) -> None:
    rec = json.loads(saved.read_text())
    rec["setup_sha256"] = bad
    saved.write_text(json.dumps(rec))
    _load_refused(saved, message)
