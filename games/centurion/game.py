"""The Centurion game plugin: scenarios, options, set-up, play, listings, odds.

This module owns the :class:`CenturionGame` (the ``ancients_kit`` plugin
contract): it lists the scenarios (``cen:scenarios``, ``cen:basic.deployment``),
declares every optional and special rule as a named option with its rule ID,
builds the initial state, and dispatches play to the Basic Game
(:func:`ancients_games.centurion.basic.play_basic`, ``cen:basic.sequence``) or
the Full Simulation (``ancients_games.centurion.full.sequence.play_full``,
``cen:full.sequence``). It also gives the CLI its tables, the odds calculator
and the greedy bot's cheap heuristic.

Data documents are parsed once per process and shared by sessions (they are
immutable), keyed by the variants in force, so a bot tournament does not
re-read TOML for every game.
"""

from __future__ import annotations

from collections.abc import Collection, Generator, Iterable, Mapping
from fractions import Fraction
from typing import Any

import attrs

from ancients_kit.data import DataStore, Meta
from ancients_kit.errors import IllegalAnswer, ParameterError
from ancients_kit.hexgrid import Hex, Hexside, Numbering
from ancients_kit.hexmap import HexMap
from ancients_kit.plugin import Game, OddsReport, OptionSpec, Outcome, ScenarioInfo, TableInfo
from ancients_kit.protocol import Context, Decision
from ancients_kit.tables import OddsRefused, OddsTable

from ancients_games.centurion import model
from ancients_games.centurion.appraisal import BASIC_CRT, appraise
from ancients_games.centurion.basic import loss_fractions, play_basic
from ancients_games.centurion.combat import (
    ALL,
    ATTACK,
    basic_attack_factor,
    basic_defence,
    best_group,
    command_rounding,
    eligible_attackers,
    stranded,
)
from ancients_games.centurion.compare import translate
from ancients_games.centurion.equipment import (
    PACKAGE, check_map_terrain, load_all, load_fire_crt, load_map, load_scenario, scenario_ids,
)
from ancients_games.centurion.full import bots as full_bots, options as full_options
from ancients_games.centurion.full.odds import full_decision_odds
from ancients_games.centurion.full.sequence import play_full
from ancients_games.centurion.state import SHARED_EXTRA, CenturionState, Unit, build_state, stack_visible
from ancients_games.centurion.vocab import Kind

__all__ = ["BASE_OPTIONS", "CenturionGame"]


# name, default, rule IDs, help, choices. Only the rules version lives here:
# every optional and special rule is defined once, in full/options.py's
# OPTION_SPECS (cen:opt.*, cen:barb.*, cen:rom.*, cen:full.treachery,
# cen:full.deployment), and option_specs() returns both.
BASE_OPTIONS: tuple[tuple[str, Any, tuple[str, ...], str, tuple[Any, ...]], ...] = (
    ("version", "scenario", ("cen:basic.sequence", "cen:full.sequence"),
     "Rules to play: the scenario's own, the Basic Game or the Full Simulation (the chart serves both)",
     ("scenario", "basic", "full")),
)

ODDS_RULE = "cen:basic.combat"
"""The rule the odds calculator's parameters describe (the combat procedure: factors, odds, rounding)."""

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


