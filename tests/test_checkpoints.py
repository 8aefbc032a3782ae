"""Session checkpoints and shared data documents, on small games defined here.

The game is Pig (the race test plugin's rules) with a checkpoint at the start
of every turn, so that undo, fork and a refused answer rebuild from a copy of
the state instead of replaying from the start. Counting calls to ``setup``
shows whether a rebuild replayed the whole game.
"""

from __future__ import annotations

import sys
from collections.abc import Generator
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ancients_kit.chance import Chance
from ancients_kit.checkpoints import restored, same_state, verify
from ancients_kit.data import DataStore, FrozenDict, Meta, Variant
from ancients_kit.errors import IllegalAnswer, ReplayError
from ancients_kit.log import Event, Log
from ancients_kit.plugin import Game, Outcome, ScenarioInfo, supports_checkpoints
from ancients_kit.session import Context, Decision, Option, Session

META = Meta(id="pig.short", source="reconstructed", note="test game")


@attrs.define
class PigState:
    sides: tuple[str, ...] = ("Red", "Blue")
    banked: dict[str, int] = attrs.field(factory=lambda: {"Red": 0, "Blue": 0})
    turn: int = 0
    history: list[int] = attrs.field(factory=list)


class Pig(Game):
    """Roll or hold; a 1 loses the pot; 30 wins. ``cheat`` is refused by the rules
    after they read it (not by the option list), as rules sometimes must."""

    id = "pig"
    title = "Pig with checkpoints"
    package = "pig_checkpoints_test"
    rule_prefix = "pig"

    def __init__(self) -> None:
        self.setups = 0

    def scenarios(self, store: DataStore) -> list[ScenarioInfo]:
        return [ScenarioInfo("short", "Race to thirty", ("Red", "Blue"), META, first="Red")]

    def setup(self, ctx: Context, scenario: str) -> PigState:
        self.setups += 1
        return PigState()

    def play(self, ctx: Context, state: PigState) -> Generator[Decision, str, Outcome]:
        return self._turns(ctx, state)

    def _turns(self, ctx: Context, state: PigState) -> Generator[Decision, str, Outcome]:
        while True:
            side = state.sides[state.turn % 2]
            ctx.checkpoint(("turn", state.turn))
            state.turn += 1
            ctx.event("turn", f"Turn {state.turn}: {side}", "pig:turn", side=side)
            pot = 0
            while True:
                key = yield Decision(side, f"{side}: {pot} at risk", (Option("roll"), Option("hold"), Option("cheat")),
                                     rule="pig:turn")
                if key == "cheat":
                    raise IllegalAnswer("no cheating", answer=key, rule="pig:turn")
                if key == "hold":
                    state.banked[side] += pot
                    ctx.event("hold", f"{side} banks {pot}: {state.banked[side]}", "pig:hold", side=side)
                    break
                value = ctx.chance.d6(f"{side} rolls", ("pig:roll",))
                state.history.append(value)
                if value == 1:
                    ctx.event("bust", f"{side} loses {pot}", "pig:roll", side=side)
                    break
                pot += value
            if state.banked[side] >= 30:
                return Outcome(side, f"{side} wins", rules=("pig:win",), turn=state.turn)

    def copy_state(self, state: PigState) -> PigState:
        return PigState(state.sides, dict(state.banked), state.turn, list(state.history))

    def resume(self, ctx: Context, state: PigState, where: Any) -> Generator[Decision, str, Outcome]:
        return self._turns(ctx, state)


class PigNoCheckpoints(Pig):
    """The same game without the hook: every rebuild replays from the start."""

    id = "pig-replay"
    copy_state = Game.copy_state  # type: ignore[assignment]
    resume = Game.resume  # type: ignore[assignment]


class PigBadResume(Pig):
    """A wrong resume: it skips the checkpoint it should reach first."""

    id = "pig-bad"

    def resume(self, ctx: Context, state: PigState, where: Any) -> Generator[Decision, str, Outcome]:
        state.turn += 1
        return self._turns(ctx, state)


class PigSharedState(Pig):
    """A wrong copy: the history list is shared between copies."""

    id = "pig-shared"

    def copy_state(self, state: PigState) -> PigState:
        return PigState(state.sides, dict(state.banked), state.turn, state.history)


def _play(game: Pig, answers: list[str]) -> Session:
    s = Session(game, "short", seed=5)
    for a in answers:
        if s.finished:
            break
        s.answer(a)
    return s


MOVES = ["roll", "roll", "hold", "roll", "hold", "roll", "roll", "roll", "hold", "hold", "roll", "hold"] * 3


def test_hook_detection() -> None:
    assert supports_checkpoints(Pig())
    assert not supports_checkpoints(PigNoCheckpoints())


def test_checkpoints_taken_at_each_turn_when_every_one_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Session, "checkpoint_spacing", 1)
    s = _play(Pig(), MOVES)
    assert [cp.where for cp in s.checkpoints] == [("turn", i) for i in range(len(s.checkpoints))]
    assert len(s.checkpoints) > 5
    assert verify(s) == len(s.checkpoints)


