"""One python-mtg game behind the adapter (``adapter.PythonMtgEngine``): its state and what the
two directions share (the engine's types, the seats and steps, the protocol's errors)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: python-mtg's game state, as its referee keeps it: relations (name -> set of rows, such as
#: ``in_hand: {("A", "forest_2"), ...}``) and its own bookkeeping (``_turn``, ``_policy``, ...).
#: The engine is untyped: its values are what it makes them.
State = dict[str, Any]
#: A row of one of the engine's relations, such as ``("grizzly_bears_14", "creature")``.
Row = tuple[Any, ...]
#: A move of the engine's referee: ``("pass",)``, ``("play", player, card)``, ``("cast",
#: player, card, choices)``, ``("activate", player, ability row, choices)``, ``("attack",
#: attackers)``, ``("block", pairs)``.
Move = tuple[Any, ...]
#: An answer to a choice the engine makes inside a move: (its choice-seam key, the value).
Answer = tuple[str, Any]

PLAYERS = ("A", "B")
STEPS = ("untap", "upkeep", "draw", "precombat_main", "beginning_of_combat", "declare_attackers",
         "declare_blockers", "combat_damage", "end_of_combat", "postcombat_main", "end", "cleanup")


class IllegalAction(Exception):
    protocol_error = "illegal_action"

    def __init__(self, reason: str, message: str = "") -> None:
        super().__init__(message or reason.replace("_", " "))
        self.reason = reason


class Unsupported(Exception):
    protocol_error = "unsupported"


class BadRequest(Exception):
    protocol_error = "bad_request"


class _Decision(BaseException):
    """Raised from the engine's choice seam to suspend a move at a choice the protocol makes a
    pending decision. A BaseException, so that no ``except Exception`` in the engine eats it."""

    def __init__(self, key: str, options: list[Any], state: State) -> None:
        super().__init__(key)
        self.key = key
        self.options = options
        self.state = state


class _NotAnOption(BaseException):
    """An answer given in advance (a target an action named) is not among the engine's options."""

    def __init__(self, key: str, value: Any, options: list[Any]) -> None:
        super().__init__(key)
        self.key, self.value, self.options = key, value, options


@dataclass
class _Suspended:
    """A move waiting for the answers to the choices the engine makes inside it."""

    base: State  # the state before the move
    move: Move | None  # the engine move (None: the start of the game)
    answers: list[Answer]
    decision: _Decision
    player: str  # who the engine's dispatcher gives the choice to


def _slug_of(state: State, obj: str) -> str | None:
    return dict(state.get("instance_of", set())).get(obj)


class PythonMtgGame:
    """One python-mtg game behind the protocol: its state, the move suspended at a
    decision and the answers so far, what the adapter keeps of the objects (names, zones,
    incarnations); what both directions share."""

    def __init__(self) -> None:
        self._state: State | None = None
        self._suspended: _Suspended | None = None
        self._answers: list[Answer] = []
        self._answer_at = 0
        self._declared: list[Any] = []  # attackers, or (blocker, attacker) pairs, so far
        self._declaring: tuple[int, str] | None = None  # (turn, step) of that declaration
        self._names: dict[str, str] = {}
        self._zones: dict[str, str] = {}
        self._incarnation: dict[str, int] = {}
        self._graveyard_order: dict[str, list[str]] = {}
        self._events: list[dict[str, Any]] = []
        self._cache: tuple[int, dict[str, Any]] | None = None
        self._reason: str | None = None
        self._trial_decision: _Decision | None = None

    def _current(self) -> State:
        """The state the game is at: the moves and the observations need a game."""
        if self._state is None:
            raise BadRequest("no game: call new_game first")
        return self._state
