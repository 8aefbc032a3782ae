"""Files the program keeps: read within bounds, written atomically, locked for one writer.

- :func:`read_bytes_bounded` and :func:`check_regular_file` refuse a FIFO, a
  device, a socket or a directory without reading it, and a file over its limit;
- :func:`write_atomic` writes a temporary file, ``fsync`` s it and renames it
  over the old one, so a crash leaves the old file or the new one, never half
  of either (a symlink is followed, never replaced; temporary files a killed
  write left behind are removed);
- :class:`FileLock` is the advisory lock that lets one process at a time play
  a save, naming the holder to whoever else tries.

Nothing here knows what a file holds: the save format is
:mod:`ancients_kit.savefile`'s, the outputs' rules :mod:`ancients_kit.outputs`'s.
Every failure is one line naming the file.
"""

from __future__ import annotations

import datetime
import errno
import json
import os
import socket
import stat
import sys
import tempfile
from pathlib import Path
from typing import Any

from ancients_kit.data import DataError
from ancients_kit.errors import GameError, ReplayError

try:  # POSIX; elsewhere files are written without a lock
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "FileLock",
    "SaveError",
    "SaveLocked",
    "check_name",
    "check_regular_file",
    "clean_stray_temps",
    "describe_oserror",
    "lock_path",
    "read_bytes_bounded",
    "show_path",
    "write_atomic",
]


class SaveError(GameError, OSError):
    """A save file cannot be written (a directory, no permission, a bad name ...)."""


class SaveLocked(SaveError):
    """Another process holds the save file's lock (it is playing that game)."""


def _file_kind(mode: int) -> str:
    return (
        "a directory" if stat.S_ISDIR(mode)
        else "a FIFO" if stat.S_ISFIFO(mode)
        else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
        else "a socket" if stat.S_ISSOCK(mode)
        else "not a regular file"
    )


def read_bytes_bounded(path: Path, limit: int, what: str = "save file") -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them.

    A FIFO, a device, a socket or a directory is refused without reading (the
    file is opened non-blocking, so even opening a FIFO cannot hang); any
    failure is a :class:`~ancients_kit.errors.ReplayError` naming the file.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise ReplayError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    except ValueError:  # a NUL byte in the name
        raise ReplayError(f"cannot read {what} {path!r}: the name holds a NUL byte") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ReplayError(f"{path}: is {_file_kind(st.st_mode)}, not a {what}; refused without reading it")
        if st.st_size > limit:
            raise ReplayError(f"{path}: {st.st_size} bytes is more than a {what} may hold ({limit} bytes)")
        chunks: list[bytes] = []
        size = 0
        while True:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            size += len(chunk)
            if size > limit:
                raise ReplayError(f"{path}: more than {limit} bytes, more than a {what} may hold")
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise ReplayError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def check_regular_file(path: str | Path, what: str, limit: int) -> None:
    """Refuse, without reading it, a ``path`` that is not a regular file of at
    most ``limit`` bytes: a :class:`~ancients_kit.data.DataError` naming the
    file. A missing file is left for the reader to report."""
    try:
        st = os.stat(path)
    except ValueError:
        raise DataError(repr(str(path)), "the name holds a NUL byte") from None
    except OSError:
        return
    if not stat.S_ISREG(st.st_mode):
        raise DataError(str(path), f"is {_file_kind(st.st_mode)}, not a {what}; refused without reading it")
    if st.st_size > limit:
        raise DataError(str(path), f"{st.st_size} bytes is more than a {what} may hold ({limit} bytes)")


def check_name(path: Path) -> None:
    """Refuse, with a :class:`SaveError`, a save path that can never be written:
    a NUL byte, a name or path too long for the system, a directory,
    anything but a regular file (a symlink counts as what it points to), or a
    file without any write permission (kept as it is, even from root)."""
    text = str(path)
    if "\x00" in text:
        raise SaveError(f"cannot write {text!r}: the name holds a NUL byte")
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.ENOTDIR, errno.EACCES, errno.ELOOP):
            return  # reported by the write itself, with its reason
        raise SaveError(describe_oserror(path, exc)) from None
    if stat.S_ISDIR(st.st_mode):
        raise SaveError(f"cannot write {show_path(path)}: it is a directory")
    if not stat.S_ISREG(st.st_mode):  # never rename a save over /dev/null or a FIFO
        raise SaveError(f"{show_path(path)}: is {_file_kind(st.st_mode)}, not a save file; "
                        "refused without reading or writing it")
    if not st.st_mode & 0o222:  # the owner made it read-only: a save kept as it is
        raise SaveError(f"cannot write {show_path(path)}: it is read-only (chmod u+w to let games write it)")


def _target(path: Path) -> Path:
    """The file a save to ``path`` writes: a symlink's target (never the link itself)."""
    if path.is_symlink():
        real = Path(os.path.realpath(path))
        if not real.parent.is_dir():
            raise SaveError(f"cannot write {path}: it is a symlink to {real}, whose folder does not exist")
        return real
    return path


def show_path(path: Path | str) -> str:
    """A path for a one-line message (a very long one shortened in the middle)."""
    text = str(path)
    return text if len(text) <= 160 else f"{text[:80]}...{text[-60:]}"


def describe_oserror(path: Path, exc: OSError) -> str:
    if exc.errno == errno.EISDIR:
        return f"cannot write {show_path(path)}: it is a directory"
    if exc.errno == errno.ENAMETOOLONG:
        return f"cannot write {show_path(path)}: the name is too long"
    return f"cannot write {show_path(path)}: {exc.strerror or exc}"


