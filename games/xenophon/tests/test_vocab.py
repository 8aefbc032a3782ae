"""Xenophon's vocabulary (games/xenophon/vocab.py): every kind of decision the rules ask, every
window a player is asked at and every phase the state names is a member, each naming its rule,
and a member reads as the string it has always been (so logs and saves are unchanged). The bot
names a scorer for every kind (bot.SCORES)."""

from __future__ import annotations

import ast
import json
import re
import tomllib
from pathlib import Path

import pytest

from ancients_kit.bots import RandomBot, play_out
from ancients_kit.session import Session

from ancients_games.xenophon import GAME, bot, stratagems
from ancients_games.xenophon.chits import WINDOWS
from ancients_games.xenophon.state import EMPIRE, REBEL, SIDES
from ancients_games.xenophon.vocab import (COMBAT_KINDS, DIPLOMACY_KINDS, OPERATIONS_KINDS, PLAYER_TURN, WINDOW_KINDS,
                                           Kind, Phase, Side)

PACKAGE = Path(__file__).resolve().parents[1]
RULE_ID = re.compile(r"xen:[a-z][a-z.-]*[a-z]")
ENUMS = {"Kind": Kind, "Phase": Phase, "Side": Side}


def _index() -> set[str]:
    """The rule ids of data/rules.index.toml."""
    with (PACKAGE / "data" / "rules.index.toml").open("rb") as f:
        return {r["id"] for r in tomllib.load(f)["rule"]}


def _trees() -> list[ast.Module]:
    """The package's rules modules, parsed (not its tests, tools or the vocabulary itself)."""
    skip = {"tests", "tools"}
    return [ast.parse(p.read_text(encoding="utf-8")) for p in sorted(PACKAGE.rglob("*.py"))
            if not skip & set(p.parts) and p.name != "vocab.py"]


def _values(node: ast.expr) -> set[str]:
    """The strings an expression can be: a literal, an enum member (``Kind.OPS_ACTION``) or
    either branch of ``a if c else b``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in ENUMS:
        return {ENUMS[node.value.id][node.attr].value}
    if isinstance(node, ast.IfExp):
        return _values(node.body) | _values(node.orelse)
    return set()


def _asked() -> set[str]:
    """Every ``kind=`` a call of the package passes (a Decision's kind)."""
    return {v for tree in _trees() for call in ast.walk(tree) if isinstance(call, ast.Call)
            for kw in call.keywords if kw.arg == "kind" for v in _values(kw.value)}


def _phases_set() -> set[str]:
    """Every value the package assigns to a ``phase`` (``state.phase = ...``, the field's default)."""
    out: set[str] = set()
    for tree in _trees():
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign):
                targets, value = node.targets, node.value
            elif isinstance(node, ast.AnnAssign) and node.value is not None:
                targets, value = [node.target], node.value
            else:
                continue
            if any((isinstance(t, ast.Attribute) and t.attr == "phase") or (isinstance(t, ast.Name) and t.id == "phase")
                   for t in targets):
                out |= _values(value)
    return out


def _windows() -> set[str]:
    """Every window the package opens: chits.WINDOWS and the ones built by name (``Window("...", ...)``)."""
    return set(WINDOWS) | {call.args[0].value for tree in _trees() for call in ast.walk(tree)
                           if isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                           and call.func.id == "Window" and call.args and isinstance(call.args[0], ast.Constant)}


def _docstrings() -> dict[str, str]:
    """Each enum member's name -> the docstring under it in vocab.py."""
    tree = ast.parse((PACKAGE / "vocab.py").read_text(encoding="utf-8"))
    out: dict[str, str] = {}
    for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
        for stmt, doc in zip(cls.body, cls.body[1:]):
            if isinstance(stmt, ast.Assign) and isinstance(doc, ast.Expr) and isinstance(doc.value, ast.Constant):
                out[f"{cls.name}.{stmt.targets[0].id}"] = doc.value.value  # type: ignore[attr-defined]
    return out


def test_every_kind_asked_is_a_member() -> None:
    """Every ``kind=`` of a Decision in the package is a Kind, and so is every window's
    ``window.<name>`` (ancients_kit.windows asks them): nothing else is."""
    asked, windows = _asked(), {f"window.{name}" for name in _windows()}
    assert asked | windows == {k.value for k in Kind}
    assert not asked & windows


def test_every_phase_set_is_a_member() -> None:
    assert _phases_set() | set(PLAYER_TURN) == {p.value for p in Phase}
    assert PLAYER_TURN == ("events", "stratagem", "diplomacy", "treasury", "recruit", "levy", "operations",
                           "supply")


def test_the_sides_are_the_book_s_two() -> None:
    assert SIDES == (Side.REBEL, Side.EMPIRE) == ("rebel", "empire")
    assert (REBEL, EMPIRE) == (Side.REBEL, Side.EMPIRE)


@pytest.mark.parametrize("member", [*Side, *Phase, *Kind], ids=lambda m: f"{type(m).__name__}.{m.name}")
def test_each_member_names_a_rule_of_the_index(member: Side | Phase | Kind) -> None:
    doc = _docstrings()[f"{type(member).__name__}.{member.name}"]
    named = set(RULE_ID.findall(doc))
    assert named, f"{member.name}: no rule id in {doc!r}"
    assert named <= _index(), f"{member.name}: {named - _index()} not in rules.index.toml"


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
    windows = {k for k in Kind if k.startswith("window.")}
    assert set(WINDOW_KINDS) == windows
    assert set(stratagems.WINDOW_PLAY) == windows  # the bot's taste for every window
    assert {k for k, fn in bot.SCORES.items() if fn is stratagems.window_score} == windows


def test_the_groups_of_kinds_are_their_phase_s_or_rule_s() -> None:
    """The kinds one scorer serves, named once (vocab's groups): each kind in one group at most,
    each group's members named for it."""
    groups = {"WINDOW_": WINDOW_KINDS, "DIPLOMACY_": DIPLOMACY_KINDS, "OPS_": OPERATIONS_KINDS, "COMBAT_": COMBAT_KINDS}
    everyone = [k for g in groups.values() for k in g]
    assert len(everyone) == len(set(everyone))
    assert set(DIPLOMACY_KINDS) == {k for k in Kind if k.name.startswith(("DIPLOMACY_", "NEGOTIATIONS_"))}
    for prefix, group in groups.items():
        if prefix != "DIPLOMACY_":
            assert set(group) == {k for k in Kind if k.name.startswith(prefix)}, prefix


@pytest.mark.parametrize("scenario", ["cyrus-revolt", "kings-war"])
def test_played_decisions_and_phases_are_members(scenario: str) -> None:
    """What a played game asks and where it stands are members: kinds by type, not only by value."""
    session = Session(GAME, scenario, seed=5)
    asked: list[tuple[str, str]] = []
    play_out(session, RandomBot(), max_decisions=1500,
             on_answer=lambda sess, d, key: asked.append((d.kind, sess.state.phase)))
    kinds, phases = {k for k, _ in asked}, {p for _, p in asked}
    assert kinds <= set(Kind) and phases <= set(Phase), (kinds - set(Kind), phases - set(Phase))
    assert all(isinstance(k, Kind) for k in kinds - {k for k in kinds if k.startswith("window.")})
    assert {Kind.OPS_FORCE, Kind.OPS_ACTION, Kind.TREASURY_UPKEEP} <= kinds
