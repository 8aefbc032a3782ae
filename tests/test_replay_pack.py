"""The HTML replay's packed data: every string comes back exactly, and whole strategic games stay small.

The page carries the tables' JSON squeezed (back-references to earlier runs)
and its script expands it and rebuilds what the tables hold (``ancients_kit.packing``);
``tests/test_teach.py`` checks in a real browser that it rebuilds the same
strings as :func:`ancients_kit.packing.unpack` does here.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import attrs
import pytest

from ancients_kit.bots import RandomBot, play_out
from ancients_kit.cli import teach
from ancients_kit.packing import as_read, js_number, pack, squeeze, unpack, unsqueeze
from ancients_kit.plugin import load_games
from ancients_kit.session import Session

from tests.browser import Browser, chromium_path

MAX_BYTES = 2_000_000
"""A whole campaign's replay must stay a page a browser opens at once (issue 22)."""


def _check_round_trip(base: list[str], frames: list[list[str]], steps: list[dict], events: list[dict]) -> dict:
    packed = json.loads(json.dumps(pack(frames, steps, events, base=base)))
    back = unpack(packed)
    assert back["map"] == base
    assert back["frames"] == frames
    assert back["steps"] == as_read(steps)
    assert back["events"] == events
    return packed


@pytest.mark.parametrize(("token", "number"), [
    ("545", 545), ("-13", -13), ("2360.3", 2360.3), ("0", 0),
    ("-0", None), ("0948", None), ("1.50", None), ("2.0", None), ("-0.0", None), ("9007199254740993", None),
])
def test_a_number_is_cut_out_only_when_the_page_writes_it_back_the_same(token: str, number: float | None) -> None:
    assert js_number(token) == number


def test_awkward_texts_come_back_exactly() -> None:
    texts = ["", "plain", "0948", "hex 0948 and -0 and 1.50 and 2.0", "x=\"-0\" y=\"007\" z=\"3.25\"",
             "3334: massagetai-C3 (cavalry, CS 6 OV 20)", "27/2 OP, $20, 1e5, 1.2.3, #1f5fa8, C-3",
             "</script><!-- <script>", "line one\nline two", "\u00e9t\u00e9 \u2014 \U0001f3db 12", "12", "-7"]
    frames = [["<g>\n" + t + "\n</g>" for t in texts], ["<g>" + t + "</g>" for t in reversed(texts)], []]
    steps = [{"n": 0, "frame": 0, "hl": ["0101", "0948"], "answer": "move:0948", "before": [0, 1],
              "status": texts[3], "q": {"side": "rebel", "prompt": texts[6], "rule": "xen:6.2",
                                        "options": [[t, t] for t in texts], "more": 3}},
             {"n": 1, "frame": 1, "hl": [], "answer": None, "before": [], "status": None,
              "q": {"side": "empire", "prompt": "empire is deciding", "rule": None, "options": []}},
             {"n": 2, "frame": 2, "hl": [], "answer": None, "before": [2], "status": "", "q": None, "end": texts[7]}]
    events = [{"text": t, "rules": ["ldf:3.3", t], "kind": "move"} for t in texts[:3]]
    _check_round_trip(texts, frames, steps, events)


@pytest.mark.parametrize(("game", "scenario", "viewer"), [
    ("centurion", "basic-gaul", None), ("ccancients_rome", "carrhes", None), ("ccancients_rome", "carrhes", "roman"),
])
def test_tactical_replays_come_back_exactly(game: str, scenario: str, viewer: str | None) -> None:
    """Facing triangles, a board of the game's own, and a side's view (hidden answers and questions)."""
    s = Session.new(game, scenario, seed=3)
    play_out(s, RandomBot(), max_decisions=40)
    if viewer is not None:
        viewer = teach.viewer_of(s, viewer)
    base, _, _, frames, steps, events = teach._steps(s, viewer)
    _check_round_trip(base, frames, steps, events)


SQUEEZE_CASES = [
    "", "short", "abcdef", "abcdefabcdef", "x" * 100, "ab" * 77 + "c", "a`b``c`" * 9, "`" * 20,
    "[1,2,3,4,5,6,7,1,2,3,4,5,6,7,8]", '{"S":["<g class=\\"a\\">","<\\/script>"],"T":[[1,2],[1,2],[1,2,3]]}',
    "".join(chr(33 + (i * i) % 90) for i in range(5000)),
]


@pytest.mark.parametrize("text", SQUEEZE_CASES)
def test_squeezed_text_comes_back_exactly(text: str) -> None:
    squeezed = squeeze(text)
    assert unsqueeze(squeezed) == text
    assert "\n" not in squeezed and "\r" not in squeezed
    for mark in ("</", "<!--"):
        assert mark in text or mark not in squeezed


def test_squeezing_is_this_module_s_own_and_the_same_everywhere() -> None:
    """No zlib: the characters are fixed by the module's own code, so a replay is the same page on every machine."""
    assert squeeze("abcdefabcdefabcdef") == "3abcdef`''"
    assert squeeze("x" * 40) == 'Jx`C"'
    assert squeeze("a`b") == "$a`!!b"
    text = "".join(f"[{i % 7},{i % 5},{i % 3}]" for i in range(2000))
    assert hashlib.sha256(squeeze(text).encode()).hexdigest() == SQUEEZED_DIGEST


