"""Mutants of the zones: ownership of moved cards, new objects, libraries, hands, graveyards,
the stack, exile, ante, phasing (cr2004 217, modern 400-408)."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import replace
from typing import Any

from reference_engine import combat, layers, observation, triggers
from reference_engine import setup as setup_module
from reference_engine.actions import Action
from reference_engine.cards import choices, loop
from reference_engine.cards import common as common_cards
from reference_engine.cards import continuous as continuous_cards
from reference_engine.cards import triggered as triggered_cards
from reference_engine.cards import zones as zone_cards
from reference_engine.constants import BATTLEFIELD, GRAVEYARD, LIBRARY
from reference_engine.editions import Game2004, GameModern
from reference_engine.events import Activate
from reference_engine.game import Game
from reference_engine.mutants.patching import Patcher
from reference_engine.mutants.registry import mutant
from reference_engine.objects import CardAPI, Decision, GameObject, StackItem
from reference_engine.registry import implementation

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


@mutant("leaves-trigger-loses-track", "cr2004:217.1c modern:400.7e modern:603.6",
        "A zone-change trigger cannot find the object in its new zone (Rancor stays put).")
def _lost_track(p: Patcher) -> None:
    p.source(Game.find_moved, ("return new if self._may_find_in(new.zone) else None",
                               "return None"))


@mutant("draw-from-bottom", "cr2004:217.1b modern:400.5",
        "A player draws the bottom card of the library.")
def _draw_bottom(p: Patcher) -> None:
    p.source(Game.draw, ("player.library[-1]", "player.library[0]"))


@mutant("graveyard-top-is-bottom", "cr2004:217.1b cr2004:217.4a modern:400.5 modern:404.1",
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


@mutant("cleanup-discard-both-players",
        "cr2004:217.3b modern:402.2 modern:514.1 cr2004:314.1",
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


@mutant("hand-size-off-by-one", "cr2004:217.3b modern:402.2 modern:514.1 cr2004:314.1",
        "The cleanup step discards only above eight cards.")
def _hand_eight(p: Patcher) -> None:
    p.source(Game._cleanup, ("len(hand) > maximum:", "len(hand) > maximum + 1:"))


@mutant("stack-resolves-bottom-first", "cr2004:217.6b modern:405.2 modern:608.1 cr2004:413.1",
        "The stack resolves first in, first out.")
def _fifo(p: Patcher) -> None:
    p.source(Game._resolve_top, ("item = self.stack[-1]", "item = self.stack[0]"))


@mutant("pass-pass-resolves-whole-stack", "cr2004:217.6d modern:405.5",
        "Two passes in succession resolve everything on the stack, not only the top object.")
def _resolve_all(p: Patcher) -> None:
    p.source(Game._priority_round, ("yield from self._resolve_top()\n",
                                    "while self.stack:\n"
                                    "                yield from self._resolve_top()\n"))


@mutant("priority-after-resolution-to-last-passer", "cr2004:217.6d modern:405.5 modern:117.3b",
        "After a resolution priority goes to the player who passed last, not the active player.")
def _priority_last(p: Patcher) -> None:
    p.source(Game._priority_round, ("resolutions += 1\n            player = self.active",
                                    "resolutions += 1"))


@mutant("trigger-controlled-by-owner", "cr2004:217.6c modern:405.4",
        "A triggered ability is controlled by its source's owner, not its controller.")
def _trigger_owner(p: Patcher) -> None:
    p.source(triggers.Triggers.fire, ("self._queue(spec, source, source.controller, event)",
                                           "self._queue(spec, source, source.owner, event)"))


@mutant("triggers-nonactive-first", "modern:405.3 modern:603.3b",
        "Simultaneous triggers go on the stack non-active player's first (APNAP reversed).")
def _triggers_nap(p: Patcher) -> None:
    p.source(triggers.Triggers._put_triggers_on_stack, (
        "for name in (self.active, other(self.active)):",
        "for name in (other(self.active), self.active):"))


@mutant("triggers-seat-order", "modern:405.3",
        "Simultaneous triggers go on the stack A's first, then B's, whoever is active.")
def _triggers_seats(p: Patcher) -> None:
    p.source(triggers.Triggers._put_triggers_on_stack, (
        "for name in (self.active, other(self.active)):", 'for name in ("A", "B"):'))


@mutant("mana-ability-uses-stack", "modern:405.6c modern:605.3b",
        "A mana ability activated by itself (not while paying a cost) goes on the stack and "
        "adds its mana only when it resolves.")
def _mana_stack(p: Patcher) -> None:
    original = Game._activate

    def _activate(self: Game, action: Action, **kwargs: Any
                  ) -> Generator[Decision, Action, None]:
        if kwargs:  # activated while paying a cost (pay_with): the unmutated way
            yield from original(self, action, **kwargs)
            return
        assert action.card is not None  # an activation names its source
        obj = self.objects[action.card]
        spec = self.abilities(obj)[action.ability or 0]
        produces = spec.produces
        if produces is None or spec.cost is not None or spec.sacrifice:
            yield from original(self, action)
            return

        def add(game: CardAPI, item: StackItem) -> None:
            assert isinstance(game, Game)  # the reference game, which adds mana itself
            game.add_mana(item.controller, produces)

        if spec.tap:
            self.tap(obj)
        item = StackItem(self._next_id, "ability", action.player, source=obj,
                         ability=replace(spec, effect=add))
        self._next_id += 1
        self.stack.append(item)
        self._events.append(Activate(action.player, obj.id, spec.text))

    p.set(Game, "_activate", _activate)


@mutant("combat-damage-without-stack-2004", "cr2004:217.6e cr2004:310.1",
        "2004 combat damage is dealt at once, without using the stack.")
def _damage_no_stack(p: Patcher) -> None:
    p.set(Game2004, "combat_damage_uses_stack", False)


@mutant("combat-damage-on-stack-modern", "modern:405.6e modern:510.2",
        "Modern combat damage goes on the stack, as in 2004.")
def _damage_stack(p: Patcher) -> None:
    p.set(GameModern, "combat_damage_uses_stack", True)


@mutant("damage-assignment-order-modern", "modern:405.6e modern:510.1c",
        "Modern combat damage keeps the damage assignment order of the rules before "
        "2024-11-08 (the blockers as declared): no damage to a blocker before every one "
        "ahead of it has lethal damage.")
def _damage_order(p: Patcher) -> None:
    p.source(combat.Combat._combat_damage, (
        "damage_divisions(power, lethal, trample)]",
        "damage_divisions(power, lethal, trample) if self.combat_damage_uses_stack or all("
        "not amounts[i] or all(amounts[j] >= lethal[j] for j in range(i)) "
        "for i in range(len(lethal)))]"))


@mutant("sba-only-with-empty-stack",
        "modern:405.6f modern:117.5 cr2004:408.1b cr2004:420.3 modern:704.3",
        "State-based actions are checked only when the stack is empty.")
def _sba_late(p: Patcher) -> None:
    p.source(Game._settle, ("found = self._sba_found()",
                            "found = None if self.stack else self._sba_found()"))


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


@mutant("phase-in-every-untap", "cr2004:217.8a cr2004:217.8c cr2004:302.1",
        "Phased-out permanents phase in during every untap step, not their controller's.")
def _phase_any(p: Patcher) -> None:
    p.source(Game2004._phase_in_and_out, ("and o.controller == self.active]", "]"))


# -- the zone model, libraries, hands and public zones (cr2004 217.1-217.5; modern 400-401) --------


@mutant("phasing-is-a-status-2004", "cr2004:217.1 cr2004:217.8a",
        "2004 phasing is the modern status: a phased-out permanent stays in play, marked, "
        "instead of going to the phased-out zone.")
def _phasing_status_2004(p: Patcher) -> None:
    p.set(Game2004, "phase_out", GameModern.phase_out)
    p.set(Game2004, "_phase_in_and_out", GameModern._phase_in_and_out)


@mutant("phased-out-zone-modern", "modern:400.1",
        "Modern has the 2004 phased-out zone: a phased-out permanent leaves the battlefield "
        "for it.")
def _phased_zone_modern(p: Patcher) -> None:
    p.set(GameModern, "extra_zones", (*GameModern.extra_zones, "phased_out"))
    p.set(GameModern, "phase_out", Game2004.phase_out)
    p.set(GameModern, "_phase_in_and_out", Game2004._phase_in_and_out)
    p.set(GameModern, "_tokens_ceasing", Game2004._tokens_ceasing)


@mutant("deck-includes-sideboard", "cr2004:217.2a modern:401.1",
        "A seeded start shuffles the sideboard into the library with the deck.")
def _sideboard_in_library(p: Patcher) -> None:
    p.source(setup_module._Builder.seeded_start,
             ("player.sideboard.extend(", "player.library.extend("),
             ("_CARD_KEYS, name, OUTSIDE)", "_CARD_KEYS, name, LIBRARY)"))


@mutant("library-visible-to-owner", "cr2004:217.2b modern:401.2",
        "A player's view shows the cards of their own library.")
def _own_library_visible(p: Patcher) -> None:
    p.source(observation._library, ("if viewer is None:", "if viewer is None or viewer == name:"))


@mutant("opponents-library-not-counted", "cr2004:217.2c modern:401.3",
        "A player's view leaves out the opponent's library instead of showing its cards "
        "hidden, so its size cannot be counted.")
def _library_uncounted(p: Patcher) -> None:
    p.source(observation._library, ("shown = [_hidden() for _ in library]",
                                    "shown = [_hidden() for _ in library] if viewer == name "
                                    "else []"))


@mutant("library-order-chosen-by-caster", "cr2004:217.2d modern:401.4",
        "Cards put on top of a library at once are ordered by the effect's controller, not "
        "by their owner.")
def _library_order_caster(p: Patcher) -> None:
    p.source(choices._plow_under, ('pick = yield from game.choose(name, "put_on_top"',
                                   'pick = yield from game.choose(item.controller, '
                                   '"put_on_top"'))


@mutant("top-card-revealed-only-with-empty-stack", "cr2004:217.2e modern:401.5 cr2004:409.1i",
        "Playing with the top card revealed, the new top card is revealed (and playable) only "
        "once the stack is empty, not as soon as the spell cast from the top is cast.")
def _top_card_late(p: Patcher) -> None:
    revealed = 'if library and game.player_rules(name)["top_card_revealed"]'
    playable = 'if player.library and self.player_rules(name)["play_top_card"]'
    p.source(observation._library, (revealed + ":", revealed + " and not game.stack:"))
    p.source(Game.castable_zones, (playable + ":", playable + " and not self.stack:"))


@mutant("second-player-opening-hand-eight", "cr2004:217.3a",
        "The player who does not go first draws an opening hand of eight cards.")
def _second_hand_eight(p: Patcher) -> None:
    p.source(Game._start_of_game, ("self.draw(name, 7)",
                                   "self.draw(name, 7 if name == self.first_player else 8)"))


@mutant("graveyards-treated-as-hidden-zones", "cr2004:217.4b modern:400.2",
        "A player's view hides the cards of the opponent's graveyard, as if it were a hidden "
        "zone.")
def _graveyard_hidden(p: Patcher) -> None:
    p.source(observation.observe, (
        '"graveyard": [card(game, o) for o in reversed(player.graveyard)],',
        '"graveyard": [card(game, o) if sees_hand else _hidden() '
        "for o in reversed(player.graveyard)],"))


@mutant("aura-resolves-under-enchanted-controller", "cr2004:217.5a",
        "An Aura put onto another player's permanent is controlled by that permanent's "
        "controller (the player it sits in front of), not by the player who cast it.")
def _aura_controller(p: Patcher) -> None:
    p.source(Game._resolve_top, (
        "self.move(obj, BATTLEFIELD, controller=item.controller, cause=\"resolve\",",
        "self.move(obj, BATTLEFIELD, controller=(self.objects[attach].controller if "
        "isinstance(attach, int) and attach in self.objects else item.controller), "
        "cause=\"resolve\","))


@mutant("targets-creature-cards-outside-play", "cr2004:217.5b modern:403.2",
        "\"Target creature\" may be a creature card in a hand or a graveyard.")
def _target_outside(p: Patcher) -> None:
    p.source(Game._target_universe, (
        "found += [o.id for o in self.battlefield if not o.phased_out]\n",
        "found += [o.id for o in self.battlefield if not o.phased_out]\n"
        '    if kind == "creature":\n'
        "        found += [c.id for n in PLAYERS\n"
        "                  for c in self.players[n].hand + self.players[n].graveyard]\n"))
    p.source(Game.target_legal, (
        "if not isinstance(value, GameObject) or value.zone != BATTLEFIELD or (",
        "if not isinstance(value, GameObject) or (value.zone not in (BATTLEFIELD, GRAVEYARD) "
        "and value not in self.players[value.owner].hand) or ("))


@mutant("static-effects-outside-play", "cr2004:217.5d cr2004:217.5b",
        "A card in a hand or graveyard is controlled by its owner, so \"creatures you "
        "control\" (Glorious Anthem) pumps creature cards there.")
def _statics_outside(p: Patcher) -> None:
    p.source(layers.Layers._compute_chars, (
        "if obj.zone == BATTLEFIELD:\n        for effect in self.continuous_effects():",
        "if obj.zone != STACK:\n"
        "        for effect in self.continuous_effects():"))


@mutant("opponents-permanents-status-hidden", "cr2004:217.1b modern:400.5",
        "A player's view shows the opponent's permanents without their status: untapped and "
        "with nothing attached to them.")
def _status_hidden(p: Patcher) -> None:
    p.source(observation.permanent, (
        '"tapped": obj.tapped,',
        '"tapped": obj.tapped if viewer in (None, obj.controller) else False,'), (
        '"attached_to": obj.attached_to,',
        '"attached_to": obj.attached_to if viewer in (None, obj.controller) else None,'))


@mutant("stack-hidden-from-opponent", "modern:400.2",
        "A player's view hides the opponent's spells on the stack, as if the stack were a "
        "hidden zone.")
def _stack_hidden(p: Patcher) -> None:
    p.source(observation.observe, (
        '"stack": [stack_object(game, item) for item in reversed(game.stack)],',
        '"stack": [stack_object(game, item) if viewer in (None, item.controller) else '
        '_hidden() for item in reversed(game.stack)],'))


# -- the stack, removed from the game, phased out (cr2004 217.6-217.8) -----------------------


@mutant("ability-source-to-graveyard", "cr2004:217.6a modern:405.1",
        "An activated ability on the stack is represented by its source's card, which goes to "
        "the graveyard when the ability resolves, as a spell's card does.")
def _ability_card(p: Patcher) -> None:
    p.source(Game._resolve_top, (
        "yield from self._run_effect(spec.effect if spec is not None else None, item)\n",
        "yield from self._run_effect(spec.effect if spec is not None else None, item)\n"
        "        if item.kind == \"ability\" and item.source is not None and (\n"
        "                item.source.id in self.objects and item.source.zone == BATTLEFIELD):\n"
        "            self.move(item.source, GRAVEYARD, cause=\"resolve\")\n"))


@mutant("removed-token-survives", "cr2004:217.7a cr2004:420.5f modern:704.5d",
        "A token removed from the game stays in the removed-from-the-game zone (and can come "
        "back) instead of ceasing to exist.")
def _removed_token(p: Patcher) -> None:
    p.source(Game._tokens_ceasing, ("found.extend(o for o in self.exile if o.token)\n", ""))


@mutant("removed-cards-not-kept-apart", "cr2004:217.7c modern:406.5 modern:406.6",
        "Removed cards are one pile: Worldgorger Dragon returns every card in the "
        "removed-from-the-game zone, not only those it removed.")
def _one_pile(p: Patcher) -> None:
    p.source(loop._return_the_rest, ("if o.exiled_with == old.id]", "if not o.token]"))


@mutant("exile-hidden-from-opponent", "cr2004:217.7b modern:400.2 modern:406.3",
        "A player's view hides the face-up cards in the removed-from-the-game zone (exile) "
        "that the opponent owns.")
def _exile_hidden(p: Patcher) -> None:
    p.source(observation.observe, (
        '"exile": [_visible(game, o, viewer) for o in game.exile],',
        '"exile": [_visible(game, o, viewer) if viewer in (None, o.owner) else _hidden() '
        "for o in game.exile],"))


@mutant("phased-out-hidden-from-opponent", "cr2004:217.8b",
        "A player's view hides the face-up cards in the phased-out zone that the opponent "
        "owns.")
def _phased_hidden(p: Patcher) -> None:
    p.source(observation.observe, (
        "observation[zone] = [_visible(game, o, viewer) for o in objects]",
        "observation[zone] = [_hidden() if zone == \"phased_out\" and viewer not in "
        "(None, o.owner) else _visible(game, o, viewer) for o in objects]"))


# -- replacement effects and the exceptions to "a new object" (217.1c-d; 400.6-400.7) ----------


@mutant("regeneration-returns-from-graveyard", "cr2004:217.1d modern:400.6 cr2004:419.6b",
        "Regeneration is applied after the zone change instead of replacing it: the "
        "destroyed creature goes to the graveyard and comes back as a new, untapped, "
        "summoning-sick permanent.")
def _regen_after_move(p: Patcher) -> None:
    def _regenerated(self: Game, obj: GameObject) -> bool:
        if not obj.regen_shields:
            return False
        controller = obj.controller
        card = self.move(obj, GRAVEYARD, cause="destroy")
        if card is not None:
            self.move(card, BATTLEFIELD, controller=controller, cause="regenerate")
        return True

    p.set(Game, "_regenerated", _regenerated)


@mutant("replacement-conflict-not-chosen", "modern:400.6 modern:616.1",
        "When a replacement effect and a state-based action would both move an object, the "
        "replacement applies without its controller choosing (Exquisite Archangel is exiled).")
def _conflict_no_choice(p: Patcher) -> None:
    p.source(Game._replace_losses, ("conflict = savior in destroyed or savior in to_graveyard",
                                    "conflict = False"))


@mutant("replacement-conflict-chosen-by-active-player", "modern:400.6 modern:616.1",
        "Conflicting instructions for an object's zone change are settled by the active "
        "player, not by the object's controller.")
def _conflict_active(p: Patcher) -> None:
    p.source(Game._replace_losses, ('where = yield from self.choose(savior.controller,',
                                    'where = yield from self.choose(self.active,'))


@mutant("spell-changes-lost-on-resolution", "cr2004:217.1c modern:400.7a",
        "A change an effect made to a permanent spell (Purelace making it white) stops "
        "applying when it resolves and becomes a permanent.")
def _spell_changes_lost(p: Patcher) -> None:
    p.source(Game.move, (
        "for effect in self.effects:  # changes made to the spell carry over (213.5, 400.7a)\n"
        "            if effect.target == obj.id:\n"
        "                effect.target = new.id\n", "pass\n"))


@mutant("prevention-lost-on-resolution-modern", "modern:400.7c",
        "Modern: a prevention effect on damage from a permanent spell stops applying when the "
        "spell becomes a permanent (the 2004 rule).")
def _shield_lost(p: Patcher) -> None:
    p.set(GameModern, "shields_follow_spells", False)


@mutant("prevention-follows-spell-2004", "cr2004:217.1c",
        "2004: a prevention effect on damage from a creature spell keeps applying to the "
        "permanent it becomes (the modern 400.7c), though only characteristic changes carry "
        "over in 2004.")
def _shield_follows(p: Patcher) -> None:
    p.set(Game2004, "shields_follow_spells", True)


@mutant("effect-loses-moved-object", "modern:400.7j",
        "An effect that moves an object into a public zone cannot find it there: Animate Dead "
        "returns the creature but looks for the card it left behind, and attaches to nothing.")
def _effect_loses(p: Patcher) -> None:
    p.source(loop._animate, ("target = creature.id", "target = card.id"))


@mutant("cost-moved-source-not-found", "modern:400.7j",
        "The effect of an ability whose cost sacrificed its source cannot find that source "
        "in the graveyard, and does nothing (a sacrificed Mogg Fanatic deals no damage).")
def _cost_source_lost(p: Patcher) -> None:
    impl = implementation("Mogg Fanatic", "modern")
    assert impl is not None
    effect = impl.abilities[0].effect
    assert effect is not None
    p.source(effect, (
        "for target in game.legal_targets_of(item):",
        "for target in (game.legal_targets_of(item) if item.source is None "
        "or item.source.id in game.objects else []):"))


# -- outside the game, ante and whole zones (cr2004 217.9; modern 400.11-400.12) -------------------


@mutant("wished-card-copied-from-sideboard", "modern:400.11b",
        "A card brought into the game from the sideboard is copied into the game and stays "
        "outside it too, so it can be brought in again.")
def _wish_copies(p: Patcher) -> None:
    p.source(zone_cards._burning_wish, (
        'game.move(game.objects[chosen], HAND, cause="wish")',
        "card = game.objects[chosen]\n"
        "            copy = game.new_object(card.card, card.impl, card.owner, HAND)\n"
        "            game.players[card.owner].hand.append(copy)\n"
        "            game.changed()"))


@mutant("sideboard-not-outside-game-modern", "modern:400.11a",
        "Modern: the sideboard is not outside the game, so a wish finds nothing to bring in.")
def _sideboard_inside(p: Patcher) -> None:
    p.set(GameModern, "cards_outside_the_game", lambda self, name: [])


@mutant("hand-discarded-while-iterating", "modern:400.12",
        "\"Discard your hand\" walks the hand while emptying it and so skips every other "
        "card, instead of acting on every card in the zone.")
def _discard_skips(p: Patcher) -> None:
    p.source(zone_cards._contract_from_below, ("for card in list(player.hand):",
                                               "for card in player.hand:"))


@mutant("ante-hidden-from-opponent", "cr2004:217.9b",
        "A player's view hides the opponent's card in the ante zone.")
def _ante_hidden(p: Patcher) -> None:
    p.source(observation.observe, (
        "observation[zone] = [_visible(game, o, viewer) for o in objects]",
        "observation[zone] = [_hidden() if zone == \"ante\" and viewer not in "
        "(None, o.owner) else _visible(game, o, viewer) for o in objects]"))


@mutant("ante-kept-by-owners", "cr2004:217.9b",
        "When a game played for ante ends, each ante card stays its owner's; the winner does "
        "not become the owner of the ante.")
def _ante_kept(p: Patcher) -> None:
    p.set(Game, "_game_over_effects", lambda self: None)


@mutant("ante-from-opening-hand", "cr2004:217.9b",
        "Playing for ante, each player antes a random card of the opening hand rather than of "
        "the library.")
def _ante_from_hand(p: Patcher) -> None:
    original = Game._start_of_game

    def _start_of_game(self: Game) -> Generator[Decision, Action, None]:
        if not self.playing_for_ante:
            yield from original(self)
            return
        ante = self.zones_extra["ante"]
        for obj in list(ante):  # put back what the start took from the libraries
            ante.remove(obj)
            del self.objects[obj.id]
            back = self.new_object(obj.card, obj.impl, obj.owner, LIBRARY)
            self.players[obj.owner].library.insert(0, back)
        for name in self._turn_order():
            self.draw(name, 7)
            hand = self.players[name].hand
            if hand:
                self.ante_object(hand[self.rng.randrange(len(hand))])
        yield from self._mulligans()

    p.set(Game, "_start_of_game", _start_of_game)


@mutant("wish-fetches-from-ante-2004", "cr2004:217.9c",
        "2004: the ante zone counts as outside the game, so Burning Wish (not an ante card) "
        "can take a card out of the ante.")
def _wish_ante(p: Patcher) -> None:
    original = Game2004.cards_outside_the_game

    def cards_outside_the_game(self: Game2004, name: str) -> list[GameObject]:
        return original(self, name) + [o for o in self.zones_extra["ante"] if o.owner == name]

    p.set(Game2004, "cards_outside_the_game", cards_outside_the_game)


@mutant("ante-removes-from-game", "cr2004:217.9d",
        "To ante a card removes it from the game (exile) instead of moving it to the ante "
        "zone.")
def _ante_exiles(p: Patcher) -> None:
    p.source(Game.ante_object, ('return self.move(obj, ANTE, cause="ante")',
                                'return self.move(obj, EXILE, cause="ante")'))


@mutant("nth-from-top-short-library-on-top", "modern:401.7",
        "A card put Nth from the top of a library of fewer than N cards goes on top instead "
        "of on the bottom.")
def _nth_on_top(p: Patcher) -> None:
    p.source(Game.move, ("if len(destination) >= from_top else 0, new)",
                         "if len(destination) >= from_top else len(destination), new)"))


# -- where effects meet (issue 26) --------------------------------------------------------------


@mutant("phased-out-permanent-still-affected-modern", "modern:405.6a",
        "Modern: a resolving effect finds a phased-out permanent as if it were there: Sneak "
        "Attack's delayed ability sacrifices a phased-out creature, an equip ability moves a "
        "phased-out Equipment.")
def _phased_found(p: Patcher) -> None:
    p.source(common_cards.on_battlefield, (" or current.phased_out:", ":"))
    p.source(Game.sacrifice, (" and not obj.phased_out", ""))


@mutant("sacrifice-another-players-permanent", "modern:405.4 modern:701.21a",
        "A player sacrifices a permanent another player controls (Sneak Attack's delayed "
        "ability, after a Control Magic).")
def _sacrifice_any(p: Patcher) -> None:
    p.source(Game.sacrifice, (" and obj.controller == player", ""))


@mutant("delayed-trigger-sourced-by-what-it-refers-to", "modern:405.4 modern:603.7e",
        "A delayed triggered ability's source is the object it refers to (the creature Sneak "
        "Attack put onto the battlefield), not the source of the ability that made it.")
def _delayed_source(p: Patcher) -> None:
    p.source(triggered_cards._sneak_attack,
             ("item.controller, item.source, step=END)", "item.controller, creature, step=END)"))


@mutant("mana-kept-between-cleanup-steps-modern", "cr2004:300.3",
        "Modern: a cleanup step that gives priority ends without emptying the pools, so its "
        "mana is still there in the next cleanup step.")
def _cleanup_mana(p: Patcher) -> None:
    p.source(Game._cleanup, ("self._end_step(CLEANUP, ends_phase=False)", "pass"))


@mutant("prevention-shield-keeps-only-its-source", "modern:405.6a modern:609.7b modern:615.9",
        "A prevention shield for a red source of one's choice prevents that source's damage "
        "even after the source stopped being red.")
def _shield_source_only(p: Patcher) -> None:
    p.source(Game.shield_from, ("Shield(player, source, matches)", "Shield(player, source)"))


@mutant("equip-moves-a-phased-out-equipment", "cr2004:217.5b modern:403.2",
        "An equip ability moves its Equipment though it phased out (2004: out of play) before "
        "the ability resolved.")
def _equip_phased(p: Patcher) -> None:
    p.source(continuous_cards._equip, (
        "equipment = on_battlefield(game, item.source)\n    if equipment is None:",
        "equipment = item.source\n    if equipment is None or equipment.id not in game.objects:"))


@mutant("given-controller-reverts-to-owner", "cr2004:214.4 modern:403.1 modern:110.2",
        "A given state's permanent controlled by a player who does not own it, with no effect "
        "to say so, goes back to its owner once control is worked out with a control effect "
        "in the game.")
def _given_controller(p: Patcher) -> None:
    p.set(setup_module._Builder, "base_controllers", lambda self: None)


@mutant("phased-out-source-read-without-what-phased-out", "modern:403.2 modern:608.2h",
        "Modern: an ability whose source phased out reads the source as it is, without the "
        "Aura or Equipment that phased out with it, not as it last existed (Stone Giant's "
        "power).")
def _phased_source(p: Patcher) -> None:
    p.source(Game.known_chars, (" and not obj.phased_out", ""))


@mutant("phased-out-source-known-by-its-card-2004", "cr2004:217.8c",
        "2004: a permanent that phased out keeps no record of how it last was in play, so a "
        "source of combat damage on the stack that phased out is judged by its card (a white "
        "Raging Goblin taken for red).")
def _phased_out_by_card(p: Patcher) -> None:
    p.source(Game2004.phase_out, ("item.last_chars = self.chars(item)", "pass"))


@mutant("waiting-effects-refer-to-no-source", "modern:405.6a",
        "A source of one's choice is only a permanent, a spell or what the stack refers to: "
        "not what a prevention shield waiting to apply or a delayed trigger waiting to "
        "trigger refers to once it has left its zone.")
def _waiting_refer(p: Patcher) -> None:
    p.source(Game.choosable_sources, (
        "found.extend(shield.obj for shield in self.shields if shield.obj is not None)\n"
        "    for delayed in self.delayed:\n"
        "        found.extend(delayed.spec.refers_to)", "pass"))
