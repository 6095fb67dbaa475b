"""Mutants of the modern zones beyond the library: hand, battlefield, graveyard, stack, exile,
ante and command (modern 402-408)."""

from __future__ import annotations

from reference_engine import decks, layers, observation, setup, triggers
from reference_engine.cards import continuous as continuous_cards
from reference_engine.cards import zones as zone_cards
from reference_engine.constants import ANTE, EXILE, LIBRARY, OUTSIDE
from reference_engine.game import Game
from reference_engine.mutants.patching import Patcher
from reference_engine.mutants.registry import mutant
from reference_engine.objects import GameObject
from reference_engine.registry import implementation

# -- 402 the hand ---------------------------------------------------------------------------------


@mutant("hand-size-six", "cr2004:217.3b modern:402.2 modern:514.1 cr2004:314.1",
        "The cleanup step discards down to six cards: seven are already too many.")
def _hand_six(p: Patcher) -> None:
    p.source(Game._cleanup, ("len(hand) > maximum:", "len(hand) > maximum - 1:"),
             ("len(hand) - maximum)", "len(hand) - maximum + 1)"))


@mutant("own-hand-hidden-from-its-player", "cr2004:217.3c modern:402.3",
        "A player's view hides every hand, their own too.")
def _own_hand_hidden(p: Patcher) -> None:
    p.source(observation.observe, ("sees_hand = viewer is None or viewer == name",
                                   "sees_hand = viewer is None"))


@mutant("opponent-hand-not-counted", "cr2004:217.3c modern:402.3",
        "A player's view leaves the opponent's hand out (an empty list) instead of counting it.")
def _opponent_hand_uncounted(p: Patcher) -> None:
    p.source(observation.observe, (
        '"hand": [card(game, o) if sees_hand else _hidden() for o in player.hand],',
        '"hand": [card(game, o) for o in player.hand] if sees_hand else [],'))


# -- 403 the battlefield (targets-creature-cards-outside-play, 403.2, is in zones.py) -------------


@mutant("aura-joins-enchanted-controller", "modern:403.1",
        "An Aura on another player's permanent becomes that player's permanent (it sits by "
        "them).")
def _aura_controller(p: Patcher) -> None:
    p.source(Game.move, (
        "new.attached_to = attach\n",
        "new.attached_to = attach; new.controller = new.base_controller = ("
        "self.objects[attach].controller if attach in self.objects else new.controller)\n"))


@mutant("continuous-effects-in-every-zone", "modern:403.2",
        "Continuous effects of static abilities apply to cards in every zone but the stack, "
        "not only to permanents.")
def _effects_everywhere(p: Patcher) -> None:
    p.source(layers.Layers._compute_chars, ("if obj.zone == BATTLEFIELD:",
                                                 "if obj.zone != STACK:"))


@mutant("modern-from-play-wording-unread", "modern:403.5",
        "Modern card text whose old wording said \"from play\" is not read as the "
        "battlefield: modern Rancor, put into a graveyard from the battlefield, never returns.")
def _from_play_unread(p: Patcher) -> None:
    p.source(continuous_cards._rancor_returns, (
        "if card is not None and card.zone != BATTLEFIELD:",
        'if card is not None and card.zone != BATTLEFIELD and game.edition != "modern":'))


# -- 404 the graveyard ----------------------------------------------------------------------------


@mutant("graveyard-kept-sorted", "cr2004:217.4b modern:404.2",
        "A graveyard is kept sorted by card name, as a set of cards, instead of in the order "
        "its cards were put there.")
def _graveyard_sorted(p: Patcher) -> None:
    p.source(Game.move, ("destination.append(new)\n",
                         "destination.append(new); (destination.sort(key=lambda o: "
                         "o.card.name, reverse=True) if to == GRAVEYARD else None)\n"))


# -- 405 the stack --------------------------------------------------------------------------------


