"""Our own words about each rule: an English gist, a testability class, and errata.

The seeds give the rules' text; the annotation files (``spec/annotations/<edition>.yaml``)
give, for every record of the edition, keyed by canonical id::

    "104.3":
      gist: Mana symbols are ...
      testability: {class: definition, exercised_by: ["104.3a", "203.1"]}
    "214.4":
      gist: ...
      testability: {class: engine}
      erratum: The translation says "every spell" where the rule means "every permanent".

``class`` is one of ``engine``, ``card-data``, ``definition`` (with ``exercised_by``: the
same-edition rules whose cases exercise it) or ``not-testable`` (with ``reason``: one of
``cosmetic``, ``tournament-policy``, ``out-of-scope``, ``heading``). ``note`` is optional;
``waits`` (engine and card-data only) says why the rule's cases must wait: the mechanic it
needs that the reference engine does not implement yet.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from spec.errors import AnnotationError

CLASSES = ("engine", "card-data", "definition", "not-testable")
REASONS = ("cosmetic", "tournament-policy", "out-of-scope", "heading")
_KEYS = {"gist", "testability", "erratum"}
_TESTABILITY_KEYS = {"class", "reason", "exercised_by", "note", "waits"}


@dataclass(frozen=True, slots=True)
class Annotation:
    gist: str
    testability: dict[str, Any]
    erratum: str | None


def load(path: Path, display: str) -> dict[str, Annotation]:
    """Read and check the shape of an annotation file; cross-checks happen in :func:`attach`."""
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise AnnotationError(display, None, f"cannot read: {exc.strerror}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark is not None else ""
        raise AnnotationError(display, None, f"{where}not valid YAML") from None
    if not isinstance(raw, dict):
        raise AnnotationError(display, None, "must be a mapping of rule id to annotation")
    result: dict[str, Annotation] = {}
    for key, value in raw.items():
        rule = str(key)
        if not isinstance(value, dict):
            raise AnnotationError(display, rule, "must be a mapping with gist and testability")
        unknown = set(value) - _KEYS
        if unknown:
            raise AnnotationError(display, rule, f"unknown field(s): {', '.join(sorted(unknown))}")
        gist = value.get("gist")
        if not isinstance(gist, str) or not gist.strip():
            raise AnnotationError(display, rule, "gist: missing or empty")
        if not gist.isascii():
            raise AnnotationError(display, rule, "gist: must be English (ASCII only)")
        testability = value.get("testability")
        testability = check_testability(display, rule, testability)
        erratum = value.get("erratum")
        if erratum is not None and not isinstance(erratum, str):
            raise AnnotationError(display, rule, "erratum: must be text")
        result[rule] = Annotation(" ".join(gist.split()), dict(testability), erratum)
    return result


def check_testability(display: str, rule: str, value: object) -> dict[str, Any]:
    """``value`` once it is known to be a well-formed testability mapping."""
    if not isinstance(value, dict):
        raise AnnotationError(display, rule, "testability: missing (a mapping with class)")
    unknown = set(value) - _TESTABILITY_KEYS
    if unknown:
        raise AnnotationError(
            display, rule, f"testability: unknown field(s): {', '.join(sorted(unknown))}"
        )
    cls = value.get("class")
    if cls not in CLASSES:
        raise AnnotationError(
            display, rule, f"testability.class: {cls!r} is not one of {', '.join(CLASSES)}"
        )
    reason = value.get("reason")
    if cls == "not-testable":
        if reason not in REASONS:
            raise AnnotationError(
                display, rule,
                f"testability.reason: {reason!r} is not one of {', '.join(REASONS)}",
            )
    elif reason is not None:
        raise AnnotationError(display, rule, "testability.reason: only for not-testable rules")
    waits = value.get("waits")
    if waits is not None and (cls not in ("engine", "card-data") or not isinstance(waits, str)):
        raise AnnotationError(display, rule, "testability.waits: text, for engine or card-data "
                              "rules only")
    exercised = value.get("exercised_by")
    if cls == "definition":
        if not isinstance(exercised, list) or not exercised:
            raise AnnotationError(
                display, rule, "testability.exercised_by: a definition needs the rules that "
                "exercise it"
            )
    elif exercised is not None:
        raise AnnotationError(display, rule, "testability.exercised_by: only for definitions")
    return value
