"""Characteristics after continuous effects, control, and per-player rule changes.

Characteristics are computed per object and cached until anything that could change them
happens (``Game.changed`` bumps a version number). Effects apply in layer order, then by
timestamp: control (2), type (4), colour (5), abilities (6), power/toughness (7: defining
values, then setting, then modifying, then counters). An effect's ``applies`` sees the
characteristics as the earlier layers left them, so "all creatures" includes a land made a
creature in layer 4.
"""

from __future__ import annotations

from typing import Any

from reference_engine import events as ev
from reference_engine.constants import BATTLEFIELD, STACK
from reference_engine.objects import (
    CONTROL,
    AbilitySpec,
    Chars,
    ContinuousEffect,
    GameObject,
    PlayerRules,
    StaticSpec,
    attached_to_source,
)
from reference_engine.state import GameState

#: where continuous effects apply, so characteristics depend on more than the card
_BOARD_ZONES = frozenset((BATTLEFIELD, STACK))
_BASIC_MANA = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}
BASIC_ABILITIES = {
    subtype: AbilitySpec(f"{{T}}: Add {{{color}}}.", tap=True, produces=(color,))
    for subtype, color in _BASIC_MANA.items()
}


#: Continuous.one of an effect that may apply to any object
_ANY: Any = object()


class Continuous:
    """One continuous effect in force: from a static ability or from a resolved effect.
    ``one``: the id of the one object it may apply to (``applies`` holds of no other), or
    ``_ANY``."""

    __slots__ = ("applies", "grants_triggers", "layer", "modify", "one", "source",
                 "timestamp")

    def __init__(self, layer: float, timestamp: int, source: GameObject | None,
                 applies: Any, modify: Any, one: Any = _ANY,
                 grants_triggers: bool = False) -> None:
        self.layer = layer
        self.timestamp = timestamp
        self.source = source
        self.applies = applies
        self.modify = modify
        self.one = one
        #: it may give triggered abilities (StaticSpec.grants_triggers)
        self.grants_triggers = grants_triggers


