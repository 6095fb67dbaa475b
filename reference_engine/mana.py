"""Mana costs, pools and payment.

A pool is a list of six counts in the order W, U, B, R, G, C (colourless). Costs are parsed
once per card. Payment without instructions is deterministic: each coloured symbol is paid
with its colour, then generic mana with colourless first, then W, U, B, R, G.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from reference_engine.constants import MANA_TYPES

_SYMBOL = re.compile(r"\{([^{}]+)\}")
#: the slot of each type of mana in a pool (a list of six counts)
SLOT = {m: i for i, m in enumerate(MANA_TYPES)}
_INDEX = SLOT
# Generic costs are paid from these pool slots, in this order.
GENERIC_ORDER = (5, 0, 1, 2, 3, 4)


class Cost(NamedTuple):
    """A mana cost: coloured (and {C}) requirements per pool slot, generic mana, X count."""

    colored: tuple[int, int, int, int, int, int]
    generic: int
    x: int  # how many {X} symbols

    @property
    def is_free(self) -> bool:
        return not any(self.colored) and self.generic == 0 and self.x == 0

    def plus_generic(self, amount: int) -> Cost:
        return Cost(self.colored, self.generic + amount, self.x)

    def plus(self, other: Cost) -> Cost:
        """Both costs at once (a spell's mana cost and its kicker); X from this one."""
        a, b = self.colored, other.colored
        return Cost((a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4], a[5] + b[5]),
                    self.generic + other.generic, self.x)


def parse_cost(text: str | None) -> Cost:
    """Parse ``{X}{1}{G}``; an absent cost is free."""
    colored = [0] * 6
    generic = 0
    x = 0
    for symbol in _SYMBOL.findall(text or ""):
        if symbol.isdigit():
            generic += int(symbol)
        elif symbol == "X":
            x += 1
        elif symbol in _INDEX:
            colored[_INDEX[symbol]] += 1
        else:
            raise ValueError(f"unsupported mana symbol {{{symbol}}} in {text!r}")
    return Cost((colored[0], colored[1], colored[2], colored[3], colored[4], colored[5]),
                generic, x)


_COST_CACHE: dict[str | None, Cost] = {}


def cost_of(text: str | None) -> Cost:
    """:func:`parse_cost`, remembered: a card's printed cost is asked for again and again."""
    cost = _COST_CACHE.get(text)
    if cost is None:
        cost = _COST_CACHE[text] = parse_cost(text)
    return cost


def total_due(cost: Cost, x: int) -> int:
    return sum(cost.colored) + cost.generic + cost.x * x


def max_x(pool: list[int], cost: Cost) -> int:
    """The largest X the pool can pay for (``-1`` if it cannot pay even X=0)."""
    # Unrolled over the six slots: asked for every card and ability on every listing.
    c = cost.colored
    if (pool[0] < c[0] or pool[1] < c[1] or pool[2] < c[2] or pool[3] < c[3]
            or pool[4] < c[4] or pool[5] < c[5]):
        return -1
    spare = sum(pool) - sum(cost.colored) - cost.generic
    if spare < 0:
        return -1
    if cost.x == 0:
        return 0
    return spare // cost.x


def can_pay(pool: list[int], cost: Cost, x: int = 0) -> bool:
    # Unrolled over the six slots, as in max_x.
    c = cost.colored
    if (pool[0] < c[0] or pool[1] < c[1] or pool[2] < c[2] or pool[3] < c[3]
            or pool[4] < c[4] or pool[5] < c[5]):
        return False
    return sum(pool) - sum(cost.colored) >= cost.generic + cost.x * x


def default_payment(pool: list[int], cost: Cost, x: int = 0) -> list[int] | None:
    """The mana the deterministic default spends, per slot, or None if unaffordable."""
    if not can_pay(pool, cost, x):
        return None
    spend = list(cost.colored)
    generic = cost.generic + cost.x * x
    for slot in GENERIC_ORDER:
        if generic == 0:
            break
        take = min(pool[slot] - spend[slot], generic)
        spend[slot] += take
        generic -= take
    return spend


#: One way a mana source can produce: the mana it adds, per pool slot.
Production = tuple[int, int, int, int, int, int]


def production(symbols: tuple[str, ...]) -> Production:
    """The mana that ``symbols`` ("R", "G", ...) add, slot by slot."""
    made = [0] * 6
    for symbol in symbols:
        made[SLOT[symbol]] += 1
    return (made[0], made[1], made[2], made[3], made[4], made[5])


