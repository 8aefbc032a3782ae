"""Save files: a session as a record and back, read defensively, one writer per game.

A save file is the JSON of :func:`to_record`: the game, scenario, seed, options,
variants and answers of a :class:`~ancients_kit.session.Session` (which itself
knows nothing of files). :func:`save` writes it, :func:`load` and
:func:`from_record` replay it. Reading one trusts nothing in it:

- the file must be a regular file (a FIFO or a device such as ``/dev/zero`` is
  refused before a byte is read) of at most :data:`MAX_SAVE_BYTES`, in UTF-8,
  holding one JSON object nested at most :data:`MAX_DEPTH` deep, without
  duplicate keys or ``NaN``;
- the object must fit :class:`SaveRecord`, structured by the project's one
  cattrs converter (:data:`ancients_kit.data.converter`): every field of the
  right JSON type, no unknown key, no missing key;
- then the meaning is checked: the game is installed, each variant file still
  has the content hash it had, each option value is parsed by the game's own
  :meth:`OptionSpec.parse <ancients_kit.plugin.OptionSpec.parse>` exactly as
  ``ancients new --option`` parses it, ``meta.sides`` names sides of the
  game and controllers that exist, and every answer is replayed.

Every failure is a :class:`~ancients_kit.errors.ReplayError` whose one-line
message names the file, the key path and what was expected. A save whose log
digest differs after the replay (the rules or data changed) loads with
``replay_matches`` false, which every command reports loudly.

Writing goes through :func:`ancients_kit.files.write_atomic` (temporary file,
``fsync``, rename): a symlink is followed, never replaced, and the temporary
files a killed save left behind are removed. :class:`SaveSlot` adds the
advisory lock (:class:`~ancients_kit.files.FileLock`) that lets one process at
a time play a save, and refuses to overwrite a file that somebody else changed
since this process read it.

The format names the controller of each side (``meta.sides``: a person or a
bot), so it stands above the bots (:func:`ancients_kit.bots.check_bot` checks
each name) and below the command line only.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import attrs
from cattrs.errors import IterableValidationError
from cattrs.gen import override

from ancients_kit.bots import BOTS, check_bot
from ancients_kit.data import DataError, DataStore, Variant, converter, make_structure_hook, structure
from ancients_kit.errors import GameError, ReplayError
from ancients_kit.files import (
    FileLock,
    SaveError,
    SaveLocked,
    check_regular_file,
    read_bytes_bounded,
    show_path,
    write_atomic,
)
from ancients_kit.paths import MAX_DATA_BYTES
from ancients_kit.plugin import Game, OptionSpec, find_game
from ancients_kit.protocol import MAX_ANSWER_CHARS
from ancients_kit.session import Session

__all__ = [
    "MAX_ANSWERS",
    "MAX_ANSWER_CHARS",
    "MAX_DEPTH",
    "MAX_SAVE_BYTES",
    "SAVE_FORMAT",
    "SAVE_VERSION",
    "SaveConflict",
    "SaveError",
    "SaveLocked",
    "SaveRecord",
    "SaveSlot",
    "VariantRecord",
    "from_record",
    "load",
    "parse_option",
    "read_record",
    "record_text",
    "save",
    "to_record",
]
"""SaveError and SaveLocked are :mod:`ancients_kit.files`' (writing and locking any file the
program keeps), named here with the save's own conflict error."""

SAVE_FORMAT = "ancients-kit/session"
SAVE_VERSION = 1

MAX_SAVE_BYTES = 8 * 1024 * 1024
"""Largest save file read (a finished long game is well under 100 kB)."""
MAX_DEPTH = 16
"""Deepest nesting of JSON arrays and objects a save may hold (the format needs 4)."""
MAX_ANSWERS = 100_000
"""Most answers a save may hold (a long Full Simulation game gives a few thousand)."""
MAX_INCLUDES = 100
"""Most included files one variant carried in a save may hold (a game has a few dozen documents)."""
MAX_SEED = 2**63
"""Seeds are whole numbers with ``-MAX_SEED < seed < MAX_SEED``."""
CONTROLLERS_HUMAN = "human"


