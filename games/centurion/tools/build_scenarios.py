"""Rebuild ``data/scenarios/*.toml``: Centurion's Basic Game deployments and chart scenarios.

Run from the repository root (after ``build_map.py`` if the map changed)::

    python3 games/centurion/tools/build_scenarios.py

Orders of battle are written below, per army, with the reasoning for each.
Only the Roman row of Numidia is printed (3 CM, 20 SD, 10 SK, 8 LC; PV 153,
PT 60, Strategic); everything else is reconstructed (see
docs/games/centurion-reconstruction.md). Point values and panic thresholds
are computed with ``model.point_value`` / ``model.panic_threshold`` (the
formula reproduces the printed row). Starting hexes are laid out by a simple
deployment routine that follows cen:full.deployment: the side deploying first
within five hexes of its centre of mass; the other side at least eight and at
most twelve hexes from the nearest enemy unit, facing it; stacking limits per
unit type (cen:full.stacking), three per hex in the Basic Game.
"""

from __future__ import annotations

import importlib.util
import sys
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
GAME = HERE.parent
ROOT = GAME.parent.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

from hexmath import distance, hex_id, parse_id  # noqa: E402

_spec = importlib.util.spec_from_file_location("_centurion_model", GAME / "model.py")
assert _spec and _spec.loader
model = importlib.util.module_from_spec(_spec)
sys.modules["_centurion_model"] = model
_spec.loader.exec_module(model)

COLUMNS, ROWS = 30, 20
OUT = GAME / "data" / "scenarios"

MAP = tomllib.loads((GAME / "data" / "map.toml").read_text(encoding="utf-8"))
REGIONS: dict[str, set[str]] = {k: set(v) for k, v in MAP["regions"].items()}
UNITS_DOC = tomllib.loads((GAME / "data" / "units.toml").read_text(encoding="utf-8"))
TYPES = {u["code"]: u for u in UNITS_DOC["unit"]}

HEAVY_FOOT = {"SD", "SD-I", "SD-III", "SDN", "BI", "SP", "PK", "DSD"}
LIGHT_FOOT = {"SK", "LI", "AR", "SL", "DSK"}
CAVALRY = {"BC", "BHC", "BCL", "OC", "LC"}

LI = "cen:rom.legion-integrity"
BW = "cen:barb.warrior"
BT = "cen:barb.tribe"
BCR = "cen:barb.cavalry"
NR = "cen:opt.non-roman-swordsmen"
DL = "cen:rom.declining"
GR = "cen:rom.green"
SPR = "cen:opt.spearmen"
TR = "cen:full.treachery"
MD = "cen:opt.mount-dismount"
EW = "cen:opt.earthworks"
CMD = "cen:opt.command"

SE_NOTE = "Deploy in Southeast quadrant; first group deploys first, second moves first."
ALL_LEVELS = ["marginal", "tactical", "strategic"]


def side(
    sid: str,
    name: str,
    units: list[tuple[str, int, str]],
    *,
    levels: list[str],
    note: str,
    options: tuple[str, ...] = (),
    source: str = "reconstructed",
    confidence: str = "L",
    centre: str,
    axis: str,
    region: str | set[str] | None = None,
    exclude: tuple[str, ...] = ("east-bank",),
    entry: tuple[str, ...] = (),
    earthworks: int = 0,
    zone_note: str = "",
) -> dict[str, object]:
    return dict(
        id=sid, name=name, units=units, levels=levels, note=note, options=list(options), source=source,
        confidence=confidence, centre=centre, axis=axis, region=region, exclude=exclude, entry=list(entry),
        earthworks=earthworks, zone_note=zone_note,
    )


# --------------------------------------------------------------------------- scenarios
# Units: (type, count, group). Group "*" = the Supreme Command Unit; "I"/"II"/"III" = legion
# or tribe (cen:rom.legion-integrity, cen:barb.tribe); "" = none (light troops and cavalry
# move with the Supreme Command Unit, cen:opt.command H).

