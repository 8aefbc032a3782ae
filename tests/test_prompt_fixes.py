"""Prompt fixes and small defects a new player hit (issue 14 items 5, 6, 7)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ancients_kit import savefile
from ancients_kit.cli.main import cli
from ancients_kit.plugin import load_games


@pytest.fixture
def run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("ANCIENTS_KIT_SAVES", str(tmp_path / "saves"))
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None):
        return runner.invoke(cli, list(args), input=input, catch_exceptions=False)

    return invoke


def test_out_of_range_number_names_the_range(run, tmp_path: Path) -> None:
    save = tmp_path / "r.json"
    res = run("new", "centurion", "basic-carrhae", "--seed", "3", "--save", str(save), "--no-map",
              input="400\nquit\n")
    assert res.exit_code == 0, res.output
    n = len(res.output.split("Movement Phase")[1].split("more: type")[0].splitlines())  # listed options
    assert "400 is not an option's number: choose 1-" in res.output
    assert n > 1 and json.loads(save.read_text())["answers"] == []


def test_new_never_overwrites_a_game_in_progress(run, tmp_path: Path) -> None:
    first = run("new", "centurion", "basic-carrhae", "--seed", "7", "--bots", "--no-map", "--stop-after", "2")
    assert first.exit_code == 0, first.output
    saves = tmp_path / "saves"
    old = saves / "centurion-basic-carrhae-7.json"
    answers = json.loads(old.read_text())["answers"]
    assert len(answers) >= 2
    again = run("new", "centurion", "basic-carrhae", "--seed", "7", "--no-map", "--stop-after", "0")
    assert again.exit_code == 0, again.output
    assert json.loads(old.read_text())["answers"] == answers  # untouched
    assert "centurion-basic-carrhae-7-2.json" in again.output.replace("\n", "")
    assert (saves / "centurion-basic-carrhae-7-2.json").exists()


def test_undo_takes_back_at_least_one(run, tmp_path: Path) -> None:
    run("new", "centurion", "basic-carrhae", "--seed", "7", "--no-map", "--stop-after", "1",
        "--save", str(tmp_path / "u.json"))
    res = run("undo", str(tmp_path / "u.json"), "-n", "0")
    assert res.exit_code == 2 and "-n" in res.output


def test_help_counts_the_installed_games(run) -> None:
    res = run("--help")
    n = len(load_games())
    words = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
    assert f"teach {words.get(n, str(n))} installed" in res.output
    assert "{games}" not in res.output


@pytest.mark.rule("cen:basic.combat")
def test_attack_before_any_attacker_says_so() -> None:
    from ancients_kit.bots import play_until
    from ancients_kit.errors import AnswerError
    from ancients_kit.session import Session

    s = Session.new("centurion", "basic-carrhae", seed=5)
    play_until(s, "combat.hex")
    s.answer(s.decision.keys[1])
    assert s.decision.kind == "combat.attackers"
    with pytest.raises(AnswerError, match="choose an attacker first"):
        s.answer("attack")


def test_square_brackets_in_labels_are_printed(run, tmp_path: Path) -> None:
    """Selected attackers show ``[x]``/``[ ]`` in line mode (rich markup no longer swallows them)."""
    from ancients_kit.bots import play_until
    from ancients_kit.session import Session

    s = Session.new("centurion", "basic-carrhae", seed=5)
    play_until(s, "combat.hex")
    s.answer(s.decision.keys[1])
    s.meta["sides"] = {"parthians": "human", "romans": "greedy"}
    save = savefile.save(s, tmp_path / "b.json")
    res = run("play", str(save), "--no-map", input="quit\n")
    assert res.exit_code == 0, res.output
    assert "[ ] " in res.output
    assert "odds: Centurion melee" in res.output  # the odds under the attack question


def test_hotseat_hand_overs_in_line_mode(run, tmp_path: Path) -> None:
    """A hand-over before the first turn; the leaving player reads their results,
    then the screen is cleared and the next player is called (issue 14 item 4)."""
    from ancients_kit.bots import make_bot
    from ancients_kit.session import Session

    probe = Session.new("ccancients_rome", "tigranocerte", seed=5)
    first = probe.decision.side
    bot = make_bot("greedy")
    keys = []
    while probe.decision.side == first:
        keys.append(bot.choose(probe, probe.decision))
        probe.answer(keys[-1])
    nxt = probe.decision.side
    save = tmp_path / "hs.json"
    lines = ["", *keys, "", "", "quit"]
    res = run("new", "ccancients_rome", "tigranocerte", "--hotseat", "--seed", "5", "--save", str(save), "--no-map",
              input="\n".join(lines) + "\n")
    assert res.exit_code == 0, res.output
    out = res.output
    assert out.index(f"Hand over to {first}") < out.index(f"{first}: ")
    hide = out.index(f"{first}: press Enter to hide the screen")
    assert hide < out.index(f"Hand over to {nxt}")
    last_event = probe.log[len(probe.log) - 1].text_for(first)
    assert out.rindex(last_event.split(" (")[0][:40], 0, hide) >= 0  # the results came before the hand-over
    assert json.loads(save.read_text())["answers"] == keys


def test_undo_takes_back_your_own_last_answer_in_hotseat(tmp_path: Path) -> None:
    from ancients_kit.bots import make_bot
    from ancients_kit.cli.play import PlayLoop
    from ancients_kit.session import Session

    s = Session.new("ccancients_rome", "tigranocerte", seed=5)
    a = s.decision.side
    loop = PlayLoop(s, {x: "human" for x in s.game.sides(s.state)}, tmp_path / "u.json")
    bot = make_bot("greedy")
    while s.decision.side == a:
        s.answer(bot.choose(s, s.decision))
    b = s.decision.side
    assert loop.undo_count() == 1  # b has not answered yet: the last answer
    while s.decision.side == b:
        s.answer(bot.choose(s, s.decision))
    a_again = len(s.answers)
    s.answer(bot.choose(s, s.decision))  # a answers once more
    while s.decision.side == a:
        s.answer(bot.choose(s, s.decision))
    # b now asks to undo: b's own last answer and all of a's after it
    last_b = max(i for i, side in enumerate(s.asked) if side == b)
    assert loop.undo_count() == len(s.answers) - last_b
    assert last_b < a_again


def _until_a_phase_ends_on_its_own(game: str, scenario: str, seed: int):
    """A game played by the greedy bot for both sides until a series of questions
    ends on its own after an answer: (session, the answers so far, the note)."""
    from ancients_kit.bots import make_bot
    from ancients_kit.session import Session
    from ancients_kit.tui.view import PhaseWatch

    s = Session.new(game, scenario, seed=seed)
    bot, watch, keys = make_bot("greedy"), PhaseWatch(), []
    while s.decision is not None:
        note = watch.note(s, s.decision)
        if note:
            return s, keys, note
        d = s.decision
        keys.append(bot.choose(s, d))
        before = len(s.log)
        s.answer(keys[-1])
        watch.answered(s, d, keys[-1], before)
    raise AssertionError("no phase ended on its own")


@pytest.mark.rule("cen:basic.sequence")
def test_a_phase_that_ends_on_its_own_says_so_in_line_mode(run, tmp_path: Path) -> None:
    """The Movement Phase ends when the last unit has moved: the next question is
    preceded by a note saying so (answers typed ahead at a terminal are dropped)."""
    s, keys, note = _until_a_phase_ends_on_its_own("centurion", "basic-carrhae", 3)
    assert "move questions ended on their own" in note and "Combat Phase" in note
    save = tmp_path / "t.json"
    res = run("new", "centurion", "basic-carrhae", "--hotseat", "--seed", "3", "--save", str(save), "--no-map",
              input="\n".join([*keys, "quit"]) + "\n")
    assert res.exit_code == 0, res.output
    out = res.output
    at = out.index(note)
    assert out.index(f"{s.decision.side}: {s.decision.prompt}", at) > at  # the note, then the new question
    assert out.count("ended on their own") == 1  # said once, where it happened
    assert json.loads(save.read_text())["answers"] == keys


def test_a_phase_that_ends_on_its_own_holds_typed_answers_in_the_table(tmp_path: Path) -> None:
    """In the table, the first answer typed after a phase ended on its own waits until it is typed again."""
    import asyncio

    from ancients_kit.cli.play import PlayLoop
    from ancients_kit.tui.app import TableApp

    s, keys, note = _until_a_phase_ends_on_its_own("ccancients_rome", "tigranocerte", 5)
    side = s.decision.side
    from ancients_kit.session import Session

    fresh = Session.new("ccancients_rome", "tigranocerte", seed=5)
    for k in keys[:-1]:
        fresh.answer(k)
    loop = PlayLoop(fresh, {x: "human" for x in fresh.game.sides(fresh.state)}, tmp_path / "h.json")
    loop.last_human = fresh.decision.side  # no hand-over screen in the way

    async def go() -> None:
        app = TableApp(loop)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.query_one("#answer").focus()
            await pilot.press(*keys[-1], "enter")  # the answer that ends the series
            await pilot.pause()
            assert fresh.decision.side == side and app.holding
            assert note in str(app.query_one("#message").render())
            n = len(fresh.answers)
            nxt = fresh.decision.keys[-1]
            box = app.query_one("#answer")
            await type_ahead(pilot, app, nxt)  # typed before the new question showed: held, not given
            await pilot.press("enter")
            await pilot.pause()
            assert len(fresh.answers) == n
            shown = str(app.query_one("#message").render())
            assert f"You typed {nxt} before this new question showed: Enter gives {nxt} to this question" in shown
            assert box.value == nxt  # the answer stays in the box: nothing the player typed is lost
            await pilot.press("enter")  # confirmed: given
            await pilot.pause()
            assert len(fresh.answers) == n + 1 and fresh.answers[-1] == nxt
            assert box.value == ""

    asyncio.run(go())


async def type_ahead(pilot, app, text: str) -> None:  # noqa: ANN001
    """Keys pressed before the question now shown was drawn, as a player typing ahead
    sends them: Textual stamps a key event with the time it was read from the terminal."""
    from textual import events

    for ch in text:
        event = events.Key(ch, ch)
        event.time = app.shown_at - 0.5
        event.set_sender(app)
        app._driver.send_message(event)
        await pilot.pause()


def test_an_answer_typed_after_a_phase_ended_on_its_own_is_given(tmp_path: Path) -> None:
    """The note is on the table; the player reads it and types: his answer is given at once."""
    import asyncio

    from ancients_kit.cli.play import PlayLoop
    from ancients_kit.session import Session
    from ancients_kit.tui.app import TableApp

    s, keys, note = _until_a_phase_ends_on_its_own("ccancients_rome", "tigranocerte", 5)
    fresh = Session.new("ccancients_rome", "tigranocerte", seed=5)
    for k in keys[:-1]:
        fresh.answer(k)
    loop = PlayLoop(fresh, {x: "human" for x in fresh.game.sides(fresh.state)}, tmp_path / "g.json")
    loop.last_human = fresh.decision.side

    async def go() -> None:
        app = TableApp(loop)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press(*keys[-1], "enter")
            await pilot.pause()
            assert app.holding and note in str(app.query_one("#message").render())
            n, nxt = len(fresh.answers), fresh.decision.keys[-1]
            await pilot.press(*nxt, "enter")
            await pilot.pause()
            assert len(fresh.answers) == n + 1 and fresh.answers[-1] == nxt

    asyncio.run(go())


@pytest.mark.rule("cen:basic.combat")
def test_all_warns_of_a_hex_it_would_strand_basic_game() -> None:
    from ancients_kit.bots import make_bot
    from ancients_kit.session import Session
    from ancients_kit.tui.view import odds_lines
    from ancients_games.centurion.combat import best_group, eligible_attackers, targets

    s = Session.new("centurion", "basic-carrhae", seed=5)
    bot = make_bot("greedy")
    warned = quiet = 0
    while s.decision is not None and warned < 3:
        d = s.decision
        if d.kind == "combat.hex":
            attacked = {s.state.hex_of(h) for h in d.context["attacked"]}
            for key in d.keys[1:]:
                report = s.game.decision_odds(s.state, d, key, s.store)
                h = s.state.hex_of(key)
                group = {u.id for u in best_group(s.state, eligible_attackers(s.state, d.side, h))}
                left = [s.state.hid(t) for t in targets(s.state, d.side, attacked | {h})
                        if all(u.id in group for u in eligible_attackers(s.state, d.side, t))]
                warning = [x for x in report.explain if x.startswith("warning:")]
                if left:
                    assert warning == [f"warning: leaves {', '.join(left)} with no unit to attack it this phase "
                                       f"(case D)"]
                    assert warning[0] in odds_lines(report, compact=True)[0]  # line mode shows it too
                    warned += 1
                else:
                    assert not warning
                    quiet += 1
        s.answer(bot.choose(s, d))
    assert warned and quiet


@pytest.mark.rule("cen:full.combat")
def test_all_warns_of_a_hex_it_would_strand_full_simulation() -> None:
    from ancients_kit.bots import make_bot
    from ancients_kit.session import Session
    from ancients_games.centurion.full.allocation import fill_all, open_targets
    from ancients_games.centurion.full.combat import Attack

    s = Session.new("centurion", "carrhae", seed=5)
    bot = make_bot("greedy")
    warned = 0
    while s.decision is not None and warned < 2:
        d = s.decision
        if d.kind == "attack.unit" and "all" in d.keys:
            report = s.game.decision_odds(s.state, d, "all", s.store)
            warning = [x for x in report.explain if x.startswith("warning:")] if report else []
            if warning:
                attacks = [Attack(s.state.hex_of(h), m, list(u)) for h, m, u in d.context["allocated"]]
                cur = fill_all(s.state, d.side, attacks, Attack(s.state.hex_of(d.context["target"]),
                                                                d.context["mode"], list(d.context["chosen"])))
                gone = warning[0].split("leaves ")[1].split(" with")[0].split(", ")
                for hid in gone:
                    h = s.state.hex_of(hid)
                    assert h in open_targets(s.state, d.side, attacks)  # attackable now
                    assert h not in open_targets(s.state, d.side, [*attacks, cur])  # not after all
                warned += 1
        s.answer(bot.choose(s, d))
    assert warned