class SaveConflict(SaveError):
    """The save file changed on disk since this process read it: not overwritten."""


# -- the schema ---------------------------------------------------------------


def _json_kind(value: Any) -> str:
    """``value`` described in JSON's words, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        text = repr(value)
        return f"the number {text if len(text) <= 24 else text[:20] + '...'}"
    if isinstance(value, str):
        text = repr(value)
        return f"the string {text if len(text) <= 40 else text[:36] + '...'}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _json_type(kind: type, what: str) -> Callable[[Any, Any], Any]:
    """A structure hook accepting exactly the JSON type ``kind`` (a bool is no number)."""

    def hook(value: Any, _: Any = None) -> Any:
        if type(value) is not kind:
            raise TypeError(f"expected {what}, got {_json_kind(value)}")
        return value

    return hook


_text = _json_type(str, "a string")
_whole = _json_type(int, "a whole number")
_flag = _json_type(bool, "true or false")
_object = _json_type(dict, "an object")


def _name(value: Any, _: Any = None) -> str:
    text = _text(value)
    if not text.strip() or len(text) > MAX_ANSWER_CHARS or not text.isprintable():
        raise ValueError(f"expected a name of 1 to {MAX_ANSWER_CHARS} printable characters, got {_json_kind(text)}")
    return text




def _seed(value: Any, _: Any = None) -> int:
    n = _whole(value)
    if not -MAX_SEED < n < MAX_SEED:
        raise ValueError(f"expected a seed between -2**63 and 2**63, got {_json_kind(n)}")
    return n




def _variant_text(value: Any, _: Any = None) -> str:
    text = _text(value)
    if len(text) > MAX_DATA_BYTES:
        raise ValueError(f"expected a variant text of at most {MAX_DATA_BYTES} characters, got {len(text)}")
    return text


def _variant_includes(value: Any, _: Any = None) -> dict[str, str]:
    obj = _object(value)
    if len(obj) > MAX_INCLUDES:
        raise ValueError(f"expected at most {MAX_INCLUDES} included files, got {len(obj)}")
    return _dict_of(_variant_text)(obj, None)


def _digest(value: Any, _: Any = None) -> str:
    text = _text(value)
    if len(text) != 64 or any(c not in "0123456789abcdef" for c in text):
        raise ValueError(f"expected a sha256 digest (64 lowercase hex digits), got {_json_kind(text)}")
    return text


def _answer(value: Any, _: Any = None) -> str:
    text = _text(value)
    if not text or len(text) > MAX_ANSWER_CHARS:
        raise ValueError(f"expected an answer of 1 to {MAX_ANSWER_CHARS} characters, got {_json_kind(text)}")
    return text


def _option_value(value: Any, _: Any = None) -> str | int | bool:
    if not isinstance(value, (str, int)):  # bool is an int
        raise TypeError(f"expected a string, a whole number, true or false, got {_json_kind(value)}")
    if isinstance(value, int) and not isinstance(value, bool) and not -MAX_SEED < value < MAX_SEED:
        raise ValueError("expected a whole number between -2**63 and 2**63")
    if isinstance(value, str) and (len(value) > MAX_ANSWER_CHARS or not value.isprintable()):
        raise ValueError(f"expected a value of at most {MAX_ANSWER_CHARS} printable characters")
    return value




def _tuple_of(item: Callable[[Any, Any], Any] | type, most: int) -> Callable[[Any, Any], tuple[Any, ...]]:
    """A structure hook for a JSON list of at most ``most`` items, each going
    through ``item`` (a hook, or a class structured by the converter); errors
    keep their index."""

    def hook(value: Any, typ: Any) -> tuple[Any, ...]:
        if not isinstance(value, list):
            raise TypeError(f"expected a list, got {_json_kind(value)}")
        if len(value) > most:
            raise ValueError(f"expected at most {most} items, got {len(value)}")
        out: list[Any] = []
        errors: list[Exception] = []
        for i, x in enumerate(value):
            try:
                out.append(converter.structure(x, item) if isinstance(item, type) else item(x, None))
            except Exception as exc:  # collected and reported with the index
                exc.__notes__ = [*getattr(exc, "__notes__", []), f"Structuring list @ index {i}"]
                errors.append(exc)
                break
        if errors:
            raise IterableValidationError("invalid list item", errors, tuple)
        return tuple(out)

    return hook


def _dict_of(value_hook: Callable[[Any, Any], Any]) -> Callable[[Any, Any], dict[str, Any]]:
    """A structure hook for a JSON object of string keys; errors keep the key."""

    def hook(value: Any, typ: Any) -> dict[str, Any]:
        obj = _object(value)
        out: dict[str, Any] = {}
        for k, v in obj.items():
            try:
                out[_name(k)] = value_hook(v, None)
            except Exception as exc:
                exc.__notes__ = [*getattr(exc, "__notes__", []), f"Structuring dict @ key {k}"]
                raise IterableValidationError("invalid value", [exc], dict) from None
        return out

    return hook


@attrs.frozen
class VariantRecord:
    """One variant a saved game was played with."""

    path: str
    """Where the variant file was (as given to ``--variant``)."""
    id: str
    """Its ``meta.id``."""
    sha256: str
    """Content hash of the file and every file it includes."""
    text: str | None = None
    """The variant file's text, carried in the save: the game replays from it and
    no file is read. ``None`` in saves written before saves carried their
    variants (those are read from ``path``, trusted only if the hash matches)."""
    includes: Mapping[str, str] = attrs.field(factory=dict)
    """The text of each file the variant includes, by its ``file =`` name, in the
    order they were read."""


@attrs.frozen
class SaveMeta:
    """The free-form ``meta`` record; ``sides`` (who plays which side) is checked."""

    sides: Mapping[str, str] = attrs.field(factory=dict)
    """Side -> ``human`` or a bot's name."""


