"""The full-screen table at the keyboard and at every terminal size (issue 22).

Each test types through Textual's pilot as a player would and checks that
exactly the answer typed was given, that the table's own commands never fire
from a typed letter, that the screen follows the question, and that nothing is
cut at 80x24, 120x40 and 160x50.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual import events

from ancients_kit import savefile
from ancients_kit.bots import make_bot, play_until
from ancients_kit.cli.play import PlayLoop
from ancients_kit.session import Decision, Session
from ancients_kit.tui.app import AnswerBox, MapView, TableApp, layout_for
from ancients_kit.tui.keys import typed_command
from ancients_kit.tui.view import decision_odds, log_rows, odds_lines

SIZES = [(80, 24), (120, 40), (160, 50)]
GAMES = [
    ("centurion", "basic-carrhae"),
    ("ccancients_rome", "tigranocerte"),
    ("ldf", "campaign"),
    ("xenophon", "cyrus-revolt"),
]


def text_of(app: TableApp, selector: str) -> str:
    return str(app.query_one(selector).render())


def against_bot(game: str, scenario: str, path: Path, seed: int = 3, until: str | None = None,
                opponent: str = "greedy") -> tuple[Session, PlayLoop]:
    """A session (played by bots up to a ``until`` question if given) with its asking side
    human and the other side ``opponent``."""
    s = Session.new(game, scenario, seed=seed)
    if until is not None:
        play_until(s, until)
    side = s.decision.side
    other = next(x for x in s.game.sides(s.state) if x != side)
    return s, PlayLoop(s, {side: "human", other: opponent}, path)


def run(app: TableApp, size: tuple[int, int], body: Callable[[Any], Any]) -> None:
    async def go() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await body(pilot)

    asyncio.run(go())


async def fast_type(pilot: Any, app: TableApp, text: str) -> None:
    """``text`` and Enter typed key by key through the pilot's terminal driver as a fast
    typist sends them (no pause between the keys), then the table settles."""
    given, said = len(app.s.answers), app.message
    for ch in [*text, "enter"]:
        event = events.Key(ch, "\r" if ch == "enter" else ch)
        event.set_sender(app)
        app._driver.send_message(event)
    for _ in range(200):  # until the answer is given or refused, and the table redrawn
        await pilot._wait_for_screen()
        if (len(app.s.answers) > given or app.message != said) and not app.refresh_pending:
            break


def hex_option(d: Decision, app: TableApp) -> str | None:
    grid = app.query_one("#map", MapView).grid
    return next((k for k in d.keys if grid is not None and k in grid.cells), None)


# ------------------------------------------------------------------ keys never surprise


@pytest.mark.rule("xen:operations")
def test_typing_on_the_option_list_goes_to_the_answer_box_in_xenophon(tmp_path: Path) -> None:
    """Typing ``move:2807`` with the option list focused used to toggle the map (m), filter the
    log (v) and then choose option 1; now every letter lands in the answer box."""
    s, loop = against_bot("xenophon", "cyrus-revolt", tmp_path / "x.json", until="ops.action")
    d = s.decision
    key = next(k for k in d.keys if k.startswith("move:"))
    app = TableApp(loop)

    async def body(pilot: Any) -> None:
        app.query_one("#options").focus()
        zoom = app.query_one("#map", MapView).zoom
        await pilot.press(*key)
        box = app.query_one("#answer", AnswerBox)
        assert box.value == key and app.focused is box
        view = app.query_one("#map", MapView)
        assert view.classic is None and view.zoom == zoom
        assert app.side_filter is None and app.turn_filter is None
        n = len(s.answers)
        await pilot.press("enter")
        await pilot.pause()
        assert s.answers[n] == key

    run(app, (80, 24), body)


@pytest.mark.rule("cen:basic.movement")
def test_done_and_undo_typed_after_resuming_a_centurion_save(tmp_path: Path) -> None:
    """After ``ancients play FILE`` typing ``done`` started an attack and ``undo`` undid a move
    at its first ``u``: now ``done`` ends the phase and ``undo`` takes back the last answer."""
    path = tmp_path / "c.json"
    s, loop = against_bot("centurion", "basic-carrhae", path, until="move.unit")
    loop.save()
    loop.slot.release()
    again = savefile.load(path)
    loop = PlayLoop(again, loop.who, path)
    app = TableApp(loop)

    async def body(pilot: Any) -> None:
        assert app.focused is app.query_one("#answer")  # on resume the answer box has the keys
        d = again.decision
        unit = next(k for k in d.keys if k != "done")
        n = len(again.answers)
        app.query_one("#options").focus()  # wherever the focus is
        await pilot.press(*unit, "enter")
        await pilot.pause()
        assert again.answers[n] == unit
        while again.decision is not None and "done" not in again.decision.keys:
            await pilot.press(*again.decision.keys[0], "enter")
            await pilot.pause()
        before = list(again.answers)
        await pilot.press(*"done", "enter")
        await pilot.pause()
        assert again.answers[len(before)] == "done"
        app.query_one("#options").focus()
        await pilot.press(*"undo", "enter")
        await pilot.pause()
        assert again.answers == before  # exactly the last answer (and the bot's after it) taken back
        assert json.loads(path.read_text())["answers"] == before

    run(app, (80, 24), body)


def answer_forms(d: Decision, app: TableApp, i: int) -> tuple[str, str]:
    """The ``i``-th answer form tried at question ``d``: (what is typed, the key it names).
    The forms cycle: an option's number, its key, its key in capitals, a hex ID, ``done``."""
    bot_key = d.keys[min(1, len(d.keys) - 1)]
    form = i % 5
    if form == 3 and (hid := hex_option(d, app)) is not None:
        return hid, hid
    if form == 4 and "done" in d.keys:
        return "done", "done"
    if form == 0 and len(d.keys) > 1:
        return str(2), d.keys[1]
    if form == 2 and sum(k.lower() == bot_key.lower() for k in d.keys) == 1:
        return bot_key.upper(), bot_key
    return bot_key, bot_key


