"""The reference engine over stdio, crashing once: ``python tests/fakes/crashes_once.py PATH``
exits in its first new_game unless PATH exists (which it then creates), so that only the
first game any of its processes plays crashes: a fault a single case run shows, and a
restarted or rerun engine does not repeat."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

from reference_engine.serve import serve


class _CrashesOnce(io.TextIOBase):
    def __init__(self, stdin: io.TextIOBase, marker: Path) -> None:
        self.stdin = stdin
        self.marker = marker

    def __iter__(self):  # type: ignore[override]
        for line in self.stdin:
            if json.loads(line).get("command") == "new_game" and not self.marker.exists():
                self.marker.touch()
                print("crashes_once: segmentation fault (a fake one)", file=sys.stderr,
                      flush=True)
                sys.exit(139)
            yield line


def main() -> int:
    serve(_CrashesOnce(sys.stdin, Path(sys.argv[1])), sys.stdout)  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    sys.exit(main())