@mutant("activated-ability-skips-the-stack", "cr2004:217.6a modern:405.1 modern:602.2",
        "An activated ability (not a mana ability) resolves as soon as it is activated, "
        "without going on the stack.")
def _ability_at_once(p: Patcher) -> None:
    p.source(Game._activate, (
        'self._events.append(ev.Activate(action.player, source.id, spec.text))',
        'self._events.append(ev.Activate(action.player, source.id, spec.text)); '
        "yield from self._resolve_top()"))


@mutant("own-triggers-in-fixed-order", "modern:405.3",
        "A player's simultaneous triggered abilities go on the stack in the order they "
        "triggered; the player is not asked to order them.")
def _own_triggers_fixed(p: Patcher) -> None:
    p.source(triggers.Triggers._put_triggers_on_stack, ("if len(mine) == 1:", "if True:"))


@mutant("ability-controlled-by-source-owner", "cr2004:217.6c modern:405.4",
        "An activated ability is controlled by its source's owner, not by the player who "
        "activated it.")
def _ability_owner(p: Patcher) -> None:
    p.source(Game._activate, ('item = StackItem(self._next_id, "ability", action.player,',
                              'item = StackItem(self._next_id, "ability", source.owner,'))


@mutant("step-ends-on-one-pass", "cr2004:217.6d modern:405.5",
        "With the stack empty, the step ends as soon as the player with priority passes: the "
        "other player never gets priority.")
def _one_pass_ends_step(p: Patcher) -> None:
    p.source(Game._priority_round, ("if passes == 1:\n", "if passes == 1 and self.stack:\n"))


# -- 405.6 what does not use the stack -------------------------------------------------------------


@mutant("delayed-trigger-without-the-stack", "modern:405.6a",
        "A delayed triggered ability is carried out the moment its event happens, without "
        "going on the stack.")
def _delayed_at_once(p: Patcher) -> None:
    p.source(triggers.Triggers.fire, (
        "self._queue(delayed.spec, delayed.source, delayed.controller, event)",
        "delayed.spec.effect(self, StackItem(0, 'trigger', delayed.controller, "
        "source=delayed.source, ability=delayed.spec))"))


@mutant("cda-fixed-as-it-enters", "modern:405.6b",
        "A characteristic-defining ability is worked out once, when its object is first "
        "looked at on the battlefield, and then kept (Nightmare does not grow with new "
        "Swamps).")
def _cda_fixed(p: Patcher) -> None:
    p.source(layers.Layers._base_chars, (
        "chars.power, chars.toughness = obj.impl.cda(self.card_api, obj)",
        "chars.power, chars.toughness = obj.chosen.setdefault(\n"
        '            "cda", obj.impl.cda(self.card_api, obj))'))


@mutant("static-effect-only-on-what-was-there", "modern:405.6b",
        "A static ability's effect is locked in as its source enters, like a one-shot effect: "
        "it applies only to permanents already on the battlefield then.")
def _static_snapshot(p: Patcher) -> None:
    p.source(layers.Layers._compute_chars, (
        "if effect.layer != CONTROL and effect.applies(self, effect.source, obj, chars):",
        "if effect.layer != CONTROL and (effect.source is None or obj.timestamp <= "
        "effect.source.timestamp) and effect.applies(self, effect.source, obj, chars):"))


@mutant("land-play-uses-the-stack", "modern:405.6d",
        "A land is played like a spell: it goes on the stack and enters the battlefield when "
        "it resolves.")
def _land_on_stack(p: Patcher) -> None:
    p.source(Game._take_action, (
        'if kind == "play_land":\n',
        'if kind == "play_land":\n'
        "        self.players[action.player].lands_played += 1\n"
        '        yield from self._cast(action._replace(kind="cast"))\n'
        "        return\n"
        "    if False:\n"))


# -- 406 exile ------------------------------------------------------------------------------------


@mutant("exile-leaves-the-card-where-it-was", "modern:406.2",
        "Exiling a card from a library puts it into exile but leaves it in the library too: "
        "the card is copied, not moved.")