SCENARIOS: list[dict[str, object]] = [
    # ------------------------------------------------------------------ Basic Game
    dict(
        id="basic-servile-war", title="Servile War", year="71 BC", game="basic", turns=10,
        first="romans", deploys_first="rebels",
        deployment_note="Servile War 71 BC (Romans, move first; Spartacus and the Rebels). Each counter shown represents a stack of THREE units (arrowed counters: TWO); each Command unit one counter.",
        notes="Basic Game deployment from the diagram labels; the diagram itself is not in our text, so positions are reconstructed as two facing lines in the centre of the map.",
        sides=[
            side("romans", "Romans (Crassus)", [("CM", 1, "*"), ("SD", 18, ""), ("SK", 3, ""), ("LC", 3, "")],
                 levels=[], note="Six stacks of Swordsmen, one of Skirmishers, one of Light Cavalry, and the commander: Crassus' legions in the proportion of the chart scenarios (reconstructed, L).",
                 centre="1514", axis="N"),
            side("rebels", "Spartacus and the Rebels", [("CM", 1, "*"), ("BI", 12, ""), ("SP", 6, ""), ("SK", 6, ""), ("LC", 2, "")],
                 levels=[], note="Gallic and German rebels as Barbarian Infantry, Thracians and other escaped slaves as Spearmen and Skirmishers, a stack of two horse (reconstructed, L).",
                 centre="1506", axis="S"),
        ],
    ),
    dict(
        id="basic-gaul", title="Gaul", year="57 BC", game="basic", turns=10,
        first="romans", deploys_first="gauls",
        deployment_note="Gaul 57 BC (Caesar, move first; the Gauls). Each counter shown represents a stack of THREE units (arrowed counters: TWO); each Command unit one counter.",
        notes="Basic Game deployment; the Gauls hold the north-central hills, as in the chart scenario's note for Gaul.",
        sides=[
            side("romans", "Caesar", [("CM", 1, "*"), ("SD", 18, ""), ("SK", 3, ""), ("LC", 3, "")],
                 levels=[], note="Six stacks of legionaries with light troops and horse (reconstructed, L).",
                 centre="1611", axis="N"),
            side("gauls", "The Gauls", [("CM", 1, "*"), ("BI", 21, ""), ("SK", 6, ""), ("LC", 3, "")],
                 levels=[], note="Seven stacks of warriors: the Belgic coalition outnumbered Caesar (reconstructed, L).",
                 centre="1603", axis="S", region="north-central-hills-zone"),
        ],
    ),
    dict(
        id="basic-carrhae", title="Carrhae", year="53 BC", game="basic", turns=10,
        first="parthians", deploys_first="romans",
        deployment_note="Carrhae 53 BC (Parthians, move first; Crassus). Each counter shown represents a stack of THREE units (arrowed counters: TWO); each Command unit one counter.",
        notes="Basic Game deployment on the open ground of the south-east.",
        sides=[
            side("parthians", "Parthians (Surena)", [("CM", 1, "*"), ("OC", 15, ""), ("BC", 6, "")],
                 levels=[], note="Five stacks of horse archers and two of cataphracts: Surena's 9,000 horse archers and 1,000 cataphracts (Plutarch), with the cataphracts doubled for playability (L).",
                 centre="1416", axis="E"),
            side("romans", "Crassus", [("CM", 1, "*"), ("SD", 21, ""), ("SK", 3, ""), ("LC", 3, "")],
                 levels=[], note="Seven legions, one stack of light troops and one of Publius' horse (reconstructed, L).",
                 centre="2216", axis="W"),
        ],
    ),
    dict(
        id="basic-civil-war", title="Basic Game: Hypothetical Civil War", year="", game="basic", turns=10,
        first="loyalists", deploys_first="rebels",
        deployment_note="Basic Game, Hypothetical Civil War (Loyalists, move first; Rebels). Each counter shown represents a stack of THREE units (arrowed counters: TWO); each Command unit one counter.",
        notes="The introductory Basic Scenario: two Roman armies of nearly equal strength, the Rebels' horse against the Loyalists' light infantry.",
        sides=[
            side("loyalists", "Loyalists", [("CM", 1, "*"), ("SD", 15, ""), ("SK", 6, ""), ("LC", 3, "")],
                 levels=[], note="Five stacks of Swordsmen, two of Skirmishers, one of Light Cavalry (reconstructed, L).",
                 centre="1515", axis="N"),
            side("rebels", "Rebels", [("CM", 1, "*"), ("SD", 15, ""), ("SK", 3, ""), ("LC", 6, "")],
                 levels=[], note="Five stacks of Swordsmen, one of Skirmishers, two of Light Cavalry (reconstructed, L).",
                 centre="1507", axis="S"),
        ],
    ),
    # ------------------------------------------------------------------ Scenario Chart
    dict(
        id="numidia", title="Numidia", year="106 BC", game="full", turns=12,
        first="numidians", deploys_first="romans",
        deployment_note=SE_NOTE,
        notes="Marius against Jugurtha and Bocchus near Cirta. The Roman row is printed.",
        sides=[
            side("romans", "Romans", [("CM", 1, "*"), ("CM", 1, "I"), ("CM", 1, "II"), ("SD", 10, "I"), ("SD", 10, "II"), ("SK", 10, ""), ("LC", 8, "")],
                 levels=["strategic"], source="rulebook", confidence="H",
                 note="Printed row: CM 3, SD 20, SK 10, LC 8; PV 153; PT 60; victory mark under St. Division into two legions under the two subordinate commanders is ours (legion integrity is required).",
                 centre="2116", axis="N", region="SE"),
            side("numidians", "Numidians", [("CM", 1, "*"), ("CM", 1, ""), ("SP", 6, ""), ("SK", 14, ""), ("LC", 20, "")],
                 levels=["marginal"],
                 note="Jugurtha and Bocchus: Sallust's armies were mostly Numidian and Moorish light horse with javelin foot; 20 LC, 14 SK and 6 SP at about 600 men a counter (about 24,000), two commanders. PV 102 against the printed 153, offset by needing only a Marginal victory (L).",
                 centre="2105", axis="S"),
        ],
    ),
    dict(
        id="vercellae", title="Vercellae", year="101 BC", game="full", turns=12,
        first="cimbri", deploys_first="romans",
        deployment_note=SE_NOTE,
        notes="Marius and Catulus against the Cimbri on the Raudine Plain.",
        sides=[
            side("romans", "Romans", [("CM", 1, "*"), ("CM", 1, "I"), ("CM", 1, "II"), ("SD", 12, "I"), ("SD", 12, "II"), ("SK", 6, ""), ("LC", 6, "")],
                 levels=["tactical"],
                 note="Marius (about 32,000) and Catulus (about 20,000): some 52,000 men. 36 combat counters at about 1,400 men, the proportion kept against the Cimbri (L).",
                 centre="2315", axis="W", region="SE"),
            side("cimbri", "Cimbri", [("CM", 1, "*"), ("CM", 1, "I"), ("CM", 1, "II"), ("BI", 13, "I"), ("BI", 13, "II"), ("SK", 4, ""), ("BHC", 6, "")],
                 levels=["marginal"], options=(BW, BT, BCR),
                 note="Boiorix's host (ancient claims of 100,000+; modern estimates far lower) with 15,000 armoured horse (Plutarch): 26 BI, 4 SK and 6 Barbarian Heavy Cavalry ('bc') at the same scale; two tribal commands (L).",
                 centre="1215", axis="E"),
        ],
    ),
    dict(
        id="servile-war", title="Servile War", year="71 BC", game="full", turns=12,
        first="rebels", deploys_first="romans",
        deployment_note=SE_NOTE,
        notes="Crassus against Spartacus at the Silarius river.",
        sides=[
            side("romans", "Romans", [("CM", 1, "*"), ("CM", 1, "I"), ("CM", 1, "II"), ("SD", 12, "I"), ("SD", 12, "II"), ("SK", 6, ""), ("LC", 4, "")],
                 levels=["tactical"],
                 note="Crassus' eight legions (about 40,000 with auxiliaries): 34 combat counters at about 1,200 men (L).",
                 centre="2016", axis="N", region="SE"),
            side("rebels", "Rebels", [("CM", 1, "*"), ("CM", 1, ""), ("BI", 14, ""), ("SDN", 8, ""), ("SP", 6, ""), ("SK", 8, ""), ("LC", 4, "")],
                 levels=["marginal"], options=(NR, BW),
                 note="Spartacus' army (perhaps 30,000-40,000): Gauls and Germans as BI, trained gladiators with captured Roman arms as Non-Roman Swordsmen ('nr'), Thracians and others as Spearmen and Skirmishers, a few horse (L).",
                 centre="1906", axis="S"),
        ],
    ),
    dict(
        id="lycus", title="Lycus", year="66 BC", game="full", turns=12,
        first="pontics", deploys_first="romans",
        deployment_note=SE_NOTE,
        notes="Pompey against Mithridates VI of Pontus near the Lycus (Nicopolis).",
        sides=[
            side("romans", "Romans", [("CM", 1, "*"), ("CM", 1, "I"), ("CM", 1, "II"), ("SD", 10, "I"), ("SD", 10, "II"), ("SK", 6, ""), ("LC", 6, "")],
                 levels=["strategic"],
                 note="Pompey's army (perhaps 40,000-50,000) at about 1,400 men a counter (L).",
                 centre="2017", axis="N", region="SE"),
            side("pontics", "Pontic army", [("CM", 1, "*"), ("CM", 1, ""), ("PK", 10, ""), ("SDN", 4, ""), ("SK", 10, ""), ("LC", 4, ""), ("OC", 2, "")],
                 levels=["marginal"], options=(SPR, NR),
                 note="Mithridates' 30,000 foot and 2,000-3,000 horse (Appian): a pike phalanx (Spearmen as Pikemen), Roman-style swordsmen he had raised ('nr'), many light troops, Armenian/Scythian horse archers (L).",
                 centre="1707", axis="S"),
        ],
    ),
    dict(
        id="carrhae", title="Carrhae", year="53 BC", game="full", turns=12,
        first="parthians", deploys_first="romans",
        deployment_note=SE_NOTE + " (The Romans row.)",
        notes="Crassus against Surena. The Basic Game deployment also has the Parthians moving first.",
        sides=[
            side("romans", "Romans", [("CM", 1, "*"), ("CM", 1, "I"), ("CM", 1, "II"), ("SD", 12, "I"), ("SD", 12, "II"), ("SK", 6, ""), ("LC", 6, "")],
                 levels=["tactical"],
                 note="Seven legions (about 34,000) with 4,000 horse and 4,000 light troops (Plutarch): 36 combat counters at about 1,200 men (L).",
                 centre="2215", axis="W", region="SE"),
            side("parthians", "Parthians", [("CM", 1, "*"), ("CM", 1, ""), ("OC", 18, ""), ("BC", 4, "")],
                 levels=["marginal"],
                 note="Surena's 9,000 horse archers and 1,000 cataphracts: horse archers at 500 a counter, cataphracts at 250 (their armour and the camel-borne arrow supply are what made them count). Cataphracts use the BC counters (L).",
                 centre="1214", axis="E"),
        ],
    ),
    dict(
        id="gaul", title="Gaul", year="57 BC", game="full", turns=12,
        first="nervii", deploys_first="nervii",
        deployment_note="Nervii deploy first, facing south along hills in north-central portion of the board. Romans move second.",
        notes="Caesar against the Nervii, Atrebates and Viromandui at the Sabis.",
        sides=[
            side("nervii", "Nervii and allies", [("CM", 1, "*"), ("CM", 1, "I"), ("CM", 1, "II"), ("CM", 1, "III"), ("BI", 10, "I"), ("BI", 8, "II"), ("BI", 6, "III"), ("SK", 6, "")],
                 levels=["marginal"], options=(BT, BW),
                 note="Three tribes (Nervii, Atrebates, Viromandui) under Boduognatus: Barbarian Tribe Rule with three chiefs; about 35,000-60,000 men, kept in proportion to Caesar's eight legions (L).",
                 centre="1603", axis="S", region="north-central-hills-zone", exclude=()),
            side("romans", "Romans", [("CM", 1, "*"), ("CM", 1, "I"), ("CM", 1, "II"), ("SD", 12, "I"), ("SD", 12, "II"), ("SK", 4, ""), ("LC", 4, "")],
                 levels=["tactical"],
                 note="Caesar's eight legions (about 32,000-40,000) with light troops and horse, at about 1,400 men a counter (L).",
                 centre="1614", axis="N"),
        ],
    ),
    dict(
        id="pharsalus", title="Pharsalus", year="48 BC", game="full", turns=12,
        first="caesarians", deploys_first="pompeians", civil_war=True, fight_to_death=True,
        deployment_note="Civil War. Fight to the death.",
        notes="Caesar against Pompey. Green Roman Rule: Caesar's veterans are the I Legion, Pompey's raw levies the III.",
        special=["Civil War: loss of the Supreme Command Unit is an automatic victory for the other side (cen:opt.command G).", "Fight to the death: no concession and no early end by declaration; play all turns (our reading)."],
        sides=[
            side("pompeians", "Pompeians", [("CM", 1, "*"), ("CM", 1, "II"), ("CM", 1, "III"), ("SD", 18, "II"), ("SD-III", 12, "III"), ("SK", 4, ""), ("LC", 6, "")],
                 levels=ALL_LEVELS, options=(GR,),
                 note="Pompey: about 45,000 foot and 7,000 horse, many of them new levies, at about 1,400 men a counter (L).",
                 centre="1514", axis="N"),
            side("caesarians", "Caesarians", [("CM", 1, "*"), ("CM", 1, "I"), ("CM", 1, "II"), ("SD-I", 8, "I"), ("SD", 8, "II"), ("SK", 2, ""), ("LC", 2, "")],
                 levels=ALL_LEVELS, options=(GR,),
                 note="Caesar: about 22,000 foot, 1,000 horse, veterans of Gaul (Green Roman Rule I Legion), same scale (L).",
                 centre="1504", axis="S"),
        ],
    ),
    dict(
        id="philippi", title="Philippi", year="42 BC", game="full", turns=12,
        first="triumvirs", deploys_first="senators", civil_war=True, fight_to_death=True,
        deployment_note="Civil War. Senators deploy around town, facing south. Triumvires move first. Fight to the death.",
        notes="Antony and Octavian against Brutus (second battle).",
        special=["Civil War: loss of the Supreme Command Unit is an automatic victory for the other side (cen:opt.command G).", "Fight to the death: no concession and no early end by declaration; play all turns (our reading)."],
        sides=[
            side("senators", "Senators (Liberators)", [("CM", 1, "*"), ("CM", 1, "I"), ("CM", 1, "II"), ("SD", 13, "I"), ("SD", 13, "II"), ("SK", 6, ""), ("LC", 6, "")],
                 levels=ALL_LEVELS,
                 note="Brutus and Cassius' 17 legions (about 80,000-90,000 with horse), in proportion with the Triumvirs at about 3,000 men a counter (L).",
                 centre="2206", axis="S", region="town-zone"),
            side("triumvirs", "Triumvirs", [("CM", 1, "*"), ("CM", 1, "I"), ("CM", 1, "II"), ("SD", 14, "I"), ("SD", 14, "II"), ("SK", 4, ""), ("LC", 6, "")],
                 levels=ALL_LEVELS,
                 note="Antony and Octavian's 19 legions and horse, slightly stronger in foot (L).",
                 centre="2116", axis="N"),
        ],
    ),
    dict(
        id="teutoburgerwald", title="Teutoburgerwald", year="AD 9", game="full", turns=12,
        first="romans", deploys_first="germans",
        deployment_note="Germans deploy in area of the hills and forest in NW corner of board, on the north side. Romans must enter between hills flanking NW corner.",
        notes="Varus' column ambushed by Arminius. The Romans start strung along the forest road just inside the entry between the flanking hills, moving first (reconstruction of 'must enter'); a placement phase may instead bring them on through the entry hexes.",
        sides=[
            side("germans", "Germans", [("CM", 1, "*"), ("CM", 1, "I"), ("CM", 1, "II"), ("CM", 1, "III"), ("BI", 8, "I"), ("BI", 6, "II"), ("BI", 6, "III"), ("SK", 8, "")],
                 levels=["marginal"], options=(BT,),
                 note="Arminius' Cherusci with Marsi, Chatti and Bructeri: Barbarian Tribe Rule; perhaps 15,000-25,000 men (L).",
                 centre="0503", axis="S", region="teutoburg-germans", exclude=()),
            side("romans", "Romans", [("CM", 1, "*"), ("CM", 1, "I"), ("CM", 1, "II"), ("CM", 1, "III"), ("SD", 6, "I"), ("SD", 6, "II"), ("SD", 6, "III"), ("SK", 4, ""), ("LC", 3, "")],
                 levels=["tactical"],
                 note="Legions XVII, XVIII and XIX (as I, II, III) with six auxiliary cohorts and three alae, about 15,000-20,000 fighting men, at about 700 men a counter (L).",
                 centre="0508", axis="E", region="teutoburg-romans", exclude=(), entry=("0105", "0106", "0107", "0108", "0109")),
        ],
    ),
    dict(
        id="boudicca", title="Boudicca", year="AD 60", game="full", turns=12,
        first="britons", deploys_first="romans",
        deployment_note="Romans deploy between hills in central portion of map, facing South.",
        notes="Suetonius Paulinus against Boudicca (Watling Street).",
        sides=[
            side("romans", "Romans", [("CM", 1, "*"), ("CM", 1, "I"), ("SD", 14, "I"), ("SK", 6, ""), ("LC", 4, "")],
                 levels=["strategic"],
                 note="Legio XIV with part of XX and auxiliaries, about 10,000 men: 24 combat counters at about 420 men, inside the book's 360-600 rule of thumb; one legion command (L).",
                 centre="1509", axis="S", region="central-zone"),
            side("britons", "Britons", [("CM", 1, "*"), ("CM", 1, "I"), ("CM", 1, "II"), ("CM", 1, "III"), ("BI", 10, "I"), ("BI", 8, "II"), ("BI", 8, "III"), ("SK", 6, ""), ("LC", 4, "")],
                 levels=["marginal"], options=(BW, BT),
                 note="Iceni, Trinovantes and others (ancient claims of 100,000-230,000): far too many for the map; 36 combat counters keep a 3:2 counter edge and nearly double the points, with chariots as Light Cavalry (L).",
                 centre="1518", axis="N", exclude=()),
        ],
    ),
    dict(
        id="mons-graupius", title="Mons Graupius", year="AD 83", game="full", turns=12,
        first="romans", deploys_first="caledonians",
        deployment_note="Picts deploy facing East on any hill with clear terrain before it.",
        notes="Agricola against Calgacus. The Caledonians hold the south-west hill.",
        sides=[
            side("caledonians", "Picts (Caledonians)", [("CM", 1, "*"), ("CM", 1, ""), ("CM", 1, ""), ("BI", 22, ""), ("SK", 6, ""), ("LC", 4, "")],
                 levels=["marginal"], options=(BW,),
                 note="Tacitus' 30,000 Caledonians with chariots (as Light Cavalry), about 900 men a counter (L).",
                 centre="0515", axis="E", exclude=()),
            side("romans", "Romans", [("CM", 1, "*"), ("CM", 1, "I"), ("CM", 1, ""), ("SD", 12, "I"), ("SDN", 8, ""), ("SK", 4, ""), ("LC", 8, "")],
                 levels=["strategic"], options=(NR,),
                 note="8,000 auxiliary foot (Batavian and Tungrian sword-armed cohorts as Non-Roman Swordsmen), 3,000-5,000 horse, the legions in reserve: about 25,000 (L).",
                 centre="1615", axis="W"),
        ],
    ),
    dict(
        id="ctesiphon", title="Ctesiphon", year="AD 363", game="full", turns=12,
        first="persians", deploys_first="romans",
        deployment_note="Deploy in Southeast quadrant; first group deploys first, second moves first.",
        notes="Julian against the Sassanid army before Ctesiphon.",
        sides=[
            side("romans", "Romans", [("CM", 1, "*"), ("CM", 1, "I"), ("CM", 1, "II"), ("SD", 12, "I"), ("SD", 12, "II"), ("SK", 6, ""), ("LC", 6, "")],
                 levels=["tactical"], options=(DL,),
                 note="Julian's field army (the expedition numbered about 65,000) at about 1,500 men a counter; late legions without relief ('dl') (L).",
                 centre="2116", axis="N", region="SE"),
            side("persians", "Persians", [("CM", 1, "*"), ("CM", 1, ""), ("CM", 1, ""), ("BC", 10, ""), ("OC", 10, ""), ("SP", 10, ""), ("SK", 8, "")],
                 levels=["marginal"],
                 note="Sassanid clibanarii (BC counters), horse archers, infantry levies and archers (L).",
                 centre="2206", axis="S"),
        ],
    ),
    dict(
        id="hadrianopolis", title="Hadrianopolis", year="AD 378", game="full", turns=12,
        first="goths", deploys_first="romans",
        deployment_note="Deploy in Southeast quadrant; first group deploys first, second moves first.",
        notes="Valens against Fritigern; the Gothic cavalry's return decided the day.",
        sides=[
            side("romans", "Romans", [("CM", 1, "*"), ("CM", 1, "I"), ("CM", 1, "II"), ("SD", 9, "I"), ("SD", 9, "II"), ("SK", 6, ""), ("LC", 4, ""), ("BC", 4, "")],
                 levels=["marginal"], options=(DL,),
                 note="Valens' 15,000-30,000 men: late legions ('dl'), archers, light and heavy (BC counters) horse (L).",
                 centre="2315", axis="W", region="SE"),
            side("goths", "Goths", [("CM", 1, "*"), ("CM", 1, "I"), ("CM", 1, "II"), ("BI", 10, "I"), ("BI", 10, "II"), ("BHC", 8, ""), ("SK", 6, "")],
                 levels=["tactical"], options=(BT, BCR),
                 note="Tervingi foot under Fritigern, Greuthungi and Alan horse under Alatheus and Saphrax (Barbarian Cavalry 'bc'), tribes kept apart ('bt') (L).",
                 centre="1315", axis="E"),
        ],
    ),
    dict(
        id="campus-mauriacus", title="Campus Mauriacus", year="AD 451", game="full", turns=12,
        first="huns", deploys_first="romans",
        deployment_note="Deploy in Southeast quadrant; first group deploys first, second moves first.",
        notes="Aetius and Theodoric against Attila (the Catalaunian Plains).",
        sides=[
            side("romans", "Romans and Visigoths", [("CM", 1, "*"), ("CM", 1, "I"), ("CM", 1, ""), ("SD", 10, "I"), ("BI", 10, ""), ("BHC", 6, ""), ("LC", 4, ""), ("SK", 4, "")],
                 levels=["marginal"], options=(DL, BCR),
                 note="Aetius' Romans ('dl'), Theodoric's Visigoths (BI and Barbarian Heavy Cavalry), Sangiban's Alans as Light Cavalry (L).",
                 centre="1916", axis="N", region="SE"),
            side("huns", "Huns and subjects", [("CM", 1, "*"), ("CM", 1, "I"), ("CM", 1, "II"), ("OC", 12, ""), ("BI", 6, "I"), ("BI", 6, "II"), ("BHC", 6, ""), ("SK", 4, "")],
                 levels=["marginal"], options=(BT, BCR),
                 note="Attila's Hun horse archers (Oriental Cavalry), Gepids under Ardaric and Ostrogoths under Valamir as tribes ('bt'), Gothic heavy horse ('bc') (L).",
                 centre="1806", axis="S"),
        ],
    ),
    dict(
        id="daras", title="Daras", year="AD 530", game="full", turns=12,
        first="persians", deploys_first="romans",
        deployment_note="Romans deploy about town, facing South. Persians move first. Romans may deploy up to six earthworks.",
        notes="Belisarius against Perozes before Dara.",
        special=["Romans may deploy up to six earthworks (side.earthworks lists them) (cen:opt.earthworks)."],
        sides=[
            side("romans", "Romans (Byzantines)", [("CM", 1, "*"), ("CM", 1, ""), ("CM", 1, ""), ("SP", 8, ""), ("SK", 6, ""), ("BC", 10, ""), ("OC", 3, ""), ("LC", 2, "")],
                 levels=["marginal"], options=(EW, SPR),
                 note="Belisarius: 10,000 foot, 15,000 horse (Procopius): spear-armed infantry behind the ditches, archers, cataphract cavalry, Hun horse archers (OC) and Heruli (LC) (L).",
                 centre="2207", axis="S", region="town-zone", earthworks=6),
            side("persians", "Persians", [("CM", 1, "*"), ("CM", 1, ""), ("CM", 1, ""), ("BC", 10, ""), ("OC", 8, ""), ("SP", 12, ""), ("SK", 8, "")],
                 levels=["tactical"], options=(SPR,),
                 note="Perozes' 40,000 + 10,000 (Procopius): Immortals and clibanarii (BC), horse archers, infantry levies, archers (L).",
                 centre="2217", axis="N"),
        ],
    ),
    dict(
        id="busta-gallorum", title="Busta Gallorum", year="AD 552", game="full", turns=12,
        first="goths", deploys_first="romans",
        deployment_note="Romans deploy facing East on any hill with clear terrain before it.",
        notes="Narses against Totila (Taginae). Narses' Lombard and Herul horsemen fought dismounted in the centre (Mount/Dismount Rule, horses off-map).",
        sides=[
            side("romans", "Romans (Byzantines)", [("CM", 1, "*"), ("CM", 1, ""), ("CM", 1, ""), ("DSD", 10, ""), ("SK", 8, ""), ("BC", 8, "")],
                 levels=["tactical"], options=(MD,),
                 note="Narses (20,000-25,000 by most estimates, nearly all mounted): 5,000 Lombards and 3,000 Heruli fighting dismounted in the centre as DSD, 8,000 foot archers in two wings of 4,000 as SK, cataphract horse behind the archers and in reserve as BC; about 800 men a counter (L).",
                 centre="1109", axis="E", region=None),
            side("goths", "Ostrogoths", [("CM", 1, "*"), ("CM", 1, ""), ("CM", 1, ""), ("BHC", 12, ""), ("BI", 8, ""), ("SK", 2, "")],
                 levels=["marginal"], options=(BCR,),
                 note="Totila's 15,000-20,000: all the lance-armed Gothic horse in the first line (Barbarian Heavy Cavalry, 'bc'), the foot behind, at the same scale (L).",
                 centre="2209", axis="W"),
        ],
    ),
    dict(
        id="fantasy", title="Fantasy", year="", game="full", turns=12,
        first="byzantines", deploys_first="romans",
        deployment_note="Deploy in various areas, with each side taking turns at first deployment.",
        notes="Caesar's legions against Belisarius' army: every counter type of the game. In a return match the Byzantines deploy first.",
        sides=[
            side("romans", "Caesar's legions", [("CM", 1, "*"), ("CM", 1, "I"), ("CM", 1, "II"), ("SD", 12, "I"), ("SD", 12, "II"), ("SK", 6, ""), ("LC", 4, "")],
                 levels=["marginal"],
                 note="A late-Republican army (L).",
                 centre="0814", axis="E", exclude=()),
            side("byzantines", "Belisarius' army", [("CM", 1, "*"), ("CM", 1, ""), ("CM", 1, ""), ("BC", 14, ""), ("SP", 8, ""), ("SK", 8, ""), ("OC", 4, "")],
                 levels=["marginal"], options=(SPR,),
                 note="A sixth-century field army of the same points (L).",
                 centre="1912", axis="W"),
        ],
    ),
]


