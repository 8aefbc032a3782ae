"""Staged choice of a group: add, remove, done, with short option lists.

Designating a force (Xenophon: "a group of units conducting Operations
together", xen:forces, from a hex of at most 10 units, xen:stacking; LDF
pick-ups and drop-offs) chooses a *subset* of candidates. The subsets of 10
units are 1,024; the staged decision asks one step at a time
instead, so every list stays short (at most one ``add`` per group of
interchangeable candidates, one ``remove`` per chosen group, and ``done``)::

    members = yield from choose_group(
        side, "Form the reacting force", candidates, at_most=10, rule="xen:stacking",
        same=lambda o: o.data.kind,          # two militia of one satrapy are interchangeable
    )

``add:<group>`` adds the first candidate of that group not yet chosen,
``remove:<group>`` takes out the last one chosen, ``done`` ends the choice
(offered once at least ``at_least`` are chosen). When ``at_most`` are chosen no
``add`` is offered, and typing one is refused with the rule that sets the
limit. Every step is an ordinary answer, so bots and replays need nothing new;
nothing is logged (the rules log the force they form).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from typing import Final

from ancients_kit.protocol import Decision, Option

__all__ = ["ADD", "DONE", "REMOVE", "choose_group"]

DONE: Final = "done"
ADD: Final = "add:"
REMOVE: Final = "remove:"


def choose_group(
    side: str,
    prompt: str,
    candidates: Sequence[Option],
    *,
    at_most: int,
    rule: str,
    at_least: int = 0,
    kind: str = "group",
    same: Callable[[Option], str] | None = None,
    chosen: Sequence[str] = (),
    words: Callable[[str], str] | None = None,
) -> Generator[Decision, str, tuple[str, ...]]:
    """Let ``side`` choose between ``at_least`` and ``at_most`` of ``candidates``.

    ``same(option)`` names the group of interchangeable candidates an option
    belongs to (default: each candidate is its own group, named by its key);
    group names become the keys ``add:<name>`` and ``remove:<name>``.
    ``chosen`` holds candidate keys already in the group (a force being
    reorganised). ``words(name)`` names a group of several candidates in the
    game's words for the labels (``add a rebel leader (2 left)``, ``remove a
    rebel leader``) when its name is an internal ID (``leader.rebel``); by
    default the labels show the name. Keys never change. Returns the chosen
    keys in the order of ``candidates``; when every candidate must be chosen
    (``at_least`` is their number) nothing is asked.
    """
    keys = [o.key for o in candidates]
    if len(set(keys)) != len(keys):
        raise ValueError(f"{prompt!r}: candidate keys repeat")
    if not 0 <= at_least <= at_most:
        raise ValueError(f"{prompt!r}: need 0 <= at_least ({at_least}) <= at_most ({at_most})")
    if at_least > len(candidates):
        raise ValueError(f"{prompt!r}: at least {at_least} must be chosen from only {len(candidates)} candidates")
    group_of = {o.key: (same(o) if same is not None else o.key) for o in candidates}
    for name in group_of.values():
        if not name or any(c.isspace() for c in name):
            raise ValueError(f"{prompt!r}: group name {name!r} must be non-empty without spaces")
    groups: dict[str, list[Option]] = {}
    for o in candidates:
        groups.setdefault(group_of[o.key], []).append(o)
    said: Callable[[str], str] = words if words is not None else str
    picked: list[str] = []
    for k in chosen:
        if k not in group_of:
            raise ValueError(f"{prompt!r}: {k!r} is not a candidate")
        if k not in picked:
            picked.append(k)
    if len(picked) > at_most:
        raise ValueError(f"{prompt!r}: {len(picked)} already chosen, more than {at_most}")

    if at_least == len(candidates):
        return tuple(keys)  # every candidate must be chosen: a forced answer, not a question
    while True:
        options: list[Option] = []
        if len(picked) >= at_least:
            options.append(Option(DONE, f"done ({len(picked)} chosen)"))
        if len(picked) < at_most:
            for name, members in groups.items():
                left = [o for o in members if o.key not in picked]
                if left:
                    what = left[0].label or left[0].key
                    label = f"add {what}" if len(members) == 1 else f"add {said(name)} ({len(left)} left)"
                    options.append(Option(f"{ADD}{name}", label, data=left[0]))
        swap = len(groups) > 1  # at the least, a removal is worth offering only to take another group
        for name, members in groups.items():
            inside = [k for k in picked if group_of[k] == name]
            if inside and (len(picked) > at_least or swap):
                options.append(Option(f"{REMOVE}{name}", f"remove {said(name) if len(members) > 1 else inside[-1]}"))
        names = ", ".join(picked) if picked else "none"
        key = yield Decision(
            side,
            f"{prompt} ({len(picked)} of at most {at_most} chosen: {names})",
            tuple(options),
            rule=rule,
            kind=kind,
            refuse=_refusal(len(picked), at_least, at_most, rule),
            context={"chosen": tuple(picked)},
        )
        if key == DONE:
            return tuple(k for k in keys if k in picked)
        if key.startswith(ADD):
            name = key[len(ADD) :]
            picked.append(next(o.key for o in groups[name] if o.key not in picked))
        else:
            name = key[len(REMOVE) :]
            last = max(i for i, k in enumerate(picked) if group_of[k] == name)
            del picked[last]


def _refusal(count: int, at_least: int, at_most: int, rule: str) -> Callable[[str], tuple[str, str] | None]:
    def refuse(text: str) -> tuple[str, str] | None:
        low = text.strip().lower()
        if low.startswith(ADD) and count >= at_most:
            return (f"{text.strip()!r}: at most {at_most} may be chosen; remove one first", rule)
        if low == DONE and count < at_least:
            return (f"{text.strip()!r}: choose at least {at_least} first ({count} chosen)", rule)
        return None

    return refuse
