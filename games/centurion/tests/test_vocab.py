"""Centurion's vocabulary (games/centurion/vocab.py): every kind of decision the rules ask
and every phase the state names is a member, each naming its rule, and a member reads as the
string it has always been (so logs and saves are unchanged)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ancients_kit.bots import RandomBot, play_out
from ancients_kit.session import Session

from ancients_games.centurion import GAME
from ancients_games.centurion.vocab import DEPLOYMENT_KINDS, PHASES_BASIC, START_KINDS, Kind, Phase

PACKAGE = Path(__file__).resolve().parents[1]
RULE_ID = re.compile(r"cen:[a-z]+\.[a-z-]+")


def _rule_ids() -> set[str]:
    text = (PACKAGE / "data" / "rules.index.toml").read_text(encoding="utf-8")
    return set(re.findall(r'^id = "([^"]+)"', text, re.M))


def _sources() -> list[Path]:
    return [p for p in PACKAGE.rglob("*.py") if "tests" not in p.parts and "tools" not in p.parts]


def _named(literal: str, member: str, enum: type[Kind] | type[Phase]) -> set[str]:
    """The values the package's sources name by the bare-string pattern ``literal`` or by
    members matched by ``member`` (its group is the member's name)."""
    found: set[str] = set()
    for p in _sources():
        text = p.read_text(encoding="utf-8")
        found |= set(re.findall(literal, text)) | {enum[name].value for name in re.findall(member, text)}
    return found


def test_every_kind_asked_is_a_member() -> None:
    """Every ``kind=`` of a Decision in the package (movement.py's bare strings too) is a Kind."""
    assert _named(r'kind="([a-z.-]+)"', r"kind=Kind\.([A-Z_]+)", Kind) == {k.value for k in Kind}


def test_every_phase_set_is_a_member() -> None:
    named = _named(r'state\.phase = "([a-z-]+)"', r"phase(?::[^=]*)? = Phase\.([A-Z_]+)", Phase)
    assert named == {p.value for p in Phase}
    assert PHASES_BASIC == ("movement", "combat")


@pytest.mark.parametrize("member", [*Kind, *Phase], ids=str)
def test_each_member_names_a_rule_of_the_index(member: Kind | Phase) -> None:
    doc = _member_docs()[member.name]
    named = RULE_ID.findall(doc)
    assert named, f"{member.name}: no rule id in {doc!r}"
    assert set(named) <= _rule_ids(), f"{member.name}: {set(named) - _rule_ids()} not in rules.index.toml"


def _member_docs() -> dict[str, str]:
    text = (PACKAGE / "vocab.py").read_text(encoding="utf-8")
    return dict(re.findall(r'^    ([A-Z_]+) = "[^"]+"\n    """(.*?)"""', text, re.M | re.S))


def test_a_member_reads_as_its_string() -> None:
    """Formatting, JSON and comparison see the old string: logs and saves are unchanged."""
    assert f"{Kind.MOVE_HEX}" == str(Kind.MOVE_HEX) == "move.hex" == Kind.MOVE_HEX
    assert json.dumps({"kind": Kind.ATTACK_TARGET, "phase": Phase.DEFENSIVE_FIRE}) == \
        '{"kind": "attack.target", "phase": "defensive-fire"}'
    assert hash(Kind.RETREAT) == hash("retreat") and {"retreat": 1}[Kind.RETREAT] == 1


@pytest.mark.parametrize("scenario", ["basic-gaul", "numidia"])
def test_played_decisions_and_phases_are_members(scenario: str) -> None:
    s = Session(GAME, scenario, seed=5)
    seen_kinds, seen_phases = set(), set()
    for _ in range(300):
        if s.decision is None:
            break
        seen_kinds.add(s.decision.kind)
        seen_phases.add(s.state.phase)
        play_out(s, RandomBot(), max_decisions=1)
    assert seen_kinds <= set(Kind) and seen_phases <= set(Phase)
    assert {"move.unit", "move.hex"} <= seen_kinds


@pytest.mark.rule("cen:full.sequence", "cen:full.deployment")
def test_the_named_groups_of_kinds_hold_every_kind_of_their_step() -> None:
    assert START_KINDS == {k for k in Kind if k.value.startswith("start.")}
    assert DEPLOYMENT_KINDS == {k for k in Kind if k.value.startswith("deploy.")}
