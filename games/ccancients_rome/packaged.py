"""Packaged data documents parsed once per process (issue 11 item 5: throughput).

Every :class:`~ancients_kit.session.Session` builds a fresh
:class:`~ancients_kit.data.DataStore`, so without this each battle set-up
parsed the units, terrain and deck TOML files again. A store without variants
reads exactly the packaged files, which do not change while the process runs,
and the structured documents are frozen attrs classes, so such stores share
the first parse. A store with variants always loads for itself.
"""

from __future__ import annotations

from typing import Any, TypeVar

from ancients_kit.data import DataStore, Meta

__all__ = ["load_packaged"]

T = TypeVar("T")

_DOCS: dict[tuple[str, str, type], tuple[Meta, Any]] = {}


def load_packaged(store: DataStore, rel: str, cls: type[T]) -> tuple[Meta, T]:
    """``store.load(rel, cls)``, shared between stores without variants (same provenance record)."""
    if store.variants:
        return store.load(rel, cls)
    key = (store.package, rel, cls)
    got = _DOCS.get(key)
    if got is None:
        got = _DOCS[key] = store.load(rel, cls)
    else:
        store.loaded[got[0].id] = got[0]  # the record store.load leaves
    return got


def clear() -> None:
    """Forget every shared document (benchmarks measure the uncached set-up with it)."""
    _DOCS.clear()
