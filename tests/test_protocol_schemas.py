"""The protocol's JSON Schemas: well-formed, documented, and true to docs/protocol.md."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from conformance import schemas
from conformance.errors import ProtocolViolation
from conformance.protocol import COMMANDS, Hello, NewGame, Observe
from conformance.schemas import ProtocolValidator
from tests.fakes.toy import ToyEngine

ROOT = Path(__file__).resolve().parents[1]
SCHEMA_FILES = sorted((ROOT / "spec" / "schemas").rglob("*.json"))


@pytest.mark.parametrize("path", SCHEMA_FILES, ids=lambda p: p.name)
def test_schema_is_valid_draft_2020_12(path):
    Draft202012Validator.check_schema(json.loads(path.read_text()))


def _undocumented(node, where="#"):
    """Properties without a description (conditions of if/then only restate properties)."""
    if isinstance(node, dict):
        for name, sub in (node.get("properties") or {}).items():
            if isinstance(sub, dict) and "description" not in sub:
                yield f"{where}/properties/{name}"
        for key, value in node.items():
            if key not in ("if", "then", "else", "not"):
                yield from _undocumented(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _undocumented(value, f"{where}/{i}")


@pytest.mark.parametrize("path", [p for p in SCHEMA_FILES if p.name != "rule.json"],
                         ids=lambda p: p.name)
def test_every_property_has_a_description(path):
    assert list(_undocumented(json.loads(path.read_text()))) == []


def test_one_schema_file_per_command():
    names = {p.stem for p in (ROOT / "spec" / "schemas" / "protocol").glob("*.json")}
    assert set(COMMANDS) <= names
    for command in COMMANDS:
        schema = json.loads((ROOT / f"spec/schemas/protocol/{command}.json").read_text())
        assert schema["properties"]["command"]["const"] == command
        assert schema["$defs"]["response"]["$anchor"] == "response"


def test_command_classes_carry_their_wire_names():
    assert NewGame("cr2004", {}).name == "new_game"
    assert Hello().args() == {"protocol": 1.2, "harness": Hello().harness}
    assert Observe().args() == {}
    assert Observe("B").args() == {"player": "B"}


def test_example_session_of_the_protocol_document_is_valid():
    text = (ROOT / "docs" / "protocol.md").read_text()
    session = text.split("## An example session", 1)[1].split("```")[1]
    checked, pending = 0, {}
    for line in session.splitlines():
        if not line.startswith(("> ", "< ")) or "..." in line:
            continue
        message = json.loads(line[2:])
        if line.startswith("> "):
            ProtocolValidator().check_request(message)
            pending[message["id"]] = message["command"]
        else:
            ProtocolValidator().check_response(pending[message["id"]], message)
        checked += 1
    assert checked >= 10


def test_wire_examples_of_the_protocol_document_are_valid():
    text = (ROOT / "docs" / "protocol.md").read_text()
    block = text.split("## Wire format", 1)[1].split("```json")[1].split("```")[0]
    lines = [json.loads(x) for x in block.strip().splitlines()]
    requests = {m["id"]: m["command"] for m in lines if "command" in m}
    for message in lines:
        if "command" in message:
            ProtocolValidator().check_request(message)
        else:
            ProtocolValidator().check_response(requests[message["id"]], message)


def test_setup_examples_of_the_protocol_document_are_valid():
    text = (ROOT / "docs" / "protocol.md").read_text()
    setups = re.findall(r"```json\n(\{\"(?:start|seed)\".*?)```", text, re.S)
    assert len(setups) == 2
    for text in setups:
        setup = json.loads(text.replace('"B": [...]', '"B": []'))
        assert schemas.first_error("protocol/setup.json", setup) is None


def test_toy_engine_messages_are_valid():
    engine = ToyEngine()
    validator = ProtocolValidator()
    validator.check_response("hello", {"id": 1, "result": engine.hello(1)})
    setup = {"turn": {"number": 2, "active": "A", "step": "precombat_main"},
             "players": {"A": {"mana_pool": {"R": 1},
                               "hand": [{"handle": "bolt", "card": "Lightning Bolt"}]}},
             "battlefield": [{"handle": "bears", "card": "Grizzly Bears", "controller": "B"}]}
    validator.check_request({"id": 2, "command": "new_game",
                             "args": {"edition": "modern", "setup": setup}})
    handles = engine.new_game("modern", setup)
    validator.check_response("new_game", {"id": 2, "result": handles})
    engine.perform({"action": "cast", "player": "A", "card": handles["handles"]["bolt"],
                    "targets": [{"object": handles["handles"]["bears"]}]})
    for view in (None, "B"):
        validator.check_response("observe", {"id": 3, "result": {
            "observation": engine.observe(view)}})
    validator.check_response("events", {"id": 4, "result": {"events": engine.events()}})
    validator.check_response("legal_actions", {"id": 5, "result": {
        "actions": engine.legal_actions()}})


@pytest.mark.parametrize(("command", "message", "where"), [
    ("hello", {"id": 1, "result": {"name": "x", "version": "1", "protocol": 1,
                                   "editions": [], "capabilities": []}}, "result"),
    ("perform", {"id": 1, "error": {"type": "illegal_action", "message": "no"}}, "error"),
    ("perform", {"id": 1, "error": {"type": "crashed", "message": "no"}}, "error.type"),
    ("perform", {"id": 1, "result": {}, "error": {"type": "bad_request", "message": ""}},
     "(top level)"),
    ("observe", {"id": 1, "result": {"observation": {"turn": {}}}}, "result.observation"),
])
def test_violations_name_the_message_and_the_place(command, message, where):
    with pytest.raises(ProtocolViolation, match=re.escape(f"at {where}:")):
        ProtocolValidator().check_response(command, message)


def test_a_bad_request_is_a_violation_too():
    with pytest.raises(ProtocolViolation, match=r"request at args\.action\.player"):
        ProtocolValidator().check_request({"id": 1, "command": "perform", "args": {
            "action": {"action": "pass", "player": "C"}}})


def test_every_capability_is_documented_and_every_documented_one_exists():
    from conformance.protocol import CAPABILITIES

    text = (ROOT / "docs" / "protocol.md").read_text()
    table = text.split("### Capabilities", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"`((?:setup|pay|actions|observe)\.[a-z_]+)`", table))
    assert documented == set(CAPABILITIES)
