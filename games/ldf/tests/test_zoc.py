"""Zones of control of Lest Darkness Fall (ldf:11.x) on the real map (games/ldf/data)."""

from __future__ import annotations

import pytest

from ancients_kit.data import DataStore
from ancients_games.ldf import model
from ancients_games.ldf.zoc import Position, Unit, ezoc, hostile, in_ezoc, land_links, projects_zoc, zoc_of

STORE = DataStore(model.PACKAGE)
M = model.load_map(STORE)
PIECES = model.load_counters(STORE).pieces


def pos(*units: tuple[str, str, str, str], **facts) -> Position:
    """A position from (id, piece, hex id, camp) tuples."""
    return Position(tuple(Unit(i, p, M.from_id(h), c) for i, p, h, c in units), PIECES, **facts)


def ids(hexes) -> set[str]:
    return {M.to_id(h) for h in hexes}


@pytest.mark.rule("ldf:11.1")
def test_a_vexillation_controls_its_six_land_neighbours() -> None:
    p = pos(("v1", "infantry-vexillation", "3615", "loyal"))
    assert ids(zoc_of(M, p, p.unit("v1"))) == {"3514", "3515", "3614", "3616", "3714", "3715"}


@pytest.mark.rule("ldf:11.1", "ldf:2.6")
def test_leaders_and_garrisons_exert_no_zoc_but_do_not_cancel_others() -> None:
    p = pos(("e", "emperor", "3318", "loyal"), ("g", "roman-garrison", "3318", "loyal"),
            ("c", "client-garrison", "4717", "client"), ("pg", "parthian-garrison", "5020", "parthian"))
    for u in p.units:
        assert not projects_zoc(p, u)
        assert zoc_of(M, p, u) == frozenset()
    assert ezoc(M, p, "german") == frozenset()
    # A vexillation stacked with them projects its ZOC as usual.
    p2 = pos(("e", "emperor", "3318", "loyal"), ("g", "roman-garrison", "3318", "loyal"),
             ("v", "infantry-vexillation", "3318", "loyal"))
    assert ids(ezoc(M, p2, "german")) == {"3218", "3219", "3317", "3418"}


@pytest.mark.rule("ldf:11.1", "ldf:2.4")
def test_legion_bases_exert_zoc() -> None:
    p = pos(("b", "legion-base", "3816", "loyal"))
    assert ids(zoc_of(M, p, p.unit("b"))) == {"3715", "3716", "3815", "3817", "3915", "3916"}


@pytest.mark.rule("ldf:11.1")
def test_no_zoc_into_sea_hexes_or_across_all_sea_hexsides() -> None:
    # Aquileia 3316: 3317 lies across an all-sea hexside (the head of the Adriatic).
    assert M.has_feature(M.from_id("3316"), M.from_id("3317"), "sea")
    p = pos(("v", "infantry-vexillation", "3316", "loyal"))
    z = ids(zoc_of(M, p, p.unit("v")))
    assert "3317" not in z and z == {"3216", "3217", "3315", "3416", "3417"}
    # 4018 on the Propontis: 4117 and 4118 are sea hexes.
    p = pos(("v", "infantry-vexillation", "4018", "loyal"))
    assert ids(zoc_of(M, p, p.unit("v"))) == {"3917", "3918", "4017", "4019"}


@pytest.mark.rule("ldf:11.1", "ldf:11.5")
def test_german_zoc_never_crosses_the_rhine_or_danube_either_way() -> None:
    """11.1 names "but one exception": Germanic ZOC across a Rhine or Danube hexside. The
    legion's ZOC crosses and pins the tribe; 11.5's reciprocity holds "provided" the stack
    projects, "see 11.1" (second reading, issue 23)."""
    # A tribe in 3214 (Barbaria) across the Rhine from Trier 3114.
    p = pos(("t", "german-tribe", "3214", "german"), ("v", "infantry-vexillation", "3114", "loyal"))
    assert "3114" not in ids(zoc_of(M, p, p.unit("t")))
    assert not in_ezoc(M, p, M.from_id("3114"), "loyal")
    # The legion pins the tribe across the river: only Germanic ZOC stops at it.
    assert in_ezoc(M, p, M.from_id("3214"), "german")
    assert M.from_id("3214") in ezoc(M, p, "german")
    # The legion's ZOC reaches 3214 and binds a non-German enemy there too (a rebel).
    assert "3214" in ids(zoc_of(M, p, p.unit("v")))
    assert in_ezoc(M, p, M.from_id("3214"), "rebel")
    # Not across the river (3114-3115), the legion pins a tribe as usual, and the tribe it.
    p = pos(("t", "german-tribe", "3115", "german"), ("v", "infantry-vexillation", "3114", "loyal"))
    assert in_ezoc(M, p, M.from_id("3115"), "german") and in_ezoc(M, p, M.from_id("3114"), "loyal")
    # A tribe that has crossed into the core (3817) does not project back over the Danube into Dacia.
    p = pos(("t", "german-tribe", "3817", "german"))
    z = ids(zoc_of(M, p, p.unit("t")))
    assert "3816" not in z and "3716" not in z and "3916" not in z
    assert z == {"3717", "3818", "3917"}


