"""The reference game: state, turn structure, priority, the stack, zone changes and
state-based actions, for two players. Edition differences are hooks overridden in
``editions.py``; characteristics are in ``layers.py``, triggers in ``triggers.py``, combat in
``combat.py``.

The game runs as a coroutine (``_run``) that yields a :class:`Decision` whenever a player must
act (priority, or a decision such as a mulligan or declaring attackers) and receives the chosen
:class:`Action`. ``legal_actions()`` lists what the current decision accepts; ``perform()``
checks an action against it before anything changes, so a rejected action leaves the state
exactly as it was; ``apply()`` is the unchecked path for callers that took the action from
``legal_actions()`` (the self-play loop).
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import random
import re
from collections.abc import Generator, Iterator
from typing import Any, ClassVar

from reference_engine import events as ev
from reference_engine import mana
from reference_engine.actions import Action
from reference_engine.cardimpl import AbilitySpec, CardImpl, TargetSpec
from reference_engine.combat import CombatMixin
from reference_engine.constants import (
    ANTE,
    BATTLEFIELD,
    CLEANUP,
    COLORS,
    COMBAT,
    COMBAT_DAMAGE,
    COMMAND,
    DECLARE_ATTACKERS,
    DECLARE_BLOCKERS,
    DRAW,
    END_COMBAT,
    EXILE,
    GRAVEYARD,
    HAND,
    LIBRARY,
    MAIN1,
    OUTSIDE,
    PHASE_OF_STEP,
    PLAYERS,
    PRIORITY,
    STACK,
    STEP_NAMES,
    UNTAP,
    UPKEEP,
    ZONE_NAMES,
    other,
)
from reference_engine.layers import LayersMixin
from reference_engine.legality import Legality
from reference_engine.objects import (
    Decision,
    Effect,
    GameObject,
    Player,
    PlayPermission,
    StackItem,
)
from reference_engine.triggers import TriggersMixin
from spec.cardpool import CardData

PERMANENT_TYPES = frozenset(("Artifact", "Creature", "Enchantment", "Land", "Planeswalker"))
_BASIC_ONLY = frozenset(("Basic",))
#: loop detection starts after this many resolutions with only passes in between, and
#: declares a draw when one game state has come back this many times, each time round changing
#: the life and poison totals by the same amounts and bringing no player nearer a loss (102.6)
LOOP_WATCH = 12
LOOP_REPEATS = 3


class _GameOver(Exception):
    """Unwinds the game coroutine once the game has ended (2004 rule 102.3)."""


class Result:
    __slots__ = ("draw", "losers", "over", "reason", "winners")

    def __init__(self) -> None:
        self.over = False
        self.winners: list[str] = []
        self.losers: list[str] = []
        self.draw = False
        self.reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"over": self.over, "winners": list(self.winners), "losers": list(self.losers),
                "draw": self.draw, "reason": self.reason}


def _color_of(production: mana.Production) -> str:
    return ("W", "U", "B", "R", "G", "C")[production.index(1)]


class Shield:
    """A prevention shield: the next damage ``source`` would deal to ``player`` this turn."""

    __slots__ = ("player", "source")

    def __init__(self, player: str, source: int) -> None:
        self.player = player
        self.source = source


class Game(Legality, LayersMixin, TriggersMixin, CombatMixin):
    """One two-player game of one edition. Build it with :mod:`reference_engine.setup`."""

    edition: ClassVar[str] = ""
    #: the zones this edition has, beyond library, hand, graveyard, battlefield, stack, exile
    extra_zones: ClassVar[tuple[str, ...]] = ()
    #: unused mana empties at the end of each step (modern) or only of each phase (2004)
    pool_empties_each_step: ClassVar[bool] = True
    #: unused mana lost at the end of a phase costs 1 life each (2004 rule 300.3)
    mana_burn: ClassVar[bool] = False
    #: combat damage is put on the stack and players get priority before it is dealt (217.6e)
    combat_damage_uses_stack: ClassVar[bool] = False
    #: "creature or player" targets include planeswalkers (modern "any target")
    planeswalkers: ClassVar[bool] = False
    #: "Legend" is a creature type subject to the legend rule (2004 rule 215.1)
    legend_creature_type: ClassVar[bool] = False
    #: +1/+1 and -1/-1 counters on a permanent cancel out (modern 704.5q)
    counters_annihilate: ClassVar[bool] = False
    #: prevention applied to a permanent spell's damage applies to the permanent (400.7c)
    shields_follow_spells: ClassVar[bool] = False
    #: a land or token without a printed cost has mana cost {0} (2004 rule 203.1)
    lands_and_tokens_cost_zero: ClassVar[bool] = False
    #: cards put into a graveyard at once by a rule (state-based actions), not only by an
    #: effect, are ordered by their owner (modern 404.3 "効果やルール"; 2004 217.4c says
    #: "an effect" only, so there the game puts them in one after another)
    owners_order_rule_deaths: ClassVar[bool] = False
    #: a library's revealed top card that becomes hidden (covered, or shuffled) is a new
    #: object when revealed again (modern 401.6; the 2004 seed has no such rule)
    hidden_top_card_is_new: ClassVar[bool] = False

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.players = {name: Player(name) for name in PLAYERS}
        self.objects: dict[int, GameObject] = {}
        self.battlefield: list[GameObject] = []
        self.stack: list[StackItem] = []
        self.exile: list[GameObject] = []
        self.zones_extra: dict[str, list[GameObject]] = {z: [] for z in self.extra_zones}
        self.effects: list[Effect] = []
        self.delayed: list[Any] = []
        self.triggered: list[Any] = []
        self.shields: list[Shield] = []
        #: cards that may be played from outside the hand, by object id (PlayPermission)
        self.permissions: dict[int, PlayPermission] = {}
        self.extra_turns: list[str] = []  # the last one is taken next (300.6)
        self.turn = 1
        self.active = "A"
        self.normal_next = "B"
        self.first_player = "A"
        self.step = UPKEEP
        self.priority: str | None = None
        self.result = Result()
        self.decision: Decision | None = None
        self.block_order: dict[int, tuple[int, ...]] = {}
        self.playing_for_ante = False
        self.version = 0
        self._next_id = 1
        self._timestamp = 0
        self._trigger_key = 0
        self._events: list[ev.Event] = []
        self._entry_choices: list[GameObject] = []
        #: what an Aura entering without being cast could enchant as it entered
        self._entry_candidates: dict[int, list[int | str]] = {}
        self._flow: Generator[Decision, Action, None] | None = None
        self._effects_cache: list[Any] = []
        #: what each effect of the cache outside layer 2 applies by, with its source
        self._effects_open: list[tuple[Any, Any]] = []
        self._effects_version = -1
        self._effects_reads = 0
        self._effects_applied = 0
        self._control_effects: list[Any] = []
        self._control_version = -1
        #: per player, at ``_tables_version``: the activated abilities of their permanents,
        #: and the subset that are mana abilities costing only {T} (see _ability_table)
        self._ability_tables: dict[str, list[tuple[GameObject, int, AbilitySpec, bool]]] = {}
        self._mana_tables: dict[str, list[tuple[GameObject, list[tuple[int, AbilitySpec]]]]] = {}
        self._tables_version = -1
        self._sba_cache: list[GameObject] = []
        self._sba_version = -1
        self._trigger_cache: list[GameObject] = []
        self._trigger_version = -1
        self._player_rules: dict[str, tuple[tuple[int, int], dict[str, Any]]] = {}
        self._control_changed = False
        self._mana_wanted = False
        self.attackers_declared = False  # in this turn's declare attackers step
        self._optional_choice = False  # a decision with several options answered lately
        #: inside ``together()``: the event's timestamp, then the objects that entered
        self._arrivals: list[Any] | None = None
        #: inside ``moving_together()``: whether a card or token that would be put into a
        #: graveyard is exiled instead, decided once as the event began (modern 614.1a)
        self._graveyards_exiled: bool | None = None
        self._tokens_outside = False
        self._computing: set[int] = set()
        self._priority_decision = {name: Decision(PRIORITY, name) for name in PLAYERS}
        self._pass_action = {name: Action("pass", name) for name in PLAYERS}
        self._concede_actions = [Action("concede", name) for name in PLAYERS]

    # -- public API ---------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply a legal action without checking it.

        .. warning:: only for actions taken from :meth:`legal_actions`; anything else may
           corrupt the game. Use :meth:`perform` for untrusted input.
        """
        if action.kind == "concede":
            self._concede(action.player)
            return
        assert self._flow is not None
        answered = self.decision
        if answered is not None and answered.kind != PRIORITY and len(answered.options or ()) > 1:
            self._optional_choice = True  # a loop through this choice is not mandatory
        self.decision = None
        try:
            self.decision = self._flow.send(action)
        except StopIteration:
            self.decision = None

    def start(self, *, begin_game: bool) -> None:
        """Run the game until the first decision. ``begin_game``: the start-of-game procedure
        (draw seven, mulligans) instead of a given state's current step."""
        self._flow = self._run(begin_game)
        try:
            self.decision = next(self._flow)
        except StopIteration:
            self.decision = None

    def peek_events(self) -> list[ev.Event]:
        """The events not yet taken, left in place."""
        return list(self._events)

    def take_events(self) -> list[ev.Event]:
        events, self._events = self._events, []
        return events

    # -- objects ------------------------------------------------------------------------------

    def new_object(self, card: CardData, impl: CardImpl, owner: str, zone: int) -> GameObject:
        obj = GameObject(self._next_id, card, impl, owner, zone, self.next_timestamp())
        self._next_id += 1
        self.objects[obj.id] = obj
        return obj

    def next_timestamp(self) -> int:
        """A new timestamp, later than every one given before."""
        self._timestamp += 1
        return self._timestamp

    def changed(self) -> None:
        """Characteristics may have changed: invalidate every cached computation."""
        self.version += 1

    def live(self) -> list[GameObject]:
        """Permanents on the battlefield that exist for the rules (not phased out)."""
        return [o for o in self.battlefield if not o.phased_out]

    def is_sick(self, obj: GameObject) -> bool:
        """Not under its controller's control continuously since their most recent turn began
        (2004 rule 212.3d)."""
        return obj.controlled_since >= self.players[obj.controller].last_turn

    def tap(self, obj: GameObject) -> None:
        if not obj.tapped:
            obj.tapped = True
            self.fire("tapped", obj)

    # -- zone changes -------------------------------------------------------------------------

    def zone_list(self, obj: GameObject) -> list[GameObject] | None:
        zone = obj.zone
        if zone == BATTLEFIELD:
            return self.battlefield
        if zone == HAND:
            return self.players[obj.owner].hand
        if zone == LIBRARY:
            return self.players[obj.owner].library
        if zone == GRAVEYARD:
            return self.players[obj.owner].graveyard
        if zone == EXILE:
            return self.exile
        if zone == STACK:
            return None
        if zone == OUTSIDE:
            return self.players[obj.owner].sideboard
        return self.zones_extra.get(ZONE_NAMES[zone])

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
                        shield.source = new.id
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
        self.changed()
        self._events.append(ev.ZoneChange(obj.id, new.id, obj.card.name, ZONE_NAMES[obj.zone],
                                          ZONE_NAMES[to], obj.owner, cause))
        if obj.zone == BATTLEFIELD:
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
                while mine:
                    if ordered and len({o.card.name for o in mine}) > 1:
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

    # -- game actions used by effects ---------------------------------------------------------

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
        source_id = source.id if source is not None else None
        if isinstance(target, str):
            for shield in self.shields:
                if shield.player == target and shield.source == source_id:
                    self.shields.remove(shield)
                    self._events.append(ev.Prevent(source_id, target, amount))
                    return
            self._events.append(ev.Damage(source_id, target, amount, combat))
            if source is not None and self._has_infect(source):
                self.players[target].poison += amount
                self._events.append(ev.Poison(target, amount))
            else:
                self.lose_life(target, amount, "damage")
            return
        obj = self.objects.get(target)
        if obj is None or obj.zone != BATTLEFIELD or obj.phased_out:
            return
        self._events.append(ev.Damage(source_id, target, amount, combat))
        chars = self.chars(obj)
        if "Planeswalker" in chars.types and "Creature" not in chars.types:
            self.remove_counters(obj, "loyalty", amount)
        elif source is not None and self._has_infect(source):
            self.add_counters(obj, "-1/-1", amount)
        else:
            obj.damage += amount

    def _has_infect(self, source: GameObject) -> bool:
        chars = source._chars if source.id not in self.objects else self.chars(source)
        return chars is not None and "infect" in chars.keywords

    def lose_life(self, name: str, amount: int, cause: str) -> None:
        self.players[name].life -= amount
        self._events.append(ev.Life(name, -amount, cause))

    def gain_life(self, name: str, amount: int) -> None:
        self.players[name].life += amount
        self._events.append(ev.Life(name, amount, "gain"))

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

    def sacrifice(self, obj: GameObject) -> None:
        if obj.zone == BATTLEFIELD:
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

        self.add_effect(Effect(7.3, self.next_timestamp(), None, modify, "turn", target=target))

    def add_mana(self, name: str, produces: tuple[str, ...]) -> None:
        pool = self.players[name].pool
        for symbol in produces:
            pool[mana.SLOT[symbol]] += 1
        self._events.append(ev.Mana(name, produces))

    def discard(self, name: str, count: int) -> Iterator[Decision]:
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
            self.move(self.objects[action.card], GRAVEYARD, cause="discard")

    def choose(self, name: str, kind: str, values: list[Any], data: dict | None = None
               ) -> Generator[Decision, Action, Any]:
        """Ask a player to choose one of ``values`` (a decision of ``kind``)."""
        if len(values) == 1:
            return values[0]
        options = [Action("choose", name, choice=v) for v in values]
        action = yield Decision(kind, name, options, data=data)
        return action.choice

    def choose_color(self, name: str) -> Generator[Decision, Action, str]:
        """Choose one of the five colours; "multicoloured" is not a colour (203.2d)."""
        color = yield from self.choose(name, "choose_color", list(COLORS))
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

    def _token_owner(self, creator: str, receiver: str) -> str:
        return receiver

    def aura_candidates(self, aura: GameObject, controller: str) -> list[int | str]:
        spec = aura.impl.enchant
        if spec is None:
            return []
        return [t for t in self.target_candidates(spec, controller)
                if t != aura.id]

    def attach(self, obj: GameObject, target: int | str) -> None:
        obj.attached_to = target
        obj.timestamp = self.next_timestamp()  # an attachment gets a new timestamp
        self.changed()
        self._events.append(ev.Attach(obj.id, target))

    # -- more game actions for card effects --------------------------------------------------

    def find_moved(self, event: dict[str, Any]) -> GameObject | None:
        """For an ability that triggered on a zone change: the object in its new zone, if the
        ability may find it there (2004 217.1c: any zone; modern 400.7e: a public zone)."""
        new = event.get("subject")
        if new is None or new.id not in self.objects:
            return None
        return new if self._may_find_in(new.zone) else None

    def _may_find_in(self, zone: int) -> bool:
        return True

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
        self.add_effect(Effect(layer, self.next_timestamp(), None, modify, duration, target=target))

    def extra_turns_for(self, name: str, count: int) -> None:
        for _ in range(count):
            self.extra_turns.append(name)
        self._events.append(ev.ExtraTurns(name, count))

    def shield_from(self, player: str, source: int) -> None:
        self.shields.append(Shield(player, source))
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

    def cards_outside_the_game(self, name: str) -> list[GameObject]:
        """Cards this player owns that are outside the game and may be brought in (the
        sideboard; 2004 adds the removed-from-the-game zone, 217.1e; modern exile is in the
        game, 400.11). Not playing for ante, no ante card comes in (modern 407.3; the 2004
        seed is silent, and the modern rule is followed)."""
        return [o for o in self.players[name].sideboard
                if self.playing_for_ante or not o.impl.ante_card]

    # -- targets ------------------------------------------------------------------------------

    def target_candidates(self, spec: TargetSpec, controller: str) -> list[int | str]:
        """The legal targets for ``spec`` chosen by ``controller``: what a target of its kind
        could be, filtered by :meth:`target_legal`, the one check of a target."""
        legal = self.target_legal
        return [t for t in self._target_universe(spec.kind) if legal(spec, controller, t)]

    def _target_universe(self, kind: str) -> list[int | str]:
        """Every player, spell and object a target of ``kind`` could name (a superset of the
        legal ones), in the order the legal actions list them."""
        found: list[int | str]
        if kind == "player":
            return list(PLAYERS)
        if kind in ("spell", "spell_or_permanent"):
            found = [item.id for item in self.stack if item.kind == "spell"]
            if kind == "spell":
                return found
        elif kind == "card_in_graveyard":
            return [o.id for name in PLAYERS for o in self.players[name].graveyard]
        elif kind == "card_in_exile":
            return [o.id for o in self.exile]
        else:
            found = []
        found += [o.id for o in self.battlefield if not o.phased_out]
        if kind == "creature_or_player":
            found.extend(PLAYERS)
        return found

    def _target_value(self, target: int | str) -> Any:
        if isinstance(target, str):
            return target
        obj = self.objects.get(target)
        if obj is None or obj.zone == STACK:
            item = self.stack_item(target)
            if item is not None:
                return item
        return obj

    def target_legal(self, spec: TargetSpec, controller: str, target: int | str) -> bool:
        if isinstance(target, str):
            return spec.kind in ("player", "creature_or_player") and (
                spec.allows is None or spec.allows(self, controller, target))
        kind = spec.kind
        value = self._target_value(target)
        if value is None or kind == "player":
            return False
        if kind == "spell_or_permanent":
            kind = "spell" if isinstance(value, StackItem) else "permanent"
        if kind == "spell":
            if not isinstance(value, StackItem) or value.kind != "spell":
                return False
        elif kind == "card_in_graveyard":
            if not isinstance(value, GameObject) or value.zone != GRAVEYARD:
                return False
        elif kind == "card_in_exile":
            if not isinstance(value, GameObject) or value.zone != EXILE:
                return False
        else:
            if not isinstance(value, GameObject) or value.zone != BATTLEFIELD or (
                    value.phased_out):
                return False
            types = self.chars(value).types
            if kind == "land" and "Land" not in types:
                return False
            if kind == "creature" and "Creature" not in types:
                return False
            if kind == "creature_or_player" and not (
                    "Creature" in types or (self.planeswalkers and "Planeswalker" in types)):
                return False
        return spec.allows is None or spec.allows(self, controller, value)

    def target_specs(self, item: StackItem) -> tuple[TargetSpec, ...]:
        if item.kind == "spell":
            assert item.obj is not None
            impl = item.obj.impl
            if impl.enchant is not None:
                return (impl.enchant,)
            spell = impl.spell
            if spell is None:
                return ()
            if spell.max_targets:
                return (spell.targets[0],) * len(item.targets)
            return spell.targets
        return item.ability.targets if item.ability is not None else ()

    def legal_targets_of(self, item: StackItem) -> list[int | str]:
        """The item's targets that are still legal (illegal ones are left alone)."""
        specs = self.target_specs(item)
        return [t for spec, t in zip(specs, item.targets, strict=False)
                if self.target_legal(spec, item.controller, t)]

    # -- the game coroutine -------------------------------------------------------------------

    def _run(self, begin_game: bool) -> Generator[Decision, Action, None]:
        try:
            if begin_game:
                yield from self._start_of_game()
                step, turn_based = UNTAP, True
                self._begin_turn(self.first_player, first=True)
            else:
                step, turn_based = self.step, False
            while True:
                yield from self._run_step(step, turn_based)
                turn_based = True
                step = self._next_step(step)
        except _GameOver:
            self.priority = None
            return

    def _start_of_game(self) -> Generator[Decision, Action, None]:
        for name in self._turn_order():
            self.draw(name, 7)
        yield from self._mulligans()

    def _turn_order(self) -> tuple[str, str]:
        return self.first_player, other(self.first_player)

    def apnap_order(self) -> tuple[str, str]:
        """The players in turn order from the active player (APNAP order)."""
        return self.active, other(self.active)

    def _mulligans(self) -> Generator[Decision, Action, None]:
        raise NotImplementedError  # edition hook

    def _hand_into_library(self, name: str) -> None:
        player = self.players[name]
        for obj in list(player.hand):
            self.move(obj, LIBRARY, cause="mulligan")
        self.shuffle(name)

    def _begin_turn(self, active: str, *, first: bool = False, extra: bool = False) -> None:
        if not first:
            self.turn += 1
        self.active = active
        if not extra:
            self.normal_next = other(active)
        self.players[active].last_turn = self.turn
        for player in self.players.values():
            player.lands_played = 0
        self._events.append(ev.Turn(self.turn, active))

    def _next_step(self, step: int) -> int:
        nxt = step + 1
        if step == UPKEEP and self.turn == 1:
            nxt = MAIN1  # the player who goes first skips their first draw step (101.5)
        elif step == DECLARE_ATTACKERS and not (self.attackers_declared or any(
                o.attacking for o in self.battlefield)):
            # No creature was declared as an attacker: no blockers or combat damage steps. An
            # attacker removed from combat later does not skip them (modern 508.8, outside the
            # seeds; the 2004 seed is silent, and the modern rule is followed).
            nxt = END_COMBAT
        ends_phase = nxt > CLEANUP or PHASE_OF_STEP[nxt] != PHASE_OF_STEP[step]
        self._end_step(step, ends_phase)
        if nxt > CLEANUP:
            if self.extra_turns:
                self._begin_turn(self.extra_turns.pop(), extra=True)
            else:
                self._begin_turn(self.normal_next)
            return UNTAP
        return nxt

    def _end_step(self, step: int, ends_phase: bool) -> None:
        if self.pool_empties_each_step or ends_phase:
            self._empty_pools(burn=self.mana_burn and ends_phase)
        if ends_phase and PHASE_OF_STEP[step] == COMBAT:
            self._end_combat()

    def _empty_pools(self, *, burn: bool) -> None:
        for name in self.apnap_order():
            player = self.players[name]
            unused = sum(player.pool)
            if unused:
                player.pool = [0, 0, 0, 0, 0, 0]
                if burn:
                    # Mana burn is life loss, not damage (2004 rule 300.3).
                    self.lose_life(name, unused, "mana_burn")

    def _expire(self, duration: str) -> None:
        kept = [e for e in self.effects if e.duration != duration]
        if len(kept) != len(self.effects):
            self.effects = kept
            self.changed()

    def _run_step(self, step: int, turn_based: bool) -> Generator[Decision, Action, None]:
        self.step = step
        self._events.append(ev.Step(self.turn, step))
        if step == CLEANUP:
            yield from self._cleanup()
            return
        if turn_based:
            yield from self._turn_based_actions(step)
        if step == UNTAP:
            return
        self.fire("step", None, step=step)
        yield from self._priority_round()

    def _turn_based_actions(self, step: int) -> Generator[Decision, Action, None]:
        if step == UNTAP:
            self._phase_in_and_out()
            for obj in self.battlefield:
                if obj.controller == self.active and not obj.phased_out:
                    obj.tapped = False
        elif step == DRAW:
            self.draw(self.active, 1)
        elif step == DECLARE_ATTACKERS:
            yield from self._declare_attackers()
            self.attackers_declared = any(o.attacking for o in self.battlefield)
        elif step == DECLARE_BLOCKERS:
            yield from self._declare_blockers()
        elif step == COMBAT_DAMAGE:
            yield from self._combat_damage()

    def _phase_in_and_out(self) -> None:
        """Hook: phasing happens as the untap step begins (edition-specific)."""

    def _cleanup(self) -> Generator[Decision, Action, None]:
        while True:
            maximum = self.player_rules(self.active)["max_hand_size"]
            hand = self.players[self.active].hand
            if maximum is not None and len(hand) > maximum:
                yield from self.discard(self.active, len(hand) - maximum)
            for obj in self.battlefield:
                obj.damage = 0
                obj.regen_shields = 0
            self.shields.clear()
            self._expire("turn")
            if self.permissions:
                self.permissions = {k: v for k, v in self.permissions.items()
                                    if not v.until_end_of_turn and k in self.objects}
            acted = False
            while (yield from self._state_based_actions()):
                acted = True
            if not (acted or self.triggered):
                return
            # State-based actions were performed or abilities triggered: players get priority,
            # then a new cleanup step (2004 314.3; modern 514.3a, outside the seeds).
            yield from self._priority_round()

    # -- priority, state-based actions and the stack -----------------------------------------------

    def _priority_round(self) -> Generator[Decision, Action, None]:
        """Players act until both pass in succession with an empty stack (217.6d, 300.2)."""
        player = self.active
        passes = 0
        resolutions = 0  # resolved in a row with nothing but passes in between
        seen: dict[tuple[Any, ...], list[tuple[int, ...]]] = {}
        while True:
            yield from self._settle()
            if resolutions >= LOOP_WATCH and self.stack and passes == 0:
                # Once per resolution: as the active player receives priority after it.
                self._check_loop(seen)
            self.priority = player
            action = yield self._priority_decision[player]
            self.priority = None
            if action.kind == "pass":
                passes += 1
                if passes == 1:
                    player = other(player)
                    continue
                passes = 0
                if not self.stack:
                    return
                yield from self._resolve_top()
                resolutions += 1
                player = self.active
            else:
                passes = 0
                resolutions = 0
                seen.clear()
                yield from self._take_action(action)

    def _check_loop(self, seen: dict[tuple[Any, ...], list[tuple[int, ...]]]) -> None:
        """A loop of mandatory actions is a draw (2004 102.6; modern 104.4b): the same game
        state keeps coming back while the players only pass and the stack keeps resolving.

        "The same" leaves out the players' life and poison totals when they change by the same
        amounts each time round: a loop in which Soul Warden gains a life per Worldgorger
        Dragon repeats a sequence of events with no way to stop, so it is a draw. One that
        brings a player nearer a loss (life falling, poison rising) does stop, when that player
        loses, and goes on to that end.

        A loop in which a player made a choice that had other options (Animate Dead with a
        second creature card to return) contains an optional action and is no draw: the game
        goes on for as long as that player keeps choosing the same way, and stops as soon as
        they choose otherwise (or concede)."""
        if self._optional_choice:
            self._optional_choice = False
            seen.clear()
            return
        state, totals = self.fingerprint()
        history = seen.setdefault(state, [])
        history.append(totals)
        if len(history) < 2:
            return
        changes = [tuple(b - a for a, b in zip(before, after, strict=True))
                   for before, after in itertools.pairwise(history)]
        last = changes[-1]
        # totals are (life, poison) per player: a fall in life or a rise in poison ends it.
        if any(change < 0 for change in last[0::2]) or any(change > 0 for change in last[1::2]):
            del history[:-1]
            return
        if len(changes) >= LOOP_REPEATS - 1 and all(
                change == last for change in changes[-(LOOP_REPEATS - 1):]):
            self._draw_game("loop")

    def fingerprint(self) -> tuple[tuple[Any, ...], tuple[int, ...]]:
        """The game state up to object identity (a zone change makes new ids), without the
        players' life and poison totals, and those totals apart."""
        chars = self.chars
        players = tuple(
            (tuple(p.pool), len(p.library), len(p.hand), tuple(o.card.name for o in p.graveyard))
            for p in self.players.values())
        totals = tuple(n for p in self.players.values() for n in (p.life, p.poison))
        def attached(obj: Any) -> Any:
            # What it is attached to, by name and zone: an Animate Dead attached to a card in a
            # graveyard is the same each time round, though the card has a new id.
            host = self.objects.get(obj.attached_to) if obj.attached_to is not None else None
            return (host.card.name, host.zone) if host is not None else obj.attached_to

        battlefield = tuple(sorted(
            (o.card.name, o.controller, o.tapped, o.damage, tuple(sorted(o.counters.items())),
             attached(o), chars(o).power)
            for o in self.battlefield))
        stack = tuple((s.kind, s.source_card, s.controller) for s in self.stack)
        exile = tuple(sorted(o.card.name for o in self.exile))
        return (self.turn, self.step, players, battlefield, stack, exile), totals

    def _settle(self) -> Generator[Decision, Action, None]:
        """Before a player receives priority: choices made as permanents entered, then
        state-based actions until none apply, then triggered abilities onto the stack."""
        while True:
            self.refresh_control()
            if self._entry_choices:
                yield from self._make_entry_choices()
                continue
            if (yield from self._state_based_actions()):
                continue
            if self.triggered:
                yield from self._put_triggers_on_stack()
                continue
            return

    def _make_entry_choices(self) -> Generator[Decision, Action, None]:
        while self._entry_choices:
            obj = self._entry_choices.pop(0)
            if obj.id not in self.objects or obj.zone != BATTLEFIELD:
                continue
            if obj.impl.enchant is not None and obj.attached_to is None:
                candidates = self.aura_candidates(obj, obj.controller)
                entered = self._entry_candidates.pop(obj.id, None)
                if entered is not None:
                    # The choice is made as it entered: among what was there then (and, of
                    # what was in a zone it left in the same event, nothing).
                    candidates = [c for c in candidates if c in entered]
                if candidates:
                    target = yield from self.choose(obj.controller, "choose_attachment",
                                                    candidates, {"object": obj.id})
                    self.attach(obj, target)
            if obj.impl.choose_on_entry == "creature_type":
                options = sorted(self.creature_types())
                chosen = yield from self.choose(obj.controller, "choose_creature_type",
                                                options, {"object": obj.id})
                obj.chosen["creature_type"] = chosen
                self.changed()

    def creature_types(self) -> set[str]:
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

    def _state_based_actions(self) -> Generator[Decision, Action, bool]:
        """Perform every state-based action that applies, simultaneously; True if any did."""
        losers = [name for name, p in self.players.items()
                  if p.life <= 0 or p.drew_from_empty or p.poison >= 10]
        chars = self.chars
        to_graveyard: list[GameObject] = []
        destroyed: list[GameObject] = []
        unattach: list[GameObject] = []
        legendary: list[GameObject] = []
        worlds: list[GameObject] = []
        legend_subtype = self.legend_creature_type
        annihilate = self.counters_annihilate
        counters: list[GameObject] = []
        version = self.version
        for obj in self._sba_candidates():
            if obj.phased_out:
                continue
            c = obj._chars if obj._chars_version == version else chars(obj)
            if c.supertypes or legend_subtype:
                if "Legendary" in c.supertypes or (legend_subtype and "Legend" in c.subtypes):
                    legendary.append(obj)
                if "World" in c.supertypes or "Enchant World" in c.subtypes:
                    worlds.append(obj)
            elif "Enchant World" in c.subtypes:
                worlds.append(obj)
            if annihilate and obj.counters and "+1/+1" in obj.counters and (
                    "-1/-1" in obj.counters):
                counters.append(obj)
            if c.toughness is not None:
                if c.toughness <= 0:
                    to_graveyard.append(obj)  # put into the graveyard, not destroyed
                    continue
                if obj.damage >= c.toughness and "indestructible" not in c.keywords:
                    destroyed.append(obj)
                    continue
            if "Planeswalker" in c.types and obj.counters.get("loyalty", 0) <= 0:
                to_graveyard.append(obj)
            elif obj.impl.enchant is not None and not self._aura_legal(obj):
                to_graveyard.append(obj)  # 212.4f, 212.4g
            elif obj.attached_to is not None and "Equipment" in c.subtypes and (
                    not self._equipment_legal(obj)):
                unattach.append(obj)  # it stays in play (212.2i)
        if len(legendary) > 1 or len(worlds) > 1:
            to_graveyard.extend((yield from self._rule_victims(legendary, worlds)))
        ceasing = self._tokens_ceasing() if self._tokens_outside else []
        if not (losers or to_graveyard or destroyed or unattach or ceasing or counters):
            return False
        for obj in unattach:
            obj.attached_to = None
            self.changed()
            self._events.append(ev.Unattach(obj.id))
        for obj in counters:
            both = min(obj.counters.get("+1/+1", 0), obj.counters.get("-1/-1", 0))
            self.remove_counters(obj, "+1/+1", both)
            self.remove_counters(obj, "-1/-1", both)
        if losers:
            # "If you would lose the game, instead ..." (a replacement, 217.1d, 400.6); where
            # it and another state-based action move the same object, its controller chooses.
            losers = yield from self._replace_losses(losers, destroyed, to_graveyard)
        # The state-based actions are performed at once, one event (modern 704.3): what
        # replaces a move to a graveyard is decided once, as it begins (modern 614.1a).
        with self.moving_together():
            if self.owners_order_rule_deaths:
                # Destroyed and put into graveyards at once: each owner orders their own
                # (404.3).
                dying = [o for o in destroyed if o.zone == BATTLEFIELD and not self.has(
                    o, "indestructible") and not self._regenerated(o)]
                causes = {o.id: "destroy" for o in dying}
                dying += [o for o in to_graveyard if o.id in self.objects and o not in dying]
                if dying:
                    yield from self.put_into_graveyards(dying, "state_based", causes)
            else:
                for obj in destroyed:
                    self.destroy(obj.id)
                dying = [o for o in to_graveyard if o.id in self.objects]
                if dying:
                    yield from self.put_into_graveyards(dying, "state_based", ordered=False)
        for obj in ceasing:
            self._cease_to_exist(obj)
        if losers:
            reasons = []
            for name in losers:
                player = self.players[name]
                reasons.append("life" if player.life <= 0 else
                               "empty_library" if player.drew_from_empty else "poison")
            self._end_game(losers, reasons[0] if len(set(reasons)) == 1 else "simultaneous")
        return True

    def _sba_candidates(self) -> list[GameObject]:
        """The permanents a state-based action could apply to: all but those that have no
        toughness, are neither legendary nor world permanents, planeswalkers, Auras or
        Equipment and have no counters to annihilate (most lands). What decides that changes
        only with the state version; damage and loyalty, which change without one, are read
        from the candidates each time."""
        if self._sba_version == self.version:
            return self._sba_cache
        chars = self.chars
        legend_subtype = self.legend_creature_type
        annihilate = self.counters_annihilate
        found = []
        for obj in self.battlefield:
            if obj.phased_out:
                continue
            c = chars(obj)
            if (c.toughness is not None or not c.supertypes <= _BASIC_ONLY
                    or "Enchant World" in c.subtypes or (legend_subtype and "Legend" in c.subtypes)
                    or "Planeswalker" in c.types or obj.impl.enchant is not None
                    or "Equipment" in c.subtypes or (annihilate and obj.counters)):
                found.append(obj)
        self._sba_cache = found
        self._sba_version = self.version
        return found

    def _replace_losses(self, losers: list[str], destroyed: list[GameObject],
                        to_graveyard: list[GameObject]
                        ) -> Generator[Decision, Action, list[str]]:
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

    def _aura_legal(self, aura: GameObject) -> bool:
        target = aura.attached_to
        if target is None or target == aura.id:
            return False
        spec = self.enchant_spec(aura)
        if not isinstance(target, int):
            return spec.kind in ("player", "creature_or_player")
        enchanted = self.objects.get(target)
        if enchanted is None:
            return False
        if spec.kind != "card_in_graveyard":
            if enchanted.zone != BATTLEFIELD:
                return False
            if "Creature" in self.chars(aura).types and (
                    "Creature" in self.chars(enchanted).types):
                return False  # an Aura that is a creature can't enchant a creature (212.4g)
        return self.target_legal(spec, aura.controller, target)

    def enchant_spec(self, aura: GameObject) -> TargetSpec:
        """What an Aura may enchant: its enchant ability, unless an effect changed it."""
        spec = aura.chosen.get("enchant") or aura.impl.enchant
        assert spec is not None
        return spec

    def _equipment_legal(self, equipment: GameObject) -> bool:
        target = self.objects.get(equipment.attached_to) if isinstance(
            equipment.attached_to, int) else None
        if target is None or target.zone != BATTLEFIELD or target is equipment:
            return False
        if "Creature" in self.chars(equipment).types:
            return False  # an Equipment that is a creature can't equip (212.2i)
        return "Creature" in self.chars(target).types

    def _rule_victims(self, legendary: list[GameObject], worlds: list[GameObject]
                      ) -> Generator[Decision, Action, list[GameObject]]:
        """Hook: the legend rule and the world rule (edition-specific)."""
        return []
        yield

    def _tokens_ceasing(self) -> list[GameObject]:
        """A token anywhere but the battlefield ceases to exist (216.3)."""
        self._tokens_outside = False
        found = []
        for player in self.players.values():
            found.extend(o for o in player.hand if o.token)
            found.extend(o for o in player.graveyard if o.token)
            found.extend(o for o in player.library if o.token)
        found.extend(o for o in self.exile if o.token)
        return found

    def _cease_to_exist(self, obj: GameObject) -> None:
        zone = self.zone_list(obj)
        if zone is not None and obj in zone:
            zone.remove(obj)
        self.objects.pop(obj.id, None)
        self.changed()
        self._events.append(ev.CeaseToExist(obj.id, obj.card.name))

    def _end_game(self, losers: list[str], reason: str) -> None:
        result = self.result
        result.over = True
        result.losers = sorted(losers)
        result.winners = [n for n in PLAYERS if n not in losers]
        result.draw = len(losers) == len(PLAYERS)  # both lose at once: a draw (102.4)
        result.reason = reason
        self.priority = None
        self._game_over_effects()
        self._events.append(ev.GameOver(tuple(result.winners), tuple(result.losers),
                                        result.draw, reason))
        raise _GameOver

    def _game_over_effects(self) -> None:
        """When the game ends, the winner becomes the owner of every ante card (217.9b)."""
        ante = self.zones_extra.get("ante")
        if ante and len(self.result.winners) == 1:
            for obj in ante:
                obj.owner = self.result.winners[0]

    def _draw_game(self, reason: str) -> None:
        self._end_game(list(PLAYERS), reason)

    def _concede(self, name: str) -> None:
        with contextlib.suppress(_GameOver):
            self._end_game([name], "concede")
        self.decision = None
        if self._flow is not None:
            self._flow.close()

    def _take_action(self, action: Action) -> Generator[Decision, Action, None]:
        if action.pay_with is not None:
            # The mana abilities are activated as the cost is paid, inside the casting or
            # activation: what they trigger waits until it is done (2004 409.1f; modern 601.2g).
            plan = self._payment_plan(action)
            assert plan is not None, "an action its sources cannot pay reached the game"
            for source, index, production in plan:
                color = _color_of(production) if self._ability_spec(
                    Action("activate", action.player, card=source.id, ability=index)
                ).any_color else None
                yield from self._activate(Action("activate", action.player, card=source.id,
                                                 ability=index), color=color)
            action = action._replace(pay_with=None)
        kind = action.kind
        if kind == "play_land":
            obj = self.objects[action.card]
            self.players[action.player].lands_played += 1
            permission = self.permissions.get(obj.id)
            # "Each land played this way enters tapped": the effect that let the land be
            # played finds the permanent it becomes (modern 400.7i).
            self.move(obj, BATTLEFIELD, controller=action.player, cause="play_land",
                      tapped=permission is not None and permission.enters_tapped)
        elif kind == "cast":
            yield from self._cast(action)
        elif kind == "activate":
            yield from self._activate(action)

    def _pay(self, action: Action, cost: mana.Cost) -> None:
        player = self.players[action.player]
        x = action.x or 0
        if action.payment is not None:
            spend = mana.check_payment(player.pool, cost, x, dict(action.payment))
        else:
            spend = mana.default_payment(player.pool, cost, x)
            assert spend is not None
        pool = player.pool
        for slot in range(6):
            pool[slot] -= spend[slot]

    def _cast(self, action: Action) -> Generator[Decision, Action, None]:
        obj = self.objects[action.card]
        from_graveyard = obj.zone == GRAVEYARD
        self._pay(action, self.spell_cost(obj, len(action.targets), action.kicked))
        card = self.move(obj, STACK, cause="cast")
        assert card is not None
        card.controller = action.player
        item = StackItem(card.id, "spell", action.player, obj=card, targets=action.targets,
                         x=action.x)
        card.cast_info = {"x": action.x, "kicked": action.kicked,
                          "flashback": from_graveyard}
        card._chars_version = -1  # its mana value on the stack counts X now
        self.stack.append(item)
        self._events.append(ev.Cast(action.player, card.id, card.card.name))
        yield from ()

    def _activate(self, action: Action, *, color: str | None = None
                  ) -> Generator[Decision, Action, None]:
        obj = self.objects[action.card]
        spec = self.abilities(obj)[action.ability or 0]
        if spec.cost is not None:
            self._pay(action, spec.cost)
        if spec.tap:
            self.tap(obj)
        if spec.remove_counter is not None:
            self.remove_counters(obj, spec.remove_counter, 1)
        if spec.loyalty is not None:
            obj.loyalty_used = self.turn
            if spec.loyalty >= 0:
                self.add_counters(obj, "loyalty", spec.loyalty)
            else:
                self.remove_counters(obj, "loyalty", -spec.loyalty)
        source = obj
        if spec.unattach:
            equipment = self._granting_equipment(obj, spec)
            if equipment is not None:
                equipment.attached_to = None
                self.changed()
        if spec.discard_hand:
            for card in list(self.players[action.player].hand):
                self.move(card, GRAVEYARD, cause="discard")
        if spec.sacrifice:
            self.sacrifice(obj)
        if spec.produces is not None or spec.any_color:
            # A mana ability resolves at once, without the stack (405.6c).
            if spec.any_color:
                if color is None:
                    color = yield from self.choose_color(action.player)
                self.add_mana(action.player, (color,))
            else:
                self.add_mana(action.player, spec.produces or ())
            if spec.tap:
                self.fire("tapped_for_mana", obj)
            return
        item = StackItem(self._next_id, "ability", action.player, source=source, ability=spec,
                         targets=action.targets, x=action.x)
        self._next_id += 1
        self.stack.append(item)
        self._events.append(ev.Activate(action.player, source.id, spec.text))

    def _granting_equipment(self, creature: GameObject, spec: AbilitySpec
                            ) -> GameObject | None:
        """The Equipment that granted ``spec`` to ``creature``, if still attached to it."""
        equipment = self.objects.get(spec.granted_by) if spec.granted_by is not None else None
        if equipment is not None and equipment.attached_to == creature.id:
            return equipment
        return None

    def _resolve_top(self) -> Generator[Decision, Action, None]:
        item = self.stack[-1]
        if item.kind == "combat_damage":
            self.stack.pop()
            self._deal_combat_damage(item.assignments)
            return
        specs = self.target_specs(item)
        if item.targets and not any(
            self.target_legal(spec, item.controller, t)
            for spec, t in zip(specs, item.targets, strict=False)
        ):
            # Every target is illegal: countered on resolution.
            self.stack.remove(item)
            if item.obj is not None:
                self.move(item.obj, GRAVEYARD, cause="countered_on_resolution")
            self._events.append(ev.Fizzle(item.id))
            return
        if item.kind == "spell":
            obj = item.obj
            assert obj is not None
            if PERMANENT_TYPES.intersection(self.chars(obj).types):
                self.stack.remove(item)
                attach = item.targets[0] if obj.impl.enchant is not None else None
                self.move(obj, BATTLEFIELD, controller=item.controller, cause="resolve",
                          attach=attach)
                self._events.append(ev.Resolve(item.id))
                return
            spell = obj.impl.spell
            yield from self._run_effect(spell.effect if spell is not None else None, item)
            if obj.zone == STACK and obj.id in self.objects:
                self.move(obj, GRAVEYARD, cause="resolve")
        else:
            spec = item.ability
            if getattr(spec, "intervening", False) and item.source is not None and not (
                    spec.condition(self, item.source, item.data.get("event"))):
                # An intervening "if" that no longer holds: the ability does nothing (603.4).
                self.stack.remove(item)
                self._events.append(ev.Resolve(item.id))
                return
            if spec is not None and getattr(spec, "optional", False):
                yes = yield from self.choose(item.controller, "may", [True, False],
                                             {"card": item.source_card, "text": spec.text})
                if not yes:
                    self.stack.remove(item)
                    self._events.append(ev.Resolve(item.id))
                    return
            yield from self._run_effect(spec.effect if spec is not None else None, item)
        self._events.append(ev.Resolve(item.id))

    def _run_effect(self, effect: Any, item: StackItem) -> Generator[Decision, Action, None]:
        """Carry out a resolving item's effect (with any decisions it asks for), then take the
        item off the stack."""
        if effect is not None:
            outcome = effect(self, item)
            if outcome is not None:
                yield from outcome
        if item in self.stack:
            self.stack.remove(item)

    # -- helpers ------------------------------------------------------------------------------

    @property
    def step_name(self) -> str:
        return STEP_NAMES[self.step]

    def stack_item(self, sid: int) -> StackItem | None:
        for item in self.stack:
            if item.id == sid:
                return item
        return None


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
