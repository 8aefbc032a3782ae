"""Bad Xenophon data is refused with a one-line message naming the file, the key and the rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from ancients_kit.data import DataError, DataStore, Variant
from ancients_games.xenophon import PACKAGE
from ancients_games.xenophon.model import load, load_chits, load_units


def _store(tmp_path: Path, text: str) -> DataStore:
    f = tmp_path / "v.toml"
    f.write_text('[meta]\nid = "bad"\nsource = "variant"\nnote = "test"\n\n' + text, encoding="utf-8")
    return DataStore(PACKAGE, (Variant.from_file(f),))


@pytest.mark.rule("xen:components", "xen:chits")
def test_pool_of_39_chits_refused(tmp_path: Path) -> None:
    store = _store(tmp_path, '''[replace."xenophon.stratagems"]
chit = [{ name = "Agent", count = 39, phase = "diplomacy", text = "x" }]
provenance = [{ entries = ["Agent"], source = "variant", note = "x" }]
''')
    with pytest.raises(DataError, match=r"the pool holds 39 chits, not 40 \(xen:components\)"):
        load_chits(store)


@pytest.mark.rule("xen:components")
def test_unmarked_unit_row_refused(tmp_path: Path) -> None:
    store = _store(tmp_path, '''[replace."xenophon.units"]
unit = [{ type = "phalanx", cs = 8, ov = 16, recruit = 4, upkeep = 1 }]
''')
    with pytest.raises(DataError, match="no provenance mark for phalanx"):
        load_units(store)


@pytest.mark.rule("xen:roster")
def test_mark_naming_no_satrapy_refused(tmp_path: Path) -> None:
    store = _store(tmp_path, '''[replace."xenophon.scenarios"]
scenario = [{ id = "s", title = "S", turns = 7, first_player = "rebel" }]
side = [{ name = "rebel", treasury = 10, chits = 6, supreme_leader = "Cyrus" }]
setup = [{ satrapy = "Lydia", control = "rebel", militia = 1 }]
provenance = [{ entries = ["Atlantis"], source = "reconstructed", note = "x" }]
''')
    with pytest.raises(DataError, match="no satrapy 'Atlantis'") as err:
        load(store)
    assert "provenance[0].entries[0]" in str(err.value) and "\n" not in str(err.value)


@pytest.mark.rule("xen:roster")
def test_unknown_satrapy_lookup_names_the_rule() -> None:
    with pytest.raises(KeyError, match=r"xen:components"):
        load().row("Atlantis")


@pytest.mark.rule("xen:sequence", "xen:treasury", "xen:components")
@pytest.mark.parametrize(("scenario", "side", "setup", "key"), [
    ('turns = 0', 'treasury = 10', 'militia = 1', "scenario[0].turns: 0 is out of range 1..50"),
    ('turns = 7', 'treasury = -10', 'militia = 1', "side[0].treasury: -10 is out of range 0..10000"),
    ('turns = 7', 'treasury = 10', 'militia = -1', "setup[0].militia: -1 is out of range 0..99"),
    ('turns = 7', 'treasury = 10', 'militia = 100000', "setup[0].militia: 100000 is out of range 0..99"),
])
def test_scenario_numbers_out_of_range_refused(tmp_path: Path, scenario: str, side: str, setup: str,
                                               key: str) -> None:
    """Turns 0, a negative treasury and 100,000 militia were taken (issue 27)."""
    store = _store(tmp_path, f'''[replace."xenophon.scenarios"]
scenario = [{{ id = "s", title = "S", {scenario}, first_player = "rebel" }}]
side = [{{ name = "rebel", {side}, chits = 6, supreme_leader = "Cyrus" }}]
setup = [{{ satrapy = "Lydia", control = "rebel", {setup} }}]
provenance = [{{ entries = ["Lydia"], source = "reconstructed", note = "x" }}]
''')
    with pytest.raises(DataError, match=key.replace(".", r"\.").replace("[", r"\[").replace("]", r"\]")) as err:
        load(store)
    assert "\n" not in str(err.value)


@pytest.mark.rule("xen:components", "xen:treasury-chart")
def test_unit_factors_out_of_range_refused(tmp_path: Path) -> None:
    store = _store(tmp_path, '''[replace."xenophon.units"]
unit = [{ type = "phalanx", cs = -8, ov = 16, recruit = 4, upkeep = 1 }]
provenance = [{ entries = ["phalanx"], source = "variant", note = "x" }]
''')
    with pytest.raises(DataError, match=r"unit\[0\]\.cs: -8 is out of range 0\.\.50"):
        load_units(store)


@pytest.mark.rule("xen:scenario.cyrus-revolt")
@pytest.mark.parametrize(("sides", "setup", "message"), [
    ('{ name = "rebel", treasury = 10, chits = 6, supreme_leader = "Cyrus" }', '{ satrapy = "Lydia", militia = 1 }',
     "the two sides are the empire and the rebel"),  # the empire missing: a KeyError in set-up before
    ('{ name = "rebel", treasury = 10, chits = 6, supreme_leader = "Cyrus" }, '
     '{ name = "rebel", treasury = 10, chits = 6, supreme_leader = "Cyrus" }', '{ satrapy = "Lydia", militia = 1 }',
     r"side\[1\]\.name: 'rebel' appears twice"),
    ('{ name = "rebel", treasury = 10, chits = 6, supreme_leader = "Cyrus" }, '
     '{ name = "empire", treasury = 40, chits = 2, supreme_leader = "Artaxerxes" }',
     '{ satrapy = "Lydia", militia = 1 }, { satrapy = "Lydia", militia = 2 }', r"setup\[1\]\.satrapy: 'Lydia' appears twice"),
])
def test_scenario_sides_and_rows_checked(tmp_path: Path, sides: str, setup: str, message: str) -> None:
    store = _store(tmp_path, f'''[replace."xenophon.scenarios"]
scenario = [{{ id = "s", title = "S", turns = 7, first_player = "rebel" }}]
side = [{sides}]
setup = [{setup}]
provenance = [{{ entries = ["Lydia"], source = "reconstructed", note = "x" }}]
''')
    with pytest.raises(DataError, match=message):
        load(store)


@pytest.mark.rule("xen:crt")
def test_another_games_crt_is_refused_when_it_loads(tmp_path: Path) -> None:
    """LDF's CRT used as the engagement table: "unknown CRT result" came mid-game (issue 27)."""
    import ancients_games.ldf as ldf
    from ancients_games.xenophon.model import load_tables

    text = (Path(ldf.__file__).parent / "data" / "crt.toml").read_text(encoding="utf-8")
    assert 'id = "ldf.crt"' in text
    (tmp_path / "crt.toml").write_text(text.replace('id = "ldf.crt"', 'id = "xenophon.crt-engagement"', 1),
                                       encoding="utf-8")
    store = _store(tmp_path, '[replace."xenophon.crt-engagement"]\nfile = "crt.toml"\n')
    with pytest.raises(DataError, match=r"\[replace\.xenophon\.crt-engagement\]: table\.\S+: result '.*' is not "
                                        r"one this game carries out \(.*\) \[xen:crt\]"):
        load_tables(store)


