"""The invariants' framework: a step as they see it (``Transition``), what they report
(``Violation``), an invariant and its registry (``INVARIANTS``, filled by ``@invariant`` in the
catalogues of this package), ``check_all``, and the helpers several catalogues use."""


from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import Any, TypeVar, cast

from fuzz import observations as ob
from fuzz.observations import PLAYERS, Observation
from spec import editions as spec_editions

EDITIONS = tuple(spec_editions.EDITIONS)
T = TypeVar("T")


@dataclass(frozen=True)
class Transition:
    """One step of a game, as the invariants see it."""

    edition: str
    capabilities: frozenset[str]
    after: Observation
    before: Observation | None = None  # None: the first observation of the game
    action: dict[str, Any] | None = None
    rejected: str | None = None  # the illegal_action reason, if the action was rejected
    events: list[dict[str, Any]] = field(default_factory=list)
    legal: list[dict[str, Any]] | None = None  # listed before the action
    views: dict[str, Observation] | None = None  # each player's view after
    seeded: bool = True  # the game began with a seeded start (not a given state)
    #: the action was listed as legal before it was performed
    listed: bool = False
    #: at the start of a game: its setup; why the engine refused it (illegal_setup), if it
    #: did (``after`` is then empty and only the setup's invariants apply); the deliberate
    #: flaw that makes the setup illegal, if any (a ``strategies.Flaw``)
    setup: dict[str, Any] | None = None
    refused: str | None = None
    flaw: Any = None
    #: why the fuzzer drew the action as one the rules forbid, if it did
    why_illegal: str | None = None

    # Read by many invariants: computed once per observation (a step's ``before`` is the step
    # before's ``after``: what was derived from it then is derived already).
    @cached_property
    def after_objects(self) -> list[tuple[str, str | None, dict[str, Any]]]:
        return derived(self.after, _all_objects)

    @cached_property
    def cards_before(self) -> dict[str, int] | None:
        """``observations.cards_by_owner`` before the step (None: the first observation)."""
        return None if self.before is None else derived(self.before, _cards_by_owner)

    @cached_property
    def cards_after(self) -> dict[str, int]:
        return derived(self.after, _cards_by_owner)

    @cached_property
    def priority_given(self) -> bool:
        """A player holds priority after the step (so state-based actions were checked)."""
        return ob.turn(self.after).get("priority") in PLAYERS


def _all_objects(observation: Observation) -> list[tuple[str, str | None, dict[str, Any]]]:
    return list(ob.objects(observation))


def _cards_by_owner(observation: Observation) -> dict[str, int]:
    return ob.cards_by_owner(observation, derived(observation, _all_objects))


class _Derived:
    """What the invariants derive from each of the last few observations, by the
    observation's identity (each entry holds its observation, so that an id is never taken
    for another's). An observation is never changed once it has been checked."""

    SIZE = 4

    def __init__(self) -> None:
        self._entries: dict[int, tuple[Observation, dict[Any, Any]]] = {}

    def get(self, observation: Observation, compute: Callable[[Observation], T]) -> T:
        entry = self._entries.get(id(observation))
        if entry is None or entry[0] is not observation:
            if len(self._entries) >= self.SIZE:
                del self._entries[next(iter(self._entries))]  # the oldest
            entry = self._entries[id(observation)] = (observation, {})
        found = entry[1]
        if compute not in found:
            found[compute] = compute(observation)
        return cast(T, found[compute])


_DERIVED = _Derived()


def derived(observation: Observation, compute: Callable[[Observation], T]) -> T:
    """``compute(observation)``, computed once for an observation however many invariants
    and steps ask (``compute``: a module-level function, the same object each time)."""
    return _DERIVED.get(observation, compute)


@dataclass(frozen=True)
class Violation:
    invariant: str
    rules: tuple[str, ...]
    message: str
    #: paths of the observation after the step and the values a correct engine shows there,
    #: when the invariant can say (they become the replay case's final expect)
    checks: dict[str, Any] = field(default_factory=dict)
    #: the step's action is one a correct engine rejects (its replay case expects that)
    forbidden: bool = False
    #: the part of the game it is about, for an invariant that goes on being checked in the
    #: other parts after a finding (the differential: one difference per part of the game)
    part: str | None = None
    #: why no expect can check it, when none can (its case then passes on the engine that
    #: broke it: ``mtgconf fuzz replay``, which watches the invariant, finds it)
    unchecked: str = ""
    #: the player whose view ``checks`` read (None: the full observation)
    view: str | None = None

    @property
    def key(self) -> str:
        """What a campaign keeps one finding of: the invariant, or the invariant and part."""
        return f"{self.invariant} {self.part}" if self.part else self.invariant

    def describe(self) -> str:
        rules = f" ({', '.join(self.rules)})" if self.rules else " (protocol)"
        return f"{self.invariant}{rules}: {self.message}"


