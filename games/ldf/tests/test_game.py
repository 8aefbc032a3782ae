"""The LDF campaign: set-up, the turn sequence, the action loop, passing, concession, victory."""

from __future__ import annotations

from typing import Any

import pytest

from ancients_kit.bots import make_bot, play_out
from ancients_kit.session import Session
from ancients_games.ldf import GAME
from ancients_games.ldf.state import GP, ROMAN, ROME


def new(seed: int = 1, **options: object) -> Session:
    return Session(GAME, "campaign", seed=seed, options=options)


def deployed(seed: int = 1, **options: object) -> Session:
    """A campaign past the Germano-Parthian set-up choices (first options each time)."""
    s = new(seed, **options)
    while s.decision is not None and s.decision.kind.startswith("setup."):
        s.answer(s.decision.options[0].key)
    return s


@pytest.mark.rule("ldf:3.2", "ldf:3.5", "ldf:3.1")
def test_campaign_starts_with_the_roman_set_up() -> None:
    s = new()
    st = s.state
    assert st.turn == 1 and st.treasury == 5
    kinds = [u.kind for u in st.units_at(ROME)]
    assert kinds.count("emperor") == 1 and kinds.count("cavalry-vexillation") == 1
    assert len(st.of_kind("legion-base")) == 33 == len(st.of_kind("infantry-vexillation"))
    assert len(st.pool) == 26  # 24 event chits and the two cavalry "chits" 25 (3.5)
    assert sorted(u.hex for u in st.of_kind("client-garrison")) == sorted(st.region("caucasus") | {"4720"})
    assert len(st.units_at("4720")) == 9
    assert all(not u.rebel for u in st.units.values())


@pytest.mark.rule("ldf:3.3", "ldf:3.4", "ldf:10.2")
def test_german_set_up_one_tribe_per_barbarian_hex() -> None:
    s = deployed()
    st = s.state
    tribes = st.of_kind("german-tribe")
    assert len(tribes) == 17 and len({t.hex for t in tribes}) == 17
    assert all(t.hex in st.region("barbaria") for t in tribes)
    assert all(g.hex in st.region("parthia") for g in st.of_kind("parthian-gund"))
    assert len(st.of_kind("parthian-garrison")) == 7


@pytest.mark.rule("ldf:5.3", "ldf:8.1")
def test_germano_parthian_acts_first_and_players_alternate() -> None:
    s = deployed()
    d = s.decision
    assert d.kind == "action" and d.side == GP
    s.answer("draw-chit")
    while s.decision.kind != "action":
        s.answer(s.decision.options[0].key)
    assert s.decision.side == ROMAN


@pytest.mark.rule("ldf:8.20", "ldf:5.4", "ldf:5.3", "ldf:5.5")
def test_two_passes_end_the_turn_and_a_pass_then_an_action_does_not() -> None:
    s = deployed()
    s.answer("pass")
    s.answer("draw-chit")  # the Roman acts: the Germano-Parthian gets another chance (8.20)
    while s.decision.kind != "action":
        s.answer(s.decision.options[0].key)
    assert s.state.turn == 1 and s.decision.side == GP
    s.answer("pass")
    s.answer("pass")
    assert s.state.turn == 2
    assert any(e.kind == "phase" and "administrative" in e.text for e in s.log)


@pytest.mark.rule("ldf:4.4", "ldf:4.5")
def test_concession_is_offered_with_every_action_and_ends_the_game() -> None:
    s = deployed()
    assert "concede" in s.decision.keys
    s.answer("concede")
    s.answer("yes")
    assert s.outcome is not None and s.outcome.winner == ROMAN
    assert "ldf:4.4" in s.outcome.rules


@pytest.mark.rule("ldf:4.3", "ldf:4.5")
def test_random_bots_finish_the_campaign() -> None:
    s = new(3, concession=False, action_limit=60)  # the guard keeps the test cheap
    out = play_out(s, make_bot("random"))
    assert out is not None and out.winner in (GP, ROMAN) and 1 <= out.turn <= 5


