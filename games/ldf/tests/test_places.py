"""Choosing places in LDF (issue 23 item 4): every question offering hexes lists them nearest
the force first, never more than about 20 without narrowing by area, and a hex number typed
answers; the areas are the map's regions, the large ones split by their centres."""

from __future__ import annotations

import pytest

from ancients_kit.bots import GreedyBot, play_until
from ancients_kit.places import LIMIT, places_of
from ancients_kit.session import Session

from ancients_games.ldf import GAME, hints

from tests.strategic_helpers import check_listing


@pytest.mark.rule("ldf:8.1", "ldf:10.4", "ldf:12.4")
def test_no_question_lists_more_than_about_20_hexes() -> None:
    """A greedy campaign: no question shows more than 20 hexes before it is narrowed (set-up,
    administration, movement, placements: 125 core hexes for a reclaimed legion)."""
    s = Session(GAME, "campaign", seed=3)
    bot = GreedyBot()
    longest = 0
    while s.decision is not None and len(s.answers) < 3000:
        longest = max(longest, check_listing(s.decision))
        s.answer(bot.choose(s, s.decision))
    assert longest > 2 * LIMIT  # the sweep met long lists


@pytest.mark.rule("ldf:12.4")
def test_a_move_lists_its_destinations_nearest_the_force_first() -> None:
    s = Session(GAME, "campaign", seed=3)
    d = play_until(s, "move.to", limit=3000)
    ps = places_of(d)
    assert ps is not None and ps.origin is not None and ps.origin in d.prompt  # "Move ... from 3318"
    assert any(s.state.side_of(u) == d.side for u in s.state.units_at(ps.origin))
    ids = s.state.data.ids
    ordered = ps.ordered()
    assert [p.distance for p in ordered] == sorted(p.distance for p in ordered)
    assert all(p.distance == ids[ps.origin].distance(ids[p.hex]) for p in ordered)
    assert {p.key for p in ps.places} == {k for k in d.keys if hints.place_hex(s.state, k)}


@pytest.mark.rule("ldf:1.4")
def test_areas_are_the_maps_regions_split_by_their_centres() -> None:
    s = Session(GAME, "campaign", seed=3)
    m = hints._map(s.state)
    data = s.state.data
    assert set(m.areas) == set(data.ids)  # every hex, land or sea
    assert m.areas["3318"] == ("Italy", "Italy")  # a small region is one area
    assert m.areas["4520"] == ("core around Antiochia", "core")
    assert m.areas["3914"][0].startswith("Barbaria near ")  # Barbaria holds no centre of its own
    for hid, (area, region) in m.areas.items():
        if region == "core":
            assert "core" in data.regions_of(hid) and not data.regions_of(hid) & {"italy", "mediterranean-islands"}
    assert hints.place_hex(s.state, "attack:4820-4720") == "4720"  # the target
    assert hints.place_hex(s.state, "drop:I28") is None  # a unit is no place


@pytest.mark.rule("ldf:7.1")
def test_a_hex_number_answers_the_one_option_naming_it(tmp_path) -> None:  # noqa: ANN001
    from ancients_kit.cli.play import PlayLoop

    s = Session(GAME, "campaign", seed=3)
    d = play_until(s, "action", limit=3000)
    ps = places_of(d)
    p = next(p for p in ps.places if p.key != p.hex and len(ps.at(p.hex)) == 1)
    loop = PlayLoop(s, {x: "human" for x in s.game.sides(s.state)}, tmp_path / "h.json")
    assert loop.resolve_number(d, p.hex) == p.key
