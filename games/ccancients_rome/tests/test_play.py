"""Whole games: every battle and both Para Bellum series played to the end by bots, golden
replays, the command line, saves and the odds calculator."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from ancients_games.ccancients_rome import GAME
from ancients_kit import savefile
from ancients_kit.bots import GreedyBot, RandomBot, play_out
from ancients_kit.cli.main import cli
from ancients_kit.data import DataStore
from ancients_kit.session import Session
from ancients_kit.testing import check_golden

STORE = DataStore(GAME.package)
GOLDEN = Path(__file__).parent / "golden"
GOLDEN_BATTLES = ("tigranocerte", "edessa", "milvian-bridge")

BATTLE_PARAMS = [
    pytest.param("tigranocerte", marks=pytest.mark.rule("ccr:scenario.tigranocerte", "ccr:baggage-wagon", "ccr:marian-legions")),
    pytest.param("carrhes", marks=pytest.mark.rule("ccr:scenario.carrhes", "ccr:marian-legions")),
    pytest.param("philippi-i", marks=pytest.mark.rule("ccr:scenario.philippi-i", "ccr:julian-legions")),
    pytest.param("philippi-ii", marks=pytest.mark.rule("ccr:scenario.philippi-ii", "ccr:julian-legions")),
    pytest.param("cilician-gates", marks=pytest.mark.rule("ccr:scenario.cilician-gates")),
    pytest.param("antonys-siege-train", marks=pytest.mark.rule("ccr:scenario.antonys-siege-train", "ccr:baggage-wagon")),
    pytest.param("medway", marks=pytest.mark.rule("ccr:scenario.medway", "ccr:bridge", "ccr:ford")),
    pytest.param("boudicas-revolt-watling-street", marks=pytest.mark.rule("ccr:scenario.boudicas-revolt-watling-street", "ccr:wagon-laager")),
    pytest.param("first-bedriacum", marks=pytest.mark.rule("ccr:scenario.first-bedriacum", "ccr:praetorian-guard")),
    pytest.param("mons-graupius", marks=pytest.mark.rule("ccr:scenario.mons-graupius")),
    pytest.param("issus", marks=pytest.mark.rule("ccr:scenario.issus")),
    pytest.param("lugdunum", marks=pytest.mark.rule("ccr:scenario.lugdunum", "ccr:praetorian-guard")),
    pytest.param("nisibis", marks=pytest.mark.rule("ccr:scenario.nisibis", "ccr:caltrops")),
    pytest.param("hormuz", marks=pytest.mark.rule("ccr:scenario.hormuz")),
    pytest.param("carthage", marks=pytest.mark.rule("ccr:scenario.carthage", "ccr:imperial-legions")),
    pytest.param("abrittus", marks=pytest.mark.rule("ccr:scenario.abrittus", "ccr:imperial-legions")),
    pytest.param("edessa", marks=pytest.mark.rule("ccr:scenario.edessa", "ccr:praetorian-guard")),
    pytest.param("naissus", marks=pytest.mark.rule("ccr:scenario.naissus", "ccr:wagon-laager")),
    pytest.param("placentia", marks=pytest.mark.rule("ccr:scenario.placentia", "ccr:ford")),
    pytest.param("fano", marks=pytest.mark.rule("ccr:scenario.fano")),
    pytest.param("pavia", marks=pytest.mark.rule("ccr:scenario.pavia")),
    pytest.param("immae", marks=pytest.mark.rule("ccr:scenario.immae", "ccr:caltrops")),
    pytest.param("milvian-bridge", marks=pytest.mark.rule("ccr:scenario.milvian-bridge", "ccr:bridge")),
    pytest.param("cibalae", marks=pytest.mark.rule("ccr:scenario.cibalae")),
]


def test_scenarios_list_24_battles_and_2_series() -> None:
    ids = [s.id for s in GAME.scenarios(STORE)]
    assert len(ids) == 26
    assert "series-nisibis" in ids and "series-placentia-fano-pavia" in ids
    assert len(GAME.rules_index()) == 52


@pytest.mark.rule("ccr:victory", "ccr:sequence")
@pytest.mark.parametrize("battle", BATTLE_PARAMS)
def test_battle_plays_to_the_end_with_random_bots(battle: str) -> None:
    s = Session(GAME, battle, seed=11)
    out = play_out(s, RandomBot(), max_decisions=40_000)
    assert out is not None, f"{battle} did not finish"
    a, b = s.state.sides
    bs = s.state.battle
    if out.level != "turn limit" and out.winner is not None:
        assert bs.armies[out.winner].banners >= bs.armies[out.winner].target
    assert set(out.scores) == {a, b}
    # every event names at least one rule, except private/public draw notes
    assert all(e.rules for e in s.log)


@pytest.mark.rule("ccr:victory")
@pytest.mark.parametrize("battle", ["tigranocerte", "mons-graupius", "edessa"])
def test_greedy_bots_finish_battles(battle: str) -> None:
    s = Session(GAME, battle, seed=2)
    out = play_out(s, GreedyBot(), max_decisions=20_000)
    assert out is not None and out.winner in s.state.sides


@pytest.mark.rule("ccr:para-bellum", "ccr:scenario.nisibis")
def test_nisibis_series_three_days_with_rally() -> None:
    s = Session(GAME, "series-nisibis", seed=4)
    out = play_out(s, RandomBot(), max_decisions=80_000)
    assert out is not None
    st = s.state
    assert [r[0] for r in st.results] == ["Day 1", "Day 2", "Day 3"]
    assert sum(out.scores.values()) == sum(sum(r[1].values()) for r in st.results)
    # day targets 4 / 5 / 7 banners
    text = s.log.text()
    assert "4/4 banners to win" in text and "5/5 banners to win" in text and "7/7 banners to win" in text
    assert "rallies its lost" in text or "fails to rally" in text
    if out.winner is not None and abs(out.scores["parthian"] - out.scores["roman"]) >= 3:
        assert out.level == "decisive"


@pytest.mark.rule("ccr:para-bellum", "ccr:scenario.placentia", "ccr:scenario.fano", "ccr:scenario.pavia")
def test_placentia_fano_pavia_series() -> None:
    s = Session(GAME, "series-placentia-fano-pavia", seed=6)
    out = play_out(s, RandomBot(), max_decisions=80_000)
    assert out is not None and [r[0] for r in s.state.results] == ["Placentia", "Fano", "Pavia"]
    # saved and reloaded, the series replays identically in one session
    s2 = savefile.from_record(savefile.to_record(s))
    assert s2.replay_matches and s2.outcome == out


def _golden_session(battle: str) -> Session:
    s = Session(GAME, battle, seed=2026, options={"turn_limit": 12})
    play_out(s, RandomBot(), max_decisions=20_000)
    return s


@pytest.mark.rule("ccr:sequence", "ccr:base.cards", "ccr:base.close-combat")
@pytest.mark.parametrize("battle", GOLDEN_BATTLES)
def test_golden_replay(battle: str) -> None:
    """The golden playthrough of a seeded random-bot game (ancients_kit.testing.check_golden;
    regenerate: CCR_GOLDEN_UPDATE=1)."""
    check_golden(lambda: _golden_session(battle), GOLDEN / battle, update_var="CCR_GOLDEN_UPDATE")


@pytest.mark.rule("ccr:base.cards", "ccr:setup")
def test_each_side_sees_only_its_own_hand() -> None:
    from rich.console import Console

    s = Session(GAME, "tigranocerte", seed=3)
    bs = s.state.battle
    con = Console(width=140, record=True)
    con.print(GAME.render(s.state, "armenian"))
    seen = con.export_text()
    assert "armenian: 0/6 banners; hand: " in seen and "roman: 0/6 banners; hand: 6 cards" in seen
    mine = bs.armies["armenian"].hand.cards
    assert all(bs.cards[c].name in seen for c in mine)
    roman_private = [e for e in s.log if e.private_to == "roman"]
    assert roman_private and all("roman" in e.text_for("armenian") and "[" not in e.text_for("armenian")
                                 for e in roman_private)


@pytest.mark.rule("ccr:base.cards", "ccr:base.sections")
def test_illegal_answers_are_refused_with_rule_ids() -> None:
    from ancients_kit.errors import IllegalAnswer

    s = Session(GAME, "tigranocerte", seed=3)
    d = s.decision
    assert d.kind == "card"
    missing = next(c for c in ("FS", "RA", "DS", "CS", "IAS", "OMT") if c not in d.keys)
    with pytest.raises(IllegalAnswer) as exc:
        s.answer(missing)
    assert exc.value.rule == "ccr:base.cards"
    before = len(s.answers)
    with pytest.raises(IllegalAnswer):
        s.answer("9999")
    assert len(s.answers) == before


@pytest.mark.rule("ccr:base.dice", "ccr:base.close-combat", "ccr:base.ranged")
def test_odds_exact_and_sum_to_one() -> None:
    r = GAME.odds(STORE, {"dice": "5", "target": "medium", "leader": "yes"})
    assert sum(r.distribution.values()) == 1
    # 5 dice, hits on medium, swords, leader: P(no hit and no flag) = (2/6)^5
    assert r.distribution["0 hits, 0 flags to retreat"] == Fraction(2, 6) ** 5
    # eliminating 4 blocks needs 4+ of 3 hitting faces out of 6
    assert r.distribution["eliminated"] == Fraction(5 * 3**4 * 3 + 3**5, 6**5)
    rr = GAME.odds(STORE, {"dice": "2", "target": "LC", "mode": "ranged"})
    assert "eliminated" not in rr.distribution and rr.distribution["2 hits, 0 flags to retreat"] == Fraction(1, 36)
    with pytest.raises(ValueError):
        GAME.odds(STORE, {"dice": "x", "target": "HI"})


@pytest.mark.rule("ccr:base.dice", "ccr:setup")
def test_cli_odds_new_bots_and_replay_check(tmp_path: Path) -> None:
    runner = CliRunner()
    r = runner.invoke(cli, ["odds", "ccancients_rome", "dice=5", "target=medium", "leader=yes"], catch_exceptions=False)
    assert r.exit_code == 0 and "eliminated" in r.output
    save = tmp_path / "game.json"
    r = runner.invoke(cli, ["new", "ccancients_rome", "tigranocerte", "--bots", "--no-map", "--seed", "1", "--save", str(save)],
                      catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert save.exists()
    r = runner.invoke(cli, ["replay", str(save), "--check", "--no-map"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    r = runner.invoke(cli, ["tables", "ccancients_rome"], catch_exceptions=False)
    assert r.exit_code == 0 and "reconstructed" in r.output


def test_battle_rules_list_matches_the_battle_files() -> None:
    from ancients_games.ccancients_rome.setup import BATTLE_RULES

    slugs = [s.id for s in GAME.scenarios(STORE) if not s.id.startswith("series-")]
    assert list(BATTLE_RULES) == [f"ccr:scenario.{s}" for s in slugs]


@pytest.mark.rule("ccr:units", "ccr:base.retreat", "ccr:base.leaders")
@pytest.mark.parametrize("battle,seed", [("naissus", 1), ("antonys-siege-train", 2), ("mons-graupius", 3), ("medway", 4)])
def test_state_invariants_hold_through_random_play(battle: str, seed: int) -> None:
    """After every decision: one unit per hex, blocks within 1..max, leaders and wagons on the board,
    hands plus piles conserve the 60 cards."""
    from ancients_kit.chance import Rng
    from ancients_kit.log import Log
    from ancients_kit.session import Context

    ctx = Context(STORE, {"turn_limit": 40}, seed, Log())
    state = GAME.setup(ctx, battle)
    gen = GAME.play(ctx, state)
    rng = Rng(seed)
    d = next(gen)
    steps = 0
    try:
        while True:
            bs = state.battle
            assert len(bs.at) == len(bs.units)
            for u in bs.units.values():
                assert bs.at[u.hex] is u and 1 <= u.blocks <= u.max_blocks
                assert u.hex not in bs.board.impassable or u.hex in bs.crossing
            hexes = set(bs.board.hexes)
            assert all(ld.hex in hexes for ld in bs.leaders) and all(w.hex in hexes for w in bs.wagons)
            held = sum(len(a.hand) for a in bs.armies.values())
            assert held + len(bs.deck.draw_pile) + len(bs.deck.discard_pile) in (60, 59)  # 59: a card in play
            d = gen.send(d.options[rng.below(len(d.options))].key)
            steps += 1
    except StopIteration as stop:
        assert stop.value is not None and steps > 10


@pytest.mark.rule("ccr:base.dice")
def test_odds_distributions_sum_to_one_property() -> None:
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=60, deadline=None)
    @given(st.integers(0, 8), st.sampled_from(["light", "medium", "heavy", "HCC", "CCA", "LC", "EL"]),
           st.sampled_from(["close", "ranged"]), st.booleans(), st.integers(0, 2))
    def check(dice: int, target: str, mode: str, leader: bool, ign: int) -> None:
        r = GAME.odds(STORE, {"dice": str(dice), "target": target, "mode": mode,
                              "leader": "yes" if leader else "no", "ignore_flags": str(ign)})
        assert sum(r.distribution.values()) == 1
        assert all(v > 0 for v in r.distribution.values())

    check()


@pytest.mark.rule("ccr:base.cards", "ccr:setup")
@pytest.mark.parametrize("first_strike", ["ask", "auto"])
def test_hands_stay_secret_in_the_other_sides_log_and_render(first_strike: str) -> None:
    """Throughout a whole battle, B never reads a card of A's hand that A has not played."""
    import io

    from rich.console import Console

    s = Session(GAME, "edessa", seed=21, options={"turn_limit": 30, "first_strike": first_strike})
    a, b = s.state.sides
    checked: list[str] = []

    def check(sess: Session, d: object, key: str) -> None:
        if len(sess.answers) % 25 and sess.decision is not None:
            return
        bs = sess.state.battle
        names = {c.name for c in bs.cards.values()}
        b_lines = sess.log.lines(b)
        public = "\n".join(ln for ln in b_lines if " plays " in ln or " repeats " in ln or " rolls " in ln)
        b_hand = {bs.cards[c].name for c in bs.armies[b].hand.cards}
        # names of A's hand that B could not have learned from a public play, nor holds itself
        secret = {bs.cards[c].name for c in bs.armies[a].hand.cards} - b_hand - {n for n in names if n in public}
        con = Console(file=io.StringIO(), width=400, record=True, color_system=None)
        con.print(GAME.render(sess.state, b))
        b_render = con.export_text()
        b_log = "\n".join(b_lines)
        for n in secret:
            assert n not in b_log, f"B's log shows {n!r} from A's hand"
            assert n not in b_render, f"B's board shows {n!r} from A's hand"
        # A's own view does name them: the check above could fail
        con = Console(file=io.StringIO(), width=400, record=True, color_system=None)
        con.print(GAME.render(sess.state, a))
        mine = con.export_text()
        assert all(n in mine for n in secret), (secret, mine[-600:])
        # every private event of A reads to B without a card
        for e in sess.log:
            if e.private_to == a:
                seen = e.text_for(b)
                assert a in seen and not any(n in seen for n in names) and "[" not in seen
        checked.extend(secret)

    out = play_out(s, RandomBot(), max_decisions=20_000, on_answer=check)
    assert out is not None and checked
