"""Centurion's options: the rules version, every optional rule, and what the Basic Game refuses.

The rules version (``version``: the scenario's own rules, the Basic Game,
``cen:basic.sequence``, or the Full Simulation, ``cen:full.sequence``) is
declared here; every optional and special rule is declared once, in
:data:`ancients_games.centurion.full.options.OPTION_SPECS`, and
:func:`option_specs` lists both. The Basic Game honours only the Fortune
Factor and the weather: :func:`basic_game_refusal` says why any other rule
switched on is refused there, naming its rule ID.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ancients_kit.plugin import OptionSpec

from ancients_games.centurion.full import options as full_options

__all__ = ["BASE_OPTIONS", "BASIC_GAME_OPTIONS", "BASIC_REFUSALS", "NEUTRAL_VALUES", "basic_game_refusal",
           "option_specs"]


# name, default, rule IDs, help, choices. Only the rules version lives here:
# every optional and special rule is defined once, in full/options.py's
# OPTION_SPECS (cen:opt.*, cen:barb.*, cen:rom.*, cen:full.treachery,
# cen:full.deployment), and option_specs() returns both.
BASE_OPTIONS: tuple[tuple[str, Any, tuple[str, ...], str, tuple[Any, ...]], ...] = (
    ("version", "scenario", ("cen:basic.sequence", "cen:full.sequence"),
     "Rules to play: the scenario's own, the Basic Game or the Full Simulation (the chart serves both)",
     ("scenario", "basic", "full")),
)

BASIC_GAME_OPTIONS = frozenset({"version", "fortune", "weather"})
"""Options the Basic Game honours: the Fortune Factor rounds the fortunate side's
odds (cen:opt.fortune); heavy rain and mud cost every unit two Movement Factors
and halve Spearmen (cen:opt.weather; fog and light rain only stop missile fire,
which the Basic Game does not have). Every other optional rule is refused."""

NEUTRAL_VALUES = ("scenario", "off", "none", "fine", False)
"""Option values that switch nothing on (the scenario's own rules are not used in the Basic Game)."""

BASIC_REFUSALS: dict[str, str] = {
    "treachery": "treachery makes troops leave the field or defect and is scored in Full Simulation points",
    "placement": "the Basic Game is set up from its deployment diagram (cen:basic.deployment), not by centre of mass",
    "earthworks": "the Basic Game uses only the Movement section of the Terrain Effects Chart (Game Equipment), "
                  "and earthworks are a combat effect built with Full Simulation works",
    "caltrops": "the Basic Game uses only the Movement section of the Terrain Effects Chart (Game Equipment), "
                "and caltrops halve attacks and are laid with Full Simulation works",
    "command": "the Basic Game has its own Command unit rule (cen:basic.combat case J: odds rounding); the Command "
               "Unit Rules' die modifiers, dispersal, fury and civil-war losses belong to the Full Simulation",
    "skirmisher_equipment": "the Basic Game uses only the three bold figures of a counter and ignores its key "
                            "(cen:basic.unit-types); archers and slingers differ only in fire",
    "non_roman_swordsmen": "it changes stacking, squares and relief, which the Basic Game does not have "
                           "(cen:basic.stacking: three of any type)",
    "spearmen": "it changes stacking, and the Basic Game stacks three of any type (cen:basic.stacking)",
    "barbarian_cavalry": "it changes stacking and fire, and the Basic Game stacks three of any type and has no fire",
    "barbarian_warrior": "compulsory advance and attack are applied by the Full Simulation's movement and allocation",
    "barbarian_tribe": "tribes are told apart by the counter's key, which the Basic Game ignores "
                       "(cen:basic.unit-types)",
    "green_romans": "legions are told apart by the counter's key, which the Basic Game ignores (cen:basic.unit-types)",
    "legion_integrity": "legions are told apart by the counter's key, which the Basic Game ignores "
                        "(cen:basic.unit-types)",
    "millenarian": "legions are told apart by the counter's key, which the Basic Game ignores (cen:basic.unit-types)",
    "mixed_legion": "legions are told apart by the counter's key, which the Basic Game ignores (cen:basic.unit-types)",
    "declining_legion": "it removes the Roman Relief Rule, which the Basic Game does not have",
    "mount_dismount": "mounting and dismounting are Full Simulation actions (facing, half movement, mounts)",
}
"""Why each optional rule the Basic Game does not honour is refused there."""


def basic_game_refusal(specs: list[OptionSpec], options: Mapping[str, Any]) -> tuple[str, str] | None:
    """(message, rule ID) if ``options`` switch on a rule the Basic Game does not use, else None."""
    for spec in specs:
        if spec.name in BASIC_GAME_OPTIONS:
            continue
        v = options.get(spec.name, spec.default)
        if v in NEUTRAL_VALUES or v == spec.default:
            continue
        rule = spec.rules[0] if spec.rules else "cen:basic.sequence"
        why = BASIC_REFUSALS.get(spec.name, "it is a Full Simulation rule")
        return (f"option {spec.name}={v} ({rule}) does not apply to the Basic Game: {why}; play the Full "
                f"Simulation (--option version=full) or leave the option off", rule)
    return None


def option_specs() -> list[OptionSpec]:
    """Every option of a Centurion game: the rules version (:data:`BASE_OPTIONS`), then
    each optional and special rule of ``full/options.py``, each named once."""
    specs: dict[str, OptionSpec] = {}
    for name, default, rules, help_, choices in BASE_OPTIONS:
        specs[name] = OptionSpec(name, default, help_, rules, choices)
    for spec in full_options.OPTION_SPECS:
        if spec.name in specs:
            raise AssertionError(f"option {spec.name!r} defined twice (options.py and full/options.py)")
        specs[spec.name] = spec
    return list(specs.values())