def _exile_copies(p: Patcher) -> None:
    original = Game.exile_object

    def exile_object(self: Game, obj: GameObject, *, cause: str, exiled_with: int | None = None,
                     face_down: bool = False) -> GameObject | None:
        if obj.zone != LIBRARY:
            return original(self, obj, cause=cause, exiled_with=exiled_with,
                             face_down=face_down)
        new = self.new_object(obj.card, obj.impl, obj.owner, EXILE)
        new.face_down = face_down
        new.exiled_with = exiled_with
        self.exile.append(new)
        self.changed()
        return new

    p.set(Game, "exile_object", exile_object)


@mutant("face-down-exile-seen-by-its-owner", "modern:406.3",
        "A card exiled face down is shown to its owner (as a face-down permanent is to its "
        "controller).")
def _face_down_seen(p: Patcher) -> None:
    p.source(observation._visible, ("if obj.face_down and viewer is not None:",
                                    "if obj.face_down and viewer is not None and "
                                    "viewer != obj.owner:"))


@mutant("face-down-exiled-card-keeps-characteristics", "modern:406.3a",
        "A card exiled face down keeps its characteristics (a creature card there is still a "
        "2/2 creature); only its visibility changes.")
def _face_down_characteristics(p: Patcher) -> None:
    p.source(layers.Layers._compute_chars, ("if obj.face_down:", "if False:"))


@mutant("exile-without-piles", "modern:406.5",
        "Exiled cards are one pile: Bomat Courier returns every card in exile, not only those "
        "it exiled.")
def _exile_one_pile(p: Patcher) -> None:
    p.source(zone_cards._bomat_return, ("if o.exiled_with == courier.id]", "]"))


@mutant("linked-to-the-card-name", "modern:406.6",
        "A linked ability finds the cards exiled by any object of its card's name, not only "
        "those its own object exiled.")
def _linked_by_name(p: Patcher) -> None:
    p.source(zone_cards._bomat_return, (
        "if o.exiled_with == courier.id]",
        "if o.exiled_with == courier.id or (o.exiled_with in game.objects and "
        "game.objects[o.exiled_with].card.name == courier.card.name)]"))


@mutant("modern-wish-removed-from-the-game", "modern:406.8",
        "Modern Burning Wish follows its old wording, \"remove it from the game\", read as "
        "outside the game: it goes to its owner's sideboard instead of exile.")
def _wish_removed(p: Patcher) -> None:
    p.source(zone_cards._burning_wish, (
        'game.exile_object(item.obj, cause="burning_wish")',
        f'game.move(item.obj, {OUTSIDE}, cause="burning_wish") if game.edition == "modern" '
        'else game.exile_object(item.obj, cause="burning_wish")'))


# -- 407 ante -------------------------------------------------------------------------------------


@mutant("modern-ante-kept-by-owners", "modern:407.2",
        "When the game ends the ante cards keep their owners: the winner gains nothing.")
def _ante_kept(p: Patcher) -> None:
    p.source(Game._game_over_effects, ("obj.owner = self.result.winners[0]",
                                       "obj.owner = obj.owner"))


@mutant("modern-ante-hidden-from-opponent", "modern:407.2",
        "A player's view hides the opponent's ante card, as if the ante zone were hidden.")
def _ante_hidden(p: Patcher) -> None:
    p.source(observation.observe, (
        "observation[zone] = [_visible(game, o, viewer) for o in objects]",
        'observation[zone] = [_hidden() if zone == "ante" and viewer not in (None, o.owner) '
        "else _visible(game, o, viewer) for o in objects]"))


@mutant("ante-cards-allowed-outside-ante", "modern:407.3",
        "A deck may hold an ante card in a game not played for ante.")
def _ante_in_deck(p: Patcher) -> None:
    p.source(decks.deck_problems, ("impl.ante_card and not ante:", "impl.ante_card and False:"))


