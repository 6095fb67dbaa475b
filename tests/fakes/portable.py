"""Fake engines for protocol 1.1: the reference engine declaring one way to be driven or
observed, each named for what it shows. They record the actions they were sent, so that a test
can see which form of payment the harness chose.

Use one as ``--engine py:tests.fakes.portable:AutoPayOnly`` from the repository root.
"""

from __future__ import annotations

from typing import Any, ClassVar

from conformance.case import setup_cards
from conformance.protocol import CAPABILITIES
from reference_engine.engine import ReferenceEngine
from reference_engine.errors import BadRequestError, UnsupportedError

_SETUP = tuple(c for c in CAPABILITIES if c.startswith("setup."))
_OBSERVE = ("observe.stack", "observe.events", "observe.view", "observe.library")


class Declaring(ReferenceEngine):
    """The reference engine declaring ``DECLARES`` (protocol 1.1) and refusing a payment form
    it did not declare."""

    DECLARES: ClassVar[tuple[str, ...]] = ()
    CARDS: ClassVar[frozenset[str] | None] = None

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[dict[str, Any]] = []

    def hello(self, protocol: float = 1.1) -> dict[str, Any]:
        info = super().hello(protocol)
        info["capabilities"] = list(self.DECLARES)
        if self.CARDS is not None:
            info["cards"] = {e: sorted(self.CARDS & set(c)) for e, c in info["cards"].items()}
        return info

    def new_game(self, edition: str, setup: dict[str, Any]) -> dict[str, Any]:
        unknown = sorted(setup_cards(setup)[0] - self.CARDS) if self.CARDS is not None else []
        if unknown:
            raise UnsupportedError(f"card {', '.join(unknown)} was not declared")
        return super().new_game(edition, setup)

    def perform(self, action: dict[str, Any]) -> None:
        self.sent.append(action)
        pay_with = action.get("pay_with")
        if isinstance(pay_with, list) and "pay.sources" not in self.DECLARES:
            raise BadRequestError("pay_with with sources: not declared")
        if pay_with == "auto" and "pay.auto" not in self.DECLARES:
            raise BadRequestError("pay_with auto: not declared")
        super().perform(action)


class SourcesOnly(Declaring):
    """Pays from named sources only (``pay.sources``); no pool, no mana abilities as actions."""

    DECLARES = (*_SETUP, *_OBSERVE, "pay.sources", "setup.start")


class AutoPayOnly(Declaring):
    """Chooses its own mana sources (``pay.auto``); no payment from the pool."""

    DECLARES = (*_SETUP, *_OBSERVE, "pay.auto")


class PoolOnly(Declaring):
    """Pays from the pool (protocol 1.0's way), declaring actions.mana as engines written for
    protocol 1.1 did: a retired name, known and meaning nothing."""

    DECLARES = (*_SETUP, *_OBSERVE, "pay.pool", "actions.mana")


class CannotPay(Declaring):
    """Declares no way to pay at all."""

    DECLARES = (*_SETUP, *_OBSERVE)


class ForestBearOnly(AutoPayOnly):
    """Knows one Bear, Forest Bear, among the stand-ins of <bear>."""

    CARDS = frozenset({"Forest Bear", "Forest", "Mountain", "Island", "Lightning Bolt"})


class NoBear(AutoPayOnly):
    """Knows no Bear at all."""

    CARDS = frozenset({"Forest", "Mountain", "Island", "Lightning Bolt"})


def _hide_libraries(observation: dict[str, Any]) -> dict[str, Any]:
    for state in observation["players"].values():
        state["library"] = [{"hidden": True} for _ in state["library"]]
    return observation


class HidesLibraries(Declaring):
    """Declares observe.library, yet shows library cards as hidden in a full observation."""

    DECLARES = (*_SETUP, *_OBSERVE, "pay.pool")

    def observe(self, player: str | None = None) -> dict[str, Any]:
        return _hide_libraries(super().observe(player))


class CannotShowLibraries(HidesLibraries):
    """Hides library cards and says so: no observe.library."""

    DECLARES = tuple(c for c in HidesLibraries.DECLARES if c != "observe.library")


