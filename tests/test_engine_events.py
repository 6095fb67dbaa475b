"""The reference engine's events (reference_engine/events.py) against the protocol's event
schema (spec/schemas/protocol/event.json): every kind the engine defines is emitted, by
random self-play games in both editions and a few small games set up for the kinds random
play does not reach; every event's JSON is valid, its record is of the kind its JSON names,
and it carries exactly the fields its kind's clause of the schema documents."""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable
from typing import Any

from jsonschema import Draft202012Validator

from conformance import schemas
from reference_engine.constants import PLAYERS
from reference_engine.engine import ReferenceEngine
from reference_engine.events import EVENT_TYPES, Event
from reference_engine.selfplay import random_deck
from tests.enginekit import h, resolve, table

SCHEMA = "protocol/event.json"
#: fields a clause documents for other engines, which the reference engine never gives
FOR_OTHER_ENGINES = {("zone_change", "incarnation")}
#: self-play games per edition: at least the first, at most the second (the games stop once
#: every kind has been seen)
GAMES = (3, 40)
MAX_ACTIONS = 20_000


def _clauses() -> dict[str, tuple[frozenset[str], frozenset[str]]]:
    """Each kind the schema describes: its required fields and every field it documents."""
    schema = json.loads((schemas.PROTOCOL_DIR / "event.json").read_text(encoding="utf-8"))
    out = {}
    for clause in schema["allOf"]:
        kind = clause["if"]["properties"]["type"]["const"]
        then = clause["then"]
        required = frozenset(then.get("required", ()))
        out[kind] = (required, required | frozenset(then.get("properties", {})))
    return out


# -- small games for the kinds random play does not reach ----------------------------------


def _control() -> list[dict[str, Any]]:
    t = table("modern", a={"hand": [h("magic", "Control Magic")], "mana_pool": {"U": 4}},
              battlefield=[h("bears", "Grizzly Bears", controller="B")])
    t.do("cast", "A", card="magic", targets=["bears"])
    resolve(t)
    assert t.find("bears")["controller"] == "A"
    return t.events


def _emblem() -> list[dict[str, Any]]:
    t = table("modern", battlefield=[h("elspeth", "Elspeth, Knight-Errant", controller="A",
                                       counters={"loyalty": 8})])
    t.do("activate", "A", card="elspeth", ability=2)
    resolve(t)
    assert [o["card"] for o in t.obs()["command"]] == ["Elspeth, Knight-Errant emblem"]
    return t.events


def _loss_replaced() -> list[dict[str, Any]]:
    t = table("modern", a={"life": 2}, b={"hand": [h("bolt", "Lightning Bolt")],
                                        "mana_pool": {"R": 1}},
              battlefield=[h("angel", "Exquisite Archangel", controller="A")], active="B")
    t.do("cast", "B", card="bolt", targets=["A"])
    resolve(t)
    assert t.player("A")["life"] == 20
    return t.events


def _new_object() -> list[dict[str, Any]]:
    # Plow Under covers the revealed top card of A's library: it is a new object (401.6).
    forests = [h(f"forest-{i}", "Forest", controller="B") for i in range(5)]
    t = table("modern", b={"hand": [h("plow", "Plow Under")]}, active="B", turn=4,
              a={"library": [h("top", "Lightning Bolt"), "Island"]},
              battlefield=[h("fs", "Future Sight", controller="A"),
                           h("l1", "Plains", controller="A"), h("l2", "Plains", controller="A"),
                           *forests])
    t.do("cast", "B", card="plow", targets=["l1", "l2"], pay_with="auto")
    resolve(t)
    while t.obs()["pending"]:
        choice = next(a for a in t.legal() if a["action"] == "choose")
        t.do("choose", choice["player"], choice=choice["choice"])
    return t.events


def _prevent() -> list[dict[str, Any]]:
    t = table("cr2004", battlefield=[h("fanatic", "Mogg Fanatic", controller="A"),
                                     h("cop", "Circle of Protection: Red", controller="B"),
                                     h("island", "Island", controller="B")])
    t.do("activate", "A", card="fanatic", ability=0, targets=["B"])
    t.do("pass", "A")
    t.do("activate", "B", card="cop", ability=0, pay_with=["island"])
    resolve(t)  # the Circle's ability: the Fanatic is the only red source
    resolve(t)  # the Fanatic's: its damage is prevented
    assert t.player("B")["life"] == 20
    return t.events


def _regenerate() -> list[dict[str, Any]]:
    t = table("modern", a={"hand": [h("shock", "Shock")], "mana_pool": {"R": 1}},
              b={"mana_pool": {"B": 1}},
              battlefield=[h("skel", "Drudge Skeletons", controller="B")])
    t.do("pass", "A")
    t.do("activate", "B", card="skel", ability=0)
    resolve(t)
    t.do("cast", "A", card="shock", targets=["skel"])
    resolve(t)
    assert t.find("skel")["tapped"]  # regenerated
    return t.events


