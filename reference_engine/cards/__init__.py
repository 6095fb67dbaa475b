"""Every card the reference engine implements: each module of :data:`MODULES` defines its
cards in a module-level ``CARDS`` collection (:class:`reference_engine.cardimpl.Cards`);
:mod:`reference_engine.registry` builds the engine's registry from them."""

from reference_engine.cards import (
    choices,
    continuous,
    core,
    evergreen,
    loop,
    newly_reached,
    outside,
    tokens,
    triggered,
    zones,
)

#: the card modules, in the order their cards are registered
MODULES = (choices, continuous, core, loop, newly_reached, tokens, triggered, zones, evergreen,
           outside)
