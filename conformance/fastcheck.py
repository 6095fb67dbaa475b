"""JSON Schemas compiled into plain Python predicates: is this instance valid, yes or no.

``jsonschema`` finds and explains errors, but it walks the schema afresh for every instance and
builds a validator object for each node it descends into: one observation (a hundred card
objects) took 6-15 ms to check, more than the engine spent making it. A valid message, which is
nearly every message, needs no explanation, only a yes. ``compile_schema`` writes that yes or
no once per schema as Python source (a function per object, array or combinator node, with the
checks of plain values written inline) and compiles it; ``conformance.schemas`` asks
``jsonschema`` for the error only when the answer is no, so every violation reads as before.

A predicate must accept exactly what ``Draft202012Validator`` accepts. The keywords the
project's schemas use are compiled with ``jsonschema``'s semantics (a bool is no integer and
``1.0`` is one; ``enum`` and ``const`` tell ``True`` from ``1``); a node with any other keyword,
or with a value not handled here (``const`` of an object, say), is checked by ``jsonschema``
itself, slower but right. ``$ref`` is not compiled: the schema must have its references inlined
first (``conformance.schemas``), or each node that has one goes to ``jsonschema`` too.
"""

from __future__ import annotations

import json
import numbers
import re
from collections.abc import Callable
from functools import partial
from typing import Any

from jsonschema import Draft202012Validator

Check = Callable[[Any], bool]

#: keywords that never change validity (annotations and the schema's own bookkeeping)
IGNORED = frozenset({"description", "title", "$comment", "examples", "default", "deprecated",
                     "readOnly", "writeOnly", "$schema", "$id", "$anchor", "$defs"})
_VALUE = frozenset({"type", "enum", "const", "minimum", "maximum", "pattern", "minLength",
                    "maxLength"})
_OBJECT = frozenset({"properties", "additionalProperties", "required", "propertyNames",
                     "minProperties", "maxProperties"})
_ARRAY = frozenset({"items", "minItems", "maxItems", "uniqueItems"})
_COMBINATORS = frozenset({"allOf", "anyOf", "oneOf", "not", "if", "then", "else"})
#: keywords compiled here; a node with any other is checked by ``jsonschema``
COMPILED = _VALUE | _OBJECT | _ARRAY | _COMBINATORS


def compile_schema(schema: Any) -> Check:
    """A predicate that is true exactly for the instances valid under ``schema``."""
    return _Compiler().build(schema)


def delegated(schema: Any) -> list[Any]:
    """The nodes of ``schema`` that its predicate hands to ``jsonschema`` (slow ones)."""
    compiler = _Compiler()
    compiler.build(schema)
    return compiler.delegated


class _Unhandled(Exception):
    """A keyword value this module does not compile (``jsonschema`` checks the node)."""


def _integer(x: Any) -> bool:
    # Draft 6 on: a float with no fractional part is an integer; a bool never is.
    if isinstance(x, int):
        return not isinstance(x, bool)
    return isinstance(x, float) and x.is_integer()


def _is_number(x: Any) -> bool:
    return isinstance(x, numbers.Number) and not isinstance(x, bool)


_UNIQUE = Draft202012Validator({"uniqueItems": True}).is_valid


def _unique(items: list[Any]) -> bool:
    # Strings are the same exactly when ==, for jsonschema too; any other items go to its own
    # rule (1 and True differ, 1 and 1.0 do not).
    if all(type(i) is str for i in items):
        return len(set(items)) == len(items)
    return _UNIQUE(items)


#: the types one isinstance test decides (bool is an int, so integer and number are not here)
_CLASSES = {"object": "dict", "array": "list", "string": "str", "boolean": "bool",
            "null": "NoneType"}
_MISSING = object()
#: indentation levels written inline before a node becomes a function of its own (Python
#: refuses more than 20 nested blocks in one function)
_MAX_DEPTH = 12


