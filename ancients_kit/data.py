"""Data files: TOML documents with provenance, loaded through one cattrs converter.

Every table, unit list, map and scenario a game ships is a TOML file that opens
with a ``[meta]`` table::

    [meta]
    id = "centurion.crt"              # unique data ID, used by variants
    source = "reconstructed"          # "rulebook", "reconstructed", "variant" or "observed"
    rules = ["cen:basic.combat"]      # rule IDs the data serves
    note = "What it was built from and why."

The rest of the file is structured into the game's own attrs classes by
:data:`converter`. Unknown keys are errors; every error names the file and the
key path (``scenario.sides[1].units[3].count``). The converter is strict: no
float, bool or string becomes an int (nor an int a bool or a string), and a
string is not an array. Ranges belong to the games: their data classes declare
them with :func:`bounded` validators naming the rule.

A designer replaces any document without touching the package with a *variant*
file (``--variant my.toml``)::

    [meta]
    id = "my-variant"
    source = "variant"
    note = "Bloodier CRT."

    [replace."centurion.crt"]         # whole replacement document, inline ...
    file = "my_crt.toml"              # ... or in a file next to the variant

    [options]                         # scenario options switched on or off
    fortune = true

Saves record each variant's content hash so a replay with a changed variant is
refused rather than silently diverging.
"""

from __future__ import annotations

import difflib
import enum
import hashlib
import tomllib
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from importlib import resources
from pathlib import Path
from typing import Any, Literal, TypeVar, get_args, get_origin

import attrs
import cattrs
from cattrs.cols import (
    homogenous_tuple_structure_factory,
    is_mapping,
    is_sequence,
    list_structure_factory,
    mapping_structure_factory,
)
from cattrs.errors import ClassValidationError, ForbiddenExtraKeysError, IterableValidationError
from cattrs.gen import make_dict_structure_fn

from ancients_kit.errors import DataError
from ancients_kit.paths import check_package_name, read_regular_file, resolve_inside

__all__ = [
    "DataError",
    "DataStore",
    "FrozenDict",
    "Meta",
    "RangeError",
    "Source",
    "Variant",
    "bounded",
    "converter",
    "document_file",
    "first_repeat",
    "freeze",
    "read_file",
    "read_toml",
    "structure",
]

T = TypeVar("T")

Source = Literal["rulebook", "reconstructed", "variant", "observed"]
"""Where a data document comes from: printed in our rulebook text, rebuilt from
other evidence (the note says what), a designer's own, or ``observed``: not game
data but records of play by people (win rates a benchmark compares the bots with),
from the sources the note names."""




@attrs.frozen
class Meta:
    """Provenance header every data document carries."""

    id: str
    """Unique data ID such as ``centurion.crt``; variants replace documents by it."""
    source: Source
    """``rulebook``, ``reconstructed``, ``variant`` or ``observed`` (:data:`Source`)."""
    rules: tuple[str, ...] = ()
    """Rule IDs this document serves."""
    note: str = ""
    """What the data was built from, its confidence and its reasoning."""
    title: str = ""
    """Short human title for listings."""
    sources: tuple[str, ...] = ()
    """Outside references the facts were taken from (books, public rule sheets)."""


class RangeError(ValueError):
    """A number outside the range a game's rules allow for one field.

    Raised by the :func:`bounded` validators of the games' data classes;
    ``field`` is the attribute name, which :func:`structure` appends to the
    key path of the :class:`DataError` it becomes.
    """

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(message)


def first_repeat(values: Iterable[Hashable]) -> tuple[int, Hashable] | None:
    """The first value of ``values`` seen before, with its index, or ``None``: the
    check behind every "an id names one row" rule of the games' data files (each
    game words its own message)."""
    seen: set[Hashable] = set()
    for i, v in enumerate(values):
        if v in seen:
            return i, v
        seen.add(v)
    return None


