"""Fuzzing saves and answers (issue 13, item 9: the save, answer and CLI half).

Hypothesis damages save files (fields replaced by any JSON, keys dropped or
added, bytes cut, flipped or inserted) and throws garbage answers at the API
and garbage lines at ``ancients play``, and checks only what is promised:

- loading raises nothing but :class:`~ancients_kit.errors.ReplayError`, with a
  one-line message naming the file, and never changes the file;
- a command fails with exit code 2 and one line ``Error: ...``, never an
  internal error, and leaves the file as it was;
- a refused answer is an :class:`~ancients_kit.errors.AnswerError` and leaves
  the session exactly as it was;
- whatever loads or is accepted saves and loads again to the same game.

The default run keeps to a few hundred examples (seconds). The long profile:
``ANCIENTS_FUZZ_EXAMPLES=5000 .venv/bin/python -m pytest tests/test_fuzz_saves.py``,
or ``python -m benchmarks fuzz_saves``.
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ancients_kit import savefile
from ancients_kit.bots import RandomBot
from ancients_kit.cli.main import cli
from ancients_kit.errors import AnswerError, ReplayError
from ancients_kit.session import Session

LONG = int(os.environ.get("ANCIENTS_FUZZ_EXAMPLES", "0"))


def fuzz(examples: int) -> Any:
    """Hypothesis settings: ``examples`` by default, ``$ANCIENTS_FUZZ_EXAMPLES`` in the long profile."""
    return settings(
        max_examples=LONG or examples,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                               HealthCheck.filter_too_much],
    )


json_scalars = (
    st.none() | st.booleans() | st.integers() | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12)
    | st.sampled_from(["roll", "hold", "human", "greedy", "Red", "Blue", "short", "race", "0" * 64, ""])
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every key path in a JSON document (for choosing what to damage)."""
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from _paths(v, (*prefix, i))


@st.composite
def damaged_records(draw: st.DrawFn, rec: dict[str, Any]) -> Any:
    """``rec`` with one to three things wrong with it."""
    out: Any = copy.deepcopy(rec)
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(out) if p]
        op = draw(st.sampled_from(["replace", "drop", "add", "answers", "whole"]))
        if op == "whole" or not paths or not isinstance(out, dict):
            out = draw(json_values)
            continue
        if op == "answers" and isinstance(out.get("answers"), list):
            answers = out["answers"]
            answers[:] = draw(st.lists(st.sampled_from([*answers, "roll", "hold", "ROLL", " hold", "jump"])
                                       | st.lists(json_scalars, max_size=3), max_size=len(answers) + 3))
            continue
        path = draw(st.sampled_from(paths))
        parent: Any = out
        for k in path[:-1]:
            parent = parent[k]
        if op == "replace":
            parent[path[-1]] = draw(json_values)
        elif op == "drop":
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[draw(st.text(min_size=1, max_size=8))] = draw(json_values)
        else:
            parent.insert(draw(st.integers(0, len(parent))), draw(json_values))
    return out


@st.composite
def damaged_bytes(draw: st.DrawFn, raw: bytes) -> bytes:
    """``raw`` cut, with bytes flipped, inserted or removed."""
    data = bytearray(raw)
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["cut", "flip", "insert", "remove"]))
        at = draw(st.integers(0, max(0, len(data) - 1)))
        if op == "cut":
            del data[at:]
        elif op == "flip" and data:
            data[at] = draw(st.integers(0, 255))
        elif op == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=6)
                               | st.sampled_from([b"\xff", b"\x00", b"[[[[", b"NaN", b",", b"}", b'"x":1,']))
        else:
            del data[at:at + draw(st.integers(1, 20))]
    return bytes(data)


@pytest.fixture
def base(race_plugin: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, dict[str, Any]]:
    monkeypatch.chdir(tmp_path)  # a garbage `save NAME` line writes here, not into the checkout
    monkeypatch.setenv("ANCIENTS_KIT_SAVES", str(tmp_path / "saves"))
    s = Session.new("race", "short", seed=5)
    bot = RandomBot()
    for _ in range(8):
        s.answer(bot.choose(s, s.decision))
    s.meta["sides"] = {"Red": "human", "Blue": "greedy"}
    p = savefile.save(s, tmp_path / "base.json")
    return p, json.loads(p.read_text())


def _check_load(p: Path) -> Session | None:
    before = p.read_bytes()
    try:
        s = savefile.load(p)
    except ReplayError as exc:
        msg = str(exc)
        assert msg.isprintable() and msg.startswith(str(p)), msg
        s = None
    assert p.read_bytes() == before
    if s is not None:  # what loads saves and loads again to the same game
        again = savefile.from_record(json.loads(json.dumps(savefile.to_record(s))), where="again")
        assert again.log.digest() == s.log.digest() and again.answers == s.answers
    return s


@fuzz(150)
@given(data=st.data())
def test_damaged_records_load_or_raise_replay_error(base: tuple[Path, dict[str, Any]], tmp_path: Path,
                                                    data: st.DataObject) -> None:
    _, rec = base
    damaged = data.draw(damaged_records(rec))
    p = tmp_path / "damaged.json"
    p.write_text(json.dumps(damaged))
    _check_load(p)
    with pytest.raises(ReplayError) if not isinstance(damaged, dict) else _maybe():
        savefile.from_record(damaged, where="mem")


