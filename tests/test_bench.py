"""``mtgconf bench``: every figure is there with a sane value, in JSON, in a table and in the
Markdown page; bad input is one line and exit 2; an engine failing mid-benchmark is reported."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from conformance.errors import EngineRejected
from conformance.exitcodes import ExitCode
from conformance.session import EngineSession
from conformance.transports import EngineSpec
from mtgconf import main
from reference_engine.engine import ReferenceEngine

TINY = ["--seconds", "0.05"]
VARIANTS = ("in-process", "in-process+validate", "wire", "wire+validate")


class FailsAfterAWhile(ReferenceEngine):
    """The reference engine, raising a plain exception (an engine_error) from its 30th
    perform on."""

    def __init__(self) -> None:
        super().__init__()
        self.performed = 0

    def perform(self, action: dict[str, Any]) -> Any:
        self.performed += 1
        if self.performed >= 30:
            raise RuntimeError("out of memory, pretend")
        return super().perform(action)


# A process engine that serves the reference engine and dies after 50 requests.
DIES = """\
import json, sys
from reference_engine.engine import ReferenceEngine
from reference_engine.serve import handle
engine = ReferenceEngine()
for count, line in enumerate(sys.stdin):
    if count == 50:
        sys.exit(9)
    print(json.dumps(handle(engine, json.loads(line))), flush=True)
