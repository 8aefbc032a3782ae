"""The staged choice of a group (ancients_kit.choice): add, remove, done; at most N."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent / "plugins"))

from chits_game import GAME as CHITS  # noqa: E402

from ancients_kit.choice import DONE, choose_group  # noqa: E402
from ancients_kit.errors import IllegalAnswer  # noqa: E402
from ancients_kit.session import Option, Session  # noqa: E402
from ancients_kit.testing import drive  # noqa: E402

FORCE = [
    Option("phalanx-1", data="phalanx"),
    Option("phalanx-2", data="phalanx"),
    Option("phalanx-3", data="phalanx"),
    Option("cavalry", data="cavalry"),
    Option("light", data="light"),
]


def kind(o: Option) -> str:
    return str(o.data)


@pytest.mark.rule("xen:forces", "xen:stacking")
def test_interchangeable_units_make_one_option_per_kind() -> None:
    gen = choose_group("Rebels", "Form a force", FORCE, at_most=10, rule="xen:stacking", same=kind)
    asked, force = drive(gen, ["add:phalanx", "add:phalanx", "add:cavalry", "remove:phalanx", "done"])
    assert asked[0].keys == ("done", "add:phalanx", "add:cavalry", "add:light")
    assert asked[0].option("add:phalanx").label == "add phalanx (3 left)"
    assert asked[2].keys == ("done", "add:phalanx", "add:cavalry", "add:light", "remove:phalanx")
    assert asked[3].context["chosen"] == ("phalanx-1", "phalanx-2", "cavalry")
    assert force == ("phalanx-1", "cavalry")  # the last phalanx added was taken out


@pytest.mark.rule("xen:stacking")
def test_at_most_n_and_at_least_m_are_enforced_with_the_rule() -> None:
    gen = choose_group("Rebels", "Form a force", FORCE, at_least=1, at_most=2, rule="xen:stacking")
    d = next(gen)
    assert "done" not in d.keys
    with pytest.raises(IllegalAnswer, match="choose at least 1") as exc:
        d.match("done")
    assert exc.value.rule == "xen:stacking"
    d = gen.send("add:cavalry")
    d = gen.send("add:light")
    assert d.keys == ("done", "remove:cavalry", "remove:light")
    with pytest.raises(IllegalAnswer, match="at most 2 may be chosen") as exc:
        d.match("add:phalanx-1")
    assert exc.value.rule == "xen:stacking"


def test_a_group_being_reorganised_starts_from_its_members() -> None:
    gen = choose_group("Rebels", "Reorganise", FORCE, at_most=3, rule="xen:forces", chosen=["light", "cavalry"])
    _, force = drive(gen, ["remove:light", "add:phalanx-2", "done"])
    assert force == ("phalanx-2", "cavalry")


def test_bad_calls_are_refused_at_once() -> None:
    with pytest.raises(ValueError, match="at least 3 must be chosen from only 2"):
        next(choose_group("A", "x", FORCE[:2], at_least=3, at_most=3, rule="r"))
    with pytest.raises(ValueError, match="0 <= at_least"):
        next(choose_group("A", "x", FORCE, at_least=2, at_most=1, rule="r"))
    with pytest.raises(ValueError, match="repeat"):
        next(choose_group("A", "x", [Option("a"), Option("a")], at_most=1, rule="r"))
    with pytest.raises(ValueError, match="not a candidate"):
        next(choose_group("A", "x", FORCE, at_most=1, rule="r", chosen=["elephant"]))


@settings(max_examples=150, deadline=None)
@given(data=st.data(), kinds=st.lists(st.sampled_from("abc"), max_size=8), interchangeable=st.booleans())
def test_any_walk_stays_legal_and_short(data: st.DataObject, kinds: list[str], interchangeable: bool) -> None:
    candidates = [Option(f"u{i}", data=k) for i, k in enumerate(kinds)]
    at_most = data.draw(st.integers(0, len(candidates) + 1))
    at_least = data.draw(st.integers(0, min(at_most, len(candidates))))
    groups = len(set(kinds)) if interchangeable else len(kinds)
    gen = choose_group("A", "Choose", candidates, at_most=at_most, at_least=at_least, rule="r",
                       same=kind if interchangeable else None)
    try:
        d = next(gen)
    except StopIteration as stop:  # every candidate must be chosen: nothing is asked
        assert at_least == len(candidates) and list(stop.value) == [c.key for c in candidates]
        return
    for _ in range(40):
        chosen = d.context["chosen"]
        assert len(chosen) <= at_most and len(set(chosen)) == len(chosen)
        assert len(d.options) <= 1 + 2 * groups
        assert (DONE in d.keys) == (len(chosen) >= at_least)
        assert any(k.startswith("add:") for k in d.keys) == (len(chosen) < min(at_most, len(candidates)))
        key = data.draw(st.sampled_from(d.keys))
        try:
            d = gen.send(key)
        except StopIteration as stop:
            result = stop.value
            assert key == DONE and at_least <= len(result) <= at_most
            assert list(result) == [c.key for c in candidates if c.key in result]
            return
    gen.close()


@settings(max_examples=100, deadline=None)
@given(data=st.data(), n=st.integers(0, 8))
def test_every_subset_of_at_most_n_is_reachable(data: st.DataObject, n: int) -> None:
    candidates = [Option(f"u{i}") for i in range(n)]
    at_most = data.draw(st.integers(0, n))
    target = data.draw(st.lists(st.sampled_from([c.key for c in candidates]), unique=True, max_size=at_most)
                       if n else st.just([]))
    # with nobody to choose there is no question: the empty group is a forced answer
    _, result = drive(choose_group("A", "Choose", candidates, at_most=at_most, rule="r"),
                      [f"add:{k}" for k in target] + (["done"] if candidates else []))
    assert set(result) == set(target)


@pytest.mark.rule("xen:opt.reaction", "xen:treasury")
def test_a_reacting_force_is_limited_by_the_secret_silver_through_the_session() -> None:
    s = Session(CHITS, "standard", seed=4, options={"goths_chits": "forced-march", "goths_silver": 0})
    s.answer("march")  # a forced march, but no silver to pay a force: the Goths are not asked
    assert s.decision.side == "Goths" and s.decision.kind == "action"
    with pytest.raises(IllegalAnswer):
        s.answer("forced-march")
    s.answer("march")  # the Goths march and earn 1 silver (the Romans hold nothing to react with)
    s.answer("march")
    assert "forced-march" in s.decision.keys
    s.answer("forced-march")
    assert s.decision.side == "Goths" and s.decision.kind == "force"
    s.answer("add:phalanx")
    with pytest.raises(IllegalAnswer, match="at most 1 may be chosen"):
        s.answer("add:cavalry")
    s.answer("done")
    assert s.state.marches["Goths"] == 2 and s.state.silver["Goths"].value == 0
    assert s.log.lines("Romans")[-1] == "Goths play a forced march and react with phalanx-1 (2)  [xen:opt.reaction, xen:forces]"
