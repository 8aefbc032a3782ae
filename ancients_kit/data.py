"""Data files: TOML documents with provenance, loaded through one cattrs converter.

Every table, unit list, map and scenario a game ships is a TOML file that opens
with a ``[meta]`` table::

    [meta]
    id = "centurion.crt"              # unique data ID, used by variants
    source = "reconstructed"          # "rulebook", "reconstructed" or "variant"
    rules = ["cen:basic.combat"]      # rule IDs the data serves
    note = "What it was built from and why."

The rest of the file is structured into the game's own attrs classes by
:data:`converter`. Unknown keys are errors; every error names the file and the
key path (``scenario.sides[1].units[3].count``).

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

import hashlib
import tomllib
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any, Literal, TypeVar

import attrs
import cattrs
from cattrs.errors import ClassValidationError, ForbiddenExtraKeysError, IterableValidationError
from cattrs.gen import make_dict_structure_fn

__all__ = [
    "DataError",
    "DataStore",
    "FrozenDict",
    "Meta",
    "Source",
    "Variant",
    "converter",
    "freeze",
    "read_file",
    "read_toml",
    "structure",
]

T = TypeVar("T")

Source = Literal["rulebook", "reconstructed", "variant"]
"""Where a data document comes from: printed in our rulebook text, rebuilt from
other evidence (the note says what), or a designer's own."""


class DataError(ValueError):
    """A data file cannot be read or does not fit its schema.

    The message names the file and the key path of the offending value.
    """

    def __init__(self, file: str, message: str, path: str = "") -> None:
        self.file = file
        self.path = path
        self.detail = message
        where = f"{file}: {path}: " if path else f"{file}: "
        super().__init__(where + message)


@attrs.frozen
class Meta:
    """Provenance header every data document carries."""

    id: str
    """Unique data ID such as ``centurion.crt``; variants replace documents by it."""
    source: Source
    """``rulebook``, ``reconstructed`` or ``variant``."""
    rules: tuple[str, ...] = ()
    """Rule IDs this document serves."""
    note: str = ""
    """What the data was built from, its confidence and its reasoning."""
    title: str = ""
    """Short human title for listings."""
    sources: tuple[str, ...] = ()
    """Outside references the facts were taken from (books, public rule sheets)."""


def _make_converter() -> cattrs.Converter:
    conv = cattrs.Converter(forbid_extra_keys=True, prefer_attrib_converters=True)
    # TOML gives lists; attrs classes here use tuples so data stays immutable.
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
                    step = "." + n.split("@ key ", 1)[1].strip()
            return _walk_errors(sub, path + step)
    if isinstance(exc, KeyError):
        return path, f"missing required key {exc.args[0]!r}" if exc.args else "missing key"
    msg = str(exc) or type(exc).__name__
    return path, msg


def structure(data: Any, cls: type[T], *, file: str, prefix: str = "") -> T:
    """Structure ``data`` into ``cls``; failures become a :class:`DataError`."""
    try:
        return converter.structure(data, cls)
    except (ClassValidationError, IterableValidationError, ForbiddenExtraKeysError) as exc:
        path, msg = _walk_errors(exc, prefix)
        raise DataError(file, msg, path.lstrip(".")) from None
    except (ValueError, TypeError, KeyError) as exc:
        raise DataError(file, str(exc), prefix) from None


def read_toml(text: str | bytes, *, file: str) -> dict[str, Any]:
    """Parse TOML text; a syntax error names the file and line."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(file, f"not valid TOML: {exc}") from None


def read_file(path: str | Path, what: str) -> bytes:
    """The bytes of a data file; an unreadable one is a :class:`DataError` naming it."""
    p = Path(path)
    try:
        return p.read_bytes()
    except OSError as exc:
        raise DataError(str(p), f"cannot read {what}: {exc.strerror}") from None


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

    @classmethod
    def from_file(cls, path: str | Path) -> Variant:
        p = Path(path)
        raw = read_file(p, "variant file")
        doc = read_toml(raw, file=str(p))
        h = hashlib.sha256(raw)
        unknown = set(doc) - {"meta", "replace", "options"}
        if unknown:
            raise DataError(str(p), f"unknown key(s): {', '.join(sorted(unknown))}")
        meta = structure(doc.get("meta", {}), Meta, file=str(p), prefix="meta")
        replace: dict[str, Mapping[str, Any]] = {}
        for data_id, body in doc.get("replace", {}).items():
            if not isinstance(body, dict):
                raise DataError(str(p), "must be a table", f"replace.{data_id}")
            if set(body) == {"file"}:
                inc = (p.parent / body["file"]).resolve()
                try:
                    inc_raw = inc.read_bytes()
                except OSError as exc:
                    raise DataError(str(p), f"cannot read {inc}: {exc.strerror}", f"replace.{data_id}.file") from None
                h.update(inc_raw)
                body = read_toml(inc_raw, file=str(inc))
            sub_meta = body.get("meta", {})
            if isinstance(sub_meta, dict) and sub_meta.get("id", data_id) != data_id:
                raise DataError(
                    str(p), f"replacement declares meta.id {sub_meta.get('id')!r}", f"replace.{data_id}"
                )
            replace[data_id] = body
        options = doc.get("options", {})
        if not isinstance(options, dict):
            raise DataError(str(p), "must be a table", "options")
        return cls(path=str(p), meta=meta, replace=replace, options=options, digest=h.hexdigest())


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
        """The parsed packaged document (before any variant override)."""
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
