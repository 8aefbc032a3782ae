"""Files a command writes besides its save: replay pages, pictures, plots, study records.

One rule for every such output (docs/players-guide.md, "Files ancients-kit
writes"), checked before the first byte is written:

* it is never a file the command reads: not its save, not one of its variant
  files, whatever path leads there (the same name, ``./`` steps, a hard link);
* it is never a saved game, whichever game: a file that reads as a save
  (format ``ancients-kit/session``) is kept as it is;
* it is never written through a symbolic link: a link standing where the
  output goes is refused, and the write itself renames a new file into place,
  so a link planted after the check is replaced, not followed;
* it is written atomically (temporary file, ``fsync``, rename), so a page or a
  picture is either the old one or the whole new one.

Saves are the one file written through a link (a save kept in a synced folder
by a link stays there; :func:`ancients_kit.files.write_atomic`), because a
save is the file the player named to hold his game.

Every refusal is an :class:`OutputRefused`: one line naming the option, the
file and why, with exit code 2 from the command line.
"""

from __future__ import annotations

import errno
import io
import os
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ancients_kit.errors import GameError
from ancients_kit.files import write_atomic
from ancients_kit.savefile import SAVE_FORMAT

__all__ = ["OutputRefused", "check_output", "is_save_file", "write_output", "write_figure"]

SNIFF_BYTES = 4096
"""How much of an existing file is read to learn whether it is a save (its
``"format"`` key comes first in every save this program writes)."""


class OutputRefused(GameError):
    """An output path that would overwrite an input, a save, or write through a link."""


def is_save_file(path: str | Path) -> bool:
    """Whether the regular file at ``path`` reads as a saved game (its first
    :data:`SNIFF_BYTES` bytes name the save format). Nothing else is read."""
    try:
        with open(path, "rb", opener=_no_follow) as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                return False
            head = fh.read(SNIFF_BYTES)
    except OSError:
        return False
    return b'"format"' in head and SAVE_FORMAT.encode() in head


def _no_follow(path: str, flags: int) -> int:
    return os.open(path, flags | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))


def _same_file(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def check_output(path: str | Path, *, reads: Iterable[str | Path] = (), what: str = "output") -> Path:
    """Refuse ``path`` as an output unless writing it is safe (module docstring).

    ``reads`` are the files the command reads (its save, its variants); ``what``
    names the option in the message (``"--html"``). Returns ``path``.
    """
    p, shown = Path(path), str(path)
    try:
        st = os.lstat(p)  # the name itself: a link is not followed
    except ValueError:
        raise OutputRefused(f"{what} {shown!r}: the name holds a NUL byte") from None
    except OSError as exc:
        if exc.errno == errno.ENOENT:
            return p
        raise OutputRefused(f"{what} {shown}: cannot be written ({exc.strerror or exc})") from None
    if stat.S_ISLNK(st.st_mode):
        raise OutputRefused(f"{what} {shown}: is a symbolic link; an output is not written through a link "
                            "(remove the link or name another file)")
    if stat.S_ISDIR(st.st_mode):
        raise OutputRefused(f"{what} {shown}: is a directory; name a file")
    if not stat.S_ISREG(st.st_mode):
        raise OutputRefused(f"{what} {shown}: is not a regular file; refused without writing it")
    for src in reads:
        try:
            if _same_file(st, os.stat(src)):
                raise OutputRefused(f"{what} {shown}: is {src}, which this command reads; "
                                    "name another file for the output")
        except OSError:
            continue
    if is_save_file(p):
        raise OutputRefused(f"{what} {shown}: is a saved game; it is kept as it is (name another file)")
    return p


def write_output(path: str | Path, data: str | bytes, *, reads: Iterable[str | Path] = (),
                 what: str = "output") -> Path:
    """Check ``path`` (:func:`check_output`), then write ``data`` to it atomically,
    replacing (never following) whatever stands there by then."""
    p = check_output(path, reads=tuple(reads), what=what)
    try:
        return write_atomic(p, data, follow_links=False)
    except GameError as exc:
        raise OutputRefused(f"{what}: {exc}") from None


def write_figure(fig: Any, path: str | Path, *, reads: Iterable[str | Path] = (), what: str = "--plot",
                 **savefig: Any) -> Path:
    """A matplotlib figure written as :func:`write_output` writes (the format
    from the suffix: ``.svg`` or ``.png``)."""
    reads = tuple(reads)
    p = check_output(path, reads=reads, what=what)
    buf = io.BytesIO()
    fig.savefig(buf, format=p.suffix.lower().lstrip("."), **savefig)
    return write_output(p, buf.getvalue(), reads=reads, what=what)