@pytest.mark.rule("ldf:2.5", "ldf:10.9", "ldf:14.1")
def test_the_map_fits_160_columns_and_shows_stacks_markers_and_tracks() -> None:
    from rich.console import Console

    s = deployed()
    st = s.state
    st.looted.add("3016")
    st.fortify = "2813"
    console = Console(width=160, color_system=None, record=True)
    console.print(GAME.render(st, ROMAN))
    lines = console.export_text().splitlines()
    assert max(len(line) for line in lines) <= 160
    text = "\n".join(lines)
    assert "*R3" in text  # the emperor in Rome with his cavalry and the legion there
    assert "Roman treasury  5 TP" in text and "[1]" in text
    assert "hands: germano-parthian 0, roman 0" in text  # sizes public, contents not (10.9)
    from ancients_games.ldf.render import hex_markers

    assert hex_markers(st, "3016").startswith("L") and "F" in hex_markers(st, "2813")
    assert hex_markers(st, "3318").startswith("4")


@pytest.mark.rule("ldf:4.3", "ldf:8.1")
def test_greedy_bots_finish_the_campaign_on_cheap_scores() -> None:
    s = new(2)
    greedy = make_bot("greedy")
    out = play_out(s, {GP: greedy, ROMAN: make_bot("random")})
    assert out is not None and out.winner in (GP, ROMAN)
    d = deployed().decision
    assert all(GAME.score_option(s.state, d, k) is not None for k in d.keys)  # no look-ahead needed


@pytest.mark.rule("ldf:5.2", "ldf:5.4")
def test_undo_from_a_checkpoint_matches_a_full_replay() -> None:
    s = new(5, concession=False)
    play_out(s, make_bot("random"), max_decisions=150)
    assert s.checkpoints and s.checkpoints[-1].where[0] in ("turn", "action")
    s.undo(3)
    full = Session(GAME, "campaign", seed=5, options={"concession": False}, answers=s.answers)
    assert full.log.text() == s.log.text()
    assert full.decision == s.decision


def to_turn(s: Session, turn: int) -> None:
    """Pass turns out (both players pass), answering administrative questions with 'collect'/'done'."""
    while s.state.turn < turn:
        d = s.decision
        if d.kind == "action":
            s.answer("pass")
        else:
            s.answer(next((k for k in ("collect", "done") if k in d.keys), d.options[0].key))
    while s.decision.kind != "action":
        d = s.decision
        s.answer(next((k for k in ("collect", "done") if k in d.keys), d.options[0].key))


@pytest.mark.rule("ldf:1.1", "ldf:1.2", "ldf:5.1")
def test_two_players_five_turns_and_the_acting_player() -> None:
    info = GAME.scenarios(Session(GAME, "campaign").store)[0]
    assert info.sides == (GP, ROMAN) and info.turns == 5 and info.first == GP
    s = deployed()
    st = s.state
    assert st.active == GP and s.decision.side == GP
    t = st.of_kind("german-tribe")[0]
    b = st.of_kind("legion-base")[0]
    assert st.side_of(t) == GP and st.side_of(b) == ROMAN
    b.rebel = True
    assert st.side_of(b) == GP and st.hostile(b, st.of_kind("infantry-vexillation")[0])
    assert st.hostile(b, t)  # rebels pin and fight the other Germano-Parthian units too (11.4)


@pytest.mark.rule("ldf:2.3", "ldf:2.4", "ldf:2.6")
def test_static_mobile_and_leader_units() -> None:
    st = deployed().state
    assert st.unit("B1").static and st.unit("PG1").static and st.unit("CG1").static
    assert st.unit("I1").mobile and st.unit("C1").mobile and st.unit("T1").mobile and st.unit("G1").mobile
    assert st.unit("E").leader and not st.unit("E").mobile
    assert st.data.counters.piece("cavalry-vexillation").movement == 8
    assert st.data.counters.piece("infantry-vexillation").movement == 4


