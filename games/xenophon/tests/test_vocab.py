"""Xenophon's vocabulary (games/xenophon/vocab.py): every kind of decision the rules ask, every
window a player is asked at and every phase the state names is a member, each naming its rule,
and a member reads as the string it has always been (so logs and saves are unchanged). The bot
names a scorer for every kind (bot.SCORES)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ancients_kit.bots import RandomBot, play_out
from ancients_kit.session import Session

from ancients_games.xenophon import GAME, bot
from ancients_games.xenophon.chits import WINDOWS
from ancients_games.xenophon.state import EMPIRE, REBEL, SIDES
from ancients_games.xenophon.vocab import PLAYER_TURN, Kind, Phase, Side

PACKAGE = Path(__file__).resolve().parents[1]
RULE_ID = re.compile(r"xen:[a-z][a-z.-]*[a-z]")


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


def _windows() -> set[str]:
    """Every window the package opens: chits.WINDOWS and the ones built by name (``Window("...")``)."""
    named: set[str] = set(WINDOWS)
    for p in _sources():
        named |= set(re.findall(r'Window\("([a-z-]+)"', p.read_text(encoding="utf-8")))
    return named


def test_every_kind_asked_is_a_member() -> None:
    """Every ``kind=`` of a Decision in the package is a Kind, and so is every window's
    ``window.<name>`` (ancients_kit.windows asks them): nothing else is."""
    asked = _named(r'kind="([a-z.-]+)"', r"kind=Kind\.([A-Z_]+)", Kind)
    asked |= {Kind[name].value for p in _sources()
              for name in re.findall(r"kind=Kind\.[A-Z_]+ if \w+ else Kind\.([A-Z_]+)", p.read_text(encoding="utf-8"))}
    windows = {f"window.{name}" for name in _windows()}
    assert asked | windows == {k.value for k in Kind}
    assert not asked & windows


def test_every_phase_set_is_a_member() -> None:
    named = _named(r'phase(?::[^=]*)? = "([a-z-]+)"', r"phase(?::[^=]*)? = Phase\.([A-Z_]+)", Phase)
    assert named | set(PLAYER_TURN) == {p.value for p in Phase}
    assert PLAYER_TURN == ("events", "stratagem", "diplomacy", "treasury", "recruit", "levy", "operations",
                           "supply")


def test_the_sides_are_the_book_s_two() -> None:
    assert SIDES == (Side.REBEL, Side.EMPIRE) == ("rebel", "empire")
    assert (REBEL, EMPIRE) == (Side.REBEL, Side.EMPIRE)


@pytest.mark.parametrize("member", [*Side, *Phase, *Kind], ids=lambda m: f"{type(m).__name__}.{m.name}")
def test_each_member_names_a_rule_of_the_index(member: Side | Phase | Kind) -> None:
    doc = _member_docs()[member.name]
    named = RULE_ID.findall(doc)
    assert named, f"{member.name}: no rule id in {doc!r}"
    assert set(named) <= _rule_ids(), f"{member.name}: {set(named) - _rule_ids()} not in rules.index.toml"


def _member_docs() -> dict[str, str]:
    text = (PACKAGE / "vocab.py").read_text(encoding="utf-8")
    return dict(re.findall(r'^    ([A-Z_]+) = "[^"]+"\n    """(.*?)"""', text, re.M | re.S))


def test_a_member_reads_as_its_string() -> None:
    """Formatting, JSON and comparison see the old string: logs and saves are unchanged."""
    assert f"{Kind.OPS_ACTION}" == str(Kind.OPS_ACTION) == "ops.action" == Kind.OPS_ACTION
    assert json.dumps({"kind": Kind.COMBAT_CRT, "phase": Phase.OPERATIONS, "side": Side.REBEL}) == \
        '{"kind": "combat.crt", "phase": "operations", "side": "rebel"}'
    assert hash(Side.EMPIRE) == hash("empire") and {"supply.lose": 1}[Kind.SUPPLY_LOSE] == 1


def test_the_bot_names_a_scorer_for_every_kind() -> None:
    """bot.SCORES: the bot's own heuristics and the rules modules' scores, one per kind, none twice."""
    assert set(bot.SCORES) == set(Kind)
    assert not set(bot.CORE_SCORES) & set(bot.RULES_SCORES)
    assert set(bot.BATCH_SCORES) <= set(bot.RULES_SCORES)


@pytest.mark.parametrize("scenario", ["cyrus-revolt", "kings-war"])
def test_played_decisions_and_phases_are_members(scenario: str) -> None:
    s = Session(GAME, scenario, seed=5)
    seen_kinds, seen_phases = set(), set()
    for _ in range(600):
        if s.decision is None:
            break
        seen_kinds.add(s.decision.kind)
        seen_phases.add(s.state.phase)
        play_out(s, RandomBot(), max_decisions=1)
    assert seen_kinds <= set(Kind) and seen_phases <= set(Phase)
    assert {"ops.force", "ops.action"} <= seen_kinds
