"""The full-screen players' table (ancients_kit.tui), driven headless by Textual's pilot.

Every test plays a real session: keys and clicks answer real questions, the
save file is compared with what line mode writes, and the panes' text is
read back as the player would see it.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from ancients_kit import savefile
from ancients_kit.bots import make_bot, play_until
from ancients_kit.cli.play import PlayLoop, free_save_path, full_screen_allowed
from ancients_kit.session import Session
from ancients_kit.tui.app import HandOver, MapView, TableApp
from ancients_kit.tui.view import MapGrid, log_rows, odds_lines

SIZE = (170, 52)


def text_of(app: TableApp, selector: str) -> str:
    """What a Static pane shows, as plain text."""
    return str(app.query_one(selector).render())


def saved_matches(path: Path, session: Session, who: dict[str, str]) -> bool:
    """The save file holds exactly what line mode's PlayLoop.save writes for this session."""
    rec = json.loads(path.read_text("utf-8"))
    again = Session.new(session.game, session.scenario, seed=rec["seed"], answers=rec["answers"])
    return rec["answers"] == session.answers and rec["meta"]["sides"] == who and again.log.digest() == session.log.digest()


def pending(game: str, scenario: str, kind: str, path: Path, seed: int = 5) -> tuple[Session, PlayLoop]:
    """A session with a ``kind`` question pending for its side, a human against the greedy bot."""
    s = Session.new(game, scenario, seed=seed)
    play_until(s, kind)
    side = s.decision.side
    other = next(x for x in s.game.sides(s.state) if x != side)
    return s, PlayLoop(s, {side: "human", other: "greedy"}, path)


def run(coro_fn) -> None:  # noqa: ANN001
    asyncio.run(coro_fn())


def test_centurion_against_the_bot_keys_and_saves(tmp_path: Path) -> None:
    s = Session.new("centurion", "basic-carrhae", seed=3)
    who = {"parthians": "human", "romans": "greedy"}
    path = tmp_path / "c.json"
    loop = PlayLoop(s, who, path)

    async def go() -> None:
        app = TableApp(loop)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            q = text_of(app, "#question")
            assert q.startswith("parthians: Movement Phase, turn 1") and "[cen:basic.movement]" in q
            assert "Turn 1/10" in text_of(app, "#status")
            # The question pane lists every option with a stable number.
            opts = app.query_one("#options")
            assert opts.option_count == len(s.decision.options)
            assert str(opts.get_option_at_index(0).prompt).startswith("  1. ")
            for n in range(1, 5):  # four decisions answered with Enter on the option list
                before = len(s.answers)
                app.query_one("#options").focus()
                await pilot.press("enter")  # nothing chosen yet: Enter alone gives nothing
                await pilot.pause()
                assert len(s.answers) == before and "move the highlight" in text_of(app, "#message")
                await pilot.press("down", "up", "enter")  # the highlight moved by the player: given
                await pilot.pause()
                assert len(s.answers) > before
                assert saved_matches(path, s, who)  # saved after every answer, as line mode does
            # A number typed in the answer box picks that option.
            d = s.decision
            app.query_one("#answer").focus()
            await pilot.press(*"1", "enter")
            await pilot.pause()
            assert s.answers[-1] == d.options[0].key or s.asked[-1] != "parthians"
            assert saved_matches(path, s, who)
            # Bad input: the game's refusal, one line naming the rule; nothing answered.
            count = len(s.answers)
            await pilot.press(*"9999", "enter")
            await pilot.pause()
            assert len(s.answers) == count
            msg = text_of(app, "#message")
            assert msg.split(":")[0] in ("illegal", "invalid", "ambiguous") and "9999" in msg and "\n" not in msg
            await pilot.press(*"quit", "enter")  # typed in the answer box, as in line mode
        assert app.exit_note.startswith(f"Game saved in {path}")

    run(go)