def _mode_for(target: Path) -> int:
    """The permission bits a save keeps: the old file's, or 0o666 less the umask."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def _flock(fd: int, *, block: bool = False) -> bool:
    if fcntl is None:  # pragma: no cover
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if block else fcntl.LOCK_NB))
    except BlockingIOError:
        return False
    except OSError as exc:  # some filesystems have no flock: treat as unlocked
        if exc.errno in (errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS):
            return True
        raise
    return True


def _is_temp_name(name: str, base: str) -> bool:
    prefix = f".{base}."
    return name.startswith(prefix) and name.endswith(".tmp") and len(name) > len(prefix) + len(".tmp")


def clean_stray_temps(path: Path) -> list[str]:
    """Remove ``.NAME.xxxx.tmp`` files a killed save of ``path`` left behind.

    A save holds a lock on its temporary file while writing it, so only files
    nobody is writing are removed. Returns the names removed.
    """
    folder = path.parent
    removed: list[str] = []
    try:
        names = os.listdir(folder)
    except OSError:
        return removed
    for name in names:
        if not _is_temp_name(name, path.name):
            continue
        full = folder / name
        try:
            fd = os.open(full, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            continue
        try:
            if stat.S_ISREG(os.fstat(fd).st_mode) and _flock(fd):
                os.unlink(full)
                removed.append(name)
        except OSError:
            pass
        finally:
            os.close(fd)
    return removed


def write_atomic(path: str | Path, text: str | bytes, *, follow_links: bool = True) -> Path:
    """Write ``text`` to ``path`` so that a crash leaves the old file or the new one.

    A save's symlink is followed (its target is rewritten, the link stays);
    with ``follow_links=False`` (the outputs of :mod:`ancients_kit.outputs`) a
    link is replaced by the new file instead. Stray temporary files of earlier
    killed saves are removed. Any failure is a :class:`SaveError` with a
    one-line message, and the old file is untouched. Returns the file written.
    """
    p = Path(path)
    try:
        if follow_links or not p.is_symlink():
            check_name(p)
        target = _target(p) if follow_links else p
        data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
        for attempt in range(3):
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
            try:
                with os.fdopen(fd, "wb") as fh:
                    _flock(fh.fileno())
                    os.fchmod(fh.fileno(), _mode_for(target))
                    fh.write(data)
                    fh.flush()
                    os.fsync(fh.fileno())
                    os.replace(tmp, target)
                break
            except FileNotFoundError:  # another cleaner took our temp file: once more
                if attempt == 2:
                    raise
            except BaseException:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
                raise
        clean_stray_temps(target)
        return target
    except SaveError:
        raise
    except OSError as exc:
        raise SaveError(describe_oserror(p, exc)) from None
    except (ValueError, UnicodeError) as exc:
        raise SaveError(f"cannot write {str(p)!r}: {exc}") from None


# -- one writer per game -------------------------------------------------------------


def lock_path(path: Path) -> Path:
    """The advisory lock file of the save ``path`` (next to the file it protects)."""
    t = Path(os.path.realpath(path))
    return t.with_name(f".{t.name}.lock")


def _holder() -> dict[str, Any]:
    return {
        "pid": os.getpid(),
        "host": socket.gethostname(),
        "command": " ".join(os.path.basename(a) if i == 0 else a for i, a in enumerate(sys.argv))[:200],
        "since": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M:%S UTC"),
    }


def _describe_holder(raw: bytes) -> str:
    try:
        info = json.loads(raw.decode("utf-8"))
        return f"process {int(info['pid'])} on {str(info['host'])[:64]} (since {str(info['since'])[:32]})"
    except (ValueError, KeyError, TypeError, AttributeError):
        return "another process"


class FileLock:
    """The advisory lock of the file ``path``: one process at a time holds it.

    :meth:`acquire` is refused with :class:`SaveLocked`, naming the process
    that holds it; the lock file (:func:`lock_path`) records the holder and is
    removed by :meth:`release`. Without ``flock`` (not POSIX) it does nothing.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    def acquire(self) -> None:
        if fcntl is None or self._fd is not None:  # pragma: no cover - no flock here
            return
        check_name(self.path)
        lp = lock_path(self.path)
        for _ in range(20):
            try:
                lp.parent.mkdir(parents=True, exist_ok=True)
                fd = os.open(lp, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0),
                             0o644)
            except OSError as exc:
                why = describe_oserror(self.path, exc)
                raise SaveError(f"{why} (its lock file {lp.name} cannot be made)") from None
            if not _flock(fd):
                try:
                    who = _describe_holder(os.pread(fd, 4096, 0))
                finally:
                    os.close(fd)
                raise SaveLocked(
                    f"{self.path} is being played by {who}; one game has one writer: "
                    f"wait until it stops, or watch with `ancients replay --follow {self.path}`"
                )
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(lp))
            except FileNotFoundError:
                same = False
            if not same:  # the holder released (and removed) it meanwhile: try the new file
                os.close(fd)
                continue
            os.ftruncate(fd, 0)
            os.pwrite(fd, json.dumps(_holder()).encode("utf-8"), 0)
            self._fd = fd
            return
        raise SaveError(f"cannot lock {self.path}: the lock file keeps changing ({lp})")

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is None:
            return
        try:
            os.unlink(lock_path(self.path))
        except OSError:
            pass
        os.close(fd)
