"""A whole number per side that only its owner sees (Xenophon's treasury).

Xenophon keeps each player's $ "secretly on paper (or make a $ track and keep
$ public)" (xen:treasury; the open option is xen:intelligence's "[Option:
Treasury totals ($) may instead be tracked openly]"). :class:`SecretNumber`
holds such a number and writes every change to the log as an event private to
its owner, so the other sides read only the public text the rules give (by
default that the number changed, never by how much)::

    treasury = SecretNumber("Rebels", 40, name="treasury", rule="xen:treasury",
                            open=ctx.options["open_treasury"])
    treasury.gain(ctx, 9, "income", ("xen:treasury",))
    treasury.spend(ctx, 2, "buys a chit", ("xen:stratagem",))
    treasury.visible_to("Empire")          # None, unless the option is on

Renders and questions use :meth:`visible_to` / :meth:`shown_to`; a question
to another side must never depend on the value (the rules offer the owner
only what it can afford, and the owner alone sees those options). With
``open=True`` every event and view shows the number to everybody.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ancients_kit.errors import IllegalAnswer
from ancients_kit.log import Event

if TYPE_CHECKING:
    from ancients_kit.protocol import Context

__all__ = ["SecretNumber"]


class SecretNumber:
    """A non-negative whole number owned by one side, hidden from the others unless open."""

    __slots__ = ("name", "open", "owner", "rule", "value")

    def __init__(self, owner: str, value: int = 0, *, name: str = "treasury", rule: str = "", open: bool = False) -> None:
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"{owner}'s {name} must be a whole number >= 0, not {value!r}")
        self.owner = owner
        self.value = value
        self.name = name
        """What the number is, in the rulebook's words (``treasury``)."""
        self.rule = rule
        """Rule ID quoted when a spending is refused."""
        self.open = open
        """True under the open-information scenario option: everybody sees it."""

    def visible_to(self, viewer: str | None) -> int | None:
        """The value for its owner, an omniscient viewer (``None``) or anyone when open; else ``None``."""
        if self.open or viewer is None or viewer == self.owner:
            return self.value
        return None

    def shown_to(self, viewer: str | None) -> str:
        """The value as text for ``viewer``: the number, or ``?``."""
        v = self.visible_to(viewer)
        return "?" if v is None else str(v)

    def can_pay(self, amount: int) -> bool:
        return 0 <= amount <= self.value

    def gain(
        self, ctx: Context, amount: int, reason: str, rules: str | Sequence[str] = (), *, public_text: str = ""
    ) -> Event:
        """Add ``amount`` (logged privately to the owner unless open)."""
        if amount < 0:
            raise ValueError(f"{self.owner}: {self.name}: gain {amount} is negative; use spend")
        return self._change(ctx, amount, reason, rules, public_text)

    def spend(
        self, ctx: Context, amount: int, reason: str, rules: str | Sequence[str] = (), *, public_text: str = ""
    ) -> Event:
        """Take ``amount`` away; more than the value is refused naming the rule."""
        if amount < 0:
            raise ValueError(f"{self.owner}: {self.name}: spend {amount} is negative; use gain")
        if amount > self.value:
            raise IllegalAnswer(
                f"{self.owner}: {self.name} holds {self.value}, not the {amount} needed to {reason}",
                answer=str(amount),
                rule=self.rule,
            )
        return self._change(ctx, -amount, reason, rules, public_text)

    def reveal(self, ctx: Context, to: str, rules: str | Sequence[str] = (), *, reason: str = "") -> Event:
        """Show the value to ``to`` (Xenophon's D1 result, King's Eye); the owner
        and the other sides read only that it was shown."""
        why = f" ({reason})" if reason else ""
        return ctx.event(
            "secret",
            f"{to} sees {self.owner}: {self.name} {self.value}{why}",
            rules,
            side=to,
            private_to=None if self.open else to,
            public_text=f"{to} sees {self.owner}: {self.name}{why}",
            owner=self.owner,
            name=self.name,
            value=self.value,
        )

    def _change(self, ctx: Context, delta: int, reason: str, rules: str | Sequence[str], public_text: str) -> Event:
        old = self.value
        self.value = old + delta
        sign = "+" if delta >= 0 else "-"
        return ctx.event(
            "secret",
            f"{self.owner}: {self.name} {old} {sign} {abs(delta)} = {self.value} ({reason})",
            rules,
            side=self.owner,
            private_to=None if self.open else self.owner,
            public_text=public_text or f"{self.owner}: {self.name} changes ({reason})",
            owner=self.owner,
            name=self.name,
            delta=delta,
            value=self.value,
        )

    def copy(self) -> SecretNumber:
        return SecretNumber(self.owner, self.value, name=self.name, rule=self.rule, open=self.open)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SecretNumber) and (self.owner, self.value, self.name, self.open) == (
            other.owner,
            other.value,
            other.name,
            other.open,
        )

    def __repr__(self) -> str:
        return f"SecretNumber({self.owner!r}, {self.value}, name={self.name!r}, open={self.open})"