@pytest.mark.rule("ldf:11.1", "ldf:9.5")
def test_gallic_zoc_only_inside_gallic_territory() -> None:
    # 3315 is the Gallic corner hex; 3416 and 3316 (Italy) lie outside the Gallic Empire.
    p = pos(("g", "infantry-vexillation", "3315", "gallic"), gallic_active=True)
    z = ids(zoc_of(M, p, p.unit("g")))
    assert z == {"3216"}
    # A loyal vexillation in 3315's place would control all six.
    p = pos(("v", "infantry-vexillation", "3315", "loyal"))
    assert len(zoc_of(M, p, p.unit("v"))) == 6


@pytest.mark.rule("ldf:11.1", "ldf:9.2", "ldf:9.3", "ldf:9.4")
def test_inactive_palmyra_exerts_no_zoc_active_palmyra_does() -> None:
    units = [(f"p{i}", "palmyran-legion", "4720", "palmyran") for i in range(8)]
    assert ezoc(M, pos(*units), "parthian") == frozenset()
    allied = pos(*units, palmyra="roman")
    assert ids(ezoc(M, allied, "parthian")) == {"4620", "4621", "4719", "4721", "4820", "4821"}
    assert ezoc(M, allied, "loyal") == frozenset()
    won = pos(*units, palmyra="germano-parthian")
    assert ezoc(M, won, "parthian") == frozenset()
    assert len(ezoc(M, won, "loyal")) == 6


@pytest.mark.rule("ldf:11.2")
def test_zoc_is_not_negated_by_units_in_the_hex_it_reaches() -> None:
    # A tribe inside the core (3416): its ZOC reaches hexes full of Romans.
    p = pos(("t", "german-tribe", "3416", "german"), ("v", "infantry-vexillation", "3316", "loyal"),
            ("w", "infantry-vexillation", "3316", "loyal"), ("x", "infantry-vexillation", "3417", "loyal"))
    assert in_ezoc(M, p, M.from_id("3316"), "loyal")
    assert in_ezoc(M, p, M.from_id("3417"), "loyal")


@pytest.mark.rule("ldf:11.5")
def test_zoc_reciprocity() -> None:
    # Two forces that both project: each is in the other's ZOC.
    p = pos(("t", "german-tribe", "3416", "german"), ("v", "infantry-vexillation", "3316", "loyal"))
    assert in_ezoc(M, p, M.from_id("3316"), "loyal") and in_ezoc(M, p, M.from_id("3416"), "german")
    # A stack without ZOC units is in the EZOC, but the enemy is not in its ZOC (11.5 proviso).
    p = pos(("t", "german-tribe", "3416", "german"), ("g", "roman-garrison", "3316", "loyal"),
            ("e", "emperor", "3316", "loyal"))
    assert in_ezoc(M, p, M.from_id("3316"), "loyal")
    assert not in_ezoc(M, p, M.from_id("3416"), "german")


@pytest.mark.rule("ldf:11.4", "ldf:1.2")
def test_rebels_and_germano_parthian_units_pin_each_other() -> None:
    assert hostile("rebel", "german") and hostile("german", "rebel")
    assert hostile("gallic", "parthian")
    assert hostile("rebel", "palmyran", "germano-parthian")
    assert not hostile("german", "parthian") and not hostile("rebel", "gallic")
    assert hostile("loyal", "rebel") and hostile("loyal", "german") and not hostile("loyal", "client")
    assert not hostile("loyal", "palmyran", "roman") and hostile("loyal", "palmyran", "germano-parthian")
    p = pos(("t", "german-tribe", "3416", "german"), ("r", "infantry-vexillation", "3316", "rebel"))
    assert in_ezoc(M, p, M.from_id("3316"), "rebel") and in_ezoc(M, p, M.from_id("3416"), "german")


@pytest.mark.rule("ldf:11.1", "ldf:12.5")
def test_narrows_hexsides_carry_zoc() -> None:
    # The Hellespont 4019 is bridged: a ZOC reaches it from Thrace and from Asia.
    links = ids(land_links(M)[M.from_id("4019")])
    assert links == {"3918", "4018", "4020", "4119"}
    p = pos(("v", "infantry-vexillation", "4020", "loyal"))
    assert "4019" in ids(zoc_of(M, p, p.unit("v")))
