"""The two editions as subclasses of :class:`Game` that override a few named hooks.

* ``cr2004``: mana empties only at the end of a phase and each unused mana costs 1 life (mana
  burn, 300.3); combat damage uses the stack (217.6e); the "Paris" mulligan (101.4); zones
  include removed-from-the-game (exile here), ante and phased-out (217.8); a token's owner is
  the controller of what made it (200.4a); ``*`` is 0 outside play (208.2); the legend rule of
  June 2004 keeps the legendary permanent that has been in play longest; no Wall can attack
  (308.2a: defender came later).
* ``modern``: mana empties at the end of every step and phase, no mana burn; combat damage is
  dealt at once as a turn-based action (405.6e); the "London" mulligan; zones include exile,
  ante and command; phasing is a status; the player who creates a token owns it;
  characteristic-defining abilities work in every zone; each player keeps one legendary
  permanent of a name; +1/+1 and -1/-1 counters cancel out. (Outside the seeds: modern rules
  103.5, 111.2, 604.3, 702.26, 704.5j and 704.5q.)
"""

from __future__ import annotations

from collections.abc import Generator
from typing import ClassVar

from reference_engine import events as ev
from reference_engine.actions import Action
from reference_engine.constants import BATTLEFIELD, HAND, LIBRARY, PHASED_OUT, PLAYERS
from reference_engine.game import Game
from reference_engine.objects import Decision, GameObject
from spec.editions import CR2004, EDITIONS, MODERN

_MAX_MODERN_MULLIGANS = 7


def _all_but_newest(worlds: list[GameObject]) -> list[GameObject]:
    """The world rule: only the permanent that has been a world permanent for the shortest
    time stays; on a tie (they entered at once), none stays (modern 704.5k; 2004 420.5i, the
    rule the seed's 212.4j points to, outside the seed)."""
    if len(worlds) < 2:
        return []
    newest = max(o.timestamp for o in worlds)
    stays = [o for o in worlds if o.timestamp == newest]
    return [o for o in worlds if len(stays) > 1 or o is not stays[0]]


def _with_attachments(battlefield: list[GameObject], obj: GameObject) -> list[GameObject]:
    """A permanent and everything attached to it, and to those, still on the battlefield."""
    found = [obj]
    for item in found:
        found.extend(o for o in battlefield if o.attached_to == item.id and o not in found)
    return [o for o in found if o in battlefield]


def _with_indirect(phased: list[GameObject], direct: list[GameObject]) -> list[GameObject]:
    """The permanents phasing in directly, and those that phased out with them."""
    found = list(direct)
    for item in found:
        found.extend(o for o in phased if o.phased_with == item.id and o not in found)
    return found


class Game2004(Game):
    edition: ClassVar[str] = CR2004.key
    extra_zones: ClassVar[tuple[str, ...]] = ("ante", "phased_out")
    pool_empties_each_step: ClassVar[bool] = False
    mana_burn: ClassVar[bool] = True
    combat_damage_uses_stack: ClassVar[bool] = True
    planeswalkers: ClassVar[bool] = False
    legend_creature_type: ClassVar[bool] = True
    counters_annihilate: ClassVar[bool] = False
    shields_follow_spells: ClassVar[bool] = False
    lands_and_tokens_cost_zero: ClassVar[bool] = True
    owners_order_rule_deaths: ClassVar[bool] = False
    hidden_top_card_is_new: ClassVar[bool] = False
    walls_cant_attack: ClassVar[bool] = True

    def _cda_applies(self, obj: GameObject) -> bool:
        """Where a characteristic-defining ability works: in 2004 only in play (208.2)."""
        return obj.zone == BATTLEFIELD

    def _may_find_in(self, zone: int) -> bool:
        return True  # the seed sets no limit on where an effect finds what it moved

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

    def _token_owner(self, creator: str, receiver: str) -> str:
        return creator  # the controller of the spell or ability that made it (200.4a)

    def _rule_victims(self, legendary: list[GameObject], worlds: list[GameObject]
                      ) -> Generator[Decision, Action, list[GameObject]]:
        """The legend rule as in force in June 2004 (rule 420.5e, outside the seeds): of
        legendary permanents (or creatures of type Legend) with the same name, all but the one
        in play longest go to their owners' graveyards, whoever controls them (all of them on
        a tie); the world rule (420.5i): all world enchantments but the newest."""
        victims: list[GameObject] = []
        by_name: dict[str, list[GameObject]] = {}
        for obj in legendary:
            by_name.setdefault(self.chars(obj).name, []).append(obj)
        for group in by_name.values():
            if len(group) > 1:
                # The one in play longest stays; a tie (entered at once) keeps none.
                oldest = min(o.timestamp for o in group)
                stays = [o for o in group if o.timestamp == oldest]
                victims.extend(o for o in group if len(stays) > 1 or o is not stays[0])
        return victims + _all_but_newest(worlds)
        yield

    def phase_out(self, obj: GameObject) -> None:
        """2004: a phased-out permanent goes to the phased-out zone as the same object,
        remembering its state (217.8a, 217.8c); what is attached to it goes with it, and
        comes back only with it."""
        zone = self.zones_extra["phased_out"]
        for item in _with_attachments(self.battlefield, obj):
            # Out of play, it is known as it last was in play (a source of combat damage on
            # the stack, 310.4b): Layers.known_chars. (The permanent comes first, while what is
            # attached to it still is.)
            item.last_chars = self.chars(item)
            self.battlefield.remove(item)
            item.attacking, item.blocking = False, None  # removed from combat (2004 306.2)
            item.zone = PHASED_OUT
            item.phased_with = None if item is obj else obj.id
            zone.append(item)
            self._events.append(ev.PhaseOut(item.id))
            if item.token:
                self._tokens_outside = True  # it ceases to exist (217.8d)
        self.changed()

    def _phase_in_and_out(self) -> None:
        """The active player's permanents that phased out on their own phase in, and what
        phased out with them comes back with them (never by itself, never on its own
        controller's turn): what was attached to a token that ceased to exist stays phased
        out (217.8d; modern 702.26g)."""
        zone = self.zones_extra["phased_out"]
        back = _with_indirect(zone, [o for o in zone if o.phased_with is None
                                     and o.controller == self.active])
        for obj in back:
            zone.remove(obj)
            obj.zone = BATTLEFIELD
            obj.phased_with = None
            self.battlefield.append(obj)
            self._events.append(ev.PhaseIn(obj.id))
        if back:
            self.changed()

    def _tokens_ceasing(self) -> list[GameObject]:
        found = super()._tokens_ceasing()
        found.extend(o for o in self.zones_extra["phased_out"] if o.token)  # 217.8d
        return found

    def cards_outside_the_game(self, name: str) -> list[GameObject]:
        """Removed-from-the-game cards are outside the game too (217.1e)."""
        return super().cards_outside_the_game(name) + [
            o for o in self.exile if o.owner == name and not o.token
            and (self.playing_for_ante or not o.impl.ante_card)]