def bounded(low: int | Fraction | None = None, high: int | Fraction | None = None, *, rule: str = "") -> Any:
    """An attrs validator: the field's number lies in ``low..high`` (either end open).

    Games declare the range of every number their rules bound on the data
    class itself, e.g. ``movement: int = attrs.field(validator=bounded(1, 99,
    rule="cen:full.units"))``; the core stays game-agnostic and only reports
    the breach: ``units.toml: unit[3].movement: 0 is out of range 1..99 [cen:full.units]``.
    Works on plain numbers and on the values of a mapping field.
    """

    def check(value: Any, name: str) -> None:
        if isinstance(value, bool) or not isinstance(value, (int, float, Fraction)):
            raise RangeError(name, f"expected a number, got {type(value).__name__} {value!r}")
        if (low is not None and value < low) or (high is not None and value > high):
            span = f"{'' if low is None else low}..{'' if high is None else high}"
            raise RangeError(name, f"{value} is out of range {span}" + (f" [{rule}]" if rule else ""))

    def validate(_instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        if value is None:
            return
        if isinstance(value, Mapping):
            for k, v in value.items():
                check(v, f"{attribute.name}.{k}")
        else:
            check(value, attribute.name)

    return validate


def _describe(value: Any) -> str:
    return f"{type(value).__name__} {value!r}"


def _strict_int(value: Any, _cls: Any) -> int:
    # TOML has whole numbers; a float (4.5, 4.0), a bool or a string is a mistake.
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected a whole number, got {_describe(value)}")
    return value


def _strict_float(value: Any, _cls: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"expected a number, got {_describe(value)}")
    return float(value)


def _strict_bool(value: Any, _cls: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected true or false, got {_describe(value)}")
    return value


def _strict_str(value: Any, _cls: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {_describe(value)}")
    return value


def _strict_enum(base: type, what: str) -> Any:
    def hook(value: Any, cls: type[enum.Enum]) -> Any:
        if isinstance(value, bool) or not isinstance(value, base):
            raise TypeError(f"expected {what}, got {_describe(value)}")
        try:
            return cls(value)
        except ValueError:
            known = ", ".join(repr(m.value) for m in cls)  # type: ignore[attr-defined]
            raise ValueError(f"{value!r} is not one of {known}") from None

    return hook


def _is_array(value: Any) -> bool:
    return isinstance(value, (list, tuple))


def _is_table(value: Any) -> bool:
    return isinstance(value, Mapping)


def _is_homogeneous_sequence(t: Any) -> bool:
    if not is_sequence(t):
        return False
    args = get_args(t)
    return not (get_origin(t) is tuple and args and args[-1] is not Ellipsis)


def _strict_container(conv: cattrs.Converter, check: Any, what: str) -> Any:
    """A hook factory: the value must pass ``check`` (a TOML array or table), then cattrs' own
    structuring of the container runs (with its per-index error notes)."""

    def factory(t: Any) -> Any:
        if is_mapping(t):
            inner = mapping_structure_factory(t, conv)
        elif get_origin(t) is tuple or t is tuple:
            inner = homogenous_tuple_structure_factory(t, conv)
        else:
            inner = list_structure_factory(t, conv)

        def hook(value: Any, cls: Any) -> Any:
            if not check(value):
                raise TypeError(f"expected {what}, got {_describe(value)}")
            return inner(value, cls)

        return hook

    return factory


def _make_converter() -> cattrs.Converter:
    conv = cattrs.Converter(forbid_extra_keys=True, prefer_attrib_converters=True)
    # TOML gives lists; attrs classes here use tuples so data stays immutable.
    # Strict scalars: cattrs would call int(4.5), int(True) or str(814) and
    # carry on; a data file that says 4.5 movement points is an error instead.
    for cls, hook in ((int, _strict_int), (float, _strict_float), (bool, _strict_bool), (str, _strict_str)):
        conv.register_structure_hook(cls, hook)
    # The str and int hooks would also catch StrEnum and IntEnum fields (they
    # come first in the enum's MRO) and return plain values: enums get theirs.
    conv.register_structure_hook(enum.StrEnum, _strict_enum(str, "a string"))
    conv.register_structure_hook(enum.IntEnum, _strict_enum(int, "a whole number"))
    # cattrs would iterate a string into a sequence ("" becomes an empty unit
    # list) and fail obscurely on a mapping that is not a table.
    conv.register_structure_hook_factory(_is_homogeneous_sequence, _strict_container(conv, _is_array, "an array"))
    conv.register_structure_hook_factory(is_mapping, _strict_container(conv, _is_table, "a table"))
    return conv


converter: cattrs.Converter = _make_converter()
"""The one converter every game uses: unknown keys are rejected."""


def _walk_errors(exc: BaseException, path: str) -> tuple[str, str]:
    """Find the innermost failure in a cattrs exception group and its key path."""
    if isinstance(exc, ForbiddenExtraKeysError):
        keys = ", ".join(sorted(exc.extra_fields))
        return path, f"unknown key(s): {keys}"
    if isinstance(exc, (ClassValidationError, IterableValidationError)):
        for sub in exc.exceptions:
            note = getattr(sub, "__notes__", None) or []
            step = ""
            for n in note:
                # cattrs notes look like "Structuring class X @ attribute y"
                # or "Structuring typing.Tuple @ index 2".
                if "@ attribute " in n:
                    step = "." + n.split("@ attribute ", 1)[1].strip()
                elif "@ index " in n:
                    step = "[" + n.split("@ index ", 1)[1].strip() + "]"
                elif "@ key " in n:
                    key = n.split("@ key ", 1)[1].strip()
                    if len(key) > 1 and key[0] == key[-1] and key[0] in "'\"":
                        key = key[1:-1]  # cattrs writes the key's repr
                    step = "." + key
            return _walk_errors(sub, path + step)
    if isinstance(exc, KeyError):
        return path, f"missing required key {exc.args[0]!r}" if exc.args else "missing key"
    if isinstance(exc, RangeError):
        return f"{path}.{exc.field}", str(exc)
    msg = str(exc) or type(exc).__name__
    return path, msg


def structure(data: Any, cls: type[T], *, file: str, prefix: str = "") -> T:
    """Structure ``data`` into ``cls``; failures become a :class:`DataError`."""
    try:
        return converter.structure(data, cls)
    except (ClassValidationError, IterableValidationError, ForbiddenExtraKeysError) as exc:
        path, msg = _walk_errors(exc, prefix)
        raise DataError(file, msg, path.lstrip(".")) from None
    except RangeError as exc:
        raise DataError(file, str(exc), f"{prefix}.{exc.field}".lstrip(".")) from None
    except RecursionError:
        raise DataError(file, "arrays or tables nested too deeply", prefix) from None
    except (ValueError, TypeError, KeyError) as exc:
        raise DataError(file, str(exc), prefix) from None


def read_toml(text: str | bytes, *, file: str) -> dict[str, Any]:
    """Parse TOML text; a syntax error names the file and line."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DataError(file, f"not UTF-8 text: byte {text[exc.start]:#04x} at offset {exc.start}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(file, f"not valid TOML: {exc}") from None
    except RecursionError:
        raise DataError(file, "not valid data: arrays or tables nested too deeply") from None


def read_file(path: str | Path, what: str) -> bytes:
    """The bytes of a data file; an unreadable one is a :class:`DataError` naming it.

    Only a regular file of at most :data:`ancients_kit.paths.MAX_DATA_BYTES`
    is read: a folder, FIFO or device (``/dev/zero``) is refused unread.
    """
    return read_regular_file(path, what)


def split_meta(doc: Mapping[str, Any], *, file: str) -> tuple[Meta, dict[str, Any]]:
    """Separate and validate the ``[meta]`` header from the rest of a document."""
    if "meta" not in doc:
        raise DataError(file, "missing [meta] table (id, source, rules, note)")
    meta = structure(doc["meta"], Meta, file=file, prefix="meta")
    if meta.source == "reconstructed" and not meta.note.strip():
        raise DataError(file, "a reconstructed document must say what it was built from", "meta.note")
    body = {k: v for k, v in doc.items() if k != "meta"}
    return meta, body


@attrs.frozen
class Variant:
    """A designer's overrides: replacement documents by data ID, and options."""

    path: str
    meta: Meta
    replace: Mapping[str, Mapping[str, Any]] = attrs.field(factory=dict)
    """Data ID -> whole replacement document (with its own ``[meta]``)."""
    options: Mapping[str, Any] = attrs.field(factory=dict)
    digest: str = ""
    """sha256 of the variant file and every file it includes."""
    sources: tuple[tuple[str, str], ...] = ()
    """The texts it was read from, in the order read: the variant file itself
    (name ``""``), then each included file by its ``file =`` name. A save carries
    them (:meth:`from_sources`), so a saved game replays without the files."""

    @classmethod
    def from_file(cls, path: str | Path) -> Variant:
        """The variant in the file ``path`` and the files it includes (paths.py:
        inside its folder, regular, of bounded size)."""
        p = Path(path)

        def include(key: str, name: object) -> tuple[str, bytes]:
            inc = resolve_inside(p.parent, name, file=str(p), key=f"{key}.file")
            return str(inc), read_regular_file(inc, "included file", file=str(p), key=f"{key}.file")

        return cls._parse(str(p), read_file(p, "variant file"), include)

    @classmethod
    def from_sources(cls, path: str, sources: Sequence[tuple[str, str]]) -> Variant:
        """The variant rebuilt from the texts :attr:`sources` holds, reading no file;
        ``path`` names it in messages. An include the texts do not hold is a
        :class:`DataError`."""
        texts = dict(sources)
        if "" not in texts:
            raise DataError(path, "the variant's own text is missing")

        def include(key: str, name: object) -> tuple[str, bytes]:
            if not isinstance(name, str) or not name or name not in texts:
                raise DataError(path, f"the included file {name!r} is not among the texts carried", f"{key}.file")
            return f"{path} ({name})", texts[name].encode("utf-8")

        return cls._parse(path, texts[""].encode("utf-8"), include)

    @classmethod
    def _parse(cls, path: str, raw: bytes, include: Callable[[str, object], tuple[str, bytes]]) -> Variant:
        doc = read_toml(raw, file=path)
        h = hashlib.sha256(raw)
        sources = [("", raw.decode("utf-8"))]
        unknown = set(doc) - {"meta", "replace", "options"}
        if unknown:
            raise DataError(path, f"unknown key(s): {', '.join(sorted(unknown))}")
        meta = structure(doc.get("meta", {}), Meta, file=path, prefix="meta")
        replace: dict[str, Mapping[str, Any]] = {}
        replacements = doc.get("replace", {})
        if not isinstance(replacements, dict):
            raise DataError(path, "must be a table of replacement documents by data ID", "replace")
        for data_id, body in replacements.items():
            key = f"replace.{data_id}"
            if not isinstance(body, dict):
                raise DataError(path, "must be a table", key)
            if set(body) == {"file"}:
                name = body["file"]
                where, inc_raw = include(key, name)
                h.update(inc_raw)
                body = read_toml(inc_raw, file=where)
                sources.append((str(name), inc_raw.decode("utf-8")))
            sub_meta = body.get("meta", {})
            if not isinstance(sub_meta, dict):
                raise DataError(path, "must be a table", f"{key}.meta")
            if sub_meta.get("id", data_id) != data_id:
                raise DataError(
                    path, f"replacement declares meta.id {sub_meta.get('id')!r}", key
                )
            replace[data_id] = body
        options = doc.get("options", {})
        if not isinstance(options, dict):
            raise DataError(path, "must be a table", "options")
        return cls(path=path, meta=meta, replace=replace, options=options, digest=h.hexdigest(),
                   sources=tuple(sources))


_DOCUMENT_IDS: dict[tuple[str, str], dict[str, str]] = {}
"""(package, its folder) -> data IDs of its packaged documents, for :meth:`DataStore.document_ids`."""


class DataStore:
    """Loads a game's packaged data documents, honouring variant overrides.

    ``DataStore("some_game.package", variants)`` reads files under the
    package's ``data/`` folder. ``load("crt.toml", CRTSpec)`` returns
    ``(meta, obj)``; if a variant replaces that document's ``meta.id``, the
    replacement is structured instead and its meta says ``variant``.
    """

    def __init__(self, package: str, variants: tuple[Variant, ...] = ()) -> None:
        self.package = package
        self.variants = variants
        self._cache: dict[tuple[str, type], tuple[Meta, Any]] = {}
        self.loaded: dict[str, Meta] = {}
        """Data ID -> provenance of every document loaded so far."""

    def path(self, rel: str) -> str:
        return f"{self.package.replace('.', '/')}/data/{rel}"

    def raw(self, rel: str) -> dict[str, Any]:
        """The parsed packaged document (before any variant override).

        ``rel`` must stay under ``data/`` (:func:`ancients_kit.paths.check_package_name`).
        """
        check_package_name(rel, file=self.path(str(rel)), key="")
        res = resources.files(self.package).joinpath("data").joinpath(rel)
        try:
            text = res.read_text(encoding="utf-8")
        except (FileNotFoundError, OSError):
            raise DataError(self.path(rel), "no such data file") from None
        return read_toml(text, file=self.path(rel))

    def listing(self, folder: str = "") -> list[str]:
        """Relative paths of the ``.toml`` documents under ``data/folder``."""
        base = resources.files(self.package).joinpath("data")
        if folder:
            base = base.joinpath(folder)
        out: list[str] = []

        def walk(node: Any, prefix: str) -> None:
            for child in sorted(node.iterdir(), key=lambda c: c.name):
                if child.is_dir():
                    walk(child, f"{prefix}{child.name}/")
                elif child.name.endswith(".toml"):
                    out.append(f"{prefix}{child.name}")

        if base.is_dir():
            walk(base, f"{folder}/" if folder else "")
        return out

    def override(self, data_id: str) -> tuple[Variant, Mapping[str, Any]] | None:
        for v in reversed(self.variants):
            if data_id in v.replace:
                return v, v.replace[data_id]
        return None

    def load(self, rel: str, cls: type[T]) -> tuple[Meta, T]:
        """The document ``rel`` structured as ``cls``, with its provenance.

        Parsed documents are shared by every store of the process with the
        same package and variants (:data:`_DOCUMENTS`): the first load reads
        and structures the file, later ones return the same objects. They are
        frozen (attrs ``frozen`` classes, tuples, and :class:`FrozenDict` for
        every table), so no game can change another game's data.
        """
        key = (rel, cls)
        if key in self._cache:
            return self._cache[key]
        shared = self.shared_key
        shared_key = (*shared, rel, cls) if shared is not None else None
        hit = _DOCUMENTS.get(shared_key) if shared_key is not None else None
        if hit is None:
            hit = self._load_uncached(rel, cls)
            if shared_key is not None:
                _DOCUMENTS[shared_key] = hit
        self._cache[key] = hit
        self.loaded[hit[0].id] = hit[0]
        return hit

    @property
    def shared_key(self) -> tuple[Any, ...] | None:
        """What names this store's documents across the process: the package and
        each variant's path and sha256. None when they cannot be shared safely:
        a store reading other files than the package's (a subclass overriding
        :meth:`raw`), or a variant built in memory (no content hash)."""
        if type(self).raw is not DataStore.raw or any(not v.digest for v in self.variants):
            return None
        return (self.package, tuple((v.path, v.digest) for v in self.variants))

    def _load_uncached(self, rel: str, cls: type[T]) -> tuple[Meta, T]:
        doc = self.raw(rel)
        file = self.path(rel)
        meta, body = split_meta(doc, file=file)
        hit = self.override(meta.id)
        if hit is not None:
            variant, repl = hit
            file = f"{variant.path} [replace.{meta.id}]"
            repl_meta = dict(repl.get("meta", {}))
            repl_meta.setdefault("id", meta.id)
            repl_meta.setdefault("source", "variant")
            repl_meta.setdefault("rules", list(meta.rules))
            meta, body = split_meta({**repl, "meta": repl_meta}, file=file)
        obj = freeze(structure(body, cls, file=file))
        return meta, obj

    def unused_overrides(self, known_ids: set[str]) -> list[str]:
        """Variant replacements naming no document of this game (likely typos)."""
        return sorted(i for v in self.variants for i in v.replace if i not in known_ids)

    def document_ids(self) -> dict[str, str]:
        """``meta.id`` -> relative path of every packaged data document (the rule index excluded).

        Packaged files do not change while a process runs, so the listing is
        read once per package folder.
        """
        key = (self.package, str(resources.files(self.package)))
        ids = _DOCUMENT_IDS.get(key)
        if ids is None:
            ids = {}
            for rel in self.listing():
                meta = self.raw(rel).get("meta")
                if isinstance(meta, dict) and isinstance(meta.get("id"), str):
                    ids[meta["id"]] = rel
            _DOCUMENT_IDS[key] = ids
        return dict(ids)

    def check_replacements(self) -> None:
        """Refuse a variant whose ``replace`` names a document this game does not have.

        A misspelt ID, or a variant written for another game, would otherwise
        be ignored and the game played on the packaged data. The message names
        the variant file, the key and the closest known IDs.
        """
        if not any(v.replace for v in self.variants):
            return
        known = self.document_ids()
        for v in self.variants:
            for data_id in v.replace:
                if data_id in known:
                    continue
                close = difflib.get_close_matches(data_id, list(known), n=3, cutoff=0.6)
                hint = f"did you mean {', '.join(close)}?" if close else f"known IDs: {', '.join(sorted(known))}"
                raise DataError(v.path, f"{self.package} has no data document {data_id!r}; {hint}",
                                f"replace.{data_id}")


def document_file(store: DataStore, rel: str, data_id: str) -> str:
    """How errors name a loaded document: its packaged path, or the variant replacing it."""
    hit = store.override(data_id)
    if hit is not None:
        return f"{hit[0].path} [replace.{data_id}]"
    return store.path(rel)


_DOCUMENTS: dict[tuple[Any, ...], tuple[Meta, Any]] = {}
"""Structured documents of the process, by (package, variants (path, sha256), file, class).

A variant's digest covers its file and every file it includes, so a store
with a changed variant never sees a stale document."""


class FrozenDict(dict):  # type: ignore[type-arg]
    """A ``dict`` that refuses every change: the tables inside shared data documents.

    It is still a ``dict`` (``isinstance``, JSON, ``dict(d)`` for a private
    copy), so code reading data is unchanged; code writing to shared data
    fails at once instead of corrupting every other session of the process.
    """

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("data documents are shared and read-only: copy the table (dict(...)) to change it")

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __copy__(self) -> dict[Any, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenDict:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenDict, (dict(self),))


def freeze(obj: T) -> T:
    """``obj`` with every ``dict`` inside its attrs fields made a :class:`FrozenDict`.

    Structured documents are frozen attrs classes holding tuples; their
    mappings are the one mutable part, replaced here in place (before the
    document is shared)."""
    if isinstance(obj, dict):
        return FrozenDict({k: freeze(v) for k, v in obj.items()})  # type: ignore[return-value]
    if isinstance(obj, tuple):
        items = tuple(freeze(v) for v in obj)
        if any(a is not b for a, b in zip(items, obj)):
            return type(obj)(items) if type(obj) is tuple else obj  # named tuples are left alone
        return obj
    if attrs.has(type(obj)):
        for f in attrs.fields(type(obj)):
            value = getattr(obj, f.name)
            new = freeze(value)
            if new is not value:
                object.__setattr__(obj, f.name, new)
    return obj


def make_structure_hook(cls: type, **overrides: Any) -> None:
    """Register a dict structure hook for ``cls`` with per-field overrides."""
    converter.register_structure_hook(cls, make_dict_structure_fn(cls, converter, **overrides))