@mutant("ante-cards-allowed-in-sideboard-outside-ante", "modern:407.3",
        "A sideboard may hold an ante card in a game not played for ante.")
def _ante_in_sideboard(p: Patcher) -> None:
    p.source(setup._no_ante_cards, ("if ante:", "if True:"))


@mutant("ante-leaves-the-card-where-it-was", "modern:407.4",
        "Anteing a card puts it into the ante zone but leaves it where it was too: the card "
        "is copied, not moved.")
def _ante_copies(p: Patcher) -> None:
    def ante_object(self: Game, obj: GameObject) -> GameObject | None:
        if not self.playing_for_ante:
            return None
        new = self.new_object(obj.card, obj.impl, obj.owner, ANTE)
        self.zones_extra["ante"].append(new)
        self.changed()
        return new

    p.set(Game, "ante_object", ante_object)


# -- 408 the command zone -------------------------------------------------------------------------


@mutant("emblem-statics-not-in-force", "modern:408.1",
        "Only permanents' static abilities are in force: an emblem's ability does nothing from "
        "the command zone.")
def _emblem_inert(p: Patcher) -> None:
    p.source(layers.Layers.continuous_effects, (
        'for source in self.zones_extra.get("command", ()):', "for source in ():"))


@mutant("emblem-targeted-as-a-permanent", "modern:408.1",
        "An emblem in the command zone can be targeted (and destroyed) as a permanent.")
def _emblem_permanent(p: Patcher) -> None:
    p.source(Game._target_universe, (
        "found += [o.id for o in self.battlefield if not o.phased_out]\n",
        "found += [o.id for o in self.battlefield if not o.phased_out]\n"
        '    if kind == "permanent":\n'
        '        found += [o.id for o in self.zones_extra.get("command", ())]\n'))
    p.source(Game.target_legal, ("value.zone != BATTLEFIELD or",
                                 "(value.zone != BATTLEFIELD and value not in "
                                 "self.zones_extra.get('command', ())) or"))


@mutant("emblem-created-on-the-battlefield", "modern:408.2",
        "An emblem is created on the battlefield, as a permanent, not in the command zone.")
def _emblem_on_battlefield(p: Patcher) -> None:
    p.source(Game.new_emblem,
             ("self.new_object(card, impl, owner, COMMAND)",
              "self.new_object(card, impl, owner, BATTLEFIELD)"),
             ('self.zones_extra["command"].append(emblem)', "self.battlefield.append(emblem)"))


@mutant("permanent-forgets-its-spell", "modern:400.7d",
        "A permanent knows nothing of the spell it was: a kicked Kavu Titan enters without "
        "its three +1/+1 counters and without trample.")
def _forgets_spell(p: Patcher) -> None:
    p.source(Game.move, ("new.cast_info = obj.cast_info  # a permanent knows",
                         "new.cast_info = None  # a permanent knows"))


@mutant("kicked-read-only-as-it-enters", "modern:400.7d",
        "How a permanent's spell was cast is read only as it enters: a kicked Kavu Titan gets "
        "its counters, but its static ability never sees that it was kicked (no trample).")
def _kicked_static(p: Patcher) -> None:
    impl = implementation("Kavu Titan", "modern")
    assert impl is not None
    p.source(impl.statics[0].applies, (
        'return obj is src and bool(src.cast_info and src.cast_info.get("kicked"))',
        "return False"))




@mutant("search-reaches-sideboard", "modern:400.11c",
        "A search of the player's library reaches their sideboard too: Evolving Wilds may "
        "fetch a basic land from outside the game.")
def _search_sideboard(p: Patcher) -> None:
    from reference_engine.cards import newly_reached

    p.source(newly_reached._fetch_basic, (
        "basics = [o.id for o in game.players[name].library if _basic_land_card(o)]",
        "basics = [o.id for o in [*game.players[name].library, *game.players[name].sideboard]"
        " if _basic_land_card(o)]"))
