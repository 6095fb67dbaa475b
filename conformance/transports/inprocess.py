"""In-process engines: a Python object whose methods are the protocol's calls.

The object gets the same JSON values a process would, and its answers are round-tripped
through JSON, so that an in-process engine cannot pass by returning something a process
could not send (a tuple, a set, its own live state that changes under the harness's feet).
A call that runs past its time is interrupted with SIGALRM (in the main thread only).
"""

from __future__ import annotations

import importlib
import json
import signal
import sys
import threading
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from conformance import protocol
from conformance.errors import EngineStartupFailed, EngineTimedOut, InvalidResponse

_TRACEBACK_LINES = 25


class _Expired(BaseException):
    """Raised by the alarm inside engine code; a BaseException so that engines catching
    ``Exception`` cannot swallow it."""


@contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Interrupt the body with ``_Expired`` after ``seconds`` (no limit off the main thread)."""
    if seconds is None or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: object) -> None:
        raise _Expired

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 0.001))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class InProcessTransport:
    """Drives an instance of ``module.attr`` (``py:module:attr``)."""

    remote = False

    def __init__(self, engine: str, module: str, attr: str) -> None:
        self.engine_label = engine
        self.module = module
        self.attr = attr
        self.engine: Any = None
        self._fresh_json = False
        self._call_of = self._calls()  # the engine is looked up at each call
        # Tracebacks of the engine's own exceptions stand in for a process's stderr.
        self._stderr = ""
        self._written = 0

    def start(self) -> None:
        here = str(Path.cwd())
        if here not in sys.path and "" not in sys.path:
            # Like `python -m`: an engine module in the current directory is importable.
            sys.path.insert(0, here)
        try:
            module = importlib.import_module(self.module)
        except ImportError as exc:
            # A module that is not there needs no traceback; one that fails inside does.
            missing = getattr(exc, "name", None) or ""
            absent = self.module == missing or self.module.startswith(f"{missing}.")
            raise EngineStartupFailed(self.engine_label, f"cannot import {self.module}: {exc}",
                                      stderr="" if absent else _format_exception(exc)) from None
        except Exception as exc:
            raise EngineStartupFailed(self.engine_label, f"importing {self.module} raised "
                                      f"{type(exc).__name__}: {exc}",
                                      stderr=_format_exception(exc)) from None
        factory: Any = module
        for part in self.attr.split("."):
            factory = getattr(factory, part, None)
            if factory is None:
                raise EngineStartupFailed(self.engine_label, f"{self.module} has no {self.attr}")
        try:
            self.engine = factory()
            # An engine that builds every answer afresh from JSON values may say so: its
            # answers then skip the copy through JSON (the bundled engine does; the tests run
            # it over the wire, every message checked, too).
            self._fresh_json = getattr(self.engine, "answers_fresh_json", False) is True
        except Exception as exc:
            raise EngineStartupFailed(self.engine_label, f"{self.attr}() raised "
                                      f"{type(exc).__name__}: {exc}",
                                      stderr=_format_exception(exc)) from None

    def exchange(self, message: dict[str, Any], timeout: float | None) -> dict[str, Any]:
        command, args = message["command"], message["args"]
        call = self._call_of.get(command)
        if call is None:
            return _error(message, protocol.BAD_REQUEST, f"unknown command {command!r}")
        if args:
            # The engine gets its own copy, as a process would: the harness's request (an
            # action it keeps in a trace) never shares a value an engine might change.
            args = protocol.copy_json(args)
        try:
            if timeout is None:
                result = call(args)  # no limit: not even the context manager's cost
            else:
                with deadline(timeout):
                    result = call(args)
        except _Expired:
            raise EngineTimedOut(f"{command} did not return within {timeout:.3g}s",
                                 seconds=timeout or 0.0) from None
        except Exception as exc:
            kind = getattr(type(exc), "protocol_error", None)
            if kind in protocol.ERROR_TYPES:
                error = {"type": kind, "message": str(exc)}
                reason = getattr(exc, "reason", None)
                if kind == protocol.ILLEGAL_ACTION or reason is not None:
                    error["reason"] = str(reason) if reason is not None else ""
                return {"id": message["id"], "error": error}
            self._write(_format_exception(exc))
            return _error(message, protocol.ENGINE_ERROR, f"{type(exc).__name__}: {exc}")
        if not self._fresh_json:
            # A copy through JSON: the harness gets what a process engine would send, and
            # never shares an object with the engine.
            try:
                result = json.loads(json.dumps(result))
            except (TypeError, ValueError) as exc:
                raise InvalidResponse(f"{command} returned a value that is not JSON: "
                                      f"{exc}") from None
        return {"id": message["id"], "result": result}

    def _calls(self) -> dict[str, Callable[[dict[str, Any]], dict[str, Any]]]:
        # Built once; each call looks the engine up (a killed transport has none).
        return {
            "hello": lambda a: self.engine.hello(a["protocol"]),
            "new_game": lambda a: _handles(self.engine.new_game(a["edition"], a["setup"])),
            "legal_actions": lambda a: {"actions": self.engine.legal_actions()},
            "perform": self._perform,
            "observe": lambda a: {"observation": self.engine.observe(a["player"])
                                  if "player" in a else self.engine.observe()},
            "events": lambda a: {"events": self.engine.events()},
            "bye": lambda a: (self.engine.close(), {})[1],
        }

    def _perform(self, args: dict[str, Any]) -> dict[str, Any]:
        # Protocol 1.2's observe.with_perform, for any engine in this process: its own calls,
        # made here (the Python protocol's perform takes the action alone).
        self.engine.perform(args["action"])
        result: dict[str, Any] = {}
        if args.get("observe"):
            result["observation"] = self.engine.observe()
        if args.get("events"):
            result["events"] = self.engine.events()
        return result

    def _write(self, text: str) -> None:
        self._stderr = (self._stderr + text)[-8192:]
        self._written += len(text)

    def stderr_mark(self) -> int:
        return self._written

    def stderr_since(self, mark: int, *, settle: bool = True) -> str:
        return self._stderr[-(self._written - mark):] if self._written > mark else ""

    def kill(self) -> None:
        # An engine that timed out may be stuck in a bad state: drop it without a word.
        self.engine = None

    def close(self) -> None:
        engine, self.engine = self.engine, None
        if engine is not None:
            try:
                engine.close()
            except Exception as exc:
                self._write(_format_exception(exc))


def _handles(value: Any) -> Any:
    # The documented return is the result object {"handles": {...}}; a bare mapping of
    # handles is accepted too (an id is never an object, so the two cannot be confused).
    if value is None:
        return {"handles": {}}
    if isinstance(value, dict) and isinstance(value.get("handles"), dict):
        return value
    return {"handles": value}


def _error(message: dict[str, Any], kind: str, text: str) -> dict[str, Any]:
    return {"id": message["id"], "error": {"type": kind, "message": text}}


def _format_exception(exc: BaseException) -> str:
    lines = traceback.format_exception(exc)
    return "".join(lines[-_TRACEBACK_LINES:])
