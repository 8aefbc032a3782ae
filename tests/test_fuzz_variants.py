"""Fuzzing variant files (issue 13, item 9, the variant half).

Hypothesis damages the shipped data documents of both games and the variant
files around them: wrong types, out-of-range numbers, missing and unknown
keys, wrong ``replace`` IDs, paths escaping the variant's folder, huge files,
FIFOs and non-UTF-8 bytes. The properties:

* through the API, loading the variant, listing the game's tables and starting
  a game either succeed or raise :class:`~ancients_kit.data.DataError` whose
  one-line message names the variant file (or the file it includes);
* through the CLI, ``tables`` and ``new`` end in exit code 0 or in exit code
  2 with one line on standard error naming the file, never an internal
  error, and a refused ``new`` writes no save;
* the variant files on disk are never changed by a failed command.
* a variant the loader accepts (small whole numbers changed) is played by
  random bots without any failure: the checks happen at load time.

The default run is a few dozen examples per property (well under a minute);
``python -m benchmarks.fuzz_variants`` runs the long profile
(``ANCIENTS_FUZZ_EXAMPLES``, default there 500).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import tomllib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ancients_kit.cli.main import cli
from ancients_kit.data import DataError, DataStore, Variant
from ancients_kit.paths import MAX_DATA_BYTES
from ancients_kit.plugin import find_game
from ancients_kit.session import Session

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = int(os.environ.get("ANCIENTS_FUZZ_EXAMPLES", "0")) or None
HEAD = '[meta]\nid = "fuzz"\nsource = "variant"\nnote = "fuzzed"\n\n'

# (game, scenario started, data file under data/) -- every kind of document both games ship
DOCUMENTS = [
    ("centurion", "numidia", "units.toml"),
    ("centurion", "numidia", "terrain.toml"),
    ("centurion", "numidia", "capability.toml"),
    ("centurion", "numidia", "crt_melee.toml"),
    ("centurion", "numidia", "crt_fire.toml"),
    ("centurion", "numidia", "scenarios/numidia.toml"),
    ("centurion", "basic-gaul", "scenarios/basic-gaul.toml"),
    ("centurion", "numidia", "map.toml"),
    ("ccancients_rome", "tigranocerte", "units.toml"),
    ("ccancients_rome", "tigranocerte", "deck.toml"),
    ("ccancients_rome", "tigranocerte", "terrain.toml"),
    ("ccancients_rome", "tigranocerte", "battles/tigranocerte.toml"),
]


def _load(game: str, rel: str) -> dict[str, Any]:
    return tomllib.loads((ROOT / "games" / game / "data" / rel).read_text("utf-8"))


PARSED = {(g, rel): _load(g, rel) for g, _, rel in DOCUMENTS}


def fuzz_settings(default: int) -> settings:
    return settings(max_examples=EXAMPLES or default, deadline=None, derandomize=EXAMPLES is None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                           HealthCheck.data_too_large])


# ---------------------------------------------------------------- a small TOML writer (inline form)


def _toml_string(s: str) -> str:
    # JSON's escapes are TOML's (non-ASCII kept as is: JSON would write surrogate
    # pairs, which TOML refuses); TOML also forbids a raw DEL.
    return json.dumps(s, ensure_ascii=False).replace("\x7f", "\\u007f")


def toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return _toml_string(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_toml_string(str(k))} = {toml_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(v)


def toml_document(doc: dict[str, Any]) -> str:
    return "".join(f"{_toml_string(k)} = {toml_value(v)}\n" for k, v in doc.items())


# ---------------------------------------------------------------- damage


def leaf_paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Paths of every value in ``node`` (tables, arrays and scalars alike), the meta header excluded."""
    out: list[tuple[Any, ...]] = []
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for k, v in items:
        if path == () and k == "meta":
            continue
        out.append(path + (k,))
        out.extend(leaf_paths(v, path + (k,)))
    return out


def _set(doc: Any, path: tuple[Any, ...], value: Any) -> None:
    node = doc
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value


def _delete(doc: Any, path: tuple[Any, ...]) -> None:
    node = doc
    for k in path[:-1]:
        node = node[k]
    del node[path[-1]]


hostile_numbers = st.one_of(
    st.sampled_from([0, -1, 1, 7, 99, 100, 2**31, 2**63 - 1, 2**63, -(2**63), 10**30]),
    st.integers(min_value=-(2**70), max_value=2**70),
)
hostile_values = st.one_of(
    hostile_numbers,
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.text(max_size=12),
    st.sampled_from(["", "0", "1/0", "-1/2", "../../etc/passwd", "/dev/zero", "nan", "∞"]),
    st.lists(st.integers(min_value=-3, max_value=3), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(min_value=-3, max_value=9), max_size=2),
)