class _Compiler:
    """Writes the source of one schema's predicate: ``function`` per node that needs one,
    ``_check`` for the statements that ``return False`` when a value fails a node."""

    def __init__(self) -> None:
        self.env: dict[str, Any] = {"_integer": _integer, "_is_number": _is_number,
                                    "_unique": _unique,
                                    "_MISSING": _MISSING, "NoneType": type(None)}
        self.source: list[str] = []
        self._functions: dict[str, str] = {}  # a node's JSON text -> its function's name
        self._names = 0
        self.delegated: list[Any] = []

    def build(self, schema: Any) -> Check:
        name = self.function(schema)
        code = compile("\n".join(self.source), "<compiled schema>", "exec")
        # Our own source: schema values reach it only as constants in env, or as repr()s.
        exec(code, self.env)
        check: Check = self.env[name]
        return check

    def _fresh(self, prefix: str) -> str:
        self._names += 1
        return f"{prefix}{self._names}"

    def constant(self, value: Any) -> str:
        name = self._fresh("_k")
        self.env[name] = value
        return name

    def function(self, schema: Any) -> str:
        """The name of a function ``(x) -> bool`` checking ``schema``, written once per
        distinct node (the inlined references repeat the same definitions many times)."""
        key = json.dumps(schema, sort_keys=True)
        if key in self._functions:
            return self._functions[key]
        name = self._fresh("_f")
        self._functions[key] = name
        body: list[str] = []
        self._check(schema, "x", body, 1)
        self.source += [f"def {name}(x):", *body, "    return True", ""]
        return name

    def _check(self, schema: Any, var: str, out: list[str], depth: int) -> None:
        """Append to ``out`` the statements, indented ``depth`` levels, that return False
        when the value in ``var`` is not valid under ``schema``."""
        pad = "    " * depth
        if schema is True:
            return
        if schema is False:
            out.append(f"{pad}return False")
            return
        if not isinstance(schema, dict) or schema.keys() - IGNORED - COMPILED:
            self._delegate(schema, var, out, pad)
            return
        lines: list[str] = []
        try:
            self._node(schema, var, lines, depth)
        except _Unhandled:
            self._delegate(schema, var, out, pad)
            return
        out += lines

    def _delegate(self, schema: Any, var: str, out: list[str], pad: str) -> None:
        self.delegated.append(schema)
        valid = self.constant(Draft202012Validator(schema).is_valid)
        out.append(f"{pad}if not {valid}({var}): return False")

    def _call(self, schema: Any, var: str, out: list[str], depth: int) -> None:
        """Check ``var`` inline (no call costs less), or by a function when the statements
        would nest deeper than Python allows."""
        if depth < _MAX_DEPTH:
            self._check(schema, var, out, depth)
        elif schema is not True:
            out.append(f"{'    ' * depth}if not {self.function(schema)}({var}): return False")

    def _node(self, schema: dict[str, Any], var: str, out: list[str], depth: int) -> None:
        pad = "    " * depth
        kind = schema.get("type")
        if "type" in schema:
            out.append(f"{pad}if not ({self._type_test(kind, var)}): return False")
        alone = kind if isinstance(kind, str) else None
        # Each group of keywords applies to its own type only; a single type checked above
        # makes the guard needless.
        for group, json_type, section in ((_OBJECT, "object", self._object),
                                          (_ARRAY, "array", self._array),
                                          ({"pattern", "minLength", "maxLength"}, "string",
                                           self._string)):
            if schema.keys() & group:
                if alone == json_type:
                    section(schema, var, out, depth)
                else:
                    _block(out, [f"{pad}if isinstance({var}, {_CLASSES[json_type]}):"],
                           depth + 1, partial(section, schema, var, depth=depth + 1))
        if "minimum" in schema or "maximum" in schema:
            self._number(schema, var, out, depth, guarded=alone in ("integer", "number"))
        for keyword in ("enum", "const"):
            if keyword in schema:
                values = schema["enum"] if keyword == "enum" else [schema["const"]]
                out.append(f"{pad}if not ({self._enum_test(values, keyword, var)}): "
                           "return False")
        self._combinators(schema, var, out, depth)

    def _type_test(self, kind: Any, var: str) -> str:
        names = [kind] if isinstance(kind, str) else kind
        if (not isinstance(names, list) or not names
                or any(n not in _CLASSES and n not in ("integer", "number") for n in names)):
            raise _Unhandled
        tests = []
        classes = [_CLASSES[n] for n in names if n in _CLASSES]
        if classes == ["NoneType"]:
            tests.append(f"{var} is None")
        elif classes:
            joined = classes[0] if len(classes) == 1 else f"({', '.join(classes)})"
            tests.append(f"isinstance({var}, {joined})")
        if "number" in names:
            tests.append(f"_is_number({var})")
        elif "integer" in names:
            tests.append(f"type({var}) is int or _integer({var})")
        return " or ".join(tests)

    def _enum_test(self, values: Any, keyword: str, var: str) -> str:
        # As jsonschema's ``equal``: a string equals only an equal string, None and the
        # booleans only themselves, a number an equal number that is no bool (1 == 1.0);
        # arrays and objects are left to jsonschema.
        if not isinstance(values, list):
            raise _Unhandled
        strings = [v for v in values if isinstance(v, str)]
        singletons = [v for v in values if v is None or isinstance(v, bool)]
        numbers_ = [v for v in values if _is_number(v)]
        if len(strings) + len(singletons) + len(numbers_) < len(values):
            node = {keyword: values[0] if keyword == "const" else values}
            self.delegated.append(node)
            return f"{self.constant(Draft202012Validator(node).is_valid)}({var})"
        tests = [f"{var} is {v!r}" for v in singletons]
        if strings:
            tests.append(f"(isinstance({var}, str) and {var} in "
                         f"{self.constant(frozenset(strings))})")
        if numbers_:
            tests.append(f"(not isinstance({var}, (str, bool)) and {var} in "
                         f"{self.constant(tuple(numbers_))})")
        return " or ".join(tests) or "False"

    def _object(self, schema: dict[str, Any], var: str, out: list[str], depth: int) -> None:
        pad = "    " * depth
        properties = schema.get("properties", {})
        required = schema.get("required", [])
        if (not isinstance(properties, dict) or not isinstance(required, list)
                or not all(isinstance(k, str) for k in required)):
            raise _Unhandled
        needed = frozenset(required)
        extra = schema.get("additionalProperties", True)
        allowed = self.constant(frozenset(properties))
        if needed:
            out.append(f"{pad}if not {self.constant(needed)} <= {var}.keys(): return False")
        if extra is False:
            out.append(f"{pad}if not {var}.keys() <= {allowed}: return False")
        for key, sub in properties.items():
            if sub is True or (isinstance(sub, dict) and not sub.keys() - IGNORED):
                continue
            value = self._fresh("v")
            if key in needed:
                out.append(f"{pad}{value} = {var}[{key!r}]")
                self._call(sub, value, out, depth)
            else:
                out.append(f"{pad}{value} = {var}.get({key!r}, _MISSING)")
                _block(out, [f"{pad}if {value} is not _MISSING:"], depth + 1,
                       partial(self._call, sub, value, depth=depth + 1))
        if extra is not True and extra is not False:
            key, value = self._fresh("k"), self._fresh("v")
            _block(out, [f"{pad}for {key}, {value} in {var}.items():",
                         f"{pad}    if {key} not in {allowed}:"], depth + 2,
                   lambda inner: self._call(extra, value, inner, depth + 2))
        if "propertyNames" in schema:
            key = self._fresh("k")
            _block(out, [f"{pad}for {key} in {var}:"], depth + 1,
                   lambda inner: self._call(schema["propertyNames"], key, inner, depth + 1))
        self._sizes(schema, "minProperties", "maxProperties", var, out, pad)

    def _array(self, schema: dict[str, Any], var: str, out: list[str], depth: int) -> None:
        pad = "    " * depth
        self._sizes(schema, "minItems", "maxItems", var, out, pad)
        unique = schema.get("uniqueItems", False)
        if not isinstance(unique, bool):
            raise _Unhandled
        if unique:
            out.append(f"{pad}if not _unique({var}): return False")
        if "items" in schema:
            item = self._fresh("v")
            _block(out, [f"{pad}for {item} in {var}:"], depth + 1,
                   lambda inner: self._call(schema["items"], item, inner, depth + 1))

    def _string(self, schema: dict[str, Any], var: str, out: list[str], depth: int) -> None:
        pad = "    " * depth
        self._sizes(schema, "minLength", "maxLength", var, out, pad)
        if "pattern" in schema:
            pattern = schema["pattern"]
            if not isinstance(pattern, str):
                raise _Unhandled
            try:
                search = self.constant(re.compile(pattern).search)
            except re.error:
                raise _Unhandled from None  # jsonschema says what is wrong, when it is used
            out.append(f"{pad}if {search}({var}) is None: return False")

    def _sizes(self, schema: dict[str, Any], least: str, most: str, var: str,
               out: list[str], pad: str) -> None:
        for keyword, fails in ((least, "<"), (most, ">")):
            if keyword in schema:
                bound = schema[keyword]
                if not isinstance(bound, int) or isinstance(bound, bool) or bound < 0:
                    raise _Unhandled
                out.append(f"{pad}if len({var}) {fails} {bound}: return False")

    def _number(self, schema: dict[str, Any], var: str, out: list[str], depth: int, *,
                guarded: bool) -> None:
        pad = "    " * depth
        tests = []
        for keyword, fails in (("minimum", "<"), ("maximum", ">")):
            if keyword in schema:
                bound = schema[keyword]
                if not _is_number(bound):
                    raise _Unhandled
                tests.append(f"{var} {fails} {self.constant(bound)}")
        failed = " or ".join(tests)
        if not guarded:
            failed = f"_is_number({var}) and ({failed})"
        out.append(f"{pad}if {failed}: return False")

    def _combinators(self, schema: dict[str, Any], var: str, out: list[str],
                     depth: int) -> None:
        pad = "    " * depth
        for sub in _branches(schema, "allOf"):
            self._call(sub, var, out, depth)
        if "anyOf" in schema:
            tests = " or ".join(f"{self.function(s)}({var})" for s in _branches(schema, "anyOf"))
            out.append(f"{pad}if not ({tests}): return False")
        if "oneOf" in schema:
            count = " + ".join(f"{self.function(s)}({var})" for s in _branches(schema, "oneOf"))
            out.append(f"{pad}if ({count}) != 1: return False")
        if "not" in schema:
            out.append(f"{pad}if {self.function(schema['not'])}({var}): return False")
        if "if" in schema:
            then, otherwise = schema.get("then", True), schema.get("else", True)
            out.append(f"{pad}if {self.function(schema['if'])}({var}):")
            out.append(f"{pad}    if not {self.function(then)}({var}): return False")
            out.append(f"{pad}elif not {self.function(otherwise)}({var}): return False")


def _block(out: list[str], header: list[str], depth: int,
           fill: Callable[[list[str]], None]) -> None:
    """Append a compound statement: its ``header`` lines and the statements ``fill`` writes
    (indented ``depth`` levels), or ``pass`` when it writes none."""
    inner: list[str] = []
    fill(inner)
    out += [*header, *(inner or ["    " * depth + "pass"])]


def _branches(schema: dict[str, Any], keyword: str) -> list[Any]:
    if keyword not in schema:
        return []
    value = schema[keyword]
    if not isinstance(value, list) or not value:
        raise _Unhandled
    return value
