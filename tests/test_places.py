"""Choosing places (issue 23 item 4): the core's reading of a question's hexes as places, nearest
first and narrowed by area, in the line-mode prompt; the table's map, cursor and narrowing are
tested with the games that offer places (games/ldf/tests/test_places.py, games/xenophon/...)."""

from __future__ import annotations

from pathlib import Path

import click
import pytest

from ancients_kit.cli.play import PlayLoop
from ancients_kit.places import (LIMIT, NEAREST, Place, Places, areas, listing, matching_areas, offering,
                                 places_of, read_places)
from ancients_kit.session import Decision, Option


def _line(n: int) -> dict[str, int]:
    """A toy map: hexes 0101 ... on one row, ``n`` of them; distance is the column difference."""
    return {f"{c:02d}01": c for c in range(1, n + 1)}


def _decision(hexes: list[str], extra: tuple[str, ...] = ("done",)) -> Decision:
    return Decision("blue", "where?", tuple(Option(h) for h in hexes) + tuple(Option(k) for k in extra))


def _offered(d: Decision, cols: dict[str, int], origin: str | None, area: dict[str, tuple[str, str]],
             names: dict[str, str] | None = None) -> Decision:
    names = names or {}
    return offering(d, lambda: read_places(d, lambda k: k if k in cols else None, lambda h: names.get(h, ""),
                                           area.__getitem__, lambda a, b: abs(cols[a] - cols[b]), origin))


def test_a_short_list_is_every_place_nearest_then_by_name_with_its_number() -> None:
    cols = _line(9)
    hexes = list(cols)
    d = _offered(_decision(hexes), cols, "0501", {h: ("west", "west") for h in hexes}, {"0601": "Zama", "0401": "Abae"})
    rows = listing(d)
    assert [r.key for r in rows] == ["done", "0501", "0401", "0601", "0301", "0701", "0201", "0801", "0101", "0901"]
    assert all(r.kind == "option" for r in rows)
    by_key = {r.key: r for r in rows}
    assert by_key["0401"].number == 4 and by_key["0401"].text.startswith("  4. 0401")  # the rules' number
    assert "Abae" in by_key["0401"].text and "1 hex" in by_key["0401"].text and "here" in by_key["0501"].text
    assert d.keys == (*hexes, "done")  # the question itself is unchanged


def test_a_long_list_shows_the_nearest_and_the_areas() -> None:
    cols = _line(60)
    hexes = list(cols)
    area = {h: ("west" if c <= 30 else "east", "west" if c <= 30 else "east") for h, c in cols.items()}
    d = _offered(_decision(hexes), cols, "0101", area)
    rows = listing(d)
    shown = [r for r in rows if r.kind == "option" and r.key != "done"]
    assert [r.key for r in shown] == hexes[:NEAREST]
    assert [(r.kind, r.key) for r in rows if r.kind == "area"] == [("area", "west"), ("area", "east")]
    assert "30 places, 0-29 hexes" in next(r.text for r in rows if r.key == "west")
    narrowed = listing(d, "EAST")  # any case
    assert narrowed[1].kind == "back"
    places = [r for r in narrowed if r.kind == "option" and r.key != "done"]
    assert len(places) == LIMIT and places[0].key == "3101"
    assert narrowed[-1].kind == "more" and "10 more in east" in narrowed[-1].text


def test_areas_split_a_large_region_by_its_nearest_anchor() -> None:
    cols = _line(50)
    dist = lambda a, b: abs(cols[a] - cols[b])  # noqa: E731
    got = areas(cols, lambda h: "plain" if cols[h] <= 45 else "hills", {"0501": "Ur", "4001": "Kish"}, dist)
    assert got["0101"] == ("plain around Ur", "plain") and got["4401"] == ("plain around Kish", "plain")
    assert got["4801"] == ("hills", "hills")  # a small region is one area
    ps = Places("0101", tuple(Place(h, i, h, "", a, r, 0) for i, (h, (a, r)) in enumerate(got.items(), 1)))
    assert matching_areas(ps, "kish") == {"plain around Kish"}  # the place an area is named around
    assert matching_areas(ps, "plain") == {"plain around Ur", "plain around Kish"}  # the region
    assert matching_areas(ps, "hil") == {"hills"} and not matching_areas(ps, "hi")  # three letters or more


def test_too_many_areas_are_listed_by_region() -> None:
    cols = _line(90)
    hexes = list(cols)
    area = {h: (f"r{c // 30} a{c // 3}", f"r{c // 30}") for h, c in cols.items()}
    d = _offered(_decision(hexes, ()), cols, "0101", area)
    rows = listing(d)
    assert [r.key for r in rows if r.kind == "area"] == ["r0", "r1", "r2", "r3"]
    assert [r.key for r in listing(d, "r1") if r.kind == "area"] == [f"r1 a{i}" for i in range(10, 20)]


def test_no_hook_or_one_place_keeps_the_rules_list() -> None:
    d = _decision(["0101", "0201"])
    assert places_of(d) is None
    assert [r.key for r in listing(d)] == ["0101", "0201", "done"]
    cols = _line(1)
    one = _offered(_decision(["0101"]), cols, None, {"0101": ("x", "x")})
    assert places_of(one) is None