class Layers(GameState):
    """Characteristics, control and player rules for :class:`~reference_engine.game.Game`."""

    def chars(self, obj: GameObject) -> Chars:
        cached = obj._chars
        if cached is not None:
            if obj._chars_version == self.version:
                return cached
            # Computed from the object alone (see below) and still in that zone, or computed
            # on the battlefield from the card and effects on it alone that would make the
            # same again: nothing a new state version brings has changed it.
            if obj._chars_zone == obj.zone or (obj._chars_one is not None and self._same_again(
                    obj, cached)):
                obj._chars_version = self.version
                return cached
        computing = self._computing
        if obj.id in computing:
            # A dependency loop (two Nightmares counting each other): the object's printed
            # characteristics answer the inner question.
            return self._printed_chars(obj)
        computing.add(obj.id)
        reads = self._effects_reads
        try:
            chars = self._compute_chars(obj)
        finally:
            computing.discard(obj.id)
        obj._chars = chars
        obj._chars_version = self.version
        zone = obj.zone
        obj._chars_one = chars.applied if (
            zone == BATTLEFIELD and not obj.counters and not obj.face_down
            and obj.impl.cda is None and _on_one_object(chars.applied)) else None
        # A card in a hand, library, graveyard or exile that consulted no continuous effect
        # and has no characteristic-defining ability has characteristics that depend on the
        # card alone (its card, face and zone, none of which changes in place there): they
        # stay valid across state versions until it changes zones. Most of a game's
        # recomputations are of cards in hand after a change on the battlefield.
        obj._chars_zone = zone if (zone not in _BOARD_ZONES and self._effects_reads == reads
                                   and obj.impl.cda is None) else -1
        return chars

    def _same_again(self, obj: GameObject, chars: Chars) -> bool:
        """Whether a permanent's characteristics, ``chars``, computed from its card and the
        effects on it alone in ``obj._chars_one`` (none: from the card alone), would be
        computed the same now.

        They are if it is as it was (no counters, face up, on the battlefield), the effects
        on it alone are the same (the same objects, made anew whenever what they are changes:
        _static_effects, _resolved_effect) and no other effect applies. Each of those holds
        of its one object exactly (it is a comparison of ids) and changes the
        characteristics by them alone (tests/test_engine_version_caches.py holds their
        ``modify`` to that). Whether another effect applies is asked only of characteristics
        computed from the card alone: each effect's ``applies`` reads the characteristics
        the earlier layers left, the card's own, which differ from ``chars`` only in what no
        ``applies`` reads (the abilities, power and toughness of a noncreature); asked of
        each effect in order, as a recomputation would."""
        if obj.counters or obj.face_down or obj.zone != BATTLEFIELD:
            return False
        # Counted as a read, and brings the lists below up to date (continuous_effects()
        # inlined when it is: asked for every permanent after each new state version).
        if self._effects_version == self.version:
            self._effects_reads += 1
        else:
            self.continuous_effects()
        oid = obj.id
        one = obj._chars_one
        if self._effects_one.get(oid, ()) != one:
            return False  # an effect on it alone began, ended or is made anew
        effects = self._effects_open
        if not effects:
            return True
        if one:
            return False  # the others would see it as those effects left it: worked out again
        computing = self._computing
        if oid in computing:
            return False  # a dependency loop: chars() answers with the printed characteristics
        computing.add(oid)
        try:
            # A plain loop, not any(): no generator on a path taken for every permanent.
            for applies, source in effects:
                if applies(self, source, obj, chars):
                    return False
        finally:
            computing.discard(oid)
        return True

    def _printed_chars(self, obj: GameObject) -> Chars:
        card = obj.card
        return Chars(card.name, card.cost, card.mana_value, card.colors,
                     _SETS[card.supertypes], _SETS[card.types], card.subtypes, None,
                     None, obj.impl.keywords)

    def _base_chars(self, obj: GameObject) -> Chars:
        card = obj.card
        power = card.power if isinstance(card.power, int) else None
        toughness = card.toughness if isinstance(card.toughness, int) else None
        cost = card.cost
        if cost is None and self.lands_and_tokens_cost_zero and (obj.token or "Land" in card.types):
            cost = "{0}"  # 2004 rule 203.1: unless specified, tokens and lands cost {0}
        mana_value = card.mana_value
        if obj.zone == STACK and obj.cast_info and obj.cast_info.get("x") and cost:
            # X is the number chosen while the spell is on the stack, 0 elsewhere (modern
            # 202.3e; the 2004 seed's 203.3 does not say, so the modern rule is followed).
            mana_value += cost.count("{X}") * obj.cast_info["x"]
        chars = Chars(card.name, cost, mana_value, card.colors,
                      _SETS[card.supertypes], _SETS[card.types], card.subtypes,
                      power, toughness, obj.impl.keywords)
        if obj.impl.cda is not None and self._cda_applies(obj):
            chars.power, chars.toughness = obj.impl.cda(self.card_api, obj)
        elif power is None and card.power == "*":
            chars.power, chars.toughness = 0, 0  # outside play a * is 0 (2004 rule 208.2)
        return chars

    def _compute_chars(self, obj: GameObject) -> Chars:
        chars = self._base_chars(obj)
        if obj.face_down:
            # A face-down card outside the battlefield has no characteristics (406.3a).
            chars = Chars("", None, 0, (), frozenset(), frozenset(), (), None, None,
                          frozenset())
        applied: list[Continuous] = []
        if obj.zone == BATTLEFIELD:
            for effect in self.continuous_effects():
                if effect.layer != CONTROL and effect.applies(self, effect.source, obj, chars):
                    effect.modify(self, effect.source, obj, chars)
                    applied.append(effect)  # chars() tells what it depends on by these
            if applied:
                chars.applied = tuple(applied)
            if obj.counters and chars.power is not None:
                delta = obj.counters.get("+1/+1", 0) - obj.counters.get("-1/-1", 0)
                chars.power += delta
                chars.toughness = (chars.toughness or 0) + delta
        elif obj.zone == STACK and self.effects:
            # A spell has characteristics too; effects of resolved spells may change them.
            for resolved in sorted(self.effects, key=lambda e: (e.layer, e.timestamp)):
                if resolved.applies(obj):
                    resolved.modify(chars)
        if "Creature" not in chars.types:
            chars.power = chars.toughness = None
        impl = obj.impl
        if chars.lost_abilities:
            chars.abilities = tuple(chars.granted)
            chars.triggers = tuple(chars.granted_triggers)
            chars.statics = ()
        else:
            own = impl.abilities
            if own and _binds(own):
                own = tuple(spec if spec.bind is None else spec.bind(spec, obj) for spec in own)
            chars.abilities = own + tuple(chars.granted) if chars.granted else own
            chars.triggers = impl.triggers + tuple(chars.granted_triggers) if (
                chars.granted_triggers) else impl.triggers
            chars.statics = impl.statics
        if "Land" in chars.types:
            intrinsic = _intrinsic(chars.subtypes)
            if intrinsic:
                chars.abilities = intrinsic + chars.abilities
        return chars

    def abilities(self, obj: GameObject) -> tuple[AbilitySpec, ...]:
        """Activated abilities in protocol order: intrinsic basic-land mana abilities first
        (2004 rule 212.6d), then the card's own, then granted ones."""
        # The cache test of chars() inlined: these two are asked on every scan of the board.
        if obj._chars_version == self.version:
            return obj._chars.abilities  # type: ignore[union-attr]
        return self.chars(obj).abilities

    def known_chars(self, obj: GameObject) -> Chars:
        """``obj``'s characteristics as a source of damage or an ability's source sees them:
        as they are while it is on the battlefield (phased in) or the stack; once it has left
        the battlefield, or phased out, as it last existed there, its last known information
        (modern 608.2h, 702.2e, 702.15c; a phased-out permanent is treated as though
        it did not exist, 702.26b; 2004 310.4b: combat damage's source "as it most recently
        existed"). Its characteristics where it is now are its card's (an effect applies only
        to what is on the battlefield, 2004 217.5b), or leave out what phased out with it, not
        what it was. An object that left another zone is known by what it last had there."""
        if obj.id in self.objects and obj.zone in _BOARD_ZONES and not obj.phased_out:
            return self.chars(obj)
        if obj.last_chars is not None:
            return obj.last_chars
        if obj.id not in self.objects and obj._chars is not None:
            return obj._chars
        return self.chars(obj)

    def granting_triggers(self) -> bool:
        """Whether a continuous effect in force may give a permanent triggered abilities (its
        own card aside): the triggers' index then looks at every permanent."""
        for effect in self.continuous_effects():  # noqa: SIM110 - no generator here
            if effect.grants_triggers:
                return True
        return False

    def has(self, obj: GameObject, keyword: str) -> bool:
        if obj._chars_version == self.version:
            return keyword in obj._chars.keywords  # type: ignore[union-attr]
        return keyword in self.chars(obj).keywords

    def continuous_effects(self) -> list[Continuous]:
        """Every continuous effect in force, in layer and timestamp order (cached)."""
        self._effects_reads += 1  # chars() tells what depends on the effects by this count
        if self._effects_version == self.version:
            return self._effects_cache
        found: list[Continuous] = []
        for source in self.battlefield:
            # Read from the card, not from computed characteristics: that would be a cycle.
            # (No card of the pool removes the abilities of a permanent that has a static
            # ability.) A face-down permanent has none.
            statics = source.impl.statics
            if not statics or source.phased_out or source.face_down:
                continue
            found += _static_effects(source, statics)
        for source in self.zones_extra.get("command", ()):
            found += _static_effects(source, source.impl.statics)
        for effect in self.effects:
            found.append(_resolved_effect(effect))
        found.sort(key=lambda e: (e.layer, e.timestamp))
        self._effects_cache = found
        # For _same_again, outside layer 2: the effects that may apply to any object, and by
        # object the others, each of which applies to one (its target, or what its source is
        # attached to), in order. Both are read as they are now, and neither changes without
        # a new state version: a target follows its spell onto the battlefield in a zone
        # change, and every attaching and unattaching (Board.attach, an Aura entering
        # attached, the state-based unattaching, Leonin Bola's cost) calls changed().
        general: list[tuple[Any, Any]] = []
        one: dict[Any, tuple[Continuous, ...]] = {}
        for e in found:
            if e.layer == CONTROL:
                continue
            if e.one is _ANY:
                general.append((e.applies, e.source))
            else:
                one[e.one] = (*one.get(e.one, ()), e)
        self._effects_open = general
        self._effects_one = one
        self._effects_version = self.version
        return found

    # -- control (layer 2) --------------------------------------------------------------------

    def control_effects(self) -> list[Continuous]:
        """The control-changing (layer 2) effects in force, in timestamp order (cached)."""
        if self._control_version != self.version:
            self._control_effects = [e for e in self.continuous_effects() if e.layer == CONTROL]
            self._control_version = self.version
        return self._control_effects

    def controller_under(self, effects: list[Continuous], obj: GameObject, base: str) -> str:
        """The controller the control-changing ``effects`` give ``obj``, whose controller
        without them is ``base`` (the latest timestamp wins)."""
        for effect in effects:
            if effect.applies(self, effect.source, obj, None):
                base = effect.modify(self, effect.source, obj, None)
        return base

    def refresh_control(self) -> None:
        """Apply control-changing effects: each permanent's controller is the one who put it
        onto the battlefield unless a layer-2 effect says otherwise (latest timestamp wins)."""
        effects = self.control_effects()
        if not effects and not self._control_changed:
            return
        changed = False
        for obj in self.battlefield:
            if obj.phased_out:
                # Treated as though it did not exist, it keeps the controller it phased out
                # under, and phases in in that player's untap step (modern 702.26a, d).
                continue
            desired = self.controller_under(effects, obj, obj.base_controller)
            if desired != obj.controller:
                obj.controller = desired
                obj.controlled_since = self.turn
                obj.attacking = False
                obj.blocking = None
                changed = True
                self._events.append(ev.Control(obj.id, desired))
        self._control_changed = any(o.controller != o.base_controller for o in self.battlefield)
        if changed:
            self.changed()

    # -- player rules -------------------------------------------------------------------------

    def player_rules(self, name: str) -> dict[str, Any]:
        """Rules for one player as card text changes them (103.1): land plays, hand size."""
        cached = self._player_rules.get(name)
        # Per version and turn: "this turn" rules change with the turn.
        if cached is not None and cached[0] == self.version and cached[1] == self.turn:
            return cached[2]
        player = self.players[name]
        rules: dict[str, Any] = {
            "land_plays": player.land_plays, "max_hand_size": player.max_hand_size,
            "top_card_revealed": False, "play_top_card": False,
            "cant_play_lands": player.cant_play_lands_turn == self.turn}
        if self._rule_sources_version != self.version:
            # The same for both players and every turn of the version: which permanents
            # are there, phased in, with their rules text, changes only with a new one.
            self._rule_sources = self._player_rule_sources()
            self._rule_sources_version = self.version
        for source, spec in self._rule_sources:
            if spec.applies(self.card_api, source, name):
                rules["land_plays"] += spec.extra_land_plays
                if spec.no_max_hand_size:
                    rules["max_hand_size"] = None
                rules["top_card_revealed"] |= spec.top_card_revealed
                rules["play_top_card"] |= spec.play_top_card
        self._player_rules[name] = (self.version, self.turn, rules)
        return rules

    def _player_rule_sources(self) -> list[tuple[GameObject, PlayerRules]]:
        found = []
        for source in self.battlefield:
            # The card's own rules first: most permanents have none, and then their
            # characteristics need not be looked at.
            if source.phased_out or not source.impl.player_rules:
                continue
            chars = self.chars(source)
            if chars.lost_abilities:
                continue
            for spec in source.impl.player_rules:
                found.append((source, spec))
        return found

    def add_effect(self, effect: ContinuousEffect) -> None:
        self.effects.append(effect)
        self.changed()

    def _expire(self, duration: str) -> None:
        """The effects that last ``duration`` ("turn", "combat", ...) end."""
        kept = [e for e in self.effects if e.duration != duration]
        if len(kept) != len(self.effects):
            self.effects = kept
            self.changed()


