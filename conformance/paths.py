"""Paths into an observation, and the checks an ``expect`` step makes on what they select.

A path is dotted keys (``players.A.life``) where a key on a list may carry selectors:
``[handle]`` (the object a setup handle names, followed across zones), ``[card=NAME]``
(objects with that card name) or ``[N]`` (the N-th element, 0 = top). ``count`` after a
list is its length. An expected value is either a mapping of helper keys (``count``,
``contains``, ``not_contains``, ``cards``, ``absent``, ``hidden``), checked on the selection,
or a value to match: a mapping matches the keys it names, a list matches element by element
(a list of type words or colours, which the protocol leaves unordered, as a set: ``types:
[Artifact, Creature]`` holds in either order), anything else must be equal.

>>> parse("battlefield[card=Grizzly Bears].tapped").text
'battlefield[card=Grizzly Bears].tapped'
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

HELPERS = frozenset({"count", "contains", "not_contains", "cards", "absent", "hidden"})
#: An object's lists that the protocol leaves unordered (docs/protocol.md, Dialects): a case's
#: list for one of them matches whatever order the engine listed the words in.
UNORDERED_WORDS = frozenset({"types", "supertypes", "subtypes", "colors"})


class _Missing:
    def __repr__(self) -> str:
        return "<missing>"


MISSING: Any = _Missing()


@dataclass(frozen=True, slots=True)
class Selector:
    kind: str  # "handle", "card" or "index"
    value: str | int

    def __str__(self) -> str:
        return f"[card={self.value}]" if self.kind == "card" else f"[{self.value}]"


@dataclass(frozen=True, slots=True)
class Segment:
    key: str
    selectors: tuple[Selector, ...] = ()


@dataclass(frozen=True, slots=True)
class Path:
    text: str
    segments: tuple[Segment, ...]

    @property
    def handles(self) -> frozenset[str]:
        return frozenset(str(s.value) for seg in self.segments for s in seg.selectors
                         if s.kind == "handle")

    @property
    def root(self) -> str:
        return self.segments[0].key


def parse(text: str) -> Path:
    """Parse a path; raises ValueError naming what is wrong."""
    segments: list[Segment] = []
    i, n = 0, len(text)
    while True:
        start = i
        while i < n and text[i] not in ".[]":
            i += 1
        key = text[start:i].strip()
        if not key:
            raise ValueError(f"empty key at position {start} of {text!r}")
        selectors: list[Selector] = []
        while i < n and text[i] == "[":
            close = text.find("]", i)
            if close < 0:
                raise ValueError(f"unclosed [ in {text!r}")
            inner = text[i + 1:close].strip()
            if not inner:
                raise ValueError(f"empty [] in {text!r}")
            if inner.startswith("card="):
                name = inner.removeprefix("card=").strip()
                if not name:
                    raise ValueError(f"[card=] needs a card name in {text!r}")
                selectors.append(Selector("card", name))
            elif inner.lstrip("-").isdigit():
                selectors.append(Selector("index", int(inner)))
            else:
                selectors.append(Selector("handle", inner))
            i = close + 1
        segments.append(Segment(key, tuple(selectors)))
        if i == n:
            return Path(text, tuple(segments))
        if text[i] != ".":
            raise ValueError(f"unexpected {text[i]!r} at position {i} of {text!r}")
        i += 1


def is_helper(expected: Any) -> bool:
    return isinstance(expected, Mapping) and bool(expected) and set(expected) <= HELPERS


class Mismatch(Exception):
    """An observation does not hold what a case expects (a ``fail``, not an error)."""

    def __init__(self, message: str, expected: Any = None, observed: Any = None) -> None:
        super().__init__(message)
        self.expected = expected
        self.observed = observed


def resolve(path: Path, observation: Any, is_handle: Callable[[str, Any], bool], *,
            full: bool = False) -> Any:
    """The value ``path`` selects, ``MISSING`` if a key is absent, a list for a selector.
    ``is_handle(handle, obj)`` says whether an observed object is the one a handle names.
    In a ``full`` observation (no player's view) a selector may not meet a hidden card.

    :raises Mismatch: the path goes through something it cannot (a key of a list of
        several objects, a key of a number).
    :raises HiddenCards: a full observation hid cards the path selects among.
    """
    value = observation
    walked = ""
    for segment in path.segments:
        value = _key(value, segment.key, walked)
        walked = f"{walked}.{segment.key}" if walked else segment.key
        if value is MISSING:
            return MISSING
        for selector in segment.selectors:
            if not isinstance(value, list):
                raise Mismatch(f"{walked} is not a list, so {selector} selects nothing",
                               observed=value)
            if full:
                _no_hidden(walked, value)
            if selector.kind == "index":
                index = int(selector.value)
                if not -len(value) <= index < len(value):
                    return MISSING
                value = value[index]
            elif selector.kind == "card":
                value = [o for o in value
                         if isinstance(o, dict) and o.get("card") == selector.value]
            else:
                handle = str(selector.value)
                value = [o for o in value if isinstance(o, dict) and is_handle(handle, o)]
            walked += str(selector)
    return value


class HiddenCards(Mismatch):
    """A full observation hid cards that a check needs to see: a full observation must show
    every card (a ``fail``; an engine that cannot show libraries does not declare
    ``observe.library``, and the cases that read them are skipped)."""


def _hidden_count(value: Any) -> int:
    if isinstance(value, dict):
        return int(value.get("hidden") is True)
    if isinstance(value, list):
        return sum(1 for o in value if isinstance(o, dict) and o.get("hidden") is True)
    return 0


def _no_hidden(where: str, value: Any) -> None:
    hidden = _hidden_count(value)
    if hidden:
        raise HiddenCards(f"{where}: the engine hid {hidden} card(s) in a full observation, "
                          "which must show every card (an engine that cannot show libraries "
                          "must not declare observe.library)", observed=f"{hidden} hidden")


def _key(value: Any, key: str, walked: str) -> Any:
    if isinstance(value, dict):
        return value.get(key, MISSING)
    if isinstance(value, list):
        if key == "count":
            return len(value)
        if len(value) == 1 and isinstance(value[0], dict):
            return value[0].get(key, MISSING)
        raise Mismatch(f"{walked} selects {len(value)} objects, so .{key} is ambiguous",
                       observed=_names(value))
    raise Mismatch(f"{walked} is {_show(value)}, which has no .{key}", observed=value)


def check(path: Path, expected: Any, value: Any, *, full: bool = False) -> None:
    """Raise ``Mismatch`` unless ``value`` (what ``path`` selected) satisfies ``expected``. In
    a ``full`` observation, only a count (or a count of hidden cards) may meet a hidden card:
    any other check of hidden cards raises ``HiddenCards``, never passes."""
    if full and not (is_helper(expected) and set(expected) <= {"count", "hidden"}):
        _no_hidden(path.text, value)
    # Helper keys check a selection; on a mapping (e.g. pending: {count: 1}) they are keys.
    if is_helper(expected) and not isinstance(value, dict):
        for helper, want in expected.items():
            _HELPER_CHECKS[helper](path.text, want, value)
        return
    last = path.segments[-1]
    problem = _match(expected, value, unordered=last.key in UNORDERED_WORDS and
                     not last.selectors)
    if problem is not None:
        where = f"{path.text}{problem[0]}"
        raise Mismatch(f"{where}: expected {_show(problem[1])}, observed {_show(problem[2])}",
                       expected=problem[1], observed=_plain(problem[2]))


def _match(expected: Any, observed: Any, where: str = "", *, unordered: bool = False
           ) -> tuple[str, Any, Any] | None:
    """The first difference as (sub-path, expected, observed), or None; ``unordered``: a list
    matches as a set of words (an object's types, supertypes, subtypes or colours)."""
    if isinstance(expected, Mapping):
        if isinstance(observed, list) and len(observed) == 1:
            observed = observed[0]
        if not isinstance(observed, dict):
            return where, dict(expected), observed
        for key, want in expected.items():
            difference = _match(want, observed.get(key, MISSING), f"{where}.{key}",
                                unordered=key in UNORDERED_WORDS)
            if difference is not None:
                return difference
        return None
    if isinstance(expected, list):
        if not isinstance(observed, list) or len(observed) != len(expected):
            return where, expected, observed
        if unordered:
            same = Counter(map(_word, expected)) == Counter(map(_word, observed))
            return None if same else (where, expected, observed)
        for i, (want, got) in enumerate(zip(expected, observed, strict=True)):
            difference = _match(want, got, f"{where}[{i}]")
            if difference is not None:
                return difference
        return None
    # bool is an int in Python, but true and 1 are different values in a case.
    if type(expected) is bool or type(observed) is bool:
        same = type(expected) is type(observed) and expected == observed
    else:
        same = expected == observed and observed is not MISSING
    return None if same else (where, expected, observed)


def _word(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=repr)


def _objects(where: str, helper: str, value: Any) -> list[Any]:
    if value is MISSING:
        raise Mismatch(f"{where}: expected {helper}, observed <missing>", observed=None)
    if not isinstance(value, list):
        raise Mismatch(f"{where}: {helper} needs a list, observed {_show(value)}",
                       observed=_plain(value))
    return value


def _count(where: str, want: int, value: Any) -> None:
    objects = _objects(where, "a count", value)
    if len(objects) != want:
        raise Mismatch(f"{where}: expected count {want}, observed {len(objects)}"
                       f"{_listing(objects)}", expected=want, observed=len(objects))


def _contains(where: str, want: list[str], value: Any) -> None:
    names = Counter(_names(_objects(where, "contains", value)))
    missing = Counter(want) - names
    if missing:
        raise Mismatch(f"{where}: expected to contain {', '.join(sorted(missing.elements()))}"
                       f", observed {_show(_names(value))}", expected=want,
                       observed=_names(value))


def _not_contains(where: str, want: list[str], value: Any) -> None:
    names = _names(_objects(where, "not_contains", value))
    found = sorted(set(want) & set(names))
    if found:
        raise Mismatch(f"{where}: expected not to contain {', '.join(found)}, observed "
                       f"{_show(names)}", expected=want, observed=names)


def _cards(where: str, want: list[str], value: Any) -> None:
    names = _names(_objects(where, "cards", value))
    if names != list(want):
        raise Mismatch(f"{where}: expected cards {_show(list(want))}, observed {_show(names)}",
                       expected=list(want), observed=names)


def _hidden(where: str, want: int, value: Any) -> None:
    objects = _objects(where, "hidden", value)
    hidden = sum(1 for o in objects if isinstance(o, dict) and o.get("hidden") is True)
    if hidden != want:
        raise Mismatch(f"{where}: expected {want} hidden, observed {hidden}", expected=want,
                       observed=hidden)


def _absent(where: str, want: bool, value: Any) -> None:
    absent = value is MISSING or value == []
    if absent != bool(want):
        if want:
            raise Mismatch(f"{where}: expected absent, observed {_show(_plain(value))}",
                           expected=None, observed=_plain(value))
        raise Mismatch(f"{where}: expected present, observed nothing", observed=None)


_HELPER_CHECKS: dict[str, Callable[[str, Any, Any], None]] = {
    "count": _count,
    "contains": _contains,
    "not_contains": _not_contains,
    "cards": _cards,
    "hidden": _hidden,
    "absent": _absent,
}


def _names(objects: Any) -> list[Any]:
    if not isinstance(objects, list):
        return []
    return [o.get("card", "<hidden>" if o.get("hidden") else None) if isinstance(o, dict)
            else o for o in objects]


def _listing(objects: list[Any]) -> str:
    names = _names(objects)
    if not names or not all(isinstance(n, str) for n in names):
        return ""
    shown = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
    return f" ({shown})"


def _plain(value: Any) -> Any:
    return None if value is MISSING else value


def _show(value: Any, limit: int = 160) -> str:
    if value is MISSING:
        return "<missing>"
    if isinstance(value, list) and value and all(isinstance(o, dict) and "card" in o
                                                 for o in value):
        value = [f"{o['card']}#{o.get('id')}" for o in value]
    try:
        text = json.dumps(value, ensure_ascii=False, default=repr)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."