SCENARIOS: tuple[Callable[[], list[dict[str, Any]]], ...] = (
    _control, _emblem, _loss_replaced, _new_object, _prevent, _regenerate)


# -- self-play -------------------------------------------------------------------------------


def _selfplay(edition: str, seed: int) -> list[dict[str, Any]]:
    """A random game (as reference_engine.selfplay plays them, with decks from the whole
    pool); its events, each record checked against the JSON the engine gives for it."""
    rng = random.Random(seed)
    engine = ReferenceEngine()
    engine.new_game(edition, {"start": "game", "seed": seed, "decks": {
        name: random_deck(rng, edition, decks="pool") for name in PLAYERS}})
    game = engine.game
    assert game is not None
    out: list[dict[str, Any]] = []
    for _ in range(MAX_ACTIONS):
        records = game.peek_events()
        events = engine.events()
        assert len(records) == len(events)
        for record, event in zip(records, events, strict=True):
            assert isinstance(record, Event)
            assert EVENT_TYPES[event["type"]] is type(record), (record, event)
        assert game.peek_events() == []  # taken
        out.extend(events)
        if game.result.over:
            return out
        game.apply(rng.choice(game.legal_actions()[:-2]))  # never a concession
    raise AssertionError(f"{edition} game {seed} did not end within {MAX_ACTIONS} actions")


@functools.cache
def _emitted() -> tuple[dict[str, Any], ...]:
    """The events of the small games, then of self-play games in both editions until every
    kind has been seen (at least GAMES[0], at most GAMES[1] games per edition)."""
    events: list[dict[str, Any]] = []
    for scenario in SCENARIOS:
        events.extend(scenario())
    seen = {e["type"] for e in events}
    for seed in range(GAMES[1]):
        if seed >= GAMES[0] and seen >= set(EVENT_TYPES):
            break
        for edition in ("cr2004", "modern"):
            played = _selfplay(edition, seed)
            events.extend(played)
            seen.update(e["type"] for e in played)
    return tuple(events)


# -- the tests -------------------------------------------------------------------------------


def test_every_kind_has_one_frozen_record_class_and_one_schema_clause():
    for kind, cls in EVENT_TYPES.items():
        assert cls.type == kind and issubclass(cls, Event)
        assert "__slots__" in vars(cls) and cls.__dataclass_params__.frozen  # type: ignore
    assert set(_clauses()) == set(EVENT_TYPES)
    description = json.loads((schemas.PROTOCOL_DIR / "event.json").read_text(
        encoding="utf-8"))["properties"]["type"]["description"]
    assert [k for k in EVENT_TYPES if k not in description.split(", ")] == []


def test_every_kind_is_emitted():
    seen = {e["type"] for e in _emitted()}
    assert sorted(set(EVENT_TYPES) - seen) == [], "never emitted: add a game that emits it"
    assert sorted(seen - set(EVENT_TYPES)) == []


def test_every_event_is_valid_and_carries_exactly_its_documented_fields():
    clauses = _clauses()
    fields_seen: dict[str, set[str]] = {kind: set() for kind in clauses}
    checked_fully: set[tuple[str, frozenset[str]]] = set()
    validator = Draft202012Validator(schemas.validator(SCHEMA).schema)
    for event in _emitted():
        kind = event["type"]
        keys = frozenset(event) - {"type"}
        required, documented = clauses[kind]
        assert keys <= documented, f"{kind}: undocumented fields {sorted(keys - documented)}"
        assert required <= keys, f"{kind}: missing {sorted(required - keys)}"
        fields_seen[kind] |= keys
        # Every event through the schema's compiled predicate (jsonschema's semantics, see
        # conformance.fastcheck); jsonschema itself for the first event of each shape.
        error = schemas.first_error(SCHEMA, event)
        assert error is None, f"{event}: {error.message}"
        if (kind, keys) not in checked_fully:
            checked_fully.add((kind, keys))
            assert [e.message for e in validator.iter_errors(event)] == [], event
    never = {(kind, name) for kind, (_, documented) in clauses.items()
             for name in documented - fields_seen[kind]} - FOR_OTHER_ENGINES
    assert sorted(never) == [], "documented fields the engine never gives"


def test_unknown_kinds_and_extra_fields_stay_allowed():
    # "Engines may add event types and fields" (docs/protocol.md)
    assert schemas.first_error(SCHEMA, {"type": "my_engine_thing", "data": [1, 2]}) is None
    draw = {"type": "draw", "player": "A", "object": 4, "mine": True}
    assert schemas.first_error(SCHEMA, draw) is None
    assert schemas.first_error(SCHEMA, {"type": "draw", "player": "A"}) is not None
    assert schemas.first_error(SCHEMA, {"type": "sba", "rule": "704.5a"}) is None  # not ours