class _Sets(dict[tuple[str, ...], frozenset[str]]):
    """The set of each tuple of type words, made once: a card's characteristics start from
    its type line as sets (an effect replaces a set, never changes one, so one is shared by
    every object of every card with those words). Keyed by the words, not by the card: a
    token's card data is new each time, the words are not."""

    def __missing__(self, words: tuple[str, ...]) -> frozenset[str]:
        found = self[words] = frozenset(words)
        return found


_SETS = _Sets()
_BINDS: dict[int, tuple[tuple[AbilitySpec, ...], bool]] = {}
_INTRINSIC: dict[tuple[str, ...], tuple[AbilitySpec, ...]] = {}


def _intrinsic(subtypes: tuple[str, ...]) -> tuple[AbilitySpec, ...]:
    """The mana abilities a land has for its basic land types (2004 212.6d; modern 305.6),
    by its subtypes: a few dozen distinct tuples in a whole game, each worked out once."""
    found = _INTRINSIC.get(subtypes)
    if found is None:
        found = _INTRINSIC[subtypes] = tuple(
            BASIC_ABILITIES[s] for s in subtypes if s in BASIC_ABILITIES)
    return found


def _binds(abilities: tuple[AbilitySpec, ...]) -> bool:
    """Whether any of a card's abilities names its own object (asked once per card, not on
    every computation: the tuples are the card implementations' own, kept for the process)."""
    known = _BINDS.get(id(abilities))
    if known is None or known[0] is not abilities:
        known = _BINDS[id(abilities)] = (abilities,
                                         any(spec.bind is not None for spec in abilities))
    return known[1]


