"""Helpers the chit test games share: dealing chits named by an option, showing a hand."""

from __future__ import annotations

from collections.abc import Collection

from ancients_kit.chance import Hand


def deal(hand: Hand, text: str, option: str, chits: Collection[str]) -> None:
    """Put the comma-separated chits of ``text`` (scenario option ``option``) into ``hand``."""
    for chit in (c.strip() for c in text.split(",")):
        if chit:
            if chit not in chits:
                raise ValueError(f"option {option}: no chit called {chit!r} (chits: {', '.join(sorted(chits))})")
            hand.add(chit)


def held(hand: Hand, viewer: str | None) -> str:
    """The hand as ``viewer`` may see it: the chits for its owner (and ``None``), their number for others."""
    seen = hand.cards if viewer is None else hand.visible_to(viewer)
    return f"{seen} chits" if isinstance(seen, int) else ", ".join(map(str, seen)) or "no chits"
