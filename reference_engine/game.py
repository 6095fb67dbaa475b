"""The reference game: state, turn structure, priority, the stack, combat and state-based
actions, for two players. Edition differences are hooks overridden in ``editions.py``.

The game runs as a coroutine (``_flow``) that yields a :class:`Decision` whenever a player must
act (priority, or a decision such as a mulligan or declaring attackers) and receives the chosen
:class:`Action`. ``legal_actions()`` lists what the current decision accepts; ``perform()``
checks an action against it before anything changes, so a rejected action leaves the state
exactly as it was; ``apply()`` is the unchecked path for callers that took the action from
``legal_actions()`` (the self-play loop).
"""

from __future__ import annotations

import contextlib
import itertools
import random
from collections.abc import Generator, Iterator
from typing import Any, ClassVar

from reference_engine import mana
from reference_engine.actions import Action
from reference_engine.cardimpl import AbilitySpec, CardImpl, TargetSpec
from reference_engine.constants import (
    BATTLEFIELD,
    CLEANUP,
    COMBAT,
    COMBAT_DAMAGE,
    DECLARE_ATTACKERS,
    DECLARE_BLOCKERS,
    DRAW,
    END_COMBAT,
    EXILE,
    GRAVEYARD,
    HAND,
    LIBRARY,
    MAIN1,
    MAIN_STEPS,
    OUTSIDE,
    PHASE_OF_STEP,
    PLAYERS,
    STACK,
    STEP_NAMES,
    UNTAP,
    UPKEEP,
    ZONE_NAMES,
    other,
)
from reference_engine.errors import IllegalActionError
from reference_engine.objects import Chars, Decision, Effect, GameObject, Player, StackItem
from spec.cardpool import CardData

PRIORITY = "priority"
_PERMANENT_TYPES = frozenset(("Artifact", "Creature", "Enchantment", "Land"))
_BASIC_MANA = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}
_BASIC_ABILITIES = {
    subtype: AbilitySpec(f"{{T}}: Add {{{color}}}.", tap=True, produces=(color,))
    for subtype, color in _BASIC_MANA.items()
}
_MANA_SLOT = {m: i for i, m in enumerate(("W", "U", "B", "R", "G", "C"))}
_COST_CACHE: dict[str | None, mana.Cost] = {}


def _target_key(target: int | str) -> tuple[int, int | str]:
    return (1, target) if isinstance(target, str) else (0, target)


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


def cost_of(card: CardData) -> mana.Cost:
    cost = _COST_CACHE.get(card.cost)
    if cost is None:
        cost = _COST_CACHE[card.cost] = mana.parse_cost(card.cost)
    return cost


