"""A per-side secret number (ancients_kit.secret): seen only by its owner in the
log, the questions and the renders, unless the open-information option is on."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent / "plugins"))

from chits_game import GAME as CHITS  # noqa: E402

from ancients_kit.data import DataStore  # noqa: E402
from ancients_kit.errors import IllegalAnswer  # noqa: E402
from ancients_kit.log import Log  # noqa: E402
from ancients_kit.secret import SecretNumber  # noqa: E402
from ancients_kit.session import Context, Session  # noqa: E402
from ancients_kit.testing import DecliningBot, public_view  # noqa: E402


def _ctx() -> tuple[Context, Log]:
    log = Log()
    return Context(DataStore("chits_game"), {}, 1, log), log


@pytest.mark.rule("xen:treasury")
def test_changes_are_private_to_the_owner() -> None:
    ctx, log = _ctx()
    t = SecretNumber("Rebels", 40, name="treasury", rule="xen:treasury")
    t.gain(ctx, 9, "income", "xen:treasury")
    t.spend(ctx, 2, "buy a chit", "xen:stratagem", public_text="Rebels buy a chit")
    assert t.value == 47
    assert log.lines("Rebels") == [
        "Rebels: treasury 40 + 9 = 49 (income)  [xen:treasury]",
        "Rebels: treasury 49 - 2 = 47 (buy a chit)  [xen:stratagem]",
    ]
    assert log.lines("Empire") == [
        "Rebels: treasury changes (income)  [xen:treasury]",
        "Rebels buy a chit  [xen:stratagem]",
    ]
    assert [e.to_json("Empire").get("data") for e in log] == [None, None]
    assert (t.visible_to("Empire"), t.visible_to("Rebels"), t.visible_to(None)) == (None, 47, 47)
    assert t.shown_to("Empire") == "?" and t.shown_to("Rebels") == "47"


@pytest.mark.rule("xen:treasury")
def test_spending_more_than_is_held_is_refused_with_the_rule() -> None:
    ctx, log = _ctx()
    t = SecretNumber("Rebels", 3, rule="xen:treasury")
    assert t.can_pay(3) and not t.can_pay(4)
    with pytest.raises(IllegalAnswer, match=r"holds 3, not the 5 needed to recruit \[xen:treasury\]"):
        t.spend(ctx, 5, "recruit")
    assert t.value == 3 and len(log) == 0
    with pytest.raises(ValueError, match="negative"):
        t.gain(ctx, -1, "x")
    with pytest.raises(ValueError, match="whole number"):
        SecretNumber("Rebels", -2)


@pytest.mark.rule("xen:intelligence")
def test_open_option_and_reveal() -> None:
    ctx, log = _ctx()
    shown = SecretNumber("Empire", 10, open=True)
    shown.gain(ctx, 2, "income")
    assert log.lines("Rebels")[-1] == "Empire: treasury 10 + 2 = 12 (income)"
    assert shown.visible_to("Rebels") == 12
    hidden = SecretNumber("Empire", 10)
    hidden.reveal(ctx, "Rebels", "xen:intelligence", reason="King's Eye")
    assert log.lines("Rebels")[-1] == "Rebels sees Empire: treasury 10 (King's Eye)  [xen:intelligence]"
    assert log.lines("Empire")[-1] == "Rebels sees Empire: treasury (King's Eye)  [xen:intelligence]"


@pytest.mark.rule("xen:treasury", "xen:intelligence")
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), silver=st.integers(0, 30), other=st.integers(0, 30))
def test_the_romans_see_nothing_of_the_goths_silver_unless_it_is_open(seed: int, silver: int, other: int) -> None:
    class First:
        """Answers the first option: its answers do not depend on how many questions came before
        (a random bot's stream does, and the Goths are asked at a reaction only when their silver
        pays for one, ancients_kit.windows)."""

        def choose(self, session: Session, decision: object) -> str:
            return session.decision.options[0].key  # type: ignore[union-attr]

    def view(goths_silver: int, is_open: bool) -> tuple[object, ...]:
        s = Session(CHITS, "standard", seed=seed, options={"goths_silver": goths_silver, "open_treasury": is_open})
        return public_view(s, "Romans", {"Romans": First(), "Goths": DecliningBot(base=First())})

    hidden = view(silver, False), view(other, False)
    assert hidden[0][1:] == hidden[1][1:]  # the same log and the same map
    assert [q for q in hidden[0][0] if q[0] == "Romans"] == [q for q in hidden[1][0] if q[0] == "Romans"]
    if silver != other:
        opened = view(silver, True), view(other, True)
        assert opened[0] != opened[1]
        assert f"Goths: 0 marches; silver {silver}" in CHITS.render(
            Session(CHITS, "standard", seed=seed, options={"goths_silver": silver, "open_treasury": True}).state,
            "Romans",
        )

