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
from reference_engine.layers import Layers
from reference_engine.objects import (
    GameObject,
    StackItem,
    TargetSpec,
)


class Targets(Layers):
    """Targets and their legality, for the layers above."""

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
        return spec.allows is None or spec.allows(self.card_api, controller, value)

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
        return [t for t in self.target_candidates(spec, controller)
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
        return self.target_legal(spec, aura.controller, target)

    def _equipment_legal(self, equipment: GameObject) -> bool:
        target = self.objects.get(equipment.attached_to) if isinstance(
            equipment.attached_to, int) else None
        if target is None or target.zone != BATTLEFIELD or target is equipment:
            return False
        if "Creature" in self.chars(equipment).types:
            return False  # an Equipment that is a creature can't equip (212.2i)
        return "Creature" in self.chars(target).types
