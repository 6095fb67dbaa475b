"""Defining cards: :class:`Cards`, the collection each module of
:mod:`reference_engine.cards` defines its cards in, which checks every definition as it is made
and raises :class:`CardDefinitionError` naming the card (a bad card fails when its module is
imported, not when a game first uses it). :mod:`reference_engine.registry` gathers the
modules' collections. What a card is made of (:class:`~reference_engine.objects.CardImpl` and
its specs) is in :mod:`reference_engine.objects`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from reference_engine.constants import MANA_TYPES, STEP_NAMES
from reference_engine.keywords import KEYWORDS
from reference_engine.objects import (
    ABILITY,
    COLOR,
    CONTROL,
    PT_CDA,
    PT_MODIFY,
    PT_SET,
    TYPE,
    AbilitySpec,
    CardImpl,
    PlayerRules,
    SpellSpec,
    StaticSpec,
    TargetSpec,
    TriggerSpec,
)

#: where a target's candidates come from (``Game.target_candidates``, ``Game.target_legal``)
TARGET_KINDS = frozenset((
    "player", "spell", "spell_or_permanent", "card_in_graveyard", "card_in_exile", "permanent",
    "land", "creature_or_player", "creature",
))
#: what a triggered ability can trigger on (``Triggers._matches``)
TRIGGER_EVENTS = frozenset((
    "etb", "creature_etb", "dies", "leaves", "step", "tapped", "tapped_for_mana", "attacks",
    "unblocked", "enchanted_dies", "deals_damage", "gains_life",
))
#: whose turn a beginning-of-step trigger looks at
TRIGGER_WHOSE = ("controller", "each")
#: the layers a static ability's continuous effect may apply in
LAYERS = (CONTROL, TYPE, COLOR, ABILITY, PT_CDA, PT_SET, PT_MODIFY)


class CardDefinitionError(ValueError):
    """A card implementation that is not well formed. Raised as the card is defined (when its
    module is imported), not when a game first uses it; the message names the card."""


class Cards:
    """The cards one module of :mod:`reference_engine.cards` defines, in definition order.
    :meth:`add` checks each as it is defined; :mod:`reference_engine.registry` gathers every
    module's cards into the engine's registry."""

    __slots__ = ("_entries", "_keys")

    def __init__(self) -> None:
        self._entries: list[tuple[str | None, CardImpl]] = []
        self._keys: set[tuple[str | None, str]] = set()

    def add(self, impl: CardImpl, edition: str | None = None) -> CardImpl:
        """Define a card; ``edition`` for behaviour that differs in that edition only (the
        card's Oracle wording of that time). Returns ``impl``."""
        where = _card(impl, edition)
        if not isinstance(impl, CardImpl):
            raise CardDefinitionError(f"{where}: not a CardImpl")
        if edition is not None and (not isinstance(edition, str) or not edition):
            raise CardDefinitionError(f"{where}: edition must be an edition's key")
        problems = card_problems(impl)
        if problems:
            raise CardDefinitionError(f"{where}: " + "; ".join(problems))
        key = (edition, impl.name)
        if key in self._keys:
            raise CardDefinitionError(f"{where}: defined twice")
        self._keys.add(key)
        self._entries.append((edition, impl))
        return impl

    def entries(self) -> tuple[tuple[str | None, CardImpl], ...]:
        """Every definition as ``(edition or None, impl)``, in definition order."""
        return tuple(self._entries)

    def __iter__(self) -> Iterator[CardImpl]:
        return (impl for _, impl in self._entries)

    def __len__(self) -> int:
        return len(self._entries)


def _card(impl: Any, edition: str | None = None) -> str:
    name = getattr(impl, "name", impl)
    return f"card {name!r}" + (f" ({edition})" if edition is not None else "")


def card_problems(impl: CardImpl) -> list[str]:
    """What is wrong with a card's definition (nothing, for a well-formed one)."""
    problems: list[str] = []
    if not isinstance(impl.name, str) or not impl.name:
        problems.append("its name must be a non-empty string")
    if not isinstance(impl.keywords, frozenset | set) or not all(
            isinstance(k, str) and len(k) > 1 for k in impl.keywords):
        problems.append(f"keywords must be a set of keywords, not {impl.keywords!r}")
    else:
        unknown = sorted(set(impl.keywords) - KEYWORDS)
        if unknown:
            problems.append(f"unknown keyword(s) {', '.join(map(repr, unknown))} (the engine "
                            "knows reference_engine.keywords.KEYWORDS)")
    if impl.spell is not None:
        problems += _spell_problems(impl.spell)
    for index, ability in enumerate(impl.abilities, start=1):
        problems += _ability_problems(ability, impl, f"ability {index}")
    for index, trigger in enumerate(impl.triggers, start=1):
        problems += _trigger_problems(trigger, f"trigger {index}")
    for index, static in enumerate(impl.statics, start=1):
        if not isinstance(static, StaticSpec):
            problems.append(f"static {index}: not a StaticSpec")
        elif static.layer not in LAYERS:
            problems.append(f"static {index} ({static.text!r}): unknown layer "
                            f"{static.layer!r} (the layers: {', '.join(map(str, LAYERS))})")
    for index, rules in enumerate(impl.player_rules, start=1):
        if not isinstance(rules, PlayerRules):
            problems.append(f"player rules {index}: not a PlayerRules")
    if impl.enchant is not None:
        problems += _target_problems(impl.enchant, "enchant")
    problems += _counter_problems(impl.enters_with, "enters_with")
    problems += _counter_problems(impl.kicked_counters, "kicked_counters")
    if impl.kicked_counters and impl.kicker is None:
        problems.append("kicked_counters without a kicker")
    return problems


def _target_problems(spec: Any, where: str) -> list[str]:
    if not isinstance(spec, TargetSpec):
        return [f"{where}: not a TargetSpec: {spec!r}"]
    if spec.kind not in TARGET_KINDS:
        return [f"{where}: unknown target kind {spec.kind!r} (the kinds: "
                f"{', '.join(sorted(TARGET_KINDS))})"]
    return []


def _targets_problems(targets: Any, where: str) -> list[str]:
    if not isinstance(targets, tuple):
        return [f"{where}: targets must be a tuple of TargetSpec"]
    problems: list[str] = []
    for index, spec in enumerate(targets, start=1):
        problems += _target_problems(spec, f"{where} target {index}")
    return problems


def _spell_problems(spell: Any) -> list[str]:
    if not isinstance(spell, SpellSpec):
        return ["spell: not a SpellSpec"]
    problems = _targets_problems(spell.targets, "spell")
    if spell.effect is None:
        problems.append("spell: a spell with targets needs an effect" if spell.targets
                        else "spell: no effect (it would do nothing)")
    if spell.max_targets:
        if len(spell.targets) != 1:
            problems.append("spell: max_targets (any number of one kind of target) needs "
                            f"exactly one target spec, not {len(spell.targets)}")
        if spell.max_targets < 1:
            problems.append(f"spell: max_targets must be at least 1, not {spell.max_targets}")
    elif spell.extra_target_cost:
        problems.append("spell: extra_target_cost only with max_targets")
    if spell.extra_target_cost < 0:
        problems.append(f"spell: negative extra_target_cost {spell.extra_target_cost}")
    return problems


def _ability_problems(ability: Any, impl: CardImpl, where: str) -> list[str]:
    if not isinstance(ability, AbilitySpec):
        return [f"{where}: not an AbilitySpec"]
    where = f"{where} ({ability.text!r})"
    problems = _targets_problems(ability.targets, where)
    mana = ability.produces is not None or ability.any_color
    if mana:
        if ability.targets:
            problems.append(f"{where}: a mana ability can't have targets")
        if ability.effect is not None:
            problems.append(f"{where}: a mana ability's effect would never run (it adds its "
                            "mana at once, without the stack)")
        if ability.produces is not None and ability.any_color:
            problems.append(f"{where}: both produces and any_color")
        elif ability.produces is not None and (not ability.produces or not all(
                symbol in MANA_TYPES for symbol in ability.produces)):
            problems.append(f"{where}: produces must list mana of {', '.join(MANA_TYPES)}, "
                            f"not {ability.produces!r}")
        if ability.loyalty is not None:
            problems.append(f"{where}: a loyalty ability is not a mana ability (605.1a)")
    elif ability.effect is None:
        problems.append(f"{where}: does nothing (no effect, and it produces no mana)")
    if ability.equip and len(ability.targets) != 1:
        problems.append(f"{where}: an equip ability has exactly one target, not "
                        f"{len(ability.targets)}")
    if ability.loyalty is not None:
        if ability.tap:
            problems.append(f"{where}: a loyalty ability has no {{T}} in its cost")
        if impl.loyalty is None:
            problems.append(f"{where}: a loyalty ability on a card without loyalty")
    return problems


def _trigger_problems(trigger: Any, where: str) -> list[str]:
    if not isinstance(trigger, TriggerSpec):
        return [f"{where}: not a TriggerSpec"]
    where = f"{where} ({trigger.text!r})"
    problems = _targets_problems(trigger.targets, where)
    if trigger.event not in TRIGGER_EVENTS:
        problems.append(f"{where}: unknown event {trigger.event!r} (the events: "
                        f"{', '.join(sorted(TRIGGER_EVENTS))})")
    if not callable(trigger.effect):
        problems.append(f"{where}: no effect")
    if trigger.event == "step":
        if trigger.step is None:
            problems.append(f"{where}: a step trigger needs its step")
        elif trigger.step not in range(len(STEP_NAMES)):
            problems.append(f"{where}: unknown step {trigger.step!r}")
    elif trigger.step is not None:
        problems.append(f"{where}: step is given only with event 'step'")
    if trigger.whose not in TRIGGER_WHOSE:
        problems.append(f"{where}: whose must be one of {', '.join(TRIGGER_WHOSE)}, not "
                        f"{trigger.whose!r}")
    elif trigger.whose != "controller" and trigger.event != "step":
        problems.append(f"{where}: whose is given only with event 'step'")
    if trigger.intervening and trigger.condition is None:
        problems.append(f"{where}: an intervening 'if' clause needs a condition")
    return problems


def _counter_problems(counters: Any, where: str) -> list[str]:
    if not isinstance(counters, dict):
        return [f"{where} must be a dict of counter kind to amount"]
    return [f"{where}: {amount!r} {kind!r} counters (an amount must be a positive int)"
            for kind, amount in counters.items()
            if not isinstance(kind, str) or not kind or isinstance(amount, bool)
            or not isinstance(amount, int) or amount < 1]
