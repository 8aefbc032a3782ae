"""The ancients CLI on Centurion: listings, odds, a bot game, replay check."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from ancients_kit.cli.main import cli


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.mark.rule("cen:scenarios", "cen:basic.deployment")
def test_scenarios_lists_basic_and_chart_scenarios(runner):
    r = runner.invoke(cli, ["scenarios", "centurion", "--json"])
    assert r.exit_code == 0, r.output
    ids = {s["id"] for s in json.loads(r.output)} if r.output.lstrip().startswith("[") else set()
    if not ids:  # listing shape owned by the core: fall back to text
        r = runner.invoke(cli, ["scenarios", "centurion"])
        assert "basic-civil-war" in r.output and "numidia" in r.output
    else:
        assert {"basic-civil-war", "numidia"} <= ids


@pytest.mark.rule("cen:basic.combat", "cen:basic.movement")
def test_tables_lists_crt_terrain_and_units(runner):
    r = runner.invoke(cli, ["tables", "centurion", "--json"])
    assert r.exit_code == 0, r.output
    listed = {t["id"]: t for t in json.loads(r.output)}
    for tid in ("centurion.crt.melee", "centurion.terrain", "centurion.units", "centurion.map.frontier"):
        assert tid in listed
        assert listed[tid]["source"] in ("rulebook", "reconstructed")
    r = runner.invoke(cli, ["tables", "centurion", "centurion.crt.melee"])
    assert r.exit_code == 0 and "1-2" in r.output and "6-1" in r.output


@pytest.mark.rule("cen:basic.combat")
def test_odds_worked_example(runner):
    r = runner.invoke(cli, ["odds", "centurion", "attack=26", "defense=9"])
    assert r.exit_code == 0, r.output
    assert "2-1" in r.output
    r = runner.invoke(cli, ["odds", "centurion", "attack=26", "defense=9", "command=yes"])
    assert r.exit_code == 0 and "3-1" in r.output
    r = runner.invoke(cli, ["odds", "centurion", "attack=26", "defense=9", "command=yes", "enemy_command=yes"])
    assert r.exit_code == 0 and "2-1" in r.output
    bad = runner.invoke(cli, ["odds", "centurion", "attack=2", "defense=9"])
    assert bad.exit_code == 2 and "non-viable" in bad.output


@pytest.mark.rule("cen:basic.sequence", "cen:basic.victory")
def test_bot_game_saves_and_replays(runner, tmp_path):
    save = tmp_path / "g.json"
    r = runner.invoke(cli, ["new", "centurion", "basic-civil-war", "--bots", "--no-map", "--seed", "1",
                            "--save", str(save)])
    assert r.exit_code == 0, r.output
    rec = json.loads(save.read_text())
    assert rec["finished"] and rec["outcome"]["rules"] == ["cen:basic.victory"]
    r = runner.invoke(cli, ["replay", "--check", "--no-map", str(save)])
    assert r.exit_code == 0, r.output
    assert "matches" in r.output


@pytest.mark.rule("cen:basic.movement")
def test_map_marks_the_hexes_of_the_question() -> None:
    from rich.console import Console

    from ancients_kit.plugin import find_game
    from ancients_kit.session import Session

    s = Session(find_game("centurion"), "basic-gaul", seed=1)
    marks = tuple(s.decision.context.get("highlight", ()))
    assert marks

    def reversed_cells(r) -> int:
        return sum(1 for seg in Console(width=200, color_system="standard").render(r)
                   if seg.style is not None and seg.style.reverse and seg.text.strip())

    assert reversed_cells(s.game.render(s.state, None, highlight=marks)) > reversed_cells(s.game.render(s.state, None))
