"""Compiled schema predicates (conformance.fastcheck): they accept exactly what jsonschema
accepts, keyword by keyword and on real messages broken anywhere, and violations still read
as jsonschema words them."""

from __future__ import annotations

import copy
import random

import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from conformance import schemas
from conformance.errors import ProtocolViolation
from conformance.fastcheck import compile_schema, delegated
from conformance.schemas import ProtocolValidator
from reference_engine.engine import ReferenceEngine

#: values of every JSON type and the edge cases of jsonschema's semantics: bool is no integer,
#: 1.0 is one, True and 1 differ in enum, const and uniqueItems; keys that are not strings
#: (YAML makes them)
VALUES = [None, True, False, 0, 0.0, 1, -1, 1.0, 1.5, 2, "", "a", "ab", "abc", "b1",
          [], [1], [1, True], [1, 1.0], ["a", "a"], ["a", "b"], [[1]], [{"a": 1}],
          {}, {"a": 1}, {"a": "x"}, {"a": 1, "b": 2}, {"b": 2}, {"A": 1}, {1: "x"},
          {"hidden": True}, {"a": 1, "b": "x"}, {"a": True}]

SCHEMAS = [
    True, False, {}, {"description": "annotations only"},
    *({"type": t} for t in ("object", "array", "string", "boolean", "null", "integer",
                            "number")),
    {"type": ["integer", "null"]}, {"type": ["string", "number"]}, {"type": ["array", "object"]},
    {"enum": ["a", "b"]}, {"enum": [None, True]}, {"enum": ["a", False]}, {"enum": [1, 1.5]},
    {"enum": []}, {"enum": [[1], {"a": 1}]}, {"enum": [0, "a", None]}, {"const": 1.0},
    {"const": 0},
    {"const": True}, {"const": False}, {"const": None}, {"const": "a"}, {"const": 1},
    {"const": {"a": 1}}, {"const": [1]},
    {"minimum": 0}, {"maximum": 1}, {"minimum": 0, "maximum": 1.5},
    {"type": "integer", "minimum": 0}, {"type": "number", "maximum": 1},
    {"pattern": "^a"}, {"pattern": "b"}, {"minLength": 1}, {"maxLength": 2},
    {"type": "string", "pattern": "^[a-z]+$", "minLength": 2},
    {"properties": {"a": {"type": "integer"}}},
    {"properties": {"a": {"type": "integer"}, "b": False}},
    {"type": "object", "required": ["a"]}, {"required": ["a", "b"]},
    {"properties": {"a": {}}, "additionalProperties": False},
    {"additionalProperties": {"type": "string"}},
    {"properties": {"a": True}, "additionalProperties": {"type": "integer"}},
    {"propertyNames": {"pattern": "^[a-z]+$"}}, {"propertyNames": {"maxLength": 0}},
    {"minProperties": 1}, {"maxProperties": 1},
    {"type": "object", "additionalProperties": False, "required": ["hidden"],
     "properties": {"hidden": {"const": True}}},
    {"items": {"type": "integer"}}, {"type": "array", "minItems": 1}, {"maxItems": 1},
    {"uniqueItems": True}, {"uniqueItems": False}, {"items": False}, {"items": True},
    {"items": {"items": {"type": "integer"}}},
    {"allOf": [{"type": "object"}, {"required": ["a"]}]},
    {"anyOf": [{"type": "string"}, {"type": "integer"}]},
    {"oneOf": [{"type": "integer"}, {"minimum": 0}]},
    {"not": {"type": "string"}},
    {"if": {"properties": {"a": {"const": 1}}}, "then": {"required": ["b"]},
     "else": {"maxProperties": 0}},
    {"if": {"type": "string"}, "then": {"minLength": 2}},
    {"if": {"type": "string"}, "else": {"type": "integer"}},
    {"then": {"required": ["b"]}},  # no if: jsonschema ignores then
    # keywords that are not compiled: their nodes go to jsonschema
    {"multipleOf": 2}, {"prefixItems": [{"type": "string"}], "items": False},
    {"patternProperties": {"^a": {"type": "integer"}}, "additionalProperties": False},
    {"dependentRequired": {"a": ["b"]}}, {"type": "nonsense"}, {"minItems": -1},
    {"pattern": "(?<=a"},
]


def _outcome(check, value):
    try:
        return check(value)
    except Exception as exc:  # jsonschema fails on some odd input (an int key for a regex)
        return type(exc)