@attrs.frozen
class SaveRecord:
    """The shape of a save file (``SAVE_VERSION`` 1); every key is required but
    those added since (``setup_sha256``, a variant's ``text`` and ``includes``),
    which saves written before them lack."""

    format: str
    version: int
    game: str
    scenario: str
    seed: int
    options: Mapping[str, str | int | bool]
    variants: tuple[VariantRecord, ...]
    answers: tuple[str, ...]
    finished: bool
    outcome: Mapping[str, Any] | None
    log_sha256: str
    meta: Mapping[str, Any]
    setup_sha256: str | None = None
    """sha256 of the log up to the first question: the scenario's set-up as it was played.
    A replay whose set-up differs (another scenario, or its data changed) is refused.
    ``None`` in saves written before it was recorded."""


def _meta(value: Any, _: Any = None) -> dict[str, Any]:
    obj = _object(value)
    if "sides" in obj:
        converter.structure({"sides": obj["sides"]}, SaveMeta)
    return obj


def _outcome(value: Any, _: Any = None) -> dict[str, Any] | None:
    return None if value is None else _object(value)


make_structure_hook(
    VariantRecord,
    path=override(struct_hook=_name),
    id=override(struct_hook=_text),
    sha256=override(struct_hook=_digest),
    text=override(struct_hook=lambda v, _: None if v is None else _variant_text(v)),
    includes=override(struct_hook=_variant_includes),
)
make_structure_hook(SaveMeta, sides=override(struct_hook=_dict_of(_name)))
make_structure_hook(
    SaveRecord,
    format=override(struct_hook=_text),
    version=override(struct_hook=_whole),
    game=override(struct_hook=_name),
    scenario=override(struct_hook=_name),
    seed=override(struct_hook=_seed),
    options=override(struct_hook=_dict_of(_option_value)),
    variants=override(struct_hook=_tuple_of(VariantRecord, 100)),
    answers=override(struct_hook=_tuple_of(_answer, MAX_ANSWERS)),
    finished=override(struct_hook=_flag),
    outcome=override(struct_hook=_outcome),
    log_sha256=override(struct_hook=_digest),
    meta=override(struct_hook=_meta),
    setup_sha256=override(struct_hook=lambda v, _: None if v is None else _digest(v)),
)


