"""What happens to objects and players: zone changes, damage, life, counters, tokens,
attachments, choices. This is the game as a card's effect sees it: the members that
:class:`~reference_engine.cardimpl.CardAPI` names are its public API for cards.
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Callable, Generator, Iterator
from typing import Any

from reference_engine import events as ev
from reference_engine import mana
from reference_engine.actions import Action
from reference_engine.constants import (
    ANTE,
    BATTLEFIELD,
    COLORS,
    COMMAND,
    EXILE,
    GRAVEYARD,
    HAND,
    LIBRARY,
    PERMANENT_TYPES,
    STACK,
    ZONE_NAMES,
    other,
)
from reference_engine.keywords import protected_from
from reference_engine.objects import (
    AbilitySpec,
    CardImpl,
    Chars,
    ContinuousEffect,
    Decision,
    GameObject,
    StackItem,
)
from reference_engine.state import Shield
from reference_engine.triggers import Triggers
from spec.cardpool import CardData

#: the zones whose contents no characteristic, continuous effect or player rule may read:
#: all but the battlefield and the command zone
UNWATCHED_ZONES = frozenset((LIBRARY, HAND, GRAVEYARD, STACK, EXILE))


class Board(Triggers):
    """The actions of the game on its objects and players."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.card_api = self

    def is_sick(self, obj: GameObject) -> bool:
        """Not under its controller's control continuously since their most recent turn began
        (2004 rule 212.3d)."""
        return obj.controlled_since >= self.players[obj.controller].last_turn

    def tap(self, obj: GameObject) -> None:
        if not obj.tapped:
            obj.tapped = True
            if not self.unheard("tapped"):
                self.fire("tapped", obj)

    def move(self, obj: GameObject, to: int, *, controller: str | None = None,
             bottom: bool = False, cause: str | None = None, attach: int | str | None = None,
             exiled_with: int | None = None, face_down: bool = False,
             from_top: int | None = None, tapped: bool = False) -> GameObject | None:
        """Move ``obj`` to zone ``to``; the result is a new object with a new id (217.1c,
        400.7). An instant or sorcery that would enter the battlefield stays (217.1a, 400.4a)
        and None is returned. Libraries, hands and graveyards are always the owner's."""
        if to == BATTLEFIELD and not PERMANENT_TYPES.intersection(obj.card.types):
            return None
        exiled = self._graveyards_exiled
        if to == GRAVEYARD and (self._graveyards_replaced() if exiled is None else exiled):
            # "If a card or token would be put into a graveyard from anywhere, exile it
            # instead" (Rest in Peace): a card in exile is then exiled again, and becomes a new
            # object all the same (modern 400.8, 406.7). Within one event that moves several
            # objects, as the event began (``moving_together()``).
            to, cause = EXILE, "exiled_instead"
        if obj.zone == STACK and to != EXILE and obj.cast_info and obj.cast_info.get("flashback"):
            # Flashback: "remove it from the game instead of putting it anywhere else".
            to = EXILE
            cause = "flashback"
        candidates: list[int | str] = []
        if to == BATTLEFIELD and obj.impl.enchant is not None and attach is None:
            # An Aura put onto the battlefield without being cast: the player putting it there
            # chooses what it enchants as it enters, without targeting, so not among what
            # enters with it; with no legal choice it stays (212.4e; modern 303.4f-g, outside
            # the seeds).
            who = controller or obj.owner
            arrived = {o.id for o in self._arrivals[1:]} if self._arrivals else set()
            candidates = [t for t in self.aura_candidates(obj, who) if t not in arrived]
            if not candidates:
                return None
        if obj.zone == BATTLEFIELD:
            # Its last known information, as it leaves (modern 608.2h; 2004 310.4b).
            obj.last_chars = self.chars(obj)
        source = self.zone_list(obj)
        if source is not None:
            source.remove(obj)
        del self.objects[obj.id]
        new = self.new_object(obj.card, obj.impl, obj.owner, to)
        obj.successor = new
        if obj.token:
            new.token = True
            self._tokens_outside = to != BATTLEFIELD
        new.face_down = face_down
        new.exiled_with = exiled_with
        if obj.zone == STACK and to == BATTLEFIELD:
            new.cast_info = obj.cast_info  # a permanent knows how its spell was cast (400.7d)
            for effect in self.effects:  # changes made to the spell carry over (213.5, 400.7a)
                if effect.target == obj.id:
                    effect.target = new.id
            if self.shields_follow_spells:
                for shield in self.shields:  # prevention keeps applying (400.7c)
                    if shield.source == obj.id:
                        shield.source, shield.obj = new.id, new
        if to == BATTLEFIELD:
            new.controller = new.base_controller = controller or obj.owner
            new.controlled_since = self.turn
            new.tapped = tapped  # "put onto the battlefield tapped", "enters tapped"
            counters = dict(obj.impl.enters_with)
            if new.cast_info and new.cast_info.get("kicked"):
                for kind, amount in obj.impl.kicked_counters.items():
                    counters[kind] = counters.get(kind, 0) + amount
            new.counters = counters
            if obj.impl.loyalty is not None:
                new.counters["loyalty"] = obj.impl.loyalty
            if attach is not None:
                new.attached_to = attach
            elif obj.impl.enchant is not None or obj.impl.choose_on_entry:
                self._entry_choices.append(new)
                if candidates:
                    self._entry_candidates[new.id] = candidates
        destination = self.zone_list(new)
        if destination is not None:
            if from_top is not None and to == LIBRARY:
                # "Nth from the top" of a library with fewer than N cards: the bottom (401.7).
                index = len(destination) - (from_top - 1)
                destination.insert(max(index, 0) if len(destination) >= from_top else 0, new)
            elif bottom:
                destination.insert(0, new)
            else:
                if to == LIBRARY and destination:
                    self._hide_revealed_top(obj.owner, "covered")
                destination.append(new)
        if obj.zone not in UNWATCHED_ZONES or to not in UNWATCHED_ZONES:
            # A card moved between zones no characteristic, continuous effect or player rule
            # reads (drawn, cast, discarded, a spell resolved into the graveyard) changes none
            # of them (tests/test_engine_zone_versions.py holds every card to it): what is
            # cached for the state version stays true, and the card is a new object.
            self.changed()
        self._events.append(ev.ZoneChange(obj.id, new.id, obj.card.name, ZONE_NAMES[obj.zone],
                                          ZONE_NAMES[to], obj.owner, cause))
        if obj.zone == BATTLEFIELD:
            # Where it went, after any replacement: exiled instead, it did not die (modern
            # 614.6).
            self.fire("dies" if to == GRAVEYARD else "leaves", new, old=obj, to=to)
        if to == BATTLEFIELD:
            if self._arrivals is None:
                self.fire("etb", new)
            else:
                new.timestamp = self._arrivals[0]
                self._arrivals.append(new)
        return new

    def _graveyards_replaced(self) -> bool:
        return any(o.impl.exile_instead_of_graveyard and not o.phased_out
                   and not self.chars(o).lost_abilities for o in self.battlefield)

    @contextlib.contextmanager
    def moving_together(self) -> Iterator[None]:
        """Objects moved inside this block move in one event (several destroyed at once,
        state-based actions performed at once, modern 704.3): a replacement effect that
        exists immediately before the event applies to the whole of it, also to the objects
        moved after its own source has left (modern 614.1a): Rest in Peace destroyed by Wrath
        of God together with creatures exiles them all, itself included."""
        if self._graveyards_exiled is not None:
            yield  # already inside one event
            return
        self._graveyards_exiled = self._graveyards_replaced()
        try:
            yield
        finally:
            self._graveyards_exiled = None

    @contextlib.contextmanager
    def together(self) -> Iterator[None]:
        """Objects put onto the battlefield inside this block enter as one event: they share
        a timestamp (so the world and 2004 legend rules see a tie), and what their entering
        triggers is checked once all of them are there, with the continuous effects that exist
        then (modern 603.6a and 603.10, outside the seeds; 2004 the same). Abilities that
        trigger on leaving look back at the object itself and are checked as it leaves."""
        if self._arrivals is not None:
            yield  # already inside one event
            return
        self._arrivals = [self.next_timestamp()]
        try:
            yield
        finally:
            arrived, self._arrivals = self._arrivals[1:], None
            self.changed()
            for obj in arrived:
                if obj.id in self.objects and obj.zone == BATTLEFIELD:
                    self.fire("etb", obj)

    def exile_object(self, obj: GameObject, *, cause: str, exiled_with: int | None = None,
                     face_down: bool = False) -> GameObject | None:
        return self.move(obj, EXILE, cause=cause, exiled_with=exiled_with, face_down=face_down)

    def put_into_graveyards(self, objs: list[GameObject], cause: str,
                            causes: dict[int, str] | None = None, *, ordered: bool = True
                            ) -> Generator[Decision, Action, None]:
        """Put several objects into their owners' graveyards at once (``causes`` may give one
        object's own cause). Each owner orders their own cards when they differ (217.4c,
        404.3), unless not ``ordered`` (they go in as listed). They move in one event, though
        one by one here: what replaces a move to a graveyard is decided once, as it begins
        (modern 614.1a, ``moving_together()``)."""
        with self.moving_together():
            for name in self.apnap_order():
                mine = [o for o in objs if o.owner == name and o.id in self.objects]
                # Exiled instead (Rest in Peace), they reach no graveyard: there is no order
                # to choose (modern 614.1a, 614.6: only the replacing event happens).
                ordered_here = ordered and not self._graveyards_exiled
                while mine:
                    if ordered_here and len({o.card.name for o in mine}) > 1:
                        options = [Action("choose", name, choice=o.id) for o in mine]
                        action = yield Decision("order_graveyard", name, options,
                                                count=len(mine))
                        chosen = self.objects[action.choice]
                    else:
                        chosen = mine[0]
                    mine.remove(chosen)
                    self._destroyed_or_moved(chosen, (causes or {}).get(chosen.id, cause))

    def _destroyed_or_moved(self, obj: GameObject, cause: str) -> None:
        if obj.zone == BATTLEFIELD:
            self.move(obj, GRAVEYARD, cause=cause)
        elif obj.zone == STACK:
            item = self.stack_item(obj.id)
            if item is not None:
                self.stack.remove(item)
            self.move(obj, GRAVEYARD, cause=cause)

    def shuffle(self, name: str) -> None:
        library = self.players[name].library
        revealed = library[-1] if library and self._top_revealed(name) else None
        self.rng.shuffle(library)
        self._events.append(ev.Shuffle(name))
        if revealed is not None:
            # The revealed top card was hidden, if only for a moment: even if it is on top
            # again, it is a new object (modern 401.6).
            self._renew(revealed, "shuffle")

    def _top_revealed(self, name: str) -> bool:
        return self.hidden_top_card_is_new and self.player_rules(name)["top_card_revealed"]

    def _hide_revealed_top(self, name: str, cause: str) -> None:
        """A card goes on top of the library: its revealed top card becomes hidden, and is a
        new object when it is revealed again (modern 401.6)."""
        library = self.players[name].library
        if library and self._top_revealed(name):
            self._renew(library[-1], cause)

    def _renew(self, obj: GameObject, cause: str) -> GameObject:
        """The same card as a new object, where it is (no zone change: 401.6)."""
        zone = self.zone_list(obj)
        assert zone is not None
        new = self.new_object(obj.card, obj.impl, obj.owner, obj.zone)
        new.token, new.face_down, new.exiled_with = obj.token, obj.face_down, obj.exiled_with
        zone[zone.index(obj)] = new
        del self.objects[obj.id]
        obj.successor = new
        self.changed()
        self._events.append(ev.NewObject(obj.id, new.id, obj.card.name, ZONE_NAMES[obj.zone],
                                         cause))
        return new

    def draw(self, name: str, count: int) -> None:
        player = self.players[name]
        for _ in range(count):
            if not player.library:
                # Drawing from an empty library loses at the next check (2004 rule 102.2).
                player.drew_from_empty = True
                self._events.append(ev.DrawEmpty(name))
                continue
            new = self.move(player.library[-1], HAND, cause="draw")
            self._events.append(ev.Draw(name, new.id if new else None))

    def deal_damage(self, source: GameObject | None, target: int | str, amount: int,
                    *, combat: bool = False) -> None:
        amount = max(0, amount)  # negative damage is 0 (2004 rule 104.2)
        if amount == 0:
            return
        dealt = self._damage(source, target, amount, combat)
        if dealt and source is not None:
            self._damage_dealt(source, dealt)

    def _damage(self, source: GameObject | None, target: int | str, amount: int,
                combat: bool) -> int:
        """``source`` deals ``amount`` damage to ``target`` unless it is prevented; the
        damage dealt (0 if none). What a lifelink source's controller gains, and what
        triggers on the source dealing damage, come after (``_damage_dealt``): once for all
        the damage a source deals at once (combat damage to a blocker and a player)."""
        source_id = source.id if source is not None else None
        if isinstance(target, str):
            for shield in self.shields:
                if shield.player == target and shield.source == source_id and (
                        shield.matches is None or (source is not None and shield.matches(
                            self.known_chars(source)))):
                    # A shield for a source with a property (a red source) rechecks it as
                    # the damage would be dealt; no longer red, the damage is dealt and the
                    # shield stays unused (modern 609.7b, 615.9; the 2004 rules, 419.7c, do
                    # not say, and the modern rule is followed). A source that has left the
                    # battlefield is judged as it last existed there (known_chars).
                    self.shields.remove(shield)
                    self._events.append(ev.Prevent(source_id, target, amount))
                    return 0
            self._events.append(ev.Damage(source_id, target, amount, combat))
            if source is not None and self._has_infect(source):
                self.players[target].poison += amount
                self._events.append(ev.Poison(target, amount))
            else:
                self.lose_life(target, amount, "damage")
            return amount
        obj = self.objects.get(target)
        if obj is None or obj.zone != BATTLEFIELD or obj.phased_out:
            return 0
        chars = self.chars(obj)
        known = self.known_chars(source) if source is not None else None
        if known is not None and protected_from(chars.keywords, known.colors):
            # Protection: all damage from a source of the quality is prevented (modern
            # 702.16e, 2004 502.7a), so none is dealt: no life for lifelink, no deathtouch.
            self._events.append(ev.Prevent(source_id, target, amount))
            return 0
        self._events.append(ev.Damage(source_id, target, amount, combat))
        if "Planeswalker" in chars.types and "Creature" not in chars.types:
            self.remove_counters(obj, "loyalty", amount)
        elif known is not None and "infect" in known.keywords:
            self.add_counters(obj, "-1/-1", amount)
        else:
            obj.damage += amount
            # Damage makes no new state version: the state-based actions look at every
            # permanent again (Game._sba_found).
            self._sba_quiet = self._sba_idle = -1
        if known is not None and "deathtouch" in known.keywords and "Creature" in chars.types:
            # Dealt damage by a deathtouch source since state-based actions were last
            # checked: destroyed when they next are (modern 702.2b, 704.5h; the source as it
            # last existed, 702.2e).
            self._deathtouched.add(obj.id)
            self._sba_quiet = self._sba_idle = -1
        return amount

    def _damage_dealt(self, source: GameObject, amount: int) -> None:
        """``source`` has dealt ``amount`` damage at once: lifelink gains its controller that
        much life as part of the same event (modern 702.15b, the source as it last existed,
        702.15c; one life gain however many recipients, 702.15e), and abilities that trigger
        on it dealing damage trigger (2004 Loxodon Warhammer's "Whenever this creature deals
        damage, you gain that much life", a triggered ability: 2004 has no lifelink)."""
        if "lifelink" in self.known_chars(source).keywords:
            self.gain_life(source.controller, amount)
        if not self.unheard("deals_damage"):
            self.fire("deals_damage", source, amount=amount)

    def _has_infect(self, source: GameObject) -> bool:
        return "infect" in self.known_chars(source).keywords

    def choosable_sources(self, item: StackItem) -> list[GameObject]:
        """What a player may choose as "a source of your choice" as ``item`` resolves (modern
        609.7a): a permanent, a spell, or an object an object on the stack, a prevention
        shield waiting to apply or a delayed triggered ability waiting to trigger refers to,
        even one no longer in the zone it was in (2004: the Gatherer ruling of 2004-10-04
        agrees for what the stack refers to; the rest is not settled, and the modern rule is
        followed). Each object once, in that order."""
        found = list(self.live())
        for on_stack in self.stack:
            if on_stack is item:
                continue
            if on_stack.obj is not None:
                found.append(on_stack.obj)
            if on_stack.source is not None:
                found.append(on_stack.source)
            found.extend(source for source, _, _ in on_stack.assignments)
        found.extend(shield.obj for shield in self.shields if shield.obj is not None)
        for delayed in self.delayed:
            found.extend(delayed.spec.refers_to)
        distinct: dict[int, GameObject] = {}
        for obj in found:
            distinct.setdefault(obj.id, obj)
        return list(distinct.values())

    def lose_life(self, name: str, amount: int, cause: str) -> None:
        self.players[name].life -= amount
        self._events.append(ev.Life(name, -amount, cause))

    def gain_life(self, name: str, amount: int) -> None:
        self.players[name].life += amount
        self._events.append(ev.Life(name, amount, "gain"))
        if amount > 0 and not self.unheard("gains_life"):
            # One life gain, one event to trigger on: lifelink's gains are counted per source
            # (modern 702.15e, _damage_dealt); gaining no life is no life gain to trigger on.
            self.fire("gains_life", None, player=name, amount=amount)

    def add_counters(self, obj: GameObject, kind: str, amount: int) -> None:
        if amount > 0:
            obj.counters[kind] = obj.counters.get(kind, 0) + amount
            self.changed()
            self._events.append(ev.Counters(obj.id, kind, amount))

    def remove_counters(self, obj: GameObject, kind: str, amount: int) -> None:
        have = obj.counters.get(kind, 0)
        taken = min(have, amount)
        if taken:
            if have == taken:
                del obj.counters[kind]
            else:
                obj.counters[kind] = have - taken
            self.changed()
            self._events.append(ev.Counters(obj.id, kind, -taken))

    def destroy(self, target: int, *, regenerate: bool = True) -> None:
        obj = self.objects.get(target)
        if obj is None or obj.zone != BATTLEFIELD or obj.phased_out:
            # A phased-out permanent is treated as though it does not exist (modern 702.26b):
            # no effect destroys it, not even one that refers to it without targeting it
            # (Stone Giant's delayed "destroy that creature"). In 2004 it is not in play.
            return
        if self.has(obj, "indestructible"):
            return
        if regenerate and self._regenerated(obj):
            return
        self.move(obj, GRAVEYARD, cause="destroy")

    def _regenerated(self, obj: GameObject) -> bool:
        """Regeneration replaces destruction, if the object has a shield: tap it, remove its
        damage and it leaves combat."""
        if not obj.regen_shields:
            return False
        obj.regen_shields -= 1
        obj.damage = 0
        obj.attacking = False
        obj.blocking = None
        self.tap(obj)
        self._events.append(ev.Regenerate(obj.id))
        return True

    def sacrifice(self, obj: GameObject, player: str) -> None:
        """``player`` sacrifices ``obj``: only a permanent they control, and one that exists
        (modern 701.21a, 2004 glossary "Sacrifice": sacrificing anything else does nothing; a
        phased-out permanent is treated as though it did not exist, modern 702.26b; in 2004 it
        is not in play)."""
        if obj.zone == BATTLEFIELD and not obj.phased_out and obj.controller == player:
            self.move(obj, GRAVEYARD, cause="sacrifice")

    def return_to_hand(self, target: int) -> None:
        obj = self.objects.get(target)
        if obj is not None and obj.zone == BATTLEFIELD:
            self.move(obj, HAND, cause="bounce")

    def counter(self, target: int) -> None:
        item = self.stack_item(target)
        if item is None:
            return
        self.stack.remove(item)
        if item.obj is not None:
            self.move(item.obj, GRAVEYARD, cause="countered")
        self._events.append(ev.Countered(target))

    def pump_until_end_of_turn(self, target: int, power: int, toughness: int) -> None:
        def modify(chars: Any) -> None:
            if chars.power is not None:
                chars.power += power
                chars.toughness = (chars.toughness or 0) + toughness

        self.add_effect(ContinuousEffect(7.3, self.next_timestamp(), None,
                                         modify, "turn", target=target))

    def add_mana(self, name: str, produces: tuple[str, ...]) -> None:
        pool = self.players[name].pool
        for symbol in produces:
            pool[mana.SLOT[symbol]] += 1
        self._events.append(ev.Mana(name, produces))

    def discard(self, name: str, count: int) -> Generator[Decision, Action, None]:
        """The player discards ``count`` cards of their choice, one decision per card."""
        player = self.players[name]
        for remaining in range(count, 0, -1):
            if not player.hand:
                return
            if len(player.hand) <= remaining:
                for obj in list(player.hand):
                    self.move(obj, GRAVEYARD, cause="discard")
                return
            options = [Action("discard", name, card=o.id) for o in player.hand]
            action = yield Decision("discard", name, options, count=remaining)
            self.move(self.object_of(action), GRAVEYARD, cause="discard")

    def choose(self, name: str, kind: str, values: list[Any], data: dict[str, Any] | None = None
               ) -> Generator[Decision, Action, Any]:
        """Ask a player to choose one of ``values`` (a decision of ``kind``)."""
        if len(values) == 1:
            return values[0]
        options = [Action("choose", name, choice=v) for v in values]
        action = yield Decision(kind, name, options, data=data)
        return action.choice

    def choose_color(self, name: str) -> Generator[Decision, Action, str]:
        """Choose one of the five colours; "multicoloured" is not a colour (203.2d)."""
        color: str = yield from self.choose(name, "choose_color", list(COLORS))
        return color

    def create_token(self, creator: str, receiver: str, card: CardData, impl: CardImpl
                     ) -> GameObject:
        """Put a token onto the battlefield under ``receiver``'s control; ``creator``
        controls the spell or ability that made it. The owner is an edition hook."""
        token = self.new_object(card, impl, self._token_owner(creator, receiver), BATTLEFIELD)
        token.token = True
        token.controller = token.base_controller = receiver
        token.controlled_since = self.turn
        self.battlefield.append(token)
        self.changed()
        self._events.append(ev.Token(token.id, card.name, receiver))
        self.fire("etb", token)
        return token

    def attach(self, obj: GameObject, target: int | str) -> None:
        obj.attached_to = target
        obj.timestamp = self.next_timestamp()  # an attachment gets a new timestamp
        self.changed()
        self._events.append(ev.Attach(obj.id, target))

    def find_moved(self, event: dict[str, Any]) -> GameObject | None:
        """For an ability that triggered on a zone change: the object in its new zone, if the
        ability may find it there (2004 217.1c: any zone; modern 400.7e: a public zone)."""
        new = event.get("subject")
        if new is None or new.id not in self.objects:
            return None
        return new if self._may_find_in(new.zone) else None

    def grant_until(self, target: int, duration: str, *, keywords: frozenset[str] = frozenset(),
                    power: int = 0, toughness: int = 0) -> None:
        """An effect giving one object keywords and/or +power/+toughness for ``duration``
        ("turn", or "object": as long as it stays the same object)."""
        def modify(chars: Any) -> None:
            if keywords:
                chars.keywords = chars.keywords | keywords
            if chars.power is not None and (power or toughness):
                chars.power += power
                chars.toughness = (chars.toughness or 0) + toughness

        layer = 7.3 if (power or toughness) else 6
        self.add_effect(ContinuousEffect(layer, self.next_timestamp(), None,
                                         modify, duration, target=target))

    def extra_turns_for(self, name: str, count: int) -> None:
        for _ in range(count):
            self.extra_turns.append(name)
        self._events.append(ev.ExtraTurns(name, count))

    def shield_from(self, player: str, chosen: GameObject,
                    matches: Callable[[Chars], bool] | None = None) -> None:
        source = chosen.id
        self.shields.append(Shield(player, source, matches))
        self.shields[-1].obj = chosen  # what it refers to while it waits (609.7a)
        self._events.append(ev.Shield(player, source))

    def ante_object(self, obj: GameObject) -> GameObject | None:
        """Move an object to the ante zone; only its owner may do so (217.9d, 407.4), and
        only in a game played for ante (217.9c, 407.3)."""
        if not self.playing_for_ante:
            return None
        return self.move(obj, ANTE, cause="ante")

    def new_emblem(self, owner: str, card: CardData, impl: CardImpl) -> GameObject | None:
        """An emblem in the command zone: not a permanent, it can't be destroyed (408)."""
        if "command" not in self.zones_extra:
            return None
        emblem = self.new_object(card, impl, owner, COMMAND)
        self.zones_extra["command"].append(emblem)
        self.changed()
        self._events.append(ev.Emblem(emblem.id, card.name, owner))
        return emblem

    def apnap_order(self) -> tuple[str, str]:
        """The players in turn order from the active player (APNAP order)."""
        return self.active, other(self.active)

    def creature_types(self) -> frozenset[str]:
        """The creature types a player may name (2004 212.1e; modern 205.3m, outside the
        seeds): every one this edition's card pool can give an object, printed on a creature
        card or given by a card's text to a token or an animated permanent (Raise the Alarm's
        Soldiers, Mishra's Factory's Assembly-Worker), and in 2004 "Legend", a creature type
        then (215.2) though no pool creature has it.

        The rules allow any creature type of the official list (the 2004 glossary, modern
        205.3m), which the seeds do not hold; naming one no card of the pool can give has the
        effect of naming one no permanent has."""
        return _creature_types(self.edition) | {"Legend"} if self.legend_creature_type \
            else _creature_types(self.edition) - {"Legend"}

    def _granting_equipment(self, creature: GameObject, spec: AbilitySpec
                            ) -> GameObject | None:
        """The Equipment that granted ``spec`` to ``creature``, if still attached to it."""
        equipment = self.objects.get(spec.granted_by) if spec.granted_by is not None else None
        if equipment is not None and equipment.attached_to == creature.id:
            return equipment
        return None

    def _replace_losses(self, losers: list[str], destroyed: list[GameObject],
                        to_graveyard: list[GameObject]
                        ) -> Generator[Decision, Action, list[str]]:
        """Of the players who would lose, those who still do: a permanent with a loss
        replacement (``CardImpl.loss_replacement``) saves its controller once, and is exiled
        (or, if a state-based action also sends it to the graveyard, its controller chooses
        which applies)."""
        still = []
        for name in losers:
            savior = next((o for o in self.live() if o.controller == name
                           and o.impl.loss_replacement and not self.chars(o).lost_abilities),
                          None)
            if savior is None:
                still.append(name)
                continue
            self.players[name].life = 20  # the starting life total
            self.players[name].drew_from_empty = False
            self._events.append(ev.LossReplaced(name, savior.id))
            conflict = savior in destroyed or savior in to_graveyard
            where = "exile"
            if conflict:
                where = yield from self.choose(savior.controller, "choose_replacement",
                                               ["graveyard", "exile"],
                                               {"object": savior.id, "card": savior.card.name})
            if where == "exile":
                if savior in destroyed:
                    destroyed.remove(savior)
                if savior in to_graveyard:
                    to_graveyard.remove(savior)
                self.exile_object(savior, cause="replacement")
        return still


# Capitalised words just before "creature" (or "artifact creature") in a card's text, not at
# the start of a sentence: "a 1/1 white Soldier creature token", "becomes a 2/2
# Assembly-Worker artifact creature", "three 1/1 red Goblin Scout creature tokens".
_TEXT_CREATURE_TYPES = re.compile(
    r"(?<=[a-z0-9/] )((?:[A-Z][a-z]+(?:-[A-Z][a-z]+)* )+)(?:artifact )?creature")


@functools.cache
def _creature_types(edition: str) -> frozenset[str]:
    from spec.cardpool import default_pool

    found: set[str] = set()
    for card in default_pool().edition(edition).values():
        if "Creature" in card.types:
            found.update(card.subtypes)
        for words in _TEXT_CREATURE_TYPES.findall(card.text):
            found.update(words.split())
    return frozenset(found)