class KeepsIds(Declaring):
    """Keeps an object's id across zone changes and counts its incarnations instead
    (``observe.incarnation``), as phase.rs does: an adapter-shaped translation of the
    reference engine's ids."""

    DECLARES = (*_SETUP, *_OBSERVE, "pay.pool", "pay.auto", "observe.incarnation")
    #: the incarnation changes with each zone change (a broken engine would not)
    COUNTS = True

    def new_game(self, edition: str, setup: dict[str, Any]) -> dict[str, Any]:
        self.stable: dict[int, int] = {}  # the reference engine's id -> our id
        self.current: dict[int, int] = {}  # our id -> the reference engine's id now
        self.incarnation: dict[int, int] = {}
        self.pending: list[dict[str, Any]] = []
        result = super().new_game(edition, setup)
        self._track(super().events())
        return {"handles": {h: self._out(i) for h, i in result["handles"].items()}}

    def perform(self, action: dict[str, Any]) -> None:
        try:
            super().perform(self._in(action))
        finally:
            self._track(super().events())

    def legal_actions(self) -> list[dict[str, Any]]:
        return self._out(super().legal_actions())

    def observe(self, player: str | None = None) -> dict[str, Any]:
        observation = self._out(super().observe(player))
        for obj in _objects(observation):
            obj["incarnation"] = self.incarnation.get(obj["id"], 0)
        return observation

    def events(self) -> list[dict[str, Any]]:
        events, self.pending = self.pending, []
        return events

    def _track(self, events: list[dict[str, Any]]) -> None:
        for event in events:
            if event.get("type") != "zone_change":
                self.pending.append(self._out(event))
                continue
            ours = self.stable.get(event["object"], event["object"])
            self.stable[event["new_object"]] = ours
            self.current[ours] = event["new_object"]
            if self.COUNTS:
                self.incarnation[ours] = self.incarnation.get(ours, 0) + 1
            self.pending.append({**event, "object": ours, "new_object": ours,
                                 "incarnation": self.incarnation.get(ours, 0)})

    def _out(self, value: Any, key: str = "") -> Any:
        if isinstance(value, dict):
            return {k: self._out(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [self._out(v, key) for v in value]
        if key in _ID_KEYS and isinstance(value, int) and not isinstance(value, bool):
            return self.stable.get(value, value)
        return value

    def _in(self, value: Any, key: str = "") -> Any:
        if isinstance(value, dict):
            return {k: self._in(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [self._in(v, key) for v in value]
        if key in _ID_KEYS and isinstance(value, int) and not isinstance(value, bool):
            return self.current.get(value, value)
        return value


class KeepsIdsWithoutEvents(KeepsIds):
    """Keeps ids, counts incarnations, and has no events: a handle keeps naming the object
    new_game named, which a zone change ends."""

    DECLARES = tuple(c for c in KeepsIds.DECLARES if c != "observe.events")


class ForgetsIncarnations(KeepsIdsWithoutEvents):
    """Keeps ids across zone changes but never changes the incarnation: a moved card looks
    like the same object (a new-object rule broken)."""

    COUNTS = False


_ID_KEYS = frozenset({"id", "card", "object", "attached_to", "source", "attacker", "order",
                      "choice", "new_object", "pay_with"})


def _objects(observation: dict[str, Any]) -> list[dict[str, Any]]:
    zones = [observation.get(z) or [] for z in ("battlefield", "stack", "exile", "ante",
                                                "command")]
    for state in observation["players"].values():
        zones += [state["hand"], state["library"], state["graveyard"]]
    return [o for zone in zones for o in zone if isinstance(o, dict) and "id" in o]


class AcceptsAnyDeck(ReferenceEngine):
    """Declares setup.legality but checks no deck: the format is ignored."""

    def new_game(self, edition: str, setup: dict[str, Any]) -> dict[str, Any]:
        return super().new_game(edition, {k: v for k, v in setup.items() if k != "format"})


class RejectsDecksAsBadRequests(ReferenceEngine):
    """Refuses an illegal deck, but as a malformed request."""

    def new_game(self, edition: str, setup: dict[str, Any]) -> dict[str, Any]:
        from reference_engine.errors import IllegalSetupError

        try:
            return super().new_game(edition, setup)
        except IllegalSetupError as exc:
            raise BadRequestError(str(exc)) from None


class RefusesLongDecks(ReferenceEngine):
    """Judges decks, wrongly: a deck of more than 250 cards is refused (no format has a
    maximum size, 2004 rule 100.4)."""

    def new_game(self, edition: str, setup: dict[str, Any]) -> dict[str, Any]:
        from reference_engine.errors import IllegalSetupError

        for name, deck in (setup.get("decks") or {}).items():
            size = sum(entry.get("count", 1) if isinstance(entry, dict) else 1
                       for entry in deck)
            if setup.get("format") and size > 250:
                raise IllegalSetupError(f"setup.decks.{name}: {size} cards: at most 250")
        return super().new_game(edition, setup)
