"""The search bot (ancients_kit.search) and search copies (Session.fork(reseed=...)), on the Pig test game."""

from __future__ import annotations

import pytest

from ancients_kit import savefile
from ancients_kit.chance import Rng
from ancients_kit.bots import BOTS, RandomBot, make_bot, play_out
from ancients_kit.errors import ReplayError
from ancients_kit.search import DEFAULT_ITERATIONS, ENV_VAR, MCTSBot, search
from ancients_kit.session import Session


def _rolls(s: Session) -> list[tuple[int, ...]]:
    return [e.dice for e in s.log if e.kind == "roll"]


def _played(race: str, answers: int = 3, seed: int = 5) -> Session:
    s = Session.new(race, "short", seed=seed)
    bot = RandomBot()
    for _ in range(answers):
        assert s.decision is not None
        s.answer(bot.choose(s, s.decision))
    return s


@pytest.mark.rule("race:roll")
def test_search_copy_rolls_its_own_dice_and_leaves_the_real_game(race_plugin: str) -> None:
    s = _played(race_plugin)
    before = s.log.digest()
    plain = s.fork()
    a = s.fork(reseed=11)
    b = s.fork(reseed=11)
    c = s.fork(reseed=12)
    assert a.branched == (len(s.answers), 11, None) and plain.branched is None
    assert a.log.digest() == plain.log.digest()  # the past is the real one
    futures = {}
    for name, copy in (("plain", plain), ("a", a), ("b", b), ("c", c)):
        for _ in range(12):
            if copy.decision is None:
                break
            copy.answer("roll")
        futures[name] = _rolls(copy)[len(_rolls(s)):]
    assert futures["a"] == futures["b"]  # same reseed, same dice
    assert futures["a"] != futures["plain"] and futures["a"] != futures["c"]
    assert s.log.digest() == before
    assert Session.new(race_plugin, "short", seed=5, answers=s.answers).log.digest() == before


@pytest.mark.rule("race:roll")
def test_search_copy_keeps_its_dice_through_undo_and_forks(race_plugin: str) -> None:
    s = _played(race_plugin)
    a = s.fork(reseed=3)
    for _ in range(4):
        if a.decision is not None:
            a.answer("roll")
    digest = a.log.digest()
    assert a.fork().log.digest() == digest  # a fork of a search copy is that copy
    n = len(a.answers)
    a.undo(2)
    while len(a.answers) < n:
        a.answer("roll")
    assert a.log.digest() == digest  # undo and play again: the same new dice
    a.undo(len(a.answers) - len(s.answers) + 1)  # back before the branch: the real game
    assert a.branched is None
    assert a.log.digest() == Session.new(race_plugin, "short", seed=5, answers=s.answers[:-1]).log.digest()


def test_search_copy_refuses_to_be_saved_and_viewer_needs_reseed(race_plugin: str) -> None:
    s = _played(race_plugin)
    with pytest.raises(ReplayError, match="cannot be saved"):
        savefile.to_record(s.fork(reseed=1))
    with pytest.raises(ValueError, match="needs reseed"):
        s.fork(viewer="Red")
    with pytest.raises(ValueError, match="not a side"):
        s.fork(reseed=1, viewer="Green")
    s.fork(reseed=1, viewer="Red")  # nothing hidden in Pig: the default determinize


def test_search_answers_legally_and_deterministically(race_plugin: str) -> None:
    s = _played(race_plugin, answers=2)
    assert s.decision is not None
    r1 = search(s, iterations=30)
    r2 = search(s, iterations=30)
    assert r1.answer in s.decision.keys
    assert r1.iterations == 30 and sum(v for v, _ in r1.stats.values()) == 30
    assert (r1.answer, r1.stats) == (r2.answer, r2.stats)
    assert set(r1.stats) <= set(s.decision.keys)


@pytest.mark.rule("race:roll")
def test_search_answer_does_not_depend_on_the_real_future_dice(race_plugin: str) -> None:
    # Pig has no checkpoints: a copy replays from the seed, so a different seed with
    # the same past (found by search over seeds) has different future dice.
    s = _played(race_plugin, answers=2, seed=5)
    past = _rolls(s)
    twin = None
    for seed in range(6, 400):
        other = Session.new(race_plugin, "short", seed=seed, answers=s.answers)
        if _rolls(other) == past:
            nxt_s, nxt_o = s.fork(), other.fork()
            nxt_s.answer("roll"), nxt_o.answer("roll")
            if _rolls(nxt_s)[-1] != _rolls(nxt_o)[-1]:
                twin = other
                break
    assert twin is not None, "no seed with the same past and another future"
    a = search(s, iterations=40, rng=Rng(99))
    b = search(twin, iterations=40, rng=Rng(99))
    assert (a.answer, a.stats) == (b.answer, b.stats)


