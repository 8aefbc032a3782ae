"""Options shared by several commands."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from ancients_kit.data import DataStore, Variant
from ancients_kit.files import check_regular_file
from ancients_kit.paths import MAX_DATA_BYTES

F = TypeVar("F", bound=Callable[..., Any])

__all__ = ["load_variants", "option_pairs", "variant_option", "variant_store"]


def variant_option(f: F) -> F:
    """``--variant FILE`` (repeatable): a designer's replacement tables, units, scenarios."""
    return click.option(
        "--variant",
        multiple=True,
        type=click.Path(dir_okay=False),
        help="A variant TOML file replacing tables, units or scenarios (repeatable).",
    )(f)


def load_variants(paths: tuple[str, ...]) -> tuple[Variant, ...]:
    """The ``--variant`` files; a device or FIFO (``/dev/zero``) is refused unread."""
    for p in paths:
        check_regular_file(p, "variant file", MAX_DATA_BYTES)
    return tuple(Variant.from_file(p) for p in paths)


def variant_store(package: str, paths: tuple[str, ...]) -> DataStore:
    """A game's data store with the ``--variant`` files, checked as ``ancients new`` checks them:
    every ``replace`` ID must name a document of this game."""
    store = DataStore(package, load_variants(paths))
    store.check_replacements()
    return store


def option_pairs(items: tuple[str, ...]) -> dict[str, str]:
    """``("fortune=yes", "weather=no")`` -> dict, with a clear message for typos."""
    out: dict[str, str] = {}
    for item in items:
        if "=" not in item:
            raise click.BadParameter(f"expected NAME=VALUE, got {item!r}", param_hint="--option")
        k, v = item.split("=", 1)
        out[k.strip()] = v.strip()
    return out
