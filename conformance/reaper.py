"""No process left behind: every xdist worker and every ``cmd:`` engine of a run is listed in
a folder the run owns (named by ``MTGCONF_RUN_DIR``, inherited by the workers).

An engine runs in its own process group (so that killing it kills what it spawned), which
also means that it outlives a worker killed under it. When a run ends, however it ends, the
controller kills every engine group still listed; when it is interrupted, it interrupts the
workers first, so that they stop within a moment instead of finishing their current case.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import tempfile
from pathlib import Path

ENV = "MTGCONF_RUN_DIR"
_KINDS = ("engine", "worker")


def _folder() -> Path | None:
    value = os.environ.get(ENV)
    return Path(value) if value else None


def register(kind: str, pid: int) -> None:
    """List a process of this run (nothing happens outside a run that keeps a list)."""
    folder = _folder()
    if folder is not None:
        with contextlib.suppress(OSError):
            (folder / f"{kind}-{pid}").touch()


def unregister(kind: str, pid: int) -> None:
    folder = _folder()
    if folder is not None:
        (folder / f"{kind}-{pid}").unlink(missing_ok=True)


class Reaper:
    """Owns the list for one run: ``start`` before the workers start, ``finish`` at the end."""

    def __init__(self) -> None:
        self.folder: Path | None = None
        self._previous: str | None = None

    def start(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="mtgconf-run-"))
        self._previous = os.environ.get(ENV)
        os.environ[ENV] = str(self.folder)

    def listed(self, kind: str) -> list[int]:
        if self.folder is None:
            return []
        pids = []
        for path in self.folder.glob(f"{kind}-*"):
            with contextlib.suppress(ValueError):
                pids.append(int(path.name.partition("-")[2]))
        return sorted(pids)

    def interrupt_workers(self) -> None:
        """Ask every worker to stop now (as Ctrl-C would): it ends its case and closes its
        engines."""
        for pid in self.listed("worker"):
            if pid != os.getpid():
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGINT)

    def kill_engines(self) -> list[int]:
        """Kill the process group of every engine still listed; returns their pids."""
        killed = []
        for pid in self.listed("engine"):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                # An engine leads its own session; a pid reused since by another process
                # almost never does.
                if os.getsid(pid) == pid:
                    os.killpg(pid, signal.SIGKILL)
                    killed.append(pid)
        return killed

    def finish(self) -> list[int]:
        killed = self.kill_engines()
        if self._previous is None:
            os.environ.pop(ENV, None)
        else:
            os.environ[ENV] = self._previous
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None
        return killed
