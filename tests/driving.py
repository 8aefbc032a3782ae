"""Run a rules generator (a window, a staged choice) on a list of answers, without a session."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any

from ancients_kit.session import Decision


def drive(gen: Generator[Decision, str, Any], answers: Sequence[str]) -> tuple[list[Decision], Any]:
    """Send ``answers`` one by one (each read as a typed answer, so refusals
    raise as in a session); return the decisions asked and the generator's
    result. Fails if the generator still asks after the last answer."""
    asked: list[Decision] = []
    try:
        d = next(gen)
        for a in answers:
            asked.append(d)
            d = gen.send(d.match(a).key)
    except StopIteration as stop:
        return asked, stop.value
    raise AssertionError(f"still asking {d.side}: {d.prompt} after {list(answers)}")