def test_map_cursor_keys_clicks_and_inspector(tmp_path: Path) -> None:
    s = Session.new("centurion", "basic-carrhae", seed=3)
    loop = PlayLoop(s, {"parthians": "human", "romans": "greedy"}, tmp_path / "m.json")

    async def go() -> None:
        app = TableApp(loop)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            view = app.query_one("#map", MapView)
            grid = view.grid
            assert grid is not None
            # Snapshot of what the map pane shows: a row of the grid with the side letters.
            shown = view.plain()
            assert "P" in shown and "C??" in shown  # Parthian counters, Roman stacks out of sight
            start = view.cursor
            view.focus()
            await pilot.press("enter")  # the cursor was put there by the table, not by the player: no answer
            await pilot.pause()
            assert not s.answers and "move the cursor" in text_of(app, "#message")
            await pilot.press("right")
            assert view.cursor != start and view.cursor == grid.step(start, 1, 0)
            assert text_of(app, "#inspector").startswith(f"hex {view.cursor}:")
            # A Parthian stack: every unit with its factors; a Roman stack out of sight: face down only.
            own = next(c.hex for c in grid.picture.counters if c.side == "parthians")
            hidden = next(c.hex for c in grid.picture.counters if c.hidden)
            view.cursor = own
            app.cursor_moved()
            shown = text_of(app, "#inspector")
            unit = next(u for u in s.state.stack_at(s.state.hex_of(own)))
            assert f"{unit.id}: " in shown and "attack " in shown and "movement " in shown
            view.cursor = hidden
            app.cursor_moved()
            shown = text_of(app, "#inspector")
            assert "(face down)" in shown and "ROM-" not in shown and "attack " not in shown
            view.cursor = start
            # A click on a hex moves the cursor there and the inspector describes it.
            await pilot.pause()
            await pilot.pause()
            # a hex the pane shows now, wherever the map is scrolled (the click is placed
            # on the pane, inside its border)
            area, (x0, y0) = view.scrollable_content_region, view.scroll_offset
            hid = next(h for h, (c, r) in grid.cells.items()
                       if h != view.cursor and x0 <= c + 1 < x0 + area.width and y0 <= r < y0 + area.height)
            col, line = grid.cells[hid]
            await pilot.click("#map", offset=(col + 1 - x0 + 1, line - y0 + 1))
            await pilot.pause()
            assert view.cursor == hid
            assert text_of(app, "#inspector").startswith(f"hex {hid}:")
            # Clicking a highlighted hex of the question twice answers with it.
            d = s.decision
            target = next(k for k in d.context["highlight"] if k in grid.cells)
            view.cursor = target
            view.focus()
            await pilot.press("enter")  # the player moved the cursor during this question: Enter answers
            await pilot.pause()
            assert s.answers and s.answers[-1] == target
            # the default map: two-line cells with the hex IDs printed; F2 zooms out to one line a hex
            assert view.grid.zoom == 1 and "1513" in view.plain()
            await pilot.press("f2")
            await pilot.pause()
            assert view.grid.zoom == 0 and "1513" not in view.plain()
            await pilot.press("f3")  # the game's own map
            await pilot.pause()
            assert view.classic is not None

    run(go)


async def odds_of_the_next_option(app: TableApp, pilot, s: Session):  # noqa: ANN001, ANN201
    """Press down on the option list: (decision, the option highlighted, its odds report, and
    the report of the `ancients odds` command the report names, with the same distribution)."""
    await pilot.pause()
    d = s.decision
    app.query_one("#options").focus()
    await pilot.press("down")
    await pilot.pause()
    key = d.options[app.query_one("#options").highlighted].key
    report = s.game.decision_odds(s.state, d, key, s.store)
    assert report is not None
    cmd = next(x for x in report.explain if x.startswith("same as: "))
    same = s.game.odds(s.store, dict(p.split("=") for p in cmd.split() if "=" in p))
    assert same.distribution == report.distribution  # the same numbers `ancients odds` gives
    return d, key, report, same


