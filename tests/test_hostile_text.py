"""Hostile text in data reaches no output unescaped (issue 27, item 1).

A scenario title, a side, unit or action name may hold rich markup (``[/]``,
``[revised]``), HTML (``<!--<script>``, ``</script>``), control characters (ESC,
BEL, C1) and U+2028. Each output has one rule (:mod:`ancients_kit.text`):

* the terminal shows the text as written, with control characters replaced:
  no ESC byte, no markup taken as styles, never a traceback;
* the HTML replay carries its data so that the page keeps exactly its two
  scripts, whole;
* the SVG is well-formed XML.

The defects found by hand come first, each through a real game (a C&C battle
whose title a variant replaces); the property tests then feed generated
hostile names to every renderer: the SVG writer, the HTML page, and the CLI's
terminal output (a tiny test game whose title and side names are hostile,
played, replayed and explained).

html5lib is not installed here; the standard library's ``html.parser`` finds
the script elements but does not model the HTML tokenizer's "script data
escaped" states, so the checks also require that no script holds ``<!--`` (the
start of those states) or ``</script`` and that the data block holds no ``<`` at all.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ancients_kit.cli import teach
from ancients_kit.cli.main import cli
from ancients_kit.drawing import svg_document
from ancients_kit.packing import UNPACK_JS, pack, unsqueeze
from ancients_kit.picture import Counter, Marker, Picture, PictureHex, PictureHexside, PictureLine
from ancients_kit.text import CONTROL, clean, markup, script_json, xml, xml_attr

ROOT = Path(__file__).resolve().parents[1]
CARRHES = ROOT / "games" / "ccancients_rome" / "data" / "battles" / "carrhes.toml"

HOSTILE = "Carrhes [/] <!--<script> [revised] </script> \x1b[31mred\x07 \x9b2J \u2028 & \"q\" 'a'"
"""Every kind of trouble in one title."""


def _toml_string(s: str) -> str:
    """A TOML basic string: quotes, backslashes and the control characters TOML forbids escaped."""
    return '"' + "".join(f"\\u{ord(c):04x}" if c in '"\\' or ord(c) < 0x20 or ord(c) == 0x7F else c
                         for c in s) + '"'


def _carrhes_variant(folder: Path, title: str) -> Path:
    """A variant replacing C&C's Carrhes battle by the same battle under ``title``."""
    text = CARRHES.read_text("utf-8")
    text = text.replace('\ntitle = "Carrhes"\n', f"\ntitle = {_toml_string(title)}\n", 1)
    text = text.replace('\ntitle = "Carrhes (-53)"\n', f"\ntitle = {_toml_string(title + ' (-53)')}\n", 1)
    assert '\ntitle = "Carrhes"\n' not in text and '\ntitle = "Carrhes (-53)"\n' not in text
    (folder / "battle.toml").write_text(text, "utf-8")
    v = folder / "hostile.toml"
    v.write_text('[meta]\nid = "hostile"\nsource = "variant"\nnote = "hostile title"\n\n'
                 '[replace."ccancients_rome.battle.carrhes"]\nfile = "battle.toml"\n', "utf-8")
    return v