def test_checkpoints_kept_at_least_spacing_answers_apart_and_the_game_unchanged() -> None:
    sparse = _play(Pig(), MOVES)
    gaps = [b.answers - a.answers for a, b in zip(sparse.checkpoints, sparse.checkpoints[1:])]
    assert gaps and min(gaps) >= Session.checkpoint_spacing
    turns = [cp.where[1] for cp in sparse.checkpoints]
    assert turns == sorted(turns) and turns[0] == 0
    every = Session(Pig(), "short", seed=5)
    every.checkpoint_spacing = 1  # an instance may keep every one too
    for m in sparse.answers:
        every.answer(m)
    assert len(every.checkpoints) > len(sparse.checkpoints)
    assert every.log.digest() == sparse.log.digest()


def test_checkpoints_thin_out_until_a_fork_or_an_undo(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no fork or undo, each gap doubles up to checkpoint_spacing_max; a fork or an
    undo brings the spacing back to checkpoint_spacing. The game is the same either way."""
    monkeypatch.setattr(Session, "checkpoint_spacing", 2)
    monkeypatch.setattr(Session, "checkpoint_spacing_max", 16)
    s = Session(Pig(), "short", seed=5)  # every answer a turn, every turn a safe point
    for _ in range(80):
        s.answer("hold")
    gaps = [b.answers - a.answers for a, b in zip(s.checkpoints, s.checkpoints[1:])]
    assert gaps == [2, 4, 8, 16, 16, 16, 16]
    for then in (lambda: s.fork(), lambda: s.undo()):
        then()
        kept = len(s.checkpoints)
        for _ in range(20):
            s.answer("hold")
        at = [cp.answers for cp in s.checkpoints[kept - 1:]]
        after = [b - a for a, b in zip(at, at[1:])]
        assert after[0] == 2 and after == sorted(after) and after[-1] >= 8, at  # the base spacing, then doubling
    again = Session(Pig(), "short", seed=5, answers=s.answers)
    assert again.log.digest() == s.log.digest() and verify(s) == len(s.checkpoints)


def test_a_fork_keeps_the_checkpoint_nearest_it_for_the_next() -> None:
    s = _play(Pig(), MOVES)
    before = s.checkpoints
    f = s.fork()
    assert f.log.digest() == s.log.digest()
    # the fork passed safe points the game had kept no copy of: the last of them is kept now
    assert s.checkpoints[: len(before)] == before and len(s.checkpoints) == len(before) + 1
    assert s.checkpoints[-1] is f.checkpoints[-1] and s.checkpoints[-1].answers > before[-1].answers
    assert verify(s) == len(s.checkpoints)
    g = s.fork()
    assert len(s.checkpoints) == len(before) + 1 and g.log.digest() == s.log.digest()


def test_undo_does_not_replay_from_the_start() -> None:
    game = Pig()
    s = _play(game, MOVES)
    setups = game.setups
    s.undo(3)
    assert game.setups == setups  # rebuilt from a checkpoint, not from setup
    ref = Session(Pig(), "short", seed=5, answers=s.answers)
    assert s.log.text() == ref.log.text() and s.log.digest() == ref.log.digest()
    assert s.decision is not None and ref.decision is not None and s.decision.prompt == ref.decision.prompt


def test_fork_is_independent_and_shares_only_checkpoints() -> None:
    game = Pig()
    s = _play(game, MOVES[:10])
    before = s.log.text()
    setups = game.setups
    f = s.fork()
    assert game.setups == setups
    assert f.log.text() == before and f.answers == s.answers and f.asked == s.asked
    assert f.state is not s.state and f.state.history is not s.state.history
    f.answer("roll")
    f.answer("roll")
    assert s.log.text() == before and len(s.answers) == 10
    assert s.state.history != f.state.history
    # the original goes on exactly as a fresh game would
    s.answer("hold")
    assert s.log.text() == Session(Pig(), "short", seed=5, answers=s.answers).log.text()


def test_refused_answer_is_rolled_back_from_a_checkpoint() -> None:
    game = Pig()
    s = _play(game, MOVES[:7])
    text, answers, setups = s.log.text(), list(s.answers), game.setups
    with pytest.raises(IllegalAnswer, match="no cheating"):
        s.answer("cheat")
    assert game.setups == setups
    assert s.log.text() == text and s.answers == answers
    s.answer("hold")
    assert s.log.text() == Session(Pig(), "short", seed=5, answers=answers + ["hold"]).log.text()


def test_refused_answer_outside_the_options_replays_nothing() -> None:
    game = Pig()
    s = _play(game, MOVES[:7])
    cps, setups = s.checkpoints, game.setups
    with pytest.raises(IllegalAnswer):
        s.answer("fly")
    assert game.setups == setups and s.checkpoints == cps
    assert all(a is b for a, b in zip(s.checkpoints, cps))


def test_game_without_the_hook_keeps_full_replay() -> None:
    game = PigNoCheckpoints()
    s = _play(game, MOVES[:10])
    assert s.checkpoints == ()
    setups = game.setups
    s.undo()
    assert game.setups == setups + 1
    f = s.fork()
    assert game.setups == setups + 2 and f.log.text() == s.log.text()


def test_verify_passes_for_a_right_game_and_names_a_wrong_resume(monkeypatch: pytest.MonkeyPatch) -> None:
    assert verify(_play(Pig(), MOVES)) >= 2
    monkeypatch.setattr(Session, "checkpoint_spacing", 1)
    assert verify(_play(Pig(), MOVES)) > 5
    bad = _play(PigBadResume(), MOVES)
    with pytest.raises(ReplayError, match="reached"):
        bad.undo(2)


def test_verify_finds_a_copy_that_shares_what_the_rules_change() -> None:
    s = _play(PigSharedState(), MOVES)
    with pytest.raises(ReplayError, match="copy_state shares something"):
        verify(s)


def test_restored_session_starts_at_its_checkpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Session, "checkpoint_spacing", 1)
    s = _play(Pig(), MOVES)
    cp = s.checkpoints[2]
    r = restored(s, 2)
    assert len(r.answers) == cp.answers and len(r.log) >= cp.log_length
    assert r.log.lines()[: cp.log_length] == s.log.lines()[: cp.log_length]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["roll", "roll", "hold"]), min_size=1, max_size=60), st.integers(0, 2**32),
       st.integers(1, 20))
def test_property_rebuilt_games_equal_full_replays(moves: list[str], seed: int, back: int) -> None:
    s = Session(Pig(), "short", seed=seed)
    for m in moves:
        if s.finished:
            break
        s.answer(m)
    verify(s)
    f = s.fork()
    assert f.log.digest() == s.log.digest()
    k = min(back, len(s.answers))
    s.undo(k)
    ref = Session(Pig(), "short", seed=seed, answers=s.answers)
    assert s.log.text() == ref.log.text() and s.log.digest() == ref.log.digest()
    assert same_state(s.state, ref.state) is None
    assert f.answers[: len(s.answers)] == s.answers


# -- pieces ------------------------------------------------------------------------


def test_log_copy_is_independent() -> None:
    log = Log()
    log.append(Event("a", "one"))
    log.append(Event("b", "two"))
    head = log.copy(1)
    head.append(Event("c", "three"))
    assert log.lines() == ["one", "two"] and head.lines() == ["one", "three"]
    assert log.copy().lines() == log.lines()


def test_chance_state_round_trip() -> None:
    a = Chance(9)
    a.d6()
    a.force(4)
    state = a.getstate()
    first = (a.d6(), a.d6(), a.two_d6())
    b = Chance(1)
    b.setstate(state)
    assert (b.d6(), b.d6(), b.two_d6()) == first


def test_same_state_reports_the_path() -> None:
    a, b = PigState(), PigState()
    assert same_state(a, b) is None
    b.banked["Blue"] = 3
    assert same_state(a, b) == "state.banked['Blue']: 0 != 3"


# -- shared data documents ---------------------------------------------------------


@pytest.fixture
def race_package(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.syspath_prepend(str(Path(__file__).parent / "plugins"))
    sys.modules.pop("race_game", None)
    return "race_game"


@attrs.frozen
class RaceDoc:
    title: str
    sides: tuple[str, ...]
    target: int
    extra: dict[str, int] = attrs.field(factory=dict)


def test_documents_are_parsed_once_per_process_and_frozen(race_package: str) -> None:
    m1, d1 = DataStore(race_package).load("short.toml", RaceDoc)
    m2, d2 = DataStore(race_package).load("short.toml", RaceDoc)
    assert d1 is d2 and m1 is m2
    assert isinstance(d1.extra, FrozenDict) and isinstance(d1.extra, dict)
    with pytest.raises(TypeError, match="read-only"):
        d1.extra["x"] = 1  # type: ignore[index]
    assert dict(d1.extra) == {}


def test_a_variant_sees_its_own_documents(race_package: str, tmp_path: Path) -> None:
    vfile = tmp_path / "v.toml"
    vfile.write_text('[meta]\nid = "longer"\nsource = "variant"\nnote = "longer race"\n\n'
                     '[replace."race.short"]\ntitle = "Race to forty"\nsides = ["Red", "Blue"]\ntarget = 40\n'
                     '[replace."race.short".extra]\nbonus = 2\n')
    plain = DataStore(race_package).load("short.toml", RaceDoc)[1]
    variant = DataStore(race_package, (Variant.from_file(vfile),))
    meta, doc = variant.load("short.toml", RaceDoc)
    assert doc.target == 40 and meta.source == "variant" and doc.extra == {"bonus": 2}
    assert plain.target == 20
    assert DataStore(race_package, (Variant.from_file(vfile),)).load("short.toml", RaceDoc)[1] is doc
    # a variant built in memory has no content hash: it is never shared
    mem = Variant(path="mem.toml", meta=Meta(id="m", source="variant", note="x"),
                  replace={"race.short": {"title": "T", "sides": ["A", "B"], "target": 7}})
    assert DataStore(race_package, (mem,)).shared_key is None
    assert DataStore(race_package, (mem,)).load("short.toml", RaceDoc)[1].target == 7
