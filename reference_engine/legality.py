"""Whether an action is legal now, and if not, why: the one home of the rules of playing a
land, casting a spell and activating an ability.

Each rule is checked by one method that returns a reason code (a string, the ``reason`` of
the protocol's ``illegal_action`` error) or ``None`` when the rule holds. The same methods
build the list of legal actions (:meth:`Legality.legal_actions`) and judge one action
(:meth:`Legality.check`, which the game's ``perform`` runs before it applies anything):
``check`` looks at the action it is given and nothing else, never the list. Messages are
worded from the code, in :data:`MESSAGES`, only when an action is refused; its keys (with
``bad_payment`` and ``not_a_mana_source``, raised by the payment checks) are every reason
code, each explained in docs/reference-engine.md.

The list abbreviates the one family of choices that grows too fast to list whole, as the
protocol allows (docs/protocol.md, "Actions"): a spell with "any number of targets" is listed
with up to :data:`LISTED_TARGETS` targets. ``check`` accepts every legal action, listed or
not.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from reference_engine import mana
from reference_engine.actions import Action
from reference_engine.board import Board
from reference_engine.constants import (
    BATTLEFIELD,
    COLORS,
    COMBAT,
    GRAVEYARD,
    HAND,
    MAIN_STEPS,
    PHASE_OF_STEP,
    PLAYERS,
    PRIORITY,
)
from reference_engine.errors import IllegalActionError
from reference_engine.objects import AbilitySpec, Chars, GameObject, TargetSpec

#: how many targets legal_actions() lists for a spell with "any number of targets"
LISTED_TARGETS = 2
NO_COST = mana.Cost((0, 0, 0, 0, 0, 0), 0, 0)
#: the decisions other than priority, answered only while one of them is pending (the
#: protocol's ``order_blockers`` is one no game of the engine's rules asks: with no damage
#: assignment order, modern since 2024-11-08 and 2004, it is never an option)
DECISION_KINDS = frozenset(("keep", "mulligan", "attack", "block", "done", "order_blockers",
                            "discard", "choose"))

#: how each reason code is worded; ``{card}`` is the object's name (or its id), ``{player}``
#: the actor, ``{kind}`` the action's kind, ``{what}`` what was played, ``{decision}`` and
#: ``{waits}`` the pending decision and whose it is
MESSAGES = {
    "game_over": "the game is over",
    "no_decision": "the game is not waiting for any action",
    "not_your_decision": "the game waits for player {waits} to {decision}",
    "not_an_option": "{kind} is not one of the options of the {decision} decision",
    "not_your_priority": "player {waits} has priority",
    "no_such_decision": "no {kind} decision is pending",
    "unexpected_field": "{kind} takes no {fields}",
    "unexpected_payment": "{kind} takes no payment",
    "not_legal_now": "{kind} is not legal now",
    "not_in_hand": "object {card} is not in {player}'s hand",
    "not_a_land": "{card} is not a land: cast it instead",
    "land_not_cast": "{card} is a land: it is played, not cast",
    "not_your_turn": "{what} can be played only in your own turn",
    "not_main_phase": "{what} can be played only in your main phase",
    "stack_not_empty": "{what} can be played only while the stack is empty",
    "cant_play_lands": "player {player} can't play lands this turn",
    "no_land_play_left": "no land play is left this turn",
    "no_kicker": "{card} has no kicker",
    "x_required": "{card} needs a value for X",
    "x_not_allowed": "{card} has no X in its cost",
    "wrong_target_count": "{card} cannot take {count} target(s)",
    "duplicate_target": "{card} names one target twice",
    "illegal_target": "a target is not legal for {card}",
    "cannot_pay": "the mana pool cannot pay for {card}",
    "not_on_battlefield": "object {card} is not a permanent in play",
    "not_controller": "player {player} does not control {card}",
    "no_such_ability": "{card} has no ability {ability}",
    "already_tapped": "{card} is tapped",
    "summoning_sick": ("{card} has not been under {player}'s control since their most recent "
                       "turn began"),
    "not_during_combat": "{card}'s ability can be activated only during combat",
    "loyalty_used": "a loyalty ability of {card} was already used this turn",
    "not_enough_loyalty": "{card} has too few loyalty counters to pay for the ability",
    "no_counter_to_remove": "{card} has no counter to remove for the ability's cost",
    "not_attached": "no Equipment granting {card}'s ability is attached to pay its cost",
}
#: the fields each kind of priority action may carry besides ``kind`` and ``player``
_PRIORITY_FIELDS = {
    "pass": frozenset(), "concede": frozenset(), "play_land": frozenset({"card"}),
    "cast": frozenset({"card", "targets", "x", "kicked", "payment", "pay_with"}),
    "activate": frozenset({"card", "ability", "targets", "x", "payment", "pay_with"}),
}
_DEFAULTS = Action("pass", "A")


def target_key(target: int | str) -> tuple[int, int | str]:
    """The canonical order of targets: objects by id, then players."""
    return (1, target) if isinstance(target, str) else (0, target)


def refuse(game: Legality, action: Action, code: str, **words: Any) -> IllegalActionError:
    """The error for ``action`` refused with ``code``, its message worded from MESSAGES."""
    obj = game.objects.get(action.card) if action.card is not None else None
    decision = game.decision
    fields = {
        "card": obj.card.name if obj is not None else action.card,
        "player": action.player, "kind": action.kind, "ability": action.ability,
        "what": obj.card.name if obj is not None else "it",
        "decision": decision.kind if decision is not None else None,
        "waits": decision.player if decision is not None else None,
        "count": len(action.targets),
        "fields": ", ".join(stray_fields(action)) if action.kind in _PRIORITY_FIELDS else "",
    }
    fields.update(words)
    return IllegalActionError(code, MESSAGES[code].format(**fields))


def cast_speed(chars: Chars) -> str:
    """When a card with these characteristics may be cast: never ("land": it is played), any
    time its player could cast an instant ("instant": an instant, or flash, 2004 212.5e), or
    only at sorcery timing ("sorcery")."""
    types = chars.types
    if "Land" in types:
        return "land"
    if "Instant" in types or "flash" in chars.keywords:
        return "instant"
    return "sorcery"


def stray_fields(action: Action) -> list[str]:
    """The fields ``action`` sets that its kind does not take (a priority action)."""
    allowed = _PRIORITY_FIELDS[action.kind]
    return [name for name in ("card", "ability", "targets", "x", "attacker", "order", "choice",
                              "kicked", "payment", "pay_with")
            if name not in allowed and getattr(action, name) != getattr(_DEFAULTS, name)]


class Legality(Board):
    """Legal actions and the checks behind them, for :class:`~reference_engine.game.Game`."""

    # -- the two entry points -----------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every action a correct engine accepts now, for both players (concede included),
        abbreviated as the module says."""
        decision = self.decision
        if self.result.over or decision is None:
            return []
        if decision.kind == PRIORITY:
            return self._priority_actions(decision.player) + self._concede_actions
        return list(decision.options or ()) + self._concede_actions

    def check(self, action: Action) -> None:
        """What :meth:`perform` checks, without performing: the action as a whole, its
        payment and its mana sources included.

        :raises IllegalActionError: the action is not legal now.
        """
        if action.pay_with is not None:
            self._check_paying(action)
            return
        action = self._canonical(action)
        code = self.refusal(action)
        if code is not None:
            raise refuse(self, action, code)
        if action.payment is not None:
            self._check_payment(action)

    def refusal(self, action: Action) -> str | None:
        """Why ``action`` is not legal now (a reason code), or None if it is, paid from the
        mana pool as it stands (its ``payment`` and ``pay_with`` aside)."""
        if self.result.over:
            return "game_over"
        decision = self.decision
        if action.kind == "concede":
            return "unexpected_field" if stray_fields(action) else None
        if decision is None:
            return "no_decision"
        if decision.kind != PRIORITY:
            if action.player != decision.player:
                return "not_your_decision"
            if action in set(decision.options or ()):
                return None
            return "not_an_option"
        if action.player != decision.player:
            return "not_your_priority"
        if action.kind in DECISION_KINDS:
            return "no_such_decision"
        if action.kind not in _PRIORITY_FIELDS:
            return "not_legal_now"
        stray = stray_fields(action)
        if stray:
            paying = {"payment", "pay_with"}
            return "unexpected_payment" if paying.issuperset(stray) else "unexpected_field"
        if action.kind == "pass":
            return None
        name = action.player
        obj = self.objects.get(action.card) if action.card is not None else None
        if action.kind == "activate":
            return self._activation_refusal(action, obj)
        sorcery_ok = self.active == name and self.step in MAIN_STEPS and not self.stack
        if obj is None or not self._playable(name, obj):
            return "not_in_hand"
        if action.kind == "play_land":
            return self.land_refusal(obj) or self.land_play_refusal(name, sorcery_ok)
        return self.cast_timing_refusal(name, obj, sorcery_ok) or self._spell_refusal(
            action, obj)

    # -- the checks: playing a land ------------------------------------------------------------

    def land_refusal(self, obj: GameObject) -> str | None:
        """Whether ``obj``, in a zone its player may play from, is a land to play."""
        if "Land" not in self.chars(obj).types:
            return "not_a_land"
        if obj.zone == GRAVEYARD:
            return "not_in_hand"  # flashback and the like cast spells; no land is played there
        return None

    def land_play_refusal(self, name: str, sorcery_ok: bool) -> str | None:
        """Whether ``name`` may play a land now: timing, then what effects allow."""
        if not sorcery_ok:
            return self.timing_refusal(name)
        rules = self.player_rules(name)
        # "Can't" beats "can" (103.2): a prohibition wins over extra land plays.
        if rules["cant_play_lands"]:
            return "cant_play_lands"
        if self.players[name].lands_played >= rules["land_plays"]:
            return "no_land_play_left"
        return None

    def timing_refusal(self, name: str) -> str:
        """Why ``name`` cannot play something at sorcery speed now."""
        if self.active != name:
            return "not_your_turn"
        if self.step not in MAIN_STEPS:
            return "not_main_phase"
        return "stack_not_empty"

    # -- the checks: casting a spell ----------------------------------------------------------

    def cast_timing_refusal(self, name: str, obj: GameObject,
                            sorcery_ok: bool) -> str | None:
        """Whether the card may be cast now as far as its type and timing go."""
        return self.cast_timing_refusals(name, (obj,), sorcery_ok)[0]

    def cast_timing_refusals(self, name: str, objs: Sequence[GameObject],
                             sorcery_ok: bool) -> list[str | None]:
        """:meth:`cast_timing_refusal` of each of ``objs``, in one call: the listing asks it
        of every card in hand on every priority, and a call per card was most of its cost."""
        found: list[str | None] = []
        version = self.version
        late: str | None = None  # the reason for sorcery timing, worked out once if needed
        for obj in objs:
            # The cache test of chars() inlined.
            chars = obj._chars
            if chars is None or obj._chars_version != version:
                chars = self.chars(obj)
            speed = chars.speed
            if speed is None:
                speed = chars.speed = cast_speed(chars)
            if speed == "land":
                found.append("land_not_cast")
                continue
            if speed == "sorcery" and not sorcery_ok:
                if late is None:
                    late = self.timing_refusal(name)
                found.append(late)
                continue
            found.append(None)
        return found

    def _spell_refusal(self, action: Action, obj: GameObject) -> str | None:
        impl = obj.impl
        spell = impl.spell
        if action.kicked and impl.kicker is None:
            return "no_kicker"
        targets = action.targets
        cost = self.spell_cost(obj, len(targets), action.kicked)
        if cost.x and action.x is None:
            return "x_required"
        if not cost.x and action.x is not None:
            return "x_not_allowed"
        specs: tuple[TargetSpec, ...]
        if impl.enchant is not None:
            specs = (impl.enchant,)
        elif spell is None:
            specs = ()
        elif spell.max_targets:
            # Damage divided among "any number" of targets needs one at least (modern 107.1c).
            if not 1 <= len(targets) <= spell.max_targets:
                return "wrong_target_count"
            specs = (spell.targets[0],) * len(targets)
        else:
            specs = spell.targets
        if len(targets) != len(specs):
            return "wrong_target_count"
        if len(set(targets)) != len(targets):
            return "duplicate_target"
        if not mana.can_pay(self.players[action.player].pool, cost, action.x or 0):
            return "cannot_pay"
        for spec, target in zip(specs, targets, strict=True):
            # An Aura cannot enchant itself; no other spell's targets include it.
            if (impl.enchant is not None and target == obj.id) or not self.target_legal(
                    spec, action.player, target, obj):
                return "illegal_target"
        return None

    def castable_zones(self, name: str) -> list[GameObject]:
        """Cards the player may cast or play from outside the hand: flashback cards in the
        graveyard, the top card of the library with Future Sight, cards an effect lets them
        play (a granted flashback, a card exiled that they may play)."""
        player = self.players[name]
        extra = [o for o in player.graveyard if o.impl.flashback is not None] if (
            name in self.flashback_owners) else []
        if player.library and self.player_rules(name)["play_top_card"]:
            extra.append(player.library[-1])
        if self.permissions:
            for oid, permission in self.permissions.items():
                obj = self.objects.get(oid)
                if obj is not None and permission.player == name and obj not in extra:
                    extra.append(obj)
        return extra

    def _playable(self, name: str, obj: GameObject) -> bool:
        return obj in self.players[name].hand or obj in self.castable_zones(name)

    def costs_more_than(self, obj: GameObject, available: int) -> bool:
        """Whether casting ``obj`` costs more than ``available`` mana however it is cast: a
        card cast from its owner's hand without a permission costs its mana cost and perhaps
        more (spell_cost never lowers one), so at least its mana value."""
        return (obj.card.mana_value > available and obj.zone == HAND
                and obj.id not in self.permissions)

    def spell_cost(self, obj: GameObject, targets: int, kicked: bool = False) -> mana.Cost:
        """What casting ``obj`` with that many targets costs now, kicked or not. (Only ever
        the mana cost or an alternative cost, then added to: costs_more_than() relies on it.)
        """
        impl = obj.impl
        permission = self.permissions.get(obj.id)
        if permission is not None and permission.cost is not None:
            # A granted flashback: its cost instead of the mana cost. (Think Twice given one by
            # Snapcaster Mage has two; the engine takes the granted one, never dearer.)
            cost = permission.cost
        elif obj.zone == GRAVEYARD and impl.flashback is not None:
            cost = impl.flashback
        else:
            cost = mana.cost_of(obj.card.cost)
        if permission is not None and permission.extra:
            # "Each spell cast this way costs {1} more": the effect that let the card be cast
            # refers to the spell it becomes (modern 400.7h).
            cost = cost.plus_generic(permission.extra)
        spell = impl.spell
        if spell is not None and spell.extra_target_cost and targets > 1:
            cost = cost.plus_generic(spell.extra_target_cost * (targets - 1))
        if kicked and impl.kicker is not None:
            cost = cost.plus(impl.kicker)
        return cost

    # -- the checks: activating an ability ----------------------------------------------------

    def _activation_refusal(self, action: Action, obj: GameObject | None) -> str | None:
        if obj is None or obj.zone != BATTLEFIELD or obj.phased_out:
            return "not_on_battlefield"
        if obj.controller != action.player:
            return "not_controller"
        abilities = self.abilities(obj)
        if action.ability is None or not 0 <= action.ability < len(abilities):
            return "no_such_ability"
        spec = abilities[action.ability]
        name = action.player
        sorcery_ok = self.active == name and self.step in MAIN_STEPS and not self.stack
        code = self.ability_refusal(obj, spec, sorcery_ok)
        if code is not None:
            return code
        cost = spec.cost
        if cost is not None and cost.x and action.x is None:
            return "x_required"
        if (cost is None or not cost.x) and action.x is not None:
            return "x_not_allowed"
        if cost is not None and cost.x and not mana.can_pay(self.players[name].pool, cost,
                                                            action.x or 0):
            return "cannot_pay"
        targets = action.targets
        if len(targets) != len(spec.targets):
            return "wrong_target_count"
        if len(set(targets)) != len(targets):
            return "duplicate_target"
        for target_spec, target in zip(spec.targets, targets, strict=True):
            if (spec.equip and target == obj.id) or not self.target_legal(target_spec, name,
                                                                          target, obj):
                return "illegal_target"
        return None

    def ability_refusal(self, obj: GameObject, spec: AbilitySpec, sorcery_ok: bool,
                        pool: list[int] | None = None) -> str | None:
        """Whether ``obj``'s controller may activate ``spec`` now, targets aside: its timing
        and every cost but X, the mana paid from ``pool`` (the controller's, unless given)."""
        if spec.tap:
            if obj.tapped:
                return "already_tapped"
            # Haste lets a creature use {T} abilities at once (2004 212.3d, 2004 502.5). (The
            # cache test of chars() inlined: asked of every untapped land on every listing.)
            chars = obj._chars if obj._chars_version == self.version else self.chars(obj)
            sick = "Creature" in chars.types and self.is_sick(obj)  # type: ignore[union-attr]
            if sick and not self.has(obj, "haste"):
                return "summoning_sick"
        if (spec.sorcery_speed or spec.equip or spec.loyalty is not None) and not sorcery_ok:
            return self.timing_refusal(obj.controller)
        if spec.during_combat and PHASE_OF_STEP[self.step] != COMBAT:
            return "not_during_combat"
        if spec.loyalty is not None:
            if obj.loyalty_used == self.turn:
                return "loyalty_used"  # one loyalty ability per planeswalker per turn
            if spec.loyalty < 0 and obj.counters.get("loyalty", 0) < -spec.loyalty:
                return "not_enough_loyalty"
        if spec.remove_counter is not None and not obj.counters.get(spec.remove_counter):
            return "no_counter_to_remove"
        if spec.unattach and self._granting_equipment(obj, spec) is None:
            return "not_attached"
        if spec.cost is not None and mana.max_x(
                self.players[obj.controller].pool if pool is None else pool, spec.cost) < 0:
            return "cannot_pay"
        return None

    # -- paying ------------------------------------------------------------------------------

    def _check_paying(self, action: Action) -> None:
        """A cast or activation whose cost is paid by activating mana abilities as it is paid
        (2004 rule 409.1f; modern 601.2g): the named sources, every one of them, or the sources
        the engine picks ("auto": as few as possible, mana in the pool first). The action is
        legal if it would be with their mana in the pool."""
        if self.result.over:
            raise refuse(self, action, "game_over")
        if action.kind not in ("cast", "activate"):
            raise IllegalActionError("unexpected_payment", f"{action.kind} takes no pay_with")
        bare = self._canonical(action._replace(pay_with=None))
        player = self.players[action.player]
        plan = self._payment_plan(action)
        real = player.pool
        if plan is not None:
            player.pool = list(real)
            for _, _, made in plan:
                for slot, amount in enumerate(made):
                    player.pool[slot] += amount
        try:
            code = self.refusal(bare)
        finally:
            player.pool = real
        if code is not None:
            raise refuse(self, bare, code)
        if plan is None:
            raise IllegalActionError("cannot_pay", "the mana sources cannot pay the cost")
        if bare.payment is not None:
            self._check_payment_with(bare, plan)

    def _payment_plan(self, action: Action, sources: list[Any] | None = None,
                      memo: dict[tuple[Any, ...], list[int] | None] | None = None
                      ) -> list[tuple[GameObject, int, mana.Production]] | None:
        """The sources to activate, each with the ability and what it adds, or None if they
        cannot pay (``sources``: the player's, if already known; ``memo``: the plans already
        made from those sources, by cost). Raises for a named object that is not a mana
        source of the player."""
        cost = self._cost_of(action)
        if cost is None:
            return []  # the action is illegal anyway: refusal() says why
        if sources is None:
            sources = self.mana_sources(action.player)
        if action.pay_with == "auto":
            chosen = list(sources)
        else:
            by_id = {obj.id: (obj, options) for obj, options in sources}
            chosen = []
            for ident in action.pay_with or ():
                if ident not in by_id:
                    raise IllegalActionError(
                        "not_a_mana_source", f"object {ident} is not a mana source that "
                        f"player {action.player} can activate now")
                chosen.append(by_id[ident])
        if action.kind == "activate" and any(obj.id == action.card for obj, _ in chosen):
            spec = self._ability_spec(action)
            if spec is not None and spec.tap and action.pay_with != "auto":
                raise IllegalActionError("already_tapped", "a source tapped for mana cannot "
                                         "also pay the {T} of the ability")
            if spec is not None and spec.tap:
                chosen = [c for c in chosen if c[0].id != action.card]
        # The same sources pay for many listed actions (one per target): their plan is the
        # same for the same cost and the same sources left.
        key = (cost, action.x, len(chosen), action.card if len(chosen) < len(sources) else None)
        if memo is not None and action.pay_with == "auto" and key in memo:
            picks = memo[key]
        else:
            picks = mana.plan_sources(self.players[action.player].pool,
                                      [[p for _, _, p in options] for _, options in chosen],
                                      cost, action.x or 0, use_all=action.pay_with != "auto")
            if memo is not None and action.pay_with == "auto":
                memo[key] = picks
        if picks is None:
            return None
        return [(obj, options[pick][0], options[pick][2])
                for (obj, options), pick in zip(chosen, picks, strict=True) if pick >= 0]

    def _cost_of(self, action: Action) -> mana.Cost | None:
        obj = self.objects.get(action.card) if action.card is not None else None
        if obj is None:
            return None
        if action.kind == "cast":
            return self.spell_cost(obj, len(action.targets), action.kicked)
        spec = self._ability_spec(action)
        if spec is None:
            return None
        return spec.cost or NO_COST

    def _ability_spec(self, action: Action) -> AbilitySpec | None:
        obj = self.objects.get(action.card) if action.card is not None else None
        if obj is None or obj.zone != BATTLEFIELD:
            return None
        abilities = self.abilities(obj)
        index = action.ability or 0
        return abilities[index] if 0 <= index < len(abilities) else None

    def _check_payment(self, action: Action) -> None:
        cost = self._cost_of(action) or NO_COST
        try:
            mana.check_payment(self.players[action.player].pool, cost, action.x or 0,
                               dict(action.payment or ()))
        except ValueError as exc:
            raise IllegalActionError("bad_payment", str(exc)) from None

    def _check_payment_with(self, action: Action,
                            plan: list[tuple[GameObject, int, mana.Production]]) -> None:
        pool = list(self.players[action.player].pool)
        for _, _, made in plan:
            for slot, amount in enumerate(made):
                pool[slot] += amount
        cost = self._cost_of(action) or NO_COST
        try:
            mana.check_payment(pool, cost, action.x or 0, dict(action.payment or ()))
        except ValueError as exc:
            raise IllegalActionError("bad_payment", str(exc)) from None

    def _canonical(self, action: Action) -> Action:
        """"Any number of targets" is a set: list it in the canonical order (objects by id,
        then players), as :meth:`legal_actions` does. A division of combat damage is a set of
        ``(recipient, amount)`` pairs too (no damage assignment order: modern 510.1c, 2004
        310.2c): its pairs in the order the decision lists the recipients."""
        if action.kind == "cast" and len(action.targets) > 1:
            obj = self.objects.get(action.card) if action.card is not None else None
            if obj is not None and obj.impl.spell is not None and obj.impl.spell.max_targets:
                return action._replace(targets=tuple(sorted(action.targets, key=target_key)))
        decision = self.decision
        if (action.kind == "choose" and decision is not None and decision.options
                and decision.kind == "assign_combat_damage"
                and isinstance(action.choice, tuple)):
            place = {pair[0]: i for i, pair in enumerate(decision.options[0].choice)}
            pairs = action.choice
            if len(pairs) == len(place) and all(
                    isinstance(p, tuple) and len(p) == 2 and p[0] in place for p in pairs) and (
                    len({p[0] for p in pairs}) == len(place)):
                return action._replace(choice=tuple(sorted(pairs, key=lambda p: place[p[0]])))
        return action

    def mana_sources(self, name: str, verdicts: dict[tuple[int, int], bool] | None = None
                     ) -> list[tuple[GameObject, list[tuple[int, str | None, mana.Production]]]]:
        """The player's permanents with a mana ability they can activate now whose only cost
        is {T}, each with its options: (ability index, colour chosen or None, mana added).
        ``verdicts``, if given, receives whether each of those abilities of an untapped
        permanent may be activated, by (object id, ability index)."""
        sorcery_ok = self.active == name and self.step in MAIN_STEPS and not self.stack
        found = []
        if self._tables_version != self.version:
            self._build_tables()
        # What an untapped source's abilities may do is asked again at every listing while
        # only its tapping changes: it is remembered for what ability_refusal() reads of an
        # untapped source of a free {T} mana ability besides it (the state version, the turn
        # for summoning sickness, the step and the timing).
        key = (self.version, self.turn, self.step, sorcery_ok)
        memo = self._mana_memo.get(name)
        if memo is None or memo[0] != key:
            memo = self._mana_memo[name] = (key, {})
        known = memo[1]
        for obj, specs in self._mana_tables[name]:
            if obj.tapped:
                continue
            answer = known.get(obj.id)
            if answer is None:
                options: list[tuple[int, str | None, mana.Production]] = []
                allowed_by: list[tuple[tuple[int, int], bool]] = []
                for spec, made in specs:
                    allowed = self.ability_refusal(obj, spec, sorcery_ok) is None
                    allowed_by.append(((obj.id, made[0][0]), allowed))
                    if allowed:
                        options.extend(made)
                answer = known[obj.id] = (options, allowed_by)
            if verdicts is not None:
                verdicts.update(answer[1])
            if answer[0]:
                found.append((obj, answer[0]))
        return found

    # -- listing -----------------------------------------------------------------------------

    def _ability_table(self, name: str) -> list[tuple[GameObject, int, AbilitySpec, bool]]:
        """The activated abilities of the permanents ``name`` controls, in battlefield then
        protocol order, each with whether its mana cost is free."""
        if self._tables_version != self.version:
            self._build_tables()
        return self._ability_tables[name]

    def _build_tables(self) -> None:
        # Which permanents are there, who controls them, whether they are phased out and what
        # abilities they have all change only with the state version: scanning the board for
        # them once per version, not on every priority, is most of what listing actions costs.
        version = self.version
        abilities: dict[str, list[tuple[GameObject, int, AbilitySpec, bool]]] = {
            name: [] for name in PLAYERS}
        sources: dict[str, list[tuple[GameObject, _Makes]]] = {name: [] for name in PLAYERS}
        for obj in self.battlefield:
            if obj.phased_out:
                continue
            own = self.abilities(obj)
            if not own:
                continue
            # The object's entries of the last table are still right while it has the same
            # abilities (the tuple: characteristics not recomputed keep theirs): only they and
            # the object go into them, not who controls it.
            entries = obj._table_entries
            if entries is None or entries[0] is not own:
                entries = obj._table_entries = _object_entries(obj, own)
            controller = obj.controller
            abilities[controller] += entries[1]
            if entries[2] is not None:
                sources[controller].append(entries[2])
        self._ability_tables = abilities
        self._mana_tables = sources
        self._tables_version = version

    def _priority_actions(self, name: str) -> list[Action]:
        """What the player with priority may do: pass, then the actions the pool pays for, then
        the casts and activations that mana abilities would pay for, with ``pay_with: "auto"``.

        One pass over the cards and abilities: each candidate is made once, with the pool as
        it would be if every mana source added all it can (a superset, worked out only when a
        candidate costs mana), and listed by what pays for it: the pool, or the sources (each
        such plan checked at the end)."""
        player = self.players[name]
        pool = player.pool
        actions = [self._pass_action[name]]
        costly: list[Action] = []  # payable only with mana abilities, if at all
        sources: list[Any] | None = None
        more: list[int] | None = None  # the superset pool, once a candidate costs mana
        # Whether the mana abilities of untapped sources may be activated, as found while
        # finding the sources: the same question the listing of those abilities asks.
        verdicts: dict[tuple[int, int], bool] = {}
        sorcery_ok = self.active == name and self.step in MAIN_STEPS and not self.stack
        cards = player.hand
        extra = self.castable_zones(name) if (
            player.graveyard or player.library or self.permissions) else ()
        if extra:
            cards = cards + extra
        if self.land_play_refusal(name, sorcery_ok) is None:
            actions.extend(Action("play_land", name, card=o.id) for o in cards
                           if self.land_refusal(o) is None)
        refusals = self.cast_timing_refusals(name, cards, sorcery_ok)
        # ``None in`` is one scan in C: most listings find no card castable at this timing.
        castable = [o for o, refused in zip(cards, refusals, strict=True) if refused is None] if (
            None in refusals) else ()
        for obj in castable:
            if more is None:
                sources, more = self._with_sources(name, pool, verdicts)
                available = sum(more)
            if self.costs_more_than(obj, available):
                continue  # most of a tapped-out player's hand, found without working out costs
            self._spell_actions(actions, costly, name, obj, pool, more)
        for obj, index, spec, free in self._ability_table(name):
            if spec.tap and obj.tapped:
                continue  # ability_refusal() says no first thing: most lands, most of the time
            if free:
                allowed = verdicts.get((obj.id, index)) if verdicts else None
                if allowed is None:
                    self._ability_actions(actions, costly, name, obj, index, spec, sorcery_ok,
                                          pool, pool)
                elif allowed:
                    actions.append(self._activation(name, obj, index))  # no targets, no X
                continue
            if more is None:
                sources, more = self._with_sources(name, pool, verdicts)
            self._ability_actions(actions, costly, name, obj, index, spec, sorcery_ok, pool,
                                  more)
        if costly:
            assert sources is not None and more is not None
            memo: dict[tuple[Any, ...], list[int] | None] = {}
            # With every source adding one thing (a basic land), ``more`` is what tapping them
            # all adds: some of them pay exactly when all of them do, and no search is needed
            # to list the action (perform() still makes the plan).
            exact = all(len(options) == 1 for _, options in sources)
            for action in costly:
                # _replace() without its keyword machinery: pay_with is the last field.
                paid = Action._make((*action[:-1], "auto"))
                if exact and (action.kind == "cast" or not any(
                        obj.id == action.card for obj, _ in sources)):
                    cost = self._cost_of(paid)
                    if cost is not None and mana.can_pay(more, cost, action.x or 0):
                        actions.append(paid)
                elif self._payment_plan(paid, sources, memo):
                    actions.append(paid)
        return actions

    def _with_sources(self, name: str, pool: list[int], verdicts: dict[tuple[int, int], bool]
                      ) -> tuple[list[Any], list[int]]:
        """The player's mana sources, and the pool with every source adding every mana it can
        (``pool`` itself if there is no source)."""
        sources = self.mana_sources(name, verdicts)
        if not sources:
            return sources, pool
        # Most sources have one option, a basic land's: its mana is the most it adds.
        w, u, b, r, g, c = pool
        for _, options in sources:
            most = options[0][2] if len(options) == 1 else _most(options)
            w += most[0]
            u += most[1]
            b += most[2]
            r += most[3]
            g += most[4]
            c += most[5]
        return sources, [w, u, b, r, g, c]

    def _spell_actions(self, actions: list[Action], costly: list[Action], name: str,
                       obj: GameObject, pool: list[int], more: list[int]) -> None:
        """The casts of ``obj``: into ``actions`` those the pool pays for, into ``costly``
        those only ``more`` (the pool and the mana sources) could."""
        impl = obj.impl
        spell = impl.spell
        kicks = (False, True) if impl.kicker is not None else (False,)
        for kicked in kicks:
            base = self.spell_cost(obj, 1, kicked)
            most = mana.max_x(more, base)
            if most < 0:
                return
            real = most if more is pool else mana.max_x(pool, base)
            if impl.enchant is not None:
                into = actions if real >= 0 else costly
                for target in self.target_candidates(impl.enchant, name, obj):
                    if target != obj.id:
                        into.append(Action("cast", name, card=obj.id, targets=(target,),
                                           kicked=kicked))
                continue
            if spell is None or not spell.targets:
                plain, dear = _x_split(base, real, most)
                for x in plain:
                    actions.append(Action("cast", name, card=obj.id, x=x, kicked=kicked))
                for x in dear:
                    costly.append(Action("cast", name, card=obj.id, x=x, kicked=kicked))
                continue
            if spell.max_targets:
                candidates = sorted(self.target_candidates(spell.targets[0], name, obj),
                                    key=target_key)
                # "Any number of targets" has exponentially many choices: the list shows
                # those with up to LISTED_TARGETS targets; perform() accepts any number.
                top = min(spell.max_targets, len(candidates), LISTED_TARGETS)
                for count in range(1, top + 1):
                    cost = self.spell_cost(obj, count, kicked)
                    most = mana.max_x(more, cost)
                    if most < 0:
                        break
                    real = most if more is pool else mana.max_x(pool, cost)
                    plain, dear = _x_split(cost, real, most)
                    for combo in itertools.combinations(candidates, count):
                        for x in plain:
                            actions.append(Action("cast", name, card=obj.id, targets=combo,
                                                  x=x, kicked=kicked))
                        for x in dear:
                            costly.append(Action("cast", name, card=obj.id, targets=combo,
                                                 x=x, kicked=kicked))
                continue
            pools = [self.target_candidates(spec, name, obj) for spec in spell.targets]
            plain, dear = _x_split(base, real, most)
            for combo in itertools.product(*pools):
                if len(set(combo)) != len(combo):
                    continue
                for x in plain:
                    actions.append(Action("cast", name, card=obj.id, targets=combo, x=x,
                                          kicked=kicked))
                for x in dear:
                    costly.append(Action("cast", name, card=obj.id, targets=combo, x=x,
                                         kicked=kicked))

    def _activation(self, name: str, obj: GameObject, index: int) -> Action:
        """The activation of an ability without targets or X: the same action is listed
        again at every priority (each untapped land's mana ability), so made once per game."""
        key = (name, obj.id, index)
        action = self._activations.get(key)
        if action is None:
            action = self._activations[key] = Action("activate", name, card=obj.id,
                                                     ability=index)
        return action

    def _ability_actions(self, actions: list[Action], costly: list[Action], name: str,
                         obj: GameObject, index: int, spec: AbilitySpec, sorcery_ok: bool,
                         pool: list[int], more: list[int]) -> None:
        """The activations of one ability: into ``actions`` those the pool pays for, into
        ``costly`` those only ``more`` (the pool and the mana sources) could."""
        if self.ability_refusal(obj, spec, sorcery_ok, more) is not None:
            return
        cost = spec.cost
        paid = more is pool or cost is None or mana.max_x(pool, cost) >= 0
        if not spec.targets:
            if not cost or not cost.x:
                (actions if paid else costly).append(self._activation(name, obj, index))
                return
            most = mana.max_x(more, cost)
            plain, dear = _x_split(cost, most if more is pool else mana.max_x(pool, cost), most)
            for x in plain:
                actions.append(Action("activate", name, card=obj.id, ability=index, x=x))
            for x in dear:
                costly.append(Action("activate", name, card=obj.id, ability=index, x=x))
            return
        into = actions if paid else costly
        pools = [self.target_candidates(t, name, obj) for t in spec.targets]
        for combo in itertools.product(*pools):
            if len(set(combo)) == len(combo) and (not spec.equip or combo[0] != obj.id):
                into.append(Action("activate", name, card=obj.id, ability=index,
                                   targets=combo))


