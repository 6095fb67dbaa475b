"""Process engines (``cmd:COMMAND``): JSON lines on the child's stdin and stdout.

The harness reads the child's stdout itself, waiting with ``poll`` so that a read can time
out; a reader thread drains stderr into a bounded buffer, so that a chatty stderr can never
block the child. (A thread reading stdout too would cost every response a hand-over between
threads: on a busy machine, more than decoding it.)
The child runs in its own process group, so that killing it also kills anything it spawned.
A transport that timed out, crashed or answered garbage is not reused: the session starts a
new one.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import select
import signal
import subprocess
import threading
import time
from typing import IO, Any

from conformance import reaper
from conformance.errors import EngineCrashed, EngineStartupFailed, EngineTimedOut, InvalidResponse

_EOF = object()
_CHUNK = 1 << 16  # a pipe's default capacity: most responses arrive in one read
_BYE_TIMEOUT = 0.5


class ProcessTransport:
    remote = True

    def __init__(self, engine: str, argv: list[str], *, stderr_limit: int = 8192) -> None:
        self.engine_label = engine
        self.argv = argv
        self.stderr_limit = stderr_limit
        self.process: subprocess.Popen[bytes] | None = None
        self._stdout: LineReader | None = None
        self._stderr = bytearray()
        self._stderr_total = 0
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        try:
            self.process = subprocess.Popen(
                self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, start_new_session=True,
            )
        except OSError as exc:
            raise EngineStartupFailed(self.engine_label,
                                      f"cannot run {self.argv[0]!r}: {exc.strerror}") from None
        reaper.register("engine", self.process.pid)
        assert self.process.stdout is not None and self.process.stderr is not None
        self._stdout = LineReader(self.process.stdout.fileno())
        self._threads = [
            threading.Thread(target=self._read_stderr, args=(self.process.stderr,), daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def _read_stderr(self, stream: IO[bytes]) -> None:
        for chunk in iter(lambda: stream.read1(4096), b""):  # type: ignore[attr-defined]
            with self._lock:
                self._stderr += chunk
                self._stderr_total += len(chunk)
                del self._stderr[:-self.stderr_limit]

    def stderr_mark(self) -> int:
        with self._lock:
            return self._stderr_total

    def stderr_since(self, mark: int, *, settle: bool = True) -> str:
        if settle:
            # Give the reader a moment to catch up with what a dying process wrote last.
            time.sleep(0.01)
        with self._lock:
            new = min(self._stderr_total - mark, len(self._stderr))
            data = bytes(self._stderr[-new:]) if new > 0 else b""
        return data.decode("utf-8", "replace")

    def exchange(self, message: dict[str, Any], timeout: float | None) -> dict[str, Any]:
        process, stdout = self.process, self._stdout
        assert process is not None and process.stdin is not None and stdout is not None, \
            "exchange before start"
        command = message["command"]
        mark = self.stderr_mark()
        if process.poll() is not None:
            raise EngineCrashed(f"the engine had exited (status {process.returncode}) "
                                f"before {command}", self.stderr_since(mark))
        try:
            process.stdin.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
            process.stdin.flush()
        except OSError:
            raise EngineCrashed(self._exit_message(command), self.stderr_since(mark)) from None
        line = stdout.read_line(timeout)
        if line is None:
            raise EngineTimedOut(f"no response to {command} within {timeout:.3g}s",
                                 seconds=timeout or 0.0, stderr=self.stderr_since(mark))
        if line is _EOF:
            raise EngineCrashed(self._exit_message(command), self.stderr_since(mark))
        assert isinstance(line, bytes)
        try:
            response = json.loads(line)
        except ValueError:
            raise InvalidResponse(f"the response to {command} is not JSON: "
                                  f"{_excerpt(line)}", self.stderr_since(mark)) from None
        if not isinstance(response, dict):
            raise InvalidResponse(f"the response to {command} is not a JSON object: "
                                  f"{_excerpt(line)}", self.stderr_since(mark))
        return response

    def _exit_message(self, command: str) -> str:
        assert self.process is not None
        try:
            status = self.process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return f"the engine closed its stdout during {command}"
        how = f"was killed by signal {-status}" if status < 0 else f"exited with status {status}"
        return f"the engine {how} during {command}"

    def close(self) -> None:
        process = self.process
        if process is None:
            return
        if process.poll() is None:
            with contextlib.suppress(Exception):
                self.exchange({"id": 0, "command": "bye", "args": {}}, _BYE_TIMEOUT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=_BYE_TIMEOUT)
        self.kill()

    def kill(self) -> None:
        """Stop the engine at once (after a timeout: it would not answer bye)."""
        process, self.process = self.process, None
        if process is not None:
            _kill(process)
            reaper.unregister("engine", process.pid)
            for stream in (process.stdin, process.stdout, process.stderr):
                if stream is not None:
                    with contextlib.suppress(OSError):
                        stream.close()


class LineReader:
    """The lines of a pipe, read in the caller's thread, with a timeout on each."""

    EOF = _EOF

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._buffer = bytearray()
        self._searched = 0  # the buffer's bytes known to hold no newline
        self._eof = False
        self._poll = select.poll()
        self._poll.register(fd, select.POLLIN)

    def read_line(self, timeout: float | None) -> bytes | object | None:
        """The next line (with its newline; the last may lack one), ``EOF`` once the pipe is
        closed and nothing is left, or None if no whole line came within ``timeout``."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            end = self._buffer.find(b"\n", self._searched)
            if end >= 0:
                return self._take(end + 1)
            self._searched = len(self._buffer)
            if self._eof:
                return self._take(len(self._buffer)) if self._buffer else _EOF
            if deadline is None:
                ready = self._poll.poll()
            else:
                left = deadline - time.monotonic()
                # poll takes whole milliseconds: round up, so as not to spin before the end
                ready = self._poll.poll(math.ceil(left * 1000)) if left > 0 else []
            if not ready:
                if deadline is not None and time.monotonic() >= deadline:
                    return None
                continue
            try:
                chunk = os.read(self.fd, _CHUNK)
            except OSError:
                chunk = b""
            if chunk:
                self._buffer += chunk
            else:
                self._eof = True

    def _take(self, size: int) -> bytes:
        line = bytes(self._buffer[:size])
        del self._buffer[:size]
        self._searched = 0
        return line


def _kill(process: subprocess.Popen[bytes]) -> None:
    # Its own session: killing the group takes the engine's own children with it.
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(Exception):
        process.wait(timeout=2.0)


def _excerpt(line: bytes, limit: int = 120) -> str:
    text = line.decode("utf-8", "replace").rstrip("\n")
    return repr(text if len(text) <= limit else text[:limit] + "...")