# --------------------------------------------------------------------------- zones

def all_hexes() -> list[str]:
    return [hex_id(c, r) for r in range(1, ROWS + 1) for c in range(1, COLUMNS + 1)]


NAMED_ZONES: dict[str, set[str]] = {
    "SE": REGIONS["SE"],
    "north-central-hills-zone": {h for h in all_hexes() if parse_id(h)[1] <= 6 and 10 <= parse_id(h)[0] <= 22},
    "town-zone": {h for h in all_hexes() if parse_id(h)[1] <= 10},
    "central-zone": {h for h in all_hexes() if 9 <= parse_id(h)[0] <= 21 and 6 <= parse_id(h)[1] <= 11},
    "teutoburg-germans": {h for h in all_hexes() if parse_id(h)[1] <= 4 and parse_id(h)[0] <= 12},
    "teutoburg-romans": {h for h in all_hexes() if 6 <= parse_id(h)[1] <= 9 and parse_id(h)[0] <= 9},
}


def slot_hex(centre: str, axis: str, k: int, j: int) -> str:
    cc, rc = parse_id(centre)
    if axis == "S":
        c, r = cc + j, rc + 1 - k
    elif axis == "N":
        c, r = cc + j, rc - 1 + k
    elif axis == "E":
        c, r = cc + 1 - k, rc + j
    elif axis == "W":
        c, r = cc - 1 + k, rc + j
    else:
        raise ValueError(axis)
    if not (1 <= c <= COLUMNS and 1 <= r <= ROWS):
        return ""
    return hex_id(c, r)


