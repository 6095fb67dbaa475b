"""In-process fake engines, each the toy engine with one misbehaviour, named for it.

Use one as ``--engine py:tests.fakes.miniatures:CrashesOnCast`` from the repository root.
"""

from __future__ import annotations

import itertools
import time
from typing import Any

from tests.fakes.toy import IllegalAction, ToyEngine, Unsupported


class Correct(ToyEngine):
    """Plays every bundled case correctly."""


class CrashesOnCast(ToyEngine):
    """Raises a plain exception when a spell is cast (an engine_error)."""

    def perform(self, action: dict[str, Any]) -> None:
        if action.get("action") == "cast":
            raise RuntimeError("stack underflow in cast()")
        super().perform(action)


class HangsOnObserve(ToyEngine):
    """Never returns from observe once a game is under way."""

    def observe(self, player: str | None = None) -> dict[str, Any]:
        if self.turn >= 1:
            while True:
                time.sleep(0.01)
        return super().observe(player)


class SlipsInThreeCases(ToyEngine):
    """Answers observe with something that is no observation in the second, third and fourth
    games it plays (counted over restarts: ``games`` is the class's): three protocol slips in
    adjacent cases, each process answering hello when restarted."""

    games = itertools.count(1)

    def new_game(self, edition: str, setup: dict[str, Any]) -> dict[str, Any]:
        self.game = next(SlipsInThreeCases.games)
        return super().new_game(edition, setup)

    def observe(self, player: str | None = None) -> Any:
        if 2 <= getattr(self, "game", 0) <= 4:
            return "not an observation"
        return super().observe(player)


class SpeaksProtocolV0(ToyEngine):
    """Declares protocol version 0."""

    protocol = 0


class BreaksTheSchema(ToyEngine):
    """Reports life totals as strings."""

    def observe(self, player: str | None = None) -> dict[str, Any]:
        observation = super().observe(player)
        for state in observation["players"].values():
            state["life"] = str(state["life"])
        return observation


class LiesAboutEvents(ToyEngine):
    """Declares observe.events but answers events with unsupported."""

    def events(self) -> list[dict[str, Any]]:
        raise Unsupported("events are not implemented yet")


class LacksCapabilities(ToyEngine):
    """Declares only setup.state (and drives every other call as if it could)."""

    capabilities = ("setup.state",)


class DeclaresNothing(ToyEngine):
    """Declares no capability: every case is skipped, so nothing is tested."""

    capabilities = ()


class MisspellsACapability(ToyEngine):
    """Declares setup.stat and edition modrn: typos that would skip cases quietly."""

    capabilities = ("setup.stat", "setup.start")
    editions = ("cr2004", "modrn")


class OnlyCr2004(ToyEngine):
    """Declares only the cr2004 edition."""

    editions = ("cr2004",)


class WithoutBolt(ToyEngine):
    """Does not declare Lightning Bolt."""

    def hello(self, protocol: int) -> dict[str, Any]:
        info = super().hello(protocol)
        info["cards"].remove("Lightning Bolt")
        return info


class Nondeterministic(ToyEngine):
    """Answers observe with a different life total each time for the same state."""

    _drift = itertools.cycle((0, 1))

    def observe(self, player: str | None = None) -> dict[str, Any]:
        observation = super().observe(player)
        observation["players"]["A"]["life"] += next(self._drift)
        return observation


class DiffersEveryOtherGame(ToyEngine):
    """Every second game from the same setup gives player A one more life: the same case,
    run again, ends differently."""

    games = 0

    def new_game(self, edition: str, setup: dict[str, Any]) -> dict[str, Any]:
        handles = super().new_game(edition, setup)
        DiffersEveryOtherGame.games += 1
        self.drift = DiffersEveryOtherGame.games % 2 == 0
        return handles

    def observe(self, player: str | None = None) -> dict[str, Any]:
        observation = super().observe(player)
        observation["players"]["A"]["life"] += self.drift
        return observation


class ListsNoPass(ToyEngine):
    """Leaves the pass out of its legal actions (it still accepts one)."""

    def legal_actions(self) -> list[dict[str, Any]]:
        return [a for a in super().legal_actions() if a["action"] != "pass"]


class PlaysLandsAnyTime(ToyEngine):
    """Breaks a rule: a land may be played outside its controller's main phase."""

    def _why_illegal(self, action: dict[str, Any]) -> str | None:
        reason = super()._why_illegal(action)
        return None if reason == "not_main_phase" else reason


class ChangesStateWhenRejecting(ToyEngine):
    """Rejects an illegal land play but counts it as played anyway."""

    def perform(self, action: dict[str, Any]) -> None:
        try:
            super().perform(action)
        except IllegalAction:
            if action.get("action") == "play_land":
                self.lands_played[action["player"]] += 1
            raise


class ReturnsSets(ToyEngine):
    """Returns a Python set in legal actions and observations: not JSON."""

    def observe(self, player: str | None = None) -> dict[str, Any]:
        observation = super().observe(player)
        observation["battlefield"] = set()  # type: ignore[assignment]
        return observation


class ForgetsHandles(ToyEngine):
    """Returns no ids for the setup's handles."""

    def new_game(self, edition: str, setup: dict[str, Any]) -> dict[str, Any]:
        super().new_game(edition, setup)
        return {"handles": {}}


class RefusesStateSetups(ToyEngine):
    """Answers every given-state setup with unsupported."""

    def new_game(self, edition: str, setup: dict[str, Any]) -> dict[str, Any]:
        if "start" not in setup:
            raise Unsupported("given states are not supported")
        return super().new_game(edition, setup)


class FailsToStart(ToyEngine):
    """Raises in its constructor."""

    def __init__(self) -> None:
        raise OSError("card database not found")