# -- reading --------------------------------------------------------------------


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a save may hold")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"key {k!r} appears twice in one object")
        out[k] = v
    return out


def _depth(doc: Any) -> int:
    """How deeply ``doc`` nests lists and objects (iteratively: no recursion limit)."""
    deepest = 0
    stack = [(doc, 1)]
    while stack:
        node, d = stack.pop()
        if isinstance(node, (list, dict)):
            deepest = max(deepest, d)
            if d > MAX_DEPTH:
                return d
            stack.extend((x, d + 1) for x in (node.values() if isinstance(node, dict) else node))
    return deepest


def parse_record(raw: bytes, *, where: str) -> dict[str, Any]:
    """The JSON object in ``raw``; anything else is a :class:`ReplayError`."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ReplayError(f"{where}: not UTF-8 text (byte {exc.start} is {raw[exc.start]:#04x})") from None
    try:
        doc = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise ReplayError(f"{where}: not valid JSON ({exc})") from None
    except RecursionError:
        raise ReplayError(f"{where}: nested more than {MAX_DEPTH} deep; not a save file") from None
    except ValueError as exc:  # a duplicate key, NaN, a number of more than 4300 digits
        raise ReplayError(f"{where}: not a save file: {exc}") from None
    if not isinstance(doc, dict):
        raise ReplayError(f"{where}: not an ancients-kit save file (expected a JSON object, got {_json_kind(doc)})")
    if _depth(doc) > MAX_DEPTH:
        raise ReplayError(f"{where}: nested more than {MAX_DEPTH} deep; not a save file")
    return doc


def _printable(text: str) -> str:
    """``text`` on one line: every character that is not printable escaped."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


@contextmanager
def _one_line_errors() -> Iterator[None]:
    """Re-raise a :class:`ReplayError` whose message would not print as one line."""
    try:
        yield
    except ReplayError as exc:
        msg = str(exc)
        if msg.isprintable():
            raise
        raise ReplayError(_printable(msg)) from None


def read_record(path: str | Path) -> dict[str, Any]:
    """Read and parse the save file at ``path`` (bounded, regular files only)."""
    p = Path(path)
    with _one_line_errors():
        return parse_record(read_bytes_bounded(p, MAX_SAVE_BYTES), where=str(p))


def check_record(rec: Any, *, where: str) -> SaveRecord:
    """``rec`` structured into a :class:`SaveRecord`, or a :class:`ReplayError`."""
    if not isinstance(rec, Mapping):
        raise ReplayError(f"{where}: not an ancients-kit save file (expected an object, got {_json_kind(rec)})")
    if rec.get("format") != SAVE_FORMAT:
        raise ReplayError(f"{where}: not an ancients-kit save file (format is not {SAVE_FORMAT!r})")
    version = rec.get("version")
    if type(version) is not int or version != SAVE_VERSION:
        raise ReplayError(
            f"{where}: save version {_json_kind(version)} is not supported (this ancients-kit reads {SAVE_VERSION})"
        )
    if _depth(rec) > MAX_DEPTH:  # a record built in memory (files are checked as they are parsed)
        raise ReplayError(f"{where}: nested more than {MAX_DEPTH} deep; not a save file")
    try:
        return structure(dict(rec), SaveRecord, file=where)
    except DataError as exc:
        raise ReplayError(str(exc)) from None
    except RecursionError:  # a hand-built record (files are depth-checked first)
        raise ReplayError(f"{where}: nested too deeply") from None