@pytest.mark.rule("race:win")
def test_mcts_beats_random_at_pig(race_plugin: str) -> None:
    wins = 0
    games = 16
    for i in range(games):
        s = Session.new(race_plugin, "short", seed=200 + i)
        mcts_side = s.game.sides(s.state)[i % 2]
        bots = {side: (MCTSBot(iterations=30) if side == mcts_side else RandomBot()) for side in s.game.sides(s.state)}
        out = play_out(s, bots)  # type: ignore[arg-type]
        assert out is not None
        wins += out.winner == mcts_side
    # 12 of 16 or more: a fair coin does that 3.8% of the time
    assert wins >= 12, f"mcts won {wins} of {games} against random"


def test_mcts_is_a_registered_bot_with_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    assert "mcts" in BOTS
    monkeypatch.delenv(ENV_VAR, raising=False)
    bot = make_bot("mcts")
    assert isinstance(bot, MCTSBot) and bot.settings.iterations == DEFAULT_ITERATIONS and bot.settings.seconds is None
    monkeypatch.setenv(ENV_VAR, "iterations=64, depth=8, rollout=random, width=0, c=1.2")
    bot = make_bot("mcts")
    assert isinstance(bot, MCTSBot)
    st = bot.settings
    assert (st.iterations, st.depth, st.rollout, st.width, st.c) == (64, 8, "random", 0, 1.2)
    monkeypatch.setenv(ENV_VAR, "seconds=0.5")
    bot = make_bot("mcts")
    assert isinstance(bot, MCTSBot) and bot.settings.iterations is None and bot.settings.seconds == 0.5
    for bad, msg in (("iterations", "expected name=value"), ("speed=3", "expected name=value"),
                     ("depth=deep", "depth takes a number"), ("rollout=smart", "rollout must be")):
        monkeypatch.setenv(ENV_VAR, bad)
        with pytest.raises(ValueError, match=msg):
            make_bot("mcts")


