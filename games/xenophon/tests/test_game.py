"""The Xenophon game: set-up of both scenarios, the sequence of play, the end."""

from __future__ import annotations

import pytest

from ancients_kit.session import Session
from ancients_games.xenophon import GAME
from ancients_games.xenophon.sequence import PHASE_ORDER
from ancients_games.xenophon.state import EMPIRE, NEUTRAL, REBEL


def new(scenario: str = "cyrus-revolt", seed: int = 1, **options: object) -> Session:
    return Session(GAME, scenario, seed=seed, options=options)


def deployed(scenario: str = "cyrus-revolt", seed: int = 1, **options: object) -> Session:
    """A game past the Empire's set-up choices (first options each time)."""
    s = new(scenario, seed, **options)
    while s.decision is not None and s.decision.kind.startswith("setup."):
        s.answer(s.decision.options[0].key)
    return s


@pytest.mark.rule("xen:scenario.cyrus-revolt", "xen:control", "xen:treasury", "xen:stratagem")
def test_cyrus_revolt_sets_up_as_printed() -> None:
    st = deployed().state
    counts = {c: len(st.controlled(c)) for c in (EMPIRE, REBEL, NEUTRAL)}
    assert counts == {EMPIRE: 15, REBEL: 8, NEUTRAL: 11}
    assert st.treasury[EMPIRE].value == 40 and st.treasury[REBEL].value == 10
    assert len(st.hands[REBEL]) == 6 and len(st.hands[EMPIRE]) == 2 and len(st.pool) == 32
    sardis = st.data.map.to_id(st.data.map.place("Sardis"))
    names = {u.id for u in st.units_at(sardis)}
    assert {"Cyrus", "Ariaos", "rebel-guard-P1", "rebel-guard-P2", "rebel-guard-P3", "rebel-guard-L1"} <= names
    assert st.unit("Artaxerxes").hex == st.data.map.to_id(st.data.map.place("Persepolis"))
    guard = [u for u in st.on_map() if u.side == EMPIRE and u.guard]
    assert len(guard) == 3 and len({st.satrapy_of(u.hex) for u in guard}) == 3


@pytest.mark.rule("xen:scenario.cyrus-revolt", "xen:supply")
def test_set_up_puts_a_unit_in_every_city_within_forage() -> None:
    st = deployed().state
    for row in st.data.data.scenarios.setup:
        for h in st.cities_of(row.satrapy):
            assert st.units_at(h), f"{row.satrapy}: city {h} empty"
    for h in st.occupied():
        own = [u for u in st.units_at(h) if u.satrapy is not None and not u.fleet]
        if own and not (h in st.data.desert and st.data.forage[h] == 0):
            assert len(own) <= st.data.forage[h], h


@pytest.mark.rule("xen:scenario.cyrus-revolt", "xen:guards", "xen:supply")
def test_empire_set_up_leaders_other_cities_guard_hex_chosen_within_forage() -> None:
    """D21: the two leaders go to other cities than Artaxerxes', the three leaders in three
    different satrapies (Rulings: second reading 5); each guard's hex is chosen in its satrapy;
    nothing beyond FV."""
    from ancients_games.xenophon.setup import build, deploy
    from ancients_games.xenophon.state import load_data
    from ancients_games.xenophon.tests.core_helpers import STORE, context, run

    ctx = context()
    st = build(ctx, load_data(STORE), "cyrus-revolt")
    asked: list = []
    run(deploy(ctx, st), ["persepolis"], asked=asked, default=lambda d: d.keys[-1])
    persepolis = st.unit("Artaxerxes").hex
    leaders = [d for d in asked if d.kind == "setup.leader"]
    assert persepolis not in leaders[0].keys
    assert not any(st.satrapy_of(h) == "Persis" for h in leaders[0].keys)  # not Artaxerxes' satrapy
    taken = st.satrapy_of(st.unit("Tissaphernes").hex)
    assert all(st.satrapy_of(h) != taken for h in leaders[1].keys)
    hexes = [d for d in asked if d.kind == "setup.guard-hex"]
    assert len(hexes) == 3 and all(len(d.keys) > 1 for d in hexes)
    guards = [u for u in st.on_map() if u.side == EMPIRE and u.guard]
    assert {u.hex for u in guards} == {d.keys[-1] for d in hexes}  # the hexes chosen
    for u in guards + [st.unit("Tissaphernes"), st.unit("Abrokomas")]:
        assert len(st.units_at(u.hex)) <= st.forage(u.hex), u.id