@pytest.mark.rule("xen:scenario.cyrus-revolt", "xen:supreme-leaders")
def test_a_leader_named_twice_is_refused(tmp_path: Path) -> None:
    store = _store(tmp_path, '''[replace."xenophon.scenarios"]
scenario = [{ id = "s", title = "S", turns = 7, first_player = "rebel" }]
side = [{ name = "rebel", treasury = 10, chits = 6, supreme_leader = "Cyrus", leaders = ["Clearchus", "Clearchus"] },
        { name = "empire", treasury = 40, chits = 2, supreme_leader = "Artaxerxes" }]
setup = [{ satrapy = "Lydia", militia = 1 }]
provenance = [{ entries = ["Lydia"], source = "reconstructed", note = "x" }]
''')
    with pytest.raises(DataError, match=r"'Clearchus' appears twice"):
        load(store)


# ---------------------------------------------------------------- issue 27 item 3: the mutation test's finds

DATA = Path(__file__).resolve().parents[1] / "data"


def _edited(tmp_path: Path, rel: str, data_id: str, old: str, new: str, count: int = 1) -> DataStore:
    """A store whose document ``data_id`` is the packaged ``rel`` with its first ``count``
    ``old`` (every one for -1) turned into ``new``."""
    body = (DATA / rel).read_text(encoding="utf-8")
    assert old in body
    (tmp_path / "doc.toml").write_text(body.replace(old, new, count), encoding="utf-8")
    return _store(tmp_path, f'[replace."{data_id}"]\nfile = "doc.toml"\n')


