"""Transports and sessions: engine specs, both transports, the handshake, restarts."""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from pathlib import Path

import pytest

from conformance.client import EngineClient
from conformance.errors import (
    BadEngineSpec,
    EngineCrashed,
    EngineRejected,
    EngineStartupFailed,
    EngineTimedOut,
    HandshakeFailed,
    InvalidResponse,
    ProtocolViolation,
    VersionMismatch,
)
from conformance.protocol import NewGame, Observe
from conformance.session import EngineBroken, EngineSession
from conformance.transports import REFERENCE, EngineSpec
from conformance.transports.process import LineReader

FAKES = Path(__file__).resolve().parent / "fakes"
SCRIPTABLE = f"cmd:{sys.executable} {FAKES / 'scriptable.py'}"
STATE = {"turn": {"number": 3, "active": "A", "step": "precombat_main"}}


def breaker(mode: str) -> str:
    return f"cmd:{sys.executable} {FAKES / 'breaker.py'} {mode}"


def miniature(name: str) -> str:
    return f"py:tests.fakes.miniatures:{name}"


def instructed(what: str, command: str) -> dict:
    """A given state whose handle tells the scriptable fake to misbehave."""
    return {**STATE, "players": {"A": {"hand": [
        {"handle": f"fake-{what}-on-{command}", "card": "Forest"}]}}}


# ---- engine specs ----

@pytest.mark.parametrize(("text", "kind", "target"), [
    ("reference", "py", REFERENCE.removeprefix("py:")),
    ("py:my_engine:Engine", "py", "my_engine:Engine"),
    ("py:pkg.mod:Outer.Inner", "py", "pkg.mod:Outer.Inner"),
    ("cmd:./engine --conformance", "cmd", "./engine --conformance"),
])
def test_engine_specs(text, kind, target):
    spec = EngineSpec.parse(text)
    assert (spec.kind, spec.target, spec.label) == (kind, target, text)


@pytest.mark.parametrize("text", ["", "java -jar x", "py:", "py:module", "py:a b:C", "cmd:",
                                  "cmd:'unclosed"])
def test_bad_engine_specs_say_what_an_engine_is(text):
    with pytest.raises(BadEngineSpec) as info:
        EngineSpec.parse(text)
    assert "py:MODULE:CLASS" in info.value.render()


# ---- in-process ----

def started(text: str, **kwargs) -> EngineSession:
    session = EngineSession(EngineSpec.parse(text), **kwargs)
    session.start()
    return session


def test_in_process_handshake_and_calls():
    session = started(miniature("Correct"))
    try:
        assert session.info.name == "toy"
        assert "observe.events" in session.info.capabilities
        client = session.begin(5.0)
        handles = client.new_game("cr2004", {**STATE, "players": {"A": {"hand": [
            {"handle": "land", "card": "Forest"}]}}})
        client.perform({"action": "play_land", "player": "A", "card": handles["land"]})
        assert [e["type"] for e in client.events()] == ["zone_change"]
        with pytest.raises(EngineRejected) as info:
            client.perform({"action": "pass", "player": "B"})
        assert (info.value.type, info.value.reason) == ("illegal_action", "no_priority")
        session.end(unusable=False)
    finally:
        session.close()


def test_in_process_answers_are_copies_through_json():
    session = started(miniature("Correct"))
    client = session.begin(5.0)
    client.new_game("cr2004", STATE)
    first = client.observe()
    first["players"]["A"]["life"] = 1
    assert client.observe()["players"]["A"]["life"] == 20
    session.close()


def test_in_process_hang_is_interrupted():
    session = started(miniature("HangsOnObserve"))
    client = session.begin(0.1)
    client.new_game("cr2004", STATE)
    with pytest.raises(EngineTimedOut, match="observe did not return within"):
        client.observe()
    session.end(unusable=True)
    assert session.client is None


def test_in_process_value_that_is_not_json():
    session = started(miniature("ReturnsSets"))
    client = session.begin(5.0)
    client.new_game("cr2004", STATE)
    with pytest.raises(InvalidResponse, match="not JSON"):
        client.observe()


def test_in_process_exception_is_an_engine_error_with_its_traceback():
    session = started(miniature("CrashesOnCast"))
    client = session.begin(5.0)
    mark = client.transport.stderr_mark()
    client.new_game("cr2004", STATE)
    with pytest.raises(EngineRejected) as info:
        client.perform({"action": "cast", "player": "A", "card": 1})
    assert info.value.type == "engine_error"
    assert "RuntimeError: stack underflow" in str(info.value)
    assert "Traceback" in client.transport.stderr_since(mark)


