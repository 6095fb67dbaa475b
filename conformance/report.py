"""``results.json``: writing it (``ResultsRecorder``, a pytest plugin object on the controller)
and summarising it (per rule, per section). Readers outside the harness only read the file.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from conformance.protocol import HARNESS, EngineInfo
from conformance.results import STATUSES, UNEXPECTED


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def counts(statuses: Iterable[str]) -> dict[str, int]:
    found = Counter(statuses)
    return {s: found[s] for s in STATUSES if found[s]}


def rollup(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per rule and engine, the results citing the rule in the rule's own edition."""
    groups: dict[tuple[str, str], list[str]] = defaultdict(list)
    for result in results:
        for rule in result["rules"]:
            if rule.partition(":")[0] == result["edition"]:
                groups[(rule, result["engine"])].append(result["status"])
    return [
        {"rule": rule, "engine": engine, "total": len(statuses),
         "unexpected": sum(s in UNEXPECTED for s in statuses), "counts": counts(statuses)}
        for (rule, engine), statuses in sorted(groups.items(), key=lambda kv: _rule_key(kv[0]))
    ]


def _rule_key(key: tuple[str, str]) -> tuple[Any, ...]:
    rule, engine = key
    edition, _, number = rule.partition(":")
    parts = [(int(x), "") if x.isdigit() else (0, x) for x in re.findall(r"\d+|[a-z]+", number)]
    return (edition, parts, engine)


def document(*, engines: dict[str, EngineInfo | None], editions: list[str], started: str,
             finished: str, options: dict[str, Any],
             results: list[dict[str, Any]]) -> dict[str, Any]:
    results = sorted(results, key=lambda r: (r["engine"], r["case_id"], r["edition"]))
    return {
        "format": "mtg-conformance results",
        "version": 1,
        "harness": HARNESS,
        "engines": [{"spec": spec, "info": info.serializable() if info else None}
                    for spec, info in engines.items()],
        "editions": editions,
        "started": started,
        "finished": finished,
        "options": options,
        "summary": {
            "total": len(results),
            "unexpected": sum(r["status"] in UNEXPECTED for r in results),
            "counts": counts(r["status"] for r in results),
        },
        "results": results,
        "rules": rollup(results),
    }


def write_json(path: Path, data: dict[str, Any]) -> None:
    """Write atomically: a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    partial.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    partial.replace(path)


class ResultsRecorder:
    """Collects every case result reported to this process (under xdist: every worker's, as
    they arrive at the controller) and writes results.json at the end of the session."""

    def __init__(self, path: Path, *, editions: list[str], options: dict[str, Any],
                 engines: list[str], case_node: Any) -> None:
        self.path = path
        self.editions = editions
        self.options = options
        self.engines: dict[str, EngineInfo | None] = dict.fromkeys(engines)
        self.results: dict[str, dict[str, Any]] = {}
        self.started = now()
        self._case_node = case_node  # nodeid -> (case_id, edition, engine, rules) | None

    def pytest_runtest_logreport(self, report: Any) -> None:
        data = getattr(report, "mtg_result", None)
        if data is not None:
            self.results[report.nodeid] = data
        elif report.failed and report.nodeid not in self.results:
            # No result came back: the worker running the case died (an in-process engine
            # that killed its interpreter). The case is a crash, and the run goes on.
            found = self._case_node(report.nodeid)
            if found is not None:
                case_id, edition, engine, rules = found
                self.results[report.nodeid] = {
                    "case_id": case_id, "edition": edition, "rules": rules, "engine": engine,
                    "status": "crash", "outcome": "crash",
                    "message": "the test process died while running the case",
                    "duration": float(getattr(report, "duration", 0.0) or 0.0),
                }

    def write(self) -> dict[str, Any]:
        data = document(engines=self.engines, editions=self.editions, started=self.started,
                        finished=now(), options=self.options,
                        results=list(self.results.values()))
        write_json(self.path, data)
        return data


def sections(data: dict[str, Any], corpus: Any) -> list[dict[str, Any]]:
    """Results per rule section (edition and section number), for the run's summary. A result
    counts under the sections of the rules it cites in its own edition."""
    groups: dict[tuple[str, str], list[str]] = defaultdict(list)
    titles: dict[tuple[str, str], str] = {}
    for result in data["results"]:
        keys = set()
        for ref in result["rules"]:
            edition = ref.partition(":")[0]
            if edition != result["edition"] or ref not in corpus:
                continue
            rule = corpus.get(ref)
            keys.add((edition, rule.section))
            titles[(edition, rule.section)] = section_title(corpus, edition, rule.section)
        if not keys:
            keys.add((result["edition"], "-"))
            titles[(result["edition"], "-")] = "(cases citing another edition's rules only)"
        for key in keys:
            groups[key].append(result["status"])
    return [{"edition": e, "section": s, "title": titles[(e, s)], "counts": counts(st),
             "unexpected": sum(x in UNEXPECTED for x in st)}
            for (e, s), st in sorted(groups.items())]


def section_title(corpus: Any, edition: str, section: str) -> str:
    """The English title of a section, from its gist."""
    gist = corpus.get(f"{edition}:{section}").gist.removeprefix("Section heading: ")
    return gist.split(" (")[0].rstrip(".")
