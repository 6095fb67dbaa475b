"""A line naming a case that has been running for a while, so that a hanging engine does not
look like a frozen tool (``mtgconf run``'s progress shows only finished cases).

A pytest plugin of the process that reports (the xdist controller: it hears each worker's
``logstart``). Quiet for a case that ends within ``after`` seconds; then one line when it
passes ``after`` and one each ``every`` seconds more, on stderr, plain lines (no cursor
movement: a CI log keeps them as written); on a terminal each starts on a line of its own, not
after pytest's progress characters.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import TextIO

import pytest

AFTER = 5.0
EVERY = 10.0


def _own_stderr() -> TextIO:
    """This process's stderr as it is now, kept apart from pytest's capture (which, in a run
    in this process, redirects file descriptor 2 while a case runs: the very moment a notice
    is for)."""
    try:
        return os.fdopen(os.dup(sys.stderr.fileno()), "w", encoding="utf-8", closefd=True)
    except (OSError, ValueError, AttributeError):  # not a real file (a test's capture)
        return sys.stderr


class SlowCases:
    def __init__(self, *, after: float = AFTER, every: float = EVERY,
                 stream: TextIO | None = None, case_timeout: float | None = None) -> None:
        self.after = after
        self.every = every
        self.stream = stream if stream is not None else _own_stderr()
        self.case_timeout = case_timeout
        self._running: dict[str, tuple[float, float]] = {}  # node id: started, next notice
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def pytest_sessionstart(self) -> None:
        self._thread = threading.Thread(target=self._watch, name="mtgconf-slow-cases",
                                        daemon=True)
        self._thread.start()

    def pytest_sessionfinish(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        if self.stream is not sys.stderr and self.stream is not sys.__stderr__:
            self.stream.flush()

    def pytest_runtest_logstart(self, nodeid: str) -> None:
        now = time.monotonic()
        with self._lock:
            self._running[nodeid] = (now, now + self.after)

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logfinish(self, nodeid: str) -> None:
        with self._lock:
            self._running.pop(nodeid, None)

    def check(self, now: float) -> list[str]:
        """The lines due at ``now`` (each running case past its next notice)."""
        due = []
        with self._lock:
            for nodeid, (started, notice) in self._running.items():
                if now >= notice:
                    self._running[nodeid] = (started, notice + self.every)
                    due.append(self._line(nodeid, now - started))
        return due

    def _line(self, nodeid: str, seconds: float) -> str:
        parts = nodeid.split("::")
        name = "::".join(parts[-2:]) if len(parts) >= 3 else nodeid
        limit = f" (its limit: --case-timeout {self.case_timeout:g} s)" \
            if self.case_timeout else " (no --case-timeout)"
        return f"mtgconf: still running after {seconds:.0f} s: {name}{limit}"

    def _watch(self) -> None:
        tty = self.stream.isatty()
        while not self._stop.wait(0.5):
            for line in self.check(time.monotonic()):
                self.stream.write(("\n" if tty else "") + line + "\n")
                self.stream.flush()
