"""Tests of the LDF data documents: counters and set-up, CRT, Emperor Creation Table,
Action Summary, Terrain Key and event chits, against what the rulebook text fixes."""

from __future__ import annotations

import tomllib
from fractions import Fraction
from pathlib import Path

import pytest

from ancients_kit.data import DataError, DataStore, Variant
from ancients_kit.tables import Automatic, Column
from ancients_games.ldf import model

DATA = Path(model.__file__).resolve().parent / "data"


def _replaced(tmp_path: Path, rel: str, doc: str, text: str) -> DataStore:
    """A store whose document ``doc`` is replaced by ``text``, written as ``rel`` beside a variant."""
    (tmp_path / rel).write_text(text, encoding="utf-8")
    (tmp_path / "v.toml").write_text('[meta]\nid = "v"\nsource = "variant"\nnote = "x"\n'
                                     f'[replace."{doc}"]\nfile = "{rel}"\n', encoding="utf-8")
    return DataStore(model.PACKAGE, (Variant.from_file(tmp_path / "v.toml"),))


def _edited(tmp_path: Path, rel: str, doc: str, old: str, new: str) -> DataStore:
    """:func:`_replaced` with the packaged ``rel``, its first ``old`` turned into ``new``."""
    body = (DATA / rel).read_text(encoding="utf-8")
    assert old in body
    return _replaced(tmp_path, rel, doc, body.replace(old, new, 1))



@pytest.fixture(scope="module")
def store() -> DataStore:
    return DataStore(model.PACKAGE)


# ---------------------------------------------------------------- counters


@pytest.mark.rule("ldf:2.2")
def test_176_pieces(store: DataStore) -> None:
    mix = model.load_counters(store)
    assert mix.total == 176


@pytest.mark.rule("ldf:2.2", "ldf:3.2", "ldf:3.3")
def test_33_legions_and_the_counter_arithmetic(store: DataStore) -> None:
    """176 - 103 fixed pieces = 73 = 2N + P; N = 33 legions, P = 7 Parthian garrisons."""
    mix = model.load_counters(store)
    n, p = mix.count("legion-base"), mix.count("parthian-garrison")
    assert n == mix.count("infantry-vexillation") == 33
    assert mix.total - 2 * n - p == 103
    assert mix.piece("legion-base").source == "reconstructed"


@pytest.mark.rule("ldf:3.2", "ldf:3.3", "ldf:3.5")
def test_printed_counts(store: DataStore) -> None:
    mix = model.load_counters(store)
    printed = {"emperor": 1, "co-emperor": 1, "cavalry-vexillation": 3, "roman-garrison": 11, "client-garrison": 7,
               "palmyran-legion": 8, "parthian-gund": 8, "german-tribe": 17, "fortify": 1, "looted": 19,
               "event-chit": 24}
    for pid, n in printed.items():
        assert mix.count(pid) == n, pid


@pytest.mark.rule("ldf:2.6", "ldf:11.1")
def test_factors_as_the_text_gives_them(store: DataStore) -> None:
    mix = model.load_counters(store)
    assert mix.piece("cavalry-vexillation").movement == 8
    for pid in ("infantry-vexillation", "parthian-gund", "german-tribe", "palmyran-legion"):
        assert mix.piece(pid).movement == 4 and mix.piece(pid).combat in ("1", "d6+1")
    assert mix.piece("german-tribe").combat == "d6+1"
    for pid in ("emperor", "co-emperor", "roman-garrison", "parthian-garrison", "client-garrison"):
        assert mix.piece(pid).zoc is False
    assert mix.piece("legion-base").kind == "static" and mix.piece("legion-base").zoc is True


@pytest.mark.rule("ldf:3.2", "ldf:3.3", "ldf:3.5")
def test_setup_fits_the_mix_and_the_map(store: DataStore) -> None:
    mix = model.load_counters(store)
    m = model.load_map(store)
    mix.check(m)
    placed = {}
    for p in mix.setup:
        placed[p.piece] = placed.get(p.piece, 0) + mix.placed(p, m)
    # every legion base and vexillation starts on the map (3.2); all garrisons and tribes accounted for
    assert placed["legion-base"] == placed["infantry-vexillation"] == 33
    assert placed["cavalry-vexillation"] == 3 and placed["client-garrison"] == 7
    assert placed["parthian-garrison"] == 7 and placed["german-tribe"] == 17
    assert mix.start.treasury == 5 and mix.start.turn == 1
    assert len(m.region("barbaria")) >= 17