@pytest.mark.rule("xen:roster")
@pytest.mark.parametrize(("rel", "data_id", "old", "new", "loader"), [
    ("roster.toml", "xenophon.roster", 'name = "Lydia"', 'name = "LYDIA"', load),
    ("scenarios.toml", "xenophon.scenarios", 'satrapy = "Lydia"', 'satrapy = "Lydi"', load),
    ("stratagems.toml", "xenophon.stratagems", 'name = "Anabasis"', 'name = "Anabasi"', load_chits),
    ("units.toml", "xenophon.units", 'type = "phalanx"', 'type = "PHALANX"', load_units),
])
def test_a_cross_check_names_the_variant_not_the_packaged_file(tmp_path: Path, rel: str, data_id: str, old: str,
                                                              new: str, loader: object) -> None:
    """The checks after structuring named the packaged file, which has no such row (issue 27)."""
    store = _edited(tmp_path, rel, data_id, old, new)
    with pytest.raises(DataError) as err:
        loader(store)  # type: ignore[operator]
    assert str(err.value).startswith(f"{tmp_path / 'v.toml'} [replace.{data_id}]: "), err.value


@pytest.mark.rule("xen:roster")
def test_a_set_up_the_roster_row_cannot_fill_is_refused(tmp_path: Path) -> None:
    """Lydia's set-up takes 1 Light: a roster row with none was a ValueError in set-up (issue 27)."""
    body = (DATA / "roster.toml").read_text(encoding="utf-8")
    at = body.index('name = "Lydia"')
    (tmp_path / "doc.toml").write_text(body[:at] + body[at:].replace("light = 1\n", "light = 0\n", 1), encoding="utf-8")
    store = _store(tmp_path, '[replace."xenophon.roster"]\nfile = "doc.toml"\n')
    with pytest.raises(DataError, match=r"scenarios\.toml: setup\[\d+\]\.light: the set-up of Lydia needs 1 light, "
                                        r"its roster row \(.*v\.toml \[replace\.xenophon\.roster\]\) has 0 \[xen:roster\]"):
        load(store)


@pytest.mark.rule("xen:components", "xen:scenario.cyrus-revolt")
@pytest.mark.parametrize(("old", "new", "message"), [
    ("[hexkeys.port]", "[hexkeys.harbour]", r"hexkeys: no per-hex key port: the rules read it \[xen:components\]"),
    ('"Persepolis" = "2028"', '"Parsa" = "2028"', r"places: no place Persepolis: the set-up names it"),
])
def test_a_map_without_what_the_rules_name_is_refused(tmp_path: Path, old: str, new: str, message: str) -> None:
    """A map without its ports was a ValueError in set-up (issue 27)."""
    if old == "[hexkeys.port]":
        body = (DATA / "map.toml").read_text(encoding="utf-8")
        new_body = body.replace("[hexkeys.port]", "[hexkeys.harbour]").replace("[hexkeys.port.", "[hexkeys.harbour.")
        (tmp_path / "doc.toml").write_text(new_body, encoding="utf-8")
        store = _store(tmp_path, '[replace."xenophon.map"]\nfile = "doc.toml"\n')
    else:
        store = _edited(tmp_path, "map.toml", "xenophon.map", old, new)
    with pytest.raises(DataError, match=r"v\.toml \[replace\.xenophon\.map\]: " + message):
        load(store)


@pytest.mark.rule("xen:components")
def test_unit_factors_need_every_kind_of_counter(tmp_path: Path) -> None:
    """The leader's row renamed (its provenance mark with it) was a KeyError in set-up (issue 27)."""
    body = (DATA / "units.toml").read_text(encoding="utf-8")
    assert body.count('"leader"') == 2
    (tmp_path / "doc.toml").write_text(body.replace('"leader"', '"hero"'), encoding="utf-8")
    store = _store(tmp_path, '[replace."xenophon.units"]\nfile = "doc.toml"\n')
    with pytest.raises(DataError, match=r"unit: no row for leader: the counter mix has such units \[xen:components\]"):
        load_units(store)


