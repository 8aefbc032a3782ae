"""Teachers' tools: pictures of every scenario, the HTML replay in a real browser, explained logs."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from ancients_kit import savefile
from ancients_kit.bots import RandomBot, play_out
from ancients_kit.cli.main import cli
from ancients_kit.cli.teach import html_replay
from ancients_kit.data import DataStore
from ancients_kit.drawing import svg_document
from ancients_kit.picture import SQRT3, hexmap_hexes
from ancients_kit.plugin import load_games
from ancients_kit.session import Session

from tests.browser import Browser, chromium_path

SVG = "{http://www.w3.org/2000/svg}"


def _scenarios() -> list[tuple[str, str]]:
    out = []
    for gid, g in sorted(load_games().items()):
        for info in g.scenarios(DataStore(g.package)):
            out.append((gid, info.id))
    return out


@pytest.mark.parametrize(("game", "scenario"), _scenarios())
def test_every_scenario_is_drawn(game: str, scenario: str) -> None:
    s = Session.new(game, scenario, seed=1)
    pic = s.game.picture(s.state, None)
    assert pic is not None, f"{game} draws no picture"
    root = ET.fromstring(svg_document(pic))
    hexes = root.findall(f".//{SVG}polygon[@class='hex']")
    assert len(hexes) == len(pic.hexes) and {h.get("data-hex") for h in hexes} == {h.id for h in pic.hexes}
    drawn = sorted(g.get("data-hex") for g in root.findall(f".//{SVG}g[@class='counter']"))
    assert drawn == sorted(c.hex for c in pic.counters) and drawn
    assert len(root.findall(f".//{SVG}line[@class='hexside']")) == len(pic.hexsides)
    assert root.find(f".//{SVG}g[@class='legend']") is not None


def test_hexmap_layout_puts_neighbours_one_hex_apart() -> None:
    g = load_games()["centurion"]
    s = Session.new("centurion", "basic-gaul", seed=1)
    hm = s.state.map
    hexes, _ = hexmap_hexes(hm)
    at = {h.id: (h.x, h.y) for h in hexes}
    for h in list(hm.hexes())[:200]:
        for n in hm.neighbors(h):
            (x1, y1), (x2, y2) = at[hm.to_id(h)], at[hm.to_id(n)]
            assert ((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5 == pytest.approx(SQRT3)
    assert g.picture(s.state, None).orientation == hm.numbering.orientation


def test_a_map_is_laid_out_once_and_counters_are_its_pieces() -> None:
    """A replay draws the same map thousands of times: it is laid out once, and the counter
    layer is its pieces joined, so the replay can store each piece once."""
    from ancients_kit.drawing import counter_layer, counter_pieces

    s = Session.new("centurion", "basic-gaul", seed=1)
    assert hexmap_hexes(s.state.map) is hexmap_hexes(s.state.map)
    pic = s.game.picture(s.state, None).with_highlight(["0101"])
    pieces = counter_pieces(pic)
    assert len(pieces) == len(pic.markers) + len(pic.counters) + 1
    assert counter_layer(pic) == "\n".join(pieces)


def test_svg_is_deterministic() -> None:
    a = Session.new("ccancients_rome", "carrhes", seed=4)
    b = Session.new("ccancients_rome", "carrhes", seed=4)
    assert svg_document(a.game.picture(a.state, None)) == svg_document(b.game.picture(b.state, None))


@pytest.fixture
def run():
    runner = CliRunner()
    return lambda *args: runner.invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def bot_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    s = Session.new("centurion", "basic-gaul", seed=3)
    play_out(s, RandomBot(), max_decisions=60)
    path = tmp_path_factory.mktemp("teach") / "gaul.json"
    savefile.save(s, path)
    return path


def test_show_writes_svg_and_png(run, bot_game: Path, tmp_path: Path) -> None:
    svg, png = tmp_path / "a.svg", tmp_path / "a.png"
    res = run("show", str(bot_game), "--at", "10", "--svg", str(svg), "--png", str(png))
    assert res.exit_code == 0, res.output
    ET.parse(svg)
    if png.exists():  # the plots extra is installed with the test tools
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    res = run("show", str(bot_game), "--at", "999", "--svg", str(svg))
    assert res.exit_code == 2 and "holds 60 answers" in res.output
    res = run("show", str(bot_game), "--viewer", "parthians", "--svg", str(svg))
    assert res.exit_code == 2 and "not a side of this game" in res.output
    res = run("show", str(bot_game), "--svg", str(tmp_path / "a.gif"))
    assert res.exit_code == 2 and "name a .svg or .png file" in res.output


def test_show_highlights_the_hexes_of_the_question(bot_game: Path) -> None:
    s = savefile.load(bot_game)
    from ancients_kit.cli.teach import session_picture

    pic = session_picture(s, None)
    hl = set(s.decision.context.get("highlight", ())) if s.decision and s.decision.context else set()
    assert pic.highlight == hl & {h.id for h in pic.hexes}


def test_explained_log_names_rule_titles_and_cells(run, bot_game: Path) -> None:
    res = run("replay", str(bot_game), "--explain")
    assert res.exit_code == 0, res.output
    text = res.output
    assert "rule cen:basic.movement: " in text
    titles = {r.id: r.title for r in load_games()["centurion"].rules_index()}
    assert titles["cen:basic.movement"] in text
    assert "behind it: " in text


STEP_BUTTONS = {"first": "first", "prev": "back", "next": "forward", "last": "last"}


def test_step_buttons_say_what_they_do_in_plain_letters(bot_game: Path) -> None:
    """Every font has the ASCII letters; the arrows beside them are drawn, not typed
    (the first and last buttons used to be glyphs few fonts have, shown as empty boxes)."""
    page = html_replay(savefile.load(bot_game))
    for button, word in STEP_BUTTONS.items():
        start = page.index(f'<button id="{button}"')
        html = page[start:page.index("</button>", start)]
        text = "".join(part.split(">", 1)[-1] for part in html.split("<"))
        assert text.strip() == word, (button, text)
        assert 'aria-label="' in html and "<svg" in html and "<polygon" in html
    chrome = page[:page.index('<script id="data"')]
    assert all(ord(ch) < 128 for ch in chrome), "the page's own labels keep to ASCII"


@pytest.mark.skipif(chromium_path() is None and not os.environ.get("CI"), reason="no Chromium here (CI installs it)")
def test_html_replay_steps_in_a_real_browser(bot_game: Path, tmp_path: Path) -> None:
    binary = chromium_path()
    assert binary, "CI must install Chromium (.ci/run)"
    s = savefile.load(bot_game)
    page = tmp_path / "replay.html"
    page.write_text(html_replay(s), encoding="utf-8")
    steps = [Session(s.game, s.scenario, seed=s.seed, answers=s.answers[:k]) for k in (0, 3, 4)]
    with Browser(binary) as b:
        b.open(page)
        assert b.js("document.body.dataset.step") == "0"
        assert b.js("document.getElementById('prompt').textContent") == steps[0].decision.prompt
        for _ in range(3):
            b.key("ArrowRight", 39)
        assert b.js("document.body.dataset.step") == "3"
        assert b.js("document.getElementById('prompt').textContent") == steps[1].decision.prompt
        assert b.js("document.getElementById('given').textContent") == s.answers[3]
        pic = s.game.picture(steps[1].state, None)
        assert b.js("document.querySelectorAll('#counters g.counter').length") == len(pic.counters)
        b.click("#next")
        assert b.js("document.body.dataset.step") == "4"
        b.key("ArrowLeft", 37)
        assert b.js("document.body.dataset.step") == "3"
        b.key("End", 35)
        assert b.js("document.body.dataset.step") == str(len(s.answers))
        events = b.js("Array.from(document.querySelectorAll('#events li')).map(li => li.textContent)")
        after = [e for e in s.log][-1]
        assert any(after.text in e for e in events)
        titled = b.js("Array.from(document.querySelectorAll('.rule-title')).map(x => x.textContent)")
        assert titled and all(t.startswith("(") for t in titled)
        for button, word in STEP_BUTTONS.items():
            label = b.js(f"(() => {{const l = document.querySelector('#{button} .label'), r = l.getBoundingClientRect();"
                         "return [l.innerText, r.width, r.height, getComputedStyle(l).fontFamily];})()")
            assert label[0] == word and label[1] > 10 and label[2] > 5 and "sans-serif" in label[3], (button, label)
            icon = b.js(f"(() => {{const r = document.querySelector('#{button} svg.icon').getBoundingClientRect();"
                        "return [r.width, r.height];})()")
            assert icon == [12, 10], (button, icon)


def test_the_play_loop_explains_recent_events(run, tmp_path: Path) -> None:
    runner = CliRunner()
    save = tmp_path / "e.json"
    res = runner.invoke(cli, ["new", "centurion", "basic-gaul", "--seed", "5", "--save", str(save), "--no-map"],
                        input="explain 2\nquit\n", catch_exceptions=False)
    assert res.exit_code == 0, res.output
    titles = {r.id: r.title for r in load_games()["centurion"].rules_index()}
    assert f"rule cen:basic.sequence: {titles['cen:basic.sequence']}" in res.output
