"""A process fake: the toy engine on stdin/stdout, misbehaving when a case tells it to.

Run as ``cmd:python tests/fakes/scriptable.py [--lint]``. Instructions are handles of the
case's given-state setup, named ``fake-<what>-on-<command>``; after ``new_game`` (or at it,
for ``new_game``), the next request for ``<command>`` triggers ``<what>``:

* ``crash``: write a line to stderr and exit with status 3;
* ``hang``: never answer;
* ``garble``: answer with a line that is not JSON;
* ``misnumber``: answer with the wrong id;
* ``shout``: write 100 kB to stderr, then answer normally.

``<command>`` is new_game, observe, perform or events. With ``--lint``, every request is
validated against spec/schemas/protocol; a violation is written to stderr and the process
exits with status 70 (a harness that sends bad requests cannot pass its tests). With
``--with-perform`` it declares protocol 1.2's ``observe.with_perform`` and answers perform
with the observation and events asked for.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.fakes.toy import ToyEngine

ACTIONS = ("crash", "hang", "garble", "misnumber", "shout")


def instructions(setup: dict[str, Any]) -> dict[str, str]:
    """command -> what, from the handles of a setup."""
    found: dict[str, str] = {}
    entries: list[Any] = list(setup.get("battlefield", []))
    for state in setup.get("players", {}).values():
        for zone in ("hand", "library", "graveyard"):
            entries += state.get(zone, [])
    for entry in entries:
        handle = entry.get("handle", "") if isinstance(entry, dict) else ""
        if handle.startswith("fake-") and "-on-" in handle:
            what, _, command = handle.removeprefix("fake-").partition("-on-")
            if what in ACTIONS:
                found[command] = what
    return found


def main() -> int:
    lint = "--lint" in sys.argv
    validator = None
    if lint:
        from conformance.schemas import ProtocolValidator

        validator = ProtocolValidator()
    engine = ToyEngine()
    with_perform = "--with-perform" in sys.argv
    script: dict[str, str] = {}
    out = sys.stdout
    for line in sys.stdin:
        request = json.loads(line)
        command, args = request["command"], request["args"]
        if validator is not None:
            try:
                validator.check_request(request)
            except Exception as exc:
                print(f"lint: {exc}", file=sys.stderr, flush=True)
                return 70
        if command == "new_game":
            script = instructions(args["setup"])
        what = script.pop(command, None)
        if what == "crash":
            print(f"fake: crashing on {command} as instructed", file=sys.stderr, flush=True)
            return 3
        if what == "hang":
            while True:
                time.sleep(1)
        if what == "garble":
            out.write("Segmentation fault (core dumped)\n")
            out.flush()
            continue
        if what == "shout":
            sys.stderr.write("x" * 100_000 + "\nfake: shouted\n")
            sys.stderr.flush()
        response = answer(engine, request, with_perform=with_perform)
        if what == "misnumber":
            response["id"] = request["id"] + 1000
        out.write(json.dumps(response) + "\n")
        out.flush()
        if command == "bye":
            return 0
    return 0


def answer(engine: ToyEngine, request: dict[str, Any], *, with_perform: bool = False
           ) -> dict[str, Any]:
    command, args = request["command"], request["args"]
    try:
        if command == "hello":
            result: Any = engine.hello(args["protocol"])
            if with_perform:
                result = {**result, "protocol": 1.2,
                          "capabilities": [*result["capabilities"], "observe.with_perform"]}
        elif command == "new_game":
            result = engine.new_game(args["edition"], args["setup"])
        elif command == "legal_actions":
            result = {"actions": engine.legal_actions()}
        elif command == "perform":
            engine.perform(args["action"])
            result = {}
            if with_perform and args.get("observe"):
                result["observation"] = engine.observe()
            if with_perform and args.get("events"):
                result["events"] = engine.events()
        elif command == "observe":
            result = {"observation": engine.observe(args.get("player"))}
        elif command == "events":
            result = {"events": engine.events()}
        elif command == "bye":
            result = {}
        else:
            return {"id": request["id"], "error": {"type": "bad_request",
                                                   "message": f"unknown command {command}"}}
    except Exception as exc:
        kind = getattr(type(exc), "protocol_error", "engine_error")
        error = {"type": kind, "message": str(exc)}
        if kind == "illegal_action":
            error["reason"] = exc.reason  # type: ignore[attr-defined]
        return {"id": request["id"], "error": error}
    return {"id": request["id"], "result": result}


if __name__ == "__main__":
    sys.exit(main())