#: what a mana ability can add, each way: (its index, the colour chosen or None, the mana)
_Made = tuple[tuple[int, str | None, mana.Production], ...]
#: a permanent's mana abilities costing only {T}, each with what it can add
_Makes = tuple[tuple[AbilitySpec, _Made], ...]
#: an object's entries in the tables, for its tuple of abilities: its activated abilities,
#: and its mana abilities costing only {T} (None: it has none)
_Entries = tuple[tuple[AbilitySpec, ...], list[tuple[GameObject, int, AbilitySpec, bool]],
                 tuple[GameObject, _Makes] | None]
_SORTED: dict[int, tuple[tuple[AbilitySpec, ...], tuple[tuple[int, AbilitySpec, bool], ...],
                         _Makes]] = {}


def _sorted_abilities(abilities: tuple[AbilitySpec, ...]
                      ) -> tuple[tuple[tuple[int, AbilitySpec, bool], ...], _Makes]:
    """A permanent's activated abilities, each with its index and whether its mana cost is
    free, and its mana abilities costing only {T} with their options (see mana_sources):
    worked out once per tuple of abilities (characteristics that did not change keep theirs,
    and a basic land's are shared), the tuple checked by identity."""
    known = _SORTED.get(id(abilities))
    if known is not None and known[0] is abilities:
        return known[1], known[2]
    entries: list[tuple[int, AbilitySpec, bool]] = []
    makes: list[tuple[AbilitySpec, _Made]] = []
    for index, spec in enumerate(abilities):
        free = spec.cost is None or spec.cost.is_free
        entries.append((index, spec, free))
        if (spec.produces is not None or spec.any_color) and spec.tap and free and (
                not spec.sacrifice):
            made: _Made
            if spec.any_color:
                made = tuple((index, c, mana.production((c,))) for c in COLORS)
            else:
                made = ((index, None, mana.production(spec.produces or ())),)
            makes.append((spec, made))
    if len(_SORTED) > 4096:
        _SORTED.clear()  # tuples of characteristics long recomputed: keep the memo small
    found = (tuple(entries), tuple(makes))
    _SORTED[id(abilities)] = (abilities, *found)
    return found