@pytest.mark.rule("xen:scenario.kings-war", "xen:scenario.cyrus-revolt")
def test_the_kings_war_set_up_cites_its_own_scenario() -> None:
    """The King's War sets up "as for Scenario 1": its set-up events cite both scenarios (D14)."""
    for scenario, own in (("kings-war", True), ("cyrus-revolt", False)):
        setups = [e for e in deployed(scenario).log if e.kind == "setup"]
        assert setups and all("xen:scenario.cyrus-revolt" in e.rules for e in setups)
        assert all(("xen:scenario.kings-war" in e.rules) == own for e in setups), scenario


@pytest.mark.rule("xen:sequence", "xen:scenario.cyrus-revolt", "xen:scenario.kings-war")
@pytest.mark.parametrize(("scenario", "turns"), [("cyrus-revolt", 7), ("kings-war", 15)])
def test_sequence_rebel_then_empire_phases_a_to_h_to_the_end(scenario: str, turns: int) -> None:
    s = deployed(scenario)
    while s.decision is not None:
        s.answer(s.decision.options[0].key)
    phases = [(e.side, e.data["phase"]) for e in s.log if e.kind == "phase"]
    one_turn = [(side, p) for side in (REBEL, EMPIRE) for p in PHASE_ORDER]
    assert phases == one_turn * turns
    assert s.state.over and s.state.turn == turns


# ---------------------------------------------------------------- views, tables, bots


@pytest.mark.rule("xen:treasury", "xen:intelligence")
def test_render_fits_160_columns_and_shows_the_treasury_to_its_owner_only() -> None:
    from ancients_games.xenophon.render import render

    s = deployed()
    rebel = GAME.render(s.state, REBEL).plain
    assert "rebel $10" in rebel and "empire $?" in rebel
    empire = GAME.render(s.state, EMPIRE).plain
    assert "rebel $?" in empire and "empire $40" in empire
    assert max(len(line) for line in rebel.split("\n")) <= 160
    assert "(hex columns 20-39 of 01-40, north up" in rebel  # Cyrus in Sardis (2908): the window round column 29
    rotated = render(s.state, REBEL, layout="rotated").plain
    assert max(len(line) for line in rotated.split("\n")) <= 160
    assert "(hex rows 01-20 of 01-50" in rotated  # Sardis is in row 08: the window's top rows
    opened = deployed(open_treasury=True)
    text = GAME.render(opened.state, EMPIRE).plain
    assert "rebel $10" in text and "empire $40" in text
    assert GAME.status(s.state, REBEL).count("$?") == 1


@pytest.mark.rule("xen:components", "xen:control")
def test_render_window_scrolls_to_the_highlighted_hexes_and_names_every_satrapy() -> None:
    from ancients_games.xenophon.render import abbreviation, render

    s = deployed()
    low = render(s.state, None, ("2045",), layout="rotated").plain
    assert "hex rows 31-50 of 01-50" in low
    whole = render(s.state, None, rows=50, layout="rotated").plain
    for sat in s.state.data.satrapies:
        assert sat in whole and abbreviation(s.state.data, sat) in whole
    lines = GAME.inspect(s.state, REBEL, "2908")
    assert any("Cyrus" in line for line in lines) and "Sardis (treasury)" in lines[-1]


@pytest.mark.rule("xen:random-events", "xen:revolt", "xen:disband", "xen:crt", "xen:diplomacy")
def test_tables_listing_with_provenance_per_row() -> None:
    from ancients_kit.cli.listing import marked_tables
    from ancients_games.xenophon.tests.core_helpers import STORE

    infos = {i.id: i for i in GAME.tables(STORE)}
    for name in ("random-events", "revolt", "disband", "diplomacy", "pillage", "colonisation", "crt-engagement",
                 "crt-skirmish", "crt-combined-arms", "terrain", "units", "stratagems", "roster"):
        assert f"xenophon.{name}" in infos, name
    marked = marked_tables(STORE)
    ev = marked["xenophon.random-events"]
    assert ev.cell("11-13", 0).source == "rulebook" and ev.cell("31", 0).source == "reconstructed"
    roster = infos["xenophon.roster"]
    assert {r[-1] for r in roster.rows} == {"rulebook", "reconstructed"}


