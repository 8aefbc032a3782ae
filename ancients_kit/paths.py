"""Paths named inside data files, variants and saves: confined, regular, bounded.

A path a user's file names is resolved by one rule (documented in
docs/designers-guide.md, "Paths inside data files"):

* a name inside a game's package (a scenario's ``map =``) is a relative path
  under the package's ``data/`` folder: no absolute path, no ``..`` step, no
  backslash, no NUL byte (:func:`check_package_name`);
* a name inside a file on disk (a variant's ``file =``) resolves relative to
  the folder of the file that names it and must stay inside that folder once
  symbolic links are followed (:func:`resolve_inside`); a save carries its
  variants' texts and reads no file (:mod:`ancients_kit.savefile`);
* whatever is read must be a regular file (never a directory, FIFO, socket or
  device such as ``/dev/zero``) of at most :data:`MAX_DATA_BYTES` bytes
  (:func:`read_regular_file`). A FIFO is refused without being opened for a
  blocking read, a device without being read.

Every refusal is a :class:`~ancients_kit.errors.DataError` naming the file that
holds the path and the key that holds it, in one line.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path, PurePosixPath

from ancients_kit.errors import DataError

__all__ = [
    "MAX_DATA_BYTES",
    "check_package_name",
    "read_regular_file",
    "resolve_inside",
]

MAX_DATA_BYTES = 4 * 1024 * 1024
"""Largest data, variant or included file read (4 MiB; the largest shipped
document is about 12 kB, so a designer's file has 300 times the room)."""


def _error(file: str, message: str, key: str = "") -> Exception:
    return DataError(file, message, key)


def _check_name(name: object, *, file: str, key: str) -> str:
    """The common lexical checks: a non-empty string without NUL bytes."""
    if not isinstance(name, str):
        raise _error(file, f"expected a file name (a string), got {type(name).__name__} {name!r}", key)
    if not name.strip():
        raise _error(file, "the file name is empty", key)
    if "\x00" in name:
        raise _error(file, "the file name holds a NUL byte", key)
    return name


def check_package_name(name: object, *, file: str, key: str) -> str:
    """``name`` if it is a relative path that stays under a package's ``data/`` folder.

    Purely lexical (package data may live in a zip file): no absolute path, no
    drive, no backslash, no ``..`` or empty step. Returns the name unchanged.
    """
    text = _check_name(name, file=file, key=key)
    if "\\" in text:
        raise _error(file, f"{text!r}: use '/' between folders, not '\\'", key)
    pure = PurePosixPath(text)
    if pure.is_absolute() or (len(text) > 1 and text[1] == ":"):
        raise _error(file, f"{text!r} is an absolute path; name a file under the game's data/ folder", key)
    if any(part in ("..", "") for part in text.split("/")) or text.startswith("./"):
        raise _error(file, f"{text!r} leaves or skips folders; name a file under the game's data/ folder", key)
    return text


def resolve_inside(base: str | Path, name: object, *, file: str, key: str) -> Path:
    """``base/name`` resolved, if it stays inside the folder ``base``.

    ``file`` and ``key`` name where the path was written, for the message. An
    absolute ``name`` or one whose resolved form (symbolic links followed)
    leaves ``base`` is refused.
    """
    text = _check_name(name, file=file, key=key)
    if Path(text).is_absolute():
        raise _error(file, f"{text!r} is an absolute path; name a file in the same folder as {file} or below it", key)
    root = Path(base).resolve()
    target = (root / text).resolve()
    if target != root and root not in target.parents:
        raise _error(file, f"{text!r} resolves outside the folder of {file} ({root}); keep included files beside it", key)
    return target


def read_regular_file(path: str | Path, what: str, *, limit: int = MAX_DATA_BYTES, file: str = "",
                      key: str = "") -> bytes:
    """The bytes of the regular file ``path``, of at most ``limit`` bytes.

    A missing or unreadable file, a directory, FIFO, socket or device, or a
    file over ``limit`` is a :class:`~ancients_kit.errors.DataError` naming
    ``file`` (the file that named ``path``; ``path`` itself by default) and
    ``key``. The file is checked before it is opened and again once open
    (``O_NONBLOCK``, so a FIFO swapped in between cannot block the read).
    """
    p = Path(path)
    where = file or str(p)
    prefix = "" if not file else f"{p}: "
    try:
        st = os.stat(p)
    except OSError as exc:
        raise _error(where, f"{prefix}cannot read {what}: {exc.strerror}", key) from None
    _check_stat(st, p, what, limit, where, prefix, key)
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise _error(where, f"{prefix}cannot read {what}: {exc.strerror}", key) from None
    try:
        _check_stat(os.fstat(fd), p, what, limit, where, prefix, key)
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 16, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise _error(where, f"{prefix}cannot read {what}: {exc.strerror}", key) from None
    finally:
        os.close(fd)
    if size > limit:
        raise _error(where, f"{prefix}{what} is larger than {limit} bytes", key)
    return b"".join(chunks)


def _check_stat(st: os.stat_result, p: Path, what: str, limit: int, where: str, prefix: str, key: str) -> None:
    mode = st.st_mode
    if stat.S_ISDIR(mode):
        raise _error(where, f"{prefix}cannot read {what}: it is a folder, not a file", key)
    if not stat.S_ISREG(mode):
        kind = ("a FIFO" if stat.S_ISFIFO(mode) else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
                else "a socket" if stat.S_ISSOCK(mode) else "not a regular file")
        raise _error(where, f"{prefix}cannot read {what}: it is {kind}, not a regular file", key)
    if st.st_size > limit:
        raise _error(where, f"{prefix}{what} is {st.st_size} bytes, larger than {limit} bytes", key)