class CenturionGame(Game[CenturionState]):
    """Centurion: Tactical Warfare, 100 B.C.-600 A.D. (SPI, 1971)."""

    id = "centurion"
    title = "Centurion: Tactical Warfare, 100 B.C.-600 A.D."
    package = PACKAGE
    rule_prefix = "cen"
    hidden_information = False

    odds_help = (
        "attack=N defense=N (or defence=N) [command=yes] [enemy_command=yes] [rounding=attacker|defender] "
        "[modifier=N] [crt=melee|fire]: melee odds on the CRT; a friendly Command unit within five hexes "
        "rounds for the attacker unless an enemy one negates it (cen:basic.combat I, J); modifier is added "
        "to the die; crt=fire reads the missile fire table (Full Simulation: fire after FEM against Fire "
        "Protection, cen:full.combat H)."
    )

    # ------------------------------------------------------------ scenarios
    def scenarios(self, store: DataStore) -> list[ScenarioInfo]:
        out = []
        for sid in scenario_ids(store):
            sc = load_scenario(store, sid)
            out.append(ScenarioInfo(
                id=sid,
                title=f"{sc.title} ({sc.year})" if sc.year else sc.title,
                sides=tuple(s.id for s in sc.sides),
                meta=sc.meta,
                summary=f"{sc.game.value}; " + ", ".join(f"{s.name} {s.counter_count()} units" for s in sc.sides),
                first=sc.first_player,
                turns=sc.turns,
            ))
        return out

    def option_specs(self, store: DataStore, scenario: str) -> list[OptionSpec]:
        specs: dict[str, OptionSpec] = {}
        for name, default, rules, help_, choices in BASE_OPTIONS:
            specs[name] = OptionSpec(name, default, help_, rules, choices)
        for spec in full_options.OPTION_SPECS:
            if spec.name in specs:
                raise AssertionError(f"option {spec.name!r} defined twice (game.py and full/options.py)")
            specs[spec.name] = spec
        return list(specs.values())

    # ------------------------------------------------------------ set-up and play
    def setup(self, ctx: Context, scenario: str) -> CenturionState:
        store = ctx.store
        if scenario not in scenario_ids(store):
            raise KeyError(scenario)
        sc = load_scenario(store, scenario)
        data = load_all(store)
        hexmap = load_map(store, sc.map)
        check_map_terrain(store, sc.map, hexmap, data["terrain"])
        state = build_state(sc, hexmap, data["types"], data["capability"], data["terrain"], ctx.options)
        version = ctx.options.get("version", "scenario")
        if version in ("basic", "full"):
            state.version = version
        if state.version == "basic":
            refused = basic_game_refusal(self.option_specs(store, scenario), ctx.options)
            if refused is not None:
                raise IllegalAnswer(refused[0], rule=refused[1])
        return state

    def play(self, ctx: Context, state: CenturionState) -> Generator[Decision, str, Outcome]:
        if state.version == "basic":
            table = state.extra[BASIC_CRT] = load_all(ctx.store)["melee"]  # appraised by the search bot
            return (yield from play_basic(ctx, state, table))
        return (yield from play_full(ctx, state))

    def copy_state(self, state: CenturionState) -> CenturionState:
        return state.copy()

    def resume(self, ctx: Context, state: CenturionState, where: Any) -> Generator[Decision, str, Outcome]:
        """Play on from a checkpoint of ``play_basic`` (each choice of a unit to move)
        or ``play_full`` (the start of a Player-Turn, every few choices of a unit to move)."""
        version = where[0]
        if version == "basic":
            table = state.extra[BASIC_CRT] = load_all(ctx.store)["melee"]
            return play_basic(ctx, state, table, resume=(where[1], where[2]))
        if version != "full":
            raise ValueError(f"not a checkpoint of this game: {where!r}")
        return play_full(ctx, state, resume=tuple(where[1:]))

    def sides(self, state: CenturionState) -> tuple[str, ...]:
        return tuple(state.sides)

    # ------------------------------------------------------------ display
    def render(self, state: CenturionState, viewer: str | None, highlight: Collection[str] = ()) -> Any:
        # render (and rich with it) is loaded on first display: about 20 ms of start-up that
        # headless runs (simulate, bots, tests) never need
        from ancients_games.centurion.render import render_state

        marks = set()
        for key in highlight:
            try:
                marks.add(state.numbering.from_id(key))
            except ValueError:  # highlight keys that are not hexes (units) are skipped
                continue
        return render_state(state, viewer, marks)

    def compare(self, store: DataStore, engagement: Any) -> Any:
        return translate(store, engagement)

    def picture(self, state: CenturionState, viewer: str | None) -> Any:
        from ancients_games.centurion.render import picture_of  # loaded on first display (see render)

        return picture_of(state, viewer)

    def inspect(self, state: CenturionState, viewer: str | None, hex_id: str) -> tuple[str, ...]:
        """Each unit of the stack on ``hex_id`` with its factors and state, unless the
        viewer may not see the stack's make-up (cen:basic.stacking C)."""
        try:
            h = state.hex_of(hex_id)
        except ValueError:
            return ()
        units = state.stack_at(h)
        if not units or not stack_visible(state, h, viewer):
            return ()
        full = state.version != "basic"
        facing = ("N", "NE", "SE", "S", "SW", "NW") if state.map.numbering.orientation == "flat" else (
            "NE", "E", "SE", "SW", "W", "NW")
        out = []
        for u in units:
            t = state.types[u.type]
            if full:
                factors = (f"melee {t.melee_attack}, defence {t.melee_defence_front} front / "
                           f"{t.melee_defence_flank} flank, movement {t.movement}"
                           + (f", fire {t.fire} at range {t.fire_range}" if t.fire else "") + f", {t.points} pts")
            else:
                factors = f"attack {basic_attack_factor(state, u)}, defence {t.basic.defence if t.basic else t.melee_defence_front}, movement {t.basic.movement if t.basic else t.movement}"
            flags = [name for name, on in (
                (f"dispersed ({u.dispersed} turn{'s' if u.dispersed != 1 else ''})", u.dispersed),
                ("demoralized", u.demoralized), ("in square", u.in_square), ("panicked", u.panicked),
                ("has moved", u.moved), ("has attacked", u.attacked)) if on]
            out.append(f"{u.id}: {t.name}; {factors}" + (f"; facing {facing[u.facing % 6]}" if full else "")
                       + (f"; {', '.join(flags)}" if flags else ""))
        return tuple(out)

    def status(self, state: CenturionState, viewer: str | None) -> str:
        parts = [f"Turn {state.turn}/{state.scenario.turns}", f"{state.phase}"]
        if state.active:
            parts.append(f"{state.side_names.get(state.active, state.active)} to play")
        if state.version == "basic":
            fr = loss_fractions(state)
            for s in state.sides:
                parts.append(f"{state.side_names.get(s, s)} lost {state.lost_units.get(s, 0)}/"
                             f"{state.start_units.get(s, 0)} ({float(fr[s] * 100):.0f}%)")
        else:
            for s in state.sides:
                parts.append(f"{state.side_names.get(s, s)} lost {state.lost_points.get(s, 0)}/"
                             f"{state.start_points.get(s, 0)} pts")
        return " | ".join(parts)

    # ------------------------------------------------------------ bots
    def evaluate(self, state: CenturionState, side: str) -> float:
        """The Basic Game: loss percentages and the expected result of the coming
        Combat Phase (:func:`~ancients_games.centurion.appraisal.appraise`); the
        Full Simulation: loss percentages."""
        if state.version == "basic":
            return appraise(state, side)
        fr = loss_fractions(state)
        return float(fr[state.opponent(side)] - fr[side])

    def turn_key(self, state: CenturionState) -> Any:
        """The Player-Turn under way (cen:basic.sequence): its count since the start,
        whoever answers inside it."""
        return state.player_turn

    def search_defaults(self) -> Mapping[str, Any]:
        """Settings for the ``mcts`` bot: 140 iterations a decision over seven
        root options (``width=7``: twenty paired samples each unless pruned;
        about 1.1 s of processor time on the average decision, more early in a
        battle, when every unit still moves), paired by keyed dice
        (``pairing=keyed``: each attack is rolled under a reason naming its
        hex, so two moves compared on one sample meet the same die for the
        same attack), the look-ahead judged by :meth:`evaluate` (losses and
        the expected Combat Phase to come). Against greedy
        (benchmarks/bench_search.py): 30 wins, 1 draw in 40 games, 75%
        [59.8, 85.8]; 62.5% at 49 iterations (seven samples of each option)."""
        return {"iterations": 140, "width": 7, "pairing": "keyed"}

    def score_options(self, state: CenturionState, decision: Decision) -> list[float | None]:
        """:meth:`score_option` of every option; the Basic Game's choice of a hex
        looks up the unit and the enemy distances once for all its destinations
        (the search's rollouts score hundreds of them a move)."""
        if decision.kind == Kind.MOVE_HEX and state.version == "basic":
            return _destination_scores(state, decision, ((o.key, o.data) for o in decision.options))
        return super().score_options(state, decision)

    def score_option(self, state: CenturionState, decision: Decision, key: str) -> float | None:
        """Cheap greedy heuristic: attack at good odds, close with the enemy.

        Never ``None`` (which would make the greedy bot fork the session): a
        decision kind this does not know scores 0, so the bot picks at random
        among its options. The Full Simulation may supply its own
        ``full.bots.score_option`` (tried first for its decisions).
        """
        kind = decision.kind
        if state.version != "basic":
            got = full_bots.score_option(state, decision, key)
            if got is not None:
                return float(got)
        if kind == Kind.MOVE_UNIT:
            return -1.0 if key == "done" else 0.0
        if kind == Kind.MOVE_HEX:
            return _destination_scores(state, decision, ((key, None),))[0]
        if kind == Kind.MOVE_FACING:
            return 0.0
        if kind == Kind.COMBAT_HEX:
            if key == "done":
                return 1.5
            h = state.hex_of(key)
            side = decision.side
            group = best_group(state, eligible_attackers(state, side, h))
            att = sum(basic_attack_factor(state, u) for u in group)
            d = basic_defence(state, h)
            return float(Fraction(att, max(d, 1)))
        if kind == Kind.COMBAT_ATTACKERS:
            if key == "cancel":
                return 0.0
            if key == "all":
                return 50.0
            if key == ATTACK:
                return 10.0
            u = state.units.get(key)
            if u is None:
                return 0.0
            return 20.0 if not u.attacked and "[ ]" in decision.option(key).label else -5.0
        # Full Simulation decisions (the phases of full/sequence.py), scored the same simple way
        if kind == Kind.ATTACK_TARGET:
            if key == "done":
                return 1.5
            h = state.hex_of(key)
            side = decision.side
            att = sum(state.types[u.type].melee_attack for u in state.live_units(side)
                      if u.hex is not None and u.hex.distance(h) == 1 and not u.attacked)
            dfn = sum(state.types[u.type].melee_defence_front for u in state.stack_at(h))
            # Capped at "done"'s score: facing and fire may make a promising
            # target non-viable, and the allocation then offers it again; ties
            # are broken at random, so the bot cannot loop on it for ever.
            return min(float(Fraction(att, max(dfn, 1))), 1.5)
        if kind == Kind.ATTACK_UNIT:
            return {"all": 50.0, "done": 1.0}.get(key, 20.0)
        if kind == Kind.ATTACK_MODE:
            return {"both": 3.0, "melee": 2.0, "fire": 1.0}.get(key, 0.0)
        if kind == Kind.VICTORY_DECLARE:
            return 1.0 if key == "declare" else 0.0
        if kind == Kind.VICTORY_ACCEPT:
            return 1.0 if key == "accept" else 0.0
        if kind == Kind.VICTORY_CONCEDE:
            return 1.0 if key == "fight" else 0.0
        if kind.startswith(("start.", "deploy.")) or kind in (Kind.TREACHERY, Kind.FIRE_DEFENSIVE, Kind.RETREAT):
            return 1.0 if key == "done" else 0.0
        return 0.0

    def decision_odds(self, state: CenturionState, decision: Decision, key: str,
                      store: DataStore | None = None) -> OddsReport | None:
        """The melee odds of a Basic Game attack before it is rolled (cen:basic.combat):
        choosing a target hex shows the strongest allowed group against it
        (what ``all`` would choose); toggling an attacker shows the group with
        it in or out; ``attack`` shows the group as chosen. The report is
        ``ancients odds centurion`` for the same factors and rounding."""
        if state.version != "basic":
            return full_decision_odds(self, state, decision, key, store or DataStore(self.package))
        if decision.kind == Kind.COMBAT_HEX:
            if key not in decision.keys or key == "done":
                return None
            target_id = key
        elif decision.kind == Kind.COMBAT_ATTACKERS:
            target_id = str(decision.context.get("target", ""))
        else:
            return None
        try:
            target = state.hex_of(target_id)
        except ValueError:
            return None
        side = decision.side
        cands = eligible_attackers(state, side, target)
        if decision.kind == Kind.COMBAT_HEX or key == ALL:
            group = best_group(state, cands)
            how = "the strongest allowed group"
        else:
            chosen = [state.units[u] for u in decision.context.get("chosen", ()) if u in state.units]
            if key == ATTACK:
                group, how = chosen, "the attackers chosen"
            elif key in state.units:
                u = state.units[key]
                group = [v for v in chosen if v is not u] if u in chosen else [*chosen, u]
                how = f"the attackers chosen {'without' if u in chosen else 'with'} {u.id}"
            else:
                return None
        if not group:
            return None
        attack = sum(basic_attack_factor(state, u) for u in group)
        defence = basic_defence(state, target)
        rounding, why = command_rounding(state, {u.hex for u in group}, target, side)
        params = {"attack": str(attack), "defense": str(defence), "rounding": rounding}
        try:
            report = self.odds(store or DataStore(self.package), params)
        except ValueError as exc:
            return OddsReport(f"attack on {target_id}: {attack} vs {defence} is non-viable", {},
                              (str(exc),), ("cen:basic.combat",))
        command = "ancients odds centurion " + " ".join(f"{k}={v}" for k, v in params.items())
        attacked = {state.hex_of(h) for h in decision.context.get("attacked", ())}
        left = stranded(state, side, attacked, target, group)
        warn = (f"warning: leaves {', '.join(left)} with no unit to attack it this phase (case D)",) if left else ()
        return attrs.evolve(report, title=f"{report.title}: {how} ({', '.join(u.id for u in group)}) on {target_id}",
                            explain=(*(x for x in report.explain if not x.endswith("(as asked)")), why,
                                     f"same as: {command}", *warn))

    # ------------------------------------------------------------ listings
    def tables(self, store: DataStore) -> list[TableInfo]:
        from ancients_games.centurion.render import table_infos  # loaded on first display (see render)

        return table_infos(store)

    def odds(self, store: DataStore, params: Mapping[str, str]) -> OddsReport:
        """``ancients odds centurion``: the CRT's outcomes for the factors in ``params``
        (see :attr:`odds_help`; cen:basic.combat, cen:full.combat H). A parameter that
        cannot be read, or an attack below 1-2, is an :class:`~ancients_kit.errors.ParameterError`
        naming the parameter and its rule."""
        p = dict(params)

        def num(*names: str) -> int:
            for n in names:
                if n in p:
                    try:
                        v = int(p[n])
                    except ValueError:
                        raise ParameterError(f"{n} must be a whole number, not {p[n]!r}", name=n,
                                            rule=ODDS_RULE) from None
                    if v < 0:
                        raise ParameterError(f"{n} must not be negative, got {v}", name=n, rule=ODDS_RULE)
                    return v
            raise ParameterError(f"missing {names[0]}=N ({self.odds_help})", name=names[0], rule=ODDS_RULE)

        def yes(name: str) -> bool:
            v = p.get(name, "no").strip().lower()
            if v in ("1", "yes", "y", "true", "on"):
                return True
            if v in ("0", "no", "n", "false", "off"):
                return False
            raise ParameterError(f"{name} takes yes or no, not {p[name]!r}", name=name,
                                rule="cen:basic.combat")

        known = {"attack", "defense", "defence", "command", "enemy_command", "rounding", "modifier", "crt"}
        unknown = sorted(set(p) - known)
        if unknown:
            raise ParameterError(f"unknown parameter(s) {', '.join(unknown)} ({self.odds_help})",
                                name=unknown[0], rule=ODDS_RULE)
        attack = num("attack")
        defense = num("defense", "defence")
        modifier = 0
        if "modifier" in p:
            try:
                modifier = int(p["modifier"])
            except ValueError:
                raise ParameterError(f"modifier must be a whole number, not {p['modifier']!r}",
                                    name="modifier", rule=ODDS_RULE) from None
        crt = p.get("crt", "melee").strip().lower()
        if crt not in ("melee", "fire"):
            raise ParameterError(f"crt is melee or fire, not {p['crt']!r} (cen:full.combat H: missile fire has its own "
                                f"table, crt_fire)", name="crt", rule="cen:full.combat")
        # Missile fire (Full Simulation) reads crt_fire.toml: fire factor after FEM against Fire Protection.
        table: OddsTable = load_all(store)["melee"] if crt == "melee" else load_fire_crt(store)
        explain = [f"attack {attack} against defence {defense} (cen:basic.combat procedure)" if crt == "melee" else
                   f"fire {attack} against protection {defense} (cen:full.combat H, cen:full.fire-protection)"]
        if "rounding" in p:
            rounding = p["rounding"].strip().lower()
            if rounding not in ("attacker", "defender"):
                raise ParameterError(f"rounding is attacker or defender, not {p['rounding']!r}",
                                    name="rounding", rule="cen:basic.combat")
            explain.append(f"rounded for the {rounding} (as asked)")
        elif yes("command") and not yes("enemy_command"):
            rounding = "attacker"
            explain.append("friendly Command unit within five hexes: rounded for the attacker (case J)")
        elif yes("command"):
            rounding = "defender"
            explain.append("enemy Command unit negates the friendly one: rounded for the defender (case J)")
        else:
            rounding = "defender"
            explain.append("rounded for the defender (case I)")
        try:
            col = table.odds(attack, defense, rounding)
        except OddsRefused as exc:
            raise ParameterError(f"{exc}: below 1-2 an attack is non-viable (cen:basic.combat, cen:full.defensive-fire)",
                                name="attack", rule="cen:basic.combat") from None
        label = getattr(col, "label", "")
        explain.append(f"{attack}:{defense} -> column {label}")
        if modifier:
            explain.append(f"die roll modifier {modifier:+d} (low rolls favour the attacker; clamped to 1-6)")
        dist = table.distribution(attack, defense, modifier=modifier, rounding=rounding)
        return OddsReport(
            title=f"Centurion {crt}: {attack} vs {defense} at {label}",
            distribution=dist,
            explain=tuple(explain),
            rules=(("cen:basic.combat",) + tuple(r for r in table.rules if r != "cen:basic.combat")) if crt == "melee"
            else tuple(table.rules),
            legend=dict(table.codes),
        )


