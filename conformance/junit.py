"""JUnit XML from a results document (``results.json``), for CI systems that read nothing else.

What the readers use: Jenkins (junit plugin) builds its package/class tree from
``testcase/@classname`` (the last dot-separated segment is the class, so it is
``<edition>.<case file stem>``), names the test after ``@name``, shows ``testsuite/@name``,
``@timestamp`` and ``@time``, and shows a ``failure``/``error``'s ``@message`` as the error
message and its text as the stack trace; GitLab's unit test reports use ``@name``,
``@classname``, ``@file``, ``@time``, the result element and ``system-out``/``system-err``, and
ignore the suites; GitHub annotation actions place an annotation at ``@file`` and ``@line``
(relative to the repository, hence ``relative_to``). All of them count ``failure`` (the engine
did the wrong thing), ``error`` (it could not be judged) and ``skipped`` apart, and a run with
none of the first two is green; hence the extra ``(run interrupted)`` error of an interrupted
run. The element schema is ``spec/schemas/junit.xsd``.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path, PurePath
from typing import Any

from conformance import atomic

SUITES_NAME = "mtg-conformance"
INTERRUPTED_CASE = "(run interrupted)"

# status -> (element, type); pass has no element.
ELEMENTS: dict[str, tuple[str, str | None]] = {
    "fail": ("failure", "fail"),
    "xpass": ("failure", "xpass"),
    "flaky": ("failure", "flaky"),
    "error": ("error", "error"),
    "crash": ("error", "crash"),
    "timeout": ("error", "timeout"),
    "skip": ("skipped", None),
    "xfail": ("skipped", "xfail"),
}
_COUNTED = {"failure": "failures", "error": "errors", "skipped": "skipped"}

# What XML 1.0 forbids (C0 controls but tab, newline and return; surrogates; U+FFFE, U+FFFF),
# and the ANSI colour and cursor sequences an engine's stderr may hold (their ESC is forbidden,
# the rest would be noise).
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")
_FORBIDDEN = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def render(document: dict[str, Any], *, relative_to: Path | None = None) -> str:
    """The JUnit XML of a results document: one ``testsuite`` per engine and edition, one
    ``testcase`` per result. Case files inside ``relative_to`` are given relative to it."""
    results = document.get("results", [])
    interrupted = bool(document.get("interrupted", False))
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {
        pair: [] for pair in _pairs(document, results, interrupted=interrupted)}
    for result in results:
        groups[(result["engine"], result["edition"])].append(result)

    root = ET.Element("testsuites", name=SUITES_NAME)
    totals = dict.fromkeys(("tests", "failures", "errors", "skipped"), 0)
    total_time = 0.0
    names = _suite_names(document, list(groups))
    for (engine, edition), members in groups.items():
        suite = ET.SubElement(root, "testsuite", name=names[(engine, edition)])
        _suite_properties(suite, document, engine, edition, interrupted=interrupted)
        counts = dict.fromkeys(("failures", "errors", "skipped"), 0)
        seconds = 0.0
        for result in members:
            kind = _testcase(suite, result, relative_to)
            if kind is not None:
                counts[_COUNTED[kind]] += 1
            seconds += _duration(result)
        if interrupted:
            _interrupted_case(suite, document, edition)
            counts["errors"] += 1
        tests = len(members) + (1 if interrupted else 0)
        _set(suite, tests=str(tests), failures=str(counts["failures"]),
             errors=str(counts["errors"]), skipped=str(counts["skipped"]),
             time=_seconds(seconds))
        if document.get("started"):
            suite.set("timestamp", _clean(document["started"]))
        totals["tests"] += tests
        for key, value in counts.items():
            totals[key] += value
        total_time += seconds
    _set(root, **{k: str(v) for k, v in totals.items()}, time=_seconds(total_time))
    ET.indent(root, space="  ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") \
        + "\n"


def write(document: dict[str, Any], path: Path, *, relative_to: Path | None = None) -> None:
    """Write ``render(document)`` to ``path`` atomically: a reader never sees half a file."""
    atomic.write_text(path, render(document, relative_to=relative_to), newline="\n")


def _pairs(document: dict[str, Any], results: list[dict[str, Any]], *,
           interrupted: bool) -> list[tuple[str, str]]:
    """The (engine, edition) pairs to report, in the run's order of engines and editions. An
    interrupted run reports every pair it set out to run, even one that got no result yet, so
    that each carries the interruption."""
    present = {(r["engine"], r["edition"]) for r in results}
    if interrupted:
        present |= {(e["spec"], edition) for e in document.get("engines", [])
                    for edition in document.get("editions", [])}
        if not present:
            present = {(e["spec"], "unknown") for e in document.get("engines", [])} or {
                ("unknown", "unknown")}
    engine_order = [e["spec"] for e in document.get("engines", [])]
    edition_order = list(document.get("editions", []))
    for result in results:
        if result["engine"] not in engine_order:
            engine_order.append(result["engine"])
        if result["edition"] not in edition_order:
            edition_order.append(result["edition"])
    for engine, edition in sorted(present):
        if engine not in engine_order:
            engine_order.append(engine)
        if edition not in edition_order:
            edition_order.append(edition)
    return sorted(present, key=lambda p: (engine_order.index(p[0]), edition_order.index(p[1])))


def _engine_info(document: dict[str, Any], spec: str) -> dict[str, Any] | None:
    for engine in document.get("engines", []):
        if engine.get("spec") == spec:
            info: dict[str, Any] | None = engine.get("info")
            return info
    return None


def _suite_names(document: dict[str, Any],
                 pairs: list[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """``<name> <version> · <edition>`` (the spec when the engine did not declare itself); two
    specs declaring the same engine get their spec added, so that suite names stay unique."""
    labels = {}
    for engine, edition in pairs:
        info = _engine_info(document, engine)
        who = f"{info['name']} {info['version']}" if info else engine
        labels[(engine, edition)] = f"{who} · {edition}"
    seen: dict[str, int] = {}
    for label in labels.values():
        seen[label] = seen.get(label, 0) + 1
    return {pair: _clean(label if seen[label] == 1 else f"{label} [{pair[0]}]")
            for pair, label in labels.items()}


def _suite_properties(suite: ET.Element, document: dict[str, Any], engine: str, edition: str,
                      *, interrupted: bool) -> None:
    info = _engine_info(document, engine)
    values: list[tuple[str, Any]] = [("engine", engine)]
    if info:
        values += [("engine.name", info.get("name")), ("engine.version", info.get("version")),
                   ("protocol", _number(info.get("protocol")))]
    values += [("edition", edition), ("harness", document.get("harness")),
               ("interrupted", "true" if interrupted else "false")]
    if interrupted and document.get("interrupted_by"):
        values.append(("interrupted_by", document["interrupted_by"]))
    properties = ET.SubElement(suite, "properties")
    for name, value in values:
        if value is not None:
            ET.SubElement(properties, "property", name=name, value=_clean(str(value)))


def _testcase(suite: ET.Element, result: dict[str, Any], relative_to: Path | None) -> str | None:
    """Add the testcase of one result; returns its result element's name (None for a pass)."""
    edition = result["edition"]
    file = result.get("file") or ""
    case = ET.SubElement(suite, "testcase", name=_clean(result["case_id"]),
                         classname=_clean(f"{edition}.{_class(file)}"))
    if file:
        case.set("file", _clean(_relative(file, relative_to)))
        line = result.get("line")
        if isinstance(line, int) and line > 0:
            case.set("line", str(line))
    case.set("time", _seconds(_duration(result)))
    if result.get("rules"):
        properties = ET.SubElement(case, "properties")
        for rule in result["rules"]:
            ET.SubElement(properties, "property", name="rule", value=_clean(rule))

    status = result["status"]
    detail = result.get("detail") or {}
    message = result.get("message") or ""
    if status == "pass":
        kind = None
    else:
        # A status this module does not know yet is an error, never a silent pass.
        kind, type_ = ELEMENTS.get(status, ("error", str(status)))
        if status == "error" and detail.get("internal"):
            type_ = "internal-error"
            message = ("internal error: a bug of the mtg-conformance harness, not of the "
                       f"engine: {message}")
        elif status == "xfail":
            message = f"expected failure: {detail.get('expected_reason') or message}"
        elif status == "flaky" and not message:
            message = "flaky: the runs ended differently: " + ", ".join(
                _outcome_status(o) for o in detail.get("outcomes", []))
        element = ET.SubElement(case, kind, message=_clean(message or status))
        if type_ is not None:
            element.set("type", type_)
        body = _body(result)
        if body:
            element.text = _clean(body)
    if detail.get("stderr"):
        ET.SubElement(case, "system-err").text = _clean(str(detail["stderr"]))
    return kind


