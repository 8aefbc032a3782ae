"""Para Bellum series rules (ccr:para-bellum) and data checked against the rulebook text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ancients_games.ccancients_rome import GAME
from ancients_games.ccancients_rome.setup import build_battle
from ancients_games.ccancients_rome.series import leave_out, rally_lost
from ancients_games.ccancients_rome.units import load_units
from ancients_kit.data import DataStore
from ancients_kit.log import Log
from ancients_kit.session import Context
from ancients_kit.testing import drive


STORE = DataStore(GAME.package)
BOOK = Path(__file__).resolve().parents[3].parent / "shared" / "rules" / "ccancients_rome.txt"


@pytest.mark.rule("ccr:para-bellum")
def test_rally_by_unit_symbol_or_leader_and_leave_out_unrallied() -> None:
    ctx = Context(STORE, {"turn_limit": 150}, 1, Log())
    st = GAME.setup(ctx, "series-nisibis")
    bs = st.battle
    assert bs.armies["parthian"].target == 4  # Day 1
    bs.armies["roman"].lost = ["HI", "LC", "MI"]
    ctx.chance.force("light", "medium", "flag")   # HI: no heavy, no leader -> stays out
    ctx.chance.force("swords", "light", "flag")   # LC: light symbol -> rallied
    ctx.chance.force("leader", "flag", "flag")    # MI: a leader symbol rallies any block
    rally_lost(ctx, st, bs)
    assert st.unrallied["roman"] == ["HI"]
    nxt = build_battle(ctx, "nisibis", names=st.sides, banners=5)
    assert nxt.armies["roman"].target == 5
    his = sorted(u.hex for u in nxt.side_units("roman") if u.code == "HI")
    before = len(nxt.side_units("roman"))
    asked, _ = drive(leave_out(ctx, st, nxt), [his[-1]] if len(his) > 1 else [])
    assert len(nxt.side_units("roman")) == before - 1
    assert his[-1] not in nxt.at
    # a block not rallied now may try again after the next battle
    ctx.chance.force("heavy", "flag", "flag")
    rally_lost(ctx, st, nxt)
    assert st.unrallied["roman"] == []


@pytest.mark.rule("ccr:heavy-cataphract", "ccr:cataphract-camel", "ccr:units")
def test_cataphract_statistics_match_the_rulebook() -> None:
    if not BOOK.exists():
        pytest.skip("rulebook text not available")
    text = BOOK.read_text(encoding="utf-8")
    t = load_units(STORE).types

    def block(title: str) -> str:
        start = text.index(title + "\n")
        return text[start:start + 700]

    for title, code in (("Heavy Cataphract Cavalry", "HCC"), ("Cataphract Camel", "CCA")):
        b = block(title)
        assert int(re.search(r"Blocks: (\d)", b).group(1)) == t[code].blocks
        assert int(re.search(r"Movement: (\d)", b).group(1)) == t[code].move
        assert int(re.search(r"Retreat: (\d)", b).group(1)) == t[code].retreat
        cc = re.search(r"Close Combat: (?:Att )?(\d)(?: - Def (\d))?", b)
        assert int(cc.group(1)) == t[code].close
        if cc.group(2):
            assert int(cc.group(2)) == t[code].battle_back_dice
        assert "1 sword" in b and t[code].ignore_swords == 1
    # blocks per unit kind as the book lists them
    assert "made of four small blocks" in text and t["MI"].blocks == 4
    assert "Elephant units are made of two large blocks" in text and t["EL"].blocks == 2


@pytest.mark.rule("ccr:victory", "ccr:sequence")
def test_benchmark_runs() -> None:
    import importlib.util

    path = Path(__file__).resolve().parents[3] / "benchmarks" / "bench_ccancients_rome.py"
    spec = importlib.util.spec_from_file_location("bench_ccr", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    r = mod.run(seconds=0.3, workers=1)
    assert r["battles"] >= 1 and r["battles_per_minute"] > 0


@pytest.mark.rule("ccr:para-bellum")
@pytest.mark.parametrize("battle", ["", "CCANCIENTS_ROME.BATTLE.PAVIA", "ccancients_rome.battle.Pavia!"])
def test_a_series_naming_no_battle_id_is_refused(tmp_path: Path, battle: str) -> None:
    """It was a ValueError from the battle loader, an internal error (issue 27 item 3)."""
    from ancients_games.ccancients_rome.scenario import load_series
    from ancients_kit.data import DataError, Variant

    body = (Path(load_series.__code__.co_filename).parent / "data" / "series" / "placentia-fano-pavia.toml").read_text(
        encoding="utf-8")
    old = 'battle = "ccancients_rome.battle.pavia"'
    assert old in body
    (tmp_path / "s.toml").write_text(body.replace(old, f'battle = "{battle}"'), encoding="utf-8")
    (tmp_path / "v.toml").write_text('[meta]\nid = "v"\nsource = "variant"\nnote = "x"\n'
                                     '[replace."ccancients_rome.series.placentia-fano-pavia"]\nfile = "s.toml"\n',
                                     encoding="utf-8")
    store = DataStore(GAME.package, (Variant.from_file(tmp_path / "v.toml"),))
    with pytest.raises(DataError, match=r"v\.toml \[replace\.ccancients_rome\.series\.placentia-fano-pavia\]: "
                                        r"battles\[2\]\.battle: battle '.*' is not a battle ID"):
        load_series(store, "ccancients_rome.series.placentia-fano-pavia")