def _on_one_object(effects: tuple[Continuous, ...]) -> bool:
    """Whether each of ``effects`` applies to one object only (see Continuous.one)."""
    for effect in effects:  # noqa: SIM110 - no generator: asked on every computation
        if effect.one is _ANY:
            return False
    return True


def _static_effects(source: GameObject, statics: tuple[StaticSpec, ...]
                    ) -> tuple[Continuous, ...]:
    """The effects of a permanent's (or an emblem's) static abilities: made anew only when
    they, its timestamp or what it is attached to change, all they hold of it
    (Layers._same_again compares them by identity)."""
    made: tuple[Any, int, Any, tuple[Continuous, ...]] | None = source._statics_made
    if (made is None or made[0] is not statics or made[1] != source.timestamp
            or made[2] != source.attached_to):
        made = source._statics_made = (statics, source.timestamp, source.attached_to,
                                       tuple(_static_effect(spec, source) for spec in statics))
    return made[3]


def _static_effect(spec: StaticSpec, source: GameObject) -> Continuous:
    # "Enchanted ..." and "equipped ...": the one object its source is attached to now.
    one = source.attached_to if spec.applies is attached_to_source else _ANY
    return Continuous(spec.layer, source.timestamp, source, spec.applies, spec.modify, one,
                      spec.grants_triggers)


def _resolved_effect(effect: ContinuousEffect) -> Continuous:
    """A resolved effect in force: made anew only when its target changes (following a spell
    onto the battlefield), the one thing of it that may (Layers._same_again compares them by
    identity)."""
    made: tuple[int | None, Continuous] | None = effect._made
    if made is None or made[0] != effect.target:
        made = effect._made = (effect.target, _adapted(effect))
    return made[1]


def _adapted(effect: ContinuousEffect) -> Continuous:
    test = effect.applies
    modify = effect.modify
    if getattr(test, "__func__", None) is ContinuousEffect._on_target:
        # An effect on one object, named by its target: compared here, one call instead of
        # two, and indexed by it.
        return Continuous(effect.layer, effect.timestamp, None,
                          lambda _game, _source, obj, _chars: obj.id == effect.target,
                          lambda _game, _source, _obj, chars: modify(chars), effect.target)
    return Continuous(effect.layer, effect.timestamp, None,
                      lambda _game, _source, obj, _chars: test(obj),
                      lambda _game, _source, _obj, chars: modify(chars))