def _destination_scores(state: CenturionState, decision: Decision,
                        choices: Iterable[tuple[str, Any]]) -> list[float | None]:
    """The greedy heuristic's scores of answers ``(key, option data)`` to a choice of
    destination hex: the nearer the enemy the better, staying half a step worse than
    a move to a hex as near, another unit instead last, an unknown hex ``None``."""
    choices = list(choices)
    unit = state.units.get(decision.context.get("unit", ""))
    if unit is None:
        return [0.0] * len(choices)
    dist = _enemy_distance(state, unit.side)
    out: list[float | None] = []
    for key, h in choices:
        if key == "stay":
            out.append(-float(dist.get(unit.hex, 99)) - 0.5)  # type: ignore[arg-type]
        elif key == "back":
            out.append(-1000.0)
        else:
            if not isinstance(h, Hex):  # a destination option's data is its Hex
                try:
                    h = state.hex_of(key)
                except ValueError:
                    out.append(None)
                    continue
            out.append(-float(dist.get(h, 99)))
    return out


def _enemy_distance(state: CenturionState, side: str) -> dict[Hex, int]:
    """Hex -> steps to the nearest enemy unit (ignoring terrain), cached per state revision."""
    cache = state.extra.get(ENEMY_DISTANCE)
    got = cache.get(side) if cache is not None else None
    if got is not None and got[0] == state.rev:
        return got[1]
    enemy = state.opponent(side)
    frontier = list(state.occupied_by(enemy))
    num = state.numbering
    # The distances depend only on the map and the enemy's hexes, which stay put through
    # a whole Movement Phase of the other side (and recur across a search's copies).
    where = (id(num), frozenset(frontier))
    known = _DISTANCES.get(where)
    if known is not None and known[0] is num:
        state.extra[ENEMY_DISTANCE] = {**(cache or {}), side: (state.rev, known[1])}
        return known[1]
    dist: dict[Hex, int] = {h: 0 for h in frontier}
    adjacent = _map_neighbours(num)
    d = 0
    while frontier:
        d += 1
        nxt = []
        for h in frontier:
            near = adjacent.get(h)
            for n in near if near is not None else (n for n in h.neighbors() if n in num):
                if n not in dist:
                    dist[n] = d
                    nxt.append(n)
        frontier = nxt
    # A new dict every time, never changed once stored: state copies share it (SHARED_EXTRA).
    state.extra[ENEMY_DISTANCE] = {**(cache or {}), side: (state.rev, dist)}
    if len(_DISTANCES) >= 4096:
        _DISTANCES.clear()
    _DISTANCES[where] = (num, dist)
    return dist