def plan_sources(pool: Sequence[int], sources: Sequence[Sequence[Production]], cost: Cost,
                 x: int = 0, *, use_all: bool = False) -> list[int] | None:
    """Which sources to tap, and how, so that the pool plus what they add pays ``cost``:
    one option index per source (-1: not used), or None if no choice pays.

    ``use_all``: every source is used (the player named them). Otherwise as few sources as
    possible, preferring earlier ones (deterministic). Sources with the same options are
    interchangeable, so the search runs over how many of each kind are used. The same
    question comes back at every priority of a game: answers are remembered.
    """
    plan = _plan(tuple(pool), tuple(tuple(o) for o in sources), cost, x, use_all)
    return None if plan is None else list(plan)


@functools.lru_cache(maxsize=8192)
def _plan(pool: tuple[int, ...], sources: tuple[tuple[Production, ...], ...], cost: Cost,
          x: int, use_all: bool) -> tuple[int, ...] | None:
    found = _search(list(pool), sources, cost, x, use_all=use_all)
    return None if found is None else tuple(found)


def _search(pool: list[int], sources: Sequence[Sequence[Production]], cost: Cost,
            x: int = 0, *, use_all: bool = False) -> list[int] | None:
    if use_all:
        for choice in itertools.product(*(range(len(o)) for o in sources)):
            if _pays(pool, [sources[i][c] for i, c in enumerate(choice)], cost, x):
                return list(choice)
        return None
    kinds: dict[tuple[Production, ...], list[int]] = {}
    for index, options in enumerate(sources):
        if options:
            kinds.setdefault(tuple(options), []).append(index)
    groups = list(kinds.items())
    # Fewer sources than the mana still due needs, at the most one of them adds, cannot pay:
    # the search starts at the first number that might (the answer is the same).
    most = max((sum(made) for options in sources for made in options), default=0)
    short = total_due(cost, x) - sum(pool)
    if short <= 0:
        fewest = 0
    elif most <= 0:
        return None
    else:
        fewest = -(-short // most)
    for used in range(fewest, len(sources) + 1):
        for counts in _counts(used, [len(members) for _, members in groups]):
            per_group = [itertools.combinations_with_replacement(range(len(options)), n)
                         for (options, _), n in zip(groups, counts, strict=True)]
            for picks in itertools.product(*per_group):
                made = [groups[g][0][o] for g, chosen in enumerate(picks) for o in chosen]
                if _pays(pool, made, cost, x):
                    plan = [-1] * len(sources)
                    for (_, members), chosen in zip(groups, picks, strict=True):
                        for member, option in zip(members, chosen, strict=False):
                            plan[member] = option
                    return plan
    return None


def _pays(pool: list[int], made: list[Production], cost: Cost, x: int) -> bool:
    total = list(pool)
    for production in made:
        for slot, amount in enumerate(production):
            total[slot] += amount
    return can_pay(total, cost, x)


def _counts(total: int, sizes: list[int]) -> Iterator[tuple[int, ...]]:
    """Every way to take ``total`` items from groups of these sizes, earlier groups first."""
    if not sizes:
        if total == 0:
            yield ()
        return
    for first in range(min(total, sizes[0]), -1, -1):
        for rest in _counts(total - first, sizes[1:]):
            yield (first, *rest)


def check_payment(pool: list[int], cost: Cost, x: int, payment: dict[str, int]) -> list[int]:
    """Validate an explicit payment such as ``{"R": 1, "C": 2}``; return it per slot.

    :raises ValueError: with a message saying what is wrong.
    """
    spend = [0] * 6
    for key, amount in payment.items():
        if key not in _INDEX:
            raise ValueError(f"unknown mana type {key!r} in payment (use W U B R G C)")
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
            raise ValueError(f"payment {key}: {amount!r} is not a whole number")
        spend[_INDEX[key]] = amount
    for slot, (have, paid) in enumerate(zip(pool, spend, strict=True)):
        if paid > have:
            raise ValueError(f"payment spends {paid} {MANA_TYPES[slot]} but the pool has {have}")
    for slot, (paid, need) in enumerate(zip(spend, cost.colored, strict=True)):
        if paid < need:
            raise ValueError(f"payment gives {paid} {MANA_TYPES[slot]}, the cost needs {need}")
    due = total_due(cost, x)
    if sum(spend) != due:
        raise ValueError(f"payment totals {sum(spend)} mana, the cost is {due}")
    return spend


def pool_json(pool: list[int]) -> dict[str, int]:
    return {m: pool[i] for i, m in enumerate(MANA_TYPES)}


def pool_from_json(value: dict[str, int]) -> list[int]:
    pool = [0] * 6
    for key, amount in value.items():
        if key not in _INDEX:
            raise ValueError(f"unknown mana type {key!r} (use W U B R G C)")
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
            raise ValueError(f"{key}: {amount!r} is not a whole number")
        pool[_INDEX[key]] = amount
    return pool
