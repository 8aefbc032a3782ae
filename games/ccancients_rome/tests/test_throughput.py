"""Throughput work leaves every game's log as it was (issue 11 item 5).

``session.log.digest()[:16]`` of seeded random self-play through the Session (as
``ancients simulate`` plays), recorded on the code before the throughput changes
(main at 4f2d723): the caches added for speed must not change a single event. Plus the
battle-loading cache: a store without variants reuses the checked packaged battle and
leaves the same provenance records; a store with variants never does.
"""

from __future__ import annotations

import pytest

from ancients_kit.bots import RandomBot, play_out
from ancients_kit.data import DataStore
from ancients_kit.session import Session

from ancients_games.ccancients_rome import GAME
from ancients_games.ccancients_rome import scenario as sc_mod

# scenario -> digests of seeds 1..6, random vs random, recorded at 4f2d723 before any change
RECORDED: dict[str, list[str]] = {
    "first-bedriacum": [
        "422d86d373df1b25", "947aed1e246194d3", "0766d0512c804409",
        "a8a51d6dc3bd3227", "8845787df5ba196e", "d468b4ed780ff607",
    ],
    "tigranocerte": [
        "c146fb2481be24dc", "3fdbbfb77fa05b79", "55ecf2650f94898e",
        "c996bd7ec620fe7e", "8e36a517e95533e6", "dd00c78f39860240",
    ],
    "edessa": [
        "9a4c5afb59508ee4", "70a56c15bf3c6116", "586d1fec49c90110",
        "c23f1a9618b3f0b7", "2596bdc136fc049b", "543a0433ed700b40",
    ],
    "milvian-bridge": [
        "a2af60bc5b697af5", "d0c6043b55124f1c", "877fe1f6f7475d6a",
        "e425641b3d5f3aac", "45640d8d6a34a2c1", "814fe148b6f9dcea",
    ],
    "carrhes": [
        "2b130d0031f5a859", "88438a03deb6c458", "b4a58cd18572585c",
        "f9c5337d784ca649", "6d90c322f3b3b89e", "dbb917a0eddd32bc",
    ],
    "naissus": [
        "66128e295d82e77e", "55f11b48517e3da3", "593567f89eec9c70",
        "a031c4d8b098c702", "8cd9d8f883c2792d", "e0f4cc66f6289a94",
    ],
}


def _digest(scenario: str, seed: int) -> str:
    s = Session(GAME, scenario, seed=seed)
    assert play_out(s, RandomBot(), max_decisions=50_000) is not None
    return s.log.digest()[:16]


@pytest.mark.rule("ccr:sequence", "ccr:base.movement", "ccr:base.close-combat", "ccr:base.ranged")
@pytest.mark.parametrize("scenario", sorted(RECORDED))
def test_random_battle_logs_unchanged(scenario):
    assert [_digest(scenario, seed) for seed in range(1, 7)] == RECORDED[scenario]


@pytest.mark.rule("ccr:setup")
def test_packaged_battles_shared_by_plain_stores_only():
    a, b = DataStore(GAME.package), DataStore(GAME.package)
    ids = sc_mod.list_battles(a)
    assert sc_mod.list_battles(b) == ids
    assert list(a.loaded) == list(b.loaded)  # the same provenance, in the same order
    assert sc_mod.load_battle(a, ids[0]) is sc_mod.load_battle(b, ids[0])
    sc_mod._PACKAGED.clear()
    sc_mod._LISTED.clear()
    c = DataStore(GAME.package)
    assert sc_mod.list_battles(c) == ids and list(c.loaded) == list(a.loaded)
    assert sc_mod.load_battle(c, ids[0]) == sc_mod.load_battle(a, ids[0])


@pytest.mark.rule("ccr:setup")
def test_a_variant_store_loads_its_own_battle(tmp_path):
    from ancients_kit.data import Meta, Variant

    base = DataStore(GAME.package)
    plain = sc_mod.load_battle(base, "tigranocerte")
    raw = base.raw("battles/tigranocerte.toml")
    raw["title"] = "Tigranocerta (variant)"
    v = Variant(path=str(tmp_path / "v.toml"), meta=Meta(id="t", source="variant", note="test"),
                replace={sc_mod.BATTLE_PREFIX + "tigranocerte": raw})
    got = sc_mod.load_battle(DataStore(GAME.package, (v,)), "tigranocerte")
    assert got.title == "Tigranocerta (variant)"
    assert sc_mod.load_battle(DataStore(GAME.package), "tigranocerte").title == plain.title


@pytest.mark.rule("ccr:units")
def test_unit_and_army_copies_carry_every_slot():
    # the copies name their slots one by one (issue 11 item 5): a slot added later and not
    # copied would be lost at every checkpoint, so each slot gets a value of its own here
    from ancients_games.ccancients_rome.state import Army, Unit

    for cls, make in ((Unit, lambda: Unit(1, "rome", "HI", "0101", 4)),
                      (Army, lambda: Army("top", "rome", "Rome", 5, 6))):
        obj = make()
        for i, name in enumerate(cls.__slots__):
            if name != "hand":
                setattr(obj, name, [f"{name}-{i}"] if name in ("lost", "reserve") else f"{name}-{i}")
        twin = obj.copy()
        for name in cls.__slots__:
            if name == "hand":
                assert twin.hand is not obj.hand and twin.hand == obj.hand
            else:
                assert getattr(twin, name) == getattr(obj, name), name
