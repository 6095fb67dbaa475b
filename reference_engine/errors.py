"""Errors the reference engine raises at its boundary.

Each carries ``protocol_error``, the error type of the engine protocol (docs/protocol.md), so a
harness can map it without importing anything from here.
"""

from __future__ import annotations


class EngineError(ValueError):
    protocol_error = "engine_error"


class IllegalActionError(EngineError):
    """The action is not legal now; the game state is unchanged.

    ``reason`` is a short machine-readable code (``not_your_priority``, ``sorcery_timing``,
    ``cannot_pay``, ``illegal_target``, ...), the message says it in words.
    """

    protocol_error = "illegal_action"

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class UnsupportedError(EngineError):
    """A card, setup feature or edition the reference engine does not implement."""

    protocol_error = "unsupported"


class IllegalSetupError(EngineError):
    """A well-formed setup the rules forbid: a deck illegal in its format, an ante card in a
    game not played for ante."""

    protocol_error = "illegal_setup"


class BadRequestError(EngineError):
    """A malformed setup or action; the message names the field."""

    protocol_error = "bad_request"
