"""Sweeps: one data value varied over a range, without writing variant files.

A sweep names a value inside one of the game's data documents by the
document's data ID and a path, ``centurion.units:unit[code=BI].melee_attack``:

- ``name`` steps into a table's key;
- ``name[3]`` into the fourth element of an array;
- ``name[field=value]`` into the one element of an array of tables whose
  ``field`` reads ``value`` (how most unit and table rows are found).

For each value :func:`sweep_variants` builds an in-memory
:class:`~ancients_kit.data.Variant` replacing that document by a copy with the
value changed, exactly as a designer's ``[replace."ID"]`` would; the game
validates it as it validates any variant. A value takes the type of the value
it replaces (a whole number stays a whole number).
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

from ancients_kit.data import DataStore, Meta, Variant
from ancients_kit.errors import GameError
from ancients_kit.plugin import Game

__all__ = ["SweepError", "find_document", "parse_target", "parse_values", "set_value", "sweep_variants"]

_STEP = re.compile(r"^(?P<name>[^.\[\]]+)(?:\[(?P<sel>[^\]]+)\])?$")
MAX_SWEEP_VALUES = 200


class SweepError(GameError):
    """A sweep names a document, a path or values that do not work."""


def parse_target(text: str) -> tuple[str, str]:
    """``"ID:path"`` -> (data ID, path)."""
    data_id, sep, path = text.partition(":")
    if not sep or not data_id.strip() or not path.strip():
        raise SweepError(f"--set {text!r}: expected DATA_ID:PATH, e.g. centurion.units:unit[code=BI].melee_attack")
    return data_id.strip(), path.strip()


def parse_values(text: str) -> list[str]:
    """``"3,4,6"`` or ``"2..8"`` or ``"0.5..1.5:0.25"`` (ranges include both ends)."""
    text = text.strip()
    if ".." in text:
        lo_s, _, rest = text.partition("..")
        hi_s, _, step_s = rest.partition(":")
        try:
            lo, hi = Decimal(lo_s), Decimal(hi_s)
            step = Decimal(step_s) if step_s else Decimal(1)
        except InvalidOperation:
            raise SweepError(f"--values {text!r}: expected LOW..HIGH or LOW..HIGH:STEP with numbers") from None
        if step <= 0 or hi < lo:
            raise SweepError(f"--values {text!r}: need LOW <= HIGH and a positive STEP")
        if (hi - lo) / step >= MAX_SWEEP_VALUES:
            raise SweepError(f"--values {text!r}: more than {MAX_SWEEP_VALUES} values")
        out, v = [], lo
        while v <= hi:
            out.append(str(v.normalize()) if v != v.to_integral_value() else str(int(v)))
            v += step
        return out
    vals = [v.strip() for v in text.split(",") if v.strip()]
    if not vals:
        raise SweepError("--values: give a list (3,4,5) or a range (2..8)")
    if len(vals) > MAX_SWEEP_VALUES:
        raise SweepError(f"--values: more than {MAX_SWEEP_VALUES} values")
    return vals


def find_document(game: Game, data_id: str) -> dict[str, Any]:
    """The packaged document whose ``meta.id`` is ``data_id`` (parsed TOML)."""
    store = DataStore(game.package)
    ids = []
    for rel in store.listing():
        doc = store.raw(rel)
        got = doc.get("meta", {}).get("id") if isinstance(doc.get("meta"), dict) else None
        if got == data_id:
            return doc
        if got:
            ids.append(got)
    close = [i for i in ids if i.startswith(data_id.split(".")[0])][:12]
    raise SweepError(f"{game.id} has no data document {data_id!r} (for example: {', '.join(close or ids[:12])})")


def _convert(old: Any, text: str, where: str) -> Any:
    if isinstance(old, bool):
        low = text.lower()
        if low in {"true", "yes", "on", "1"}:
            return True
        if low in {"false", "no", "off", "0"}:
            return False
        raise SweepError(f"{where}: {text!r} is not yes or no")
    if isinstance(old, int):
        try:
            return int(text)
        except ValueError:
            raise SweepError(f"{where} is a whole number; {text!r} is not") from None
    if isinstance(old, float):
        try:
            return float(text)
        except ValueError:
            raise SweepError(f"{where} is a number; {text!r} is not") from None
    if isinstance(old, str):
        return text
    raise SweepError(f"{where} holds a {type(old).__name__}, not a single value: name one value inside it")


def set_value(doc: dict[str, Any], path: str, text: str) -> tuple[dict[str, Any], Any]:
    """A copy of ``doc`` with the value at ``path`` set from ``text``; also the old value."""
    out = copy.deepcopy(doc)
    node: Any = out
    steps = path.split(".")
    walked: list[str] = []
    for n, step in enumerate(steps):
        m = _STEP.match(step)
        if m is None:
            raise SweepError(f"path {path!r}: cannot read step {step!r}")
        name, sel = m["name"], m["sel"]
        here = ".".join(walked + [name])
        if not isinstance(node, dict) or name not in node:
            keys = ", ".join(sorted(node)) if isinstance(node, dict) else ""
            raise SweepError(f"path {path!r}: no key {name!r} at {'.'.join(walked) or 'the top'} (keys: {keys})")
        last = n == len(steps) - 1
        if sel is None:
            if last:
                old = node[name]
                node[name] = _convert(old, text, f"{here}")
                return out, old
            node = node[name]
            walked.append(name)
            continue
        seq = node[name]
        if not isinstance(seq, list):
            raise SweepError(f"path {path!r}: {here} is not an array, so [{sel}] cannot select in it")
        if sel.strip().lstrip("-").isdigit():
            i = int(sel)
            if not -len(seq) <= i < len(seq):
                raise SweepError(f"path {path!r}: {here} has {len(seq)} elements, no [{i}]")
            idx = i % len(seq)
        else:
            field, eq, want = sel.partition("=")
            if not eq:
                raise SweepError(f"path {path!r}: select with [N] or [field=value], not [{sel}]")
            hits = [
                i for i, e in enumerate(seq)
                if isinstance(e, dict) and str(e.get(field.strip())) == want.strip()
            ]
            if len(hits) != 1:
                raise SweepError(
                    f"path {path!r}: {len(hits)} elements of {here} have {field.strip()} = {want.strip()!r} (need one)"
                )
            idx = hits[0]
        walked.append(f"{name}[{sel}]")
        if last:
            old = seq[idx]
            seq[idx] = _convert(old, text, ".".join(walked))
            return out, old
        node = seq[idx]
    raise SweepError(f"path {path!r} is empty")  # pragma: no cover - split never gives no step


def sweep_variants(game: Game, target: str, values: Sequence[str]) -> list[tuple[str, Variant]]:
    """One in-memory variant per value of ``target`` (``ID:path``), with the value as typed."""
    data_id, path = parse_target(target)
    doc = find_document(game, data_id)
    out = []
    for text in values:
        new, _ = set_value(doc, path, text)
        body = json.dumps(new, sort_keys=True, default=str).encode()
        digest = hashlib.sha256(b"sweep\n" + target.encode() + b"\n" + body).hexdigest()
        meta = Meta(
            id=f"sweep.{data_id}",
            source="variant",
            title=f"{target} = {text}",
            note=f"sweep of {target}",
        )
        new_meta = dict(new.get("meta", {}))
        new_meta["source"] = "variant"
        new_meta["note"] = f"{data_id} with {path} = {text} (sweep)"
        new["meta"] = new_meta
        out.append((text, Variant(path=f"sweep:{target}={text}", meta=meta, replace={data_id: new}, digest=digest)))
    return out