@pytest.mark.rule("cen:basic.combat")
def test_centurion_attack_odds_shown_before_the_roll(tmp_path: Path) -> None:
    s, loop = pending("centurion", "basic-carrhae", "combat.hex", tmp_path / "o.json")

    async def go() -> None:
        app = TableApp(loop)
        async with app.run_test(size=SIZE) as pilot:
            d, key, report, same = await odds_of_the_next_option(app, pilot, s)
            assert key != "done"
            shown = text_of(app, "#odds")
            assert shown.splitlines()[0] == report.title
            for label, p in same.distribution.items():
                assert any(line.strip().startswith(label) and str(p) in line for line in shown.splitlines())

    run(go)


@pytest.mark.rule("cen:full.combat", "cen:full.defensive-fire")
def test_full_simulation_attack_odds_in_the_table_and_in_line_mode(tmp_path: Path) -> None:
    """Full Simulation: the target, the kind of attack, each unit and ``all`` show the
    column and its results with probabilities, the numbers ``ancients odds`` gives."""
    from ancients_kit.tui.view import odds_notes

    s, loop = pending("centurion", "carrhae", "attack.target", tmp_path / "f.json")

    async def go() -> None:
        app = TableApp(loop)
        async with app.run_test(size=SIZE) as pilot:
            d, key, report, same = await odds_of_the_next_option(app, pilot, s)  # the first target hex
            assert report.distribution
            assert text_of(app, "#odds").splitlines() == odds_lines(report)
            await pilot.press("enter")  # choose the target: the next question shows odds too
            await pilot.pause()
            d = s.decision
            assert d.kind in ("attack.mode", "attack.unit")
            key = "all" if "all" in d.keys else d.keys[0]
            report = s.game.decision_odds(s.state, d, key, s.store)
            assert report is not None
            idx = d.keys.index(key)
            app.query_one("#options").highlighted = idx
            await pilot.pause()
            assert text_of(app, "#odds").splitlines() == odds_lines(report)
            # line mode prints the same odds under the question
            notes = odds_notes(s, d, d.keys)
            assert any(n.startswith(f"  {key}: odds: {report.title}: ") for n in notes)

    run(go)


@pytest.mark.rule("ccr:base.cards")
def test_cc_hotseat_hand_over_hand_and_log_filters(tmp_path: Path) -> None:
    s = Session.new("ccancients_rome", "tigranocerte", seed=5)
    sides = s.game.sides(s.state)
    who = {x: "human" for x in sides}
    path = tmp_path / "cc.json"
    loop = PlayLoop(s, who, path)

    async def go() -> None:
        app = TableApp(loop)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            first = s.decision.side
            # A hand-over screen before the first player's first turn hides the table.
            assert isinstance(app.screen, HandOver)
            assert f"Hand over to {first}" in str(app.screen.query_one("#handover").render())
            await pilot.press("enter")
            await pilot.pause()
            assert not isinstance(app.screen, HandOver)
            hand = text_of(app, "#hand")
            mine = s.game.hand(s.state, first)
            assert mine and hand.startswith("hand: ") and all(c in hand for c, _ in mine)
            answered = 0
            while s.decision is not None and s.decision.side == first and answered < 40:
                keys = s.decision.keys
                if "done" in keys:  # typed in the answer box
                    app.query_one("#answer").focus()
                    await pilot.press(*"done", "enter")
                else:  # Enter on the option list, the highlight moved there by the player
                    app.query_one("#options").focus()
                    await pilot.press("down", "up", "enter")
                await pilot.pause()
                answered += 1
                assert saved_matches(path, s, who)
            assert s.decision is not None and s.decision.side != first
            assert isinstance(app.screen, HandOver)  # the next player cannot read the previous hand
            shown = str(app.screen.query_one("#handover").render())
            assert shown.startswith(f"{first}: your answers are saved")  # first, the leaver's own results
            await pilot.press("enter")
            await pilot.pause()
            assert str(app.screen.query_one("#handover").render()) == f"Hand over to {s.decision.side} and press Enter"
            await pilot.press("enter")
            await pilot.pause()
            assert not isinstance(app.screen, HandOver)
            other_hand = text_of(app, "#hand")
            assert other_hand != hand or s.game.hand(s.state, s.decision.side) == mine
            # Log filters: by turn and by side; the title says what is shown.
            app.query_one("#log-scroll").focus()
            await pilot.press("f8")
            await pilot.pause()
            title = text_of(app, "#log-title")
            rows = log_rows(s.log, app.viewer, side=sides[0])
            assert f"{len(rows)} of {len(s.log)} events" in title and sides[0] in title
            await pilot.press("f7", "f8", "f8", "f5")
            await pilot.pause()
            assert "turn " in text_of(app, "#log-title")
            assert app.turn_filter is not None
            await pilot.press("f7")
            await pilot.pause()
            assert "all turns" in text_of(app, "#log-title")
            assert len(app.log_shown) == len(s.log)  # the whole log, not its last 30 events

    run(go)


