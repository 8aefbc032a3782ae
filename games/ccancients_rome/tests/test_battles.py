"""Tests for the 24 Imperial Rome battles and the Para Bellum series (scenario data + schema).

The War Council of each battle (army names, named leaders, Command cards, who
moves first, Victory Banners) is parsed from ../shared/rules/ccancients_rome.txt
and compared with the battle files; those checks skip when the text is absent.
Boards and placements are reconstructed, so they are checked for playability:
on the 113-hex board, one unit per hex, terrain the rules know, special-rule
hexes that exist and match the rule's terrain.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import attrs
import pytest

from ancients_games.ccancients_rome import scenario as sc
from ancients_kit.data import DataError, DataStore

ROOT = Path(__file__).resolve().parents[3]
RULES_DIR = ROOT.parent / "shared" / "rules"
BOOK = RULES_DIR / "ccancients_rome.txt"
INDEX = RULES_DIR / "ccancients_rome.index.toml"

SLUGS = [
    "tigranocerte", "carrhes", "philippi-i", "philippi-ii", "cilician-gates", "antonys-siege-train",
    "medway", "boudicas-revolt-watling-street", "first-bedriacum", "mons-graupius", "issus", "lugdunum",
    "nisibis", "hormuz", "carthage", "abrittus", "edessa", "naissus", "placentia", "fano", "pavia",
    "immae", "milvian-bridge", "cibalae",
]  # fmt: skip

# One parameter per battle, each carrying its scenario rule ID (literal, so rule_coverage.py sees it).
BATTLES = [
    pytest.param("tigranocerte", marks=pytest.mark.rule("ccr:scenario.tigranocerte")),
    pytest.param("carrhes", marks=pytest.mark.rule("ccr:scenario.carrhes")),
    pytest.param("philippi-i", marks=pytest.mark.rule("ccr:scenario.philippi-i")),
    pytest.param("philippi-ii", marks=pytest.mark.rule("ccr:scenario.philippi-ii")),
    pytest.param("cilician-gates", marks=pytest.mark.rule("ccr:scenario.cilician-gates")),
    pytest.param("antonys-siege-train", marks=pytest.mark.rule("ccr:scenario.antonys-siege-train")),
    pytest.param("medway", marks=pytest.mark.rule("ccr:scenario.medway")),
    pytest.param("boudicas-revolt-watling-street", marks=pytest.mark.rule("ccr:scenario.boudicas-revolt-watling-street")),
    pytest.param("first-bedriacum", marks=pytest.mark.rule("ccr:scenario.first-bedriacum")),
    pytest.param("mons-graupius", marks=pytest.mark.rule("ccr:scenario.mons-graupius")),
    pytest.param("issus", marks=pytest.mark.rule("ccr:scenario.issus")),
    pytest.param("lugdunum", marks=pytest.mark.rule("ccr:scenario.lugdunum")),
    pytest.param("nisibis", marks=pytest.mark.rule("ccr:scenario.nisibis")),
    pytest.param("hormuz", marks=pytest.mark.rule("ccr:scenario.hormuz")),
    pytest.param("carthage", marks=pytest.mark.rule("ccr:scenario.carthage")),
    pytest.param("abrittus", marks=pytest.mark.rule("ccr:scenario.abrittus")),
    pytest.param("edessa", marks=pytest.mark.rule("ccr:scenario.edessa")),
    pytest.param("naissus", marks=pytest.mark.rule("ccr:scenario.naissus")),
    pytest.param("placentia", marks=pytest.mark.rule("ccr:scenario.placentia")),
    pytest.param("fano", marks=pytest.mark.rule("ccr:scenario.fano")),
    pytest.param("pavia", marks=pytest.mark.rule("ccr:scenario.pavia")),
    pytest.param("immae", marks=pytest.mark.rule("ccr:scenario.immae")),
    pytest.param("milvian-bridge", marks=pytest.mark.rule("ccr:scenario.milvian-bridge")),
    pytest.param("cibalae", marks=pytest.mark.rule("ccr:scenario.cibalae")),
]

BLOCK_COLOURS = {"grey": "grey", "red": "red", "purple": "purple", "green": "green", "barbarian": "green", "eastern kingdoms": "beige"}


@pytest.fixture(scope="module")
def store() -> DataStore:
    return DataStore("ancients_games.ccancients_rome")


def battle(store: DataStore, slug: str) -> sc.Battle:
    return sc.load_battle(store, sc.BATTLE_PREFIX + slug)


# --------------------------------------------------------------------------
# The book's War Councils, parsed from the rulebook text
# --------------------------------------------------------------------------


@attrs.frozen
class PrintedSide:
    army: str
    blocks: str
    leaders: tuple[str, ...]
    cards: int
    moves_first: bool


@attrs.frozen
class PrintedBattle:
    title: str
    year: int
    sides: tuple[PrintedSide, PrintedSide]
    banners: int
    first_by_dice: bool


def _parse_side(lines: list[str]) -> PrintedSide:
    head = lines[0].lstrip("- ").strip()
    m = re.match(r"^(.*?)\s*\((.*)\)$", head)
    army, paren = (m.group(1), m.group(2).lower()) if m else (head, "")
    blocks = next((c for k, c in BLOCK_COLOURS.items() if k in paren and "not printed" not in paren), "")
    leaders: tuple[str, ...] = ()
    cards = 0
    first = False
    for ln in lines[1:]:
        t = ln.lstrip("- ").strip()
        if t.startswith("Leader"):
            names = t.split(":", 1)[1].strip()
            leaders = tuple(n.strip() for n in names.split(" and ")) if names != "Unknown" else ()
        elif m2 := re.match(r"^(\d+) Command cards?$", t):
            cards = int(m2.group(1))
        elif t in ("Moves first", "Move first"):
            first = True
    return PrintedSide(army, blocks, leaders, cards, first)


def parse_book() -> dict[str, PrintedBattle]:
    if not BOOK.exists() or not INDEX.exists():
        pytest.skip("rulebook text not available")
    text = BOOK.read_text(encoding="utf-8").splitlines()
    index = tomllib.loads(INDEX.read_text(encoding="utf-8"))["rule"]
    starts = sorted((r["line"], r["id"].removeprefix("ccr:scenario.")) for r in index if r["id"].startswith("ccr:scenario."))
    out: dict[str, PrintedBattle] = {}
    for i, (line, slug) in enumerate(starts):
        end = starts[i + 1][0] - 1 if i + 1 < len(starts) else len(text)
        block = text[line - 1 : end]
        hm = re.match(r"^(.*) \((-?\d+)\)$", block[0])
        assert hm, block[0]
        wc = block.index("War Council")
        vi = block.index("Victory")
        council = [ln for ln in block[wc + 1 : vi] if ln.startswith("- ")]
        heads = [k for k, ln in enumerate(council) if "Army" in ln or "army" in ln]
        assert len(heads) == 2, (slug, council)
        sides = (_parse_side(council[heads[0] : heads[1]]), _parse_side(council[heads[1] :]))
        vline = block[vi + 1]
        single = re.search(r"single-day battle: (\d+)", vline)
        bm = single or re.match(r"^(\d+) Victory Banners", vline)
        assert bm, vline
        dice = any("determine who moves first" in ln for ln in block[wc:vi])
        out[slug] = PrintedBattle(hm.group(1), int(hm.group(2)), sides, int(bm.group(1)), dice)
    return out


@pytest.fixture(scope="module")
def book() -> dict[str, PrintedBattle]:
    return parse_book()


# --------------------------------------------------------------------------
# Per-battle tests
# --------------------------------------------------------------------------


@pytest.mark.rule("ccr:setup")
def test_all_24_battles_listed_in_book_order(store: DataStore) -> None:
    ids = sc.list_battles(store)
    assert ids == [sc.BATTLE_PREFIX + s for s in SLUGS]
    assert [battle(store, s).number for s in SLUGS] == list(range(1, 25))


@pytest.mark.rule("ccr:units")
def test_unit_codes_match_the_books_block_counts() -> None:
    if not BOOK.exists():
        pytest.skip("rulebook text not available")
    words = {"two": 2, "three": 3, "four": 4}
    printed: dict[str, int] = {}
    for line in BOOK.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^- All (.*) units are made of (two|three|four) ", line)
        if m:
            for name in re.split(r", | and ", m.group(1)):
                printed[name.strip()] = words[m.group(2)]
    assert len(printed) >= 15
    for code, ut in sc.UNIT_TYPES.items():
        assert ut.code == code
        assert printed.get(ut.name) == ut.blocks, (code, ut.name)


@pytest.mark.rule("ccr:setup")
def test_board_has_113_hexes() -> None:
    ids = sc.board_hex_ids()
    assert len(ids) == sc.BOARD_HEX_COUNT == 113
    assert len(set(ids)) == 113
    assert "1301" in ids and "1302" not in ids and "1309" in ids and "1308" not in ids
    assert sc.is_on_board("1309") and not sc.is_on_board("1308") and not sc.is_on_board("0010")
    # Adjacency is symmetric and every hex has 2..6 neighbours.
    for h in ids:
        ns = sc.hex_neighbors(h)
        assert 2 <= len(ns) <= 6
        for n in ns:
            assert h in sc.hex_neighbors(n)
    assert sorted(sc.hex_neighbors("0505")) == ["0404", "0405", "0406", "0504", "0506", "0605"]
    assert sorted(sc.hex_neighbors("0504")) == ["0404", "0503", "0505", "0603", "0604", "0605"]


@pytest.mark.parametrize("slug", BATTLES)
def test_battle_loads_with_provenance(store: DataStore, slug: str) -> None:
    b = battle(store, slug)
    assert b.id == f"ccancients_rome.battle.{slug}"
    assert b.meta is not None and b.meta.source == "reconstructed"
    assert f"ccr:scenario.{slug}" in b.meta.rules
    note = b.meta.note
    assert "From the book" in note and "Reconstructed" in note
    assert b.meta.sources, "historical sources must be recorded"
    assert b.summary.strip()
    for _, side in b.sides():
        assert side.faction in sc.FACTIONS


@pytest.mark.parametrize("slug", BATTLES)
@pytest.mark.rule("ccr:setup", "ccr:victory", "ccr:sequence")
def test_war_council_matches_book(store: DataStore, book: dict[str, PrintedBattle], slug: str) -> None:
    b = battle(store, slug)
    p = book[slug]
    assert b.title == p.title
    assert b.year == p.year
    assert b.victory.banners == p.banners
    for key, ps in zip(("top", "bottom"), p.sides):
        side = b.side(key)  # type: ignore[arg-type]
        army = side.printed_army or side.army
        leaders = side.printed_leaders or side.leaders
        assert army == ps.army, (key, army, ps.army)
        assert tuple(leaders) == ps.leaders, (key, leaders, ps.leaders)
        assert side.command_cards == ps.cards
        assert side.blocks == ps.blocks
        if side.printed_army:
            # A correction must be explained in the note.
            assert side.printed_army in b.meta.note  # type: ignore[union-attr]
    if p.first_by_dice:
        assert b.first_player == "dice-off"
        assert b.rules_of("dice-off")
    else:
        firsts = [k for k, ps in zip(("top", "bottom"), p.sides) if ps.moves_first]
        assert firsts == [b.first_player]


@pytest.mark.parametrize("slug", BATTLES)
def test_placements_on_board_one_unit_per_hex(store: DataStore, slug: str) -> None:
    b = battle(store, slug)
    terrain = b.board.terrain_map()
    assert len(terrain) == 113 and set(terrain) == set(sc.board_hex_ids())
    assert set(terrain.values()) <= set(sc.TERRAIN)
    seen: set[str] = set()
    for key, side in b.sides():
        assert 6 <= len(side.units) <= 25, (key, len(side.units))
        for u in side.units:
            assert sc.is_on_board(u.hex)
            assert u.hex not in seen, u.hex
            assert u.unit in sc.UNIT_TYPES
            assert terrain[u.hex] != "river"
            seen.add(u.hex)
        # At least one leader block per side; named leaders all placed.
        assert side.leader_hexes
        assert {n for n in side.leaders} <= {lp.name for lp in side.leader_hexes}
        for lp in side.leader_hexes:
            assert sc.is_on_board(lp.hex)
        if side.faction == "Barbarian":
            assert not {u.unit for u in side.units} & {"HCC", "CCA", "CA", "EL"}
    # Each army starts on its own half: no unit deeper than the centre row into the enemy's half.
    assert all(int(u.hex[2:]) <= 5 for u in b.top.units) or slug in {"carrhes", "antonys-siege-train"}
    assert all(int(u.hex[2:]) >= 5 for u in b.bottom.units) or slug in {"carrhes", "antonys-siege-train"}


@pytest.mark.parametrize("slug", BATTLES)
def test_special_rules_are_consistent_with_board(store: DataStore, slug: str) -> None:
    b = battle(store, slug)
    terrain = b.board.terrain_map()
    index_ids = set()
    if INDEX.exists():
        index_ids = {r["id"] for r in tomllib.loads(INDEX.read_text(encoding="utf-8"))["rule"]}
        assert set(b.meta.rules) <= index_ids  # type: ignore[union-attr]
    for r in b.special_rules:
        assert r.kind in sc.SPECIAL_RULE_KINDS
        assert f"ccr:scenario.{slug}" in r.rules
        if index_ids:
            assert set(r.rules) <= index_ids
        if r.kind == "impassable":
            hexes = r.hexes or tuple(h for h, t in terrain.items() if t == r.terrain)
            assert hexes, "an impassable rule must name existing hexes"
            if r.terrain:
                assert all(terrain[h] == r.terrain for h in hexes)
        if r.kind == "crossing":
            assert r.hexes and all(terrain[h] in ("ford", "bridge") for h in r.hexes)
        if r.kind == "bridge":
            assert r.hexes and all(terrain[h] == "bridge" for h in r.hexes)
        if r.kind == "camp-banner":
            assert any(t == "camp" for t in terrain.values())
        if r.kind == "exit-banner":
            assert r.edge and r.sides and r.banners == 1
    # Wagons only where the book's rules put them.
    for key, side in b.sides():
        for w in side.wagons:
            assert b.has_rule(w.kind) or b.has_rule("wagon-laager-impassable")


# --------------------------------------------------------------------------
# Battle-specific rules from the book
# --------------------------------------------------------------------------

LEGIONS = {
    "tigranocerte": ("marian", ("bottom",)), "carrhes": ("marian", ("bottom",)),
    "philippi-i": ("julian", ("top", "bottom")), "philippi-ii": ("julian", ("top", "bottom")),
    "cilician-gates": ("julian", ("bottom",)), "antonys-siege-train": ("julian", ("bottom",)),
    "medway": ("julian", ("bottom",)), "boudicas-revolt-watling-street": ("julian", ("bottom",)),
    "first-bedriacum": ("julian", ("top", "bottom")), "mons-graupius": ("julian", ("bottom",)),
    "issus": ("julian", ("top", "bottom")), "lugdunum": ("julian", ("top", "bottom")),
    "nisibis": ("julian", ("top", "bottom")), "hormuz": ("", ()),
    "carthage": ("imperial", ("top", "bottom")), "abrittus": ("imperial", ("top", "bottom")),
    "edessa": ("imperial", ("bottom",)), "naissus": ("imperial", ("bottom",)),
    "placentia": ("imperial", ("bottom",)), "fano": ("imperial", ("bottom",)),
    "pavia": ("imperial", ("bottom",)), "immae": ("imperial", ("bottom",)),
    "milvian-bridge": ("imperial", ("top", "bottom")), "cibalae": ("imperial", ("top", "bottom")),
}  # fmt: skip


@pytest.mark.parametrize("slug", BATTLES)
@pytest.mark.rule("ccr:marian-legions", "ccr:julian-legions", "ccr:imperial-legions")
def test_legion_rules(store: DataStore, book: dict[str, PrintedBattle], slug: str) -> None:
    b = battle(store, slug)
    kind, sides = LEGIONS[slug]
    for key in ("top", "bottom"):
        assert b.legions(key) == (kind if key in sides else ""), key  # type: ignore[arg-type]
    # Only Roman heavy and medium infantry are legions.
    for key, side in b.sides():
        for u in side.units:
            k = b.legion_kind(key, u.unit)
            assert k in ("", kind)
            assert bool(k) == (u.unit in ("HI", "MI") and side.faction == "Roman" and key in sides)
    # The rule is printed in the battle's section of the book.
    if kind and BOOK.exists():
        assert f"The {kind.capitalize()} Legions rule applies" in _section(slug)


def _section(slug: str) -> str:
    text = BOOK.read_text(encoding="utf-8").splitlines()
    index = tomllib.loads(INDEX.read_text(encoding="utf-8"))["rule"]
    starts = sorted(r["line"] for r in index if r["id"].startswith("ccr:scenario."))
    line = next(r["line"] for r in index if r["id"] == f"ccr:scenario.{slug}")
    nxt = next((s for s in starts if s > line), len(text) + 1)
    return "\n".join(text[line - 1 : nxt - 1])


@pytest.mark.rule("ccr:scenario.tigranocerte", "ccr:scenario.antonys-siege-train", "ccr:baggage-wagon")
def test_baggage_wagons(store: DataStore) -> None:
    assert battle(store, "tigranocerte").top.wagons
    ast = battle(store, "antonys-siege-train")
    assert all(w.kind == "baggage-wagon" for w in ast.bottom.wagons) and len(ast.bottom.wagons) >= 2
    (ex,) = ast.rules_of("exit-banner")
    assert ex.sides == ("bottom",) and ex.edge == "right" and ex.units == ("baggage-wagon",)
    for slug in SLUGS:
        b = battle(store, slug)
        has = any(w.kind == "baggage-wagon" for _, s in b.sides() for w in s.wagons)
        assert has == b.has_rule("baggage-wagon"), slug


@pytest.mark.rule("ccr:scenario.naissus", "ccr:scenario.boudicas-revolt-watling-street", "ccr:wagon-laager")
def test_wagon_laagers(store: DataStore) -> None:
    n = battle(store, "naissus")
    assert n.has_rule("wagon-laager", "top") and n.top.wagons
    assert all(w.kind == "wagon-laager" for w in n.top.wagons)
    bo = battle(store, "boudicas-revolt-watling-street")
    (r,) = bo.rules_of("wagon-laager-impassable")
    laagers = [w.hex for w in bo.top.wagons if w.kind == "wagon-laager"]
    assert laagers
    occupied = {u.hex for _, s in bo.sides() for u in s.units}
    assert not set(laagers) & occupied, "impassable laager hexes hold no unit"


@pytest.mark.rule("ccr:scenario.medway", "ccr:ford", "ccr:bridge")
def test_medway_crossings_and_dice_off(store: DataStore) -> None:
    b = battle(store, "medway")
    assert b.first_player == "dice-off"
    (d,) = b.rules_of("dice-off")
    assert d.dice == 0  # dice = Command cards of each player
    (c,) = b.rules_of("crossing")
    assert c.units == ("foot",)
    terrain = b.board.terrain_map()
    assert any(terrain[h] == "ford" for h in c.hexes)
    assert b.board.hexes_of("bridge") and b.rules_of("bridge")


@pytest.mark.rule("ccr:scenario.placentia", "ccr:ford")
def test_placentia_three_fords(store: DataStore) -> None:
    b = battle(store, "placentia")
    assert len(b.board.hexes_of("ford")) == 3
    (c,) = b.rules_of("crossing")
    assert sorted(c.hexes) == b.board.hexes_of("ford")


@pytest.mark.rule("ccr:scenario.mons-graupius")
def test_mons_graupius_reserve(store: DataStore) -> None:
    b = battle(store, "mons-graupius")
    assert len(b.bottom.reserve) == 3 and b.bottom.reserve_leaders == 1
    (r,) = b.rules_of("reserve")
    assert r.sides == ("bottom",) and r.banners == 7 and r.section == "centre"
    assert set(r.cards) == {"leadership-any-section", "inspired-leadership-center"}
    assert b.victory.banners == 6
    # "The reserve force requires a fourth leader": three leaders on the board.
    assert len(b.bottom.leader_hexes) == 3


@pytest.mark.rule("ccr:scenario.edessa", "ccr:praetorian-guard")
def test_edessa_panic_and_guard(store: DataStore) -> None:
    b = battle(store, "edessa")
    (p,) = b.rules_of("panic")
    assert p.sides == ("bottom",) and p.units == ("EL",)
    assert any(u.unit == "EL" for u in b.top.units)
    assert sum("praetorian-guard" in u.flags for u in b.bottom.units) == 1


@pytest.mark.rule("ccr:praetorian-guard", "ccr:special-units")
def test_praetorian_guard_where_the_book_says(store: DataStore) -> None:
    for slug in SLUGS:
        b = battle(store, slug)
        guards = [u for _, s in b.sides() for u in s.units if "praetorian-guard" in u.flags]
        assert bool(guards) == b.has_rule("praetorian-guard"), slug
        assert len(guards) <= 1
        if BOOK.exists():
            assert b.has_rule("praetorian-guard") == ("Praetorian Guard is a special unit" in _section(slug)), slug


@pytest.mark.rule("ccr:scenario.milvian-bridge", "ccr:bridge")
def test_milvian_bridge(store: DataStore) -> None:
    b = battle(store, "milvian-bridge")
    assert len(b.board.hexes_of("bridge")) >= 1
    (d,) = b.rules_of("drown-on-retreat")
    assert d.sides == ("bottom",) or d.sides == ("top",)
    maxentius = "top" if "Maxentius" in b.top.army else "bottom"
    assert d.sides == (maxentius,)


@pytest.mark.rule("ccr:scenario.pavia", "ccr:scenario.antonys-siege-train")
def test_exit_banners(store: DataStore) -> None:
    p = battle(store, "pavia")
    (r,) = p.rules_of("exit-banner")
    assert r.sides == ("top",) and r.edge == "top" and r.full_strength
    (imp,) = p.rules_of("impassable")
    assert imp.terrain == "hill" and p.board.hexes_of("hill")


@pytest.mark.rule("ccr:scenario.philippi-i", "ccr:scenario.philippi-ii", "ccr:scenario.cibalae")
def test_impassable_hills(store: DataStore) -> None:
    p1 = battle(store, "philippi-i")
    (r,) = p1.rules_of("impassable")
    assert len(r.hexes) == 3 and all(int(h[:2]) >= 9 for h in r.hexes)  # "the three hills on the right"
    p2 = battle(store, "philippi-ii")
    (r2,) = p2.rules_of("impassable")
    assert r2.hexes and all(4 <= int(h[:2]) <= 10 for h in r2.hexes)  # "the hills in the centre"
    ci = battle(store, "cibalae")
    (r3,) = ci.rules_of("impassable")
    const = "top" if "Constantine" in ci.top.army else "bottom"
    base = "01" if const == "top" else "09"
    assert r3.hexes and all(h[2:] == base for h in r3.hexes)


@pytest.mark.rule("ccr:scenario.nisibis", "ccr:scenario.immae", "ccr:caltrops")
def test_caltrops(store: DataStore) -> None:
    for slug in ("nisibis", "immae"):
        b = battle(store, slug)
        (c,) = b.rules_of("caltrops")
        roman = "bottom" if b.bottom.faction == "Roman" else "top"
        assert c.sides == (roman,)
        assert any(u.unit in ("LI", "LB", "LS") for u in b.side(roman).units)


def test_bad_battle_reports_file_key_and_rule(tmp_path: Path) -> None:
    # A unit off the board is refused with the key path and the rule.
    b = sc.Board(terrain=sc.BoardTerrain(rows=tuple(["." * sc.row_length(r) for r in range(1, 10)])))
    side = sc.Side(army="A", faction="Roman", command_cards=5, units=(sc.UnitPlacement(hex="1308", unit="HI"),), leader_hexes=(sc.LeaderPlacement(hex="0101"),))
    bad = sc.Battle(number=1, title="T", year=1, first_player="top", victory=sc.Victory(6), top=side, bottom=side, board=b,
                    meta=__import__("ancients_kit.data", fromlist=["Meta"]).Meta(id="ccancients_rome.battle.x", source="reconstructed", rules=("ccr:scenario.x",), note="n"))  # fmt: skip
    with pytest.raises(DataError) as exc:
        sc._validate_battle(bad, "battles/x.toml")
    msg = str(exc.value)
    assert "battles/x.toml" in msg and "top.units[0].hex" in msg and "1308" in msg and "[ccr:" in msg


def test_unknown_battle_id(store: DataStore) -> None:
    with pytest.raises(DataError):
        sc.load_battle(store, "ccancients_rome.battle.zama")
    with pytest.raises(ValueError):
        sc.load_battle(store, "ccancients_rome.battle.Bad Name")


# --------------------------------------------------------------------------
# Para Bellum series
# --------------------------------------------------------------------------


@pytest.mark.rule("ccr:para-bellum", "ccr:scenario.nisibis")
def test_nisibis_series(store: DataStore) -> None:
    assert sc.list_series(store) == ["ccancients_rome.series.nisibis", "ccancients_rome.series.placentia-fano-pavia"]
    s = sc.load_series(store, "ccancients_rome.series.nisibis")
    assert [sb.battle for sb in s.battles] == ["ccancients_rome.battle.nisibis"] * 3
    assert [sb.banners for sb in s.battles] == [4, 5, 7]
    assert s.decisive_margin == 3 and s.same_sides
    assert s.rally is not None and s.rally.dice == 3 and s.rally.leaders_return
    assert set(s.rally.rally_on) == {"unit-type", "leader"}
    if BOOK.exists():
        text = _section("nisibis") + BOOK.read_text(encoding="utf-8")
        m = re.search(r"Day 1: (\d+) Victory Banners; Day 2: (\d+) Victory Banners; Day 3: (\d+)", text)
        assert m and [int(x) for x in m.groups()] == [sb.banners for sb in s.battles]
        assert re.search(r"Roll (three) dice for each block", text)


@pytest.mark.rule("ccr:para-bellum", "ccr:scenario.placentia", "ccr:scenario.fano", "ccr:scenario.pavia")
def test_placentia_fano_pavia_series(store: DataStore) -> None:
    s = sc.load_series(store, "placentia-fano-pavia")
    ids = [sb.battle for sb in s.battles]
    assert ids == [sc.BATTLE_PREFIX + x for x in ("placentia", "fano", "pavia")]
    bs = [sc.load_battle(store, i) for i in ids]
    # Same sides throughout: the Alemanni keep the top, Aurelian the bottom.
    assert {b.top.army for b in bs} == {"Alemanni Army"} and {b.bottom.army for b in bs} == {"Roman Army"}
    assert all(sb.banners == 0 for sb in s.battles)  # each battle keeps its own banners
    assert [b.victory.banners for b in bs] == [5, 6, 6]


# --------------------------------------------------------------------------
# The boards as core hex maps, and bad data refused through a variant
# --------------------------------------------------------------------------


@pytest.mark.parametrize("slug", BATTLES)
@pytest.mark.rule("ccr:base.sections")
def test_board_as_core_hexmap(store: DataStore, slug: str) -> None:
    b = battle(store, slug)
    m = b.hexmap()
    num = m.numbering
    assert len(m.terrain_of) == 113
    ours = b.board.terrain_map()
    assert {num.to_id(h): t for h, t in m.terrain_of.items()} == ours
    # Our printed-ID neighbours agree with the core's axial geometry.
    for h, adj in m.adjacency.items():
        assert sorted(num.to_id(n) for n in adj) == sorted(sc.hex_neighbors(num.to_id(h)))
    assert set(m.regions) >= {"left", "centre", "right"}
    for name, hexid in b.board.places.items():
        assert num.to_id(m.places[name]) == hexid


@pytest.mark.rule("ccr:scenario.mons-graupius", "ccr:base.sections")
def test_mons_graupius_reserve_has_room(store: DataStore) -> None:
    # The reserve enters on unoccupied hexes of the Roman baseline in the centre section.
    b = battle(store, "mons-graupius")
    m = b.hexmap()
    base_centre = {m.numbering.to_id(h) for h in m.regions["centre"]} & {sc.hex_id(c, 9) for c in range(1, 14)}
    occupied = {u.hex for _, s in b.sides() for u in s.units}
    assert len(base_centre - occupied) >= len(b.bottom.reserve)


def _variant_store(slug: str, edit) -> DataStore:  # type: ignore[no-untyped-def]
    from ancients_kit.data import Meta, Variant

    base = DataStore("ancients_games.ccancients_rome")
    doc = base.raw(f"battles/{slug}.toml")
    edit(doc)
    v = Variant(path="test-variant.toml", meta=Meta(id="t", source="variant", note="test"), replace={sc.BATTLE_PREFIX + slug: doc})
    return DataStore("ancients_games.ccancients_rome", (v,))


@pytest.mark.rule("ccr:setup")
@pytest.mark.parametrize(
    ("edit", "needle"),
    [
        (lambda d: d["top"]["units"].append({"hex": d["bottom"]["units"][0]["hex"], "unit": "WA"}), "already holds a unit"),
        (lambda d: d["top"]["units"].append({"hex": "1302", "unit": "WA"}), "off the 13 x 9 board"),
        (lambda d: d["top"]["units"].append({"hex": "0101", "unit": "XX"}), "unknown unit code"),
        (lambda d: d["board"]["terrain"]["rows"].__setitem__(0, "." * 12), "row 01 has 12 hexes"),
        (lambda d: d["board"]["terrain"]["rows"].__setitem__(0, "Q" * 13), "not in the legend"),
        (lambda d: d["board"]["terrain"]["legend"].__setitem__("Q", "lava"), "unknown terrain"),
        (lambda d: d["special_rules"].append({"kind": "teleport", "rule": "x", "rules": ["ccr:scenario.fano"]}), "unknown special rule kind"),
        (lambda d: d["top"].__setitem__("colour", "green"), "unknown key"),
        (lambda d: d["bottom"]["units"].append({"hex": "0502", "unit": "HI"}), "impassable"),
    ],
)
def test_bad_battle_data_is_refused(edit, needle: str) -> None:  # type: ignore[no-untyped-def]
    store = _variant_store("fano", edit)
    with pytest.raises(DataError) as exc:
        sc.load_battle(store, "fano")
    assert needle in str(exc.value)


@pytest.mark.rule("ccr:setup")
def test_variant_battle_is_loaded(store: DataStore) -> None:
    # A designer's variant replacing a battle is used, and marked as a variant.
    def edit(d):  # type: ignore[no-untyped-def]
        d["victory"]["banners"] = 9
        d["meta"].pop("source")  # a replacement that does not say otherwise is a "variant"

    b = sc.load_battle(_variant_store("fano", edit), "fano")
    assert b.victory.banners == 9 and b.meta is not None and b.meta.source == "variant"
    assert battle(store, "fano").victory.banners == 6