def facing_for(axis: str, j: int, game: str) -> str:
    if game == "basic":
        return ""
    return {"S": "S", "N": "N"}.get(axis) or {"E": ("NE", "SE"), "W": ("NW", "SW")}[axis][0 if j < 0 else 1]


def deploy(sc: dict[str, object], sd: dict[str, object], enemy_hexes: set[str], radius: int) -> tuple[list[dict[str, object]], list[str], list[str]]:
    """Place one side; returns (unit groups, zone hexes, earthworks hexes)."""
    game = str(sc["game"])
    centre = str(sd["centre"])
    axis = str(sd["axis"])
    region = sd["region"]
    zone = {h for h in all_hexes() if distance(h, centre) <= radius}
    if isinstance(region, str):
        zone &= NAMED_ZONES[region]
    for ex in sd["exclude"]:  # type: ignore[union-attr]
        zone -= REGIONS[ex]
    if enemy_hexes:
        lo, hi = (8, 12) if game == "full" else (5, 10)
        if sc["id"] == "teutoburgerwald":
            lo, hi = 2, 12
        zone = {h for h in zone if lo <= min(distance(h, e) for e in enemy_hexes) <= hi}
    if centre not in zone and not enemy_hexes:
        raise SystemExit(f"{sc['id']}/{sd['id']}: centre {centre} outside its zone")

    units: list[tuple[str, int, str]] = sd["units"]  # type: ignore[assignment]
    stacks: dict[str, list[tuple[str, int, str]]] = {"heavy": [], "light": [], "cav": []}
    commanders: list[tuple[str, str]] = []
    for code, count, group in units:
        if code == "CM":
            for _ in range(count):
                commanders.append((code, group))
            continue
        limit = 3 if game == "basic" else int(TYPES[code].get("stack_limit", 3))
        kind = "heavy" if code in HEAVY_FOOT else "light" if code in LIGHT_FOOT else "cav"
        left = count
        while left:
            n = min(limit, left)
            stacks[kind].append((code, n, group))
            left -= n

    used: dict[str, list[tuple[str, int, str, int]]] = {}

    def free(h: str) -> bool:
        return bool(h) and h in zone and h not in used

    placed_j: list[int] = []
    line_of: dict[str, int] = {}

    def put(h: str, st: tuple[str, int, str], k: int, j: int) -> None:
        used[h] = [(st[0], st[1], st[2], j)]
        placed_j.append(j)
        line_of[h] = k

    # heavy foot: contiguous lines from the front, centred on the centre of mass
    heavy = list(stacks["heavy"])
    k = 0
    while heavy and k < 12:
        row = [(j, slot_hex(centre, axis, k, j)) for j in range(-10, 11)]
        row = [(j, h) for j, h in row if free(h)]
        if row:
            row.sort(key=lambda t: abs(t[0]))
            chosen = sorted(row[: len(heavy)], key=lambda t: t[0])
            for j, h in chosen:
                put(h, heavy.pop(0), k, j)
        k += 1
    last_heavy_line = max(line_of.values(), default=0)
    jmin = min(placed_j, default=1)  # no heavy foot: the cavalry line starts at the centre
    jmax = max(placed_j, default=0)

    # cavalry on the wings of the front lines
    cav = list(stacks["cav"])
    side_toggle = 0
    k = 0
    while cav and k < 12:
        left = [(j, slot_hex(centre, axis, k, j)) for j in range(jmin - 1, -12, -1)]
        right = [(j, slot_hex(centre, axis, k, j)) for j in range(jmax + 1, 12)]
        left = [t for t in left if free(t[1])]
        right = [t for t in right if free(t[1])]
        while cav and (left or right):
            pick = (left if side_toggle % 2 == 0 else right) or left or right
            j, h = pick.pop(0)
            put(h, cav.pop(0), k, j)
            side_toggle += 1
        k += 1

    # light foot behind the heavy foot (or in front when there is no room behind)
    light = list(stacks["light"])
    for k in list(range(last_heavy_line + 1, 12)) + list(range(0, last_heavy_line + 1)):
        if not light:
            break
        row = [(j, slot_hex(centre, axis, k, j)) for j in range(-10, 11)]
        row = sorted([t for t in row if free(t[1])], key=lambda t: abs(t[0]))
        for j, h in row:
            if not light:
                break
            put(h, light.pop(0), k, j)
    leftover = heavy + cav + light
    if leftover:
        spare = sorted((h for h in zone if h not in used), key=lambda h: (distance(h, centre), h))
        for st in leftover:
            if not spare:
                raise SystemExit(f"{sc['id']}/{sd['id']}: no room for {st}")
            h = spare.pop(0)
            used[h] = [(st[0], st[1], st[2], 0)]
    if not used:
        raise SystemExit(f"{sc['id']}/{sd['id']}: nothing placed")

    # command units: the supreme with the most central stack of the rearmost occupied line,
    # subordinates with a central stack of their own legion/tribe
    def central(hexes: list[str]) -> str:
        return min(hexes, key=lambda h: (distance(h, centre), h))

    cm_at: list[tuple[str, str]] = []
    for code, group in commanders:
        if group == "*" or group == "":
            pool = [h for h in used if used[h][0][2] in ("", "*")] or list(used)
            if group == "*":
                pool = list(used)
            h = central(pool)
        else:
            pool = [h for h in used if used[h][0][2] == group] or list(used)
            h = central(pool)
        cm_at.append((group, h))

    # earthworks on the most central front-line foot hexes
    ew: list[str] = []
    if sd["earthworks"]:
        foot = [h for h in used if used[h][0][0] in HEAVY_FOOT | LIGHT_FOOT]
        foot.sort(key=lambda h: (line_of.get(h, 99), distance(h, centre)))
        ew = sorted(foot[: int(sd["earthworks"])])  # type: ignore[call-overload]

    # group placements into unit groups: one per (type, group, facing)
    groups: dict[tuple[str, str, str], list[str]] = {}
    order: list[tuple[str, str, str]] = []
    for h in sorted(used, key=lambda h: (line_of.get(h, 99), h)):
        for code, n, group, j in used[h]:
            key = (code, group, facing_for(axis, j, game))
            if key not in groups:
                groups[key] = []
                order.append(key)
            groups[key].extend([h] * n)
    out: list[dict[str, object]] = []
    sup = [h for g, h in cm_at if g == "*"]
    for g, h in cm_at:
        j = 0
        out.append(dict(type="CM", count=1, hexes=[h], facing=facing_for(axis, j if axis in "NS" else parse_id(h)[1] - parse_id(centre)[1], game),
                        group="" if g in ("*", "") else g, supreme=(g == "*")))
    assert len(sup) == 1, f"{sc['id']}/{sd['id']}: exactly one supreme commander expected"
    for key in order:
        code, group, facing = key
        out.append(dict(type=code, count=len(groups[key]), hexes=sorted(groups[key]), facing=facing, group=group, supreme=False))
    return out, sorted(zone), ew


