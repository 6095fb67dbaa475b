"""Protocol 1.2: the calls an engine answers, as small frozen command classes.

Each command class is tied by name to its schema, ``spec/schemas/protocol/<name>.json``
(request and response in one file), and to the wire name ``<name>``. The same command runs
over every transport: an in-process engine gets a method call, a process gets a JSON line.

>>> NewGame(edition="cr2004", setup={}).name
'new_game'
>>> Observe(player="A").args()
{'player': 'A'}
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Protocol, runtime_checkable

from conformance import __version__

VERSION = 1.2
#: Protocol versions the harness speaks: 1.1 adds payment forms, finer capabilities, seeded
#: starts with ordered decks, stand-in card lists per edition and object incarnations; a 1.0
#: engine still works (it is taken to have what 1.0 made compulsory: ``LEGACY_IMPLIED``).
#: 1.2 adds, to ``hello``, the characteristics of an engine's cards and its members of the
#: stand-in classes (``conformance.carddata``); and, for fewer round trips, ``perform`` may
#: answer with the observation after the action and the events (``WITH_PERFORM``, an option
#: the engine declares).
VERSIONS = (1, 1.1, 1.2)
WITH_PERFORM = "observe.with_perform"
HARNESS = f"mtg-conformance {__version__}"
PLAYERS = ("A", "B")

# Error types an engine may answer with, and what each means for the harness.
ILLEGAL_ACTION = "illegal_action"
UNSUPPORTED = "unsupported"
ILLEGAL_SETUP = "illegal_setup"
BAD_REQUEST = "bad_request"
ENGINE_ERROR = "engine_error"
ERROR_TYPES = (ILLEGAL_ACTION, UNSUPPORTED, BAD_REQUEST, ENGINE_ERROR, ILLEGAL_SETUP)

# How an engine can be driven and observed; never which rules it obeys. docs/protocol.md says
# what each one promises; a case needs the ones its setup and steps imply (conformance.needs).
CAPABILITIES: dict[str, str] = {
    "setup.start": "new_game with start: game (seeded shuffle, first player, opening hands)",
    "setup.deck_order": "a seeded start with shuffle: false keeps each deck's order (top first)",
    "setup.ante": "ante: true in a seeded start (the ante variant)",
    "setup.legality": "new_game refuses a setup the rules forbid (a deck illegal in the "
                      "format it names, an ante card in a game not played for ante) with an "
                      "illegal_setup error",
    "setup.state": "new_game with a given state: turn and step, life, hands, libraries, and "
                   "untapped permanents controlled by their owners",
    "setup.library_order": "a given state's library order is kept exactly (top first)",
    "setup.mana_pool": "a given state may put mana in a player's pool",
    "setup.poison": "a given state may give a player poison counters",
    "setup.graveyard": "a given state may fill graveyards (top first)",
    "setup.exile": "a given state may put cards in exile",
    "setup.zones": "a given state may fill the ante, command and phased-out zones",
    "setup.sideboard": "a setup may give cards outside the game (sideboards)",
    "setup.tapped": "a given state's permanents may be tapped",
    "setup.sick": "a given state's permanents may be summoning-sick",
    "setup.damage": "a given state's permanents may have damage marked",
    "setup.counters": "a given state's permanents may have counters",
    "setup.attachments": "a given state's permanents may be attached to others",
    "setup.controller": "a given state's permanent may be controlled by a player who does not "
                        "own it",
    "setup.tokens": "a given state's permanents may be tokens",
    "setup.combat": "a given state's permanents may be attacking or blocking",
    "setup.lands_played": "a given state may say how many lands a player played this turn",
    "setup.hand_size": "a given state may set a player's maximum hand size",
    "pay.pool": "a cast or activation is paid from mana already in the pool",
    "pay.sources": "a cast or activation may name its mana sources (pay_with: [ids])",
    "pay.auto": "a cast or activation may leave the mana sources to the engine "
                "(pay_with: auto)",
    "actions.legal": ("legal_actions lists every legal action and nothing else (save the two "
                      "documented abbreviations: many targets, blocker orders)"),
    "actions.mulligan": "opening-hand decisions are the players' (keep and mulligan)",
    "observe.stack": "the observation lists the stack's objects",
    "observe.events": "events is implemented",
    "observe.view": "observe with a player hides what that player may not see",
    "observe.library": "a full observation names the cards of the libraries, top first",
    "observe.incarnation": "an object keeps its id across zone changes and carries an "
                           "incarnation that changes instead",
    # ---- protocol 1.2: fewer round trips ----
    WITH_PERFORM: "perform takes observe: true (and, with observe.events, events: true) and "
                  "answers with the observation after the action (and the events) besides",
}

#: Names that were capabilities of protocol 1.1 and are rules now: every engine lets a player
#: activate a mana ability as an action and concede, and an engine that cannot fails the cases
#: that check it (docs/protocol.md, Versions). A declaration may still list them: they are
#: known, and mean nothing.
RETIRED: dict[str, str] = {
    "actions.mana": "activating a mana ability as an action, a rule every engine follows "
                    "(modern 605.3a; 2004 408.1c, 409.1f)",
    "actions.concede": "conceding, a rule every engine follows (2004 102.3; modern 104.3a)",
}

#: What protocol 1.0 made part of other capabilities (or compulsory): a 1.0 engine is taken to
#: have these too, so that every case it could run under 1.0 it still runs.
LEGACY_IMPLIED: dict[str | None, tuple[str, ...]] = {
    None: ("pay.pool", "observe.library"),
    "setup.start": ("actions.mulligan",),
    "setup.state": ("setup.mana_pool", "setup.poison", "setup.graveyard", "setup.exile",
                    "setup.zones", "setup.sideboard", "setup.tapped", "setup.sick",
                    "setup.damage", "setup.counters", "setup.attachments", "setup.controller",
                    "setup.tokens", "setup.lands_played", "setup.hand_size"),
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
    """What an engine declared in its ``hello`` response.

    ``capabilities`` is what the engine declared (less the names that are rules now,
    ``RETIRED``) plus, for a protocol 1.0 engine, what 1.0 implied (``LEGACY_IMPLIED``);
    ``declared`` is what it said. ``cards`` is every card it
    supports; ``cards_by_edition`` is set when it listed them per edition (1.1).
    """

    name: str
    version: str
    protocol: int | float
    editions: tuple[str, ...]
    capabilities: frozenset[str]
    cards: frozenset[str]
    cards_by_edition: dict[str, frozenset[str]] | None = None
    declared: frozenset[str] = frozenset()
    # ---- protocol 1.2: card characteristics (conformance.carddata) ----
    #: edition -> card -> its declared characteristics (``carddata.facts`` names)
    card_data: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    #: stand-in class -> the engine's own members of it, in its order of preference
    standin_members: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def from_result(cls, result: dict[str, Any]) -> EngineInfo:
        """Read a hello result; raises KeyError or TypeError when it is malformed."""
        for key in ("editions", "capabilities"):
            if not _strings(result[key]):
                raise TypeError(f"{key} must be a list of strings")
        cards = result["cards"]
        by_edition: dict[str, frozenset[str]] | None = None
        if isinstance(cards, dict):
            if not all(isinstance(k, str) and _strings(v) for k, v in cards.items()):
                raise TypeError("cards must be a list of names or map editions to lists")
            by_edition = {k: frozenset(v) for k, v in cards.items()}
            every = frozenset().union(*by_edition.values())
        elif _strings(cards):
            every = frozenset(cards)
        else:
            raise TypeError("cards must be a list of names or map editions to lists")
        declared = frozenset(result["capabilities"])
        protocol = result["protocol"]
        capabilities = set(declared) - set(RETIRED)
        if protocol == 1:
            for needed, implied in LEGACY_IMPLIED.items():
                if needed is None or needed in declared:
                    capabilities.update(implied)
        from conformance.carddata import read_card_data, read_standins

        return cls(
            name=str(result["name"]),
            version=str(result["version"]),
            protocol=protocol,
            editions=tuple(result["editions"]),
            capabilities=frozenset(capabilities),
            cards=every,
            cards_by_edition=by_edition,
            declared=declared,
            card_data=read_card_data(result.get("card_data")),
            standin_members=read_standins(result.get("standins")),
        )

    def unknown(self) -> list[str]:
        """What the engine declared that the harness does not know: a capability or an
        edition with a typo is as good as none, so a run must not pass quietly over it.

        >>> info = EngineInfo("e", "1", 1.1, ("modern", "cr2005"), frozenset(), frozenset(),
        ...                   declared=frozenset({"setup.stat"}))
        >>> for problem in info.unknown(): print(problem)
        capability setup.stat (did you mean setup.state?)
        edition cr2005 (did you mean cr2004?)
        """
        from spec.editions import EDITIONS

        found = [f"capability {c}{_did_you_mean(c, CAPABILITIES)}"
                 for c in sorted(self.declared) if c not in CAPABILITIES and c not in RETIRED]
        found += [f"edition {e}{_did_you_mean(e, EDITIONS)}" for e in self.editions
                  if e not in EDITIONS]
        return found

    def cards_for(self, edition: str) -> frozenset[str]:
        """The cards the engine supports in ``edition``."""
        if self.cards_by_edition is None:
            return self.cards
        return self.cards_by_edition.get(edition, frozenset())

    def facts(self, edition: str, card: str) -> dict[str, Any] | None:
        """The characteristics the engine declared for ``card`` in ``edition`` (1.2), or None."""
        return self.card_data.get(edition, {}).get(card)

    def serializable(self, *, whole: bool = False) -> dict[str, Any]:
        """The declaration as a hello result. The results file records it without the 1.2
        card characteristics (a card list's detail, the same for every case run); ``whole``
        keeps them, for a worker process that must decide as this one would."""
        found: dict[str, Any] = {
            "name": self.name,
            "version": self.version,
            "protocol": self.protocol,
            "editions": list(self.editions),
            "capabilities": sorted(self.declared or self.capabilities),
            "cards": ({k: sorted(v) for k, v in self.cards_by_edition.items()}
                      if self.cards_by_edition is not None else sorted(self.cards)),
        }
        if whole and self.card_data:
            found["card_data"] = self.card_data
        if whole and self.standin_members:
            found["standins"] = {k: list(v) for k, v in self.standin_members.items()}
        return found


def copy_json(value: Any) -> Any:
    """A copy of a JSON value: its objects and arrays copied, the rest (immutable) shared; at
    half the cost of ``copy.deepcopy`` and of a trip through JSON, for the copies made at
    every step (an action handed to an engine, kept in a trace).

    >>> action = {"action": "cast", "targets": [{"object": 3}]}
    >>> copied = copy_json(action)
    >>> copied == action, copied["targets"][0] is action["targets"][0]
    (True, False)
    """
    kind = type(value)
    if kind is dict:
        return {k: copy_json(v) for k, v in value.items()}
    if kind is list:
        return [copy_json(v) for v in value]
    return value


def _did_you_mean(word: str, known: Any) -> str:
    close = difflib.get_close_matches(word, list(known), n=1)
    return f" (did you mean {close[0]}?)" if close else ""


def _strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(x, str) for x in value)


def _wire_name(class_name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", class_name).lower()


@dataclass(frozen=True)
class Command:
    """A request of the protocol; the subclass name is the wire name in snake case."""

    name: ClassVar[str]
    _fields: ClassVar[tuple[str, ...] | None] = None  # known once the class is a dataclass

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.name = _wire_name(cls.__name__)
        cls._fields = None

    def args(self) -> dict[str, Any]:
        """The request's arguments: the fields that are set, the values themselves (not
        copies: a transport that hands them to an engine copies them, ``transports.inprocess``;
        ``dataclasses.asdict``'s deep copy cost a quarter of a protocol call)."""
        names = type(self)._fields
        if names is None:
            names = type(self)._fields = tuple(f.name for f in fields(self))
        return {k: v for k in names if (v := getattr(self, k)) is not None}


@dataclass(frozen=True)
class Hello(Command):
    protocol: int | float = VERSION
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
    # protocol 1.2, observe.with_perform: what the answer carries besides (None: not asked)
    observe: bool | None = None
    events: bool | None = None


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