class _maybe:
    """Either no exception, or a ReplayError."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: Any) -> bool:
        return kind is None or issubclass(kind, ReplayError)


@fuzz(150)
@given(data=st.data())
def test_damaged_bytes_load_or_raise_replay_error(base: tuple[Path, dict[str, Any]], tmp_path: Path,
                                                  data: st.DataObject) -> None:
    p0, _ = base
    p = tmp_path / "damaged.json"
    p.write_bytes(data.draw(damaged_bytes(p0.read_bytes())))
    _check_load(p)


@fuzz(60)
@given(data=st.data(), command=st.sampled_from(["replay", "undo", "play"]))
def test_cli_on_damaged_saves_exits_0_or_2_with_one_line(base: tuple[Path, dict[str, Any]], tmp_path: Path,
                                                         data: st.DataObject, command: str) -> None:
    p0, rec = base
    p = tmp_path / "damaged.json"
    if data.draw(st.booleans()):
        p.write_text(json.dumps(data.draw(damaged_records(rec))))
    else:
        p.write_bytes(data.draw(damaged_bytes(p0.read_bytes())))
    before = p.read_bytes()
    args = {"replay": ["replay", str(p), "--no-map"], "undo": ["undo", str(p)],
            "play": ["play", str(p), "--no-map", "--stop-after", "2"]}[command]
    res = CliRunner().invoke(cli, args, input="hold\nquit\n")
    assert res.exit_code in (0, 2), res.output
    assert "internal error" not in res.output and "Traceback" not in res.output
    if res.exit_code == 2:
        lines = [ln for ln in res.output.splitlines() if ln.startswith("Error: ")]
        assert len(lines) == 1, res.output
        assert p.read_bytes() == before  # a failed command leaves the file as it was
    assert not [n for n in os.listdir(tmp_path) if n.endswith((".tmp", ".lock"))]


garbage_answers = st.one_of(
    st.text(max_size=30),
    st.text(alphabet="rolhdRLHD \t\u00a0\u200b\x00-", max_size=8),
    st.sampled_from(["roll", "hold", "ROLL", " hold ", "r", "h", "bank", "1", "2", "?", "undo", "x" * 500]),
    st.binary(max_size=8), st.integers(), st.floats(), st.none(), st.booleans(),
    st.lists(st.text(max_size=4), max_size=2), st.tuples(st.text(max_size=4)),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


@fuzz(200)
@given(prior=st.integers(0, 12), seed=st.integers(0, 2**40), answers=st.lists(garbage_answers, min_size=1, max_size=6))
def test_garbage_answers_through_the_api(race_plugin: str, prior: int, seed: int, answers: list[Any]) -> None:
    s = Session.new("race", "short", seed=seed)
    bot = RandomBot()
    for _ in range(prior):
        if s.decision is None:
            break
        s.answer(bot.choose(s, s.decision))
    for a in answers:
        d = s.decision
        snapshot = (list(s.answers), list(s.asked), s.log.digest(), d, d.keys if d else None, s.outcome)
        try:
            s.answer(a)
        except AnswerError:
            assert (list(s.answers), list(s.asked), s.log.digest(), s.decision,
                    s.decision.keys if s.decision else None, s.outcome) == snapshot
            continue
        assert d is not None and isinstance(a, str) and s.answers[:-1] == snapshot[0] and s.answers[-1] in d.keys
    again = savefile.from_record(json.loads(json.dumps(savefile.to_record(s))))
    assert again.log.digest() == s.log.digest()


@fuzz(30)
@given(lines=st.lists(st.text(max_size=30).map(lambda t: t.replace("\n", " ").replace("\r", " ")), max_size=12))
def test_garbage_lines_through_play(base: tuple[Path, dict[str, Any]], tmp_path: Path, lines: list[str]) -> None:
    p0, _ = base
    p = tmp_path / "game.json"
    p.write_bytes(p0.read_bytes())
    res = CliRunner().invoke(cli, ["play", str(p), "--no-map"], input="\n".join([*lines, "quit"]) + "\n")
    assert res.exit_code == 0, res.output
    assert "internal error" not in res.output
    s = savefile.load(p)  # whatever was typed, the file holds a game that replays exactly
    assert s.replay_matches


@pytest.fixture(scope="module")
def real_games() -> list[Session]:
    """A position of every installed game, some answers in (the bots pick them)."""
    from ancients_kit.data import DataStore
    from ancients_kit.plugin import load_games

    out = []
    bot = RandomBot()
    for game in load_games().values():
        scen = game.scenarios(DataStore(game.package))[0].id
        s = Session(game, scen, seed=3)
        for _ in range(10):
            if s.decision is None:
                break
            s.answer(bot.choose(s, s.decision))
        out.append(s)
    return out


@fuzz(60)
@given(which=st.integers(0, 50), answer=garbage_answers)
def test_garbage_answers_to_every_installed_game(real_games: list[Session], which: int, answer: Any) -> None:
    s = real_games[which % len(real_games)]
    if s.decision is None:
        return
    snapshot = (list(s.answers), s.log.digest(), s.decision)
    try:
        s.answer(answer)
    except AnswerError:
        assert (list(s.answers), s.log.digest(), s.decision) == snapshot
        return
    assert isinstance(answer, str) and s.answers[-1] in snapshot[2].keys
    s.undo()  # keep the shared position for the next example
    assert (list(s.answers), s.log.digest()) == snapshot[:2]
