"""The registry of mutants: copies of the reference engine that each break one rule, the way
an engine author would most likely get it wrong (an off-by-one, the wrong player, the
controller for the owner, a check left out).

A mutant patches the engine in this process (:mod:`reference_engine.mutants.patching`) and is
undone on exit of :func:`applied`. ``audit`` names the mutant or finding of the rules judge's
case audit that the mutant reproduces.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from reference_engine.mutants.patching import Patcher

Apply = Callable[[Patcher], None]
_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


@dataclass(frozen=True)
class Mutant:
    id: str
    rules: tuple[str, ...]  # the rules it breaks, as cited by cases: "cr2004:300.3"
    description: str
    apply: Apply
    audit: str | None = None  # the audit's name for it, when the audit tried it


MUTANTS: dict[str, Mutant] = {}


def mutant(mutant_id: str, rules: str, description: str, *, audit: str | None = None
           ) -> Callable[[Apply], Apply]:
    """Register the decorated patch function as a mutant; ``rules`` is space-separated."""
    def register(apply: Apply) -> Apply:
        if not _ID.match(mutant_id):
            raise ValueError(f"mutant id {mutant_id!r} is not kebab-case")
        if mutant_id in MUTANTS:
            raise ValueError(f"mutant {mutant_id!r} is registered twice")
        MUTANTS[mutant_id] = Mutant(mutant_id, tuple(rules.split()), description, apply, audit)
        return apply
    return register


def get(mutant_id: str) -> Mutant:
    try:
        return MUTANTS[mutant_id]
    except KeyError:
        raise KeyError(f"no mutant {mutant_id!r} (see mtgconf mutants list)") from None


def apply(mutant_id: str) -> Patcher:
    """Apply a mutant; the returned patcher undoes it."""
    patcher = Patcher(f"mutant {mutant_id}")
    try:
        get(mutant_id).apply(patcher)
    except BaseException:
        patcher.undo()
        raise
    return patcher


@contextmanager
def applied(mutant_id: str) -> Iterator[Patcher]:
    patcher = apply(mutant_id)
    try:
        yield patcher
    finally:
        patcher.undo()