@pytest.mark.rule("ccr:base.close-combat", "ccr:base.ranged")
def test_cc_battle_odds_and_undo(tmp_path: Path) -> None:
    s, loop = pending("ccancients_rome", "tigranocerte", "battle.target", tmp_path / "b.json")

    async def go() -> None:
        app = TableApp(loop)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            d = s.decision
            # the inspector on the target: the unit's dice, movement, blocks
            view = app.query_one("#map", MapView)
            view.cursor = d.options[0].key
            app.cursor_moved()
            tgt = s.state.b.at[d.options[0].key]
            assert f"{tgt.code} " in text_of(app, "#inspector") and "close combat " in text_of(app, "#inspector")
            report = s.game.decision_odds(s.state, d, d.options[0].key, s.store)
            assert report is not None
            shown = text_of(app, "#odds")
            assert shown.splitlines() == odds_lines(report)
            assert any(line.startswith("  P(retreat)") for line in shown.splitlines())
            assert any(line.startswith("  hits: ") for line in shown.splitlines())
            before = list(s.answers)
            app.query_one("#options").focus()
            await pilot.press("down", "up", "enter")
            await pilot.pause()
            assert len(s.answers) > len(before)
            await pilot.press("f9")  # take back my answer and the bot's after it
            await pilot.pause()
            assert s.answers == before
            assert app.log_shown == log_rows(s.log, app.viewer)  # the log shown is the log after the undo
            assert json.loads((tmp_path / "b.json").read_text())["answers"] == before

    run(go)


def test_map_grid_cells_are_distinct_and_clickable() -> None:
    for game, scen in (("centurion", "basic-carrhae"), ("ccancients_rome", "tigranocerte")):
        s = Session.new(game, scen, seed=1)
        pic = s.game.picture(s.state, None)
        for zoom in (0, 1):
            grid = MapGrid(pic, zoom=zoom)
            assert len(grid.cells) == len(pic.hexes)
            for hid, (c, r) in grid.cells.items():
                assert grid.hex_at(c, r) == hid
                assert grid.hex_at(c + grid.cell_w - 2, r + grid.cell_h - 1) == hid
            rows = grid.render().plain.split("\n")
            assert len(rows) == grid.height and all(len(x) == grid.width for x in rows)
        letters = set(grid.terrain.values())
        assert len(letters) == len(grid.terrain)  # one letter per terrain, explained in the legend
        assert len(set(grid.sides.values())) == len(grid.sides) == 2  # sides told apart without colour
        assert all(f"{letter} " in grid.legend() for letter in grid.sides.values())
    # Centurion reads at 80 columns when zoomed out.
    s = Session.new("centurion", "basic-carrhae", seed=1)
    assert MapGrid(s.game.picture(s.state, None), zoom=0).width <= 80