def _invoke(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def _shown(text: str) -> str:
    """How the terminal shows ``text``: as written, control characters replaced (white space
    squeezed: rich wraps long lines in a pipe)."""
    return " ".join(clean(text).split())


def _squeezed(output: str) -> str:
    return " ".join(output.split())


# ----------------------------------------------------------------------------- the helpers


def test_clean_replaces_every_control_character_but_newline_and_tab() -> None:
    assert clean("a\x1b[2Jb\x07c\td\ne\x7f\x9b\x85") == "a\u241b[2Jb\u2407c\td\ne\u2421\ufffd\ufffd"
    assert clean("plain [bold] \u00e9") == "plain [bold] \u00e9"


def test_markup_shows_brackets_as_written() -> None:
    from rich.text import Text

    assert Text.from_markup(f"[bold]{markup('[revised] [/] x')}[/]").plain == "[revised] [/] x"


def test_script_json_has_no_angle_bracket_and_reads_back() -> None:
    data = {"t": "</script><!--<script>&\u2028\u2029>"}
    for text in (script_json(data), script_json(data, ensure_ascii=False)):
        assert not set(text) & set("<>&\u2028\u2029") and json.loads(text) == data


def test_xml_drops_what_xml_forbids_and_escapes_the_rest() -> None:
    assert xml("a\x1b\x07\x00b\x9b<&>\"'\ud800\ufffe\tc") == "ab&lt;&amp;&gt;\"'\tc"
    assert xml_attr("a\x1b<&>\"'\t\n") == "a&lt;&amp;&gt;&quot;'&#9;&#10;"
    root = ET.fromstring(f'<t a="{xml_attr(HOSTILE)}">{xml(HOSTILE)}</t>')
    assert root.text == root.get("a") == "".join(c for c in HOSTILE if c not in "\x1b\x07\x9b")


# ----------------------------------------------------------------------------- the defects


@pytest.fixture(scope="module")
def hostile_save(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    """A whole C&C battle between bots under the hostile title, saved (and the output of `new`)."""
    folder = tmp_path_factory.mktemp("hostile")
    variant = _carrhes_variant(folder, HOSTILE)
    save = folder / "carrhes.json"
    res = _invoke("new", "ccancients_rome", "carrhes", "--bots", "--seed", "3", "--no-map", "--plain",
                  "--save", str(save), "--variant", str(variant))
    return save, variant, res.output + f"\n(exit {res.exit_code})"


def test_tables_shows_a_title_with_markup_as_written(tmp_path: Path) -> None:
    """`tables GAME map.carrhes` used to end in a traceback: the map table's title went into markup,
    and the internal-error handler printed rich's complaint (which quotes it) as markup too."""
    variant = _carrhes_variant(tmp_path, "Carrhes [/] <!--<script>")
    res = _invoke("tables", "ccancients_rome", "map.carrhes", "--variant", str(variant))
    assert res.exit_code == 0, res.output
    assert "Carrhes [/] <!--<script>" in res.output


def test_a_title_in_brackets_does_not_vanish(tmp_path: Path) -> None:
    variant = _carrhes_variant(tmp_path, "[revised]")
    res = _invoke("tables", "ccancients_rome", "map.carrhes", "--variant", str(variant))
    assert res.exit_code == 0 and "[revised] (-53)" in res.output, res.output
    res = _invoke("scenarios", "ccancients_rome", "--variant", str(variant))
    assert res.exit_code == 0 and "[revised]" in res.output, res.output


def test_a_bot_game_ends_with_the_title_as_written(hostile_save: tuple[Path, Path, str]) -> None:
    """`new ... --bots` crashed at game over on a title with `[/]` (the outcome went into markup)."""
    save, _, output = hostile_save
    assert output.endswith("(exit 0)"), output[-2000:]
    assert "game over" in output and "Traceback" not in output
    assert f"wins {_shown(HOSTILE)}" in _squeezed(output)
    assert "\x1b" not in output and "\x07" not in output and "\x9b" not in output
    assert json.loads(save.read_text("utf-8"))["finished"]


@pytest.mark.parametrize("flags", [(), ("--explain",), ("--viewer", "roman")])
def test_replay_prints_no_control_character(hostile_save: tuple[Path, Path, str], flags: tuple[str, ...]) -> None:
    save, _, _ = hostile_save
    res = _invoke("replay", str(save), *flags)
    assert res.exit_code == 0, res.output
    assert _shown(HOSTILE) in _squeezed(res.output)
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", res.output)


def test_the_internal_error_report_prints_its_message_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    import ancients_kit.cli.listing as listing

    def broken(*_a: object, **_k: object) -> None:
        raise RuntimeError("Carrhes [/] <!--<script> [revised] \x1b[2J")

    monkeypatch.setattr(listing, "load_games", broken)
    res = CliRunner().invoke(cli, ["games"], catch_exceptions=False)
    assert res.exit_code == 1
    assert "internal error: RuntimeError: Carrhes [/] <!--<script> [revised] \u241b[2J" in res.output
    assert "\x1b" not in res.output


def test_a_problem_message_carries_no_control_character() -> None:
    """A one-line problem (exit 2), which click prints as it is, may quote data."""
    from ancients_kit.cli.ui import UsageProblem

    assert UsageProblem("no side 'a\x1b[2Jb\x07'").format_message() == "no side 'a\u241b[2Jb\u2407'"


def test_the_svg_of_a_hostile_title_is_well_formed(hostile_save: tuple[Path, Path, str], tmp_path: Path) -> None:
    save, _, _ = hostile_save
    out = tmp_path / "p.svg"
    res = _invoke("show", str(save), "--at", "2", "--svg", str(out))
    assert res.exit_code == 0, res.output
    root = ET.parse(out).getroot()
    assert "Carrhes [/] <!--<script>" in "".join(root.itertext())


def test_the_html_replay_of_a_hostile_title_keeps_its_two_scripts(hostile_save: tuple[Path, Path, str],
                                                                 tmp_path: Path) -> None:
    save, _, _ = hostile_save
    out = tmp_path / "r.html"
    res = _invoke("replay", str(save), "--html", str(out))
    assert res.exit_code == 0, res.output
    page = out.read_text("utf-8")
    data = _check_page(page)
    assert any(HOSTILE in e["text"] for e in _events(data))


# ----------------------------------------------------------------------------- checking a page


class _Scripts(HTMLParser):
    """The script elements of a page: (attributes, text)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.scripts: list[tuple[dict[str, str | None], list[str]]] = []
        self._open: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            self._open = []
            self.scripts.append((dict(attrs), self._open))

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._open = None

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self._open.append(data)


_MAIN = teach._PAGE.split("<script>", 1)[1].split("</script>", 1)[0] % {"unpack": UNPACK_JS.strip()}
"""The page's own script, as the template writes it."""


def _check_page(page: str) -> dict:
    """The page has exactly its two scripts, whole (the data block first, then the main script
    as written), and no script holds what would start the tokenizer's escaped states; the data
    block holds no ``<`` and reads back as JSON. Returns the data."""
    p = _Scripts()
    p.feed(page)
    p.close()
    assert [a.get("id") for a, _ in p.scripts] == ["data", None]
    data_text, main = ("".join(t) for _, t in p.scripts)
    assert main == _MAIN
    assert "<" not in data_text
    for text in (data_text, main):
        assert "<!--" not in text and "</script" not in text.lower()
    return json.loads(unsqueeze(data_text))


def _events(data: dict) -> list[dict]:
    from ancients_kit.packing import unpack

    return unpack(data)["events"]


# ----------------------------------------------------------------------------- properties

NASTY = ["[/]", "[bold]", "[revised]", "<!--", "<script>", "</script>", "</SCRIPT >", "-->", "\x1b[2J", "\x1b",
         "\x07", "\x00", "\x9b", "\x85", "\x7f", "\u2028", "\u2029", "&amp;", "&", "<", ">", '"', "'", "\\", "`",
         "\r", "\n", "\t", "\ud800", "\ufffe", "\U0001f3db", "]]>", "<![CDATA[", "{", "%s", "%(title)s"]

names = st.lists(st.one_of(st.sampled_from(NASTY), st.text(max_size=4)), min_size=1, max_size=6).map("".join)
"""A hostile name: pieces of markup, HTML, control characters and any other text."""

PROPERTY = settings(max_examples=25, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def _picture(n: list[str]) -> Picture:
    hexes = (PictureHex(n[0], 0.0, 0.0, n[1]), PictureHex("0102", 1.5, 0.87, "clear"))
    return Picture(
        "flat", hexes,
        counters=(Counter(n[0], n[2], n[3], n[4], 2, False, n[5], (n[6], "leader")),
                  Counter("0102", "b", "??", "", None, True)),
        hexsides=(PictureHexside(n[0], "0102", n[7]),),
        markers=(Marker(n[0], n[8]),),
        lines=(PictureLine(0, 0, 1, 1, n[9]),),
        sides=((n[2], n[10]), ("b", n[11])),
        title=n[12], status=n[13], legend={n[14]: n[15], "SD": n[1]},
        borders=(PictureHexside(n[0], "0102", n[9]),),
    )


@PROPERTY
@given(st.lists(names, min_size=16, max_size=16))
def test_any_names_make_well_formed_svg(n: list[str]) -> None:
    root = ET.fromstring(svg_document(_picture(n)))
    kept = re.sub("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]", "", n[12])
    assert (root.find("{http://www.w3.org/2000/svg}title").text or "") == kept.replace("\r\n", "\n").replace("\r", "\n")


@PROPERTY
@given(st.lists(names, min_size=8, max_size=8))
def test_any_names_keep_the_html_page_whole(n: list[str]) -> None:
    from ancients_kit.drawing import counter_pieces, svg_layers

    pic = _picture(n * 2)
    base, _, w, h = svg_layers(pic)
    frames = [list(counter_pieces(pic, highlight=False)), []]
    q = {"side": n[0], "prompt": n[1], "rule": n[2], "options": [[n[3], n[4]]], "more": 0}
    steps = [{"n": 0, "frame": 0, "hl": [n[0]], "q": q, "answer": n[5], "before": [0], "status": n[6]},
             {"n": 1, "frame": 1, "hl": [], "q": None, "answer": None, "before": [1], "status": None, "end": n[7]}]
    events = [{"text": n[7], "rules": [n[2]], "kind": n[3]}, {"text": n[0] + n[1], "rules": [], "kind": "end"}]
    data = pack(frames, steps, events, base=base.split("\n"))
    data["titles"] = {n[2]: n[4]}
    data["size"] = [f"{w:.0f}", f"{h:.0f}"]
    fake = SimpleNamespace(game=SimpleNamespace(title=n[5]), scenario=n[6])
    back = _check_page(teach._page(fake, data))  # type: ignore[arg-type]
    assert back == json.loads(json.dumps(data))


RACE = 'title = {title}\nsides = [{red}, {blue}]\ntarget = 12\n\n' \
       '[meta]\nid = "race.short"\nsource = "variant"\nnote = "hostile"\n'


@PROPERTY
@given(names, names, names)
def test_any_names_reach_the_terminal_as_written(race_plugin: str, tmp_path_factory: pytest.TempPathFactory,
                                                 title: str, red: str, blue: str) -> None:
    """The test game's title and side names are hostile: listing, playing (a human's questions,
    the greedy bot), continuing, replaying, explaining and undoing print them as written with
    control characters replaced, never a traceback and never an ESC byte."""
    # A save takes side names of printable characters only (the title may hold anything).
    red, blue = "".join(filter(str.isprintable, red)), "".join(filter(str.isprintable, blue)) + "b"
    title = title.replace("\ud800", "")
    if not red.strip() or red.strip().lower() == blue.strip().lower():
        red = "r" + red
    tmp = tmp_path_factory.mktemp("race")
    (tmp / "short.toml").write_text(RACE.format(title=_toml_string(title), red=_toml_string(red),
                                                blue=_toml_string(blue)), "utf-8")
    v = tmp / "v.toml"
    v.write_text('[meta]\nid = "v"\nsource = "variant"\nnote = "x"\n\n[replace."race.short"]\nfile = "short.toml"\n',
                 "utf-8")
    save = tmp / "g.json"
    outputs = []
    for args, given_input in (
        (("scenarios", "race", "--variant", str(v)), None),
        (("new", "race", "short", "--seed", "5", "--no-map", "--plain", "--save", str(save), "--stop-after", "3",
          "--variant", str(v)), "roll\nhold\n?\nroll\n"),
        (("play", str(save), "--no-map", "--plain"), "hold\n" * 30),
        (("replay", str(save), "--no-map"), None),
        (("replay", str(save), "--explain"), None),
        (("undo", str(save)), None),
    ):
        res = CliRunner().invoke(cli, list(args), input=given_input, catch_exceptions=False)
        assert res.exit_code == 0, (args, res.output)
        outputs.append(res.output)
    everything = "".join(outputs)
    assert "Traceback" not in everything and "internal error" not in everything
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", everything)
    replayed, explained = _squeezed(outputs[3]), _squeezed(outputs[4])
    assert _shown(f"Turn 1: {red}") in replayed and _shown(f"Turn 2: {blue}") in explained


def test_the_full_screen_table_draws_no_control_character(tmp_path: Path) -> None:
    """The table draws the hostile title (in the log and in a message) with its
    brackets as written and without one control character: every line it draws
    goes through NoControlCharacters."""
    import asyncio

    from textual.geometry import Region

    from ancients_kit.cli.play import PlayLoop
    from ancients_kit.session import Session
    from ancients_kit.tui.app import TableApp

    s = Session.new("ccancients_rome", "carrhes", seed=3, variants=[_carrhes_variant(tmp_path, HOSTILE)])
    side = s.decision.side
    other = next(x for x in s.game.sides(s.state) if x != side)
    loop = PlayLoop(s, {side: "human", other: "greedy"}, tmp_path / "g.json")
    shots: list[str] = []

    async def go() -> None:
        app = TableApp(loop)
        async with app.run_test(size=(170, 52)) as pilot:
            await pilot.pause()
            app.say(f"about {HOSTILE}")
            await pilot.pause()
            for w in app.screen.query("*"):  # every line as the widget draws it (filters applied)
                if w.display and w.size.area:
                    shots.extend(strip.text for strip in w.render_lines(Region(0, 0, *w.size)))

    asyncio.run(go())
    drawn = "\n".join(shots)
    assert "about Carrhes [/] <!--<script> [revised]" in drawn and "red" in drawn
    assert not CONTROL.search(drawn)
