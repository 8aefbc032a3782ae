"""A tiny headless-Chromium driver for the suite: the DevTools protocol over a pipe.

Chromium started with ``--remote-debugging-pipe`` reads protocol commands on
file descriptor 3 and writes replies and events on descriptor 4, each message
JSON ended by a NUL byte. That is all a test needs to load a page, press keys,
click and read the page back, with no driver package and no network port.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

__all__ = ["Browser", "chromium_path"]

FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-default-apps", "--remote-debugging-pipe",
)


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


class Browser:
    """One headless browser with one page; use as a context manager."""

    def __init__(self, binary: str, timeout: float = 120.0) -> None:
        self.timeout = timeout
        """Seconds one call may take: a guard against a hung browser, not a speed test (a
        whole campaign's positions rebuilt in the page took over 30 s on a loaded machine)."""
        self._profile = tempfile.mkdtemp(prefix="ancients-chromium-")
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()

        def fds() -> None:  # in the child: the protocol's descriptors 3 and 4
            # Lifted out of the way first, so that neither dup2 clobbers the other pipe end.
            r, w = os.dup(to_child_r), os.dup(from_child_w)
            r, w = os.dup2(r, 100), os.dup2(w, 101)
            os.dup2(r, 3)
            os.dup2(w, 4)

        self.proc = subprocess.Popen(
            [binary, *FLAGS, f"--user-data-dir={self._profile}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            # subprocess closes other descriptors after preexec_fn: 3 and 4 must be kept.
            preexec_fn=fds, pass_fds=(3, 4), close_fds=True,
        )
        os.close(to_child_r)
        os.close(from_child_w)
        self._buf = b""
        self._id = 0
        self.session: str | None = None
        targets = self.call("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        self.session = self.call("Target.attachToTarget", targetId=page["targetId"], flatten=True)["sessionId"]
        self.call("Page.enable")

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        try:
            self.session = None
            self.call("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._to_child, self._from_child):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self._profile, ignore_errors=True)

    def _read(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buf:
            if time.monotonic() > deadline:
                raise TimeoutError("no answer from the browser")
            chunk = os.read(self._from_child, 1 << 16)
            if not chunk:
                raise RuntimeError("the browser closed its pipe")
            self._buf += chunk
        raw, _, self._buf = self._buf.partition(b"\0")
        return json.loads(raw)

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self._id += 1
        msg: dict[str, Any] = {"id": self._id, "method": method, "params": params}
        if self.session is not None:
            msg["sessionId"] = self.session
        os.write(self._to_child, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})

    def open(self, path: Path) -> None:
        self.call("Page.navigate", url=path.resolve().as_uri())
        deadline = time.monotonic() + self.timeout
        while self.js("document.readyState") != "complete":
            if time.monotonic() > deadline:
                raise TimeoutError(f"{path} did not load")
            time.sleep(0.05)

    def js(self, expression: str) -> Any:
        res = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in res:
            raise RuntimeError(f"{expression}: {res['exceptionDetails'].get('text')}")
        return res["result"].get("value")

    def key(self, key: str, code: int) -> None:
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", type=kind, key=key, code=key, windowsVirtualKeyCode=code)

    def click(self, selector: str) -> None:
        box = self.js(f"(()=>{{const r=document.querySelector({json.dumps(selector)}).getBoundingClientRect();"
                      "return [r.x + r.width / 2, r.y + r.height / 2];})()")
        x, y = box
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)