@pytest.mark.rule("xen:roster")
def test_a_leader_of_the_other_side_is_refused(tmp_path: Path) -> None:
    """Cyrus set up for the Empire was taken; a renamed leader was a KeyError in set-up (issue 27)."""
    from ancients_games.xenophon.state import load_data

    store = _edited(tmp_path, "scenarios.toml", "xenophon.scenarios", '"Ariaos"', '"Ariaios"')
    with pytest.raises(DataError, match=r"side\[\d\]: 'Ariaios' is not a leader of the rebel \(Cyrus, .*\) \[xen:roster\]"):
        load_data(store)


@pytest.mark.rule("xen:random-events")
def test_a_random_event_no_rule_carries_out_is_refused(tmp_path: Path) -> None:
    """A renamed event (in its row and its code) was a KeyError when the roll came up (issue 27 item 3)."""
    from ancients_games.xenophon.model import load_tables

    assert (DATA / "tables" / "events.toml").read_text(encoding="utf-8").count("quiet-late") == 2
    store = _edited(tmp_path, "tables/events.toml", "xenophon.random-events", "quiet-late", "eclipse", -1)
    with pytest.raises(DataError, match=r"v\.toml \[replace\.xenophon\.random-events\]: table\.rows\[\d+\]\[0\]: result "
                                        r"'eclipse' is not one this game carries out \(.*\) \[xen:random-events\]"):
        load_tables(store)


@pytest.mark.rule("xen:movement")
@pytest.mark.parametrize(("old", "new", "message"), [
    ('road = "1/2"', 'road = "half"', r"table\.entries\.road: 'half': the movement cost is a number 0\.\.99"),
    ('river = "+2"\n', "", r"table\.entries\.river: no entry: the movement cost is a number 0\.\.99"),
])
def test_terrain_costs_are_numbers_when_the_chart_loads(tmp_path: Path, old: str, new: str, message: str) -> None:
    """A cost that is no number, or no river line, was a ValueError or KeyError at the first move (issue 27 item 3)."""
    from ancients_games.xenophon.model import load_tables

    store = _edited(tmp_path, "tables/terrain.toml", "xenophon.terrain", old, new)
    with pytest.raises(DataError, match=rf"v\.toml \[replace\.xenophon\.terrain\]: {message}"):
        load_tables(store)


@pytest.mark.rule("xen:disband")
def test_a_table_of_another_kind_is_refused(tmp_path: Path) -> None:
    """The Diplomacy Table served as the Disband Table loaded; the rules read it as a lookup (issue 27 item 3)."""
    from ancients_games.xenophon.model import load_tables

    store = _edited(tmp_path, "tables/diplomacy.toml", "xenophon.disband", 'id = "xenophon.diplomacy"',
                    'id = "xenophon.disband"')
    with pytest.raises(DataError, match=r"v\.toml \[replace\.xenophon\.disband\]: table: the disband table is a "
                                        r"LookupTable read by d6, not a DifferentialTable read by d6 \[xen:disband\]"):
        load_tables(store)


def test_the_table_results_are_the_handlers() -> None:
    from ancients_games.xenophon import events, model

    assert set(events.HANDLERS) == set(model.EVENT_RESULTS)


@pytest.mark.rule("xen:roster")
def test_a_set_up_satrapy_the_variant_roster_lacks_names_the_roster(tmp_path: Path) -> None:
    """The message named only the packaged scenarios file, which the variant did not change (issue 27 item 3)."""
    assert (DATA / "roster.toml").read_text(encoding="utf-8").count('"Lydia"') == 2  # the row and its provenance
    store = _edited(tmp_path, "roster.toml", "xenophon.roster", '"Lydia"', '"Lydda"', -1)
    with pytest.raises(DataError, match=r"scenarios\.toml: setup\[\d+\]: no satrapy 'Lydia' in the roster "
                                        r"\(.*v\.toml \[replace\.xenophon\.roster\]\)"):
        load(store)


@pytest.mark.rule("xen:guards")
def test_a_guard_city_the_variant_map_lacks_names_the_map(tmp_path: Path) -> None:
    """The message named only the packaged scenarios file, which the variant did not change (issue 27 item 3)."""
    store = _edited(tmp_path, "map.toml", "xenophon.map", '"Sardis" = "2908"', '"Sardeis" = "2908"')
    with pytest.raises(DataError, match=r"scenarios\.toml: side\[\d\]\.guard_city: no city 'Sardis' on the map "
                                        r"\(.*v\.toml \[replace\.xenophon\.map\]\)"):
        load(store)