def test_setup_overflow_is_refused(store: DataStore) -> None:
    mix = model.load_counters(store)
    m = model.load_map(store)
    import attrs

    bad = attrs.evolve(mix, setup=mix.setup + (model.Placement("german-tribe", "germano-parthian", "barbaria", count=1),))
    with pytest.raises(ValueError, match="german-tribe"):
        bad.check(m)


# ---------------------------------------------------------------- CRT


@pytest.mark.rule("ldf:13.2", "ldf:14.6")
def test_crt_13_against_4_is_3_to_1(store: DataStore) -> None:
    crt = model.load_crt(store)
    assert crt.meta.source == "reconstructed"
    assert crt.odds(13, 4) == Column(4, "3:1")
    assert crt.odds(12, 4) == crt.odds(15, 4) == Column(4, "3:1")
    assert crt.odds(16, 4) == Column(5, "4:1")


@pytest.mark.rule("ldf:13.15")
def test_crt_automatic_results_past_both_ends(store: DataStore) -> None:
    crt = model.load_crt(store)
    assert isinstance(crt.odds(7, 1), Automatic) and crt.odds(7, 1).result == "DE"
    assert crt.odds(6, 1, shift=1).result == "DE"
    assert crt.odds(2, 7).result == "AE"
    assert crt.odds(1, 3, shift=-1).result == "AE"
    assert crt.odds(4, 9) == Column(0, "1:3")
    assert crt.odds(5, 1, shift=1) == Column(7, "6:1")
    assert crt.odds(9, 4, shift=-1) == Column(2, "1:1")
    assert crt.odds(20, 3) == Column(7, "6:1")
    assert crt.distribution(7, 1) == {"DE": Fraction(1)}
    assert crt.distribution(2, 7) == {"AE": Fraction(1)}


@pytest.mark.rule("ldf:13.11", "ldf:14.6")
def test_crt_results_and_shape(store: DataStore) -> None:
    doc = tomllib.loads((DATA / "crt.toml").read_text(encoding="utf-8"))
    cols = doc["table"]["columns"]
    assert cols[0] == "1:3" and cols[-1] == "6:1" and "3:1" in cols and len(cols) == 8
    used = {c for row in doc["table"]["results"].values() for c in row}
    assert used == set(doc["codes"]) == {"AE", "AS", "DE", "DR", "EX"}
    assert sorted(int(r) for r in doc["table"]["results"]) == [1, 2, 3, 4, 5, 6]
    crt = model.load_crt(store)
    for a, d in ((1, 3), (1, 1), (3, 1), (6, 1)):
        assert sum(crt.distribution(a, d).values()) == 1
    # reconstructed cells are marked: the two end columns with their own reasoning
    assert crt.provenance is not None and crt.provenance.cell("1", "1:3").source == "reconstructed"
    # high rolls favour the attacker: the chance of DE never falls from one column to the next
    de = [crt.distribution(a, d).get("DE", 0) for a, d in ((1, 3), (1, 2), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1))]
    assert de == sorted(de)


def test_crt_variant_replaces_it(tmp_path: Path) -> None:
    body = (DATA / "crt.toml").read_text(encoding="utf-8").replace('1 = ["AE", "AE", "AE"', '1 = ["AS", "AE", "AE"')
    store = _replaced(tmp_path, "crt.toml", "ldf.crt", body)
    crt = model.load_crt(store)
    assert crt.resolve(1, 3, 1).result == "AS"


# ---------------------------------------------------------------- Emperor Creation Table


@pytest.mark.rule("ldf:8.9", "ldf:14.4")
def test_emperor_creation_table(store: DataStore) -> None:
    t = model.load_emperor_table(store)
    assert t.die == "d6" and t.meta.source == "reconstructed"
    assert sum(t.distribution().values()) == 1 and len(t.distribution()) == 6
    two = t.resolve(2)
    assert "If two or more hexes" in t.meaning(two.result)  # the errata's wording
    assert t.provenance is not None and "errata" in t.provenance.cell("2").note
    # no result puts the emperor with the co-emperor (8.3): the colleague result removes him first
    assert "set aside" in t.meaning(t.resolve(5).result)


# ---------------------------------------------------------------- Action Summary and Terrain Key