@pytest.mark.rule("xen:sequence", "xen:victory", "xen:scenario.cyrus-revolt")
def test_greedy_bots_finish_cyrus_revolt_scoring_every_core_decision() -> None:
    """Greedy against greedy to the end (random bots play both scenarios to the end in
    test_golden.py; the greedy King's War is in benchmarks/bench_xenophon.py: too long here)."""
    from ancients_kit.bots import GreedyBot, play_out
    from ancients_games.xenophon.bot import CORE_SCORES

    s = new("cyrus-revolt", seed=3)
    kinds: set[str] = set()
    out = play_out(s, GreedyBot(), on_answer=lambda sess, d, k: kinds.add(d.kind), max_decisions=40_000)
    assert out is not None, f"no end after {len(s.answers)} answers"
    assert s.state.over and (s.state.turn == s.state.last_turn or "agreement" in out.text)
    assert out.level in ("draw", "marginal", "regional", "imperial")
    core = {k for k in kinds if k.split(".")[0] in {"setup", "chit", "event", "treasury", "recruit", "levy",
                                                    "supply"}}
    assert core and core <= set(CORE_SCORES), core - set(CORE_SCORES)
    assert {"treasury.upkeep", "levy.type", "levy.hex", "recruit.city"} <= core


@pytest.mark.rule("xen:intelligence", "xen:stratagem")
def test_determinize_hides_the_other_hand_and_treasury() -> None:
    from ancients_kit.chance import Rng

    s = deployed()
    st = GAME.copy_state(s.state)
    mine = list(st.hands[REBEL].cards)
    sizes = len(st.hands[EMPIRE]), len(st.pool)
    GAME.determinize(st, REBEL, Rng(4))
    assert list(st.hands[REBEL].cards) == mine and (len(st.hands[EMPIRE]), len(st.pool)) == sizes
    assert st.treasury[EMPIRE].value != 40 and st.treasury[REBEL].value == 10
    other = GAME.copy_state(s.state)
    other.treasury[EMPIRE].value = 3  # what the Rebel cannot see does not change his sample
    other.hands[EMPIRE].remove(other.hands[EMPIRE].cards[0])
    other.hands[EMPIRE].add(str(other.pool.contents[0]))
    other.pool.remove(other.pool.contents[0])
    other.pool.add(str(s.state.hands[EMPIRE].cards[0]))
    GAME.determinize(other, REBEL, Rng(4))
    assert sorted(map(str, other.hands[EMPIRE].cards)) == sorted(map(str, st.hands[EMPIRE].cards))
    assert other.treasury[EMPIRE].value == st.treasury[EMPIRE].value


@pytest.mark.rule("xen:scenario.cyrus-revolt", "xen:supply")
def test_players_may_place_the_set_up_lists_themselves() -> None:
    s = new(placement="choose")
    asked = 0
    while s.decision is not None and s.decision.kind.startswith("setup."):
        if s.decision.kind == "setup.place":
            asked += 1
            assert len(s.decision.options) > 1  # a unit with only one place is placed without a question
        s.answer(s.decision.options[-1].key)
    st = s.state
    assert 0 < asked <= sum(r.total for r in st.data.data.scenarios.setup)
    for row in st.data.data.scenarios.setup:
        for h in st.cities_of(row.satrapy):
            assert st.units_at(h), f"{row.satrapy}: city {h} empty"
    for h in st.occupied():
        fv = st.data.forage[h] or (1 if h in st.data.desert else 0)
        assert len(st.units_at(h)) <= fv, h


@pytest.mark.rule("xen:scenario.cyrus-revolt", "xen:scenario.kings-war")
def test_cli_lists_plays_and_shows_the_tables(tmp_path) -> None:
    from click.testing import CliRunner

    from ancients_kit.cli.main import cli

    runner = CliRunner()
    res = runner.invoke(cli, ["scenarios", "xenophon"], catch_exceptions=False)
    assert res.exit_code == 0 and "cyrus-revolt" in res.output and "kings-war" in res.output
    for scenario in ("cyrus-revolt", "kings-war"):
        res = runner.invoke(cli, ["new", "xenophon", scenario, "--bots", "--seed", "1", "--no-map", "--stop-after",
                                  "30", "--save", str(tmp_path / f"{scenario}.json")], catch_exceptions=False)
        assert res.exit_code == 0, res.output
    res = runner.invoke(cli, ["tables", "xenophon", "random-events"], catch_exceptions=False)
    assert res.exit_code == 0 and "reconstructed" in res.output
    bad = runner.invoke(cli, ["new", "xenophon", "cyrus-revolt", "-o", "placement=everywhere", "--no-map"])
    assert bad.exit_code == 2 and "placement" in bad.output
