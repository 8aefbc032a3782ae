"""Stacking in Lest Darkness Fall (ldf:10.x) with the real counter mix (games/ldf/data)."""

from __future__ import annotations

import pytest

from ancients_kit.data import DataStore
from ancients_games.ldf import model, stacking
from ancients_games.ldf.zoc import Position, Unit

STORE = DataStore(model.PACKAGE)
M = model.load_map(STORE)
PIECES = model.load_counters(STORE).pieces
H = M.from_id("3515")


def units(spec: dict[str, int], camp: str = "loyal") -> list[Unit]:
    out = []
    for piece, n in spec.items():
        out += [Unit(f"{piece}-{camp}-{i}", piece, H, camp) for i in range(n)]
    return out


def rules_broken(us: list[Unit], **facts) -> set[str]:
    p = Position(tuple(us), PIECES, **facts)
    return {r for _, r in stacking.problems(p, us)}


@pytest.mark.rule("ldf:10.2")
def test_one_german_tribe_per_hex() -> None:
    assert rules_broken(units({"german-tribe": 1}, "german")) == set()
    assert rules_broken(units({"german-tribe": 2}, "german")) == {"ldf:10.2"}


@pytest.mark.rule("ldf:10.3")
def test_parthians_one_garrison_and_eight_gunds() -> None:
    assert rules_broken(units({"parthian-garrison": 1, "parthian-gund": 8}, "parthian")) == set()
    assert rules_broken(units({"parthian-gund": 9}, "parthian")) == {"ldf:10.3"}
    assert rules_broken(units({"parthian-garrison": 2}, "parthian")) == {"ldf:10.3"}


@pytest.mark.rule("ldf:10.3", "ldf:10.2")
def test_germans_and_parthians_may_share_a_hex_within_their_own_limits() -> None:
    assert rules_broken(units({"german-tribe": 1}, "german") + units({"parthian-gund": 8}, "parthian")) == set()


@pytest.mark.rule("ldf:10.4", "ldf:9.3", "ldf:9.4")
def test_palmyrans_stack_only_with_palmyrans() -> None:
    palm = units({"client-garrison": 1, "palmyran-legion": 8}, "palmyran")
    assert rules_broken(palm, palmyra="roman") == set()
    assert rules_broken(units({"palmyran-legion": 9}, "palmyran"), palmyra="roman") == {"ldf:10.4"}
    assert rules_broken(palm + units({"infantry-vexillation": 1}), palmyra="roman") == {"ldf:10.4"}
    assert "ldf:10.4" in rules_broken(palm + units({"parthian-gund": 1}, "parthian"), palmyra="germano-parthian")


@pytest.mark.rule("ldf:10.1", "ldf:10.5")
def test_enemies_and_loyal_with_rebel_never_stack() -> None:
    assert rules_broken(units({"infantry-vexillation": 1}) + units({"infantry-vexillation": 1}, "rebel")) == {"ldf:10.5"}
    assert rules_broken(units({"infantry-vexillation": 1}) + units({"german-tribe": 1}, "german")) == {"ldf:10.1"}
    # ldf:11.4: rebels and the other Germano-Parthian units are enemies too.
    assert rules_broken(units({"infantry-vexillation": 1}, "rebel") + units({"german-tribe": 1}, "german")) == {"ldf:10.1"}


@pytest.mark.rule("ldf:10.6")
def test_roman_static_units_one_garrison_two_bases() -> None:
    assert rules_broken(units({"roman-garrison": 1, "legion-base": 2, "infantry-vexillation": 2})) == set()
    assert rules_broken(units({"legion-base": 3})) == {"ldf:10.6"}
    assert rules_broken(units({"roman-garrison": 2})) == {"ldf:10.6"}
    # A Caucasus garrison is a garrison/fortification counter too.
    assert rules_broken(units({"client-garrison": 1}, "client") + units({"roman-garrison": 1})) == {"ldf:10.6"}
    assert rules_broken(units({"client-garrison": 1}, "client") + units({"infantry-vexillation": 2})) == set()


@pytest.mark.rule("ldf:10.7")
def test_two_vexillations_without_a_leader_eight_with_one() -> None:
    full_static = {"roman-garrison": 1, "legion-base": 2}
    assert rules_broken(units({**full_static, "infantry-vexillation": 2})) == set()
    assert rules_broken(units({"infantry-vexillation": 3})) == {"ldf:10.7"}
    assert rules_broken(units({**full_static, "emperor": 1, "infantry-vexillation": 8})) == set()
    assert rules_broken(units({"co-emperor": 1, "infantry-vexillation": 9})) == {"ldf:10.7"}
    # Rebels follow the same limits with their co-emperor.
    assert rules_broken(units({"co-emperor": 1, "infantry-vexillation": 8}, "rebel")) == set()
    # Gallic Empire forces are leaderless (9.5): two at most.
    assert rules_broken(units({"infantry-vexillation": 3}, "gallic")) == {"ldf:10.7"}


@pytest.mark.rule("ldf:10.8")
def test_cavalry_before_and_after_the_central_reserve() -> None:
    # Before: one cavalry per hex, added freely to a full stack.
    assert rules_broken(units({"infantry-vexillation": 2, "cavalry-vexillation": 1})) == set()
    assert rules_broken(units({"cavalry-vexillation": 2})) == {"ldf:10.8"}
    # After: cavalry counts as a vexillation, two without a leader, eight with.
    assert rules_broken(units({"infantry-vexillation": 2, "cavalry-vexillation": 1}), cavalry_reserve=True) == {"ldf:10.8"}
    assert rules_broken(units({"cavalry-vexillation": 2}), cavalry_reserve=True) == set()
    assert rules_broken(units({"emperor": 1, "infantry-vexillation": 5, "cavalry-vexillation": 3}),
                        cavalry_reserve=True) == set()


@pytest.mark.rule("ldf:8.3")
def test_the_two_leaders_never_share_a_hex() -> None:
    assert rules_broken(units({"emperor": 1, "co-emperor": 1, "infantry-vexillation": 1})) == {"ldf:8.3"}


@pytest.mark.rule("ldf:10.7", "ldf:10.8")
def test_excess_once_the_leader_is_gone() -> None:
    us = units({"infantry-vexillation": 6, "cavalry-vexillation": 1})
    p = Position(tuple(us), PIECES)
    assert [u.id for u in stacking.excess(p, H)] == [f"infantry-vexillation-loyal-{i}" for i in range(2, 6)]
    p = Position(tuple(us), PIECES, cavalry_reserve=True)
    assert len(stacking.excess(p, H)) == 5
    p = Position(tuple(us + units({"emperor": 1})), PIECES)
    assert stacking.excess(p, H) == []