class Game:
    """One two-player game of one edition. Build it with :mod:`reference_engine.setup`."""

    edition: ClassVar[str] = ""
    #: the zones this edition has, beyond library, hand, graveyard, battlefield and stack
    extra_zones: ClassVar[tuple[str, ...]] = ()
    #: unused mana empties at the end of each step (modern) or only of each phase (2004)
    pool_empties_each_step: ClassVar[bool] = True
    #: unused mana lost at the end of a phase costs 1 life each (2004 rule 300.3)
    mana_burn: ClassVar[bool] = False
    #: combat damage is put on the stack and players get priority before it is dealt (217.6e)
    combat_damage_uses_stack: ClassVar[bool] = False

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
        self.turn = 1
        self.active = "A"
        self.first_player = "A"
        self.step = UPKEEP
        self.priority: str | None = None
        self.result = Result()
        self.decision: Decision | None = None
        self.block_order: dict[int, tuple[int, ...]] = {}
        self.version = 0
        self._next_id = 1
        self._timestamp = 0
        self._events: list[tuple[Any, ...]] = []
        self._flow: Generator[Decision, Action, None] | None = None
        self._priority_decision = {name: Decision(PRIORITY, name) for name in PLAYERS}
        self._pass_action = {name: Action("pass", name) for name in PLAYERS}
        self._concede_actions = [Action("concede", name) for name in PLAYERS]

    # -- public API ------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every action a correct engine accepts now, for both players (concede included)."""
        decision = self.decision
        if self.result.over or decision is None:
            return []
        if decision.kind == PRIORITY:
            return self._priority_actions(decision.player) + self._concede_actions
        return list(decision.options or ()) + self._concede_actions

    def perform(self, action: Action) -> None:
        """Check ``action`` and apply it.

        :raises IllegalActionError: the action is not legal now; nothing has changed.
        """
        if self.result.over:
            raise IllegalActionError("game_over", "the game is over")
        action = self._canonical(action)
        if action.kind != "concede" and action.core() not in set(self.legal_actions()):
            reason, message = self._why_illegal(action)
            raise IllegalActionError(reason, message)
        if action.payment is not None:
            self._check_payment(action)
        self.apply(action)

    def _canonical(self, action: Action) -> Action:
        """"Any number of targets" is a set: list it in the canonical order (objects by id,
        then players), as :meth:`legal_actions` does."""
        if action.kind == "cast" and len(action.targets) > 1:
            obj = self.objects.get(action.card) if action.card is not None else None
            if obj is not None and obj.impl.spell is not None and obj.impl.spell.max_targets:
                return action._replace(targets=tuple(sorted(action.targets, key=_target_key)))
        return action

    def apply(self, action: Action) -> None:
        """Apply a legal action without checking it.

        .. warning:: only for actions taken from :meth:`legal_actions`; anything else may
           corrupt the game. Use :meth:`perform` for untrusted input.
        """
        if action.kind == "concede":
            self._concede(action.player)
            return
        assert self._flow is not None
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

    def take_events(self) -> list[tuple[Any, ...]]:
        events, self._events = self._events, []
        return events

    # -- objects and characteristics ----------------------------------------------------------

    def new_object(self, card: CardData, impl: CardImpl, owner: str, zone: int) -> GameObject:
        obj = GameObject(self._next_id, card, impl, owner, zone, self._tick())
        self._next_id += 1
        self.objects[obj.id] = obj
        return obj

    def _tick(self) -> int:
        self._timestamp += 1
        return self._timestamp

    def changed(self) -> None:
        """Characteristics may have changed: invalidate every cached :class:`Chars`."""
        self.version += 1

    def chars(self, obj: GameObject) -> Chars:
        if obj._chars_version == self.version and obj._chars is not None:
            return obj._chars
        chars = self._compute_chars(obj)
        obj._chars = chars
        obj._chars_version = self.version
        return chars

    def _compute_chars(self, obj: GameObject) -> Chars:
        card = obj.card
        power, toughness = self._printed_pt(obj)
        chars = Chars(card.name, card.cost, card.mana_value, card.colors,
                      frozenset(card.supertypes), frozenset(card.types), card.subtypes,
                      power, toughness, obj.impl.keywords)
        if obj.zone == BATTLEFIELD:
            for effect in self._effects_in_order():
                if effect.applies(obj):
                    effect.modify(chars)
            if obj.counters and chars.power is not None:
                delta = obj.counters.get("+1/+1", 0) - obj.counters.get("-1/-1", 0)
                chars.power += delta
                chars.toughness = (chars.toughness or 0) + delta
        if "Creature" not in chars.types:
            chars.power = chars.toughness = None
        chars.abilities = self._abilities_for(obj, chars)
        return chars

    def _printed_pt(self, obj: GameObject) -> tuple[int | None, int | None]:
        card = obj.card
        power = card.power if isinstance(card.power, int) else None
        toughness = card.toughness if isinstance(card.toughness, int) else None
        return power, toughness

    def _effects_in_order(self) -> list[Effect]:
        return self.effects

    def abilities(self, obj: GameObject) -> tuple[AbilitySpec, ...]:
        """Activated abilities in protocol order: intrinsic basic-land mana abilities first
        (2004 rule 212.6d), then the card's own."""
        return self.chars(obj).abilities

    def _abilities_for(self, obj: GameObject, chars: Chars) -> tuple[AbilitySpec, ...]:
        if "Land" in chars.types:
            intrinsic = tuple(_BASIC_ABILITIES[s] for s in chars.subtypes if s in _BASIC_ABILITIES)
            if intrinsic:
                return intrinsic + obj.impl.abilities
        return obj.impl.abilities

    def is_sick(self, obj: GameObject) -> bool:
        """Not under its controller's control continuously since their most recent turn began
        (2004 rule 212.3d)."""
        return obj.controlled_since >= self.players[obj.controller].last_turn

    def has(self, obj: GameObject, keyword: str) -> bool:
        return keyword in self.chars(obj).keywords

    # -- zone changes ---------------------------------------------------------------------------

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
             bottom: bool = False, cause: str | None = None) -> GameObject | None:
        """Move ``obj`` to zone ``to``; the result is a new object with a new id (217.1c,
        400.7). An instant or sorcery that would enter the battlefield stays (217.1a, 400.4a)
        and None is returned. Libraries, hands and graveyards are always the owner's."""
        if to == BATTLEFIELD and not _PERMANENT_TYPES.intersection(obj.card.types):
            return None
        source = self.zone_list(obj)
        if source is not None:
            source.remove(obj)
        del self.objects[obj.id]
        new = self.new_object(obj.card, obj.impl, obj.owner, to)
        new.token = obj.token
        if to == BATTLEFIELD:
            new.controller = controller or obj.owner
            new.controlled_since = self.turn
        destination = self.zone_list(new)
        if destination is not None:
            if bottom:
                destination.insert(0, new)
            else:
                destination.append(new)
        self.changed()
        self._events.append(("zone_change", obj.id, new.id, obj.card.name, ZONE_NAMES[obj.zone],
                             ZONE_NAMES[to], obj.owner, cause))
        self._left_zone(obj, new)
        return new

    def _left_zone(self, old: GameObject, new: GameObject) -> None:
        """Hook: an object changed zones (triggers and attachments come in later layers)."""

    def shuffle(self, name: str) -> None:
        self.rng.shuffle(self.players[name].library)
        self._events.append(("shuffle", name))

    # -- game actions used by effects -------------------------------------------------------

    def draw(self, name: str, count: int) -> None:
        player = self.players[name]
        for _ in range(count):
            if not player.library:
                # Drawing from an empty library loses at the next check (2004 rule 102.2).
                player.drew_from_empty = True
                self._events.append(("draw_empty", name))
                continue
            new = self.move(player.library[-1], HAND, cause="draw")
            self._events.append(("draw", name, new.id if new else None))

    def deal_damage(self, source: GameObject | None, target: int | str, amount: int,
                    *, combat: bool = False) -> None:
        amount = max(0, amount)  # negative damage is 0 (2004 rule 104.2)
        if amount == 0:
            return
        if isinstance(target, str):
            self._events.append(("damage", source.id if source else None, target, amount,
                                 combat))
            self.lose_life(target, amount, "damage")
            return
        obj = self.objects.get(target)
        if obj is None or obj.zone != BATTLEFIELD:
            return
        self._events.append(("damage", source.id if source else None, target, amount, combat))
        obj.damage += amount

    def lose_life(self, name: str, amount: int, cause: str) -> None:
        self.players[name].life -= amount
        self._events.append(("life", name, -amount, cause))

    def gain_life(self, name: str, amount: int) -> None:
        self.players[name].life += amount
        self._events.append(("life", name, amount, "gain"))

    def destroy(self, target: int, *, regenerate: bool = True) -> None:
        obj = self.objects.get(target)
        if obj is None or obj.zone != BATTLEFIELD:
            return
        self.move(obj, GRAVEYARD, cause="destroy")

    def return_to_hand(self, target: int) -> None:
        obj = self.objects.get(target)
        if obj is not None and obj.zone == BATTLEFIELD:
            self.move(obj, HAND, cause="bounce")

    def counter(self, target: int) -> None:
        for item in self.stack:
            if item.id == target:
                self.stack.remove(item)
                if item.obj is not None:
                    self.move(item.obj, GRAVEYARD, cause="countered")
                return

    def pump_until_end_of_turn(self, target: int, power: int, toughness: int) -> None:
        def applies(obj: GameObject) -> bool:
            return obj.id == target

        def modify(chars: Chars) -> None:
            if chars.power is not None:
                chars.power += power
                chars.toughness = (chars.toughness or 0) + toughness

        self.effects.append(Effect(7, self._tick(), applies, modify, "turn"))
        self.changed()

    def add_mana(self, name: str, produces: tuple[str, ...]) -> None:
        pool = self.players[name].pool
        for symbol in produces:
            pool[_MANA_SLOT[symbol]] += 1
        self._events.append(("mana", name, produces))

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

    # -- targets ----------------------------------------------------------------------------------

    def target_candidates(self, spec: TargetSpec, controller: str) -> list[int | str]:
        kind = spec.kind
        found: list[int | str]
        if kind == "player":
            found = list(PLAYERS)
        elif kind == "spell":
            found = [item.id for item in self.stack if item.kind == "spell"]
        else:
            chars = self.chars
            if kind == "permanent":
                found = [o.id for o in self.battlefield]
            else:
                found = [o.id for o in self.battlefield if "Creature" in chars(o).types]
            if kind == "creature_or_player":
                found.extend(PLAYERS)
        if spec.allows is not None:
            found = [t for t in found if spec.allows(self, controller, self._target_value(t))]
        return found

    def _target_value(self, target: int | str) -> Any:
        if isinstance(target, str):
            return target
        obj = self.objects.get(target)
        if obj is not None and obj.zone == STACK:
            for item in self.stack:
                if item.id == target:
                    return item
        if obj is None:
            for item in self.stack:
                if item.id == target:
                    return item
        return obj

    def target_legal(self, spec: TargetSpec, controller: str, target: int | str) -> bool:
        if isinstance(target, str):
            if spec.kind not in ("player", "creature_or_player"):
                return False
            return not self.result.over
        value = self._target_value(target)
        if value is None:
            return False
        if spec.kind == "spell":
            if not isinstance(value, StackItem) or value.kind != "spell":
                return False
        else:
            if not isinstance(value, GameObject) or value.zone != BATTLEFIELD:
                return False
            if spec.kind != "permanent" and "Creature" not in self.chars(value).types:
                return False
        return spec.allows is None or spec.allows(self, controller, value)

    def target_specs(self, item: StackItem) -> tuple[TargetSpec, ...]:
        if item.kind == "spell":
            assert item.obj is not None
            spell = item.obj.impl.spell
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

    # -- the game coroutine ------------------------------------------------------------------

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

    def _mulligans(self) -> Generator[Decision, Action, None]:
        raise NotImplementedError  # edition hook

    def _hand_into_library(self, name: str) -> None:
        player = self.players[name]
        for obj in list(player.hand):
            self.move(obj, LIBRARY, cause="mulligan")
        self.shuffle(name)

    def _begin_turn(self, active: str, *, first: bool = False) -> None:
        if not first:
            self.turn += 1
        self.active = active
        self.players[active].last_turn = self.turn
        for player in self.players.values():
            player.lands_played = 0
        self._events.append(("turn", self.turn, active))

    def _next_step(self, step: int) -> int:
        nxt = step + 1
        if step == UPKEEP and self.turn == 1:
            nxt = MAIN1  # the player who goes first skips their first draw step (101.5)
        elif step == DECLARE_ATTACKERS and not any(o.attacking for o in self.battlefield):
            nxt = END_COMBAT  # no attackers: no blockers or combat damage steps
        ends_phase = nxt > CLEANUP or PHASE_OF_STEP[nxt] != PHASE_OF_STEP[step]
        self._end_step(step, ends_phase)
        if nxt > CLEANUP:
            self._begin_turn(self._next_active())
            return UNTAP
        return nxt

    def _next_active(self) -> str:
        return other(self.active)

    def _end_step(self, step: int, ends_phase: bool) -> None:
        if self.pool_empties_each_step or ends_phase:
            self._empty_pools(burn=self.mana_burn and ends_phase)
        if ends_phase and PHASE_OF_STEP[step] == COMBAT:
            self._end_combat()

    def _empty_pools(self, *, burn: bool) -> None:
        for name in self._turn_order_from_active():
            player = self.players[name]
            unused = sum(player.pool)
            if unused:
                player.pool = [0, 0, 0, 0, 0, 0]
                if burn:
                    # Mana burn is life loss, not damage (2004 rule 300.3).
                    self.lose_life(name, unused, "mana_burn")

    def _turn_order_from_active(self) -> tuple[str, str]:
        return self.active, other(self.active)

    def _end_combat(self) -> None:
        for obj in self.battlefield:
            obj.attacking = False
            obj.blocking = None
            obj.blocked = False
        self.block_order.clear()
        self._expire("combat")

    def _expire(self, duration: str) -> None:
        kept = [e for e in self.effects if e.duration != duration]
        if len(kept) != len(self.effects):
            self.effects = kept
            self.changed()

    def _run_step(self, step: int, turn_based: bool) -> Generator[Decision, Action, None]:
        self.step = step
        self._events.append(("step", self.turn, step))
        if step == CLEANUP:
            yield from self._cleanup()
            return
        if turn_based:
            yield from self._turn_based_actions(step)
        if step == UNTAP:
            return
        yield from self._priority_round()

    def _turn_based_actions(self, step: int) -> Generator[Decision, Action, None]:
        if step == UNTAP:
            for obj in self.battlefield:
                if obj.controller == self.active:
                    obj.tapped = False
        elif step == DRAW:
            self.draw(self.active, 1)
        elif step == DECLARE_ATTACKERS:
            yield from self._declare_attackers()
        elif step == DECLARE_BLOCKERS:
            yield from self._declare_blockers()
        elif step == COMBAT_DAMAGE:
            self._combat_damage()

    def _cleanup(self) -> Generator[Decision, Action, None]:
        while True:
            player = self.players[self.active]
            if player.max_hand_size is not None and len(player.hand) > player.max_hand_size:
                yield from self.discard(self.active, len(player.hand) - player.max_hand_size)
            for obj in self.battlefield:
                obj.damage = 0
            self._expire("turn")
            if not self._needs_priority_in_cleanup():
                return
            # Something happened: players get priority, then a new cleanup step (314.3).
            yield from self._priority_round()

    def _needs_priority_in_cleanup(self) -> bool:
        return self._state_based_actions_due()

    # -- priority and the stack ---------------------------------------------------------------

    def _priority_round(self) -> Generator[Decision, Action, None]:
        """Players act until both pass in succession with an empty stack (217.6d, 300.2)."""
        player = self.active
        passes = 0
        while True:
            yield from self._settle()
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
                player = self.active
            else:
                passes = 0
                yield from self._take_action(action)

    def _settle(self) -> Generator[Decision, Action, None]:
        """State-based actions until none apply, then triggered abilities (hook)."""
        while self._state_based_actions():
            pass
        yield from self._put_triggers_on_stack()

    def _put_triggers_on_stack(self) -> Generator[Decision, Action, None]:
        return
        yield

    def _state_based_actions_due(self) -> bool:
        for player in self.players.values():
            if player.life <= 0 or player.drew_from_empty or player.poison >= 10:
                return True
        chars = self.chars
        for obj in self.battlefield:
            c = chars(obj)
            if c.toughness is not None and (c.toughness <= 0 or obj.damage >= c.toughness):
                return True
        return False

    def _state_based_actions(self) -> bool:
        """Perform every state-based action that applies, simultaneously; True if any did."""
        losers = [name for name, p in self.players.items()
                  if p.life <= 0 or p.drew_from_empty or p.poison >= 10]
        chars = self.chars
        dying: list[GameObject] = []
        destroyed: list[GameObject] = []
        for obj in self.battlefield:
            c = chars(obj)
            if c.toughness is None:
                continue
            if c.toughness <= 0:
                dying.append(obj)  # put into the graveyard, not destroyed
            elif obj.damage >= c.toughness:
                destroyed.append(obj)
        extra = self._more_state_based_actions()
        if not (losers or dying or destroyed or extra):
            return False
        for obj in dying:
            self.move(obj, GRAVEYARD, cause="sba_toughness")
        for obj in destroyed:
            self.destroy(obj.id)
        if losers:
            reasons = []
            for name in losers:
                player = self.players[name]
                reasons.append("life" if player.life <= 0 else
                               "empty_library" if player.drew_from_empty else "poison")
            self._end_game(losers, reasons[0] if len(set(reasons)) == 1 else "simultaneous")
        return True

    def _more_state_based_actions(self) -> bool:
        """Hook for the state-based actions of later mechanics (auras, tokens, legends...)."""
        return False

    def _end_game(self, losers: list[str], reason: str) -> None:
        result = self.result
        result.over = True
        result.losers = sorted(losers)
        result.winners = [n for n in PLAYERS if n not in losers]
        result.draw = len(losers) == len(PLAYERS)  # both lose at once: a draw (102.4)
        result.reason = reason
        self.priority = None
        self._events.append(("game_over", tuple(result.winners), tuple(result.losers),
                             result.draw, reason))
        raise _GameOver

    def _concede(self, name: str) -> None:
        with contextlib.suppress(_GameOver):
            self._end_game([name], "concede")
        self.decision = None
        if self._flow is not None:
            self._flow.close()

    def _take_action(self, action: Action) -> Generator[Decision, Action, None]:
        kind = action.kind
        if kind == "play_land":
            obj = self.objects[action.card]
            self.players[action.player].lands_played += 1
            self.move(obj, BATTLEFIELD, controller=action.player, cause="play_land")
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

    def spell_cost(self, obj: GameObject, targets: int) -> mana.Cost:
        cost = cost_of(obj.card)
        spell = obj.impl.spell
        if spell is not None and spell.extra_target_cost and targets > 1:
            cost = cost.plus_generic(spell.extra_target_cost * (targets - 1))
        return cost

    def _cast(self, action: Action) -> Generator[Decision, Action, None]:
        obj = self.objects[action.card]
        self._pay(action, self.spell_cost(obj, len(action.targets)))
        card = self.move(obj, STACK, cause="cast")
        assert card is not None
        card.controller = action.player
        item = StackItem(card.id, "spell", action.player, obj=card, targets=action.targets,
                         x=action.x)
        card.cast_info = {"x": action.x}
        self.stack.append(item)
        self._events.append(("cast", action.player, card.id, card.card.name))
        yield from self._after_cast(item)

    def _after_cast(self, item: StackItem) -> Generator[Decision, Action, None]:
        return
        yield

    def _activate(self, action: Action) -> Generator[Decision, Action, None]:
        obj = self.objects[action.card]
        spec = self.abilities(obj)[action.ability or 0]
        if spec.cost is not None:
            self._pay(action, spec.cost)
        if spec.tap:
            obj.tapped = True
        source = obj
        if spec.sacrifice:
            self.move(obj, GRAVEYARD, cause="sacrifice")
        if spec.produces is not None:
            # A mana ability resolves at once, without the stack (405.6c).
            self.add_mana(action.player, spec.produces)
            return
        item = StackItem(self._next_id, "ability", action.player, source=source, ability=spec,
                         targets=action.targets, x=action.x)
        self._next_id += 1
        self.stack.append(item)
        self._events.append(("activate", action.player, source.id, spec.text))
        yield from ()

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
            self._events.append(("fizzle", item.id))
            return
        if item.kind == "spell":
            obj = item.obj
            assert obj is not None
            if _PERMANENT_TYPES.intersection(self.chars(obj).types):
                self.stack.remove(item)
                self.move(obj, BATTLEFIELD, controller=item.controller, cause="resolve")
                self._events.append(("resolve", item.id))
                return
            spell = obj.impl.spell
            if spell is not None and spell.effect is not None:
                outcome = spell.effect(self, item)
                if outcome is not None:
                    yield from outcome
            if item in self.stack:
                self.stack.remove(item)
            if obj.zone == STACK and obj.id in self.objects:
                self.move(obj, GRAVEYARD, cause="resolve")
        else:
            spec = item.ability
            if spec is not None and spec.effect is not None:
                outcome = spec.effect(self, item)
                if outcome is not None:
                    yield from outcome
            if item in self.stack:
                self.stack.remove(item)
        self._events.append(("resolve", item.id))

    # -- combat ---------------------------------------------------------------------------------

    def can_attack(self, obj: GameObject) -> bool:
        if obj.controller != self.active or obj.tapped:
            return False
        chars = self.chars(obj)
        if "Creature" not in chars.types or "defender" in chars.keywords:
            return False
        return "haste" in chars.keywords or not self.is_sick(obj)

    def can_block(self, blocker: GameObject, attacker: GameObject) -> bool:
        if blocker.tapped or blocker.controller == self.active:
            return False
        chars = self.chars(blocker)
        if "Creature" not in chars.types:
            return False
        return not self.has(attacker, "flying") or bool(
            {"flying", "reach"} & chars.keywords
        )

    def _declare_attackers(self) -> Generator[Decision, Action, None]:
        active = self.active
        declared: list[GameObject] = []
        while True:
            options = [Action("attack", active, card=o.id) for o in self.battlefield
                       if o not in declared and self.can_attack(o)]
            if not options and not declared:
                return  # no creature can attack: nothing to decide
            options.append(Action("done", active))
            action = yield Decision("declare_attackers", active, options)
            if action.kind == "done":
                break
            declared.append(self.objects[action.card])
        for obj in declared:
            obj.attacking = True
            if not self.has(obj, "vigilance"):
                obj.tapped = True
        self._events.append(("attackers", tuple(o.id for o in declared)))

    def _declare_blockers(self) -> Generator[Decision, Action, None]:
        defender = other(self.active)
        attackers = [o for o in self.battlefield if o.attacking]
        blocks: dict[int, int] = {}
        while True:
            options = [
                Action("block", defender, card=b.id, attacker=a.id)
                for b in self.battlefield if b.id not in blocks
                for a in attackers if self.can_block(b, a)
            ]
            if not options and not blocks:
                return
            options.append(Action("done", defender))
            action = yield Decision("declare_blockers", defender, options)
            if action.kind == "done":
                break
            blocks[action.card] = action.attacker
        for blocker_id, attacker_id in blocks.items():
            self.objects[blocker_id].blocking = attacker_id
            self.objects[attacker_id].blocked = True
        self._events.append(("blockers", tuple(blocks.items())))
        for attacker in attackers:
            blockers = [b for b, a in blocks.items() if a == attacker.id]
            if len(blockers) < 2:
                self.block_order[attacker.id] = tuple(blockers)
                continue
            options = [Action("order_blockers", self.active, attacker=attacker.id, order=order)
                       for order in itertools.permutations(blockers)]
            action = yield Decision("order_blockers", self.active, options)
            self.block_order[attacker.id] = action.order

    def _combat_damage(self) -> None:
        defender = other(self.active)
        assignments: list[tuple[GameObject, Any, int]] = []
        chars = self.chars
        for attacker in self.battlefield:
            if not attacker.attacking:
                continue
            power = max(0, chars(attacker).power or 0)
            if power == 0:
                continue
            trample = self.has(attacker, "trample")
            if not attacker.blocked:
                assignments.append((attacker, defender, power))
                continue
            blockers = [self.objects[b] for b in self.block_order.get(attacker.id, ())
                        if b in self.objects and self.objects[b].zone == BATTLEFIELD]
            if not blockers:
                if trample:
                    assignments.append((attacker, defender, power))
                continue
            remaining = power
            for index, blocker in enumerate(blockers):
                last = index == len(blockers) - 1
                lethal = max(0, (chars(blocker).toughness or 0) - blocker.damage)
                amount = remaining if last and not trample else min(remaining, lethal)
                if amount:
                    assignments.append((attacker, blocker.id, amount))
                remaining -= amount
            if trample and remaining:
                assignments.append((attacker, defender, remaining))
        for blocker in self.battlefield:
            if blocker.blocking is None:
                continue
            attacker = self.objects.get(blocker.blocking)
            if attacker is None or attacker.zone != BATTLEFIELD:
                continue
            power = max(0, chars(blocker).power or 0)
            if power:
                assignments.append((blocker, attacker.id, power))
        if not assignments:
            return
        if self.combat_damage_uses_stack:
            item = StackItem(self._next_id, "combat_damage", self.active)
            self._next_id += 1
            item.assignments = assignments
            self.stack.append(item)
            self._events.append(("combat_damage_on_stack", item.id))
        else:
            self._deal_combat_damage(assignments)

    def _deal_combat_damage(self, assignments: list[tuple[GameObject, Any, int]]) -> None:
        for source, target, amount in assignments:
            self.deal_damage(source, target, amount, combat=True)

    # -- legal actions -----------------------------------------------------------------------------

    def _priority_actions(self, name: str) -> list[Action]:
        player = self.players[name]
        actions = [self._pass_action[name]]
        sorcery_ok = self.active == name and self.step in MAIN_STEPS and not self.stack
        chars = self.chars
        hand = player.hand
        if sorcery_ok and player.lands_played < player.land_plays:
            actions.extend(Action("play_land", name, card=o.id) for o in hand
                           if "Land" in chars(o).types)
        for obj in hand:
            types = chars(obj).types
            if "Land" in types:
                continue
            if not sorcery_ok and "Instant" not in types and not self.has(obj, "flash"):
                continue
            self._spell_actions(actions, player, obj)
        for obj in self.battlefield:
            if obj.controller == name:
                for index, spec in enumerate(self.abilities(obj)):
                    self._ability_actions(actions, player, obj, index, spec, sorcery_ok)
        return actions

    def _spell_actions(self, actions: list[Action], player: Player, obj: GameObject) -> None:
        spell = obj.impl.spell
        pool = player.pool
        name = player.name
        base = cost_of(obj.card)
        if mana.max_x(pool, base) < 0:
            return
        if spell is None or not spell.targets:
            for x in self._x_values(pool, base):
                actions.append(Action("cast", name, card=obj.id, x=x))
            return
        if spell.max_targets:
            candidates = sorted(self.target_candidates(spell.targets[0], name), key=_target_key)
            for count in range(1, min(spell.max_targets, len(candidates)) + 1):
                cost = self.spell_cost(obj, count)
                if mana.max_x(pool, cost) < 0:
                    break
                xs = self._x_values(pool, cost)
                for combo in itertools.combinations(candidates, count):
                    for x in xs:
                        actions.append(Action("cast", name, card=obj.id, targets=combo, x=x))
            return
        pools = [self.target_candidates(spec, name) for spec in spell.targets]
        xs = self._x_values(pool, base)
        for combo in itertools.product(*pools):
            if len(set(combo)) != len(combo):
                continue
            for x in xs:
                actions.append(Action("cast", name, card=obj.id, targets=combo, x=x))

    @staticmethod
    def _x_values(pool: list[int], cost: mana.Cost) -> list[int | None]:
        if not cost.x:
            return [None]
        return list(range(mana.max_x(pool, cost) + 1))

    def _ability_actions(self, actions: list[Action], player: Player, obj: GameObject,
                         index: int, spec: AbilitySpec, sorcery_ok: bool) -> None:
        if spec.tap and (obj.tapped or (self.is_sick(obj) and "Creature" in self.chars(obj).types
                                        and not self.has(obj, "haste"))):
            return
        if spec.sorcery_speed and not sorcery_ok:
            return
        cost = spec.cost
        if cost is not None and mana.max_x(player.pool, cost) < 0:
            return
        name = player.name
        if not spec.targets:
            for x in self._x_values(player.pool, cost) if cost else [None]:
                actions.append(Action("activate", name, card=obj.id, ability=index, x=x))
            return
        pools = [self.target_candidates(t, name) for t in spec.targets]
        for combo in itertools.product(*pools):
            if len(set(combo)) == len(combo):
                actions.append(Action("activate", name, card=obj.id, ability=index,
                                      targets=combo))

    # -- diagnosing an illegal action -----------------------------------------------------

    def _check_payment(self, action: Action) -> None:
        player = self.players[action.player]
        if action.kind == "cast":
            cost = self.spell_cost(self.objects[action.card], len(action.targets))
        elif action.kind == "activate":
            spec = self.abilities(self.objects[action.card])[action.ability or 0]
            cost = spec.cost or mana.Cost((0, 0, 0, 0, 0, 0), 0, 0)
        else:
            raise IllegalActionError("unexpected_payment", f"{action.kind} takes no payment")
        try:
            mana.check_payment(player.pool, cost, action.x or 0, dict(action.payment or ()))
        except ValueError as exc:
            raise IllegalActionError("bad_payment", str(exc)) from None

    def _why_illegal(self, action: Action) -> tuple[str, str]:
        decision = self.decision
        if decision is None:
            return "no_decision", "the game is not waiting for any action"
        if decision.kind != PRIORITY:
            if action.player != decision.player:
                return ("not_your_decision",
                        f"the game waits for player {decision.player} to {decision.kind}")
            return ("not_an_option",
                    f"{action.kind} is not one of the options of the {decision.kind} decision")
        if action.player != decision.player:
            return "not_your_priority", f"player {decision.player} has priority"
        if action.kind in ("keep", "mulligan", "attack", "block", "done", "order_blockers",
                           "discard", "choose"):
            return "no_such_decision", f"no {action.kind} decision is pending"
        obj = self.objects.get(action.card) if action.card is not None else None
        player = self.players[action.player]
        sorcery_ok = self.active == action.player and self.step in MAIN_STEPS and not self.stack
        if action.kind == "play_land":
            if obj is None or obj not in player.hand:
                return "not_in_hand", f"object {action.card} is not in {action.player}'s hand"
            if "Land" not in self.chars(obj).types:
                return "not_a_land", f"{obj.card.name} is not a land: cast it instead"
            return self._timing_reason(action.player, "land") if not sorcery_ok else (
                "no_land_play_left", "a land has already been played this turn")
        if action.kind == "cast":
            if obj is None or obj not in player.hand:
                return "not_in_hand", f"object {action.card} is not in {action.player}'s hand"
            types = self.chars(obj).types
            if "Land" in types:
                return "land_not_cast", f"{obj.card.name} is a land: it is played, not cast"
            if not sorcery_ok and "Instant" not in types:
                return self._timing_reason(action.player, obj.card.name)
            return self._spell_reason(action, obj)
        if action.kind == "activate":
            if obj is None or obj.zone != BATTLEFIELD:
                return "not_on_battlefield", f"object {action.card} is not a permanent in play"
            if obj.controller != action.player:
                return "not_controller", f"player {action.player} does not control {obj.card.name}"
            abilities = self.abilities(obj)
            if action.ability is None or action.ability >= len(abilities):
                return "no_such_ability", f"{obj.card.name} has no ability {action.ability}"
            spec = abilities[action.ability]
            if spec.tap and obj.tapped:
                return "already_tapped", f"{obj.card.name} is tapped"
            if spec.tap and self.is_sick(obj) and "Creature" in self.chars(obj).types:
                return "summoning_sick", (f"{obj.card.name} has not been under {action.player}'s "
                                          "control since their turn began")
            if spec.cost is not None and not mana.can_pay(player.pool, spec.cost, action.x or 0):
                return "cannot_pay", "the mana pool cannot pay the ability's cost"
            return "illegal_target", "a target is not legal"
        return "not_legal_now", f"{action.kind} is not legal now"

    def _timing_reason(self, name: str, what: str) -> tuple[str, str]:
        if self.active != name:
            return "not_your_turn", f"{what} can be played only in your own turn"
        if self.step not in MAIN_STEPS:
            return "not_main_phase", f"{what} can be played only in your main phase"
        return "stack_not_empty", f"{what} can be played only while the stack is empty"

    def _spell_reason(self, action: Action, obj: GameObject) -> tuple[str, str]:
        spell = obj.impl.spell
        player = self.players[action.player]
        cost = self.spell_cost(obj, len(action.targets))
        if cost.x and action.x is None:
            return "x_required", f"{obj.card.name} needs a value for X"
        if not cost.x and action.x is not None:
            return "x_not_allowed", f"{obj.card.name} has no X in its cost"
        wanted = len(spell.targets) if spell is not None and not spell.max_targets else None
        if wanted is not None and len(action.targets) != wanted:
            return "wrong_target_count", f"{obj.card.name} takes {wanted} target(s)"
        if not mana.can_pay(player.pool, cost, action.x or 0):
            return "cannot_pay", f"the mana pool cannot pay {obj.card.cost} for {obj.card.name}"
        return "illegal_target", "a target is not legal for this spell"

    # -- helpers for observation ------------------------------------------------------------------

    @property
    def step_name(self) -> str:
        return STEP_NAMES[self.step]

    def stack_item(self, sid: int) -> StackItem | None:
        for item in self.stack:
            if item.id == sid:
                return item
        return None