@pytest.mark.parametrize(("text", "error", "words"), [
    (miniature("FailsToStart"), EngineStartupFailed, "card database not found"),
    ("py:no_such_module_anywhere:Engine", EngineStartupFailed, "cannot import"),
    ("py:tests.fakes.miniatures:NoSuchClass", EngineStartupFailed, "has no NoSuchClass"),
    (miniature("SpeaksProtocolV0"), VersionMismatch, "speaks protocol 0"),
])
def test_in_process_startup_failures(text, error, words):
    with pytest.raises(error, match=words) as info:
        started(text)
    assert info.value.render().startswith(f"error[{info.value.code}]")


def test_validation_catches_a_schema_breaking_answer():
    session = started(miniature("BreaksTheSchema"), validate=True)
    client = session.begin(5.0)
    client.new_game("cr2004", STATE)
    with pytest.raises(ProtocolViolation, match=r"players\.[AB]\.life: '20' is not of type"):
        client.observe()


def test_validation_catches_a_bad_request_before_sending():
    session = started(miniature("Correct"), validate=True)
    client = session.begin(5.0)
    with pytest.raises(ProtocolViolation, match="request"):
        client.call(NewGame("cr2004", {"start": "game"}))


# ---- processes ----

def test_process_round_trip_and_bye():
    session = started(SCRIPTABLE)
    client = session.begin(5.0)
    client.new_game("modern", STATE)
    assert client.call(Observe())["observation"]["turn"]["number"] == 3
    process = client.transport.process
    session.end(unusable=False)
    session.close()
    assert process.wait(timeout=2) == 0  # it left on bye


@pytest.mark.parametrize(("what", "error", "words"), [
    ("crash", EngineCrashed, "exited with status 3 during observe"),
    ("hang", EngineTimedOut, "no response to observe within"),
    ("garble", InvalidResponse, "not JSON: 'Segmentation fault"),
    ("misnumber", InvalidResponse, "has id"),
])
def test_process_misbehaviour(what, error, words):
    session = started(SCRIPTABLE)
    client = session.begin(0.15)
    client.new_game("cr2004", instructed(what, "observe"))
    with pytest.raises(error, match=words) as info:
        client.observe()
    if what == "crash":
        assert "crashing on observe as instructed" in info.value.stderr
    session.end(unusable=True)
    session.close()


def test_process_stderr_is_kept_bounded():
    session = EngineSession(EngineSpec.parse(SCRIPTABLE))
    session.start()
    client = session.begin(5.0)
    mark = client.transport.stderr_mark()
    client.new_game("cr2004", instructed("shout", "observe"))
    client.observe()
    text = client.transport.stderr_since(mark)
    assert text.endswith("fake: shouted\n")
    assert len(text) <= 8192
    session.close()


@pytest.mark.parametrize(("mode", "error", "words"), [
    ("exits_at_start", HandshakeFailed, "exited with status 1"),
    ("errors_on_hello", HandshakeFailed, "hello was answered with an error: engine_error"),
    ("nonjson_on_hello", HandshakeFailed, "not JSON"),
    ("wrong_version", VersionMismatch, "speaks protocol 2"),
    ("wrong_id_on_hello", HandshakeFailed, "has id 2"),
    ("incomplete_hello", HandshakeFailed, "no 'cards'"),
])
def test_breakers_fail_the_handshake(mode, error, words):
    with pytest.raises(error, match=words) as info:
        started(breaker(mode))
    if mode == "exits_at_start":
        assert "cannot open card database" in info.value.render()


def test_silent_engine_times_out_the_handshake():
    with pytest.raises(HandshakeFailed, match="no response to hello within"):
        started(breaker("silent_on_hello"), startup_timeout=0.15)


def test_missing_command_cannot_start():
    with pytest.raises(EngineStartupFailed, match="cannot run"):
        started("cmd:/no/such/engine --conformance")


def test_a_healthy_restart_never_marks_the_engine_broken():
    """Each restarted process answers hello: every case costs its own crash, however many in
    a row, and the engine stays in the run."""
    session = started(breaker("crashes_on_new_game"), max_restarts=2)
    for attempt in range(5):
        client = session.begin(2.0)
        with pytest.raises(EngineCrashed, match="during new_game"):
            client.new_game("cr2004", STATE)
        session.end(unusable=True)
        assert session.restarts == attempt
    assert session.broken is None
    session.begin(2.0)
    session.close()


def test_failed_restarts_in_a_row_mark_the_engine_broken(tmp_path):
    session = started(breaker(f"crashes_on_new_game {tmp_path / 'started'}"), max_restarts=2)
    client = session.begin(2.0)
    with pytest.raises(EngineCrashed, match="during new_game"):
        client.new_game("cr2004", STATE)
    session.end(unusable=True)
    for _ in range(2):
        with pytest.raises(EngineCrashed, match="could not be restarted"):
            session.begin(2.0)
    with pytest.raises(EngineBroken, match="marked broken after 2 failed restarts in a row "
                                           r"\(it did not start or answer hello\)"):
        session.begin(2.0)
    assert session.broken and session.restarts == 2