def _body(result: dict[str, Any]) -> str:
    """The text of a result element (readers show it as the stack trace): the message, then
    the step and its line, the path, expected and observed, the expectation, what kept a
    skipped case from running, a flaky case's runs, and an internal error's traceback."""
    detail = result.get("detail") or {}
    status = result["status"]
    lines = [result["message"]] if result.get("message") else []
    where = []
    if "step" in detail:
        step = f"step {detail['step']}"
        if detail.get("step_kind"):
            step += f" ({detail['step_kind']})"
        where.append(step)
    if detail.get("line") is not None:
        where.append(f"line {detail['line']}")
    if where:
        lines.append(", ".join(where))
    if "path" in detail:
        lines.append(f"path: {detail['path']}")
        lines.append(f"expected: {_json(detail.get('expected'))}")
        lines.append(f"observed: {_json(detail.get('observed'))}")
    if "expected_status" in detail:
        expectation = f"expected status: {detail['expected_status']}"
        if detail.get("expected_reason"):
            expectation += f": {detail['expected_reason']}"
        if detail.get("expected_link"):
            expectation += f" ({detail['expected_link']})"
        lines.append(expectation)
    if detail.get("blockers"):
        lines.append(f"blockers: {'; '.join(map(str, detail['blockers']))}")
    if status == "flaky" and detail.get("outcomes"):
        lines.append("outcomes:")
        lines += [f"  run {i}: {_outcome_text(o)}" for i, o in enumerate(detail["outcomes"], 1)]
    if detail.get("traceback"):  # an internal error: where the harness failed
        lines += ["", str(detail["traceback"]).rstrip("\n")]
    return "\n".join(lines)


