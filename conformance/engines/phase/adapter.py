"""The protocol adapter for phase-python (``pip install -e '.[phase]'``; ``--engine phase``).

phase-python (``import phase``) is the Python binding of the phase.rs rules engine: games start
from decks (``Engine.new_game``), ``Game.actions()`` lists the legal actions of the player the
game waits for (without naming them: the actor comes from ``Game.waiting_for()``), and
``Game.apply(seat, action)`` applies one, raising ``ValueError`` for an illegal one. The engine
pays for spells itself (``payment_mode: Auto``) and leaves mana abilities out of its actions;
an object keeps its id across zone changes and counts its ``incarnation`` instead.

This adapter translates, and decides nothing the engine decides: every action goes to the
engine as the player the case names, and the engine accepts or refuses it. Where the protocol
cuts a decision finer than the engine (one attacker, one blocker, one card to discard at a
time), the adapter collects the parts and gives the engine the whole declaration when the
protocol's decision ends (``done``, the last card), so the engine judges it then. Given states
are built with the engine's own state export and import (``state.py``). Card data: see
``carddata.py``. Known deviations are in ``expectations.yaml``, each with the rule it breaks.

The adapter is split by direction: ``actions.py`` (actions in: listing and performing),
``observations.py`` (observations and events out), both on ``game.py`` (the game and what they
share); ``PhaseEngine`` here adds the handshake and the game's set-up.
"""

from __future__ import annotations

from typing import Any

from conformance.engines.phase import state as setup_state
from conformance.engines.phase.actions import PhaseActions
from conformance.engines.phase.carddata import phase_version
from conformance.engines.phase.game import (
    PLAYERS,
    SEAT,
    BadRequest,
    IllegalAction,
    ProtocolError,
    Unsupported,
)

__all__ = ["BadRequest", "IllegalAction", "PhaseEngine", "ProtocolError", "Unsupported"]


CAPABILITIES = (
    "setup.start", "setup.state", "setup.poison", "setup.graveyard", "setup.exile",
    "setup.tapped", "setup.sick", "setup.damage", "setup.counters", "setup.attachments",
    "setup.controller", "setup.tokens", "setup.lands_played", "setup.deck_order",
    "pay.auto", "actions.legal", "actions.mulligan",
    "observe.stack", "observe.events", "observe.view", "observe.library",
    "observe.incarnation",
)


class PhaseEngine(PhaseActions):
    """phase-python behind the mtg-conformance protocol (in-process: ``--engine phase``)."""

    def hello(self, protocol: Any = 1.1) -> dict[str, Any]:
        return {"name": "phase-python", "version": phase_version(), "protocol": 1.1,
                "editions": ["modern"], "capabilities": list(CAPABILITIES),
                "cards": {"modern": sorted(self._cards)}}

    def new_game(self, edition: str, setup: dict[str, Any]) -> dict[str, Any]:
        if edition != "modern":
            raise Unsupported(f"phase-python plays modern rules only, not {edition}")
        if not isinstance(setup, dict):
            raise BadRequest("setup: must be an object")
        self.game = None
        self._events = []
        self._pending_parts = []
        self._pending_key = None
        self._conceded = None
        self._active = (-1, 0)
        self._check_cards(setup)
        try:
            if setup.get("start") == "game":
                handles = self._seeded_start(setup)
            else:
                self.game, handles = setup_state.given_state(self._engine, setup)
        except setup_state.SetupError as exc:
            if exc.kind == "unsupported":
                raise Unsupported(str(exc)) from None
            if exc.kind == "engine_error":
                raise ProtocolError(str(exc)) from None
            raise BadRequest(str(exc)) from None
        except ValueError as exc:  # the engine refused the decks or the state
            raise ProtocolError(f"phase-python refused the setup: {exc}") from None
        return {"handles": handles}

    def close(self) -> None:
        self.game = None

    def _check_cards(self, setup: dict[str, Any]) -> None:
        names: set[str] = set()

        def visit(value: Any) -> None:
            if isinstance(value, dict):
                if isinstance(value.get("card"), str):
                    names.add(value["card"])
                for key, item in value.items():
                    if key in ("decks", "sideboards", "players", "battlefield", "exile",
                               "hand", "library", "graveyard", "sideboard", "A", "B"):
                        visit(item)
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, str):
                        names.add(item)
                    else:
                        visit(item)

        visit(setup)
        unknown = sorted(names - self._cards)
        if unknown:
            raise Unsupported(f"phase-python has no card data for {', '.join(unknown)}")

    def _seeded_start(self, setup: dict[str, Any]) -> dict[str, int]:
        for key in ("sideboards", "format"):
            if setup.get(key):
                raise Unsupported(f"setup.{key}: not supported by this adapter")
        if setup.get("ante"):
            raise Unsupported("setup.ante: phase-python does not play for ante")
        decks = setup.get("decks") or {}
        cards = {p: setup_state.expand(decks.get(p), f"setup.decks.{p}") for p in PLAYERS}
        first = setup.get("first_player")
        if first is not None and first not in PLAYERS:
            raise BadRequest(f"setup.first_player: {first!r} is not A or B")
        seed = setup.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise BadRequest("setup.seed: must be an integer")
        self.game = self._engine.new_game(
            player=[c["card"] for c in cards["A"]], opponent=[c["card"] for c in cards["B"]],
            seed=seed % (1 << 63), first_player=None if first is None else SEAT[first])
        if setup.get("shuffle", True) is False:
            self.game, handles = setup_state.deck_order(self.game, self._engine, cards)
            return handles
        return self._deck_handles(cards)

    def _deck_handles(self, cards: dict[str, list[dict[str, Any]]]) -> dict[str, int]:
        """The ids of handled deck cards, as the hands are dealt. Copies of a card are alike,
        so a handle names one copy, a copy in the hand first (docs/cases.md: a deck of seven
        is the opening hand; a deck of two copies of each has one in hand)."""
        handles: dict[str, int] = {}
        for player in PLAYERS:
            seat = SEAT[player]
            info = self.game.player(seat)
            order = [*info.get("hand", []), *info.get("library", [])]
            names = {oid: self.game.object(oid).get("name") for oid in order}
            taken: set[int] = set()
            for entry in cards[player]:
                if "handle" not in entry:
                    continue
                oid = next((o for o in order if names[o] == entry["card"] and o not in taken),
                           None)
                if oid is None:
                    raise ProtocolError(f"phase-python dealt no {entry['card']} to {player}")
                taken.add(oid)
                handles[entry["handle"]] = oid
        return handles