def test_simulate_and_new_play_the_mcts_bot(race_plugin: str, tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    import json

    from click.testing import CliRunner

    from ancients_kit.cli.main import cli

    monkeypatch.setenv("ANCIENTS_KIT_SAVES", str(tmp_path / "saves"))
    monkeypatch.setenv(ENV_VAR, "iterations=4")
    runner = CliRunner()
    res = runner.invoke(cli, ["simulate", race_plugin, "short", "-n", "2", "--bot", "mcts", "--json"],
                        catch_exceptions=False)
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["original"]["games"] == 2
    monkeypatch.setenv(ENV_VAR, "iterations=none")
    res = runner.invoke(cli, ["simulate", race_plugin, "short", "-n", "1", "--bot", "mcts"], catch_exceptions=False)
    assert res.exit_code == 2 and "ANCIENTS_MCTS: iterations takes a number" in res.output


class _Suggesting:
    """A stand-in game object that suggests search settings."""

    id = "suggesting"

    def __init__(self, suggested: dict[str, object]) -> None:
        self.suggested = suggested

    def search_defaults(self) -> dict[str, object]:
        return self.suggested


def test_settings_take_the_games_suggestions_where_none_are_given() -> None:
    from ancients_kit.search import SearchSettingsError, Settings

    game = _Suggesting({"iterations": 300, "samples": 20, "c": 1.1})
    st = Settings.for_game(game)
    assert (st.iterations, st.samples, st.c, st.seconds) == (300, 20, 1.1, None)
    st = Settings.for_game(game, c=0.4, iterations=9)  # named settings win
    assert (st.iterations, st.samples, st.c) == (9, 20, 0.4)
    st = Settings.for_game(game, seconds=0.5)  # a time budget replaces the suggested iterations
    assert (st.iterations, st.seconds) == (None, 0.5)
    bot = MCTSBot(width=3)
    assert bot.settings_for(game).iterations == 300 and bot.settings_for(game).width == 3
    assert MCTSBot(Settings(iterations=7)).settings_for(game).iterations == 7  # a whole Settings is kept as given
    with pytest.raises(SearchSettingsError, match="suggesting: search_defaults names unknown settings speed"):
        Settings.for_game(_Suggesting({"speed": 2}))
    with pytest.raises(SearchSettingsError, match="samples must be at least 0"):
        Settings(samples=-1)


def test_samples_cap_ends_a_search_with_few_options_early(race_plugin: str) -> None:
    s = _played(race_plugin)
    assert s.decision is not None
    n = len(s.decision.options)
    full = search(s, iterations=60, width=0)
    capped = search(s, iterations=60, width=0, samples=4)
    assert full.iterations == 60
    assert capped.iterations == 4 * min(n, 7)  # isqrt(60) = 7 root options at most
    assert capped.answer in {o.key for o in s.decision.options}
    assert search(s, iterations=60, width=0, samples=4).answer == capped.answer


def _inner_widths(node: object) -> list[int]:
    """How many children each node below the root's children has (the whole tree)."""
    out: list[int] = []
    todo = [c for c in node.children.values()]  # type: ignore[attr-defined]
    while todo:
        n = todo.pop()
        if n.visits > 1:
            out.append(len(n.children))
        todo.extend(n.children.values())
    return out


def test_below_the_root_the_search_widens_with_the_visits(race_plugin: str) -> None:
    s = _played(race_plugin)
    narrow = search(s, iterations=60, width=0, widen=0)
    assert narrow.tree is not None and max(_inner_widths(narrow.tree)) == 1  # the heuristic's best alone
    wide = search(s, iterations=60, width=0, widen=3)
    assert wide.tree is not None and max(_inner_widths(wide.tree)) == 2  # both Pig options, once visited enough


def test_root_options_behind_on_the_same_samples_are_pruned() -> None:
    from ancients_kit.search import _pruned

    rounds = range(6)
    paired = {"first": {r: 0.5 for r in rounds}, "leader": {r: 0.8 + 0.01 * r for r in rounds},
              "behind": {r: 0.1 + 0.01 * r for r in rounds}, "close": {r: 0.8 + 0.01 * r + (0.1 if r % 2 else -0.12) for r in rounds}}
    keys = ["first", "leader", "behind", "close"]
    assert _pruned(keys, paired, 2.0, 6) == ["first", "leader", "close"]  # the heuristic's first always stays
    assert _pruned(keys, paired, 0.0, 6) == keys  # prune=0: never
    assert _pruned(keys, paired, 2.0, 2) == keys  # too few rounds to judge
    assert _pruned(keys[:2], paired, 2.0, 6) == keys[:2]


def test_the_root_takes_the_heuristics_best_and_a_spread_of_the_rest() -> None:
    from ancients_kit.search import _root_options

    ranked = [f"o{i}" for i in range(44)]
    got = _root_options(ranked, 7)
    assert got[:5] == ranked[:5] and len(set(got)) == 7  # five from the top, two lower down
    assert all(int(k[1:]) >= 10 for k in got[5:])
    assert _root_options(ranked[:6], 12) == ranked[:6]  # room for all: all
    assert _root_options(ranked, 2) == ranked[:2]


def test_a_search_stops_when_its_options_lead_to_the_same_futures() -> None:
    from ancients_kit.search import _alike

    same = {"a": {0: 0.5, 1: 0.7}, "b": {0: 0.5, 1: 0.7}}
    assert _alike(["a", "b"], same)
    assert not _alike(["a", "b"], {**same, "b": {0: 0.5, 1: 0.6}})
    assert not _alike(["a", "b"], {})


@pytest.mark.rule("race:roll")
def test_a_decision_that_comes_back_unchanged_is_not_given_the_same_answer(race_plugin: str) -> None:
    # The search judges an option that leads back to the same decision (a unit toggled
    # into an attack and out again) by the better choices it makes after it, so on its
    # own it could loop for ever; at a decision it already answered, with nothing logged
    # since, the bot rules out the answers it gave there (Pig: roll or hold).
    s = _played(race_plugin, answers=2)
    assert s.decision is not None
    bot = MCTSBot(iterations=12)
    first = bot.choose(s, s.decision)
    assert bot.last is not None  # searched
    second = bot.choose(s, s.decision)  # the same decision, nothing logged since
    assert second != first and second in s.decision.keys  # the one answer left, not searched
    third = bot.choose(s, s.decision)  # every answer given: the heuristic's (Pig has none: at random)
    assert bot.last is None and third in s.decision.keys
    twin = MCTSBot(iterations=12)
    assert [twin.choose(s, s.decision) for _ in range(3)] == [first, second, third]  # deterministic
    assert search(s, iterations=12, exclude=[first]).answer == second
    with pytest.raises(ValueError, match="every option"):
        search(s, iterations=12, exclude=s.decision.keys)
    s.answer("roll")  # the log grows: the next decision is searched again, with every option
    assert s.decision is not None
    bot.choose(s, s.decision)
    assert bot.last is not None and bot.last.iterations > 0


def test_every_setting_can_be_given_and_is_documented() -> None:
    import attrs
    from pathlib import Path

    import ancients_kit.search as search_module
    from ancients_kit.search import Settings

    guide = (Path(__file__).parents[1] / "docs" / "players-guide.md").read_text(encoding="utf-8")
    for name in attrs.fields_dict(Settings):
        assert f"``{name}``" in (search_module.__doc__ or ""), f"{name} is not described in ancients_kit/search.py"
        assert f"`{name}`" in guide or f"{name}=" in guide, f"{name} is not listed in docs/players-guide.md"
    given = MCTSBot.from_settings("iterations=5,plies=1,depth=9,rollout=random,width=3,c=0.5,z=2,samples=4,"
                                  "epsilon=0.1,widen=0.2,prune=1,pairing=keyed").settings
    assert (given.iterations, given.pairing, given.widen) == (5, "keyed", 0.2)
    assert len(attrs.fields_dict(Settings)) == 13  # seconds is the other; a new setting must be added above
