"""Protocol v1: the calls an engine answers, as small frozen command classes.

Each command class is tied by name to its schema, ``spec/schemas/protocol/<name>.json``
(request and response in one file), and to the wire name ``<name>``. The same command runs
over every transport: an in-process engine gets a method call, a process gets a JSON line.

>>> NewGame(edition="cr2004", setup={}).name
'new_game'
>>> Observe(player="A").args()
{'player': 'A'}
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar, Protocol, runtime_checkable

from conformance import __version__

VERSION = 1
HARNESS = f"mtg-conformance {__version__}"
PLAYERS = ("A", "B")

# Error types an engine may answer with, and what each means for the harness.
ILLEGAL_ACTION = "illegal_action"
UNSUPPORTED = "unsupported"
BAD_REQUEST = "bad_request"
ENGINE_ERROR = "engine_error"
ERROR_TYPES = (ILLEGAL_ACTION, UNSUPPORTED, BAD_REQUEST, ENGINE_ERROR)

# How an engine can be driven and observed; never which rules it obeys.
CAPABILITIES: dict[str, str] = {
    "setup.start": "new_game with start: game (seeded shuffle, first player, mulligans)",
    "setup.state": "new_game with a given state (zones, life, counters, turn, step, ...)",
    "setup.library_order": "a given state's library order is kept exactly (top first)",
    "setup.ante": "ante: true in a seeded start (the ante variant)",
    "actions.legal": "legal_actions lists every legal action and nothing else",
    "observe.stack": "the observation lists the stack's objects",
    "observe.events": "events is implemented",
    "observe.view": "observe with a player hides what that player may not see",
}


@runtime_checkable
class Engine(Protocol):
    """An in-process engine (``--engine py:module:Class``): the calls of the wire protocol as
    methods taking and returning the same JSON values.

    To reject an action, raise an exception whose class has ``protocol_error =
    "illegal_action"`` and whose instance has a ``reason``; likewise ``"unsupported"`` and
    ``"bad_request"``. Any other exception is an ``engine_error``.
    """

    def hello(self, protocol: int) -> dict[str, Any]: ...

    def new_game(self, edition: str, setup: dict[str, Any]) -> dict[str, Any]: ...

    def legal_actions(self) -> list[dict[str, Any]]: ...

    def perform(self, action: dict[str, Any]) -> None: ...

    def observe(self, player: str | None = None) -> dict[str, Any]: ...

    def events(self) -> list[dict[str, Any]]: ...

    def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class EngineInfo:
    """What an engine declared in its ``hello`` response."""

    name: str
    version: str
    protocol: int
    editions: tuple[str, ...]
    capabilities: frozenset[str]
    cards: frozenset[str]

    @classmethod
    def from_result(cls, result: dict[str, Any]) -> EngineInfo:
        """Read a hello result; raises KeyError or TypeError when it is malformed."""
        for key in ("editions", "capabilities", "cards"):
            value = result[key]
            if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
                raise TypeError(f"{key} must be a list of strings")
        return cls(
            name=str(result["name"]),
            version=str(result["version"]),
            protocol=result["protocol"],
            editions=tuple(result["editions"]),
            capabilities=frozenset(result["capabilities"]),
            cards=frozenset(result["cards"]),
        )

    def serializable(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "version": self.version,
            "protocol": self.protocol,
            "editions": list(self.editions),
            "capabilities": sorted(self.capabilities),
            "cards": sorted(self.cards),
        }


def _wire_name(class_name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", class_name).lower()


@dataclass(frozen=True)
class Command:
    """A request of protocol v1; the subclass name is the wire name in snake case."""

    name: ClassVar[str]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.name = _wire_name(cls.__name__)

    def args(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None}


@dataclass(frozen=True)
class Hello(Command):
    protocol: int = VERSION
    harness: str = HARNESS


@dataclass(frozen=True)
class NewGame(Command):
    edition: str
    setup: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class LegalActions(Command):
    pass


@dataclass(frozen=True)
class Perform(Command):
    action: dict[str, Any]


@dataclass(frozen=True)
class Observe(Command):
    player: str | None = None


@dataclass(frozen=True)
class Events(Command):
    pass


@dataclass(frozen=True)
class Bye(Command):
    pass


COMMANDS: dict[str, type[Command]] = {
    c.name: c for c in (Hello, NewGame, LegalActions, Perform, Observe, Events, Bye)
}
