"""The reference engine over stdio, slowed down: ``python -m tests.fakes.slow SECONDS`` sleeps
SECONDS before answering each new_game, and ignores SIGINT and SIGTERM as a stubborn engine
would. For the tests of an interrupted run: cases finish one by one, slowly, and the engine
must be killed, not asked, to go away."""

from __future__ import annotations

import io
import json
import signal
import sys
import time

from reference_engine.serve import serve


class _Slow(io.TextIOBase):
    def __init__(self, stdin: io.TextIOBase, seconds: float) -> None:
        self.stdin = stdin
        self.seconds = seconds

    def __iter__(self):  # type: ignore[override]
        for line in self.stdin:
            if json.loads(line).get("command") == "new_game":
                time.sleep(self.seconds)
            yield line


def main() -> int:
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, signal.SIG_IGN)
    serve(_Slow(sys.stdin, float(sys.argv[1])), sys.stdout)  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    sys.exit(main())