def test_the_grid_redraws_only_the_lines_that_changed_and_draws_them_as_a_fresh_grid_would() -> None:
    """The table redraws the map at every answer; a line is drawn again only when a counter, a
    mark or the cursor on it changed, and what it shows is what a grid drawn from nothing shows."""
    from ancients_kit.tui import view

    for game, scen in (("xenophon", "cyrus-revolt"), ("ccancients_rome", "tigranocerte")):
        s = Session.new(game, scen, seed=2)
        bot = make_bot("greedy")
        before: list[object] = []
        for _ in range(40):
            if s.decision is None:
                break
            pic = s.game.picture(s.state, None)
            here = [k for k in s.decision.keys if k in MapGrid(pic).cells]
            for cursor in here[:3] or [None]:  # the cursor stepping over the question's hexes
                warm = MapGrid(pic).runs(cursor, here[:3])
                view._LAID_OUT.clear()  # forget every drawn line: drawn from nothing
                cold = MapGrid(pic).runs(cursor, here[:3])
                assert warm == cold
                again = MapGrid(pic).runs(cursor, here[:3])
                assert all(a is b for a, b in zip(again, cold))  # nothing changed: every line kept
                before = cold
            s.answer(bot.choose(s, s.decision))
        assert before


@pytest.mark.rule("ccr:base.sections")
def test_cc_section_lines_on_the_grid_never_cut_a_label() -> None:
    """The section lines are drawn only in the blank column between cells; a hex a line
    cuts (in two sections) is marked on both sides of its cell; the legend explains them."""
    import attrs

    from ancients_kit.tui.view import SECTION, viewport

    s = Session.new("ccancients_rome", "tigranocerte", seed=1)
    pic = s.game.picture(s.state, None)
    board = s.state.b.board
    for zoom in (0, 1):
        grid = MapGrid(pic, zoom=zoom)
        plain = grid.render().plain.split("\n")
        bare = MapGrid(attrs.evolve(pic, lines=()), zoom=zoom).render().plain.split("\n")
        assert len(plain) == len(bare)
        drawn = 0
        for a, b in zip(plain, bare):
            assert len(a) == len(b)
            for x, y in zip(a, b):
                if x != y:
                    assert y == " " and x == SECTION  # only blanks became line, no label lost a character
                    drawn += 1
        assert drawn
        for h in board.hexes:
            col, line = grid.cells[h]
            row = plain[line]
            both = row[col - 1] == SECTION and row[col + grid.cell_w - 1] == SECTION
            assert both == (len(board.sections(h, "bottom")) == 2), h
        assert f"{SECTION} section lines" in grid.legend()
    assert SECTION in viewport(pic, 80).plain  # line mode's grid too


def test_line_mode_for_pipes_and_plain(tmp_path: Path) -> None:
    s = Session.new("centurion", "basic-carrhae", seed=3)
    loop = PlayLoop(s, {"parthians": "human", "romans": "greedy"}, tmp_path / "p.json")
    assert not full_screen_allowed(loop, plain=True)
    assert not full_screen_allowed(loop, plain=False)  # pytest's stdin is no terminal
    bots = PlayLoop(s, {"parthians": "greedy", "romans": "greedy"}, tmp_path / "q.json")
    assert not full_screen_allowed(bots, plain=False)


def test_new_game_never_overwrites_a_saved_one(tmp_path: Path) -> None:
    p = tmp_path / "centurion-basic-carrhae-7.json"
    assert free_save_path(p) == p
    p.write_text("{}")
    assert free_save_path(p) == tmp_path / "centurion-basic-carrhae-7-2.json"
    (tmp_path / "centurion-basic-carrhae-7-2.json").write_text("{}")
    assert free_save_path(p) == tmp_path / "centurion-basic-carrhae-7-3.json"


