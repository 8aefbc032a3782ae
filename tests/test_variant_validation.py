"""Variant files validated (issue 13, item 5), through the ``ancients`` command.

Every damaged variant must end in exit code 2 with one line on standard error
naming the variant file and the key path, and write nothing. The ranges belong
to the games' data classes (``games/*/model.py``, ``units.py``, ``cards.py``,
``scenario.py``); the core only reports them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from ancients_kit.cli.main import cli
from ancients_kit.data import DataError, DataStore, Meta, RangeError, Variant, bounded, read_toml, structure
from ancients_kit.plugin import OptionSpec

import attrs

ROOT = Path(__file__).resolve().parents[1]
DATA = {"centurion": ROOT / "games" / "centurion" / "data", "ccancients_rome": ROOT / "games" / "ccancients_rome" / "data"}
SCENARIO = {"centurion": "numidia", "ccancients_rome": "tigranocerte"}
HEAD = '[meta]\nid = "v"\nsource = "variant"\nnote = "test variant"\n\n'


def packaged(game: str, rel: str) -> str:
    return (DATA[game] / rel).read_text("utf-8")


def set_in_block(text: str, start_marker: str, field: str, value: str, end_marker: str) -> str:
    """Set ``field = value`` in the block of ``text`` that opens with ``start_marker``."""
    start = text.index(start_marker)
    end = text.find(end_marker, start + len(start_marker))
    end = len(text) if end == -1 else end
    block = text[start:end]
    if re.search(rf"^{re.escape(field)} = ", block, flags=re.M):
        block = re.sub(rf"^{re.escape(field)} = .*$", f"{field} = {value}", block, count=1, flags=re.M)
    else:
        block = block.replace(start_marker + "\n", f"{start_marker}\n{field} = {value}\n", 1)
    return text[:start] + block + text[end:]


def cen_unit(code: str, field: str, value: str) -> str:
    return set_in_block(packaged("centurion", "units.toml"), f'code = "{code}"', field, value, "[[unit]]")


def cca_unit(code: str, field: str, value: str) -> str:
    return set_in_block(packaged("ccancients_rome", "units.toml"), f"[types.{code}]", field, value, "[types.")


def write_variant(folder: Path, doc_id: str, document: str | None = None, *, body: str | None = None) -> Path:
    """A variant replacing ``doc_id`` by ``document`` kept in a file beside it (or an inline ``body``)."""
    folder.mkdir(parents=True, exist_ok=True)
    if document is not None:
        (folder / "replacement.toml").write_text(document)
        body = f'[replace."{doc_id}"]\nfile = "replacement.toml"\n'
    p = folder / "variant.toml"
    p.write_text(HEAD + (body or ""))
    return p


@pytest.fixture
def ancients(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("ANCIENTS_KIT_SAVES", str(tmp_path / "saves"))
    runner = CliRunner()

    def invoke(*args: str):
        return runner.invoke(cli, list(args), catch_exceptions=False)

    return invoke


def refused_everywhere(ancients, tmp_path: Path, game: str, variant: Path, key: str, *fragments: str,
                       commands: tuple[str, ...] = ("tables", "new")) -> None:
    """``tables`` and ``new`` (and ``simulate`` where asked) each end in exit 2 with one line
    naming the variant file and the key, and write no save."""
    save = tmp_path / "game.json"
    argv = {
        "tables": ("tables", game),
        "scenarios": ("scenarios", game),
        "new": ("new", game, SCENARIO[game], "--bots", "--stop-after", "1", "--no-map", "--save", str(save)),
        "simulate": ("simulate", game, SCENARIO[game], "-n", "1"),
    }
    for cmd in commands:
        res = ancients(*argv[cmd], "--variant", str(variant))
        lines = res.stderr.strip().splitlines()
        assert res.exit_code == 2, (cmd, res.exit_code, res.output)
        assert len(lines) == 1, (cmd, lines)
        assert str(variant) in lines[0] and key in lines[0], (cmd, lines[0])
        for f in fragments:
            assert f in lines[0], (cmd, f, lines[0])
        assert "internal error" not in res.output
        assert not save.exists()
        assert not (tmp_path / "saves").exists()


def refuse_edit(ancients, tmp_path: Path, game: str, rel: str, old: str, new: str, key: str, fragment: str,
                commands: tuple[str, ...] = ("tables", "new")) -> None:
    """A variant replacing packaged ``rel`` with ``old`` changed to ``new`` is refused at ``key``."""
    text = packaged(game, rel)
    assert old in text
    doc_id = read_toml(text, file=rel)["meta"]["id"]
    v = write_variant(tmp_path / "v", doc_id, text.replace(old, new, 1))
    refused_everywhere(ancients, tmp_path, game, v, key, fragment, commands=commands)


# ---------------------------------------------------------------- the core: strict scalars, ranges


@attrs.frozen
class _Doc:
    n: int
    x: float = 0.0
    flag: bool = False
    name: str = ""
    moves: int = attrs.field(default=1, validator=bounded(1, 9, rule="t:rule"))
    per: dict[str, int] = attrs.field(factory=dict, validator=bounded(0, 3, rule="t:rule"))


@attrs.frozen
class _Outer:
    items: tuple[_Doc, ...]


@pytest.mark.parametrize(
    ("data", "path", "fragment"),
    [
        ({"n": 4.5}, "n", "expected a whole number, got float 4.5"),
        ({"n": 4.0}, "n", "expected a whole number, got float 4.0"),
        ({"n": True}, "n", "expected a whole number, got bool True"),
        ({"n": "4"}, "n", "expected a whole number, got str '4'"),
        ({"n": 1, "x": True}, "x", "expected a number, got bool"),
        ({"n": 1, "flag": 1}, "flag", "expected true or false, got int 1"),
        ({"n": 1, "flag": "yes"}, "flag", "expected true or false"),
        ({"n": 1, "name": 814}, "name", "expected a string, got int 814"),
        ({"n": 1, "moves": 0}, "moves", "0 is out of range 1..9 [t:rule]"),
        ({"n": 1, "moves": 2**63}, "moves", f"{2**63} is out of range 1..9 [t:rule]"),
        ({"n": 1, "per": {"a": -1}}, "per.a", "-1 is out of range 0..3"),
    ],
)
def test_strict_converter_and_ranges(data: dict, path: str, fragment: str) -> None:
    with pytest.raises(DataError) as info:
        structure({"items": [{"n": 1}, data]}, _Outer, file="doc.toml")
    assert info.value.path == f"items[1].{path}"
    assert fragment in str(info.value)
    assert str(info.value).startswith(f"doc.toml: items[1].{path}: ")


def test_strict_converter_keeps_good_values_and_enums() -> None:
    got = structure({"items": [{"n": 3, "x": 2, "flag": True, "name": "a", "moves": 9, "per": {"a": 3}}]},
                    _Outer, file="doc.toml")
    assert got.items[0] == _Doc(3, 2.0, True, "a", 9, {"a": 3})
    meta = structure({"id": "x", "source": "rulebook"}, Meta, file="m")
    assert meta.source == "rulebook"


def test_range_error_names_the_field() -> None:
    err = RangeError("movement", "0 is out of range 1..9")
    assert err.field == "movement" and str(err) == "0 is out of range 1..9"


def test_non_utf8_and_deep_nesting_are_data_errors() -> None:
    with pytest.raises(DataError, match=r"^v\.toml: not UTF-8 text: byte 0xff at offset 2$"):
        read_toml(b"a=\xff", file="v.toml")
    with pytest.raises(DataError, match="nested too deeply"):
        read_toml("x = " + "[" * 100_000 + "]" * 100_000, file="v.toml")


def test_option_spec_check_types() -> None:
    yes_no = OptionSpec("fog", False, "")
    choice = OptionSpec("fortune", "none", "", choices=("none", "first", "second"))
    number = OptionSpec("turns", 10, "")
    assert yes_no.check(True) is True and yes_no.check("yes") is True
    assert choice.check("first") == "first" and number.check(7) == 7
    for spec, bad in ((yes_no, 1), (choice, 3), (choice, True), (number, True), (number, 7.5)):
        with pytest.raises(ValueError, match=spec.name):
            spec.check(bad)


# ---------------------------------------------------------------- replace IDs


def test_misspelt_replace_id_is_refused(ancients, tmp_path: Path) -> None:
    v = write_variant(tmp_path / "v", "", body='[replace."centurion.unit"]\ntitle = "x"\n')
    refused_everywhere(ancients, tmp_path, "centurion", v, "replace.centurion.unit", "did you mean centurion.units",
                       commands=("tables", "scenarios", "new", "simulate"))


def test_variant_for_another_game_is_refused(ancients, tmp_path: Path) -> None:
    v = write_variant(tmp_path / "v", "", body='[replace."ccancients_rome.deck"]\ntitle = "x"\n')
    refused_everywhere(ancients, tmp_path, "centurion", v, "replace.ccancients_rome.deck", "has no data document")


def test_check_replacements_accepts_known_ids(tmp_path: Path) -> None:
    v = Variant.from_file(write_variant(tmp_path, "centurion.units", packaged("centurion", "units.toml")))
    DataStore("ancients_games.centurion", (v,)).check_replacements()
    with pytest.raises(DataError, match="has no data document"):
        DataStore("ancients_games.ccancients_rome", (v,)).check_replacements()


# ---------------------------------------------------------------- Centurion ranges


def _unit_case(game: str, code: str, field: str, value: str, key: str, *fragments: str, marks: Any = (),
               commands: tuple[str, ...] = ("tables", "new")) -> Any:
    return pytest.param(game, code, field, value, key, fragments, commands, marks=marks,
                        id=f"{game}-{code}-{field}={value[:12]}")


UNIT_CASES = [
    *(_unit_case("centurion", "SD", "movement", v, "unit[1].movement", f"{v} is out of range 1..99", "[cen:full.units]",
                 marks=pytest.mark.rule("cen:full.units")) for v in ("0", "-3", str(2**63))),
    *(_unit_case("centurion", "SD", "melee_attack", v, "unit[1].melee_attack", frag)
      for v, frag in (("4.5", "got float 4.5"), ("4.0", "got float 4.0"), ("true", "got bool True"),
                      ('"4"', "got str '4'"))),
    _unit_case("centurion", "SD", "melee_defence_front", "0", "unit[1].melee_defence_front", "only a riderless mount",
               marks=pytest.mark.rule("cen:full.units")),
    _unit_case("centurion", "SD", "fire_protection_front", "0", "unit[1].fire_protection_front",
               "[cen:full.fire-protection]", marks=pytest.mark.rule("cen:full.fire-protection"), commands=("new",)),
    _unit_case("centurion", "SD", "points", "0", "unit[1].points", "worth 4", "[cen:full.victory]",
               marks=pytest.mark.rule("cen:full.victory")),
    _unit_case("centurion", "SD", "stack_limit", "4", "stack_limit", "out of range 1..3", marks=pytest.mark.rule("cen:full.stacking"),
               commands=("new",)),
    _unit_case("ccancients_rome", "HI", "move", "0", "types.HI.move", "0 is out of range 1..12",
               marks=pytest.mark.rule("ccr:base.movement")),
    *(_unit_case("ccancients_rome", "HI", "close", v, "types.HI.close", frag, marks=pytest.mark.rule("ccr:base.close-combat"))
      for v, frag in ((str(2**63), "out of range 1..9"), ("0", "out of range 1..9"), ("2.0", "got float 2.0"))),
    _unit_case("ccancients_rome", "HI", "retreat", "0", "types.HI.retreat", "[ccr:base.retreat]",
               marks=pytest.mark.rule("ccr:base.retreat")),
    _unit_case("ccancients_rome", "LS", "range", "-1", "types.LS.range", "[ccr:base.ranged]", marks=pytest.mark.rule("ccr:base.ranged")),
    _unit_case("ccancients_rome", "HI", "mounted", "1", "types.HI.mounted", "expected true or false"),
]


@pytest.mark.parametrize(("game", "code", "field", "value", "key", "fragments", "commands"), UNIT_CASES)
def test_unit_figures_out_of_range_or_of_the_wrong_type(ancients, tmp_path: Path, game: str, code: str, field: str,
                                                        value: str, key: str, fragments: tuple[str, ...],
                                                        commands: tuple[str, ...]) -> None:
    edit = cen_unit if game == "centurion" else cca_unit
    doc_id = "centurion.units" if game == "centurion" else "ccancients_rome.units"
    v = write_variant(tmp_path / "v", doc_id, edit(code, field, value))
    refused_everywhere(ancients, tmp_path, game, v, key, *fragments, commands=commands)


@pytest.mark.rule("cen:basic.combat")
@pytest.mark.parametrize(("row", "label"), [("0", "0"), ("7", "7"), ('"6+"', "6+")])
def test_centurion_crt_rows_are_the_die_rolls(ancients, tmp_path: Path, row: str, label: str) -> None:
    crt = packaged("centurion", "crt_melee.toml")
    if label == "6+":
        crt = crt.replace('6 = ["AE"', '"6+" = ["AE"')
    else:
        extra = f'{row} = ["DD", "DE", "DE", "DE", "DE", "DE", "DE"]\n'
        crt = crt.replace('1 = ["DD"', extra + '1 = ["DD"')
    v = write_variant(tmp_path / "v", "centurion.crt.melee", crt)
    refused_everywhere(ancients, tmp_path, "centurion", v, f"table.results.{label}", "outside the die's rolls 1..6",
                       "[cen:basic.combat]", commands=("tables", "new", "simulate"))


@pytest.mark.rule("cen:full.combat")
def test_centurion_fire_crt_checked_by_tables(ancients, tmp_path: Path) -> None:
    crt = packaged("centurion", "crt_fire.toml")
    crt = re.sub(r'^die = "d6"', 'die = "2d6"', crt, count=1, flags=re.M)
    v = write_variant(tmp_path / "v", "centurion.crt.fire", crt)
    res = ancients("tables", "centurion", "--variant", str(v))
    assert res.exit_code == 2 and str(v) in res.stderr and "internal error" not in res.output


@pytest.mark.rule("cen:full.victory")
@pytest.mark.parametrize(("old", "new", "key", "fragment"), [
    ("turns = 12", "turns = 0", "scenario.turns", "0 is out of range 1..99"),
    ("turns = 12", f"turns = {2**63}", "scenario.turns", "out of range 1..99"),
    ("turns = 12", "turns = 12.0", "scenario.turns", "got float 12.0"),
    ("min_turns = 6", "min_turns = 20", "scenario.min_turns", "above the scenario's 12 turns"),
    ("point_value = 153", "point_value = -153", "side[0].point_value", "-153 is out of range"),
])
def test_centurion_scenario_numbers(ancients, tmp_path: Path, old: str, new: str, key: str, fragment: str) -> None:
    refuse_edit(ancients, tmp_path, "centurion", "scenarios/numidia.toml", old, new, key, fragment,
                commands=("scenarios", "new"))


@pytest.mark.rule("cen:scenarios")
def test_centurion_scenario_error_names_the_variant(ancients, tmp_path: Path) -> None:
    text = packaged("centurion", "scenarios/numidia.toml").replace('type = "SD"', 'type = "XX"', 1)
    v = write_variant(tmp_path / "v", "centurion.scenario.numidia", text)
    refused_everywhere(ancients, tmp_path, "centurion", v, "replace.centurion.scenario.numidia", "unknown unit type",
                       commands=("scenarios", "new"))


@pytest.mark.rule("cen:full.combat")
def test_centurion_terrain_multiplier_never_zero(ancients, tmp_path: Path) -> None:
    text = set_in_block(packaged("centurion", "terrain.toml"), 'id = "hill"', "melee_defence", '"0"', "[[terrain]]")
    v = write_variant(tmp_path / "v", "centurion.terrain", text)
    refused_everywhere(ancients, tmp_path, "centurion", v, "melee_defence", "out of range", "[cen:full.combat]")


@pytest.mark.parametrize(("value", "fragment"), [('"../../../../../../etc/passwd"', "leaves or skips folders"),
                                                 ('"/etc/passwd"', "absolute path")])
def test_centurion_scenario_map_stays_in_the_package(ancients, tmp_path: Path, value: str, fragment: str) -> None:
    text = packaged("centurion", "scenarios/numidia.toml").replace('map = "map.toml"', f"map = {value}")
    v = write_variant(tmp_path / "v", "centurion.scenario.numidia", text)
    refused_everywhere(ancients, tmp_path, "centurion", v, "scenario.map", fragment, commands=("scenarios", "new"))


def test_centurion_variant_map_too_big(ancients, tmp_path: Path) -> None:
    text = packaged("centurion", "map.toml")
    text = re.sub(r"^columns = \d+", "columns = 100000000", text, count=1, flags=re.M)
    text = re.sub(r"^digits = \d+", "digits = 9", text, count=1, flags=re.M)
    v = write_variant(tmp_path / "v", "centurion.map.frontier", text)
    refused_everywhere(ancients, tmp_path, "centurion", v, "grid", "digits 9 is out of range 1..4", commands=("new",))


def test_variant_option_of_the_wrong_type(ancients, tmp_path: Path) -> None:
    for body, fragment in (("[options]\nfortune = 3\n", "takes one of none, first, second, not 3"),
                           ('[options]\nfortune = "maybe"\n', "not 'maybe'"),
                           ("[options]\nplacement = 1\n", "takes true or false"),
                           ("[options]\nnosuch = true\n", "has no option 'nosuch'")):
        v = write_variant(tmp_path / "v", "", body=body)
        key = "options." + body.split("\n")[1].split(" =")[0]
        refused_everywhere(ancients, tmp_path, "centurion", v, key, fragment, commands=("new",))


def test_a_good_variant_still_plays(ancients, tmp_path: Path) -> None:
    v = write_variant(tmp_path / "v", "centurion.units", cen_unit("SD", "movement", "5"), body=None)
    save = tmp_path / "game.json"
    res = ancients("new", "centurion", "numidia", "--bots", "--stop-after", "1", "--no-map", "--save", str(save),
                   "--variant", str(v))
    assert res.exit_code == 0, res.output
    assert save.exists()


# ---------------------------------------------------------------- C&C Ancients ranges


@pytest.mark.rule("ccr:base.cards")
def test_cca_deck_total_checked_by_tables_as_by_new(ancients, tmp_path: Path) -> None:
    deck = packaged("ccancients_rome", "deck.toml").replace("count = 4", "count = 3", 1)
    v = write_variant(tmp_path / "v", "ccancients_rome.deck", deck)
    refused_everywhere(ancients, tmp_path, "ccancients_rome", v, "card", "add up to 59", "has 60",
                       commands=("tables", "new", "simulate"))


@pytest.mark.rule("ccr:base.cards")
def test_cca_card_count_zero(ancients, tmp_path: Path) -> None:
    deck = packaged("ccancients_rome", "deck.toml").replace("count = 4", "count = 0", 1)
    v = write_variant(tmp_path / "v", "ccancients_rome.deck", deck)
    refused_everywhere(ancients, tmp_path, "ccancients_rome", v, "card[1].count", "out of range 1..60")


@pytest.mark.rule("ccr:setup")
def test_cca_command_cards_fit_the_deck(ancients, tmp_path: Path) -> None:
    text = re.sub(r"command_cards = \d+", "command_cards = 40", packaged("ccancients_rome", "battles/tigranocerte.toml"),
                  count=1)
    v = write_variant(tmp_path / "v", "ccancients_rome.battle.tigranocerte", text)
    refused_everywhere(ancients, tmp_path, "ccancients_rome", v, "top.command_cards", "out of range 1..29")


@pytest.mark.rule("ccr:victory")
def test_cca_banners_bounded(ancients, tmp_path: Path) -> None:
    text = re.sub(r"^banners = \d+", f"banners = {2**63}", packaged("ccancients_rome", "battles/tigranocerte.toml"),
                  count=1, flags=re.M)
    v = write_variant(tmp_path / "v", "ccancients_rome.battle.tigranocerte", text)
    refused_everywhere(ancients, tmp_path, "ccancients_rome", v, "victory.banners", "out of range 1..30")


@pytest.mark.rule("ccr:setup")
def test_cca_battle_check_names_the_variant(ancients, tmp_path: Path) -> None:
    text = packaged("ccancients_rome", "battles/tigranocerte.toml")
    text = re.sub(r'^faction = "[^"]+"', 'faction = "Martians"', text, count=1, flags=re.M)
    v = write_variant(tmp_path / "v", "ccancients_rome.battle.tigranocerte", text)
    refused_everywhere(ancients, tmp_path, "ccancients_rome", v, "top.faction", "unknown faction")


# ---------------------------------------------------------------- files


def test_non_utf8_variant(ancients, tmp_path: Path) -> None:
    p = tmp_path / "v" / "variant.toml"
    p.parent.mkdir()
    p.write_bytes(HEAD.encode() + b"# \xff\xfe\n")
    refused_everywhere(ancients, tmp_path, "centurion", p, "not UTF-8 text", commands=("tables", "new", "simulate"))


def test_variant_include_escaping(ancients, tmp_path: Path) -> None:
    v = write_variant(tmp_path / "v", "", body='[replace."centurion.units"]\nfile = "../../../../../../etc/hostname"\n')
    refused_everywhere(ancients, tmp_path, "centurion", v, "replace.centurion.units.file", "resolves outside")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_variant_device(ancients, tmp_path: Path) -> None:
    refused_everywhere(ancients, tmp_path, "centurion", Path("/dev/zero"), "", "is a device")


# ---------------------------------------------------------------- found by tests/test_fuzz_variants.py


@pytest.mark.rule("cen:full.facing")
def test_centurion_unknown_facing_names_the_variant(ancients, tmp_path: Path) -> None:
    text = packaged("centurion", "scenarios/numidia.toml")
    text = re.sub(r'^facing = "([A-Z]+)"', r'facing = "!\1"', text, count=1, flags=re.M)
    v = write_variant(tmp_path / "v", "centurion.scenario.numidia", text)
    refused_everywhere(ancients, tmp_path, "centurion", v, "facing", "unknown direction", "(cen:full.facing)",
                       commands=("scenarios", "new"))


@pytest.mark.rule("cen:full.deployment")
def test_centurion_zone_centre_off_the_map(ancients, tmp_path: Path) -> None:
    text = re.sub(r'^centre = "\d+"', 'centre = "9999"', packaged("centurion", "scenarios/numidia.toml"), count=1,
                  flags=re.M)
    v = write_variant(tmp_path / "v", "centurion.scenario.numidia", text)
    refused_everywhere(ancients, tmp_path, "centurion", v, "zone.centre", "not on the map", commands=("new",))


def test_a_key_holding_a_line_break_stays_one_line(ancients, tmp_path: Path) -> None:
    v = write_variant(tmp_path / "v", "", body='[replace."centurion.units\\n0"]\ntitle = "x"\n')
    refused_everywhere(ancients, tmp_path, "centurion", v, "replace.centurion.units\\n0", "has no data document")
    doc = cen_unit("SD", "movement", "4").replace('code = "SD"', 'code = "SD"\n"\\n0" = 1', 1)
    v = write_variant(tmp_path / "w", "centurion.units", doc)
    refused_everywhere(ancients, tmp_path, "centurion", v, "unit[1]", "unknown key(s): \\n0")


@pytest.mark.rule("cen:scenarios")
def test_units_variant_breaking_a_scenario_is_named(ancients, tmp_path: Path) -> None:
    doc = packaged("centurion", "units.toml")
    doc = "unit = []\n" + doc[: doc.index("[[unit]]")]  # top-level keys go before [meta]
    v = write_variant(tmp_path / "v", "centurion.units", doc)
    refused_everywhere(ancients, tmp_path, "centurion", v, "unknown unit type", "unit types from",
                       commands=("scenarios", "new"))


@pytest.mark.parametrize(("doc_id", "rel", "key", "value"), [
    ("centurion.units", "units.toml", "unit", '""'),
    ("centurion.terrain", "terrain.toml", "terrain", '""'),
    ("ccancients_rome.deck", "deck.toml", "card", '"abc"'),
])
def test_a_string_is_not_an_array(ancients, tmp_path: Path, doc_id: str, rel: str, key: str, value: str) -> None:
    game = doc_id.split(".")[0]
    doc = packaged(game, rel)
    marker = "[[unit]]" if key == "unit" else "[[terrain]]" if key == "terrain" else "[[card]]"
    doc = f"{key} = {value}\n" + doc[: doc.index(marker)]  # top-level keys go before [meta]
    v = write_variant(tmp_path / "v", doc_id, doc)
    refused_everywhere(ancients, tmp_path, game, v, key, "expected an array, got str")


@pytest.mark.rule("cen:basic.movement")
def test_terrain_chart_must_cover_the_map(ancients, tmp_path: Path) -> None:
    doc = packaged("centurion", "terrain.toml")
    doc = "terrain = []\n" + doc[: doc.index("[[terrain]]")]
    v = write_variant(tmp_path / "v", "centurion.terrain", doc)
    refused_everywhere(ancients, tmp_path, "centurion", v, "terrain", "no hex terrain line for 'clear'",
                       "map.toml uses", commands=("new",))


@pytest.mark.rule("cen:basic.combat")
def test_odds_refuses_a_bad_variant_in_one_line(ancients, tmp_path: Path) -> None:
    crt = packaged("centurion", "crt_melee.toml").replace('6 = ["AE"', '7 = ["AE"')
    v = write_variant(tmp_path / "v", "centurion.crt.melee", crt)
    for variant in (v, write_variant(tmp_path / "w", "", body='[replace."centurion.unit"]\ntitle = "x"\n')):
        res = ancients("odds", "centurion", "attack=12", "defense=4", "--variant", str(variant))
        lines = res.stderr.strip().splitlines()
        assert res.exit_code == 2 and len(lines) == 1 and str(variant) in lines[0], res.output


@pytest.mark.rule("ccr:base.cards")
@pytest.mark.parametrize(("old", "new", "key", "fragment"), [
    ('effect = "rally"', 'effect = "ralley"', "effect", "unknown tactic effect 'ralley'"),
    ('kind = "section"', 'kind = "sektion"', "kind", "sektion"),
    ("orders = { left = 2 }", "orders = { middle = 2 }", "orders.middle", "unknown section 'middle'"),
])
def test_cca_cards_the_rules_cannot_play(ancients, tmp_path: Path, old: str, new: str, key: str, fragment: str) -> None:
    refuse_edit(ancients, tmp_path, "ccancients_rome", "deck.toml", old, new, key, fragment)
