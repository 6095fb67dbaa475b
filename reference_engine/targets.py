"""Targets: what a target specification may name, and whether a target is legal.

One check, :meth:`Targets.target_legal`, decides every target: the legal-action listing draws
its candidates through it, casting and activating check each target with it, and a spell or
ability rechecks its targets with it as it resolves.
"""

from __future__ import annotations

from typing import Any

from reference_engine.constants import (
    BATTLEFIELD,
    EXILE,
    GRAVEYARD,
    PLAYERS,
    STACK,
)
from reference_engine.keywords import NO_GUARDS, guards, protected_from
from reference_engine.layers import Layers
from reference_engine.objects import (
    GameObject,
    StackItem,
    TargetSpec,
)


class Targets(Layers):
    """Targets and their legality, for the layers above."""

    def target_candidates(self, spec: TargetSpec, controller: str,
                          source: GameObject | None = None, *, enchanting: bool = False
                          ) -> list[int | str]:
        """The legal targets for ``spec`` chosen by ``controller`` for a spell or ability of
        ``source``: what a target of its kind could be, filtered by :meth:`target_legal`, the
        one check of a target."""
        legal = self.target_legal
        return [t for t in self._target_universe(spec.kind)
                if legal(spec, controller, t, source, enchanting=enchanting)]

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

    def target_legal(self, spec: TargetSpec, controller: str, target: int | str,
                     source: GameObject | None = None, *, enchanting: bool = False) -> bool:
        """Whether ``target`` may be chosen for ``spec`` by ``controller``, for a spell or an
        ability whose source is ``source`` (the spell itself, or the ability's source: what
        protection asks about; None: nothing to ask), or, ``enchanting``, whether an Aura
        (``source``) may enchant it without targeting it: as it enters without being cast,
        and as long as it stays attached (shroud and hexproof then play no part, protection
        does: modern 702.16c, 702.18a, 702.11b; 2004 502.7a)."""
        if isinstance(target, str):
            return spec.kind in ("player", "creature_or_player") and (
                spec.allows is None or spec.allows(self.card_api, controller, target))
        kind = spec.kind
        # _target_value() inlined for an object not on the stack: most targets, and the
        # listing asks of every permanent for every targeted spell and ability.
        value: Any = self.objects.get(target)
        if value is None or value.zone == STACK:
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
            # The cache test of chars() inlined, as above.
            chars = value._chars if value._chars_version == self.version else self.chars(value)
            types = chars.types  # type: ignore[union-attr]
            if kind == "land" and "Land" not in types:
                return False
            if kind == "creature" and "Creature" not in types:
                return False
            if kind == "creature_or_player" and not (
                    "Creature" in types or (self.planeswalkers and "Planeswalker" in types)):
                return False
            keywords = chars.keywords  # type: ignore[union-attr]
            if keywords and self._guarded(keywords, value, controller, source, enchanting):
                return False
        return spec.allows is None or spec.allows(self.card_api, controller, value)

    def _guarded(self, keywords: frozenset[str], value: GameObject, controller: str,
                 source: GameObject | None, enchanting: bool) -> bool:
        """Whether a permanent with ``keywords`` keeps this spell or ability (or Aura) away:
        shroud, no spell or ability at all (modern 702.18a; 2004: the card's "can't be the
        target of spells or abilities"); hexproof, none an opponent of its controller
        controls (modern 702.11b; 2004 Troll Ascetic's text); protection, none with the
        quality: a spell of that colour, an ability whose source has it, an Aura of it
        (modern 702.16b-c, 2004 502.7a). The source's colours are those it has now, or last
        had if it has left its zone."""
        found = guards(keywords)
        if found is NO_GUARDS:
            return False
        if not enchanting and (found.shroud or (found.hexproof
                                                and value.controller != controller)):
            return True
        if found.colors and source is not None:
            return not found.colors.isdisjoint(self.known_chars(source).colors)
        return False

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
        source = item_source(item)
        return [t for spec, t in zip(specs, item.targets, strict=False)
                if self.target_legal(spec, item.controller, t, source)]

    def targeted_objects(self, item: StackItem) -> list[int]:
        """The item's legal targets that are objects (of a spec that names objects)."""
        return [t for t in self.legal_targets_of(item) if isinstance(t, int)]

    def targeted_players(self, item: StackItem) -> list[str]:
        """The item's legal targets that are players."""
        return [t for t in self.legal_targets_of(item) if isinstance(t, str)]

    def aura_candidates(self, aura: GameObject, controller: str) -> list[int | str]:
        spec = aura.impl.enchant
        if spec is None:
            return []
        return [t for t in self.target_candidates(spec, controller, aura, enchanting=True)
                if t != aura.id]

    def enchant_spec(self, aura: GameObject) -> TargetSpec:
        """What an Aura may enchant: its enchant ability, unless an effect changed it."""
        spec = aura.chosen.get("enchant") or aura.impl.enchant
        assert spec is not None
        return spec

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
        return self.target_legal(spec, aura.controller, target, aura, enchanting=True)

    def _equipment_legal(self, equipment: GameObject) -> bool:
        target = self.objects.get(equipment.attached_to) if isinstance(
            equipment.attached_to, int) else None
        if target is None or target.zone != BATTLEFIELD or target is equipment:
            return False
        if "Creature" in self.chars(equipment).types:
            return False  # an Equipment that is a creature can't equip (212.2i)
        if protected_from(self.chars(target).keywords, self.chars(equipment).colors):
            # Protection: no Equipment of the quality (modern 702.16d; the June-2004 502.7 is
            # not known to say it, and the modern rule is followed).
            return False
        return "Creature" in self.chars(target).types


def item_source(item: StackItem) -> GameObject | None:
    """The object a spell or ability on the stack comes from: the spell itself, or the
    ability's source (as it last existed, if it has left)."""
    return item.obj if item.obj is not None else item.source
