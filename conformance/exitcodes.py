"""The exit statuses of ``mtgconf``: a contract with every CI that gates on it (the README's
table). 0-3 are fixed by the architecture; the rest were added, each for a reason a CI must
be able to tell apart."""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    OK = 0  # every result as expected
    UNEXPECTED = 1  # failures, errors, crashes, timeouts, xpass, flaky
    USAGE = 2  # bad option or input file (named)
    ENGINE = 3  # the engine could not be started or failed the handshake
    UNTESTED = 4  # nothing (or too little) ran, or the engine declared an unknown capability
    HARNESS = 5  # an internal error of mtg-conformance itself
    INTERRUPTED = 130  # Ctrl-C (SIGINT): the results so far are written, marked interrupted
    TERMINATED = 143  # SIGTERM (timeout, a CI job limit): likewise