# --------------------------------------------------------------------------- output

def q(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def qlist(items: list[str]) -> str:
    return "[" + ", ".join(q(i) for i in items) + "]"


def wrap_list(items: list[str], per: int = 12) -> str:
    if len(items) <= per:
        return qlist(items)
    chunks = [", ".join(q(i) for i in items[i : i + per]) for i in range(0, len(items), per)]
    return "[\n  " + ",\n  ".join(chunks) + ",\n]"


def render(sc: dict[str, object], placed: list[tuple[dict[str, object], list[dict[str, object]], list[str], list[str], int, int]]) -> str:
    basic = sc["game"] == "basic"
    rules = ["cen:basic.deployment", "cen:basic.victory", "cen:basic.stacking"] if basic else [
        "cen:scenarios", "cen:full.deployment", "cen:full.victory", "cen:full.panic", "cen:full.stacking", LI]
    extra = sorted({o for sd, *_ in placed for o in sd["options"]})  # type: ignore[union-attr]
    rules += [o for o in extra if o not in rules]
    if sc.get("civil_war"):
        rules += [CMD, TR]
    printed = sc["id"] == "numidia"
    note = (
        "Basic Game deployment diagram (cen:basic.deployment): the labels, who moves first and the stacking note are printed (H); "
        "the diagram's positions and the armies are not in our text and are reconstructed (L) as stacks of three. "
        if basic else
        "Scenario Chart row (cen:scenarios). "
        + ("The Roman row is printed (H): CM 3, SD 20, SK 10, LC 8, PV 153, PT 60, Strategic. The Numidian row is reconstructed (L). " if printed else
           "Both rows are reconstructed (L): the chart's cells for this battle are not in our text. ")
        + "The deployment note is printed (H). Turns: no limit is printed; 12 chosen (L), minimum 6 (cen:full.victory). "
    ) + "Point values and panic thresholds follow model.point_value and model.panic_threshold. Starting hexes were laid out by tools/build_scenarios.py. See docs/games/centurion-reconstruction.md."
    lines = [
        "# Generated by games/centurion/tools/build_scenarios.py -- edit the script, then rerun it.",
        "[meta]",
        f'id = "centurion.scenario.{sc["id"]}"',
        f'title = {q(str(sc["title"]) + (" (" + str(sc["year"]) + ")" if sc["year"] else ""))}',
        'source = "reconstructed"',
        f"rules = {qlist(rules)}",
        f"note = {q(note)}",
        'sources = ["Centurion rulebook text (cen:scenarios, cen:basic.deployment)", "MISSING_DATA.md, Centurion section", "historical army sizes: see each side note and docs/games/centurion-reconstruction.md"]',
        "",
        "[scenario]",
        f'id = {q(str(sc["id"]))}',
        f'title = {q(str(sc["title"]))}',
        f'year = {q(str(sc["year"]))}',
        f'game = {q(str(sc["game"]))}',
        f'first_player = {q(str(sc["first"]))}',
        f'deploys_first = {q(str(sc["deploys_first"]))}',
        f'turns = {sc["turns"]}',
        f'min_turns = {10 if basic else 6}',
        'map = "map.toml"',
        f"options = {qlist([] if basic else [LI])}",
        f'civil_war = {"true" if sc.get("civil_war") else "false"}',
        f'fight_to_death = {"true" if sc.get("fight_to_death") else "false"}',
        f'deployment_note = {q(str(sc["deployment_note"]))}',
        f'special_rules = {qlist(list(sc.get("special", [])))}',  # type: ignore[arg-type]
        f'notes = {q(str(sc["notes"]))}',
        "",
    ]
    for sd, groups, zone, ew, pv, pt in placed:
        ob: dict[str, int] = {}
        for code, count, _ in sd["units"]:  # type: ignore[union-attr]
            ob[code] = ob.get(code, 0) + count
        lines += [
            "[[side]]",
            f'id = {q(str(sd["id"]))}',
            f'name = {q(str(sd["name"]))}',
            f"point_value = {pv}",
            f"panic_threshold = {pt}",
            f'victory_levels = {qlist(list(sd["levels"]))}',  # type: ignore[arg-type]
            f'options = {qlist(list(sd["options"]))}',  # type: ignore[arg-type]
            f'source = {q(str(sd["source"]))}',
            f'confidence = {q(str(sd["confidence"]))}',
        ]
        if sd["entry"]:
            lines.append(f'entry_hexes = {qlist(list(sd["entry"]))}')  # type: ignore[arg-type]
        if ew:
            lines.append(f"earthworks = {qlist(ew)}")
        lines.append(f'note = {q(str(sd["note"]))}')
        lines.append("order_of_battle = { " + ", ".join(f'{q(k)} = {v}' for k, v in ob.items()) + " }")
        lines.append("")
        lines += [
            "[side.zone]",
            f'centre = {q(str(sd["centre"]))}',
            "radius = 5",
            f"hexes = {wrap_list(zone)}",
            f'facing = {q("" if basic else {"S": "S", "N": "N", "E": "NE", "W": "NW"}[str(sd["axis"])])}',
            *(["min_enemy_distance = 8", "max_enemy_distance = 12"] if second_full(sc, sd) else []),
            f'note = {q(zone_note(sc, sd))}',
            "",
        ]
        for g in groups:
            lines += [
                "[[side.units]]",
                f'type = {q(str(g["type"]))}',
                f'count = {g["count"]}',
                f'hexes = {wrap_list(list(g["hexes"]))}',  # type: ignore[arg-type]
            ]
            if g["facing"]:
                lines.append(f'facing = {q(str(g["facing"]))}')
            if g["group"]:
                lines.append(f'group = {q(str(g["group"]))}')
            if g["supreme"]:
                lines.append("supreme = true")
            lines.append("")
    return "\n".join(lines)


def second_full(sc: dict[str, object], sd: dict[str, object]) -> bool:
    """The side deploying second under cen:full.deployment's 8-12 hex rule."""
    return sc["game"] == "full" and sc["deploys_first"] != sd["id"] and sc["id"] != "teutoburgerwald"


def zone_note(sc: dict[str, object], sd: dict[str, object]) -> str:
    if sd["zone_note"]:
        return str(sd["zone_note"])
    first = sc["deploys_first"] == sd["id"]
    if sc["game"] == "basic":
        return "Basic Game: hexes within five of the centre (diagram positions reconstructed)."
    if first:
        return "Deploys first: the hexes within five of the centre of mass" + (" inside the area the scenario note names." if sd["region"] else ".")
    return "Deploys second: hexes within five of the centre of mass that lie 8 to 12 hexes from the nearest enemy unit (cen:full.deployment)."


def generate() -> dict[str, tuple[str, str]]:
    """File name -> (TOML text, one-line summary) for every scenario; writes nothing."""
    types = {code: model.UnitType(
        code=code, name=u["name"], kind=model.UnitKind(u["kind"]), melee_attack=u["melee_attack"],
        melee_defence_front=u["melee_defence_front"], melee_defence_flank=u["melee_defence_flank"],
        movement=u["movement"], points=u["points"], source=u["source"], fire=u.get("fire", 0),
    ) for code, u in TYPES.items()}
    out: dict[str, tuple[str, str]] = {}
    for sc in SCENARIOS:
        sides: list[dict[str, object]] = sc["sides"]  # type: ignore[assignment]
        order = sorted(sides, key=lambda s: 0 if s["id"] == sc["deploys_first"] else 1)
        enemy: set[str] = set()
        placed = []
        for sd in order:
            groups, zone, ew = deploy(sc, sd, enemy, 5)
            ob: dict[str, int] = {}
            for code, count, _ in sd["units"]:  # type: ignore[union-attr]
                ob[code] = ob.get(code, 0) + count
            pv = model.army_point_value(ob, types)
            pt = model.panic_threshold(pv)
            placed.append((sd, groups, zone, ew, pv, pt))
            enemy = {h for g in groups for h in g["hexes"]}  # type: ignore[union-attr]
        by_id = {p[0]["id"]: p for p in placed}
        placed = [by_id[s["id"]] for s in sides]
        if sc["id"] == "numidia":
            romans = by_id["romans"]
            assert romans[4] == 153 and romans[5] == 60, "the formula must reproduce the printed Numidia row"
        summary = "; ".join(f"{p[0]['id']} {sum(c for _, c, _ in p[0]['units'])} counters PV {p[4]} PT {p[5]}" for p in placed)  # type: ignore[misc]
        out[f"{sc['id']}.toml"] = (render(sc, placed), summary)
    return out


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, (text, summary) in generate().items():
        (OUT / name).write_text(text, encoding="utf-8")
        print(f"{name.removesuffix('.toml'):18s} {summary}")


if __name__ == "__main__":
    main()
