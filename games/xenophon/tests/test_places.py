"""Choosing places in Xenophon (issue 23 item 4): every question offering hexes (a force's next
step among hundreds of destinations, a levy anywhere in a satrapy) lists them nearest the force
first, never more than about 20 without narrowing by satrapy, and a hex number typed answers."""

from __future__ import annotations

import pytest

from ancients_kit.bots import GreedyBot, play_until
from ancients_kit.places import LIMIT, places_of
from ancients_kit.session import Session

from ancients_games.xenophon import GAME, hints

from tests.strategic_helpers import check_listing


@pytest.mark.rule("xen:operations", "xen:levy")
@pytest.mark.parametrize(("scenario", "answers"), [("cyrus-revolt", 2000), ("kings-war", 600)])
def test_no_question_lists_more_than_about_20_hexes(scenario: str, answers: int) -> None:
    """Greedy play: no question shows more than 20 hexes before it is narrowed (whole games of
    both strategic games: tests/test_places.py, slow)."""
    s = Session(GAME, scenario, seed=1)
    bot = GreedyBot()
    longest = 0
    while s.decision is not None and len(s.answers) < answers:
        longest = max(longest, check_listing(s.decision))
        s.answer(bot.choose(s, s.decision))
    assert longest > 2 * LIMIT


@pytest.mark.rule("xen:operations")
def test_a_force_lists_its_destinations_nearest_first() -> None:
    s = Session(GAME, "cyrus-revolt", seed=1)
    d = play_until(s, "ops.action")
    ps = places_of(d)
    assert ps is not None and ps.origin is not None and ps.origin in d.prompt  # "the force ... in 2908"
    assert any(u.side == d.side for u in s.state.units_at(ps.origin))
    ordered = ps.ordered()
    assert [p.distance for p in ordered] == sorted(p.distance for p in ordered)
    for a, b in zip(ordered, ordered[1:]):  # at one distance: named places (cities) first, by name
        if a.distance == b.distance and a.name and b.name:
            assert a.name.lower() <= b.name.lower()
        if a.distance == b.distance:
            assert a.name or not b.name
    assert all(p.area.startswith(s.state.data.satrapy_of.get(p.hex, "sea")) for p in ps.places)


@pytest.mark.rule("xen:levy")
def test_areas_are_satrapies_split_by_their_cities() -> None:
    s = Session(GAME, "cyrus-revolt", seed=1)
    p = hints._places(s.state)
    data = s.state.data
    assert p.areas["2904"] == ("Athens", "Athens")
    assert p.areas["2011"] == ("Egypt around Memphis", "Egypt")
    assert all(region == data.satrapy_of.get(h, "sea") for h, (_, region) in p.areas.items())
    assert hints.place_hex(s.state, "move:2907") == "2907" and hints.place_hex(s.state, "syria") is None


@pytest.mark.rule("xen:operations")
def test_a_hex_number_answers_the_destination_naming_it(tmp_path) -> None:  # noqa: ANN001
    """Typing 2807 answers move:2807, even where the list has an option numbered 2807."""
    from ancients_kit.cli.play import PlayLoop

    s = Session(GAME, "cyrus-revolt", seed=1)
    d = play_until(s, "ops.action")
    ps = places_of(d)
    p = next(p for p in ps.ordered() if p.key.startswith("move:") and len(ps.at(p.hex)) == 1)
    loop = PlayLoop(s, {x: "human" for x in s.game.sides(s.state)}, tmp_path / "h.json")
    assert loop.resolve_number(d, p.hex) == p.key
