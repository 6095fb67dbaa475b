"""Mutants of the zones: ownership of moved cards, new objects, libraries, hands, graveyards,
the stack, exile, ante, phasing (cr2004 217, modern 400-408)."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import replace
from typing import Any

from conformance.mutants.patching import Patcher
from conformance.mutants.registry import mutant
from reference_engine import observation, triggers
from reference_engine.actions import Action
from reference_engine.editions import Game2004, GameModern
from reference_engine.game import Game
from reference_engine.objects import Decision, GameObject, StackItem

# -- zones (217, 400-405) ------------------------------------------------------------------------


@mutant("graveyard-of-controller", "cr2004:217.1a cr2004:217.4a modern:400.3 modern:404.1",
        "A card leaving the battlefield or the stack goes to its controller's zone, not its "
        "owner's.")
def _controller_zone(p: Patcher) -> None:
    p.source(Game.move, (
        "new = self.new_object(obj.card, obj.impl, obj.owner, to)",
        "new = self.new_object(obj.card, obj.impl, obj.owner if to in (BATTLEFIELD, STACK) "
        "else obj.controller, to)"))


@mutant("zone-change-keeps-memory", "cr2004:217.1c cr2004:217.5c modern:400.7 modern:403.4",
        "An object keeps its tapped status and the effects on it when it changes zones.")
def _zone_memory(p: Patcher) -> None:
    original = Game.move

    def move(self: Game, obj: GameObject, to: int, *args: Any, **kwargs: Any
             ) -> GameObject | None:
        tapped = obj.tapped
        new = original(self, obj, to, *args, **kwargs)
        if new is not None:
            new.tapped = tapped
            for effect in self.effects:
                if effect.target == obj.id:
                    effect.target = new.id
            self.changed()
        return new

    p.set(Game, "move", move)


@mutant("leaves-trigger-loses-track", "cr2004:217.1c modern:400.7e",
        "A zone-change trigger cannot find the object in its new zone (Rancor stays put).")
def _lost_track(p: Patcher) -> None:
    p.source(Game.find_moved, ("return new if self._may_find_in(new.zone) else None",
                               "return None"))


@mutant("draw-from-bottom", "cr2004:217.1b modern:400.5",
        "A player draws the bottom card of the library.")
def _draw_bottom(p: Patcher) -> None:
    p.source(Game.draw, ("player.library[-1]", "player.library[0]"))


@mutant("graveyard-top-is-bottom", "cr2004:217.1b cr2004:217.4a modern:404.1",
        "A card put into a graveyard goes to the bottom of the pile, not on top.")
def _graveyard_bottom(p: Patcher) -> None:
    p.source(Game.move, ("elif bottom:", "elif bottom or to == GRAVEYARD:"))


@mutant("hand-visible-to-opponent", "cr2004:217.3c modern:402.3",
        "A player's view shows the opponent's hand.")
def _hand_visible(p: Patcher) -> None:
    p.source(observation.observe, ("sees_hand = viewer is None or viewer == name",
                                   "sees_hand = True"))


@mutant("graveyard-order-chosen-by-controller", "cr2004:217.4c modern:404.3",
        "Cards put into a graveyard at once are ordered by their controller, not their owner.")
def _graveyard_order(p: Patcher) -> None:
    p.source(Game.put_into_graveyards, ("if o.owner == name and", "if o.controller == name and"))


@mutant("cleanup-discard-both-players", "cr2004:217.3b modern:402.2",
        "In the cleanup step both players discard down to their maximum hand size.")
def _cleanup_both(p: Patcher) -> None:
    old = ('maximum = self.player_rules(self.active)["max_hand_size"]\n'
           "        hand = self.players[self.active].hand\n"
           "        if maximum is not None and len(hand) > maximum:\n"
           "            yield from self.discard(self.active, len(hand) - maximum)\n")
    new = ("for who in PLAYERS:\n"
           '            maximum = self.player_rules(who)["max_hand_size"]\n'
           "            hand = self.players[who].hand\n"
           "            if maximum is not None and len(hand) > maximum:\n"
           "                yield from self.discard(who, len(hand) - maximum)\n")
    p.source(Game._cleanup, (old, new))


@mutant("hand-size-off-by-one", "cr2004:217.3b modern:402.2",
        "The cleanup step discards only above eight cards.")
def _hand_eight(p: Patcher) -> None:
    p.source(Game._cleanup, ("len(hand) > maximum:", "len(hand) > maximum + 1:"))


@mutant("stack-resolves-bottom-first", "cr2004:217.6b modern:405.2",
        "The stack resolves first in, first out.")
def _fifo(p: Patcher) -> None:
    p.source(Game._resolve_top, ("item = self.stack[-1]", "item = self.stack[0]"))


@mutant("pass-pass-resolves-whole-stack", "cr2004:217.6d modern:405.5",
        "Two passes in succession resolve everything on the stack, not only the top object.")
def _resolve_all(p: Patcher) -> None:
    p.source(Game._priority_round, ("yield from self._resolve_top()\n",
                                    "while self.stack:\n"
                                    "                yield from self._resolve_top()\n"))


@mutant("priority-after-resolution-to-last-passer", "cr2004:217.6d modern:405.5",
        "After a resolution priority goes to the player who passed last, not the active player.")
def _priority_last(p: Patcher) -> None:
    p.source(Game._priority_round, ("resolutions += 1\n            player = self.active",
                                    "resolutions += 1"))


@mutant("trigger-controlled-by-owner", "cr2004:217.6c modern:405.4",
        "A triggered ability is controlled by its source's owner, not its controller.")
def _trigger_owner(p: Patcher) -> None:
    p.source(triggers.TriggersMixin.fire, ("self._queue(spec, source, source.controller, event)",
                                           "self._queue(spec, source, source.owner, event)"))


@mutant("triggers-nonactive-first", "modern:405.3",
        "Simultaneous triggers go on the stack non-active player's first (APNAP reversed).")
def _triggers_nap(p: Patcher) -> None:
    p.source(triggers.TriggersMixin._put_triggers_on_stack, (
        "for name in (self.active, other(self.active)):",
        "for name in (other(self.active), self.active):"))


@mutant("triggers-seat-order", "modern:405.3",
        "Simultaneous triggers go on the stack A's first, then B's, whoever is active.")
def _triggers_seats(p: Patcher) -> None:
    p.source(triggers.TriggersMixin._put_triggers_on_stack, (
        "for name in (self.active, other(self.active)):", 'for name in ("A", "B"):'))


@mutant("mana-ability-uses-stack", "modern:405.6c",
        "A mana ability goes on the stack and adds its mana only when it resolves.")
def _mana_stack(p: Patcher) -> None:
    original = Game._activate

    def _activate(self: Game, action: Action) -> Generator[Decision, Action, None]:
        obj = self.objects[action.card]
        spec = self.abilities(obj)[action.ability or 0]
        produces = spec.produces
        if produces is None or spec.cost is not None or spec.sacrifice:
            yield from original(self, action)
            return

        def add(game: Game, item: StackItem) -> None:
            game.add_mana(item.controller, produces)

        if spec.tap:
            self.tap(obj)
        item = StackItem(self._next_id, "ability", action.player, source=obj,
                         ability=replace(spec, effect=add))
        self._next_id += 1
        self.stack.append(item)
        self._events.append(("activate", action.player, obj.id, spec.text))

    p.set(Game, "_activate", _activate)


@mutant("combat-damage-without-stack-2004", "cr2004:217.6e",
        "2004 combat damage is dealt at once, without using the stack.")
def _damage_no_stack(p: Patcher) -> None:
    p.set(Game2004, "combat_damage_uses_stack", False)


@mutant("combat-damage-on-stack-modern", "modern:405.6e",
        "Modern combat damage goes on the stack, as in 2004.")
def _damage_stack(p: Patcher) -> None:
    p.set(GameModern, "combat_damage_uses_stack", True)


@mutant("sba-only-with-empty-stack", "modern:405.6f",
        "State-based actions are checked only when the stack is empty.")
def _sba_late(p: Patcher) -> None:
    p.source(Game._settle, ("if (yield from self._state_based_actions()):",
                            "if not self.stack and (yield from self._state_based_actions()):"))


@mutant("removed-zone-in-game-2004", "cr2004:217.1e",
        "In 2004 the removed-from-the-game zone is treated as in the game (the modern exile "
        "rule), so Burning Wish cannot fetch from it.")
def _removed_in_game(p: Patcher) -> None:
    p.set(Game2004, "cards_outside_the_game", Game.cards_outside_the_game)


@mutant("exile-outside-game-modern", "modern:400.11 modern:400.11a",
        "Modern exile is treated as outside the game (the 2004 rule), so a wish fetches from it.")
def _exile_outside(p: Patcher) -> None:
    def cards_outside_the_game(self: Game, name: str) -> list[GameObject]:
        return list(self.players[name].sideboard) + [
            o for o in self.exile if o.owner == name and not o.token]

    p.set(GameModern, "cards_outside_the_game", cards_outside_the_game)


@mutant("phasing-in-makes-new-permanent", "cr2004:217.8c",
        "A permanent that phases in is summoning sick, like one that just came into play.")
def _phase_sick(p: Patcher) -> None:
    p.source(Game2004._phase_in_and_out, ("obj.zone = BATTLEFIELD",
                                          "obj.zone = BATTLEFIELD\n"
                                          "        obj.controlled_since = self.turn"))


@mutant("phasing-leaves-attachments", "cr2004:217.8a cr2004:217.8c",
        "A permanent phases out alone; what is attached to it stays in play.")
def _phase_alone(p: Patcher) -> None:
    p.source(Game2004.phase_out, ("for item in _with_attachments(self.battlefield, obj):",
                                  "for item in [obj]:"))


@mutant("phase-in-every-untap", "cr2004:217.8a cr2004:217.8c",
        "Phased-out permanents phase in during every untap step, not their controller's.")
def _phase_any(p: Patcher) -> None:
    p.source(Game2004._phase_in_and_out, ("and o.controller == self.active]", "]"))