@pytest.mark.parametrize(("game", "scenario"), GAMES)
def test_every_answer_form_is_given_as_typed(game: str, scenario: str, tmp_path: Path) -> None:
    """Numbers, keys (in any case), hex IDs, ``done`` and ``undo``, typed key by key at 80x24:
    each gives exactly the answer it names."""
    s, loop = against_bot(game, scenario, tmp_path / "f.json")
    app = TableApp(loop)
    seen: set[str] = set()

    async def body(pilot: Any) -> None:
        for i in range(10):
            d = s.decision
            if d is None:
                break
            typed, key = answer_forms(d, app, i)
            seen.add("number" if typed.isdigit() and typed not in d.keys else
                     "hex" if typed == hex_option(d, app) else "upper" if typed != key else "key")
            n = len(s.answers)
            await pilot.press(*typed, "enter")
            await pilot.pause()
            assert s.answers[n] == key, (typed, app.message)
        before = list(s.answers)
        mine = loop.undo_count()
        await pilot.press(*"undo", "enter")
        await pilot.pause()
        assert mine and s.answers == before[:len(before) - mine]

    run(app, (80, 24), body)
    assert {"number", "key"} <= seen


@pytest.mark.rule("ccr:base.cards")
def test_enter_on_an_empty_box_gives_only_a_highlight_the_player_moved(tmp_path: Path) -> None:
    s, loop = against_bot("ccancients_rome", "tigranocerte", tmp_path / "e.json")
    app = TableApp(loop)

    async def body(pilot: Any) -> None:
        d = s.decision
        await pilot.press("enter")
        await pilot.pause()
        assert not s.answers and s.decision is d
        assert "move the highlight" in text_of(app, "#message")
        await pilot.press("down", "enter")  # the player moved it: option 2 is given
        await pilot.pause()
        assert s.answers[0] == d.keys[1]
        nxt = s.decision
        await pilot.press("enter")  # the new question inherits no choice
        await pilot.pause()
        assert s.decision is nxt

    run(app, (80, 24), body)