@pytest.mark.parametrize("schema", SCHEMAS, ids=repr)
def test_a_predicate_accepts_what_jsonschema_accepts(schema):
    check = compile_schema(schema)
    validator = Draft202012Validator(schema)
    wrong = [v for v in VALUES if _outcome(check, v) != _outcome(validator.is_valid, v)]
    assert wrong == []


def test_schemas_nested_deeper_than_one_function_holds():
    schema: object = {"type": "integer"}
    value: object = 1
    for _ in range(30):
        schema, value = {"type": "array", "items": schema}, [value]
    check = compile_schema(schema)
    assert check(value)
    broken = copy.deepcopy(value)
    inner = broken
    for _ in range(29):
        inner = inner[0]
    inner[0] = "x"
    assert not check(broken)
    assert Draft202012Validator(schema).is_valid(broken) is False


def test_every_keyword_of_the_projects_schemas_is_compiled():
    # What is handed to jsonschema is slow.
    for path in sorted(schemas.SCHEMA_DIR.rglob("*.json")):
        name = path.relative_to(schemas.SCHEMA_DIR).as_posix()
        assert delegated(schemas.validator(name).schema) == [], name


def _observation() -> dict:
    engine = ReferenceEngine()
    decks = {"A": [{"card": "Llanowar Elves", "count": 4}, {"card": "Forest", "count": 20},
                   {"card": "Lightning Bolt", "count": 4}],
             "B": [{"card": "Grizzly Bears", "count": 4}, {"card": "Mountain", "count": 20}]}
    engine.new_game("modern", {"start": "game", "seed": 7, "first_player": "A",
                               "decks": decks})
    return engine.observe()


def _paths(value, at=()):
    yield at
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*at, index))


def _broken(message, path, rng):
    """``message`` with the value at ``path`` replaced, removed, or given a stray key."""
    out = copy.deepcopy(message)
    parent = out
    for part in path[:-1]:
        parent = parent[part]
    last = path[-1]
    how = rng.randrange(10)
    if how == 0 and isinstance(parent, dict):
        del parent[last]
    elif how == 1 and isinstance(parent[last], dict):
        parent[last]["stray"] = 1
    else:
        parent[last] = rng.choice([None, True, -1, 0, 1.5, 3, "", "x", "A", [], {}, [1],
                                   {"hidden": True}])
    return out


def test_predicates_agree_with_jsonschema_on_real_messages_broken_anywhere():
    rng = random.Random(16)
    message = {"id": 3, "result": {"observation": _observation()}}
    name = "protocol/observe.json#response"
    check, validator = schemas.predicate(name), schemas.validator(name)
    assert check(message)
    paths = [p for p in _paths(message) if p]
    disagree, invalid = [], 0
    for path in rng.sample(paths, 150):
        broken = _broken(message, path, rng)
        valid = validator.is_valid(broken)
        invalid += not valid
        if check(broken) != valid:
            disagree.append(path)
    assert disagree == []
    assert invalid > 50  # most breaks are violations: the comparison meant something


def test_a_deep_break_is_reported_after_the_same_shape_passed():
    observation = _observation()
    validator = ProtocolValidator()
    validator.check_response("observe", {"id": 1, "result": {"observation": observation}})
    library = observation["players"]["A"]["library"]
    index = next(i for i, card in enumerate(library) if "card" in card)
    library[index]["mana_value"] = -1
    message = {"id": 2, "result": {"observation": observation}}
    expected = best_match(schemas.validator("protocol/observe.json#response")
                          .iter_errors(message))
    with pytest.raises(ProtocolViolation) as info:
        validator.check_response("observe", message)
    assert f"players.A.library[{index}]" in str(info.value)
    assert str(info.value).endswith(f": {expected.message}")


def test_iter_errors_finds_nothing_in_a_valid_instance_and_everything_in_an_invalid_one():
    request = {"id": 1, "command": "perform", "args": {"action": {"action": "pass",
                                                                  "player": "C"}}}
    found = [e.message for e in schemas.iter_errors("protocol/perform.json", request)]
    every = schemas.validator("protocol/perform.json").iter_errors(request)
    assert found == [e.message for e in every] != []
    request["args"]["action"]["player"] = "A"
    assert list(schemas.iter_errors("protocol/perform.json", request)) == []
