"""Mana costs, pools and payment.

A pool is a list of six counts in the order W, U, B, R, G, C (colourless). Costs are parsed
once per card. Payment without instructions is deterministic: each coloured symbol is paid
with its colour, then generic mana with colourless first, then W, U, B, R, G.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from reference_engine.constants import MANA_TYPES

_SYMBOL = re.compile(r"\{([^{}]+)\}")
_INDEX = {m: i for i, m in enumerate(MANA_TYPES)}
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


def total_due(cost: Cost, x: int) -> int:
    return sum(cost.colored) + cost.generic + cost.x * x


def max_x(pool: list[int], cost: Cost) -> int:
    """The largest X the pool can pay for (``-1`` if it cannot pay even X=0)."""
    for have, need in zip(pool, cost.colored, strict=True):
        if have < need:
            return -1
    spare = sum(pool) - sum(cost.colored) - cost.generic
    if spare < 0:
        return -1
    if cost.x == 0:
        return 0
    return spare // cost.x


def can_pay(pool: list[int], cost: Cost, x: int = 0) -> bool:
    for have, need in zip(pool, cost.colored, strict=True):
        if have < need:
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
