"""What the games' tests share: driving a rules generator, golden playthroughs.

For the test suites of the games shipped here and of third-party plugins (it
needs no test framework; a failed check is an :class:`AssertionError`):

- :func:`drive` runs a rules generator (a phase, a window, a staged choice)
  on typed answers, without a session (keys in order, a scripted player, or
  keys by decision kind), and gives back the decisions asked and the
  generator's result;
- :class:`DecliningBot` and :func:`public_view` test what a side may see: a
  game played on by bots that never play at a window, as one viewer saw it
  (two games differing only in another side's hand must look the same);
- :func:`check_golden` plays a seeded game and compares it with its golden
  playthrough, two checked-in files: ``NAME.txt``, the readable log (a change
  in the rules or data shows as a reviewable diff), and ``NAME.json``, the
  game, scenario, seed, options and answers that made it. The answers must
  replay to the log (the rules alone), the game played now must give the
  same answers (the bots too), and a missing file fails: it is written only
  with ``ANCIENTS_GOLDEN_UPDATE=1`` (or the game's own variable), to be read
  before it is committed.
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console

from ancients_kit.bots import Bot, RandomBot
from ancients_kit.session import Decision, Session
from ancients_kit.windows import NEVER, NO, seen_by

__all__ = ["GOLDEN_UPDATE_VAR", "MAX_DECISIONS", "Answers", "DecliningBot", "check_golden", "drive", "golden_record",
           "public_view"]

GOLDEN_UPDATE_VAR = "ANCIENTS_GOLDEN_UPDATE"
"""Set to ``1`` to write the golden playthroughs anew (then read the diff before committing)."""


Answers = Sequence[str] | Callable[[Decision], str] | Mapping[str, "str | Callable[[Decision], str]"]
"""What :func:`drive` answers with: keys in order, a function of the decision, or keys by decision kind."""

MAX_DECISIONS = 100_000
"""Decisions :func:`drive` answers at most before it calls the generator endless."""


def drive(gen: Generator[Decision, str, Any], answers: Answers = ()) -> tuple[list[Decision], Any]:
    """Run a rules generator on ``answers``, without a session; return the decisions
    asked and the generator's result.

    ``answers`` is one of:

    - a sequence of keys, given in order: it fails if the generator still asks
      after the last one, or ends with some left over;
    - a function of the decision, giving its answer (a scripted player);
    - a mapping from decision kind to a key or such a function: an interrupt
      window it does not name is declined (``no``), any other question it does
      not name fails.

    Each answer is read as a typed answer (:meth:`Decision.match`), so a refused
    one raises as in a session.
    """
    asked: list[Decision] = []
    todo = list(answers) if not callable(answers) and not isinstance(answers, Mapping) else None
    try:
        d = next(gen)
        while len(asked) < MAX_DECISIONS:
            asked.append(d)
            if todo is not None:
                if not todo:
                    raise AssertionError(f"still asking {d.side}: {d.prompt} {list(d.keys)} after {list(answers)}")
                a = todo.pop(0)
            elif isinstance(answers, Mapping):
                got = answers.get(d.kind)
                if got is None:
                    if not d.kind.startswith("window."):
                        raise AssertionError(f"unexpected decision {d.kind}: {d.prompt} {list(d.keys)}")
                    got = NO
                a = got(d) if callable(got) else got
            else:
                a = answers(d)
            d = gen.send(d.match(a).key)
    except StopIteration as stop:
        if todo:
            raise AssertionError(f"the rules ended with answers left over: {todo}") from None
        return asked, stop.value
    raise AssertionError(f"still asking after {MAX_DECISIONS} answers: {d.side}: {d.prompt}")


def golden_record(session: Session) -> dict[str, Any]:
    """What a golden playthrough keeps beside its log: game, scenario, seed, options, answers."""
    return {"game": session.game.id, "scenario": session.scenario, "seed": session.seed,
            "options": dict(sorted(session.options.items())), "answers": list(session.answers)}


def _record_text(rec: dict[str, Any]) -> str:
    # one answer a line, so that a change of play shows as a readable diff
    return json.dumps(rec, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def check_golden(play: Callable[[], Session], path: Path | str, *, update_var: str = "",
                 max_bytes: int | None = None) -> Session:
    """Play the game ``play`` gives (seeded, bots to the end or to a cap) and check it
    against the golden playthrough ``path`` (``NAME``: ``NAME.txt`` and ``NAME.json``).

    With ``ANCIENTS_GOLDEN_UPDATE=1`` (or ``update_var=1``) both files are written
    from this game first. Otherwise a missing file fails, naming the variable that
    writes it. Checked: the log equals ``NAME.txt`` byte for byte (and is under
    ``max_bytes``), the answers equal those in ``NAME.json`` and replay, with its
    seed and options, to the same log. Returns the game played."""
    base = Path(path)
    log_file, record_file = base.with_suffix(".txt"), base.with_suffix(".json")
    s = play()
    text = s.log.text()
    if max_bytes is not None:
        size = len(text.encode("utf-8"))
        assert size < max_bytes, f"{log_file}: a golden log of {size} bytes, over {max_bytes}: play less of the game"
    how = f"{GOLDEN_UPDATE_VAR}=1" + (f" (or {update_var}=1)" if update_var else "")
    if os.environ.get(GOLDEN_UPDATE_VAR) == "1" or (update_var and os.environ.get(update_var) == "1"):
        log_file.write_text(text, encoding="utf-8")
        record_file.write_text(_record_text(golden_record(s)), encoding="utf-8")
    for f in (log_file, record_file):
        assert f.is_file(), f"the golden playthrough {f} is missing: write it with {how} and review it"
    assert text == log_file.read_text(encoding="utf-8"), (
        f"the log differs from the golden playthrough {log_file} (if the change is intended, write it anew "
        f"with {how} and review the diff)")
    rec = json.loads(record_file.read_text(encoding="utf-8"))
    mine = golden_record(s)
    for key in ("game", "scenario", "seed", "options"):
        assert rec.get(key) == mine[key], f"{record_file}: {key} {rec.get(key)!r}, the test plays {mine[key]!r}"
    assert rec.get("answers") == mine["answers"], (
        f"{record_file}: the game gave other answers than the golden playthrough (the bots changed?); "
        f"write it anew with {how} and review the diff")
    again = Session(s.game, rec["scenario"], seed=rec["seed"], options=rec["options"], answers=rec["answers"])
    assert again.log.text() == text, f"{record_file}: its answers replay to another log than {log_file}"
    return s


class DecliningBot:
    """A bot that never plays at a window (``never`` at the windows named in
    ``mute``, ``no`` at the others) and answers everything else as ``base``
    does (a random bot by default). None of its answers looks at its hand, so
    two games that differ only in its hand must look the same to its opponents:
    the property :func:`public_view` tests."""

    name = "declining"

    def __init__(self, mute: Iterable[str] = (), base: Bot | None = None) -> None:
        self.mute = frozenset(mute)
        self.base: Bot = base if base is not None else RandomBot()

    def choose(self, session: Session, decision: Decision) -> str:
        if decision.kind.startswith("window."):
            return NEVER if decision.kind.removeprefix("window.") in self.mute else NO
        return self.base.choose(session, decision)


def public_view(
    session: Session, viewer: str, bots: Mapping[str, Bot], *, limit: int = 10_000
) -> tuple[tuple[tuple[Any, ...], ...], tuple[str, ...], str]:
    """Play ``session`` on with ``bots`` (one per side) and return all that
    ``viewer`` saw: every question as :func:`~ancients_kit.windows.seen_by` shows it, the log as
    ``viewer`` reads it, and the game's final render for ``viewer`` (as plain text).

    Two games that differ only in another side's hand or secret numbers (with that side's
    answers independent of them, e.g. a :class:`DecliningBot`) give the same log in this view;
    their questions differ at most in that side being asked where it holds a play.
    """
    questions: list[tuple[Any, ...]] = []
    while session.decision is not None and len(questions) < limit:
        d = session.decision
        questions.append(seen_by(d, viewer))
        session.answer(bots[d.side].choose(session, d))
    return tuple(questions), tuple(session.log.lines(viewer)), _as_text(session.game.render(session.state, viewer))


def _as_text(renderable: Any) -> str:
    """A render as plain text, so that two renders compare by what they show."""
    if isinstance(renderable, str):
        return renderable

    console = Console(record=True, width=200, color_system=None, file=io.StringIO())
    console.print(renderable)
    return console.export_text()
