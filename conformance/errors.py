"""What can go wrong between the harness and an engine, step by step.

Connecting to an engine goes: parse the engine spec (``BadEngineSpec``), start it
(``EngineStartupFailed``: the command does not exist, the module does not import, the process
exits at once), then the ``hello`` handshake (``HandshakeFailed``: no answer, not JSON, an
error, a malformed declaration; ``VersionMismatch``: another protocol version). These are
set-up failures: they reach the CLI, which prints them as a diagnostic and exits 3 (2 for a
bad spec).

Once the engine is up, every call can end in a ``CallFailed``: the engine answered with a
typed error (``EngineRejected``), its process died (``EngineCrashed``), it did not answer in
time (``EngineTimedOut``), it wrote something that is not a response (``InvalidResponse``), or
a message broke its schema under ``--validate-protocol`` (``ProtocolViolation``). These never
reach the user as exceptions: the case runner turns each into a result and the run goes on.

Input files (cases, expectations, results) that cannot be used raise ``InputError``, which
names the file and, where known, the line, the case and the field: the CLI exits 2.
"""

from __future__ import annotations

from dataclasses import dataclass, field


class HarnessError(Exception):
    """Base class of every error of the harness."""


@dataclass(eq=False)
class SetupError(HarnessError):
    """The engine could not be used at all. Renders as a diagnostic with a code and a hint."""

    engine: str
    detail: str = ""
    stderr: str = ""

    code = "engine-error"
    hint = ""

    def __str__(self) -> str:
        return self.message()

    def message(self) -> str:
        return f"{self.engine}: {self.summary()}" + (f": {self.detail}" if self.detail else "")

    def summary(self) -> str:
        return "the engine failed"

    def render(self) -> str:
        """The diagnostic: code, message, the engine's stderr (bounded) and a hint."""
        lines = [f"error[{self.code}]: {self.message()}"]
        if self.stderr.strip():
            lines.append("  engine stderr (last lines):")
            lines.extend(f"    {line}" for line in self.stderr.strip().splitlines()[-15:])
        if self.hint:
            lines.append(f"  hint: {self.hint}")
        return "\n".join(lines)


@dataclass(eq=False)
class BadEngineSpec(SetupError):
    """An ``--engine`` value that names no engine."""

    code = "bad-engine-spec"
    hint = ("an engine is `reference`, a third-party engine the project has an adapter for "
            "(`phase`, `python-mtg`) or a package names (entry points `mtgconf.engines`), "
            "`py:MODULE:CLASS` (an in-process Python engine) or "
            "`cmd:COMMAND` (a process speaking the protocol on stdin/stdout)")

    def summary(self) -> str:
        return "not an engine"


@dataclass(eq=False)
class EngineStartupFailed(SetupError):
    """The engine could not be started: a missing command or module, or an early exit."""

    code = "engine-startup-failed"
    hint = "check that the command runs on its own, or that the module imports"

    def summary(self) -> str:
        return "the engine could not be started"


@dataclass(eq=False)
class EngineNotInstalled(SetupError):
    """A third-party engine the project has an adapter for, whose package is not installed."""

    code = "engine-not-installed"
    hint = "install the engine with the command above (a pip extra of this project)"

    def summary(self) -> str:
        return "the engine is not installed"


@dataclass(eq=False)
class HandshakeFailed(SetupError):
    """The engine started but did not answer ``hello`` with a valid declaration."""

    code = "handshake-failed"
    hint = "the first request is hello; see docs/protocol.md for the response it expects"

    def summary(self) -> str:
        return "the engine failed the hello handshake"


@dataclass(eq=False)
class VersionMismatch(HandshakeFailed):
    """The engine speaks another protocol version than the harness."""

    code = "version-mismatch"
    hint = "this harness speaks protocol 1 only (docs/protocol.md)"

    def summary(self) -> str:
        return "the engine speaks another protocol version"


# ---- failures of one call, turned into results by the runner ----


class CallFailed(HarnessError):
    """A call to a running engine did not give a usable result."""

    def __init__(self, message: str, stderr: str = "") -> None:
        super().__init__(message)
        self.stderr = stderr


class EngineRejected(CallFailed):
    """The engine answered with a typed error (illegal_action, unsupported, ...)."""

    def __init__(self, command: str, type_: str, message: str, reason: str | None = None,
                 traceback: str = "") -> None:
        self.command = command
        self.type = type_
        self.reason = reason
        self.detail = message
        self.traceback = traceback
        why = f" ({reason})" if reason else ""
        super().__init__(f"{command}: {type_}{why}: {message}".rstrip(": "))


class EngineCrashed(CallFailed):
    """The engine's process exited during a call."""


class EngineTimedOut(CallFailed):
    """The engine did not answer within the time left for the case."""

    def __init__(self, message: str, seconds: float, stderr: str = "") -> None:
        super().__init__(message, stderr)
        self.seconds = seconds


class InvalidResponse(CallFailed):
    """The engine wrote something that is not a response to the request."""


class ProtocolViolation(CallFailed):
    """A message broke its schema (only checked with ``--validate-protocol``)."""


# ---- unusable input files ----


@dataclass(frozen=True)
class Problem:
    """One problem of an input file, located as precisely as known."""

    path: str
    message: str
    line: int | None = None
    case: str | None = None
    field: str | None = None
    severity: str = "error"

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        parts = [where]
        if self.case:
            parts.append(f"case {self.case}")
        if self.field:
            parts.append(self.field)
        prefix = "" if self.severity == "error" else f"{self.severity}: "
        return ": ".join(parts) + f": {prefix}{self.message}"


@dataclass(eq=False)
class InputError(HarnessError):
    """One or more problems make an input file unusable."""

    problems: tuple[Problem, ...] = field(default_factory=tuple)

    def __str__(self) -> str:
        return "\n".join(str(p) for p in self.problems)
