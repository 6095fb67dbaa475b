"""The reference engine behind the engine protocol (docs/protocol.md), in-process.

All values in and out are the protocol's JSON values; errors are the exceptions of
:mod:`reference_engine.errors`, each with its ``protocol_error`` type.
"""

from __future__ import annotations

from typing import Any

from reference_engine import __version__
from reference_engine.actions import Action
from reference_engine.editions import EDITION_GAMES
from reference_engine.errors import BadRequestError, UnsupportedError
from reference_engine.game import Game
from reference_engine.observation import observe
from reference_engine.registry import implementation
from reference_engine.setup import new_game
from spec.cardpool import default_pool

PROTOCOL_VERSION = 1.2
#: Every capability of protocol 1.1 (docs/protocol.md): the reference engine can be driven in
#: every way the suite knows; and 1.2's observe.with_perform (``serve``; in process, the
#: harness's transport makes the calls itself).
CAPABILITIES = (
    "setup.start", "setup.deck_order", "setup.ante", "setup.legality", "setup.state",
    "setup.library_order",
    "setup.mana_pool", "setup.poison", "setup.graveyard", "setup.exile", "setup.zones",
    "setup.sideboard", "setup.tapped", "setup.sick", "setup.damage", "setup.counters",
    "setup.attachments", "setup.controller", "setup.tokens", "setup.combat",
    "setup.lands_played",
    "setup.hand_size", "pay.pool", "pay.sources", "pay.auto", "actions.legal",
    "actions.mulligan", "observe.stack", "observe.events", "observe.view", "observe.library",
    "observe.with_perform",
)


def supported_cards() -> dict[str, list[str]]:
    """The cards the engine implements, per edition."""
    pool = default_pool()
    return {edition: sorted(name for name in pool.edition(edition)
                            if implementation(name, edition) is not None)
            for edition in EDITION_GAMES}


class ReferenceEngine:
    """The in-process engine protocol over :class:`~reference_engine.game.Game`."""

    def __init__(self) -> None:
        self.game: Game | None = None

    def hello(self, protocol: object = PROTOCOL_VERSION) -> dict[str, Any]:
        return {
            "name": "mtg-conformance-reference",
            "version": __version__,
            "protocol": PROTOCOL_VERSION,
            "editions": list(EDITION_GAMES),
            "capabilities": list(CAPABILITIES),
            "cards": supported_cards(),
        }

    def new_game(self, edition: object, setup: object) -> dict[str, Any]:
        self.game, handles = new_game(edition, setup)
        return {"handles": handles}

    def _game(self) -> Game:
        if self.game is None:
            raise BadRequestError("no game: call new_game first")
        return self.game

    #: Every answer is built afresh from JSON values and never shared with the game: an
    #: in-process harness may take it as it is (conformance.transports.inprocess).
    answers_fresh_json = True

    def legal_actions(self) -> list[dict[str, Any]]:
        return [a.to_json() for a in self._game().legal_actions()]

    def perform(self, action: object) -> None:
        self._game().perform(Action.from_json(action))

    def observe(self, player: str | None = None) -> dict[str, Any]:
        if player is not None and player not in ("A", "B"):
            raise BadRequestError(f"player: {player!r} is not A or B")
        return observe(self._game(), player)

    def events(self) -> list[dict[str, Any]]:
        return [e.to_json() for e in self._game().take_events()]

    def close(self) -> None:
        self.game = None


__all__ = ["ReferenceEngine", "UnsupportedError"]
