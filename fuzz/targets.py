"""The fuzzer as ordinary Hypothesis tests, for pytest, pytest-xdist and HypoFuzz.

    pytest fuzz/targets.py                          # a short run per edition
    MTGCONF_FUZZ_ENGINE=phase pytest fuzz/targets.py
    hypothesis fuzz -- fuzz/targets.py              # HypoFuzz (pip extra hypofuzz): for hours

One test class per edition the engine declares (``MTGCONF_FUZZ_ENGINE``: an engine spec as
``mtgconf fuzz --engine`` takes it; default ``reference``), each a ``unittest.TestCase`` made
by Hypothesis from the fuzz state machine. Hypothesis's settings profiles apply as usual
(``--hypothesis-profile``, ``--hypothesis-seed``); the example database is Hypothesis's
default one (``.hypothesis/``) unless a profile says otherwise, or ``MTGCONF_FUZZ_DATABASE``
names one as ``mtgconf fuzz --database`` takes it (a directory, ``redis://HOST:PORT/DB``,
``none``). That database becomes the default of every test of the process: HypoFuzz fuzzes only
tests whose database is the default one, and keeps its corpus and failures there.
"""

from __future__ import annotations

import atexit
import os

from hypothesis import HealthCheck, settings

from fuzz.campaign import open_database
from fuzz.engines import FuzzEngines
from fuzz.machine import FuzzConfig, fuzz_machine

ENGINE = os.environ.get("MTGCONF_FUZZ_ENGINE", "reference")
#: the engine every test class of this module plays on, closed when the process ends (the
#: test runner, not the module, decides when that is)
ENGINES = FuzzEngines()
atexit.register(ENGINES.close)

_DATABASE = os.environ.get("MTGCONF_FUZZ_DATABASE")
if _DATABASE:
    # The same keys as ``mtgconf fuzz --database`` of the same engine and edition: a failure
    # HypoFuzz saves is replayed, shrunk and written as a case file by the next mtgconf fuzz.
    settings.register_profile("mtgconf-fuzz-database", settings(),
                              database=open_database(_DATABASE))
    settings.load_profile("mtgconf-fuzz-database")

settings.register_profile(
    "mtgconf-fuzz", max_examples=20, stateful_step_count=120, deadline=None,
    suppress_health_check=list(HealthCheck))


def _test_case(edition: str) -> type:
    machine = fuzz_machine(FuzzConfig(ENGINE, edition), ENGINES, replay_games=True)
    case = machine.TestCase
    case.settings = settings.get_profile("mtgconf-fuzz")
    case.__name__ = f"TestFuzz_{edition}"
    case.__qualname__ = case.__name__
    return case


_DECLARED = ENGINES.info(ENGINE).editions
if "cr2004" in _DECLARED:
    TestFuzz_cr2004 = _test_case("cr2004")
if "modern" in _DECLARED:
    TestFuzz_modern = _test_case("modern")