@pytest.mark.rule("ccr:base.cards")
def test_table_commands_sit_on_function_keys(tmp_path: Path) -> None:
    """F2 zooms, F3 shows the game's own map, F5-F8 filter the log, F9 undoes, Ctrl+Q quits:
    none of them can be typed by accident in an answer."""
    s, loop = against_bot("ccancients_rome", "tigranocerte", tmp_path / "k.json")
    app = TableApp(loop)

    async def body(pilot: Any) -> None:
        view = app.query_one("#map", MapView)
        await pilot.press("f2")
        assert view.zoom == 0
        await pilot.press("f3")
        assert view.classic is not None
        await pilot.press("f3", "f8")
        assert view.classic is None and app.side_filter == s.game.sides(s.state)[0]
        await pilot.press("f7", "f5")
        assert app.turn_filter is not None
        await pilot.press("f1")
        assert "F4 the next pane" in str(app.screen.query_one("#keys").render())
        await pilot.press("escape")
        await pilot.press("down", "enter")
        await pilot.pause()
        assert s.answers
        await pilot.press("f9")
        await pilot.pause()
        assert not s.answers
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert "continue with: ancients play" in app.exit_note

    run(app, (120, 40), body)


# ------------------------------------------------------------------ the screen follows the game


@pytest.mark.parametrize(("game", "scenario"), GAMES)
def test_the_map_follows_each_question(game: str, scenario: str, tmp_path: Path) -> None:
    """For each question the map's cursor is on the question's first hex, and that hex is in view."""
    s, loop = against_bot(game, scenario, tmp_path / "m.json")
    app = TableApp(loop)
    player = make_bot("greedy")

    async def body(pilot: Any) -> None:
        view = app.query_one("#map", MapView)
        followed = 0
        for _ in range(14):
            d = s.decision
            if d is None:
                break
            await pilot.pause()
            here = app.question_hexes(d, view.grid)
            if here:
                assert view.cursor == here[0]
                col, line = view.grid.cells[view.cursor]

                def in_view() -> tuple[bool, bool]:
                    area, (x0, y0) = view.scrollable_content_region, view.scroll_offset
                    return (x0 <= col and col + view.grid.cell_w <= x0 + area.width + 1,
                            y0 <= line < y0 + area.height)

                for _ in range(20):  # the pane scrolls after its next refresh (show_cursor): wait for it
                    if all(in_view()):
                        break
                    await pilot.pause(0.02)
                across, down = in_view()
                assert across, (view.cursor, view.scroll_offset, col)
                assert down, (view.cursor, view.scroll_offset, line)
                followed += 1
            await fast_type(pilot, app, player.choose(s, d))
        assert followed >= 5

    run(app, (80, 24), body)


@pytest.mark.parametrize(("game", "scenario"), GAMES)
def test_the_log_carries_the_real_turn(game: str, scenario: str) -> None:
    s = Session.new(game, scenario, seed=3)
    bot = make_bot("greedy")
    turns = lambda: {r.turn for r in log_rows(s.log, None)}  # noqa: E731
    while s.decision is not None and len(turns() - {0}) < 2 and len(s.answers) < 3000:
        s.answer(bot.choose(s, s.decision))
    assert {1, 2} <= turns()


@pytest.mark.rule("ccr:base.close-combat")
def test_the_odds_pane_shows_every_outcome_of_the_answer_typed_at_80x24(tmp_path: Path) -> None:
    s, loop = against_bot("ccancients_rome", "tigranocerte", tmp_path / "o.json", until="battle.target")
    d = s.decision
    app = TableApp(loop)

    async def body(pilot: Any) -> None:
        assert app.pane == "odds"  # an attack to weigh: its odds came forward by themselves
        box = app.query_one("#odds-box")
        assert box.display and box.region.height >= 5
        shown = text_of(app, "#odds").splitlines()
        report = decision_odds(s.game, s.state, d, d.keys[0], s.store)
        assert shown == odds_lines(report)  # every outcome, nothing cut: the pane scrolls
        assert box.virtual_size.height >= len(shown)
        box.scroll_end(animate=False)
        await pilot.pause()
        assert box.scroll_offset.y + box.scrollable_content_region.height >= len(shown)
        other = next((k for k in d.keys[1:] if decision_odds(s.game, s.state, d, k, s.store)), None)
        if other is not None:  # the odds of the answer being typed, not of the highlighted one
            await pilot.press(*other)
            assert text_of(app, "#odds").splitlines() == odds_lines(
                decision_odds(s.game, s.state, d, other, s.store))

    run(app, (80, 24), body)


