"""``mtgconf``: the command line of mtg-conformance, the composition root of the house.

It sits above every other package (``spec``, ``reference_engine``, ``conformance``, ``fuzz``,
``reports``) and wires them: each subcommand is a module of ``mtgconf.commands``, the speed
figures are ``mtgconf.bench``. Nothing below imports it (``tests/test_layering.py``).

This module is the one place that turns failures into messages and exit codes:

* 0 all results as expected;
* 1 unexpected results (failures, errors, crashes, timeouts, xpass, flaky);
* 2 usage or input error (bad option, unknown rule or edition, malformed file);
* 3 the engine could not be started or failed the handshake;
* 4 nothing tested: no case ran, fewer than ``--min-run``, or the engine declared a
  capability or edition the harness does not know;
* 5 an internal error of the harness (a bug of mtg-conformance, not of the engine);
* 130 interrupted (Ctrl-C), 143 terminated (SIGTERM): what ran is written, marked so.

``conformance.exitcodes`` holds them.

Bad input never shows a traceback: it is one line on stderr naming what was wrong.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Sequence
from typing import NoReturn

from conformance.exitcodes import ExitCode


class UsageError(Exception):
    """Bad input from the user: reported as one line, exit status 2."""


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are a single line (and exit status 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(ExitCode.USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> Parser:
    from conformance import __version__
    from conformance.protocol import VERSION
    from mtgconf.commands import (
        bench,
        cases,
        coverage,
        expectations,
        fuzz,
        mutants,
        report,
        rules,
        run,
        smoke,
    )

    parser = Parser(
        prog="mtgconf",
        description="Rules-conformance suite and fuzzer for Magic: The Gathering engines.",
    )
    parser.add_argument("--version", action="version",
                        version=f"mtgconf {__version__} (engine protocol {VERSION})")
    commands = parser.add_subparsers(
        dest="command", metavar="COMMAND", parser_class=Parser, title="commands"
    )
    rules.register(commands)
    run.register(commands)
    smoke.register(commands)
    cases.register(commands)
    coverage.register(commands)
    expectations.register(commands)
    mutants.register(commands)
    fuzz.register(commands)
    report.register(commands)
    bench.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from conformance.errors import BadEngineSpec, InputError, SetupError
    from spec.errors import SpecError

    parser = build_parser()
    try:
        args = parser.parse_args(argv)  # an --engine option parses its value (BadEngineSpec)
        handler = getattr(args, "handler", None)
        if handler is None:
            parser.print_help(sys.stderr)
            return ExitCode.USAGE
        return int(handler(args))
    except (UsageError, SpecError) as exc:
        print(f"mtgconf: error: {exc}", file=sys.stderr)
        return ExitCode.USAGE
    except InputError as exc:
        print(f"mtgconf: error: bad input:\n{exc}", file=sys.stderr)
        return ExitCode.USAGE
    except BadEngineSpec as exc:
        print(f"mtgconf: {exc.render()}", file=sys.stderr)
        return ExitCode.USAGE
    except SetupError as exc:
        print(f"mtgconf: {exc.render()}", file=sys.stderr)
        return ExitCode.ENGINE
    except BrokenPipeError:
        # The reader (e.g. `| head`) went away: not an error of ours.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return ExitCode.OK
    except OSError as exc:
        # An output folder that cannot be written, a file that cannot be read.
        print(f"mtgconf: error: {exc.filename or ''}: {exc.strerror or exc}", file=sys.stderr)
        return ExitCode.USAGE
    except KeyboardInterrupt:
        print("mtgconf: interrupted", file=sys.stderr)
        return ExitCode.INTERRUPTED
    except Exception:
        traceback.print_exc()
        print("mtgconf: internal error: a bug of mtg-conformance, not of the engine; please "
              "report it with the traceback above", file=sys.stderr)
        return ExitCode.HARNESS