@st.composite
def damaged_documents(draw: st.DrawFn) -> tuple[str, str, str, dict[str, Any]]:
    """A shipped document with one to three damages; returns (game, scenario, data ID, document)."""
    game, scenario, rel = draw(st.sampled_from(DOCUMENTS))
    doc = json.loads(json.dumps(PARSED[(game, rel)]))  # a deep copy (TOML data is JSON-shaped here)
    data_id = doc["meta"]["id"]
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        paths = leaf_paths(doc)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        how = draw(st.sampled_from(["value", "value", "value", "delete", "unknown-key"]))
        if how == "value":
            _set(doc, path, draw(hostile_values))
        elif how == "delete" and not isinstance(path[-1], int):
            _delete(doc, path)
        else:
            parent = doc
            for k in path[:-1]:
                parent = parent[k]
            if isinstance(parent, dict):
                parent[draw(st.text(min_size=1, max_size=6))] = draw(hostile_values)
    return game, scenario, data_id, doc


def write_variant(folder: Path, data_id: str, document: str | bytes) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    inc = folder / "replacement.toml"
    inc.write_bytes(document if isinstance(document, bytes) else document.encode("utf-8"))
    p = folder / "variant.toml"
    p.write_text(HEAD + f"[replace.{_toml_string(data_id)}]\nfile = \"replacement.toml\"\n")
    return p


def fresh_folder(base: Path) -> Path:
    n = len(list(base.iterdir())) if base.exists() else 0
    folder = base / f"case{n}"
    folder.mkdir(parents=True)
    return folder


# ---------------------------------------------------------------- the properties


def start_everything(game_id: str, scenario: str, variant: Path) -> None:
    """Load the variant, list the game's tables, start a game: what ``tables`` and ``new`` do."""
    g = find_game(game_id)
    v = Variant.from_file(variant)
    store = DataStore(g.package, (v,))
    store.check_replacements()
    g.tables(store)
    s = Session(g, scenario, seed=1, variants=(v,))
    assert s.decision is not None or s.finished


def assert_refused_cleanly(exc: DataError, folder: Path) -> None:
    msg = str(exc)
    assert "\n" not in msg, msg
    assert str(folder) in msg, msg  # names the variant file or the file it includes