@pytest.mark.rule("ldf:13.3")
def test_the_odds_pane_shows_every_outcome_of_an_ldf_attack(tmp_path: Path) -> None:
    s = Session.new("ldf", "campaign", seed=3)
    bot = make_bot("greedy")
    while s.decision is not None and not any(
            decision_odds(s.game, s.state, s.decision, k, s.store) for k in s.decision.keys):
        s.answer(bot.choose(s, s.decision))
    d = s.decision
    side = d.side
    loop = PlayLoop(s, {x: "human" if x == side else "greedy" for x in s.game.sides(s.state)}, tmp_path / "l.json")
    key = next(k for k in d.keys if decision_odds(s.game, s.state, d, k, s.store))
    report = decision_odds(s.game, s.state, d, key, s.store)
    app = TableApp(loop)

    async def body(pilot: Any) -> None:
        await pilot.press(*key)
        shown = text_of(app, "#odds").splitlines()
        assert shown == odds_lines(report)
        assert all(any(line.strip().startswith(k) for line in shown) for k in report.distribution)
        box = app.query_one("#odds-box")  # the title and every outcome in view without scrolling
        assert box.scroll_offset.y == 0 and box.scrollable_content_region.height >= 1 + len(report.distribution)

    run(app, (200, 50), body)


# ------------------------------------------------------------------ every terminal size


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(("game", "scenario"), GAMES)
def test_nothing_is_cut_at_any_size(game: str, scenario: str, size: tuple[int, int], tmp_path: Path) -> None:
    s, loop = against_bot(game, scenario, tmp_path / "z.json")
    app = TableApp(loop)
    lay = layout_for(*size)

    async def body(pilot: Any) -> None:
        d = s.decision
        width, height = size
        opts = app.query_one("#options")
        # the options: at least six in view (or all of them)
        assert opts.scrollable_content_region.height >= min(6, len(d.options)), opts.region
        answer = app.query_one("#answer")
        assert answer.region.height >= 1 and answer.region.bottom <= height - 1
        q = app.query_one("#question-box")  # the whole question, or three lines of it and a scroll bar
        assert q.region.height >= min(q.virtual_size.height, 3)
        # the log wraps, never scrolls sideways
        log = app.query_one("#log-pane" if lay.log_lines == 0 else "#log-scroll")
        assert log.virtual_size.width <= log.region.width
        # every pane can be brought into view, and shows what it holds
        for _ in range(4):
            if lay.side_by_side:
                break
            await pilot.press("f4")
            pane = {"odds": "#odds-box", "hex": "#inspector-box", "hand": "#hand-box", "log": "#log-pane"}[app.pane]
            assert app.query_one(pane).display and app.query_one(pane).region.height >= 3, app.pane
        if lay.side_by_side:
            for pane in ("#inspector-box", "#hand-box"):
                assert app.query_one(pane).region.height >= 3
        hand = text_of(app, "#hand")
        assert hand.startswith("hand: ")
        # every region inside the screen
        for w in app.query("#status, #map, #options, #answer, #message"):
            assert w.region.right <= width and w.region.bottom <= height

    run(app, size, body)


# ------------------------------------------------------------------ the end of a game


SLOW = pytest.mark.slow


@pytest.mark.parametrize(("game", "scenario", "opponent", "size"), [
    ("centurion", "basic-carrhae", "greedy", (80, 24)),
    pytest.param("centurion", "basic-carrhae", "random", (160, 50), marks=SLOW),
    ("ccancients_rome", "tigranocerte", "greedy", (80, 24)),
    ("ccancients_rome", "tigranocerte", "greedy", (160, 50)),
    # the strategic games' whole campaigns: 1,000-5,000 answers a side (ANCIENTS_SLOW=1)
    pytest.param("ldf", "campaign", "greedy", (80, 24), marks=SLOW),
    pytest.param("ldf", "campaign", "greedy", (160, 50), marks=SLOW),
    pytest.param("xenophon", "cyrus-revolt", "greedy", (80, 24), marks=SLOW),
    pytest.param("xenophon", "cyrus-revolt", "greedy", (160, 50), marks=SLOW),
])
def test_a_whole_game_typed_key_by_key(game: str, scenario: str, opponent: str, size: tuple[int, int],
                                       tmp_path: Path) -> None:
    """Every answer of a whole game typed key by key reaches the end, given as typed;
    the finished game says how to replay it, and a typed ``q`` stays a letter."""
    path = tmp_path / "w.json"
    s, loop = against_bot(game, scenario, path, seed=2, opponent=opponent)
    app = TableApp(loop)
    # random answers reach more forms; a greedy Centurion typist is shorter (92 answers instead
    # of 266 at 80x24; the random one types the slow 160x50 game)
    typist = "random" if game == "ccancients_rome" or (game == "centurion" and opponent == "random") else "greedy"
    player = make_bot(typist)

    async def body(pilot: Any) -> None:
        n = 0
        while s.decision is not None and n < 20_000:
            d = s.decision
            key = player.choose(s, d)
            before = len(s.answers)
            await fast_type(pilot, app, key)
            assert s.answers[before] == key, (key, app.message)
            n += 1
        assert s.outcome is not None
        assert text_of(app, "#question").startswith("Game over")
        assert app.log_shown == log_rows(s.log, app.viewer)  # written event by event, the whole log
        await pilot.press("q")
        assert app.query_one("#answer").value == "q"  # a letter, not a command
        await pilot.press("backspace", "enter")
        await pilot.pause()
        assert "replay with: ancients replay" in app.exit_note and "continue with" not in app.exit_note

    run(app, size, body)
    again = savefile.load(path)
    assert again.replay_matches and again.outcome == s.outcome