def test_the_hook_is_read_once_and_only_when_shown() -> None:
    calls: list[int] = []
    d = _decision(["0101", "0201"])

    def read() -> Places:
        calls.append(1)
        return Places(None, (Place("0101", 1, "0101", "", "x", "x", None), Place("0201", 2, "0201", "", "x", "x", None)))

    d = offering(d, read)
    assert not calls
    places_of(d)
    places_of(d)
    assert calls == [1]


@pytest.mark.rule("xen:levy")
def test_line_mode_narrows_by_an_area_typed_and_widens(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """In line mode an area's name lists that area's places; ``places`` every area again; a hex
    number answers at any time, and so does an option's number (the rules' order)."""
    from ancients_kit.bots import make_bot
    from ancients_kit.session import Session

    s = Session.new("xenophon", "cyrus-revolt", seed=1)
    bot = make_bot("greedy")
    while not (s.decision.kind == "levy.hex" and (ps := places_of(s.decision)) and len(ps.places) > LIMIT):
        s.answer(bot.choose(s, s.decision))
    d = s.decision
    far = ps.ordered()[-1]
    area = far.area
    loop = PlayLoop(s, {x: "human" if x == d.side else "greedy" for x in s.game.sides(s.state)},
                    tmp_path / "p.json", show_map=False)
    answers = iter([area.upper(), "places", far.hex])
    monkeypatch.setattr(click, "prompt", lambda *a, **k: next(answers))
    capsys.readouterr()
    assert loop.human_turn(d)
    out = capsys.readouterr().out
    assert s.answers[-1] == far.key
    first, narrowed, widened = out.split(f"{d.side}: {d.prompt}")[1:4]
    assert "▸ " in first and "◂ every area" in narrowed and "▸ " in widened
    assert sum(1 for line in narrowed.splitlines() if "·" in line) <= LIMIT
    assert all(area in line for line in narrowed.splitlines() if "·" in line)


# ------------------------------------------------------------------ the full-screen table


def _long_question(game: str, scenario: str, kind: str, seed: int = 1):  # noqa: ANN202
    """A session at the first ``kind`` question offering more than LIMIT places, with a loop whose
    asking side is human (the other greedy)."""
    from ancients_kit.bots import make_bot
    from ancients_kit.session import Session

    s = Session.new(game, scenario, seed=seed)
    bot = make_bot("greedy")
    for _ in range(5000):
        d = s.decision
        ps = places_of(d)
        if d.kind == kind and ps is not None and len(ps.places) > LIMIT:
            break
        s.answer(bot.choose(s, d))
    else:
        raise LookupError(kind)
    return s, d, ps


def _table(s, d, path: Path):  # noqa: ANN001, ANN202
    from ancients_kit.tui.app import TableApp

    return TableApp(PlayLoop(s, {x: "human" if x == d.side else "greedy" for x in s.game.sides(s.state)}, path))


def _run(app, body, size: tuple[int, int] = (120, 40)) -> None:  # noqa: ANN001
    import asyncio

    async def go() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await body(pilot)

    asyncio.run(go())


def _place_rows(app) -> list[str]:  # noqa: ANN001
    keys = app.places.keys()
    return [r.key for r in app.rows if r.kind == "option" and r.key in keys]


@pytest.mark.rule("xen:operations")
def test_the_table_answers_a_place_from_the_map_by_click_and_by_cursor(tmp_path: Path) -> None:
    """A force's next step among more than 20 destinations: the list shows at most 20 of them; a
    click on a destination's hex puts its answer (``move:HEX``) in the box, a second click gives
    it; Shift+arrows move the cursor from the answer box, a destination's hex fills the box, a
    typed letter replaces it, and Enter gives the answer the cursor put there."""
    from ancients_kit.tui.app import AnswerBox, MapView

    s, d, ps = _long_question("xenophon", "cyrus-revolt", "ops.action")
    app = _table(s, d, tmp_path / "c.json")

    async def body(pilot) -> None:  # noqa: ANN001
        view = app.query_one("#map", MapView)
        box = app.query_one("#answer", AnswerBox)
        assert len(_place_rows(app)) <= LIMIT and any(r.kind == "area" for r in app.rows)
        assert view.cursor == ps.origin  # the force's hex
        area, (x0, y0) = view.scrollable_content_region, view.scroll_offset
        target = next(p for p in ps.ordered() if p.hex != ps.origin and len(app.keys_at(p.hex)) == 1
                      and p.key.startswith("move:")  # a destination, not a battle (no places asked next)
                      and x0 <= view.grid.cells[p.hex][0] + 1 < x0 + area.width - 1
                      and y0 <= view.grid.cells[p.hex][1] < y0 + area.height)
        col, line = view.grid.cells[target.hex]
        n = len(s.answers)
        await pilot.click("#map", offset=(col + 2 - x0, line + 1 - y0))
        await pilot.pause()
        assert view.cursor == target.hex and box.value == target.key and len(s.answers) == n
        assert f"option {target.number}, {target.key}" in str(app.query_one("#inspector").render())
        await pilot.click("#map", offset=(col + 2 - x0, line + 1 - y0))
        await pilot.pause()
        assert s.answers[n:n + 1] == [target.key], app.message
        # the cursor, from the answer box
        d2 = s.decision
        box.focus()
        names = {(1, 0): "right", (-1, 0): "left", (0, 1): "down", (0, -1): "up"}

        def step_to_an_answer() -> tuple[list[str], str]:
            """The Shift+arrow presses that take the cursor to the nearest hex with an answer
            along one of the four directions, and that hex."""
            for reach in range(1, 8):
                for m in names:
                    here = view.cursor
                    for _ in range(reach):
                        here = view.grid.step(here, *m)
                    if app.keys_at(here):
                        return [f"shift+{names[m]}"] * reach, here
            raise AssertionError(f"no answer's hex near {view.cursor}")

        presses, there = step_to_an_answer()
        await pilot.press(*presses)
        await pilot.pause()
        assert view.cursor == there and app.focused is box
        assert box.value == app.keys_at(there)[0] and s.decision is d2
        await pilot.press("x")
        assert box.value == "x"  # typing replaces what the cursor put in the box
        await pilot.press("backspace")
        presses, there = step_to_an_answer()
        await pilot.press(*presses)
        await pilot.pause()
        key = app.keys_at(there)[0]
        assert view.cursor == there and box.value == key
        m = len(s.answers)
        await pilot.press("enter")
        await pilot.pause()
        assert s.answers[m:m + 1] == [key], app.message

    _run(app, body)


@pytest.mark.rule("ldf:10.4")
def test_the_table_narrows_a_long_list_by_area(tmp_path: Path) -> None:
    """More than 20 hexes to choose: the nearest and the areas; an area typed (any case) and
    Enter list its places only, and the map marks those; Escape on the empty box shows every
    area again; an area's row chosen with Down and Enter narrows too; a hex number answers."""
    from ancients_kit.tui.app import MapView

    s, d, ps = _long_question("ldf", "campaign", "setup.tribe")
    app = _table(s, d, tmp_path / "n.json")

    async def body(pilot) -> None:  # noqa: ANN001
        view = app.query_one("#map", MapView)
        rows = [r for r in app.rows if r.kind == "area"]
        assert len(rows) >= 2 and len(_place_rows(app)) <= LIMIT
        wanted = rows[-1].key  # the farthest area
        await pilot.press(*wanted.upper(), "enter")
        await pilot.pause()
        within = matching_areas(ps, wanted)
        shown = _place_rows(app)
        assert shown and all(p.area in within for p in ps.places if p.key in shown)
        assert set(view.highlight) == {p.hex for p in ps.places if p.area in within}
        assert app.rows[0].kind == "back" and not s.answers[len(s.answers):]
        await pilot.press("escape")  # an empty box: every area again
        await pilot.pause()
        assert [r.key for r in app.rows if r.kind == "area"] == [r.key for r in rows]
        i = next(i for i, r in enumerate(app.rows) if r.kind == "area")
        chosen = app.rows[i].key
        await pilot.press(*["down"] * i, "enter")
        await pilot.pause()
        assert app.narrowed == chosen and app.rows[0].kind == "back"
        assert all(p.area in matching_areas(ps, chosen) for p in ps.places if p.key in _place_rows(app))
        first = next(r for r in app.rows if r.kind == "option")
        n = len(s.answers)
        hid = next(p.hex for p in ps.places if p.key == first.key)
        await pilot.press(*hid, "enter")
        await pilot.pause()
        assert s.answers[n] == first.key

    _run(app, body, (80, 24))


@pytest.mark.slow
@pytest.mark.rule("ldf:10.4", "xen:operations", "xen:levy")
@pytest.mark.parametrize(("game", "scenario"), [("ldf", "campaign"), ("xenophon", "cyrus-revolt"),
                                                ("xenophon", "kings-war")])
def test_no_strategic_question_shows_more_than_about_20_hexes(game: str, scenario: str) -> None:
    """Whole greedy games: no question lists more than LIMIT places before it is narrowed, and
    no narrowed list either (or it says how many more and how to reach them)."""
    from ancients_kit.bots import make_bot
    from ancients_kit.session import Session

    s = Session.new(game, scenario, seed=2)
    bot = make_bot("greedy")
    while s.decision is not None and len(s.answers) < 30_000:
        d = s.decision
        ps = places_of(d)
        if ps is not None:
            keys = ps.keys()
            rows = listing(d, places=ps)
            assert sum(r.kind == "option" and r.key in keys for r in rows) <= LIMIT, d.prompt
            for r in rows:
                if r.kind == "area":
                    narrowed = listing(d, r.key, places=ps)
                    assert sum(x.kind == "option" and x.key in keys for x in narrowed) <= LIMIT, (d.prompt, r.key)
        s.answer(bot.choose(s, d))
    assert s.decision is None
