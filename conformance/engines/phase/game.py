"""One phase-python game behind the adapter (``adapter.PhaseEngine``): the engine, the game and
what the two directions share (the seats, the protocol's errors)."""

from __future__ import annotations

from typing import Any

from conformance.engines.phase.carddata import card_database

PLAYERS = ("A", "B")
SEAT = {"A": 0, "B": 1}
# NAME and the tables below translate phase's values and are looked up with whatever phase
# sent (None where it names no player, say), hence keyed by object: a miss is an answer.
NAME: dict[object, str] = {0: "A", 1: "B"}


class ProtocolError(Exception):
    protocol_error = "engine_error"


class IllegalAction(ProtocolError):
    protocol_error = "illegal_action"

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class Unsupported(ProtocolError):
    protocol_error = "unsupported"


class BadRequest(ProtocolError):
    protocol_error = "bad_request"


class PhaseGame:
    """One phase-python game behind the protocol: the engine and its game, the parts of a
    declaration collected so far, the events not yet taken; what both directions share."""

    def __init__(self) -> None:
        import phase

        self._phase = phase
        self._database = card_database()
        self._engine = phase.Engine.from_path(str(self._database.path))
        self._cards = set(self._database.cards)
        self.game: Any = None
        self._events: list[dict[str, Any]] = []
        self._pending_parts: list[Any] = []  # attackers, blocks or cards collected so far
        self._pending_key: Any = None
        self._conceded: str | None = None
        self._active: tuple[int, int] = (-1, 0)
        self._orders: dict[str, list[int]] = {}
        self._face_data: dict[str, Any] | None = None

    def _snapshot(self) -> Any:
        return self.game.state()

    def _restore(self, snapshot: Any, events: int) -> None:
        self.game = self._engine.load_game(snapshot)
        del self._events[events:]

    def _sync_parts(self, waiting: dict[str, Any]) -> None:
        """Forget collected parts when the decision they belonged to is gone."""
        key = (self.game.turn, self.game.phase, waiting.get("type"),
               (waiting.get("data") or {}).get("player"))
        if key != self._pending_key:
            self._pending_parts = []
            self._pending_key = key

    def _game(self) -> Any:
        if self.game is None:
            raise BadRequest("no game: call new_game first")
        return self.game

    def _active_seat(self) -> int:
        turn = self.game.turn
        if self._active[0] != turn:
            self._active = (turn, int(self.game.state()["state"]["active_player"]))
        return self._active[1]

    @staticmethod
    def _actor(waiting: dict[str, Any]) -> int | None:
        data = waiting.get("data") or {}
        player = data.get("player")
        if isinstance(player, int):
            return player
        pending = data.get("pending")
        if pending:
            first: int | None = pending[0].get("player")  # phase names a seat, or none
            return first
        return None
