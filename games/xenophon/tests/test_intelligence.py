"""Intelligence and fog of war (xen:intelligence): what each side sees, on the real game."""

from __future__ import annotations

from collections import Counter

import pytest

from ancients_kit.chance import Rng
from ancients_kit.session import Decision, Session
from ancients_kit.testing import DecliningBot
from ancients_kit.windows import seen_by
from ancients_games.xenophon import GAME
from ancients_games.xenophon import intelligence as intel
from ancients_games.xenophon.diplomacy import BIDDING_CHITS
from ancients_games.xenophon.state import EMPIRE, REBEL
from ancients_games.xenophon.tests.politics_helpers import deal, texts, world


@pytest.mark.rule("xen:intelligence", "xen:treasury")
def test_view_hides_the_opponent_s_treasury_and_chits_unless_open() -> None:
    ctx, state = world()
    deal(state, EMPIRE, "Great King", "Agent")
    v = intel.view_for(state, REBEL)
    assert v.treasury == 10 and v.opponent_treasury is None and v.opponent_hand_size == 2
    assert "Great King" not in repr(v) and v.seen_chits is None
    assert len(v.units) == len(list(state.on_map()))  # forces are open
    assert intel.view_for(state, EMPIRE).hand == ("Agent", "Great King")
    ctx, state = world(open_treasury=True)
    v = intel.view_for(state, REBEL)
    assert v.opponent_treasury == 40 and v.open_treasury
    assert v.opponent_hand_size == len(state.hands[EMPIRE]) and not hasattr(v, "opponent_hand")


@pytest.mark.rule("xen:intelligence")
def test_a_reveal_is_remembered_as_a_snapshot() -> None:
    ctx, state = world()
    deal(state, EMPIRE, "Agent")
    intel.reveal(ctx, state, EMPIRE, REBEL, ("chits", "treasury"), ("xen:intelligence",), "D1")
    v = intel.view_for(state, REBEL)
    assert v.seen_chits.chits == ("Agent",) and v.seen_treasury.treasury == 40
    state.treasury[EMPIRE].spend(ctx, 5, "test")
    assert intel.view_for(state, REBEL).seen_treasury.treasury == 40  # what was seen, not the live value
    assert "rebel sees empire's chits (D1): Agent" in texts(ctx, REBEL)
    assert "rebel sees empire's chits (D1)" in texts(ctx, EMPIRE) and ": Agent" not in texts(ctx, EMPIRE)
    with pytest.raises(ValueError, match="xen:intelligence"):
        intel.reveal(ctx, state, EMPIRE, REBEL, ("units",), (), "x")


@pytest.mark.rule("xen:intelligence")
def test_unseen_chits_and_a_sampled_hand_depend_only_on_what_is_seen() -> None:
    ctx, state = world()
    deal(state, REBEL, "Agent", "Agent", "King's Eye")
    unseen = intel.unseen_chits(state, REBEL)
    assert sum(unseen.values()) == 37 and unseen["Agent"] == 10 and "King's Eye" not in unseen
    n = len(state.hands[EMPIRE])
    a = intel.sample_hand(state, REBEL, Rng(5))
    assert len(a) == n and not Counter(a) - unseen
    # swapping the Empire's real hand for other unseen chits changes nothing the Rebel samples
    other = state.copy()
    deal(other, EMPIRE, "Treachery", "Bribery")
    assert intel.sample_hand(other, REBEL, Rng(5)) == a
    # a look this player-turn is used as it is
    intel.reveal(ctx, state, EMPIRE, REBEL, ("chits",), ("xen:intelligence",), "King's Eye")
    assert intel.sample_hand(state, REBEL, Rng(5)) == tuple(sorted(state.hands[EMPIRE].cards))


class _Attempts(DecliningBot):
    """Makes one Diplomacy attempt (the first satrapy offered), declines every window."""

    def __init__(self) -> None:
        super().__init__()
        self.done = False

    def choose(self, session: Session, decision: Decision) -> str:
        if decision.kind == "diplomacy.satrapy":
            if self.done or len(decision.options) == 1:
                return "done"
            self.done = True
            return decision.options[1].key
        if decision.kind == "diplomacy.result" and "control" in decision.keys:
            return "control"
        if decision.kind.startswith("stratagem.") or decision.kind.startswith("negotiations."):
            return decision.options[0].key
        return super().choose(session, decision)


def _rebel_view(pick: int, seed: int = 3) -> tuple[object, ...]:
    """All the Rebel sees of his first Stratagem and Diplomacy phases, the Empire dealt two
    chits of the pool: bidding chits it could play against the Rebel's attempt (``pick`` 0)
    or two others (1)."""
    s = Session(GAME, "cyrus-revolt", seed=seed)
    while s.decision is not None and s.decision.kind.startswith("setup."):
        s.answer(s.decision.options[0].key)
    deal(s.state, REBEL, "Agent", "Agent")
    kinds = sorted(set(map(str, s.state.pool.contents)) - {"Agent"})
    bidding = [k for k in kinds if k in BIDDING_CHITS]
    deal(s.state, EMPIRE, *(bidding[:2] if pick == 0 else [k for k in kinds if k not in BIDDING_CHITS][:2]))
    rebel = _Attempts()  # one Diplomacy attempt, then done; never plays at a window
    empire = DecliningBot()  # never plays at a window: its answers cannot depend on its hand
    seen: list[object] = []
    while s.decision is not None and s.state.player_turn == REBEL and s.state.phase in ("events", "stratagem", "diplomacy"):
        d = s.decision
        seen.append(seen_by(d, REBEL))
        bot = rebel if d.side == REBEL else empire
        s.answer(bot.choose(s, d))
    # what a D1 shows the Rebel of the Empire's hand he may see: those lines alone are left out
    lines = tuple(e.line(REBEL) for e in s.log
                  if not (e.kind == "secret" and e.private_to == REBEL and e.data.get("owner") == EMPIRE))
    return tuple(seen), lines


@pytest.mark.rule("xen:intelligence", "xen:stratagem", "xen:diplomacy")
def test_the_rebel_sees_the_same_game_whatever_the_empire_holds() -> None:
    # Who is asked (ancients_kit.windows): the Empire's hand changes nothing the Rebel is asked
    # or reads; the one thing he sees is that the Empire, holding a bidding chit, is asked.
    a = _rebel_view(0)
    b = _rebel_view(1)
    assert a[1] == b[1]
    assert [q for q in a[0] if q[0] == REBEL] == [q for q in b[0] if q[0] == REBEL]
    kinds = [q[1] for q in a[0]]
    assert "window.negotiations" in kinds
    assert ("empire", "window.diplomacy", "xen:diplomacy") in a[0]  # asked, and the Rebel sees no more of it
    assert ("empire", "window.diplomacy", "xen:diplomacy") not in b[0]  # nothing to bid with: not asked
