"""Every card the reference engine implements, registered by importing these modules."""

from reference_engine.cards import (  # noqa: F401  (each module registers its cards)
    choices,
    continuous,
    core,
    loop,
    newly_reached,
    tokens,
    triggered,
    zones,
)
