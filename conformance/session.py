"""One engine for one process: started and handshaken once, reused for every case.

The restart policy lives here and nowhere else. A case that leaves the connection unusable
(the engine crashed, timed out, or wrote something that is not a response) gets a fresh
engine for the next case, with the ``hello`` handshake replayed. What marks the engine broken
is the engine failing to come back: after ``max_restarts`` failed restarts in a row (it would
not start, or did not answer ``hello``) every case left is reported as not run. A restart that
succeeds clears the count, whatever the case then does: a deterministic crash, hang or
protocol slip in several adjacent cases costs those cases, each its own result, and never the
cases after them. A restart the engine is not to blame for (a harness error) is not counted.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from conformance.client import EngineClient
from conformance.errors import (
    CallFailed,
    EngineCrashed,
    EngineRejected,
    HandshakeFailed,
    HarnessError,
    SetupError,
    VersionMismatch,
)
from conformance.protocol import VERSIONS, WITH_PERFORM, EngineInfo, Hello
from conformance.settings import DEFAULT_MAX_RESTARTS
from conformance.transports import EngineSpec, Transport

if TYPE_CHECKING:
    from conformance.trace import Tape


class EngineBroken(HarnessError):
    """The engine is out of the run; the case was not run."""


class EngineSession:
    def __init__(self, spec: EngineSpec, *, validate: bool = False,
                 max_restarts: int = DEFAULT_MAX_RESTARTS,
                 startup_timeout: float = 30.0, info: EngineInfo | None = None) -> None:
        self.spec = spec
        self.validate = validate
        self.max_restarts = max_restarts
        self.startup_timeout = startup_timeout
        # What the engine declared; known before this session starts it when another process
        # (the xdist controller) shook hands with it already.
        self.info: EngineInfo | None = info
        self.client: EngineClient | None = None
        self.broken: str | None = None
        self.restarts = 0
        self.failed_restarts_in_a_row = 0  # restarts that did not start or answer hello
        self._fresh = False  # the next start is not a restart of a failed engine
        self._retired_seconds = 0.0  # engine_seconds of the clients dropped so far
        #: the running case's trace (``conformance.trace``), also of a restart's hello
        self.tape: Tape | None = None

    def start(self) -> EngineInfo:
        """Start the engine and shake hands; raises a ``SetupError`` naming what failed."""
        transport = self.spec.transport()
        transport.start()
        client = EngineClient(transport, validate=self.validate)
        client.tape = self.tape
        try:
            info = handshake(self.spec.text, client, self.startup_timeout)
        except SetupError:
            _kill(transport)
            raise
        if self.info is None:
            self.info = info
        # Over the wire a round trip costs more than the engine's work for most calls: an
        # engine that offers to answer perform with the observation and events saves two.
        client.combine = getattr(transport, "remote", False) and \
            WITH_PERFORM in info.capabilities
        client.combine_events = client.combine and "observe.events" in info.capabilities
        self.client = client
        return info

    @property
    def engine_seconds(self) -> float:
        """Seconds spent inside engine calls by every client of this session, restarted
        engines included (``EngineClient.engine_seconds``)."""
        live = self.client.engine_seconds if self.client is not None else 0.0
        return self._retired_seconds + live

    def begin(self, timeout: float | None) -> EngineClient:
        """The client for the next case, restarting the engine if the last case broke it.

        :raises EngineBroken: the engine is out of the run.
        :raises EngineCrashed: the engine could not be restarted (a failed restart: counts
            towards marking it broken).
        """
        if self.broken is not None:
            raise EngineBroken(self.broken)
        if self.client is None:
            blamed, self._fresh = not self._fresh, False
            if blamed:
                failed = self.failed_restarts_in_a_row
                if failed >= self.max_restarts:
                    self.broken = (f"not run: {self.spec.text} is marked broken after {failed} "
                                   f"failed restart{'s' * (failed != 1)} in a row (it did not "
                                   f"start or answer hello)" if failed else
                                   f"not run: {self.spec.text} is not restarted "
                                   f"(--max-restarts 0)")
                    raise EngineBroken(self.broken)
                self.restarts += 1
            try:
                self.start()
            except SetupError as exc:
                if blamed:
                    self.failed_restarts_in_a_row += 1
                raise EngineCrashed(f"the engine could not be restarted: {exc.message()}",
                                    exc.stderr) from None
            # A healthy restart: the engine answered hello, so whatever broke the last case
            # was that case's, not a reason to stop running the engine.
            self.failed_restarts_in_a_row = 0
        assert self.client is not None
        self.client.tape = self.tape
        self.client.last_observation = None
        self.client.budget = timeout
        self.client.deadline = None if timeout is None else time.monotonic() + timeout
        return self.client

    def end(self, *, unusable: bool, blame: bool = True, slipped: bool = False) -> None:
        """Close a case; ``unusable`` drops the engine so that the next case restarts it, a
        restart counted against the engine unless it was not to ``blame``. (``slipped``: the
        engine answered, but not with a response; kept for the callers that say so, it is
        restarted like any other unusable engine.)"""
        client = self.client
        if client is None:
            return
        client.deadline = None
        if unusable:
            self._retired_seconds += client.engine_seconds
            self.client = None
            self._fresh = not blame
            _kill(client.transport)

    def mark_broken(self, reason: str) -> None:
        self.broken = reason

    def close(self) -> None:
        client, self.client = self.client, None
        if client is not None:
            self._retired_seconds += client.engine_seconds
            # The transport says bye itself (a process) or calls close() (in-process).
            client.transport.close()


def handshake(engine: str, client: EngineClient, timeout: float) -> EngineInfo:
    """Send ``hello`` and read the declaration, or raise the ``SetupError`` that says why not."""
    try:
        result = client.call(Hello(), timeout=timeout)
    except EngineRejected as exc:
        raise HandshakeFailed(engine, f"hello was answered with an error: {exc.type}: "
                              f"{exc.detail}", stderr=_stderr(client)) from None
    except CallFailed as exc:
        raise HandshakeFailed(engine, str(exc), stderr=exc.stderr or _stderr(client)) from None
    protocol = result.get("protocol")
    if isinstance(protocol, bool) or protocol not in VERSIONS:
        raise VersionMismatch(engine, f"it speaks protocol {protocol!r}; the harness speaks "
                              f"protocol {' and '.join(map(str, VERSIONS))}")
    try:
        return EngineInfo.from_result(result)
    except KeyError as exc:
        raise HandshakeFailed(engine, f"the hello result has no {exc.args[0]!r}") from None
    except (TypeError, ValueError) as exc:
        raise HandshakeFailed(engine, f"the hello result is malformed: {exc}") from None


def _stderr(client: EngineClient) -> str:
    return client.transport.stderr_since(0)


def _kill(transport: Transport) -> None:
    transport.kill()