@pytest.mark.rule("ldf:8.1", "ldf:14.2", "ldf:8.12")
def test_action_summary(store: DataStore) -> None:
    meta, actions = model.load_actions(store)
    by = {a.id: a for a in actions}
    both = {a.id for a in actions if a.side == "both" and a.cost == "action"}
    assert both == {"move", "attack", "draw-chit", "play-chit", "pass"}
    roman = {a.id for a in actions if a.side == "roman" and a.cost == "action"}
    assert roman == {"create-co-emperor", "treachery-rebel", "diplomacy-german", "start-fortify", "finish-fortify",
                     "start-rebuild", "finish-rebuild", "activate-palmyra", "deploy-siege"}
    gp = {a.id for a in actions if a.side == "germano-parthian"}
    assert gp == {"create-rebel", "treachery-emperor", "diplomacy-co-emperor", "diplomacy-palmyra", "activate-gallic"}
    assert by["activate-palmyra"].allowed_in(3) and not by["activate-palmyra"].allowed_in(4)
    assert by["diplomacy-palmyra"].allowed_in(4) and not by["diplomacy-palmyra"].allowed_in(3)
    assert by["activate-gallic"].allowed_in(3)
    assert {a.id for a in actions if a.cost == "free"} == {"free-chit", "emperor-creation", "clear-deficit",
                                                            "collapse-withdrawal", "emergency-unstacking"}


@pytest.mark.rule("ldf:14.5", "ldf:12.4")
def test_terrain_key_names_what_the_map_holds(store: DataStore) -> None:
    _, entries = model.load_terrain_key(store)
    m = model.load_map(store)
    for e in entries:
        for key in e.map_key.split():
            if e.kind == "region":
                assert m.region(key)
            elif e.kind == "hexside":
                assert m.hexsides_with(key), key
            elif e.kind == "centre":
                assert m.hexes_where("centres") and key in m.hex_key("centres").choices
            else:
                assert key in m.terrain_names() or m.hexes_where(key), key
    assert {e.key for e in entries} >= {"core", "barbaria", "parthia", "caucasus", "dacia", "germania-decumates",
                                        "rhine", "danube", "narrows", "town", "city", "metropolis", "legion", "coastal"}


# ---------------------------------------------------------------- chits


@pytest.mark.rule("ldf:3.5", "ldf:14.3")
def test_24_chits_and_the_cavalry(store: DataStore) -> None:
    chits = model.load_chits(store)
    assert sorted(chits.chits) == list(range(1, 26))
    assert len(chits.pool()) == 26 and chits.pool().count(25) == 2


@pytest.mark.rule("ldf:8.17")
def test_chits_resolved_on_the_draw(store: DataStore) -> None:
    assert model.load_chits(store).on_draw() == (10, 18, 19, 20, 25)


@pytest.mark.rule("ldf:8.8", "ldf:5.3", "ldf:5.4", "ldf:6.1", "ldf:7.3", "ldf:8.16", "ldf:10.9")
def test_numbers_the_text_fixes(store: DataStore) -> None:
    c = model.load_chits(store)
    fixed = {2: "Beseech the Gods", 7: "Mad Dash", 17: "Agents in Enemy Camp", 18: "The Gods Are Bored",
             21: "Roman Heavy Siege Equipment", 22: "Parthian Dynastic Resurgence", 24: "Roman Revenue Windfall"}
    for n, name in fixed.items():
        assert c.chit(n).name == name and c.chit(n).number_confidence == "H"
    assert "hand" in c.chit(13).text and c.chit(13).number_confidence == "H"
    assert "attack" in c.chit(15).timing and "They Shall Not Pass" in c.chit(15).text
    assert "Emperor Creation Table" in c.chit(10).text and "not looted" in c.chit(10).text
    assert c.chit(20).returns == "removed"


