"""The JSON Schemas under ``spec/schemas/``, loaded once, and the validators built on them.

The protocol schemas are checked only with ``--validate-protocol`` (and by ``mtgconf smoke``).
Each schema is compiled once into a yes-or-no predicate (``conformance.fastcheck``), tens of
times faster than ``jsonschema``'s walk; ``jsonschema`` is asked only about an instance the
predicate rejects, for the error to report.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator, ValidationError
from jsonschema.exceptions import best_match
from referencing import Registry, Resource

from conformance.errors import ProtocolViolation
from conformance.fastcheck import compile_schema
from spec.editions import SPEC_DIR

SCHEMA_DIR = SPEC_DIR / "schemas"
PROTOCOL_DIR = SCHEMA_DIR / "protocol"
BASE = "https://mtg-conformance.invalid/schemas/"


@cache
def registry() -> Registry:
    """Every schema under spec/schemas, addressable by its ``$id``."""
    resources = []
    for path in sorted(SCHEMA_DIR.rglob("*.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        resources.append((contents["$id"], Resource.from_contents(contents)))
    return Registry().with_resources(resources).crawl()


@cache
def validator(name: str) -> Draft202012Validator:
    """A validator for ``name``, a path under spec/schemas with an optional fragment
    (``case.json``, ``protocol/hello.json#response``)."""
    resolved = registry().resolver().lookup(BASE + name)
    return Draft202012Validator(_inline(resolved.contents, resolved.resolver))


@cache
def predicate(name: str) -> Callable[[Any], bool]:
    """Whether an instance is valid under ``name``, and nothing more: ``validator(name)``
    compiled (``conformance.fastcheck``)."""
    return compile_schema(validator(name).schema)


_SCOPE_KEYWORDS = frozenset({"$id", "$schema", "$defs", "$anchor"})


def _inline(schema: Any, resolver: Any) -> Any:
    """The schema with every ``$ref`` replaced by what it refers to. Validation then looks
    nothing up, which makes it several times faster; the protocol schemas are not recursive."""
    if isinstance(schema, list):
        return [_inline(item, resolver) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _inline(v, resolver) for k, v in schema.items()
           if k not in _SCOPE_KEYWORDS and k != "$ref"}
    if "$ref" not in schema:
        return out
    target = resolver.lookup(schema["$ref"])
    inlined = _inline(target.contents, target.resolver)
    siblings = {k: v for k, v in out.items() if k not in ("description", "title")}
    return {"allOf": [inlined], **siblings} if siblings else inlined


def location(error: ValidationError) -> str:
    """Where in the instance an error is, as a dotted path with [indexes]."""
    out = ""
    for part in error.absolute_path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def first_error(name: str, instance: Any) -> ValidationError | None:
    """The most relevant error of ``instance`` against schema ``name``, or None."""
    if predicate(name)(instance):
        return None
    error: ValidationError | None = best_match(validator(name).iter_errors(instance))
    return error


def iter_errors(name: str, instance: Any) -> Iterator[ValidationError]:
    """Every error of ``instance`` against schema ``name`` (none when it is valid)."""
    if predicate(name)(instance):
        return iter(())
    return validator(name).iter_errors(instance)


class ProtocolValidator:
    """Checks every message both ways; the first violation raises ``ProtocolViolation``."""

    def check_request(self, message: dict[str, Any]) -> None:
        self._check(f"protocol/{message.get('command')}.json", message, "request")

    def check_response(self, command: str, message: dict[str, Any]) -> None:
        if "error" in message:
            self._check("protocol/message.json#/$defs/error_response", message,
                        f"{command} error response")
        else:
            self._check(f"protocol/{command}.json#response", message, f"{command} response")

    @staticmethod
    def _check(name: str, message: dict[str, Any], what: str) -> None:
        error = first_error(name, message)
        if error is not None:
            raise ProtocolViolation(
                f"protocol violation in the {what} at {location(error)}: {error.message}"
            )
