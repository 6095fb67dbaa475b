"""Invariants of the protocol's promises (no numbered rule: their ``rules`` are empty): an
illegal action changes nothing, a listed action is legal, an illegal action is rejected, the
same game gives the same trace."""

from __future__ import annotations

from collections.abc import Iterator

from conformance.observed import canonical
from fuzz.invariants.framework import (
    Transition,
    Violation,
    invariant,
)


@invariant("illegal-action-changes-nothing", "",
           "An action rejected as illegal leaves the game exactly as it was.")
def _unchanged(t: Transition) -> Iterator[str]:
    # Compared in one order for every list the protocol leaves unordered (an engine may list
    # a hand or a card's types in another order each time it is asked).
    # Equal as they are, they are equal in one order (the usual case: no sorting).
    if t.rejected is not None and t.before is not None and t.after != t.before and \
            canonical(t.after) != canonical(t.before):
        yield f"{t.action} was rejected ({t.rejected}) but the observation changed"


@invariant("listed-actions-are-legal", "",
           "An action legal_actions listed is accepted.", needs=("actions.legal",))
def _listed(t: Transition) -> Iterator[str]:
    if t.listed and t.rejected is not None:
        yield f"{t.action} was listed as legal but rejected ({t.rejected})"


@invariant("illegal-action-rejected", "",
           "An action the rules forbid (another player's, an object that does not exist, a "
           "land play of a card that is no land in the hand) is rejected.")
def _rejected(t: Transition) -> Iterator[Violation]:
    if t.action is not None and not t.listed and t.legal is not None and t.rejected is None:
        why = f", though {t.why_illegal}" if t.why_illegal else ""
        yield Violation("illegal-action-rejected", (), f"{t.action} was accepted{why}",
                        forbidden=True)


@invariant("same-game-same-trace", "",
           "The same setup and actions give the same game: the fuzzer plays a game again "
           "from its setup and compares the end.", whole_game=True)
def _same_game(t: Transition) -> Iterator[str]:
    return iter(())  # checked by fuzz.machine, which replays whole games
