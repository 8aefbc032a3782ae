"""Event texts a player reads (issue 14 item 7): dice as faces, names and plurals,
rule IDs an event really applied, square brackets kept, lines never broken inside a word."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from ancients_kit.bots import make_bot
from ancients_kit.chance import Roll
from ancients_kit.cli import ui
from ancients_kit.session import Session


from tests.test_prompt_fixes import run  # noqa: F401  (the CLI runner fixture)


def test_dice_and_draws_are_printed_as_faces_not_lists() -> None:
    assert Roll("d6", (4,), 4, "melee", sides=6, source="d6").describe() == "d6 ⚃ 4 (melee)"
    assert Roll("2d6", (3, 4), 7, "morale", sides=6, source="2d6").describe() == "2d6 ⚂ ⚃ = 7 (morale)"
    assert Roll("d66", (2, 5), 25, sides=6, source="d66").describe() == "d66 ⚁ ⚄ = 25"
    assert Roll("2d10", (3, 8), 11, sides=10, source="2d10").describe() == "2d10 3 8 = 11"
    assert Roll("symbols", ("swords", "flag"), None, "close combat", source="battle").describe() == \
        "battle dice: swords, flag (close combat)"
    assert Roll("draw", ("OH", "3C"), None, source="command deck").describe() == "draw OH, 3C from command deck"
    assert Roll("d6", (2,), 2, sides=6, source="d6", rerolled=(0,)).describe() == "d6 ⚁ 2 (reroll of die 1)"
    for g, scen in (("centurion", "basic-carrhae"), ("ccancients_rome", "tigranocerte")):
        s = Session.new(g, scen, seed=4)
        _play(s, 150)
        rolls = [e.text for e in s.log if e.kind == "roll"]
        assert rolls and not any("[" in t or "'" in t for t in rolls), rolls[:3]


def _play(s: Session, n: int) -> None:
    bot = make_bot("greedy")
    for _ in range(n):
        if s.decision is None:
            return
        s.answer(bot.choose(s, s.decision))


def _rolls_and_their_events(scenario: str, answers: int, reasons: tuple[str, ...]):  # noqa: ANN202
    """(roll, the event after it) for each CRT roll made for one of ``reasons`` in a greedy game."""
    s = Session.new("centurion", scenario, seed=2)
    _play(s, answers)
    events = list(s.log)
    return [(e, events[i + 1]) for i, e in enumerate(events[:-1])
            if e.kind == "roll" and e.text.split(" (")[-1].startswith(reasons)]


@pytest.mark.rule("cen:basic.combat")
def test_a_basic_game_roll_cites_only_the_rules_its_attack_applied() -> None:
    pairs = _rolls_and_their_events("basic-gaul", 400, ("attack on",))
    assert pairs
    for e, combat in pairs:
        assert combat.kind == "combat"
        assert e.rules == combat.rules  # the attack's own rules, no Full Simulation ones
        assert not any(r.startswith("cen:full.") for r in e.rules)


@pytest.mark.rule("cen:full.combat")
def test_a_full_simulation_roll_cites_its_attack_s_rules() -> None:
    pairs = _rolls_and_their_events("numidia", 600, ("melee on", "fire at"))
    assert pairs
    for e, nxt in pairs:
        assert set(e.rules) <= set(nxt.rules) | {"cen:full.defensive-fire"}, (e.line(None), nxt.line(None))
        assert "cen:basic.combat" not in e.rules or "cen:basic.combat" in nxt.rules


@pytest.mark.rule("ccr:base.leaders")
def test_cc_names_a_numbered_leader_once_and_counts_blocks_in_english() -> None:
    from ancients_games.ccancients_rome.leaders import kill_leader, leader_called
    from ancients_games.ccancients_rome.orders import _label_reference

    s = Session.new("ccancients_rome", "edessa", seed=1)
    bs = s.state.b
    numbered = next(ld for ld in bs.leaders if "leader" in ld.name)
    assert leader_called(numbered) == numbered.name and leader_called(numbered, side=False) == numbered.name
    named = next((ld for ld in bs.leaders if "leader" not in ld.name), None)
    if named is not None:
        assert leader_called(named) == f"{named.side} leader {named.name}"
    unit = next(iter(bs.at.values()))
    unit.blocks = 1
    assert "(1 block)" in _label_reference(bs, unit) and "blocks)" not in _label_reference(bs, unit)
    unit.blocks = 2
    assert "(2 blocks)" in _label_reference(bs, unit)

    class Ctx:
        def __init__(self) -> None:
            self.events: list[str] = []

        def event(self, kind: str, text: str, **kw: object) -> None:
            self.events.append(text)

    ctx = Ctx()
    kill_leader(ctx, bs, numbered, "killed")  # type: ignore[arg-type]
    assert ctx.events[0] == f"{numbered.name} is killed at {numbered.hex}"
    assert all(f"{numbered.side} leader {numbered.side} leader" not in t for t in ctx.events)


def test_odds_help_keeps_its_optional_keys_in_brackets(run) -> None:
    res = run("odds", "centurion", "help")
    assert res.exit_code == 0
    text = " ".join(res.output.split())
    assert "[command=yes] [enemy_command=yes] [rounding=attacker|defender] [modifier=N] [crt=melee|fire]" in text


def test_explain_lines_wrap_between_words_at_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    buf = io.StringIO()
    monkeypatch.setattr(ui, "out", Console(file=buf, width=40, force_terminal=True, color_system=None))
    text = ("PAR-HC01, PAR-HC02 fire at 2111: fire 36 (FEM) against protection 6: 36:6 = 6.00 -> 6-1 "
            "(rounded for the defender), roll 2: DE")
    ui.prose(text)
    lines = buf.getvalue().splitlines()
    assert len(lines) > 1 and all(len(x) <= 40 for x in lines)
    assert " ".join(x.strip() for x in lines) == text  # every break falls between two words
    buf2 = io.StringIO()
    monkeypatch.setattr(ui, "out", Console(file=buf2, width=40, color_system=None))  # a pipe: one line
    ui.prose(text)
    assert buf2.getvalue() == text + "\n"


def test_replay_viewer_any_case_and_unknown_refused(run, tmp_path: Path) -> None:
    save = tmp_path / "v.json"
    assert run("new", "centurion", "basic-carrhae", "--seed", "3", "--bots", "--no-map", "--stop-after", "3",
               "--save", str(save)).exit_code == 0
    assert run("replay", str(save), "--viewer", "PARTHIANS", "--no-map").exit_code == 0
    res = run("replay", str(save), "--viewer", "gauls", "--no-map")
    assert res.exit_code == 2 and "'gauls' is not a side of this game (sides: parthians, romans)" in res.output


def test_a_changed_variant_is_named(run, tmp_path: Path) -> None:
    v = tmp_path / "long.toml"
    v.write_text('[meta]\nid = "longer"\nsource = "variant"\nnote = "t"\n\n[options]\n')
    save = tmp_path / "g.json"
    res = run("new", "centurion", "basic-carrhae", "--seed", "3", "--bots", "--no-map", "--stop-after", "2",
              "--variant", str(v), "--save", str(save))
    assert res.exit_code == 0, res.output
    assert json.loads(save.read_text())["variants"]
    v.write_text('[meta]\nid = "longer"\nsource = "variant"\nnote = "changed"\n\n[options]\n')
    res = run("replay", str(save), "--check", "--no-map")  # the save carries the variant it was played with
    assert res.exit_code == 0, res.output
    rec = json.loads(save.read_text())
    del rec["variants"][0]["text"], rec["variants"][0]["includes"]  # a save from before they carried it
    save.write_text(json.dumps(rec))
    res = run("play", str(save), "--plain", "--no-map")
    assert res.exit_code == 2 and "long.toml" in res.output and "is not the variant this game was saved with" in res.output
    assert len(res.output.strip().splitlines()) == 1


def test_undo_needs_at_least_one(run, tmp_path: Path) -> None:
    save = tmp_path / "u.json"
    run("new", "centurion", "basic-carrhae", "--seed", "7", "--bots", "--no-map", "--stop-after", "2",
        "--save", str(save))
    for n in ("0", "-1"):
        res = run("undo", str(save), "-n", n)
        assert res.exit_code == 2 and "-n" in res.output
    assert run("undo", str(save), "-n", "1").exit_code == 0
