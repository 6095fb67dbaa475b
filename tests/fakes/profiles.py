"""The reference engine cut down to a profile of ``conformance/profiles.yaml``: it declares only
that profile's capabilities and cards, and refuses (``bad_request``) anything the harness
should never send it. Running the suite on one shows that the cases the portability report
counts for the profile really run there, and pass.

Use as ``--engine py:tests.fakes.profiles:GivenZonesAutoPay`` (or ``SeededStartOnly``) from
the repository root.
"""

from __future__ import annotations

from typing import Any, ClassVar

from conformance.needs import derive
from conformance.portability import profile
from reference_engine.engine import ReferenceEngine
from reference_engine.errors import BadRequestError, UnsupportedError


class ProfileEngine(ReferenceEngine):
    """The reference engine declaring only what ``PROFILE`` has."""

    PROFILE: ClassVar[str] = ""

    def __init__(self) -> None:
        super().__init__()
        self.profile = profile(self.PROFILE)

    def hello(self, protocol: float = 1.1) -> dict[str, Any]:
        info = super().hello(protocol)
        cards = self.profile.cards
        info["editions"] = list(self.profile.editions)
        info["capabilities"] = sorted(self.profile.capabilities)
        info["cards"] = {e: sorted(cards & set(info["cards"][e])) for e in self.profile.editions}
        return info

    def new_game(self, edition: str, setup: dict[str, Any]) -> dict[str, Any]:
        if edition not in self.profile.editions:
            raise UnsupportedError(f"edition {edition} was not declared")
        missing = derive(setup, (), {}).capabilities - self.profile.capabilities
        if missing:
            raise BadRequestError(f"the setup needs {', '.join(sorted(missing))}, which this "
                                  "engine did not declare")
        return super().new_game(edition, setup)

    def perform(self, action: dict[str, Any]) -> None:
        capabilities = self.profile.capabilities
        kind = action.get("action")
        pay_with = action.get("pay_with")
        if pay_with is not None and pay_with != "auto" and "pay.sources" not in capabilities:
            raise BadRequestError("pay_with names sources: pay.sources was not declared")
        if pay_with == "auto" and "pay.auto" not in capabilities:
            raise BadRequestError("pay_with: auto, but pay.auto was not declared")
        # The harness keeps opening hands itself (keep is allowed); a mulligan is a case's.
        if kind == "mulligan" and "actions.mulligan" not in capabilities:
            raise BadRequestError("mulligan was not declared (actions.mulligan)")
        if kind in ("cast", "activate") and pay_with is None and "pay.pool" not in capabilities:
            game = self._game()
            if any(game.players[action.get("player", "A")].pool):
                raise BadRequestError("paying from the pool was not declared (pay.pool)")
        super().perform(action)


class GivenZonesAutoPay(ProfileEngine):
    """Given zones without a mana pool or library order; pays automatically; modern cards."""

    PROFILE = "given-zones-auto-pay"


class SeededStartOnly(ProfileEngine):
    """Seeded starts from shuffled decks only; pays automatically; modern cards."""

    PROFILE = "seeded-start-only"
