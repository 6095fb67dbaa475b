"""The engines one fuzz run plays on, owned by what runs it.

A ``FuzzEngines`` holds a session per engine and role: ``tested``, and ``against`` in a
differential run (a session of its own even when both are the same engine, so that the two
games never share a connection). A session is started when first asked for, or adopted
already started (``mtgconf fuzz`` shakes hands once, for a clear error, and fuzzes on that
engine); all of them are closed when the ``with`` block that owns them ends. Nothing is
cached beyond its owner: a campaign given no engines owns its own for the time it runs.
"""

from __future__ import annotations

from types import TracebackType
from typing import Literal

from conformance.protocol import EngineInfo
from conformance.session import EngineSession
from conformance.transports import EngineSpec

Role = Literal["tested", "against"]


class FuzzEngines:
    """Engine sessions by engine spec and role, closed together (a context manager)."""

    def __init__(self) -> None:
        self._sessions: dict[tuple[str, Role], EngineSession] = {}
        #: sessions started by this owner (adopted ones excluded)
        self.started = 0

    def adopt(self, engine: str, session: EngineSession, role: Role = "tested") -> None:
        """Play ``engine`` in ``role`` on an already started session (closed with the rest)."""
        self._sessions[(engine, role)] = session

    def session(self, engine: str, role: Role = "tested") -> EngineSession:
        """The session of ``engine`` in ``role``, started if it is not (or no longer) running.

        :raises SetupError: the engine could not start or failed the handshake.
        """
        session = self._sessions.get((engine, role))
        if session is None or session.client is None:
            session = EngineSession(EngineSpec.parse(engine))
            session.start()
            self.started += 1
            self._sessions[(engine, role)] = session
        assert session.client is not None
        # The fuzzer bounds a game by its steps, not by time: no case deadline applies.
        session.client.deadline = None
        return session

    def info(self, engine: str, role: Role = "tested") -> EngineInfo:
        """What ``engine`` declared (its session started if need be)."""
        info = self.session(engine, role).info
        assert info is not None
        return info

    def close(self) -> None:
        sessions, self._sessions = self._sessions, {}
        for session in sessions.values():
            session.close()

    def __enter__(self) -> FuzzEngines:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.close()