@pytest.mark.rule("ldf:2.6b", "ldf:6.3")
def test_looted_markers_are_not_a_limit() -> None:
    st = deployed().state
    core = sorted(h for h in st.region("core") if st.unlooted_tp(h))
    assert len(core) > 19
    st.looted.update(core)  # more looted hexes than the 19 markers: allowed (2.6b design note)
    assert all(h not in economy_revenue(st) for h in core)


def economy_revenue(st):  # noqa: ANN001, ANN201
    from ancients_games.ldf import economy

    return economy.revenue_hexes(st)


@pytest.mark.rule("ldf:5.4", "ldf:1.7", "ldf:14.3")
def test_chit_18_drawn_in_turns_1_to_4_ends_the_turn_on_an_even_roll() -> None:
    s = deployed()
    s.ctx.chance.force(18, 4)
    s.answer("draw-chit")
    while s.decision.kind.startswith("window."):  # chit 2 may answer the roll (14.3): nobody holds it
        s.answer("no")
    assert s.state.turn == 2 and 18 in s.state.pool
    assert any(e.kind == "turn-end" and "ldf:5.4" in e.rules for e in s.log)
    s2 = deployed()
    s2.ctx.chance.force(18, 3)
    s2.answer("draw-chit")
    while s2.decision.kind.startswith("window."):
        s2.answer("no")
    assert s2.state.turn == 1 and s2.decision.side == ROMAN and 18 in s2.state.pool


@pytest.mark.rule("ldf:4.1", "ldf:4.3", "ldf:8.20")
def test_turn_5_passed_out_with_intruders_in_the_core_is_a_germano_parthian_win() -> None:
    s = deployed(4)
    to_turn(s, 5)
    st = s.state
    t = st.of_kind("german-tribe")[0]
    st.place(t.id, "3016")
    s.answer("pass")
    s.answer("pass")
    assert s.outcome is not None and s.outcome.winner == GP and "ldf:4.3" in s.outcome.rules


@pytest.mark.rule("ldf:4.3", "ldf:5.4")
def test_turn_5_clear_core_after_both_have_acted_is_a_roman_win() -> None:
    s = deployed()
    to_turn(s, 5)
    s.answer("draw-chit")
    while s.decision is not None and s.decision.kind != "action":
        s.answer(s.decision.options[0].key)
    assert s.outcome is None  # only the Germano-Parthian has acted
    s.answer("pass")
    assert s.outcome is not None and s.outcome.winner == ROMAN


@pytest.mark.rule("ldf:4.3", "ldf:4.5")
def test_the_roman_may_concede_turn_5() -> None:
    s = deployed()
    to_turn(s, 5)
    st = s.state
    st.place(st.of_kind("german-tribe")[0].id, "3016")
    s.answer("pass")
    s.answer("concede")
    s.answer("yes")
    assert s.outcome.winner == GP and "ldf:4.3" in s.outcome.rules


@pytest.mark.rule("ldf:8.19", "ldf:8.17")
def test_a_free_chit_after_a_won_battle_is_offered_before_the_next_action() -> None:
    s = deployed()
    st = s.state
    s.answer("draw-chit")  # stands for a won battle: combat sets free_chit (8.19)
    while s.decision.kind != "action":
        s.answer(s.decision.options[0].key)
    assert s.decision.side == ROMAN
    held = len(st.hands[GP])
    st.free_chit = GP
    s.answer("pass")  # the Roman's action ... but the free chit comes before the next one is announced
    assert s.decision.kind == "chit.free" and s.decision.side == GP
    s.ctx.chance.force(1)
    s.answer("draw")
    assert 1 in st.hands[GP].cards and len(st.hands[GP]) == held + 1 and st.action_number == 2  # free
    assert s.decision.kind == "action" and s.decision.side == GP
    st.free_chit = GP
    s.ctx.chance.force(2)
    s.answer("draw-chit")
    assert s.decision.kind == "chit.free"
    s.answer("no")
    assert len(st.hands[GP]) == held + 2 and s.decision.side == ROMAN