def parse_option(spec: OptionSpec, value: Any) -> Any:
    """An option value parsed exactly as ``--option NAME=VALUE`` is.

    A string goes to :meth:`OptionSpec.parse`; a number or ``true``/``false`` is
    accepted only where the option's default or one of its choices has that
    very type (no bool becomes a number, no number a bool), and is then parsed
    from its text the same way. Raises ``ValueError`` naming the option.
    """
    if isinstance(value, str):
        return spec.parse(value)
    allowed = {type(spec.default), *(type(c) for c in spec.choices)}
    if type(value) not in allowed or not isinstance(value, (int, bool)):
        wanted = (
            "one of " + ", ".join(map(str, spec.choices)) if spec.choices
            else "yes or no" if isinstance(spec.default, bool)
            else "a whole number" if isinstance(spec.default, int)
            else "text"
        )
        raise ValueError(f"option {spec.name!r} takes {wanted}, not {_json_kind(value)}")
    parsed = spec.parse(str(value).lower() if isinstance(value, bool) else str(value))
    if isinstance(value, bool) != isinstance(parsed, bool):
        raise ValueError(f"option {spec.name!r} does not take {_json_kind(value)}")
    return parsed


def _checked_options(game: Game, scenario: str, variants: tuple[Variant, ...], options: Mapping[str, Any],
                     where: str) -> dict[str, Any]:
    store = DataStore(game.package, variants)
    try:
        known = [info.id for info in game.scenarios(store)]
    except (DataError, GameError) as exc:
        raise ReplayError(f"{where}: {exc}") from None
    if scenario not in known:
        raise ReplayError(f"{where}: scenario: {game.id} has no scenario {scenario!r} (scenarios: {', '.join(known)})")
    specs = {s.name: s for s in game.option_specs(store, scenario)}
    out: dict[str, Any] = {}
    given = [(f"{where}: variants[{i}]: {v.path}: options", v.options, False) for i, v in enumerate(variants)]
    given.append((f"{where}: options", options, True))
    for place, values, exact in given:  # the save's own values win, as in the game it records
        for k, value in values.items():
            if k not in specs:
                raise ReplayError(f"{place}.{k}: {game.id} has no option {k!r} "
                                  f"(options: {', '.join(sorted(specs)) or 'none'})")
            try:
                out[k] = parse_option(specs[k], value)
            except ValueError as exc:
                raise ReplayError(f"{place}.{k}: {exc}") from None
            if exact and (type(out[k]) is not type(value) or out[k] != value):
                # a save records every value as the game holds it: anything else was edited
                raise ReplayError(f"{place}.{k}: {_json_kind(value)} is not written as a save records it "
                                  f"({json.dumps(out[k])})")
    missing = sorted(set(specs) - set(options))
    if missing:
        raise ReplayError(f"{where}: options: the save does not give {', '.join(missing)}; a save records "
                          f"every option of its scenario, and a missing one is not taken as its default")
    return out


def from_record(rec: Any, *, where: str = "save") -> Session:
    """Check ``rec`` against the schema and its meaning, then replay it; every
    failure is a :class:`ReplayError` with a one-line message."""
    with _one_line_errors():
        return _session_from_record(rec, where)


def variant_location(recorded: str, where: str) -> str:
    """Where a variant path recorded in a save points.

    Saves record absolute paths. A relative one (an older save, or a save
    edited or moved with its variants) is looked up beside the save file
    first, then from the working directory. Whatever it names must be a
    regular file of bounded size and hash to the recorded sha256, so a save
    can make the program read only a file whose exact content its author
    already knows: nothing is disclosed (docs/designers-guide.md, "Paths
    inside data files").
    """
    p = Path(recorded)
    if p.is_absolute() or where == "save":
        return recorded
    beside = Path(where).parent / p
    if beside.exists() or not p.exists():
        return str(beside)
    return recorded


