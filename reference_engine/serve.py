"""Serve the reference engine over the wire protocol: JSON lines on stdin/stdout.

    python -m reference_engine.serve

Each request ``{"id", "command", "args"}`` gets one response line with the same id and either
``result`` or ``error`` (docs/protocol.md). Diagnostics go to stderr only.
"""

from __future__ import annotations

import gc
import json
import sys
import traceback
from typing import IO, Any

from reference_engine.engine import ReferenceEngine
from reference_engine.errors import EngineError

_COMMANDS = ("hello", "new_game", "legal_actions", "perform", "observe", "events", "bye")


def handle(engine: ReferenceEngine, request: dict[str, Any]) -> dict[str, Any]:
    """Answer one request (already parsed) with a response object."""
    rid = request.get("id")
    command = request.get("command")
    args = request.get("args") or {}
    if command not in _COMMANDS or not isinstance(args, dict):
        return _error(rid, "bad_request", f"unknown command {command!r}")
    try:
        if command == "hello":
            result: dict[str, Any] = engine.hello(args.get("protocol", 1))
        elif command == "new_game":
            result = engine.new_game(args.get("edition"), args.get("setup"))
        elif command == "legal_actions":
            result = {"actions": engine.legal_actions()}
        elif command == "perform":
            engine.perform(args.get("action"))
            result = {}
            # Protocol 1.2, observe.with_perform: what the harness would ask for next, in
            # this answer (one round trip instead of three).
            if args.get("observe") is True:
                result["observation"] = engine.observe()
            if args.get("events") is True:
                result["events"] = engine.events()
        elif command == "observe":
            result = {"observation": engine.observe(args.get("player"))}
        elif command == "events":
            result = {"events": engine.events()}
        else:
            engine.close()
            result = {}
    except EngineError as exc:
        error = _error(rid, exc.protocol_error, str(exc))
        reason = getattr(exc, "reason", None)
        if reason is not None:
            error["error"]["reason"] = reason
        return error
    except Exception as exc:  # an engine bug is reported, not fatal to the session
        traceback.print_exc(file=sys.stderr)
        return _error(rid, "engine_error", f"{type(exc).__name__}: {exc}")
    return {"id": rid, "result": result}


def _error(rid: Any, kind: str, message: str) -> dict[str, Any]:
    return {"id": rid, "error": {"type": kind, "message": message}}


def serve(stdin: IO[str], stdout: IO[str]) -> None:
    engine = ReferenceEngine()
    for line in stdin:
        if not line.strip():
            continue
        request: Any = None
        try:
            request = json.loads(line)
        except json.JSONDecodeError as exc:
            response = _error(None, "bad_request", f"not JSON: {exc.msg}")
        else:
            if not isinstance(request, dict):
                response = _error(None, "bad_request", "a request must be a JSON object")
            else:
                response = handle(engine, request)
        _write_line(stdout, json.dumps(response, separators=(",", ":")) + "\n")
        if isinstance(request, dict) and request.get("command") == "bye":
            return


def _write_line(stdout: IO[str], line: str) -> None:
    """One response, one write: through the text layer a line longer than its buffer (an
    observation of 8 kB and more) goes out in two system calls, and the harness wakes twice."""
    raw = getattr(stdout, "buffer", None)
    if raw is None:
        stdout.write(line)
        stdout.flush()
        return
    stdout.flush()  # anything written to the text layer before goes first
    raw.write(line.encode("utf-8"))
    raw.flush()


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m reference_engine.serve",
        description="Serve the reference engine over the mtg-conformance protocol: one JSON "
        "request per line on stdin, one response per line on stdout (docs/protocol.md); "
        "diagnostics on stderr. Ends at `bye` or at the end of stdin. Use it as "
        "`mtgconf run --engine 'cmd:python -m reference_engine.serve'`.")
    parser.parse_args(argv)
    # What is imported now lives as long as the process: the collector need not walk it
    # again at each collection of the games' garbage (a tenth of the time spent serving).
    gc.freeze()
    try:
        serve(sys.stdin, sys.stdout)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0  # the harness went away
    return 0


if __name__ == "__main__":
    sys.exit(main())