Check = Callable[[Transition], Iterable[Violation | str]]


@dataclass(frozen=True)
class Invariant:
    id: str
    rules: tuple[str, ...]
    description: str
    check: Check
    needs: frozenset[str] = frozenset()
    editions: tuple[str, ...] = EDITIONS
    #: checked once per game by the fuzzer (replaying it), not after each step
    whole_game: bool = False
    #: checks the setup itself: applies to a refused setup too (no other invariant does)
    of_setup: bool = False

    def applies(self, transition: Transition) -> bool:
        return (not self.whole_game and transition.edition in self.editions
                and self.needs <= transition.capabilities
                and (self.of_setup or transition.refused is None))

    def violations(self, transition: Transition) -> list[Violation]:
        found = []
        for item in self.check(transition):
            found.append(Violation(self.id, self.rules, item) if isinstance(item, str)
                         else item)
        if found:
            # What a correct engine shows instead, for the finding's case (rare: worked out
            # only once the invariant is broken).
            from fuzz.invariants.expects import completed

            found = [completed(v, transition) for v in found]
        return found


INVARIANTS: dict[str, Invariant] = {}


def invariant(invariant_id: str, rules: str, description: str, *, needs: Iterable[str] = (),
              editions: Iterable[str] = EDITIONS, whole_game: bool = False,
              of_setup: bool = False) -> Callable[[Check], Check]:
    """Register the decorated check; ``rules`` is space-separated ("" for the protocol)."""
    def register(check: Check) -> Check:
        if invariant_id in INVARIANTS:
            raise ValueError(f"invariant {invariant_id!r} is registered twice")
        INVARIANTS[invariant_id] = Invariant(invariant_id, tuple(rules.split()), description,
                                             check, frozenset(needs), tuple(editions),
                                             whole_game, of_setup)
        return check
    return register


def check_all(transition: Transition, chosen: Iterable[Invariant] | None = None,
              checked: Counter[str] | None = None) -> list[Violation]:
    """Every violation of the chosen invariants (default: all) in one step; ``checked``
    counts, per invariant, the steps it applied to."""
    found: list[Violation] = []
    for item in _applying(transition, chosen):
        if checked is not None:
            checked[item.id] += 1
        # ``Invariant.violations`` inlined: run for every invariant at every step, and most
        # checks yield nothing.
        for violation in item.check(transition):
            found.append(Violation(item.id, item.rules, violation)
                         if isinstance(violation, str) else violation)
    if found:
        # As in ``Invariant.violations``: what a correct engine shows instead, for the
        # finding's case (worked out only once an invariant is broken).
        from fuzz.invariants.expects import completed

        found = [completed(v, transition) for v in found]
    return found


#: the invariants of a choice that apply to a kind of step, by the choice (a tuple) and what
#: ``Invariant.applies`` reads of the step
_APPLYING: dict[tuple[tuple[Invariant, ...], str, frozenset[str], bool],
                tuple[Invariant, ...]] = {}


def _applying(transition: Transition, chosen: Iterable[Invariant] | None
              ) -> tuple[Invariant, ...]:
    """``chosen``'s invariants (default: all) that apply to ``transition``; worked out once
    per kind of step when ``chosen`` is a tuple (the fuzzer's, the same every step)."""
    if not isinstance(chosen, tuple):
        items = chosen if chosen is not None else INVARIANTS.values()
        return tuple(item for item in items if item.applies(transition))
    key = (chosen, transition.edition, transition.capabilities, transition.refused is None)
    found = _APPLYING.get(key)
    if found is None:
        found = _APPLYING[key] = tuple(i for i in chosen if i.applies(transition))
    return found


# ---- helpers of the catalogues ---------------------------------------------------------------


def card_of(observation: Observation, object_id: Any) -> str | None:
    for _, _, obj in ob.objects(observation):
        if obj.get("id") == object_id:
            return obj.get("card")
    return None


@cache
def cards_saying(words: str) -> frozenset[str]:
    """The names of the pool's cards whose text says ``words`` (any case, any edition)."""
    from spec.cardpool import default_pool

    return frozenset(name for per_edition in default_pool().cards.values()
                     for name, card in per_edition.items() if words in card.text.lower())


@cache
def known_cards(edition: str) -> frozenset[str]:
    """The names of the pool's cards of an edition (an engine may show others of its own)."""
    from spec.cardpool import default_pool

    return frozenset(default_pool().edition(edition))


def losers(observation: Observation) -> set[str]:
    result = observation.get("result") or {}
    return set(result.get("losers") or ()) if result.get("over") else set()


def rule_tagged() -> list[Invariant]:
    """The invariants that check numbered rules (not only the protocol)."""
    return [i for i in INVARIANTS.values() if i.rules]