_DISTANCES: dict[tuple[int, frozenset[Hex]], tuple[Any, dict[Hex, int]]] = {}
"""(id of a map's numbering, the enemy's hexes) -> (that numbering, hex -> steps to the
nearest of them): the same enemy positions give the same distances, whatever the state."""


_NEIGHBOURS: dict[int, tuple[Any, dict[Hex, tuple[Hex, ...]]]] = {}
"""id of a map's numbering -> (the numbering, hex -> its neighbours on the map in direction order)."""


def _map_neighbours(num: Any) -> dict[Hex, tuple[Hex, ...]]:
    """Each hex of the map and its neighbours on the map, in direction order (the
    order ``Hex.neighbors`` gives, so a search over it visits hexes as before);
    built once per map, for the greedy heuristic's distances."""
    got = _NEIGHBOURS.get(id(num))
    if got is not None and got[0] is num:
        return got[1]
    table: dict[Hex, tuple[Hex, ...]] = {h: tuple(n for n in h.neighbors() if n in num) for h in num.hexes()}
    _NEIGHBOURS[id(num)] = (num, table)
    return table


ENEMY_DISTANCE = "_enemy_dist"
"""``state.extra`` key of the greedy heuristic's cache: side -> (``state.rev``, hex -> steps)."""
SHARED_EXTRA.add(ENEMY_DISTANCE)