def test_the_players_guide_and_f1_name_every_key() -> None:
    """The table's keys, as bound, are those the players' guide and F1 list."""
    from ancients_kit.tui.app import KEYS

    guide = (Path(__file__).parent.parent / "docs" / "players-guide.md").read_text("utf-8")
    table = guide[guide.index("**Typing**"):guide.index("**Terminal sizes.**")]
    for binding in TableApp.BINDINGS:
        if binding.key == "ctrl+c":
            continue
        name = binding.key.upper().replace("CTRL+", "Ctrl+")
        assert name in table and name in KEYS, name


def test_typed_words_are_commands_unless_they_are_an_answer() -> None:
    """``undo``, ``save FILE`` and ``quit`` are read in any case, with or without a leading
    colon; a line that is one of the question's keys is that answer, never a command."""
    assert typed_command("save my game.json", ("1", "2")) == ("save", "my game.json")
    assert typed_command(":UNDO", ()) == ("undo", "")
    assert typed_command("quit", ("quit", "stay")) == ("", "")
    assert typed_command("2907", ("2907",)) == ("", "")


def test_the_layout_follows_a_resized_terminal(tmp_path: Path) -> None:
    """A terminal made wider and taller gets the side-by-side layout, and back."""
    s, loop = against_bot("centurion", "basic-carrhae", tmp_path / "r.json")
    app = TableApp(loop)

    async def body(pilot: Any) -> None:
        main = app.query_one("#main")
        assert main.has_class("shared")
        await pilot.resize_terminal(160, 50)
        await pilot.pause()
        assert main.has_class("wide") and app.query_one("#panes").region.x > app.query_one("#right").region.x
        assert "Centurion" in text_of(app, "#status")  # room for the game's title
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert main.has_class("shared") and app.query_one("#panes").region.bottom <= 23

    run(app, (80, 24), body)


def test_f3_turns_xenophon_s_map_to_the_printed_layout_and_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Xenophon's sheet is drawn north up by default; F3 shows the game's own map, then the
    grid as printed (rotated), then north up again; a map without a turned sheet (C&C) goes
    from the game's map straight back to its grid."""
    monkeypatch.delenv("ANCIENTS_MAP_LAYOUT", raising=False)
    s, loop = against_bot("xenophon", "cyrus-revolt", tmp_path / "x.json")
    app = TableApp(loop)

    async def body(pilot: Any) -> None:
        view = app.query_one("#map", MapView)
        given = len(s.answers)
        assert view.grid is not None and not view.grid.rotated  # north up
        await pilot.press("f3")
        assert view.classic is not None
        await pilot.press("f3")
        assert view.classic is None and view.grid.rotated  # the sheet as printed
        await pilot.press("f3")
        assert view.classic is None and not view.grid.rotated and view.north_up is None
        assert s.decision is not None and len(s.answers) == given  # nothing answered

    run(app, (160, 50), body)
    s2, loop2 = against_bot("ccancients_rome", "tigranocerte", tmp_path / "c.json")
    app2 = TableApp(loop2)

    async def body2(pilot: Any) -> None:
        view = app2.query_one("#map", MapView)
        await pilot.press("f3", "f3")
        assert view.classic is None and view.north_up is None

    run(app2, (120, 40), body2)
