"""Writing an output so that no reader ever sees half of it: the one place that does it.

Every file and folder mtg-conformance writes for others to read (``results.json``,
``junit.xml``, ``coverage.json``, the fuzz and mutants files, an expectations file, the
report's folder, the phase card database) is written beside its target under a partial name
and renamed over it once whole. A rename within one file system is atomic: a reader sees the
previous output or the new one, and a run killed half way leaves the previous output in place.
The partial names hold the process and the thread, so that two writers never share one.

>>> write_json(Path("out/results.json"), {"format": "..."})     # doctest: +SKIP
>>> with folder(Path("out/report")) as partial:                 # doctest: +SKIP
...     (partial / "index.html").write_text("...")
"""

from __future__ import annotations

import json
import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


def _partial(path: Path, what: str = "partial") -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.{what}")


def write_text(path: Path, text: str, *, newline: str | None = None) -> None:
    """Write ``text`` to ``path`` (its folder created if missing), replacing the previous
    file only once the new one is whole."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = _partial(path)
    try:
        partial.write_text(text, encoding="utf-8", newline=newline)
        partial.replace(path)
    finally:
        partial.unlink(missing_ok=True)


def write_json(path: Path, data: Any, *, indent: int = 1) -> None:
    """``write_text`` of ``data`` as JSON (UTF-8 as it is, not escaped), ending in a newline."""
    write_text(path, json.dumps(data, ensure_ascii=False, indent=indent) + "\n")


@contextmanager
def folder(path: Path) -> Iterator[Path]:
    """A folder to fill in place of ``path``: it replaces ``path`` (and all it held) when the
    block ends, and is thrown away if the block raises."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = _partial(path)
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir()
    try:
        yield partial
        if path.exists():
            old = _partial(path, "old")
            path.replace(old)
            partial.replace(path)
            shutil.rmtree(old, ignore_errors=True)
        else:
            partial.replace(path)
    finally:
        shutil.rmtree(partial, ignore_errors=True)