def _saved_variant(v: VariantRecord, here: str, where: str) -> Variant:
    """The variant a save names, checked by its hash before anything of it is used.

    A save carries its variant's text: the hash of the carried bytes is checked
    before they are parsed, and no file is read. An older save names a file
    only: it is read only if it is a regular file of bounded size, and if it
    is not exactly the variant recorded (unreadable as a variant, or another
    hash) the message says so without quoting anything of it.
    """
    if v.text is not None:
        h = hashlib.sha256(v.text.encode("utf-8"))
        for t in v.includes.values():
            h.update(t.encode("utf-8"))
        if h.hexdigest() != v.sha256:
            raise ReplayError(f"{here}: the variant text it carries does not match its sha256 (the save was edited)")
        try:
            var = Variant.from_sources(v.path, [("", v.text), *v.includes.items()])
        except DataError as exc:
            raise ReplayError(f"{here}: {exc}") from None
        if var.digest != v.sha256:  # includes it does not read, or listed in another order than it reads them
            raise ReplayError(f"{here}: the included files it carries are not the ones the variant reads, "
                              "in the order it reads them")
    else:
        path = variant_location(v.path, where)
        try:
            check_regular_file(path, "variant file", MAX_DATA_BYTES)
            if not os.path.exists(path):
                raise DataError(path, "no such file (the save names it by path: keep it where it was)")
        except (DataError, OSError, ValueError) as exc:
            raise ReplayError(f"{here}: {exc}") from None
        try:
            var = Variant.from_file(path)
        except (DataError, GameError, OSError, ValueError):
            var = None
        if var is None or var.digest != v.sha256:
            raise ReplayError(f"{here}: {v.path} is not the variant this game was saved with (it has changed or "
                              "is another file; nothing of it is shown)")
    if var.meta.id != v.id:
        raise ReplayError(f"{here}: {v.path} is variant {var.meta.id!r}, the save names {v.id!r}")
    return var


def _session_from_record(rec: Any, where: str) -> Session:
    r = check_record(rec, where=where)
    try:
        game = find_game(r.game)
    except LookupError as exc:
        raise ReplayError(f"{where}: game: {exc}") from None
    if game.id != r.game:  # a prefix finds a game on the command line; a save names it exactly
        raise ReplayError(f"{where}: game: {r.game!r} is not a game's id (a save names its game exactly: "
                          f"{game.id!r}?)")
    variants = [_saved_variant(v, f"{where}: variants[{i}]", where) for i, v in enumerate(r.variants)]
    options = _checked_options(game, r.scenario, tuple(variants), r.options, where)
    sides = converter.structure({"sides": r.meta["sides"]}, SaveMeta).sides if "sides" in r.meta else {}
    for side, kind in sides.items():
        if kind == CONTROLLERS_HUMAN:
            continue
        try:
            check_bot(kind)
        except ValueError as exc:
            raise ReplayError(f"{where}: meta.sides.{side}: {kind!r} is not a controller "
                              f"(human, {', '.join(sorted(BOTS))}, mcts:N): {exc}") from None
    try:
        s = Session(game, r.scenario, seed=r.seed, options=options, variants=variants, answers=r.answers,
                meta=dict(r.meta))
    except ReplayError as exc:
        raise ReplayError(f"{where}: {exc}") from None
    except (DataError, GameError) as exc:
        raise ReplayError(f"{where}: {exc}") from None
    if r.setup_sha256 is not None and r.setup_sha256 != s.setup_digest():
        raise ReplayError(f"{where}: scenario: the set-up of {r.scenario!r} is not the one this game was played "
                          "from (another scenario, or its data changed since the save); refused rather than "
                          "continued from another position")
    real = game.sides(s.state)
    for side in sides:
        if side not in real:
            raise ReplayError(
                f"{where}: meta.sides: {side!r} is not a side of this scenario (sides: {', '.join(real)})"
            )
    for i, (written, key) in enumerate(zip(r.answers, s.answers)):
        if written != key:  # the session takes " 2 " or "MOVE:2907" typed; a save records the key itself
            raise ReplayError(f"{where}: answers[{i}]: {written!r} is not written as the game records its "
                              f"answers ({key!r})")
    if r.finished != s.finished:
        said, got = ("finished", "does not end") if r.finished else ("not finished", "ends")
        raise ReplayError(f"{where}: finished: the save says the game is {said}, but its answers replay to a game "
                          f"that {got} there (another scenario, or edited answers)")
    outcome = s.outcome.to_json() if s.outcome is not None else None
    if r.finished and isinstance(r.outcome, Mapping) and outcome is not None \
            and r.outcome.get("winner") != outcome.get("winner"):
        raise ReplayError(f"{where}: outcome: the save names winner {r.outcome.get('winner')!r}, its answers "
                          f"replay to {outcome.get('winner')!r}")
    s.replay_matches = r.log_sha256 == s.log.digest() and r.outcome == outcome
    return s


