"""The two editions as subclasses of :class:`Game` that override a few named hooks.

* ``cr2004``: mana empties only at the end of a phase and each unused mana costs 1 life (mana
  burn, 300.3); combat damage uses the stack (217.6e); the "Paris" mulligan (101.4); zones
  include removed-from-the-game (exile here), ante and phased-out.
* ``modern``: mana empties at the end of every step and phase, no mana burn; combat damage is
  dealt at once as a turn-based action (405.6e); the "London" mulligan (draw seven, then put
  one card on the bottom per mulligan); zones include exile, ante and command.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import ClassVar

from reference_engine.actions import Action
from reference_engine.constants import LIBRARY
from reference_engine.game import Game
from reference_engine.objects import Decision

_MAX_MODERN_MULLIGANS = 7


class Game2004(Game):
    edition: ClassVar[str] = "cr2004"
    extra_zones: ClassVar[tuple[str, ...]] = ("ante", "phased_out")
    pool_empties_each_step: ClassVar[bool] = False
    mana_burn: ClassVar[bool] = True
    combat_damage_uses_stack: ClassVar[bool] = True

    def _mulligans(self) -> Generator[Decision, Action, None]:
        """101.4: the starting player decides fully first; each mulligan shuffles the hand
        back and draws one card fewer, down to zero; a kept hand is final."""
        for name in self._turn_order():
            player = self.players[name]
            while player.hand:
                options = [Action("keep", name), Action("mulligan", name)]
                action = yield Decision("mulligan", name, options)
                if action.kind == "keep":
                    break
                size = len(player.hand) - 1
                self._hand_into_library(name)
                player.mulligans += 1
                self.draw(name, size)
            player.kept = True


class GameModern(Game):
    edition: ClassVar[str] = "modern"
    extra_zones: ClassVar[tuple[str, ...]] = ("ante", "command")
    pool_empties_each_step: ClassVar[bool] = True
    mana_burn: ClassVar[bool] = False
    combat_damage_uses_stack: ClassVar[bool] = False

    def _mulligans(self) -> Generator[Decision, Action, None]:
        """London mulligan (outside the seeds, modern rule 103.5): in turn order each player
        keeps or mulligans; those who mulligan shuffle their hand away and draw seven again;
        once all keep, each puts one card on the bottom of their library per mulligan."""
        undecided = list(self._turn_order())
        while undecided:
            again = []
            for name in undecided:
                player = self.players[name]
                options = [Action("keep", name)]
                if player.mulligans < _MAX_MODERN_MULLIGANS:
                    options.append(Action("mulligan", name))
                action = yield Decision("mulligan", name, options)
                if action.kind == "mulligan":
                    again.append(name)
                else:
                    player.kept = True
            for name in again:
                self._hand_into_library(name)
                self.players[name].mulligans += 1
                self.draw(name, 7)
            undecided = again
        for name in self._turn_order():
            player = self.players[name]
            for remaining in range(player.mulligans, 0, -1):
                if not player.hand:
                    break
                options = [Action("choose", name, choice=o.id) for o in player.hand]
                action = yield Decision("bottom", name, options, count=remaining)
                self.move(self.objects[action.choice], LIBRARY, bottom=True, cause="mulligan")


EDITION_GAMES: dict[str, type[Game]] = {"cr2004": Game2004, "modern": GameModern}