SQUEEZED_DIGEST = "b082f0b7df199b24d66c7c5bfa2e33ec41bafdd2cbccd5081d06c2a7fe9ed021"


def test_squeezing_refuses_what_it_cannot_carry() -> None:
    with pytest.raises(ValueError, match="ASCII"):
        squeeze("\u00e9t\u00e9")
    with pytest.raises(ValueError, match="not 9"):
        unsqueeze("*abc")


def test_steps_must_show_the_events_in_order() -> None:
    steps = [{"frame": 0, "hl": [], "q": None, "answer": None, "before": [1], "status": None}]
    with pytest.raises(ValueError, match="do not follow on from event 0"):
        pack([[]], steps, [{"text": "a", "rules": [], "kind": "k"}, {"text": "b", "rules": [], "kind": "k"}])


@attrs.frozen
class Replay:
    """A played game with its replay's plain data, packed data and page, made once per module."""

    session: Session
    plain: tuple[Any, ...]
    """What ``teach._steps`` gives: map lines, width, height, frames, steps, events."""
    packed: dict[str, Any]
    page: str


def _replay(s: Session) -> Replay:
    plain = teach._steps(s, None)
    packed = teach._pack_replay(s, *plain)
    return Replay(s, plain, packed, teach._page(s, packed))


@pytest.fixture(scope="module")
def ldf_campaign() -> Replay:
    """A whole five-turn campaign between random players (no concession, so all five are played)."""
    s = Session(load_games()["ldf"], "campaign", seed=2026, options={"concession": False})
    play_out(s, RandomBot(), max_decisions=50_000)
    assert s.outcome is not None and s.state.turn == 5
    return _replay(s)


@pytest.fixture(scope="module")
def xenophon_game() -> Replay:
    """Cyrus' Revolt between random players, all seven turns (the seed of its golden replay)."""
    s = Session(load_games()["xenophon"], "cyrus-revolt", seed=2031)
    play_out(s, RandomBot(), max_decisions=50_000)
    assert s.outcome is not None and s.state.turn == s.state.last_turn
    return _replay(s)


@pytest.mark.parametrize("game", ["ldf_campaign", "xenophon_game"])
def test_a_whole_strategic_game_replays_in_under_two_megabytes(game: str, request: pytest.FixtureRequest) -> None:
    r: Replay = request.getfixturevalue(game)
    size = len(r.page.encode("utf-8"))
    s = r.session
    assert size < MAX_BYTES, f"{s.game.id} {s.scenario}: {len(s.answers)} answers, the replay is {size:,} bytes"
    base, _, _, frames, steps, events = r.plain
    packed = _check_round_trip(base, frames, steps, events)
    squeezed = _page_data(r.page)
    assert json.loads(unsqueeze(squeezed)) == json.loads(json.dumps({**r.packed}))
    assert json.loads(unsqueeze(squeezed)).keys() == {*packed, "titles", "size"}


def _page_data(page: str) -> str:
    """The squeezed JSON the page carries in its data element (a <script> it never ends or comments out)."""
    start = page.index('<script id="data" type="text/plain">') + len('<script id="data" type="text/plain">')
    data = page[start:page.index("</script>", start)]
    assert "</" not in data and "<!--" not in data
    return data


def test_the_same_game_packs_to_the_same_bytes(ldf_campaign: Replay) -> None:
    s = ldf_campaign.session
    again = Session(s.game, s.scenario, seed=s.seed, options=s.options, answers=s.answers)
    assert teach._page(again, teach._pack_replay(again, *ldf_campaign.plain)) == ldf_campaign.page


def _frames_digest(frames: list[str]) -> str:
    return hashlib.sha256("\x00".join(frames).encode()).hexdigest()


@pytest.mark.skipif(chromium_path() is None and not os.environ.get("CI"), reason="no Chromium here (CI installs it)")
def test_the_page_rebuilds_every_position_exactly(ldf_campaign: Replay, tmp_path: Path) -> None:
    """The page's script (not just the Python twin) gives back the very map, counters, questions and events."""
    binary = chromium_path()
    assert binary, "CI must install Chromium (.ci/run)"
    base, _, _, frames, steps, events = ldf_campaign.plain
    page = tmp_path / "ldf.html"
    page.write_text(ldf_campaign.page, encoding="utf-8")
    with Browser(binary) as b:
        b.open(page)
        assert b.js("R.map()") == "\n".join(base)
        for text in SQUEEZE_CASES:  # the page's unsqueeze is the twin of the Python one
            assert b.js(f"unsqueeze({json.dumps(squeeze(text))})") == text
        assert json.loads(b.js("JSON.stringify(D)")) == json.loads(json.dumps(ldf_campaign.packed))
        got = b.js("Array.from({length: D.frames.length}, (_, f) => R.frame(f))")
        assert len(got) == len(frames) and _frames_digest(got) == _frames_digest(["\n".join(f) for f in frames])
        assert b.js("Array.from({length: R.steps}, (_, k) => R.step(k))") == as_read(steps)
        assert b.js("Array.from({length: D.events.text.length}, (_, i) => R.event(i))") == events
        assert b.js("document.querySelectorAll('#map polygon.hex').length") == sum(
            x.startswith('<polygon class="hex"') for x in base)