# -- writing ------------------------------------------------------------------------


def record_text(rec: Mapping[str, Any]) -> str:
    """A save record as the readable JSON text of a save file."""
    return json.dumps(rec, indent=1, sort_keys=False) + "\n"


def to_record(session: Session) -> dict[str, Any]:
    """The save record of ``session``: its game, scenario, seed, options, variants
    (with their texts) and answers, with digests of its log and set-up that a load
    checks. A search copy (a fork with its own dice) is refused: it is no game the
    seed replays."""
    if session.branched is not None:
        raise ReplayError("a search copy (fork with reseed) cannot be saved: its dice are not the seed's")
    return {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "game": session.game.id,
        "scenario": session.scenario,
        "seed": session.seed,
        "options": {k: v for k, v in sorted(session.options.items())},
        "variants": [_variant_record(v) for v in session.variants],
        "answers": list(session.answers),
        "finished": session.finished,
        "outcome": session.outcome.to_json() if session.outcome else None,
        "log_sha256": session.log.digest(),
        "meta": session.meta,
        "setup_sha256": session.setup_digest(),
    }


def _variant_record(v: Variant) -> dict[str, Any]:
    """A variant as a save records it: where it was, its id and hash, and its texts
    (the save carries them, so it replays without the files: :class:`VariantRecord`)."""
    rec: dict[str, Any] = {"path": _recorded_path(v.path), "id": v.meta.id, "sha256": v.digest}
    if v.sources:
        rec["text"] = v.sources[0][1]
        rec["includes"] = dict(v.sources[1:])
    return rec


def _recorded_path(path: str) -> str:
    """A variant file's path as a save records it: absolute, so the save loads from any
    working directory (in-memory variants, such as a sweep's, keep their name)."""
    p = Path(path)
    return str(p.resolve()) if p.exists() else path


def save(session: Session, path: str | Path) -> Path:
    """Write ``session`` as readable JSON, atomically (temp file + rename).

    A symlink is followed, never replaced; a failure is a :class:`SaveError`
    and leaves the old file as it was. Returns the file written (a symlink's
    target). :class:`SaveSlot` adds the lock and the check that nobody else
    changed the file.
    """
    return write_atomic(Path(path), record_text(to_record(session)))


def load(path: str | Path) -> Session:
    """Read a save file (a regular file of bounded size, never a FIFO or a
    device) and replay it; any problem is a :class:`ReplayError` naming the file."""
    p = Path(path)
    return from_record(read_record(p), where=str(p))


