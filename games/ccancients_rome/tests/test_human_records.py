"""The human win rates (data/human_records.toml) load, and a damaged copy is refused in one line.

The records are not rules (no rule reads them), so these tests carry no rule mark.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ancients_games.ccancients_rome.human_records import REL, load_human_records
from ancients_games.ccancients_rome.scenario import BATTLE_PREFIX, list_battles, load_battle
from ancients_games.ccancients_rome.state import side_name
from ancients_kit.data import DataError, DataStore, Variant

PACKAGE = "ancients_games.ccancients_rome"
DATA = Path(__file__).resolve().parents[1] / "data" / REL


def test_records_name_existing_battles_and_sides_with_rates_in_range() -> None:
    store = DataStore(PACKAGE)
    records = load_human_records(store)
    battles = {b.removeprefix(BATTLE_PREFIX) for b in list_battles(store)}
    assert records.meta.id == "ccancients_rome.human-records"
    assert records.meta.sources and records.collection.retrieved
    assert records.battles, "no battle recorded"
    seen = set()
    for r in records.battles:
        assert r.battle in battles, r.battle
        b = load_battle(store, BATTLE_PREFIX + r.battle)
        sides = {side_name(b.top.army), side_name(b.bottom.army)}
        assert set(r.percent) == sides, r.battle
        # the page's first figure is its TOP ARMY, the battle file's [top] side
        assert r.side == side_name(b.top.army), r.battle
        for s in sides:
            assert 0 <= r.rate(s) <= 1, (r.battle, s)
        assert r.games >= 1 and r.url.startswith("https://www.commandsandcolors.net/")
        seen.add(r.battle)
    missing = {m.battle for m in records.missing}
    assert missing <= battles and not missing & seen
    assert seen | missing == battles, "every battle is either recorded or listed as missing, with a reason"


def _variant(tmp_path: Path, old: str, new: str) -> Variant:
    text = DATA.read_text(encoding="utf-8")
    assert old in text
    (tmp_path / "records.toml").write_text(text.replace(old, new, 1), encoding="utf-8")
    v = tmp_path / "variant.toml"
    v.write_text('[meta]\nid = "damaged"\nsource = "variant"\nnote = "test"\n\n'
                 '[replace."ccancients_rome.human-records"]\nfile = "records.toml"\n', encoding="utf-8")
    return Variant.from_file(v)


@pytest.mark.parametrize(("old", "new", "says"), [
    ("[battles.fano]", "[battles.fanum]", "battles.fanum: no battle 'fanum'"),
    ("percent = { alemanni = 44, roman = 56 }", "percent = { alemanni = 144, roman = 56 }", "percent.alemanni: 144 is out of range 0..100"),
    ("percent = { alemanni = 44, roman = 56 }", "percent = { alemanni = 34, roman = 56 }", "battles.fano.percent: the two percentages add up to 90"),
    ("percent = { alemanni = 44, roman = 56 }", "percent = { goths = 44, roman = 56 }", "battles.fano.percent: percent must give both sides of fano"),
    ('side = "licinius"', 'side = "constantinus"', "battles.cibalae.side: side 'constantinus' is not a side of cibalae"),
    ("games = 57", "games = 0", "games: 0 is out of range"),
    ('battle = "carrhes"', 'battle = "fano"', "missing[3].battle: battle 'fano' is recorded and listed as missing"),
])  # fmt: skip
def test_a_damaged_copy_is_refused_in_one_line_naming_file_and_key(tmp_path: Path, old: str, new: str,
                                                                    says: str) -> None:
    store = DataStore(PACKAGE, (_variant(tmp_path, old, new),))
    with pytest.raises(DataError) as exc:
        load_human_records(store)
    message = str(exc.value)
    assert "\n" not in message and "variant.toml" in message and says in message, message
