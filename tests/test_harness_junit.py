"""The JUnit XML writer: every status as its element, suites per engine and edition with counts
that add up, an interrupted run that cannot pass for a green one, text safe for any Unicode,
and the schema (spec/schemas/junit.xsd) that every rendering is validated against."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

xmlschema = pytest.importorskip("xmlschema")

from conformance import junit  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "spec" / "schemas" / "junit.xsd"
CASES = ROOT / "conformance" / "cases"

REFERENCE_INFO = {"name": "reference-engine", "version": "0.1.0", "protocol": 1.1,
                  "editions": ["cr2004", "modern"], "capabilities": [], "cards": []}


@pytest.fixture(scope="module")
def schema() -> Any:
    return xmlschema.XMLSchema(str(SCHEMA))


def result(case_id: str, status: str, *, engine: str = "reference", edition: str = "modern",
           file: str | None = str(CASES / "zone_rules.yaml"), line: int | None = 12,
           rules: tuple[str, ...] = ("modern:400.1",), message: str | None = None,
           detail: dict[str, Any] | None = None, duration: float = 0.0125) -> dict[str, Any]:
    """One result line, as results.json holds it."""
    out: dict[str, Any] = {
        "case_id": case_id, "edition": edition, "rules": list(rules), "engine": engine,
        "status": status, "outcome": status if status not in ("xfail", "xpass") else "fail",
        "message": ("" if status == "pass" else f"{status}: {case_id}") if message is None
        else message,
        "duration": duration,
    }
    if file is not None:
        out["file"] = file
    if line is not None:
        out["line"] = line
    if detail:
        out["detail"] = detail
    return out


def document(results: list[dict[str, Any]], *, engines: dict[str, Any] | None = None,
             editions: tuple[str, ...] = ("modern",), interrupted: bool = False,
             interrupted_by: str | None = None, selected: int | None = None) -> dict[str, Any]:
    """A results document (version 2) around ``results``."""
    engines = {"reference": REFERENCE_INFO} if engines is None else engines
    out: dict[str, Any] = {
        "format": "mtg-conformance results", "version": 2, "harness": "mtg-conformance 0.1.0",
        "engines": [{"spec": spec, "info": info} for spec, info in engines.items()],
        "editions": list(editions), "started": "2026-01-02T03:04:05Z",
        "finished": "2026-01-02T03:04:09Z", "interrupted": interrupted,
        "selected": len(results) if selected is None else selected, "options": {},
        "summary": {"total": len(results), "unexpected": 0, "counts": {}},
        "results": results, "rules": [],
    }
    if interrupted_by:
        out["interrupted_by"] = interrupted_by
    return out


def parse(schema: Any, text: str) -> ET.Element:
    """Validate the rendering against junit.xsd and check its counts; the root element."""
    schema.validate(text)
    root = ET.fromstring(text.encode("utf-8"))
    assert root.tag == "testsuites"
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for suite in root.iter("testsuite"):
        cases = suite.findall("testcase")
        found = {"tests": len(cases),
                 "failures": sum(c.find("failure") is not None for c in cases),
                 "errors": sum(c.find("error") is not None for c in cases),
                 "skipped": sum(c.find("skipped") is not None for c in cases)}
        assert {k: int(suite.get(k)) for k in found} == found, suite.get("name")
        # Totals are of the durations, not of the rounded times: each rounding may differ.
        assert float(suite.get("time")) == pytest.approx(
            sum(float(c.get("time")) for c in cases), abs=0.001 * (len(cases) + 1))
        for key, value in found.items():
            totals[key] += value
    assert {k: int(root.get(k)) for k in totals} == totals
    suites = root.findall("testsuite")
    assert float(root.get("time")) == pytest.approx(
        sum(float(s.get("time")) for s in suites), abs=0.001 * (len(suites) + 1))
    return root


def only_case(root: ET.Element) -> ET.Element:
    cases = root.findall("testsuite/testcase")
    assert len(cases) == 1
    return cases[0]


def properties(element: ET.Element) -> list[tuple[str, str]]:
    return [(p.get("name"), p.get("value")) for p in element.findall("properties/property")]


# status, detail -> element, type (None: no type attribute), start of the message
STATUS_CASES = [
    ("pass", None, None, None, None),
    ("fail", {"step": 2, "step_kind": "check", "line": 30, "path": "players.A.life",
              "expected": 20, "observed": 17}, "failure", "fail", "fail: c"),
    ("xpass", {"expected_status": "fail", "expected_reason": "no 2004 mana burn"}, "failure",
     "xpass", "xpass: c"),
    ("flaky", {"outcomes": ["pass", "fail", "pass"]}, "failure", "flaky", "flaky: c"),
    ("error", {"step": 1}, "error", "error", "error: c"),
    ("error", {"internal": True, "stderr": "Traceback ...\nKeyError: 'x'"}, "error",
     "internal-error", "internal error: a bug of the mtg-conformance harness"),
    ("crash", {"stderr": "segfault"}, "error", "crash", "crash: c"),
    ("timeout", {"seconds": 10.0}, "error", "timeout", "timeout: c"),
    ("skip", None, "skipped", None, "skip: c"),
    ("xfail", {"expected_status": "fail", "expected_reason": "mana burn is not implemented"},
     "skipped", "xfail", "expected failure: mana burn is not implemented"),
]


@pytest.mark.parametrize(("status", "detail", "tag", "kind", "message"), STATUS_CASES,
                         ids=[f"{c[0]}-{c[3]}" for c in STATUS_CASES])
def test_each_status_becomes_its_result_element(schema, status, detail, tag, kind, message):
    root = parse(schema, junit.render(document([result("c", status, detail=detail)])))
    case = only_case(root)
    results = [e for e in case if e.tag in ("failure", "error", "skipped")]
    if tag is None:
        assert results == []
        return
    [element] = results
    assert element.tag == tag
    assert element.get("type") == kind
    assert element.get("message").startswith(message)
    stderr = case.find("system-err")
    if detail and "stderr" in detail:
        assert stderr is not None
        assert stderr.text == detail["stderr"]
    else:
        assert stderr is None


def test_a_status_it_does_not_know_is_an_error_not_a_pass(schema):
    root = parse(schema, junit.render(document([result("c", "vanished", line=0)])))
    case = only_case(root)
    assert case.find("error").get("type") == "vanished"
    assert case.get("line") is None  # lines count from 1


def test_a_failure_body_gives_the_step_the_path_expected_and_observed(schema):
    detail = {"step": 3, "step_kind": "check", "line": 85, "path": "players.A.life",
              "expected": 20, "observed": "17"}
    root = parse(schema, junit.render(document([result(
        "life.starts-at-20", "fail", message="step 3: players.A.life: expected 20, got '17'",
        detail=detail)])))
    failure = only_case(root).find("failure")
    assert failure.text.splitlines() == [
        "step 3: players.A.life: expected 20, got '17'",
        "step 3 (check), line 85",
        "path: players.A.life",
        "expected: 20",
        'observed: "17"',
    ]


def test_an_expected_failure_names_the_expectation_and_the_value(schema):
    detail = {"step": 3, "step_kind": "check", "path": "players.A.life", "expected": 20,
              "observed": 17, "expected_status": "fail", "expected_reason": "no mana burn",
              "expected_link": "https://x/1"}
    root = parse(schema, junit.render(document([result("c", "xfail", detail=detail)])))
    skipped = only_case(root).find("skipped")
    assert skipped.get("message") == "expected failure: no mana burn"
    lines = skipped.text.splitlines()
    assert "expected status: fail: no mana burn (https://x/1)" in lines
    # Both: what the check expected, and what the expectations file expected of the case.
    assert "expected: 20" in lines and "observed: 17" in lines


def test_a_flaky_case_lists_its_runs(schema):
    # results.Flaky writes each run as its status, message and detail.
    detail = {"outcomes": ["pass", {"status": "fail", "message": "step 2: expected 1, got 2",
                                    "step": 2}]}
    root = parse(schema, junit.render(document([result("c", "flaky", message="",
                                                        detail=detail)])))
    failure = only_case(root).find("failure")
    assert failure.get("message") == "flaky: the runs ended differently: pass, fail"
    assert failure.text.splitlines()[-3:] == [
        "outcomes:", "  run 1: pass", "  run 2: fail: step 2: expected 1, got 2"]


def test_an_internal_error_says_it_is_a_bug_of_the_harness(schema):
    traceback = "Traceback (most recent call last):\n  File ...\nKeyError: 'x'\n"
    root = parse(schema, junit.render(document([result(
        "c", "error", message="step 1: internal error: KeyError: 'x'",
        detail={"step": 1, "internal": True, "traceback": traceback,
                "stderr": "engine said"})])))
    case = only_case(root)
    error = case.find("error")
    assert error.get("type") == "internal-error"
    assert "bug of the mtg-conformance harness, not of the engine" in error.get("message")
    assert error.get("message").endswith("step 1: internal error: KeyError: 'x'")
    # The traceback is the "stack trace" readers show; the engine's stderr stays apart.
    assert error.text.endswith(traceback.rstrip("\n"))
    assert case.find("system-err").text == "engine said"


def test_a_skip_names_what_kept_the_case_from_running(schema):
    root = parse(schema, junit.render(document([result(
        "c", "skip", message="the engine lacks capability setup.state; card Time Walk",
        detail={"blockers": ["capability setup.state", "card Time Walk"]})])))
    skipped = only_case(root).find("skipped")
    assert skipped.get("type") is None
    assert skipped.get("message") == "the engine lacks capability setup.state; card Time Walk"
    assert skipped.text.splitlines()[-1] == "blockers: capability setup.state; card Time Walk"


def test_suites_per_engine_and_edition_named_after_the_engine_with_counts(schema):
    engines = {"reference": REFERENCE_INFO, "cmd:./other --fast": None}
    results = []
    for engine in engines:
        for edition in ("cr2004", "modern"):
            results += [result(f"{edition}.{s}", s, engine=engine, edition=edition)
                        for s in ("pass", "fail", "error", "skip", "xfail", "crash")]
    results.append(result("extra", "timeout", engine="cmd:./other --fast", edition="modern"))
    root = parse(schema, junit.render(document(results, engines=engines,
                                                editions=("cr2004", "modern"))))
    suites = {s.get("name"): s for s in root.findall("testsuite")}
    assert list(suites) == ["reference-engine 0.1.0 · cr2004", "reference-engine 0.1.0 · modern",
                            "cmd:./other --fast · cr2004", "cmd:./other --fast · modern"]
    modern = suites["cmd:./other --fast · modern"]
    assert {k: modern.get(k) for k in ("tests", "failures", "errors", "skipped")} == {
        "tests": "7", "failures": "1", "errors": "3", "skipped": "2"}
    assert modern.get("timestamp") == "2026-01-02T03:04:05Z"
    assert {k: root.get(k) for k in ("name", "tests", "failures", "errors", "skipped")} == {
        "name": "mtg-conformance", "tests": "25", "failures": "4", "errors": "9",
        "skipped": "8"}
    assert properties(suites["reference-engine 0.1.0 · cr2004"]) == [
        ("engine", "reference"), ("engine.name", "reference-engine"),
        ("engine.version", "0.1.0"), ("protocol", "1.1"), ("edition", "cr2004"),
        ("harness", "mtg-conformance 0.1.0"), ("interrupted", "false")]
    assert properties(modern) == [
        ("engine", "cmd:./other --fast"), ("edition", "modern"),
        ("harness", "mtg-conformance 0.1.0"), ("interrupted", "false")]


def test_two_specs_of_one_engine_get_distinct_suite_names(schema):
    engines = {"reference": REFERENCE_INFO, "py:reference_engine:Engine": REFERENCE_INFO}
    results = [result("c", "pass", engine=e) for e in engines]
    root = parse(schema, junit.render(document(results, engines=engines)))
    assert [s.get("name") for s in root.findall("testsuite")] == [
        "reference-engine 0.1.0 · modern [reference]",
        "reference-engine 0.1.0 · modern [py:reference_engine:Engine]"]


def test_testcase_names_its_case_file_line_class_and_rules(schema, tmp_path):
    outside = tmp_path / "mine" / "extra.cases.yaml"
    results = [
        result("zone.a", "pass", file=str(CASES / "zone_rules.yaml"), line=70,
               rules=("cr2004:217.1c", "modern:400.7")),
        result("zone.b", "fail", file=str(outside), line=3, rules=()),
        result("zone.c", "crash", file=None, line=None,
               message="the test process died while running the case"),
    ]
    root = parse(schema, junit.render(document(results), relative_to=ROOT))
    a, b, c = root.findall("testsuite/testcase")
    assert a.attrib == {"name": "zone.a", "classname": "modern.zone_rules",
                        "file": "conformance/cases/zone_rules.yaml", "line": "70",
                        "time": "0.013"}
    assert (ROOT / a.get("file")).is_file()
    assert properties(a) == [("rule", "cr2004:217.1c"), ("rule", "modern:400.7")]
    # Outside relative_to: as given; no dot from the file name in the classname.
    assert b.get("file") == str(outside)
    assert b.get("classname") == "modern.extra_cases"
    assert b.find("properties") is None
    # No file: still a valid testcase, in the edition's "unknown" class.
    assert c.attrib == {"name": "zone.c", "classname": "modern.unknown", "time": "0.013"}
    assert c.find("error").get("type") == "crash"
    # Without relative_to, the file is as given.
    plain = parse(schema, junit.render(document(results[:1])))
    assert only_case(plain).get("file") == str(CASES / "zone_rules.yaml")


def test_times_have_three_decimals(schema):
    results = [result("a", "pass", duration=1.23456), result("b", "pass", duration=0),
               result("c", "pass", duration=2.0005)]
    root = parse(schema, junit.render(document(results)))
    assert [c.get("time") for c in root.iter("testcase")] == ["1.235", "0.000", "2.001"]
    assert root.find("testsuite").get("time") == "3.235"


def test_an_interrupted_run_has_an_error_in_every_suite(schema):
    engines = {"reference": REFERENCE_INFO, "cmd:other": None}
    results = [result("a", "pass"), result("b", "pass", edition="cr2004"),
               result("c", "fail", engine="cmd:other")]
    root = parse(schema, junit.render(document(
        results, engines=engines, editions=("cr2004", "modern"), interrupted=True,
        interrupted_by="SIGTERM", selected=40)))
    suites = root.findall("testsuite")
    # cmd:other · cr2004 got no result before the interruption, and is reported all the same.
    assert [s.get("name") for s in suites] == [
        "reference-engine 0.1.0 · cr2004", "reference-engine 0.1.0 · modern",
        "cmd:other · cr2004", "cmd:other · modern"]
    for suite in suites:
        last = suite.findall("testcase")[-1]
        assert last.get("name") == "(run interrupted)"
        error = last.find("error")
        assert error.get("type") == "interrupted"
        assert error.get("message") == (
            "the run was interrupted by SIGTERM: 3 of 40 case runs finished")
        assert ("interrupted", "true") in properties(suite)
        assert ("interrupted_by", "SIGTERM") in properties(suite)
        assert int(suite.get("errors")) >= 1
    assert root.get("tests") == "7"
    assert root.get("errors") == "4"
    assert root.get("failures") == "1"


def test_an_interrupted_run_with_no_result_is_not_empty(schema):
    root = parse(schema, junit.render(document([], interrupted=True, selected=9)))
    case = only_case(root)
    assert case.get("name") == "(run interrupted)"
    assert case.find("error").get("message") == (
        "the run was interrupted: 0 of 9 case runs finished")
    assert root.get("errors") == "1"


def test_a_version_1_document_renders(schema):
    old = document([result("a", "pass"), result("b", "fail")])
    for key in ("interrupted", "selected"):
        del old[key]
    old["version"] = 1
    root = parse(schema, junit.render(old))
    assert root.get("tests") == "2"
    assert ("interrupted", "false") in properties(root.find("testsuite"))


def test_unicode_survives_and_what_xml_forbids_is_stripped(schema, tmp_path):
    stderr = "\x1b[31mpanic\x1b[0m: 法术\x00 bad\x07 byte \udcff end\ufffe\n\tline 2"
    results = [
        result("叠.法术-不能被反击", "fail", message="期望 “法术” 不能被反击; 観測: 打ち消された",
               rules=("cr2004:101.3",), detail={"stderr": stderr, "path": "stack[0]",
                                                "expected": "呪文", "observed": None}),
        result("コスト", "skip", message="未対応: カード「稲妻」\x0b", edition="cr2004"),
    ]
    doc = document(results, editions=("cr2004", "modern"))
    text = junit.render(doc)
    root = parse(schema, text)
    failing = root.find("testsuite[@name='reference-engine 0.1.0 · modern']/testcase")
    assert failing.get("name") == "叠.法术-不能被反击"
    assert failing.find("failure").get("message") == "期望 “法术” 不能被反击; 観測: 打ち消された"
    assert 'expected: "呪文"' in failing.find("failure").text
    assert failing.find("system-err").text == "panic: 法术 bad byte  end\n\tline 2"
    skipped = root.find("testsuite[@name='reference-engine 0.1.0 · cr2004']/testcase/skipped")
    assert skipped.get("message") == "未対応: カード「稲妻」"
    # write(): UTF-8 on disk, the same document, nothing left beside it.
    path = tmp_path / "out" / "junit.xml"
    junit.write(doc, path)
    assert path.read_bytes() == text.encode("utf-8")
    assert [p.name for p in path.parent.iterdir()] == ["junit.xml"]


def test_write_replaces_a_previous_file(tmp_path):
    path = tmp_path / "junit.xml"
    path.write_text("old", encoding="utf-8")
    junit.write(document([result("a", "pass")]), path, relative_to=ROOT)
    assert 'file="conformance/cases/zone_rules.yaml"' in path.read_text(encoding="utf-8")
    assert [p.name for p in tmp_path.iterdir()] == ["junit.xml"]


VALID = """<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="x" tests="2" failures="1" errors="0" skipped="0" time="0.500">
  <testsuite name="e · modern" tests="2" failures="1" errors="0" skipped="0" time="0.500"
             timestamp="2026-01-02T03:04:05Z">
    <properties><property name="edition" value="modern"/></properties>
    <testcase name="a" classname="modern.zone" file="c/z.yaml" line="3" time="0.250"/>
    <testcase name="b" classname="modern.zone" time="0.250">
      <failure message="m" type="fail">body</failure>
      <system-err>err</system-err>
    </testcase>
  </testsuite>