class GameModern(Game):
    edition: ClassVar[str] = MODERN.key
    extra_zones: ClassVar[tuple[str, ...]] = ("ante", "command")
    pool_empties_each_step: ClassVar[bool] = True
    mana_burn: ClassVar[bool] = False
    combat_damage_uses_stack: ClassVar[bool] = False
    planeswalkers: ClassVar[bool] = True
    legend_creature_type: ClassVar[bool] = False
    counters_annihilate: ClassVar[bool] = True
    shields_follow_spells: ClassVar[bool] = True
    lands_and_tokens_cost_zero: ClassVar[bool] = False
    owners_order_rule_deaths: ClassVar[bool] = True
    hidden_top_card_is_new: ClassVar[bool] = True
    walls_cant_attack: ClassVar[bool] = False

    def _token_owner(self, creator: str, receiver: str) -> str:
        return receiver  # the player under whose control it enters

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

    def _cda_applies(self, obj: GameObject) -> bool:
        return True  # characteristic-defining abilities work in every zone (604.3)

    def _may_find_in(self, zone: int) -> bool:
        return zone not in (LIBRARY, HAND)  # only public zones (400.7e)

    def _rule_victims(self, legendary: list[GameObject], worlds: list[GameObject]
                      ) -> Generator[Decision, Action, list[GameObject]]:
        """The legend rule since 2013 (704.5j): a player controlling two or more legendary
        permanents with the same name chooses one and the rest go to the graveyard; the world
        rule (704.5k) keeps only the newest world permanent."""
        victims: list[GameObject] = []
        for name in PLAYERS:
            by_name: dict[str, list[GameObject]] = {}
            for obj in legendary:
                if obj.controller == name:
                    by_name.setdefault(self.chars(obj).name, []).append(obj)
            for card, group in by_name.items():
                if len(group) > 1:
                    keep = yield from self.choose(name, "legend_rule", [o.id for o in group],
                                                  {"card": card})
                    victims.extend(o for o in group if o.id != keep)
        return victims + _all_but_newest(worlds)

    def phase_out(self, obj: GameObject) -> None:
        """Modern phasing is a status: the permanent stays on the battlefield but is treated
        as though it did not exist; what is attached to it phases out with it, indirectly
        (702.26, outside the seeds). A permanent already phased out is affected by nothing
        (702.26b): it does not phase out again (no second event), and what is attached to it
        and phased out on its own stays as it was, not swept along indirectly (702.26g)."""
        if obj.phased_out:
            return
        for item in _with_attachments(self.battlefield, obj):
            if item.phased_out:
                continue
            # Treated as though it did not exist, it is known as it last existed (608.2h,
            # 608.2b: the source of an ability on the stack): Layers.known_chars. (The permanent
            # comes first, while what is attached to it is still phased in.)
            item.last_chars = self.chars(item)
            item.attacking, item.blocking = False, None  # removed from combat (506.4)
            item.phased_out = True
            item.phased_with = None if item is obj else obj.id
            self._events.append(ev.PhaseOut(item.id))
        self.changed()

    def _phase_in_and_out(self) -> None:
        """The active player's permanents that phased out directly phase in, and what phased
        out indirectly with them phases in with them, never on its own (702.26g)."""
        phased = [o for o in self.battlefield if o.phased_out]
        back = _with_indirect(phased, [o for o in phased if o.phased_with is None
                                       and o.controller == self.active])
        for obj in back:
            obj.phased_out = False
            obj.phased_with = None
            self._events.append(ev.PhaseIn(obj.id))
        if back:
            self.changed()


def _edition_games(*games: type[Game]) -> dict[str, type[Game]]:
    """The games by edition key, which must be exactly the editions spec defines."""
    found = {game.edition: game for game in games}
    if set(found) != set(EDITIONS):
        raise TypeError(f"the engine's editions {sorted(found)} are not spec's "
                        f"{sorted(EDITIONS)}")
    return {key: found[key] for key in EDITIONS}


EDITION_GAMES = _edition_games(Game2004, GameModern)