def sandbox_state(
    units: list[tuple[str, str, str] | tuple[str, str, str, str]],
    *,
    version: str = "basic",
    sides: tuple[str, str] = ("red", "blue"),
    columns: int = 12,
    rows: int = 12,
    terrain: Mapping[str, str] | None = None,
    features: Mapping[tuple[str, str], list[str]] | None = None,
    store: DataStore | None = None,
    options: Mapping[str, Any] | None = None,
) -> CenturionState:
    """A small hand-made position with the real unit types and charts.

    For tests, tools and teaching: ``units`` lists ``(side, type, hex ID[,
    facing name])``; ``terrain`` maps hex IDs to terrain names; ``features``
    maps hex-ID pairs to hexside features. The first side moves first.
    """
    store = store or DataStore(CenturionGame.package)
    data = load_all(store)
    num = Numbering("flat", "even", columns, rows)
    hexmap = HexMap.build(
        num,
        terrain={num.from_id(k): v for k, v in (terrain or {}).items()},
        features={Hexside.between(num.from_id(a), num.from_id(b)): f for (a, b), f in (features or {}).items()},
    )
    meta = Meta(id="centurion.sandbox", source="reconstructed", note="hand-made position")
    zone = model.DeploymentZone(centre=num.to_id(Hex(0, 0)))
    sc = model.Scenario(
        meta=meta, id="sandbox", title="Sandbox", year="", game=model.GameVersion(version),
        first_player=sides[0], deploys_first=sides[1], turns=10, min_turns=0, map="", options=(),
        civil_war=False, fight_to_death=False, deployment_note="", special_rules=(), notes="",
        sides=tuple(model.Side(id=s, name=s.capitalize(), order_of_battle={}, units=(), point_value=0,
                               panic_threshold=0, zone=zone) for s in sides),
    )
    state = build_state(sc, hexmap, data["types"], data["capability"], data["terrain"], options)
    counters: dict[tuple[str, str], int] = {}
    for entry in units:
        side, code, hex_id = entry[0], entry[1], entry[2]
        face = entry[3] if len(entry) > 3 else "N"
        n = counters.get((side, code), 0) + 1
        counters[(side, code)] = n
        u = Unit(id=f"{side[:3].upper()}-{code}{n:02d}", side=side, type=code, hex=None,
                 facing=num.direction_from_name(face))
        state.place(u, num.from_id(hex_id))
        state.start_units[side] = state.start_units.get(side, 0) + 1
        state.start_points[side] = state.start_points.get(side, 0) + data["types"][code].points
    state.active = sides[0]
    state.player_turn = 1
    return state