</testsuites>
"""

BROKEN = {
    "misspelt element": ('<testcase name="a" classname="modern.zone" file="c/z.yaml" line="3" '
                         'time="0.250"/>', '<testcse name="a"/>'),
    "misspelt attribute": ('classname="modern.zone" time', 'clasname="modern.zone" time'),
    "count not a number": ('tests="2" failures="1" errors="0" skipped="0" time="0.500"\n',
                           'tests="two" failures="1" errors="0" skipped="0" time="0.500"\n'),
    "time with a unit": ('time="0.250"/>', 'time="0.25s"/>'),
    "line not a number": ('line="3"', 'line="three"'),
    "result after system-err": (
        '<failure message="m" type="fail">body</failure>\n      <system-err>err</system-err>',
        '<system-err>err</system-err><failure message="m" type="fail">body</failure>'),
    "two result elements": ('<failure message="m" type="fail">body</failure>',
                            '<failure message="m" type="fail">body</failure><error/>'),
    "result element under the suite": ("</testsuite>", "<failure/></testsuite>"),
    "testcase without a name": ('<testcase name="b" ', "<testcase "),
    "testcase directly under testsuites": ("</testsuites>", '<testcase name="c"/></testsuites>'),
    "suite name twice": ("</testsuites>",
                         '<testsuite name="e · modern" tests="0"/></testsuites>'),
    "testcase twice in a suite": ('<testcase name="b" classname="modern.zone"',
                                  '<testcase name="a" classname="modern.zone"'),
    "bad timestamp": ('timestamp="2026-01-02T03:04:05Z"', 'timestamp="yesterday"'),
}


def test_the_schema_accepts_the_sample(schema):
    schema.validate(VALID)


@pytest.mark.parametrize("mistake", list(BROKEN))
def test_the_schema_rejects_real_mistakes(schema, mistake):
    text = VALID
    edits = BROKEN[mistake]
    for old, new in zip(edits[::2], edits[1::2], strict=True):
        assert old in text, mistake
        text = text.replace(old, new, 1)
    ET.fromstring(text.encode("utf-8"))  # still well-formed: the schema must catch it
    assert not schema.is_valid(text)


def test_the_junit_of_a_real_run_validates(schema, tmp_path, capsys):
    from mtgconf import main

    out = tmp_path / "out"
    # The exit status is the run's business (tests/test_cli_run.py); here only its results.
    main(["run", "--edition", "modern", "--rules", "modern:400.*", "-n", "0",
          "--out", str(out)])
    capsys.readouterr()
    data = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert data["results"]
    root = parse(schema, junit.render(data, relative_to=ROOT))
    assert int(root.get("tests")) == len(data["results"]) + len(root.findall("testsuite")) * (
        1 if data.get("interrupted") else 0)
    for case in root.iter("testcase"):
        assert case.get("classname").startswith("modern.")
        assert (ROOT / case.get("file")).is_file()
        assert case.find("properties/property[@name='rule']") is not None
    # The run writes its junit.xml with this module too (files relative to its working
    # directory, not to ROOT).
    written = parse(schema, (out / "junit.xml").read_text(encoding="utf-8"))
    assert written.get("tests") == root.get("tests")
