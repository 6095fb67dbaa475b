"""The reference engine behind the engine protocol (docs/protocol.md), in-process.

All values in and out are the protocol's JSON values; errors are the exceptions of
:mod:`reference_engine.errors`, each with its ``protocol_error`` type.
"""

from __future__ import annotations

from typing import Any

from reference_engine import __version__
from reference_engine.actions import Action
from reference_engine.cardimpl import implementation
from reference_engine.constants import PHASE_NAMES, PHASE_OF_STEP, STEP_NAMES
from reference_engine.editions import EDITION_GAMES
from reference_engine.errors import BadRequestError, UnsupportedError
from reference_engine.game import Game
from reference_engine.observation import observe
from reference_engine.setup import new_game
from spec.cardpool import default_pool

PROTOCOL_VERSION = 1.1
#: Every capability of protocol 1.1 (docs/protocol.md): the reference engine can be driven in
#: every way the suite knows.
CAPABILITIES = (
    "setup.start", "setup.deck_order", "setup.ante", "setup.legality", "setup.state",
    "setup.library_order",
    "setup.mana_pool", "setup.poison", "setup.graveyard", "setup.exile", "setup.zones",
    "setup.sideboard", "setup.tapped", "setup.sick", "setup.damage", "setup.counters",
    "setup.attachments", "setup.controller", "setup.tokens", "setup.combat",
    "setup.lands_played",
    "setup.hand_size", "pay.pool", "pay.sources", "pay.auto", "actions.legal",
    "actions.mana", "actions.concede", "actions.mulligan", "observe.stack", "observe.events",
    "observe.view", "observe.library",
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

    def hello(self, protocol: int = PROTOCOL_VERSION) -> dict[str, Any]:
        return {
            "name": "mtg-conformance-reference",
            "version": __version__,
            "protocol": PROTOCOL_VERSION,
            "editions": list(EDITION_GAMES),
            "capabilities": list(CAPABILITIES),
            "cards": supported_cards(),
        }

    def new_game(self, edition: str, setup: dict[str, Any]) -> dict[str, Any]:
        self.game, handles = new_game(edition, setup)
        return {"handles": handles}

    def _game(self) -> Game:
        if self.game is None:
            raise BadRequestError("no game: call new_game first")
        return self.game

    #: Every answer is built afresh from JSON values and never shared with the game: an
    #: in-process harness may take it as it is (conformance.adapters.inprocess).
    answers_fresh_json = True

    def legal_actions(self) -> list[dict[str, Any]]:
        return [a.to_json() for a in self._game().legal_actions()]

    def perform(self, action: dict[str, Any]) -> None:
        self._game().perform(Action.from_json(action))

    def observe(self, player: str | None = None) -> dict[str, Any]:
        if player is not None and player not in ("A", "B"):
            raise BadRequestError(f"player: {player!r} is not A or B")
        return observe(self._game(), player)

    def events(self) -> list[dict[str, Any]]:
        return [event_json(e) for e in self._game().take_events()]

    def close(self) -> None:
        self.game = None


def event_json(event: tuple[Any, ...]) -> dict[str, Any]:
    kind = event[0]
    if kind == "zone_change":
        _, old, new, card, source, to, owner, cause = event
        out = {"type": kind, "object": old, "new_object": new, "card": card, "from": source,
               "to": to, "owner": owner}
        if cause is not None:
            out["cause"] = cause
        return out
    if kind == "draw":
        return {"type": "draw", "player": event[1], "object": event[2]}
    if kind == "draw_empty":
        return {"type": "draw_empty", "player": event[1]}
    if kind == "damage":
        _, source, target, amount, combat = event
        where = {"player": target} if isinstance(target, str) else {"object": target}
        out = {"type": kind, "target": where, "amount": amount, "combat": combat}
        if source is not None:
            out["source"] = source
        return out
    if kind == "life":
        return {"type": kind, "player": event[1], "amount": event[2], "cause": event[3]}
    if kind == "step":
        _, turn, step = event
        return {"type": kind, "turn": turn, "phase": PHASE_NAMES[PHASE_OF_STEP[step]],
                "step": STEP_NAMES[step]}
    if kind == "turn":
        return {"type": kind, "turn": event[1], "active": event[2]}
    if kind == "game_over":
        _, winners, losers, draw, reason = event
        return {"type": kind, "winners": list(winners), "losers": list(losers), "draw": draw,
                "reason": reason}
    if kind in ("cast", "activate"):
        return {"type": kind, "player": event[1], "object": event[2], "what": event[3]}
    if kind in ("resolve", "fizzle", "combat_damage_on_stack"):
        return {"type": kind, "object": event[1]}
    if kind == "mana":
        return {"type": kind, "player": event[1], "mana": list(event[2])}
    if kind == "shuffle":
        return {"type": kind, "player": event[1]}
    if kind == "attackers":
        return {"type": kind, "attackers": list(event[1])}
    if kind == "blockers":
        return {"type": kind, "blocks": [{"blocker": b, "attacker": a} for b, a in event[1]]}
    return {"type": kind, "data": list(event[1:])}


__all__ = ["ReferenceEngine", "UnsupportedError"]