"""


def bench(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["bench", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_reports_every_figure_with_its_spread(capsys):
    code, out, err = bench(capsys, "--edition", "cr2004", *TINY, "--repeats", "2", "--json")
    assert code == ExitCode.OK, err
    document = json.loads(out)
    assert document["format"] == "mtg-conformance bench"
    assert document["command"] == \
        "mtgconf bench --edition cr2004 --seconds 0.05 --repeats 2 --json"
    assert document["engine"]["spec"] == "reference"
    assert document["engine"]["name"] == "mtg-conformance-reference"
    assert "reference_engine.serve" in document["engine"]["wire"]
    assert {"platform", "python", "cpus", "load_average"} <= set(document["machine"])
    assert document["settings"] == {"editions": ["cr2004"], "seconds": 0.05,
                                    "repeats": 2, "figures": ["play", "selfplay", "suite",
                                                              "overhead", "fuzz"]}
    assert document["baseline"]["median"] > 0
    figures = document["figures"]
    expected = {f"{kind}.cr2004" for kind in ("play", "selfplay", "fuzz")}
    expected |= {f"{kind}.{v}" for kind in ("suite", "overhead") for v in VARIANTS}
    expected |= {f"slowdown.{v}" for v in VARIANTS[1:]}
    expected |= {"layer.play/selfplay.cr2004", "layer.fuzz/play.cr2004"}
    assert set(figures) == expected
    for key, figure in figures.items():
        assert figure["error"] is None and figure["not_applicable"] is None, key
        assert len(figure["runs"]) == 2, key
        assert 0 < figure["min"] <= figure["median"] <= figure["max"], key
        if figure["unit"] == "x":
            assert figure["ratio"] is None, key
        else:
            assert figure["ratio"]["median"] > 0, key
    # wall time includes the time inside engine calls. How much validation costs is the
    # benchmark's own figure (docs/benchmarks.md), not this test's: two 0.05 s medians on a
    # shared machine do not order reliably
    assert all(figures[f"overhead.{v}"]["min"] >= 1 for v in VARIANTS)
    run = figures["suite.in-process"]["runs"][0]
    assert run["case_runs"] >= 1 and run["statuses"] == {"pass": run["case_runs"]}
    assert run["suite_case_runs"] > 200 and run["skipped"] == 0
    assert figures["play.cr2004"]["runs"][0]["actions"] > 0
    assert figures["fuzz.cr2004"]["runs"][0]["findings"] == []
    # a layer's ratio is the two rates of its repeat, one over the other
    for repeat in range(2):
        rate = {k: figures[f"{k}.cr2004"]["runs"][repeat]["value"]
                for k in ("play", "selfplay", "fuzz")}
        for over, under in (("play", "selfplay"), ("fuzz", "play")):
            ratio = figures[f"layer.{over}/{under}.cr2004"]["runs"][repeat]["value"]
            assert ratio == pytest.approx(rate[over] / rate[under], rel=0.01)


def test_the_table_is_aligned_and_names_the_engine(capsys):
    code, out, _ = bench(capsys, *TINY, "--repeats", "1", "--only", "selfplay",
                         "--edition", "modern")
    assert code == ExitCode.OK
    lines = out.splitlines()
    assert lines[0].startswith("engine:  mtg-conformance-reference")
    header = next(i for i, line in enumerate(lines) if line.startswith("figure"))
    rows = lines[header:]
    assert [row.split()[0] for row in rows] == ["figure", "baseline", "selfplay.modern"]
    # numbers are right-aligned under their headings
    for column in ("median", "min", "max"):
        end = rows[0].index(column) + len(column)
        assert all(row[end - 1] != " " and row[end] == " " for row in rows), column


def test_markdown_page_has_the_command_machine_and_table(capsys, tmp_path):
    page = tmp_path / "benchmarks.md"
    code, _, _ = bench(capsys, *TINY, "--repeats", "1", "--only", "suite", "--edition",
                       "cr2004", "--markdown", str(page), "--note", "A shared 2-core machine.")
    assert code == ExitCode.OK
    text = page.read_text(encoding="utf-8")
    assert text.startswith("# Benchmarks\n")
    assert (f"mtgconf bench --edition cr2004 --seconds 0.05 --repeats 1 --only suite "
            f"--markdown {page} --note 'A shared 2-core machine.'") in text
    assert "A shared 2-core machine." in text and "CPUs; load average" in text
    assert "| suite.in-process |" in text and "- **suite**:" in text


@pytest.mark.parametrize("argv", [
    ["--engine", "nope"],
    ["--engine", "py:no-colon"],
    ["--seconds", "0"],
    ["--seconds", "-1"],
    ["--seconds", "soon"],
    ["--repeats", "0"],
    ["--only", "play,speed"],
    ["--edition", "1999"],
    ["--engine", "py:tests.fakes.miniatures:OnlyCr2004", "--edition", "modern"],
    ["--note", "without --markdown"],
    ["--markdown", "no/such/folder/benchmarks.md"],
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv):
    with_exit = _exit_code(lambda: main(["bench", *argv, "--only", "selfplay"]))
    err = capsys.readouterr().err
    assert with_exit == ExitCode.USAGE
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err


def test_an_engine_that_cannot_start_exits_3(capsys):
    code, _, err = bench(capsys, "--engine", "py:no_such_module:Engine", *TINY)
    assert code == ExitCode.ENGINE
    assert "engine-startup-failed" in err and "Traceback" not in err


def test_an_engine_failing_mid_benchmark_is_reported(capsys):
    code, out, err = bench(capsys, "--engine", "py:tests.test_bench:FailsAfterAWhile",
                           "--edition", "cr2004", "--only", "play,suite", *TINY, "--json")
    assert code == ExitCode.UNEXPECTED
    figures = json.loads(out)["figures"]
    assert "engine_error" in figures["play.cr2004"]["error"]
    assert "after 29 actions" in figures["play.cr2004"]["error"]
    # its cases err (every perform fails now): measured, with a note
    assert figures["suite.in-process"]["error"] is None
    assert "error" in figures["suite.in-process"]["notes"][0]
    assert err.startswith("mtgconf: play.cr2004: the engine failed") and "Traceback" not in err


def test_a_process_engine_dying_mid_benchmark_is_reported(capsys, tmp_path):
    script = tmp_path / "dies.py"
    script.write_text(DIES, encoding="utf-8")
    code, out, err = bench(capsys, "--engine", f"cmd:{sys.executable} {script}",
                           "--edition", "modern", "--only", "play", *TINY)
    assert code == ExitCode.UNEXPECTED
    assert "ERROR: the engine failed in game 1" in out and "EngineCrashed" in out
    assert "Traceback" not in err


def test_nothing_measurable_exits_4(capsys):
    # a third-party engine does not play itself in process
    code, out, _ = bench(capsys, "--engine", "py:tests.fakes.miniatures:Correct",
                         "--only", "selfplay", *TINY, "--repeats", "1")
    assert code == ExitCode.UNTESTED
    assert "not measured: only the reference engine" in out


def test_engine_seconds_survive_a_restart():
    session = EngineSession(EngineSpec.parse("reference"))
    session.start()
    try:
        after_hello = session.engine_seconds
        assert after_hello > 0
        client = session.begin(None)
        with pytest.raises(EngineRejected):  # no game yet: an error takes time too
            client.observe()
        during = session.engine_seconds
        assert during > after_hello
        session.end(unusable=True)  # the client is dropped; its time is kept
        assert session.engine_seconds == during
    finally:
        session.close()


def _exit_code(call: Any) -> int:
    """main's status, or argparse's (a bad option value exits from inside the parser)."""
    try:
        return int(call())
    except SystemExit as exc:
        return int(exc.code or 0)


