"""References to a stand-in's numbers: ``"$(20 - <vanilla-creature>.power)"``.

A case whose stand-in may be any creature cannot write the life its attack leaves as a
number; it writes the sum instead, of whole numbers and ``<token>.power``, ``.toughness`` or
``.mana_value`` of the stand-ins it names, joined by ``+`` and ``-``. The harness works the sum
out once it has chosen the members (``conformance.standins.resolve``), from the characteristics
the engine declared for the card (protocol 1.2) or else the card's in ``spec/cards.yaml``;
``mtgconf cases lint`` rejects a reference that is malformed or names no stand-in of the case.

>>> references("$(20 - <vanilla-creature>.power + 1)")
[('<vanilla-creature>', 'power')]
>>> evaluate("$(20 - <a>.power)", lambda token, prop: 3)
17
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

#: The numbers a reference may read of a stand-in.
NUMBERS = ("power", "toughness", "mana_value")
_WHOLE = re.compile(r"^\$\((.*)\)$", re.DOTALL)
_TERM = re.compile(r"\s*(?:(?P<op>[+-])\s*)?(?:(?P<int>\d+)|(?P<ref><[a-z][a-z0-9:-]*>)"
                   r"\.(?P<prop>[a-z_]+))\s*")


class TemplateError(ValueError):
    """A ``$(...)`` reference that cannot be read; the message quotes it."""


def is_template(value: object) -> bool:
    return isinstance(value, str) and _WHOLE.match(value) is not None


def _terms(text: str) -> list[tuple[int, int | tuple[str, str]]]:
    match = _WHOLE.match(text)
    if match is None:
        raise TemplateError(f"{text!r} is not a $(...) reference")
    body, position = match.group(1), 0
    found: list[tuple[int, int | tuple[str, str]]] = []
    while position < len(body):
        term = _TERM.match(body, position)
        if term is None or term.end() == position or (found and term.group("op") is None):
            raise TemplateError(f"{text!r}: expected a whole number or <stand-in>.PROPERTY "
                                f"(one of {', '.join(NUMBERS)}) joined by + or -, at "
                                f"{body[position:]!r}")
        sign = -1 if term.group("op") == "-" else 1
        if term.group("int") is not None:
            found.append((sign, int(term.group("int"))))
        else:
            if term.group("prop") not in NUMBERS:
                raise TemplateError(f"{text!r}: {term.group('prop')!r} is not one of "
                                    f"{', '.join(NUMBERS)}")
            found.append((sign, (term.group("ref"), term.group("prop"))))
        position = term.end()
    if not found:
        raise TemplateError(f"{text!r} is empty")
    return found


def references(text: str) -> list[tuple[str, str]]:
    """The (stand-in token, property) pairs a reference reads; raises TemplateError."""
    return [value for _, value in _terms(text) if isinstance(value, tuple)]


def evaluate(text: str, lookup: Callable[[str, str], Any]) -> int:
    """The reference's value, with ``lookup(token, property)`` giving each stand-in's."""
    total = 0
    for sign, value in _terms(text):
        number = lookup(*value) if isinstance(value, tuple) else value
        if not isinstance(number, int) or isinstance(number, bool):
            raise TemplateError(f"{text!r}: {value} is {number!r}, not a whole number")
        total += sign * number
    return total


def find(value: Any) -> Iterator[str]:
    """Every ``$(...)`` reference in a case's data (setup, actions, expectations)."""
    if is_template(value):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from find(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from find(item)
