"""Transports: how an ``--engine`` value becomes a transport carrying protocol messages.

* a name of the registry ``conformance.engines`` (``reference``, the bundled reference engine;
  ``phase``, ``python-mtg``, third-party engines through the project's adapters, installed by
  pip extras; any row a distribution adds): that engine, in-process;
* ``py:MODULE:CLASS``: any in-process Python engine;
* ``cmd:COMMAND``: a process speaking JSON lines on stdin/stdout.

Every transport exchanges whole envelopes (``{"id", "command", "args"}`` in,
``{"id", "result"}`` or ``{"id", "error"}`` out), so that validation, timeouts and error
handling are the same for both tiers. Importing this module imports no engine.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from conformance.engines import REFERENCE_TARGET, NamedEngine, named
from conformance.errors import BadEngineSpec, EngineNotInstalled

REFERENCE = f"py:{REFERENCE_TARGET}"
_PY = re.compile(r"^py:(?P<module>[A-Za-z_][\w.]*):(?P<attr>[A-Za-z_][\w.]*)$")


class Transport(Protocol):
    """Carries one engine's protocol messages. One request at a time."""

    #: a round trip costs more than most calls' work (a process): worth fewer, larger answers
    remote: bool

    def start(self) -> None:
        """Bring the engine up; raises ``EngineStartupFailed``."""

    def exchange(self, message: dict[str, Any], timeout: float | None) -> dict[str, Any]:
        """Send a request envelope and return the response envelope; raises ``CallFailed``."""

    def stderr_mark(self) -> int:
        """A position in the engine's stderr, for ``stderr_since``."""

    def stderr_since(self, mark: int, *, settle: bool = True) -> str:
        """What the engine wrote to stderr since ``mark`` (bounded: the last lines);
        ``settle``: first give a dying engine's last words a moment to arrive."""

    def close(self) -> None:
        """Shut the engine down (politely first); never raises."""

    def kill(self) -> None:
        """Drop the engine at once, without a word: it may not answer any more."""


@dataclass(frozen=True, slots=True)
class EngineSpec:
    """A parsed ``--engine`` value."""

    text: str
    kind: Literal["py", "cmd"]
    target: str

    @classmethod
    def parse(cls, text: str) -> EngineSpec:
        text = text.strip()
        row = _named(text)
        if row is not None:
            return cls(text, "py", row.target)
        if text.startswith("py:"):
            if not _PY.match(text):
                raise BadEngineSpec(text, "expected py:MODULE:CLASS, e.g. py:my_engine:Engine")
            return cls(text, "py", text.removeprefix("py:"))
        if text.startswith("cmd:"):
            command = text.removeprefix("cmd:").strip()
            try:
                argv = shlex.split(command)
            except ValueError as exc:
                raise BadEngineSpec(text, f"cannot split the command: {exc}") from None
            if not argv:
                raise BadEngineSpec(text, "cmd: needs a command, e.g. cmd:./my-engine")
            return cls(text, "cmd", command)
        raise BadEngineSpec(text or "''", "unknown engine kind")

    @property
    def label(self) -> str:
        """A short name for test ids and reports."""
        return self.text

    def transport(self, *, stderr_limit: int = 8192) -> Transport:
        if self.kind == "py":
            from conformance.transports.inprocess import InProcessTransport

            row = _named(self.text)
            if row is not None and not row.installed():
                raise EngineNotInstalled(self.text, f"{row.package or row.requires} is not "
                                         f"installed: {row.install}")

            module, _, attr = self.target.partition(":")
            return InProcessTransport(self.text, module, attr)
        from conformance.transports.process import ProcessTransport

        return ProcessTransport(self.text, shlex.split(self.target), stderr_limit=stderr_limit)


def _named(text: str) -> NamedEngine | None:
    try:
        return named(text)
    except ValueError as exc:  # a distribution's broken entry point
        raise BadEngineSpec(text, str(exc)) from None