@pytest.mark.rule("cen:basic.combat", "ccr:base.close-combat", "cen:full.combat")
@pytest.mark.parametrize(("game", "scenario", "opponent"), [
    ("centurion", "basic-carrhae", "random"),  # the greedy Centurion bot alone takes seconds a battle
    ("ccancients_rome", "tigranocerte", "greedy"),
    pytest.param("centurion", "basic-carrhae", "greedy", marks=pytest.mark.slow),
    pytest.param("centurion", "carrhae", "greedy", marks=pytest.mark.slow),  # Full Simulation: ~700 answers
])
def test_a_whole_battle_without_leaving_the_table(game: str, scenario: str, opponent: str, tmp_path: Path) -> None:
    """Issue 14, done when: a player (here answering as the random bot would) plays a whole
    battle in the table against a bot, sees the odds of every attack before committing it,
    then reads any past event and inspects every unit; the end is shown and the save replays."""
    from ancients_kit.tui.view import decision_odds, inspect_hex

    s = Session.new(game, scenario, seed=2)
    sides = s.game.sides(s.state)
    who = {sides[0]: "human", sides[1]: opponent}
    path = tmp_path / "whole.json"
    loop = PlayLoop(s, who, path)
    player = make_bot("random")

    async def go() -> None:
        app = TableApp(loop)
        async with app.run_test(size=SIZE) as pilot:
            n = attacks = 0
            while s.decision is not None and n < 3000:
                n += 1
                d = s.decision
                key = player.choose(s, d)
                report = decision_odds(s.game, s.state, d, key, s.store)
                if report is not None:  # an attack: its odds are on the table before it is committed
                    app.draw_odds(key)  # what highlighting that option shows (tested with keys above)
                    assert text_of(app, "#odds").splitlines() == odds_lines(report)
                    attacks += 1
                if n % 60 == 0:  # now and then through the keys, otherwise straight to the table
                    await pilot.pause()
                    app.query_one("#answer").focus()
                    before = len(s.answers)
                    await pilot.press(*key, "enter")  # typed after the question showed: given at once
                    await pilot.pause()
                    assert s.answers[before] == key
                else:
                    assert app.give(key)
            await pilot.pause()
            assert s.outcome is not None and attacks
            assert text_of(app, "#question").startswith(f"Game over: {s.outcome.text}")
            assert saved_matches(path, s, who)
            # any past event: the whole log, and one turn of it at a time
            assert len(app.log_shown) == len(s.log)
            app.turn_filter = 1
            app.draw_log()
            first = [r for r in log_rows(s.log, app.viewer) if r.turn == 1]
            assert first and app.log_line(app.log_shown[0]).plain.endswith(first[0].text + (
                f"  [{', '.join(first[0].rules)}]" if first[0].rules else ""))
            # any unit: the inspector describes every counter on the map
            view = app.query_one("#map", MapView)
            pic = view.grid.picture
            for c in pic.counters:
                view.cursor = c.hex
                app.cursor_moved()
                shown = text_of(app, "#inspector")
                assert shown.startswith(f"hex {c.hex}:")
                assert "\n".join(inspect_hex(pic, c.hex)) in shown
            await pilot.press("ctrl+q")

    run(go)
    again = savefile.load(path)
    assert again.replay_matches and again.outcome == s.outcome


def test_line_mode_viewport_fits_and_follows_the_question() -> None:
    from ancients_kit.tui.view import viewport

    s = Session.new("centurion", "basic-carrhae", seed=5)
    play_until(s, "combat.hex")
    pic = s.game.picture(s.state, s.decision.side)
    marks = list(s.decision.context["highlight"])
    for width in (80, 40):
        text = viewport(pic, width, marks)
        rows = text.plain.split("\n")
        grid_rows = rows[:MapGrid(pic, zoom=0).height]
        assert all(len(r) <= width for r in grid_rows)
        assert "terrain: " in text.plain and "sides: " in text.plain
    narrow = viewport(pic, 20, marks).plain
    assert "centred on the question's hexes" in narrow
    assert "C" in "".join(narrow.split("\n")[:40])  # the attacked Roman stack is in view