def _outcome_status(outcome: Any) -> str:
    if isinstance(outcome, dict):
        return str(outcome.get("status") or outcome.get("outcome") or _json(outcome))
    return str(outcome)


def _outcome_text(outcome: Any) -> str:
    if isinstance(outcome, dict) and outcome.get("message"):
        return f"{_outcome_status(outcome)}: {outcome['message']}"
    return _outcome_status(outcome)


def _interrupted_case(suite: ET.Element, document: dict[str, Any], edition: str) -> None:
    finished = len(document.get("results", []))
    selected = document.get("selected")
    by = document.get("interrupted_by")
    message = f"the run was interrupted{f' by {by}' if by else ''}: "
    message += (f"{finished} of {selected} case runs finished" if selected is not None
                else f"{finished} case runs finished")
    case = ET.SubElement(suite, "testcase", name=INTERRUPTED_CASE,
                         classname=_clean(f"{edition}.run"), time=_seconds(0))
    error = ET.SubElement(case, "error", message=_clean(message), type="interrupted")
    error.text = _clean(f"{message}. This report holds only the case runs that finished "
                        "before the run was cut short; it is not a complete run.")


def _class(file: str) -> str:
    """The class segment of a classname: the case file's stem, without dots (a dot separates
    packages for Jenkins); ``unknown`` when the result has no file."""
    if not file:
        return "unknown"
    stem = PurePath(file.replace("\\", "/")).stem
    return stem.replace(".", "_") or "unknown"


def _relative(file: str, base: Path | None) -> str:
    if base is None:
        return file
    path = Path(file)
    for root in dict.fromkeys((base, base.absolute(), base.resolve())):
        try:
            return path.relative_to(root).as_posix()
        except ValueError:
            continue
    return file


def _duration(result: dict[str, Any]) -> float:
    try:
        seconds = float(result.get("duration") or 0.0)
    except (TypeError, ValueError):
        return 0.0
    return seconds if seconds >= 0 else 0.0  # also turns NaN into 0


def _seconds(value: float) -> str:
    return f"{value:.3f}"


def _number(value: Any) -> str | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f"{value:g}"
    return None if value is None else str(value)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


def _clean(text: str) -> str:
    """``text`` without what XML 1.0 cannot hold (control characters, lone surrogates) and
    without ANSI escape sequences; ElementTree escapes the rest."""
    return _FORBIDDEN.sub("", _ANSI.sub("", text))


def _set(element: ET.Element, **attributes: str) -> None:
    for name, value in attributes.items():
        element.set(name, value)