def test_a_good_case_resets_the_restart_count():
    session = started(SCRIPTABLE, max_restarts=1)
    for _ in range(3):
        client = session.begin(2.0)
        client.new_game("cr2004", instructed("crash", "observe"))
        with pytest.raises(EngineCrashed):
            client.observe()
        session.end(unusable=True)
        client = session.begin(2.0)  # restarted
        client.new_game("cr2004", STATE)
        client.observe()
        session.end(unusable=False)
    assert session.restarts == 3
    assert session.broken is None
    session.close()


def test_client_checks_the_response_shape():
    class Garbage:
        def start(self): ...
        def exchange(self, message, timeout):
            return {"id": message["id"], "result": []}
        def stderr_mark(self): return 0
        def stderr_since(self, mark): return ""
        def close(self): ...
        def kill(self): ...

    with pytest.raises(InvalidResponse, match="neither a result object nor an error"):
        EngineClient(Garbage()).observe()


# ---- reading a process's lines ----

@pytest.fixture
def pipe():
    read, write = os.pipe()
    yield LineReader(read), write
    for fd in (read, write):
        with contextlib.suppress(OSError):  # closed by the test
            os.close(fd)


def test_line_reader_gives_whole_lines_however_they_arrive(pipe):
    reader, write = pipe
    os.write(write, b'{"id": 1}\n{"id": 2}\n{"id"')
    assert reader.read_line(1.0) == b'{"id": 1}\n'
    assert reader.read_line(1.0) == b'{"id": 2}\n'
    assert reader.read_line(0.05) is None  # half a line is no line
    later = threading.Timer(0.05, lambda: os.write(write, b": 3}\n"))
    later.start()
    assert reader.read_line(2.0) == b'{"id": 3}\n'
    later.join()
    big = b"[" + b"1," * 100_000 + b"1]\n"  # more than a pipe holds: it comes in pieces
    writer = threading.Thread(target=os.write, args=(write, big))
    writer.start()
    assert reader.read_line(5.0) == big
    writer.join()


def test_line_reader_times_out_on_time(pipe):
    reader, _ = pipe
    started = time.monotonic()
    assert reader.read_line(0.1) is None
    assert 0.1 <= time.monotonic() - started < 1.0


def test_line_reader_ends_with_what_was_left_then_eof(pipe):
    reader, write = pipe
    os.write(write, b"last words")
    os.close(write)
    assert reader.read_line(1.0) == b"last words"
    assert reader.read_line(1.0) is LineReader.EOF
    assert reader.read_line(None) is LineReader.EOF


# ---- protocol 1.2: observe.with_perform ----

def recording(client: EngineClient) -> list[dict]:
    """The requests the client sends from now on."""
    sent: list[dict] = []
    exchange = client.transport.exchange

    def record(message, timeout):
        sent.append(message)
        return exchange(message, timeout)

    client.transport.exchange = record  # type: ignore[method-assign]
    return sent


@pytest.mark.parametrize("engine", [
    f"{SCRIPTABLE} --lint --with-perform",
    f"cmd:{sys.executable} -m reference_engine.serve",
])
def test_perform_answers_with_the_observation_and_events_over_the_wire(engine):
    session = started(engine, validate=True)
    try:
        client = session.begin(30.0)
        assert client.combine and client.combine_events
        client.new_game("modern", STATE)
        sent = recording(client)
        before = client.observe()
        passing = {"action": "pass", "player": before["turn"]["priority"]}
        client.perform(passing)
        after, events = client.observe(), client.events()
        # one round trip for the step, its observation and events taken from the answer
        assert [m["command"] for m in sent] == ["observe", "perform"]
        assert sent[-1]["args"] == {"action": passing, "observe": True, "events": True}
        assert after == client.observe() and client.events() == []  # asked: the same game
        assert after["turn"]["priority"] != before["turn"]["priority"]
        assert isinstance(events, list)
    finally:
        session.close()


def test_a_caller_that_does_not_look_is_not_sent_observations():
    session = started(f"cmd:{sys.executable} -m reference_engine.serve")
    try:
        client = session.begin(30.0)
        client.new_game("modern", STATE)
        sent = recording(client)
        for player in ("A", "B", "A"):  # the main phase's passes, then combat's: unobserved
            client.perform({"action": "pass", "player": player})
        performs = [m["args"] for m in sent if m["command"] == "perform"]
        assert performs[0].get("observe") is True
        # the first answer's observation was not looked at: the later performs ask nothing
        assert performs[1:] == [{"action": {"action": "pass", "player": p}} for p in "BA"]
        holder = client.observe()["turn"]["priority"]  # looking right after a perform...
        client.perform({"action": "pass", "player": holder})
        assert sent[-1]["args"].get("observe") is True  # ...makes the next one ask again
    finally:
        session.close()


def test_in_process_the_client_makes_separate_calls():
    session = started(REFERENCE)
    try:
        assert not session.begin(30.0).combine
    finally:
        session.close()
