"""Invariants: what must hold after every step of any game, each naming the rules it checks.

An invariant sees one ``Transition``: the observation before a step and after it, the action
(if any) and whether the engine rejected it, the events the step produced, the legal actions
listed before it, and each player's view after it. It yields a ``Violation`` for each way the
engine broke it. An invariant that needs a capability (``observe.events``) is skipped on an
engine that does not declare it.

Protocol invariants (an illegal action changes nothing; a listed action is accepted) check the
promises of the protocol rather than a numbered rule: their ``rules`` are empty.

The framework is ``framework``; the invariants are in catalogues by rule area: ``start`` (the
start of the game), ``winning`` (winning and losing), ``zones`` (zones and objects), ``turns``
(turns, priority, mana) and ``protocol`` (the protocol's promises).
"""

from fuzz.invariants.framework import (
    EDITIONS,
    INVARIANTS,
    Check,
    Invariant,
    Transition,
    Violation,
    check_all,
    invariant,
    rule_tagged,
)

# The catalogues, by rule area; importing them registers their invariants in this order (the
# order of ``mtgconf fuzz list``, of the results files and of the checks in a step).
# isort: off
from fuzz.invariants import start, winning, zones, turns, protocol
# isort: on
from fuzz.invariants import expects  # noqa: F401  (the checks of a finding's case)

CATALOGUES = (start, winning, zones, turns, protocol)

__all__ = ["CATALOGUES", "EDITIONS", "INVARIANTS", "Check", "Invariant", "Transition",
           "Violation", "check_all", "invariant", "rule_tagged"]