@pytest.mark.rule("ldf:14.3")
def test_list_order_and_reconstructions(store: DataStore) -> None:
    c = model.load_chits(store)
    order = [c.chit(n).name for n in (3, 4, 5, 6)]
    assert order == ["From the Jaws of Death", "Inspired Subordinates", "Into the Valley of the Shadow of Death",
                     "They Shall Not Pass"]
    assert c.chit(19).name == "Bread & Circuses" and c.chit(20).name == "Persecutions"
    assert c.chit(1).name == "Flanking Move" and c.chit(23).name == "German Population Increase"
    invented = {n for n, ch in c.chits.items() if ch.source == "reconstructed"}
    assert invented == {7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
    for n in invented:
        assert c.chit(n).note.strip()
    assert "show it" in c.chit(16).text and c.chit(16).player == "germano-parthian"


def test_unknown_key_in_a_chit_is_an_error(tmp_path: Path) -> None:
    body = (DATA / "chits.toml").read_text(encoding="utf-8").replace('name = "Flanking Move"', 'name = "Flanking Move"\ncolour = "red"', 1)
    store = _replaced(tmp_path, "chits.toml", "ldf.chits", body)
    with pytest.raises(DataError, match="colour"):
        model.load_chits(store)


@pytest.mark.rule("ldf:2.2", "ldf:2.6", "ldf:3.2")
@pytest.mark.parametrize(("old", "new", "key"), [
    ("count = 33", "count = 9223372036854775807", "count"),  # set-up looped until memory ran out
    ("count = 33", "count = -3", "count"),
    ("treasury = 5", "treasury = -5", "treasury"),
    ("turn = 1", "turn = 99", "turn"),
    ('combat = "d6+1"', 'combat = "d600+1"', "combat"),
])
def test_counter_numbers_out_of_range_are_refused_naming_the_key(tmp_path: Path, old: str, new: str, key: str) -> None:
    store = _edited(tmp_path, "counters.toml", "ldf.counters", old, new)
    with pytest.raises(DataError, match=rf"v\.toml \[replace\.ldf\.counters\]: .*{key}.* (is out of range|is not a factor)"):
        model.load_counters(store)


@pytest.mark.rule("ldf:2.2", "ldf:14.3")
@pytest.mark.parametrize(("rel", "doc", "old", "new", "row"), [
    ("counters.toml", "ldf.counters", 'id = "co-emperor"', 'id = "emperor"', r"piece\[1\]\.id"),
    ("chits.toml", "ldf.chits", "number = 2\n", "number = 1\n", r"chit\[1\]\.number"),
])
def test_a_row_listed_twice_names_the_variant_that_did_it(tmp_path: Path, rel: str, doc: str, old: str, new: str,
                                                           row: str) -> None:
    """The message named the packaged file, which has no such row (issue 27)."""
    store = _edited(tmp_path, rel, doc, old, new)
    load = model.load_counters if rel == "counters.toml" else model.load_chits
    with pytest.raises(DataError, match=rf"v\.toml \[replace\.{doc}\]: {row}: .* is listed twice"):
        load(store)


@pytest.mark.rule("ldf:13.11")
def test_another_games_crt_is_refused_when_it_loads(tmp_path: Path) -> None:
    """Centurion's melee table used as LDF's: "unknown combat result" came mid-game, and every later
    play of that save crashed the same way (issue 27). Now the table is refused as it loads."""
    import ancients_games.centurion as cen

    text = (Path(cen.__file__).parent / "data" / "crt_melee.toml").read_text(encoding="utf-8")
    assert 'id = "centurion.crt.melee"' in text
    store = _replaced(tmp_path, "crt.toml", "ldf.crt", text.replace('id = "centurion.crt.melee"', 'id = "ldf.crt"', 1))
    with pytest.raises(DataError, match=r"v\.toml \[replace\.ldf\.crt\]: table\.(rows\[\d+\]\[\d+\]|below|above): "
                                        r"result '.*' is not one this game carries out \(AE, AS, DE, DR, EX\) "
                                        r"\[ldf:13\.11\]"):
        model.load_crt(store)


@pytest.mark.rule("ldf:2.1")
def test_a_map_with_renamed_terrain_is_refused_when_it_loads(tmp_path: Path) -> None:
    """A variant map whose land is called "plain" played on and offered no move at all (issue 27)."""
    body = (DATA / "map.toml").read_text(encoding="utf-8")
    old = 'default = "land"\nlegend = { "." = "land", "~" = "sea" }'
    assert old in body
    store = _replaced(tmp_path, "map.toml", "ldf.map",
                      body.replace(old, 'default = "plain"\nlegend = { "." = "plain", "~" = "sea" }'))
    with pytest.raises(DataError, match=r"v\.toml \[replace\.ldf\.map\]: terrain: terrain 'plain' is not one the "
                                        r"rules know \(land, sea\) \[ldf:2\.1\]"):
        model.load_map(store)


@pytest.mark.rule("ldf:14.2")
@pytest.mark.parametrize(("old", "new", "message"), [
    ('id = "attack"', 'id = "move"', r"action\[1\]\.id: action 'move' is listed twice"),
    ('turns = "4-5"', 'turns = "5-4"', r"action\[\d+\]\.turns: turns '5-4' is not a turn from 1 to 5"),
    ('turns = "3"', 'turns = "99"', r"action\[\d+\]\.turns: turns '99' is not a turn from 1 to 5"),
])
def test_action_list_rows_checked(tmp_path: Path, old: str, new: str, message: str) -> None:
    store = _edited(tmp_path, "actions.toml", "ldf.actions", old, new)
    with pytest.raises(DataError, match=rf"v\.toml \[replace\.ldf\.actions\]: {message}"):
        model.load_actions(store)


# ---------------------------------------------------------------- issue 27 item 3: the mutation test's finds


@pytest.mark.rule("ldf:2.2")
@pytest.mark.parametrize(("old", "new", "message"), [
    ('id = "german-tribe"', 'id = "GERMAN-TRIBE"', r"piece: the counter mix has no german-tribe, which the rules play with"),
    ('kind = "leader"\ncount = 1', 'kind = "leader"\ncount = 2', r"piece\[0\]: 'emperor' is one leader counter"),
])
def test_the_pieces_the_rules_play_with_are_in_the_mix(tmp_path: Path, old: str, new: str, message: str) -> None:
    """A renamed German tribe was a ValueError in set-up; two Emperors made units E1 and E2, and
    the rules move "E" (issue 27)."""
    store = _edited(tmp_path, "counters.toml", "ldf.counters", old, new)
    with pytest.raises(DataError, match=rf"v\.toml \[replace\.ldf\.counters\]: {message}"):
        model.load_counters(store)


@pytest.mark.rule("ldf:2.6", "ldf:3.2")
def test_a_set_up_the_map_makes_too_large_names_both_files(tmp_path: Path) -> None:
    """A hex given two legion symbols sets up 34 legion bases of 33: a ValueError in set-up (issue 27)."""
    from ancients_games.ldf.state import load_data

    store = _edited(tmp_path, "map.toml", "ldf.map", '[hexdata."2518"]\nlegions = 1', '[hexdata."2518"]\nlegions = 2')
    with pytest.raises(DataError, match=r"counters\.toml: setup\[\d+\]: set-up places 34 x 'legion-base' by this "
                                        r"row, the counter mix has 33 \(map .*v\.toml \[replace\.ldf\.map\]\) \[ldf:2\.6\]"):
        load_data(store)


@pytest.mark.rule("ldf:3.5", "ldf:14.3")
@pytest.mark.parametrize(("old", "new", "message"), [
    ("number = 2\n", "number = 9223372036854775807\n", r"chit\[1\]\.number: 9223372036854775807 is out of range 1\.\.25"),
    ('name = "Flanking Move"\nplayer = "both"', 'name = "Flanking Move"\nplayer = "roman"',
     r"chit\[0\]\.player: chit 1 is for both players: only chits 9, 11, .* may be for one \[ldf:14\.3\]"),
])
def test_chit_numbers_and_players_are_the_rules(tmp_path: Path, old: str, new: str, message: str) -> None:
    """A chit numbered 2**63-1, or chit 1 made the Roman's, was a ValueError when the other side drew it (issue 27)."""
    store = _edited(tmp_path, "chits.toml", "ldf.chits", old, new)
    with pytest.raises(DataError, match=rf"v\.toml \[replace\.ldf\.chits\]: {message}"):
        model.load_chits(store)


@pytest.mark.rule("ldf:2.1", "ldf:1.4", "ldf:14.3")
@pytest.mark.parametrize(("old", "new", "message"), [
    ('"italy" = [', '"italia" = [', r"regions: no italy: the rules read them by name \[ldf:2\.1\]"),
    ("legions", "legion", r"hexkeys: no legions: the rules read them by name \[ldf:1\.4\]"),
])
def test_a_map_without_what_the_rules_name_is_refused(tmp_path: Path, old: str, new: str, message: str) -> None:
    """A map without Italy or without its legion symbols was a ValueError in set-up or play (issue 27)."""
    body = (DATA / "map.toml").read_text(encoding="utf-8")
    assert old in body
    store = _replaced(tmp_path, "map.toml", "ldf.map", body.replace(old, new))
    with pytest.raises(DataError, match=rf"v\.toml \[replace\.ldf\.map\]: {message}"):
        model.load_map(store)


@pytest.mark.rule("ldf:13.2")
def test_a_crt_that_is_not_an_odds_table_is_a_data_error(tmp_path: Path) -> None:
    """A differential table of LDF's results was a ValueError, an internal error on the command line."""
    store = _replaced(tmp_path, "crt.toml", "ldf.crt", '''[table]
kind = "differential"
die = "d6"
columns = ["<=0", "1", ">=2"]

[table.results]
"1-6" = ["AE", "EX", "DE"]

[codes]
AE = "attacker eliminated"
EX = "exchange"
DE = "defender eliminated"

[meta]
id = "ldf.crt"
source = "variant"
''')
    with pytest.raises(DataError, match=r"v\.toml \[replace\.ldf\.crt\]: table\.kind: the LDF CRT is an odds table, "
                                        r"not a DifferentialTable \[ldf:13\.2\]"):
        model.load_crt(store)


@pytest.mark.rule("ldf:2.2", "ldf:14.3")
def test_the_load_checks_name_what_the_rules_code_reads() -> None:
    """The names the loaders require are the ones the rules modules use."""
    from ancients_games.ldf import chits, state

    assert set(model.UNIT_PIECES) == set(state.PREFIX)
    assert model.ONE_SIDED_CHITS == chits.ONE_SIDE_SHOWN | {chits.SIEGE}
    assert model.MAP_HEXES == {"Rome": state.ROME, "Palmyra": state.PALMYRA, "Ctesiphon": state.CTESIPHON}


@pytest.mark.rule("ldf:14.4")
def test_an_emperor_creation_result_the_rules_do_not_carry_out_is_refused(tmp_path: Path) -> None:
    """A renamed result (row and code) was a ValueError at the first succession (issue 27 item 3)."""
    body = (DATA / "emperor_creation.toml").read_text(encoding="utf-8")
    assert body.count("ORDERLY") == 2
    store = _replaced(tmp_path, "emperor_creation.toml", "ldf.emperor-creation", body.replace("ORDERLY", "CHAOS"))
    with pytest.raises(DataError, match=r"v\.toml \[replace\.ldf\.emperor-creation\]: table\.rows\[5\]\[0\]: result "
                                        r"'CHAOS' is not one this game carries out \(.*\) \[ldf:14\.4\]"):
        model.load_emperor_table(store)


def test_the_emperor_results_are_the_successions() -> None:
    from ancients_games.ldf import politics

    assert all(f'"{code}"' in Path(politics.__file__).read_text(encoding="utf-8") for code in model.EMPEROR_RESULTS)


@pytest.mark.rule("ldf:14.5")
@pytest.mark.parametrize(("old", "new", "message"), [
    ('map_key = "rhine"', 'map_key = "RHINE"', r"entry\[\d+\]\.map_key: the map \(.*\) has no hexside 'RHINE' \[ldf:14\.5\]"),
    ('key = "danube"', 'key = "rhine"', r"entry\[\d+\]\.key: entry 'rhine' is listed twice"),
])
def test_the_terrain_key_names_what_the_map_holds_when_it_loads(tmp_path: Path, old: str, new: str,
                                                                message: str) -> None:
    """A renamed key or a second row for one key was listed by `ancients tables` as if it were so (issue 27 item 3)."""
    store = _edited(tmp_path, "terrain_key.toml", "ldf.terrain-key", old, new)
    with pytest.raises(DataError, match=rf"v\.toml \[replace\.ldf\.terrain-key\]: {message}"):
        model.load_terrain_key(store)


@pytest.mark.rule("ldf:13.15")
def test_a_crt_refusing_low_odds_is_refused(tmp_path: Path) -> None:
    """Without 'below', an attack at 1:10, which the game offers, was refused mid-game (issue 27 item 3)."""
    store = _edited(tmp_path, "crt.toml", "ldf.crt", 'below = "AE"\n', "")
    with pytest.raises(DataError, match=r"v\.toml \[replace\.ldf\.crt\]: table\.below: odds below the first column "
                                        r"need a result \('AE'\) or 'first' \[ldf:13\.15\]"):
        model.load_crt(store)
