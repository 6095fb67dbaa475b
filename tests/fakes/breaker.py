"""One-step breakers: process engines that fail at one step each, named by the argument.

``python tests/fakes/breaker.py MODE`` where MODE is:

* ``exits_at_start``: writes to stderr and exits before reading anything;
* ``errors_on_hello``: answers hello with an engine_error;
* ``nonjson_on_hello``: answers hello with a line that is not JSON;
* ``silent_on_hello``: never answers hello;
* ``wrong_version``: declares protocol 2;
* ``wrong_id_on_hello``: answers hello with another id;
* ``incomplete_hello``: declares no cards;
* ``crashes_on_new_game``: shakes hands, then exits on every new_game;
* ``cr2004_only_crashes_on_new_game``: the same, declaring only the cr2004 edition;
* ``crashes_on_new_game PATH``: the same, once: a restart (PATH exists) exits before hello.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

HELLO = {"name": "breaker", "version": "0", "protocol": 1, "editions": ["cr2004", "modern"],
         "capabilities": ["setup.start", "setup.state"], "cards": ["Forest"]}


def main(mode: str, once: str | None = None) -> int:
    if once is not None:
        if Path(once).exists():
            print("breaker: will not start again", file=sys.stderr, flush=True)
            return 1
        Path(once).touch()
    if mode == "exits_at_start":
        print("breaker: cannot open card database", file=sys.stderr, flush=True)
        return 1
    for line in sys.stdin:
        request = json.loads(line)
        rid, command = request["id"], request["command"]
        reply: dict[str, object] = {"id": rid, "result": {}}
        if command == "hello":
            hello = dict(HELLO)
            if mode == "errors_on_hello":
                reply = {"id": rid, "error": {"type": "engine_error", "message": "no cards"}}
            elif mode == "nonjson_on_hello":
                print("hello yourself", flush=True)
                continue
            elif mode == "silent_on_hello":
                time.sleep(60)
            elif mode == "wrong_version":
                reply["result"] = {**hello, "protocol": 2}
            elif mode == "wrong_id_on_hello":
                reply = {"id": rid + 1, "result": hello}
            elif mode == "cr2004_only_crashes_on_new_game":
                reply["result"] = {**hello, "editions": ["cr2004"]}
            elif mode == "incomplete_hello":
                del hello["cards"]
                reply["result"] = hello
            else:
                reply["result"] = hello
        elif command == "new_game" and mode.endswith("crashes_on_new_game"):
            print("breaker: crashed in new_game", file=sys.stderr, flush=True)
            return 2
        print(json.dumps(reply), flush=True)
        if command == "bye":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
