"""Mutants of the reference engine, each breaking one rule: what a case is worth is what it
catches. ``mtgconf mutants`` runs the cases against them and reports, per rule, which
mutants no case kills (:mod:`conformance.mutation`, which loads this package by name: the
engine's row of ``conformance.engines`` names it as its mutant set).

Mutants are grouped by the rules they break, one module per part of the rules; importing this
package registers them all. Importing ``reference_engine`` does not import it.

>>> with applied("two-lands-per-turn"):          # doctest: +SKIP
...     ...                                       # the engine plays two lands a turn here
"""

from __future__ import annotations

from reference_engine.mutants import (
    beyond_combat,
    beyond_effects,
    beyond_keywords,
    beyond_spells,
    beyond_turns,
    card_types,
    characteristics,
    game_rules,
    modern_zones,
    newly_reached,
    turns,
    zones,
)
from reference_engine.mutants.registry import MUTANTS, Mutant, applied, apply, get, mutant

#: the modules that register mutants, in the order ``mtgconf mutants list`` shows them
MODULES = (game_rules, characteristics, card_types, turns, zones, modern_zones,
           newly_reached, beyond_turns, beyond_combat, beyond_keywords, beyond_spells,
           beyond_effects)

__all__ = ["MODULES", "MUTANTS", "Mutant", "applied", "apply", "get", "mutant"]