@pytest.mark.rule("ldf:8.17", "ldf:10.9")
def test_at_the_hand_limit_a_chit_goes_back_before_the_draw() -> None:
    s = deployed()
    st = s.state
    for n in (1, 2, 3, 4, 5, 6):
        st.pool.remove(n)
        st.hands[GP].add(n)
    s.ctx.chance.force(3)  # the chit put back may be drawn again (8.17)
    s.answer("draw-chit")
    d = s.decision
    assert d.kind == "chit.put-back" and sorted(d.keys) == ["1", "2", "3", "4", "5", "6"]
    s.answer("3")
    assert sorted(st.hands[GP].cards) == [1, 2, 3, 4, 5, 6]
    assert any(e.private_to == GP for e in s.log if e.kind == "chit")
    st.pool.remove(7)
    st.hands[ROMAN].add(7)
    assert [k for k, _ in GAME.hand(st, ROMAN)] == ["7"] and len(GAME.hand(st, GP)) == 6


@pytest.mark.rule("ldf:10.9", "ldf:8.17")
def test_a_drawn_chit_is_secret_from_the_opponent_but_the_hand_size_is_not() -> None:
    s = deployed()
    s.ctx.chance.force(1)
    s.answer("draw-chit")
    mine = "\n".join(s.events_for(GP))
    theirs = "\n".join(s.events_for(ROMAN))
    assert "Flanking Move" in mine and "Flanking Move" not in theirs and "chit 1" not in theirs
    assert "germano-parthian draws a chit" in theirs
    from ancients_games.ldf.render import tracks

    assert "germano-parthian 1" in tracks(s.state).plain


@pytest.mark.rule("ldf:4.5", "ldf:4.3")
def test_the_campaign_never_runs_past_turn_5() -> None:
    s = new(6, concession=False, action_limit=1)  # one action a turn: Turn 5 ends before both act
    out = play_out(s, make_bot("random"))
    assert out is not None and out.turn == 5 and out.winner in (GP, ROMAN)
    guard = [e for e in s.log if e.kind == "turn-end" and "action_limit" in e.text]
    assert guard and all("ldf:8.20" not in e.rules for e in guard)  # no pass happened (audit D1)


@pytest.mark.rule("ldf:13.10", "ldf:2.6", "ldf:10.9")
def test_inspecting_a_hex_names_every_unit_and_its_factors() -> None:
    st = new().state
    rome = GAME.inspect(st, GP, ROME)
    assert any(line.startswith("E Roman emperor") for line in rome)
    assert any("movement 8" in line for line in rome)  # the cavalry (2.6)
    assert rome[-1] == "3318 Roma, Ostia: 4 TP, unlooted"
    assert any("defends at 8" in line for line in GAME.inspect(st, ROMAN, "5020"))  # Ctesiphon's garrison
    assert GAME.inspect(st, ROMAN, "0000") == ()


@pytest.mark.rule("ldf:10.9", "ldf:3.5")
def test_determinize_deals_the_other_hand_again_from_what_the_viewer_has_not_seen() -> None:
    from ancients_kit.chance import Rng

    st = new().state
    for n in (1, 2, 3):
        st.pool.remove(n)
        st.hands[GP].add(n)
    st.pool.remove(24)
    st.hands[ROMAN].add(24)
    before = sorted(list(st.pool.contents) + list(st.hands[GP].cards))
    GAME.determinize(st, ROMAN, Rng(5))
    assert st.hands[ROMAN].cards == (24,) and len(st.hands[GP]) == 3
    assert sorted(list(st.pool.contents) + list(st.hands[GP].cards)) == before


@pytest.mark.rule("ldf:8.1", "ldf:8.15", "ldf:14.2")
def test_an_action_not_on_the_menu_is_refused_with_its_rule() -> None:
    from ancients_kit.errors import AnswerError

    s = deployed()
    with pytest.raises(AnswerError) as err:
        s.answer("activate-gallic")  # Turn 3 or later (9.5; ruling 1)
    assert "Turn(s) 3-5" in str(err.value)
    with pytest.raises(AnswerError) as err:
        s.answer("start-fortify")  # the Roman's action, asked of the Germano-Parthian
    assert "only the roman player" in str(err.value)
    with pytest.raises(AnswerError) as err:
        s.answer("emperor-creation")
    assert "the rules call it" in str(err.value)
    assert s.decision.kind == "action" and s.decision.side == GP  # nothing changed