class SaveSlot:
    """A save file as one process owns it while playing.

    ``with slot.locked():`` takes the advisory lock (refused with
    :class:`SaveLocked`, naming the holder, if another process plays the
    game); :meth:`load` reads the session and remembers the file's content;
    :meth:`save` writes only if the file still holds what this process last
    read or wrote, and otherwise keeps the game in a separate conflict file and
    raises :class:`SaveConflict`. Nobody's answers are overwritten unseen.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._known: str | None = None
        """sha256 of the file's content as this process last saw it (None: not yet read)."""
        self._lock = FileLock(self.path)

    # the lock
    @contextmanager
    def locked(self) -> Iterator[SaveSlot]:
        self.acquire()
        try:
            yield self
        finally:
            self.release()

    def acquire(self) -> None:
        """Take the lock, or raise :class:`SaveLocked` naming the process playing the game."""
        self._lock.acquire()

    def release(self) -> None:
        self._lock.release()

    # reading and writing
    def _disk_digest(self) -> str | None:
        try:
            return hashlib.sha256(read_bytes_bounded(self.path, MAX_SAVE_BYTES)).hexdigest()
        except ReplayError:
            return None if not os.path.lexists(self.path) else "unreadable"

    def load(self) -> Session:
        """Read the session in the file (validated), remembering what the file held."""
        with _one_line_errors():
            raw = read_bytes_bounded(self.path, MAX_SAVE_BYTES)
            rec = parse_record(raw, where=str(self.path))
        s = from_record(rec, where=str(self.path))
        self._known = hashlib.sha256(raw).hexdigest()
        return s

    def claim(self) -> None:
        """Accept whatever the file holds now as this process's to overwrite
        (a copy the player asked for by name)."""
        self._known = self._disk_digest()

    def claim_for_new(self, session: Session | None = None) -> None:
        """Take the file for a new game (or a copy of ``session``), only if it
        holds nothing to lose: it is missing or empty, or is a save of a
        finished game, of no answers, or of an earlier point of ``session``
        itself. A game in progress, or a file that is no save, is a
        :class:`SaveError`."""
        if not os.path.lexists(self.path) or (os.path.exists(self.path) and os.path.getsize(self.path) == 0):
            self.claim()
            return
        try:
            rec = parse_record(read_bytes_bounded(self.path, MAX_SAVE_BYTES), where=str(self.path))
        except ReplayError as exc:
            raise SaveError(f"{_printable(str(exc))}; not overwriting it with a new game") from None
        if rec.get("format") != SAVE_FORMAT:
            raise SaveError(f"{show_path(self.path)} is not an ancients-kit save; not overwriting it with a new game")
        answers = rec.get("answers")
        earlier = (
            session is not None and isinstance(answers, list)
            and (rec.get("game"), rec.get("scenario"), rec.get("seed")) == (session.game.id, session.scenario,
                                                                            session.seed)
            and answers == session.answers[: len(answers)]
        )
        if rec.get("finished") is not True and answers != [] and not earlier:
            n = f"{len(answers)} answers" if isinstance(answers, list) else "answers"
            raise SaveError(
                f"{show_path(self.path)} holds a game in progress ({n}): "
                f"continue it with `ancients play {show_path(self.path)}`, "
                "or delete it, or give another --save"
            )
        self.claim()

    def save(self, session: Session) -> Path:
        """Write ``session``, unless somebody else changed the file since it was read."""
        text = record_text(to_record(session))
        now = self._disk_digest()
        if now is not None and now != self._known:
            other = self.path.with_name(f"{self.path.stem}.conflict-{os.getpid()}{self.path.suffix}")
            try:
                write_atomic(other, text)
            except SaveError as exc:
                raise SaveConflict(
                    f"{show_path(self.path)} was changed by another program since this game read it; "
                    f"not overwriting its answers, and this game could not be kept either: {exc}"
                ) from None
            raise SaveConflict(
                f"{self.path} was changed by another program since this game read it; not overwriting its "
                f"answers. This game is saved in {other}"
            )
        write_atomic(self.path, text)
        self._known = hashlib.sha256(text.encode("utf-8")).hexdigest()
        return self.path
