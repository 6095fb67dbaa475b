"""The engine's card registry, built once, on import, from the ``CARDS`` of every module of
:mod:`reference_engine.cards` (each card already checked as it was defined, see
:class:`~reference_engine.cardimpl.Cards`). Building it checks what no single module can: that
no card is defined in two modules, and that every card is a card of the pool in spec/cards.yaml
(a card whose behaviour differs in one edition, a card of that edition's pool)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType, ModuleType

from reference_engine.cardimpl import CardDefinitionError, Cards
from reference_engine.cards import MODULES
from reference_engine.objects import CardImpl
from spec.cardpool import CardPool, default_pool


@dataclass(frozen=True, slots=True)
class Registry:
    #: the behaviour of each card, by name
    general: Mapping[str, CardImpl]
    #: behaviour that differs in one edition (the card's Oracle wording of that time), by
    #: ``(edition, name)``
    by_edition: Mapping[tuple[str, str], CardImpl]

    def implementation(self, name: str, edition: str | None = None) -> CardImpl | None:
        """The behaviour of a card in ``edition``: the edition's own if it has one, else the
        card's; None if the engine does not implement the card."""
        if edition is not None:
            special = self.by_edition.get((edition, name))
            if special is not None:
                return special
        return self.general.get(name)


def build_registry(modules: Iterable[ModuleType], pool: CardPool | None = None) -> Registry:
    """The registry of the cards ``modules`` define (each in a module-level ``CARDS``), in
    module and definition order. Raises :class:`CardDefinitionError` for a module without
    ``CARDS``, a card defined in two modules, or a card not in ``pool`` (default: the pool of
    spec/cards.yaml)."""
    pool = default_pool() if pool is None else pool
    names = set(pool.names())
    general: dict[str, CardImpl] = {}
    by_edition: dict[tuple[str, str], CardImpl] = {}
    defined_in: dict[str, str] = {}
    for module in modules:
        cards = getattr(module, "CARDS", None)
        if not isinstance(cards, Cards):
            raise CardDefinitionError(f"{module.__name__}: no CARDS collection (a Cards)")
        for edition, impl in cards.entries():
            name = impl.name
            where = f"card {name!r}" + (f" ({edition})" if edition is not None else "")
            first = defined_in.setdefault(name, module.__name__)
            if first != module.__name__:
                raise CardDefinitionError(
                    f"{where}: defined in two modules, {first} and {module.__name__}")
            if edition is None:
                if name not in names:
                    raise CardDefinitionError(
                        f"{where} ({module.__name__}): not a card of the pool (spec/cards.yaml)")
                if name in general:
                    raise CardDefinitionError(f"{where}: registered twice")
                general[name] = impl
            else:
                if edition not in pool.cards:
                    raise CardDefinitionError(
                        f"{where} ({module.__name__}): unknown edition {edition!r}")
                if name not in pool.cards[edition]:
                    raise CardDefinitionError(
                        f"{where} ({module.__name__}): not a card of the {edition} pool "
                        "(spec/cards.yaml)")
                if (edition, name) in by_edition:
                    raise CardDefinitionError(f"{where}: registered twice")
                by_edition[(edition, name)] = impl
    return Registry(MappingProxyType(general), MappingProxyType(by_edition))


#: every card the reference engine implements
REGISTRY = build_registry(MODULES)


def _by_edition(registry: Registry, editions: Iterable[str]
                ) -> dict[str | None, dict[str, CardImpl]]:
    """Each card's behaviour in each edition (the edition's own where it has one), by name:
    :func:`implementation` is asked for every card of every deck a game is built from, and
    one dictionary lookup answers it."""
    merged: dict[str | None, dict[str, CardImpl]] = {None: dict(registry.general)}
    for edition in editions:
        merged[edition] = {
            **registry.general,
            **{name: impl for (where, name), impl in registry.by_edition.items()
               if where == edition}}
    return merged


_IN_EDITION = _by_edition(REGISTRY, {*default_pool().cards, *(e for e, _ in REGISTRY.by_edition)})


def implementation(name: str, edition: str | None = None) -> CardImpl | None:
    """The behaviour of a card (in an edition), or None if the engine does not implement it."""
    in_edition = _IN_EDITION.get(edition)
    if in_edition is None:  # an edition outside the pool: as the registry answers it
        return REGISTRY.implementation(name, edition)
    return in_edition.get(name)


def implemented() -> dict[str, CardImpl]:
    """Every card the engine implements, by name (its general behaviour)."""
    return dict(REGISTRY.general)