def digest_tree(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


@fuzz_settings(40)
@given(damaged_documents())
def test_damaged_documents_raise_only_data_errors(tmp_path: Path, case: tuple[str, str, str, dict[str, Any]]) -> None:
    game, scenario, data_id, doc = case
    folder = fresh_folder(tmp_path / "api")
    variant = write_variant(folder, data_id, toml_document(doc))
    try:
        start_everything(game, scenario, variant)
    except DataError as exc:
        assert_refused_cleanly(exc, folder)


wrong_ids = st.one_of(
    st.text(min_size=1, max_size=30),
    st.sampled_from(["centurion.unit", "centurion.units ", "CENTURION.UNITS", "ccancients_rome.deck",
                     "centurion.scenario.numidia.toml", "ccancients_rome.battle.tigranocert", "", "meta"]),
)


@fuzz_settings(30)
@given(st.sampled_from(["centurion", "ccancients_rome"]), wrong_ids)
def test_wrong_replace_ids_are_refused(tmp_path: Path, game: str, data_id: str) -> None:
    known = DataStore(find_game(game).package).document_ids()
    folder = fresh_folder(tmp_path / "ids")
    p = folder / "variant.toml"
    p.write_text(HEAD + f"[replace.{_toml_string(data_id)}]\ntitle = \"x\"\n")
    store = DataStore(find_game(game).package, (Variant.from_file(p),))
    if data_id in known:
        return  # a real ID: the document is then validated like any other (the property above)
    with pytest.raises(DataError, match="has no data document") as info:
        store.check_replacements()
    assert_refused_cleanly(info.value, folder)


escaping_paths = st.one_of(
    st.sampled_from(["/etc/passwd", "/etc/hostname", "/dev/zero", "/dev/null", "/proc/self/environ", "..", ".",
                     "../variant.toml", "../../../../../../../../etc/passwd", "sub/../../x.toml", "a\x00b", "",
                     "~/x.toml", "//etc/passwd", "link-out.toml", "fifo.toml", "huge.toml", "folder"]),
    st.builds(lambda n, tail: "../" * n + tail, st.integers(min_value=1, max_value=12),
              st.sampled_from(["etc/passwd", "x.toml", "variant.toml"])),
    st.text(max_size=20),
)


@fuzz_settings(40)
@given(escaping_paths)
def test_include_paths_stay_beside_the_variant(tmp_path: Path, name: str) -> None:
    folder = fresh_folder(tmp_path / "paths")
    outside = tmp_path / "outside.toml"
    outside.write_text('unit = []\n')
    (folder / "link-out.toml").symlink_to(outside)
    if hasattr(os, "mkfifo"):
        os.mkfifo(folder / "fifo.toml")
    with open(folder / "huge.toml", "wb") as fh:
        fh.truncate(MAX_DATA_BYTES + 1)
    (folder / "folder").mkdir()
    p = folder / "variant.toml"
    p.write_text(HEAD + f'[replace."centurion.units"]\nfile = {_toml_string(name)}\n')
    before = digest_tree(folder)
    try:
        v = Variant.from_file(p)
    except DataError as exc:
        assert_refused_cleanly(exc, folder)
        assert str(exc).startswith(f"{p}: replace.centurion.units.file: ") or "not valid TOML" in str(exc)
    else:
        # accepted only if the name resolves to a regular file inside the folder
        target = (folder / name).resolve()
        assert folder.resolve() in target.parents and target.is_file()
        assert v.replace["centurion.units"] is not None
    assert digest_tree(folder) == before


@fuzz_settings(30)
@given(st.sampled_from(DOCUMENTS), st.binary(min_size=1, max_size=8), st.integers(min_value=0, max_value=10**6))
def test_damaged_bytes(tmp_path: Path, doc: tuple[str, str, str], junk: bytes, at: int) -> None:
    game, scenario, rel = doc
    raw = (ROOT / "games" / game / "data" / rel).read_bytes()
    cut = at % (len(raw) + 1)
    damaged = raw[:cut] + junk + raw[cut:]
    folder = fresh_folder(tmp_path / "bytes")
    variant = write_variant(folder, PARSED[(game, rel)]["meta"]["id"], damaged)
    try:
        start_everything(game, scenario, variant)
    except DataError as exc:
        assert_refused_cleanly(exc, folder)


@fuzz_settings(8)
@given(damaged_documents())
def test_cli_refuses_damaged_variants_in_one_line(tmp_path: Path, case: tuple[str, str, str, dict[str, Any]]) -> None:
    game, scenario, data_id, doc = case
    folder = fresh_folder(tmp_path / "cli")
    variant = write_variant(folder, data_id, toml_document(doc))
    before = digest_tree(folder)
    save = folder / "game.json"
    runner = CliRunner()
    env = {"ANCIENTS_KIT_SAVES": str(folder / "saves")}
    for argv in (["tables", game], ["new", game, scenario, "--bots", "--stop-after", "1", "--no-map", "--save", str(save)]):
        res = runner.invoke(cli, [*argv, "--variant", str(variant)], env=env, catch_exceptions=False)
        assert res.exit_code in (0, 2), (argv, res.output)
        assert "internal error" not in res.output, res.output
        if res.exit_code == 2:
            lines = res.stderr.strip().splitlines()
            assert len(lines) == 1 and str(folder) in lines[0], lines
            if argv[0] == "new":
                assert not save.exists() and not (folder / "saves").exists()
    assert {k: v for k, v in digest_tree(folder).items() if k != "game.json"} == before


def _get(doc: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        doc = doc[k]
    return doc


@st.composite
def plausible_documents(draw: st.DrawFn) -> tuple[str, str, str, dict[str, Any]]:
    """A shipped document with one to four whole numbers set to small values (0..12): data a
    designer might write, most of it within the games' ranges."""
    game, scenario, rel = draw(st.sampled_from(DOCUMENTS))
    doc = json.loads(json.dumps(PARSED[(game, rel)]))
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        paths = [p for p in leaf_paths(doc) if type(_get(doc, p)) is int]
        if not paths:
            break
        _set(doc, draw(st.sampled_from(paths)), draw(st.integers(min_value=0, max_value=12)))
    return game, scenario, doc["meta"]["id"], doc


@fuzz_settings(12)
@given(plausible_documents(), st.integers(min_value=1, max_value=5))
def test_accepted_variants_play(tmp_path: Path, case: tuple[str, str, str, dict[str, Any]], seed: int) -> None:
    """A variant the loader accepts is played by random bots without any failure: every
    check the rules would need happens when the data is loaded, not mid-game."""
    from ancients_kit.bots import make_bot

    game, scenario, data_id, doc = case
    folder = fresh_folder(tmp_path / "play")
    variant = write_variant(folder, data_id, toml_document(doc))
    try:
        s = Session(find_game(game), scenario, seed=seed, variants=(Variant.from_file(variant),))
    except DataError as exc:
        assert_refused_cleanly(exc, folder)
        return
    bot = make_bot("random")
    for _ in range(80):
        if s.decision is None:
            break
        s.answer(bot.choose(s, s.decision))
