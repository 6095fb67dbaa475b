"""The state of one game, and the hooks in which the editions differ.

:class:`GameState` holds everything a game is (players, zones, objects, the stack, effects,
whose turn and step it is, the events not yet taken) and nothing it does. The engine's other
layers build on it, each knowing only those below:

``state`` -> ``layers`` (characteristics) -> ``targets`` -> ``triggers`` -> ``board`` (what
happens to objects and players: the card API) -> ``legality`` and ``combat`` -> ``game`` (the
loop) -> ``editions``.

Its one section of edition hooks lists every difference between the editions: flags each
edition sets, and methods each defines (docs/reference-engine.md, "A third edition").
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Generator
from typing import Any, ClassVar

from reference_engine import events as ev
from reference_engine.actions import Action
from reference_engine.constants import (
    BATTLEFIELD,
    EXILE,
    GRAVEYARD,
    HAND,
    LIBRARY,
    OUTSIDE,
    PLAYERS,
    PRIORITY,
    STACK,
    STEP_NAMES,
    UPKEEP,
    ZONE_NAMES,
)
from reference_engine.objects import (
    AbilitySpec,
    CardAPI,
    CardImpl,
    Chars,
    ContinuousEffect,
    Decision,
    GameObject,
    Player,
    PlayPermission,
    StackItem,
    TriggerSpec,
)
from spec.cardpool import CardData


class GameOver(Exception):
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


class Shield:
    """A prevention shield: the next damage ``source`` would deal to ``player`` this turn, if
    the source still has the property it was chosen for (``matches``, asked of its
    characteristics as the damage would be dealt: modern 609.7b, 615.9); None: any. ``obj``
    is the object it was chosen as, which it refers to while it waits to apply (609.7a)."""

    __slots__ = ("matches", "obj", "player", "source")

    def __init__(self, player: str, source: int,
                 matches: Callable[[Chars], bool] | None = None) -> None:
        self.player = player
        self.source = source
        self.matches = matches
        self.obj: GameObject | None = None


#: the flags in which the editions differ, each set by every edition (see GameState)
EDITION_FLAGS = ("extra_zones", "pool_empties_each_step", "mana_burn", "combat_damage_uses_stack",
                 "planeswalkers", "legend_creature_type", "counters_annihilate",
                 "shields_follow_spells", "lands_and_tokens_cost_zero",
                 "owners_order_rule_deaths", "hidden_top_card_is_new", "walls_cant_attack")


class GameState(ABC):
    """The state of one two-player game of one edition, and its edition hooks."""

    # -- edition hooks -----------------------------------------------------------------------
    # Every difference between the editions, and nothing else: an edition (editions.py) sets
    # every flag and defines every abstract method; the two methods with a default extend it.

    #: the edition's key in spec.editions.EDITIONS ("" in the abstract layers)
    edition: ClassVar[str] = ""


    #: the zones this edition has, beyond library, hand, graveyard, battlefield, stack, exile
    extra_zones: ClassVar[tuple[str, ...]]
    #: unused mana empties at the end of each step (modern) or only of each phase (2004)
    pool_empties_each_step: ClassVar[bool]
    #: unused mana lost at the end of a phase costs 1 life each (2004 rule 300.3)
    mana_burn: ClassVar[bool]
    #: combat damage is put on the stack and players get priority before it is dealt (217.6e)
    combat_damage_uses_stack: ClassVar[bool]
    #: "creature or player" targets include planeswalkers (modern "any target")
    planeswalkers: ClassVar[bool]
    #: "Legend" is a creature type subject to the legend rule (2004 rule 215.1)
    legend_creature_type: ClassVar[bool]
    #: +1/+1 and -1/-1 counters on a permanent cancel out (modern 704.5q)
    counters_annihilate: ClassVar[bool]
    #: prevention applied to a permanent spell's damage applies to the permanent (400.7c)
    shields_follow_spells: ClassVar[bool]
    #: a land or token without a printed cost has mana cost {0} (2004 rule 203.1)
    lands_and_tokens_cost_zero: ClassVar[bool]
    #: cards put into a graveyard at once by a rule (state-based actions), not only by an
    #: effect, are ordered by their owner (modern 404.3 "効果やルール"; 2004 217.4c says
    #: "an effect" only, so there the game puts them in one after another)
    owners_order_rule_deaths: ClassVar[bool]
    #: a library's revealed top card that becomes hidden (covered, or shuffled) is a new
    #: object when revealed again (modern 401.6; the 2004 seed has no such rule)
    hidden_top_card_is_new: ClassVar[bool]
    #: a creature of the creature type Wall can't attack, by the rules (2004 308.2a; modern
    #: Walls have defender in their text instead, 702.3b)
    walls_cant_attack: ClassVar[bool]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # An edition (a class naming its edition) must decide every difference: a flag left
        # out is a definition error now, not a wrong game later.
        if "edition" in cls.__dict__:
            missing = [name for name in EDITION_FLAGS if not hasattr(cls, name)]
            if missing:
                raise TypeError(f"edition {cls.__name__} ({cls.edition}) does not set "
                                f"{', '.join(missing)}")

    @abstractmethod
    def _mulligans(self) -> Generator[Decision, Action, None]:
        """Hook: the players' opening-hand decisions (the 2004 "Paris" mulligan, 101.4; the
        modern "London" mulligan)."""

    @abstractmethod
    def _phase_in_and_out(self) -> None:
        """Hook: phasing, as the untap step begins."""

    @abstractmethod
    def phase_out(self, obj: GameObject) -> None:
        """Hook: ``obj`` phases out (2004: into the phased-out zone; modern: a status)."""

    @abstractmethod
    def _rule_victims(self, legendary: list[GameObject], worlds: list[GameObject]
                      ) -> Generator[Decision, Action, list[GameObject]]:
        """Hook: what the legend rule and the world rule put into graveyards."""

    @abstractmethod
    def _token_owner(self, creator: str, receiver: str) -> str:
        """Hook: who owns a token ``creator``'s effect puts onto the battlefield under
        ``receiver``'s control."""

    @abstractmethod
    def _may_find_in(self, zone: int) -> bool:
        """Hook: whether an effect may find a card it moved in ``zone``."""

    @abstractmethod
    def _cda_applies(self, obj: GameObject) -> bool:
        """Hook: whether ``obj``'s characteristic-defining abilities work where it is."""

    def _tokens_ceasing(self) -> list[GameObject]:
        """A token anywhere but the battlefield ceases to exist (216.3)."""
        self._tokens_outside = False
        found: list[GameObject] = []
        for player in self.players.values():
            found.extend(o for o in player.hand if o.token)
            found.extend(o for o in player.graveyard if o.token)
            found.extend(o for o in player.library if o.token)
        found.extend(o for o in self.exile if o.token)
        return found

    def cards_outside_the_game(self, name: str) -> list[GameObject]:
        """Cards this player owns that are outside the game and may be brought in (the
        sideboard; 2004 adds the removed-from-the-game zone, 217.1e; modern exile is in the
        game, 400.11). Not playing for ante, no ante card comes in (modern 407.3; the 2004
        seed is silent, and the modern rule is followed)."""
        return [o for o in self.players[name].sideboard
                if self.playing_for_ante or not o.impl.ante_card]

    # -- the state ------------------------------------------------------------------------

    #: this game as the cards see it: what the layers pass to a card's behaviour (set by
    #: :class:`~reference_engine.board.Board`, which completes the API)
    card_api: CardAPI

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.players = {name: Player(name) for name in PLAYERS}
        #: ``players.items()`` once for all (the players never change)
        self._player_items = tuple(self.players.items())
        self.objects: dict[int, GameObject] = {}
        self.battlefield: list[GameObject] = []
        self.stack: list[StackItem] = []
        self.exile: list[GameObject] = []
        self.zones_extra: dict[str, list[GameObject]] = {z: [] for z in self.extra_zones}
        self.effects: list[ContinuousEffect] = []
        self.delayed: list[Any] = []
        self.triggered: list[Any] = []
        self.shields: list[Shield] = []
        #: cards that may be played from outside the hand, by object id (PlayPermission)
        self.permissions: dict[int, PlayPermission] = {}
        #: the players who own a card with flashback: only their graveyards need looking
        #: through for one (every object is made by new_object; owners change only as the
        #: game ends, with ante)
        self.flashback_owners: set[str] = set()
        self.extra_turns: list[str] = []  # the last one is taken next (300.6)
        self.turn = 1
        self.active = "A"
        self.normal_next = "B"
        self.first_player = "A"
        self.step = UPKEEP
        self.priority: str | None = None
        self.result = Result()
        self.decision: Decision | None = None
        #: each blocked attacker's blockers, in the order they were declared
        self.block_order: dict[int, tuple[int, ...]] = {}
        #: in a first combat damage step: the creatures in combat that had first strike or
        #: double strike as it began (a second combat damage step follows); else None
        self.first_strikers: frozenset[int] | None = None
        #: the creatures dealt damage by a source with deathtouch since state-based actions
        #: were last checked (modern 704.5h)
        self._deathtouched: set[int] = set()
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
        #: by object id, the other effects of the cache outside layer 2, each of which may
        #: apply to that object only, in order
        self._effects_one: dict[Any, tuple[Any, ...]] = {}
        self._effects_version = -1
        self._effects_reads = 0
        self._control_effects: list[Any] = []
        self._control_version = -1
        #: per player, at ``_tables_version``: the activated abilities of their permanents,
        #: and the subset that are mana abilities costing only {T} (see _ability_table)
        self._ability_tables: dict[str, list[tuple[GameObject, int, AbilitySpec, bool]]] = {}
        self._mana_tables: dict[str, list[tuple[GameObject, Any]]] = {}
        self._tables_version = -1
        #: per player, for a state version, turn, step and timing: each untapped mana
        #: source's options and whether each of its abilities may be activated (mana_sources)
        self._mana_memo: dict[str, tuple[tuple[Any, ...], dict[int, Any]]] = {}
        #: at ``_sba_version``, in battlefield order: the permanents a state-based action may
        #: apply to, by kind (see Game._sba_candidates)
        self._sba_checks: list[tuple[GameObject, Chars, bool]] = []
        self._sba_legendary: list[GameObject] = []
        self._sba_worlds: list[GameObject] = []
        self._sba_counted: list[GameObject] = []
        self._sba_version = -1
        #: the state version at which every permanent's state-based actions were checked and
        #: none applied, with no damage dealt since (Board.deal_damage clears it); then only
        #: ``_sba_live``, the Auras whose legality may change without a new version, are
        #: checked again (Game._sba_found)
        self._sba_quiet = -1
        self._sba_live: list[tuple[GameObject, Chars, bool]] = []
        #: the version, when quiet with no ``_sba_live`` Aura and at most one legendary and
        #: one world permanent: only the players and the tokens outside the battlefield can
        #: make a state-based action apply (damage clears it with ``_sba_quiet``)
        self._sba_idle = -1
        #: at ``_trigger_version``, by event kind: the triggered abilities of permanents that
        #: may trigger on it, with their sources, in the order they trigger (Triggers.fire)
        self._trigger_index: dict[str, list[tuple[GameObject, TriggerSpec]]] = {}
        self._trigger_version = -1
        #: per player: the version and turn of their rules, and the rules
        self._player_rules: dict[str, tuple[int, int, dict[str, Any]]] = {}
        #: at ``_rule_sources_version``: the player rules of the permanents, with their sources
        self._rule_sources: list[tuple[GameObject, Any]] = []
        self._rule_sources_version = -1
        self._control_changed = False
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
        #: the activations without targets or X listed so far, by player, object and ability
        self._activations: dict[tuple[str, int, int], Action] = {}

    def peek_events(self) -> list[ev.Event]:
        """The events not yet taken, left in place."""
        return list(self._events)

    def take_events(self) -> list[ev.Event]:
        events, self._events = self._events, []
        return events

    def new_object(self, card: CardData, impl: CardImpl, owner: str, zone: int) -> GameObject:
        obj = GameObject(self._next_id, card, impl, owner, zone, self.next_timestamp())
        self._next_id += 1
        if impl.flashback is not None:
            self.flashback_owners.add(owner)
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

    def stack_item(self, sid: int) -> StackItem | None:
        for item in self.stack:
            if item.id == sid:
                return item
        return None

    @property
    def step_name(self) -> str:
        return STEP_NAMES[self.step]

    def object_of(self, action: Action) -> GameObject:
        """The object ``action`` names (an action that was checked to name one)."""
        card = action.card
        assert card is not None
        return self.objects[card]

    def emit(self, event: ev.Event) -> None:
        """Record that ``event`` happened (the protocol's ``events`` hands them out)."""
        self._events.append(event)