@pytest.mark.rule("ldf:14.3", "ldf:8.1")
def test_a_side_that_asked_never_at_a_window_may_ask_again_with_its_next_action() -> None:
    """Answering ``never`` at an interrupt window mutes it for that side; its next action
    question offers ``ask:<window>`` to be asked there again (the core's standing preferences)."""
    s = deployed(seed=3)
    muted = None
    for i in range(3000):
        d = s.decision
        if d is None:
            break
        if d.kind.startswith("window.") and "never" in d.keys and muted is None:
            muted = d.side
            s.answer("never")
            continue
        if muted is not None and d.kind == "action" and d.side == muted:
            asks = [k for k in d.keys if k.startswith("ask:")]
            assert asks, d.keys
            s.answer(asks[0])
            assert asks[0] not in s.decision.keys
            assert s.decision.kind == "action" and s.decision.side == muted
            return
        if d.kind == "action" and "draw-chit" in d.keys and i % 2:
            s.answer("draw-chit")  # chits in hand, so that windows are offered (a side holding none is not asked)
            continue
        s.answer(d.options[(7 * i) % len(d.options)].key)  # a fixed, varied walk through the game
    pytest.fail(f"no window was offered (muted={muted})")


@pytest.mark.rule("ldf:8.17")
def test_no_draw_from_an_empty_pool_unless_the_hand_is_full() -> None:
    from ancients_games.ldf.chit_events import can_draw
    from ancients_games.ldf.state import HAND_LIMIT

    st = deployed().state
    moved = list(st.pool._chits)
    for n in moved:
        st.pool.remove(n)
    hand = st.hands[ROMAN]
    for n in list(hand.cards):
        hand.remove(n)
    assert not can_draw(st, ROMAN)  # empty pool, empty hand
    hand.add(moved[0])
    assert not can_draw(st, ROMAN)  # a draw from an empty pool would do nothing (audit D2)
    for n in moved[1:HAND_LIMIT]:
        hand.add(n)
    assert len(hand) == HAND_LIMIT and can_draw(st, ROMAN)  # one goes back first, then is drawn


@pytest.mark.rule("ldf:1.3")
def test_each_turn_is_ten_years_and_the_turn_track_says_which() -> None:
    from ancients_games.ldf.render import tracks
    from ancients_games.ldf.state import LAST_TURN, turn_years

    assert [turn_years(t) for t in range(1, LAST_TURN + 1)] == [
        (235, 245), (245, 255), (255, 265), (265, 275), (275, 285)]
    st = deployed().state
    assert "(AD 235-245)" in tracks(st).plain
    st.turn = 4
    assert "(AD 265-275)" in tracks(st).plain


@pytest.mark.rule("ldf:8.20", "ldf:8.6", "ldf:5.4")
def test_an_action_choice_cites_only_the_rule_of_that_action() -> None:
    """Choosing to pass cites 8.20 (5.4 only on the pass that ends the turn); choosing to
    attack cites 8.6 (the battle's own events cite 13.x as they apply them)."""
    ended: list[Any] = []
    for seed in range(1, 12):  # random games until one has a turn ended by two passes in succession
        s = new(seed, concession=False, action_limit=60)
        play_out(s, make_bot("random"))
        acts = [e for e in s.log if e.kind == "action"]
        passes = [e for e in acts if e.data.get("action") == "pass"]
        attacks = [e for e in acts if e.data.get("action") == "attack"]
        assert passes and attacks
        assert all(e.rules == ("ldf:8.1", "ldf:8.20") for e in passes)
        assert all(e.rules == ("ldf:8.1", "ldf:8.6") for e in attacks)
        ended = [e for e in s.log if e.kind == "pass" and "ldf:5.4" in e.rules]
        assert all("both players have passed" in e.text for e in ended)
        if ended:
            break
    assert ended