def _object_entries(obj: GameObject, abilities: tuple[AbilitySpec, ...]) -> _Entries:
    """``obj``'s entries in the ability and mana tables while it has ``abilities`` (see
    Legality._build_tables)."""
    entries, makes = _sorted_abilities(abilities)
    return (abilities, [(obj, index, spec, free) for index, spec, free in entries],
            (obj, makes) if makes else None)


def _most(options: list[tuple[int, str | None, mana.Production]]) -> mana.Production:
    """The most mana of each type one of a source's options adds."""
    return (max(made[0] for _, _, made in options), max(made[1] for _, _, made in options),
            max(made[2] for _, _, made in options), max(made[3] for _, _, made in options),
            max(made[4] for _, _, made in options), max(made[5] for _, _, made in options))


_PAID: tuple[list[int | None], list[int | None]] = ([None], [])
_UNPAID: tuple[list[int | None], list[int | None]] = ([], [None])


def _x_split(cost: mana.Cost, real: int, most: int
             ) -> tuple[Sequence[int | None], Sequence[int | None]]:
    """The X values (None: the cost has no X) the pool pays for, and those only the mana
    sources could, from the largest X each pays for (``real``: the pool's, ``most``: the pool
    and the sources'; -1 if none)."""
    if not cost.x:
        return _PAID if real >= 0 else _UNPAID
    return range(real + 1), range(max(real + 1, 0), most + 1)
