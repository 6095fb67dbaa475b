"""reports/ without a browser: the data handed to the templates, the pages written (every page
checked for what would make a browser log an error: a link or anchor that does not resolve, a
resource from elsewhere, a script or inline style the pages' policy forbids), the inputs it
accepts and refuses, the CI outputs, and escaping of everything an engine supplies.
tests/test_reports_browser.py loads the same sites in Chromium.

The runs and sites are made once per session (``shared``), from the ten frozen cases of
tests/fakes/cases (and, for the first two runs, the two cases of tests/fakes/beyond, which
cite rules outside the seeds): the reference engine (whose ``mtgconf run`` writes its own
report), a toy engine that plays lands any time (a second column, and failures), and an engine
whose every text carries markup.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest

import reports
from conformance.resultsfile import Record, Results, by_rule, from_here, rerun_command, shown_path
from conformance.settings import BUNDLED_CASES
from mtgconf import main
from reports import model
from reports.inputs import BadInput, read_fuzz
from reports.pages import Inputs, Site
from reports.render import MARKER, environment
from spec.corpus import Corpus
from tests.fakes.markup import IMAGE, SCRIPT, SVG

ROOT = Path(__file__).resolve().parents[1]
FAKES = ROOT / "tests" / "fakes"
FROZEN = FAKES / "cases"  # the first bundled cases, frozen
BEYOND = FAKES / "beyond"  # two cases citing rules outside the seeds
TOY = "py:tests.fakes.miniatures:PlaysLandsAnyTime"
MARKUP = "py:tests.fakes.markup:MarkupEngine"
FUZZ = FAKES / "reports" / "fuzz.json"
MUTANTS = ROOT / "docs" / "mutants" / "baseline-c56e2d4.json"
#: elements that would run, load or submit something; none may come from an engine's text
ACTIVE = frozenset({"script", "img", "iframe", "frame", "svg", "object", "embed", "form",
                    "style", "base", "video", "audio", "math"})


def mtgconf(*argv: str) -> tuple[int, str]:
    """Run the command line in this process: its exit status and what it printed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            code = main(list(argv))
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, out.getvalue()


# ---- runs and sites shared by both test modules, made once per session ----

@dataclass
class Shared:
    base: Path
    _made: dict[str, object] = field(default_factory=dict)

    def _once(self, key: str, make: Callable[[], Any]) -> Any:
        if key not in self._made:
            self._made[key] = make()
        return self._made[key]

    def run(self, name: str, *argv: str, expect: int, beyond: bool = True
            ) -> tuple[Path, str]:
        """A run over the frozen cases (and those beyond the seeds): its results file and what
        it printed."""
        def make() -> tuple[Path, str]:
            out = self.base / name
            folders = ["--cases", str(FROZEN), *(("--cases", str(BEYOND)) if beyond else ())]
            code, printed = mtgconf("run", "--no-bundled", *folders, "--out",
                                    str(out), "-n", "0", *argv)
            assert code == expect, printed
            return out / "results.json", printed
        return self._once(f"run:{name}", make)

    def reference(self) -> tuple[Path, str]:
        """The reference engine, as the main job runs it: report and coverage.json beside."""
        return self.run("reference", expect=0)

    def toy(self) -> tuple[Path, str]:
        """A toy engine that plays lands any time, with options its rerun commands keep, and
        the trace of each unexpected result."""
        return self.run("toy", "--engine", TOY, "--case-timeout", "5", "--validate-protocol",
                        "--no-report", "--trace", expect=1)

    def suite(self) -> Path:
        """The report of both engines, with the reference run's coverage, mutants and fuzz
        findings: every kind of page."""
        def make() -> Path:
            reference, toy = self.reference()[0], self.toy()[0]
            out = self.base / "suite"
            reports.build([reference, toy], out, coverage=reference.with_name("coverage.json"),
                          mutants=MUTANTS, fuzz=[FUZZ])
            return out
        return self._once("suite", make)

    def xss(self) -> tuple[Path, list[str]]:
        """The report of an engine whose name, version, cards and messages carry markup, its
        results file further given markup in a stderr, a failed check, an expectation and a
        case id; and a fuzz file whose engine, finding and case carry markup. The marks must
        show as text."""
        def make() -> tuple[Path, list[str]]:
            path = self.run("markup", "--engine", MARKUP, "--no-report", "--trace", expect=1,
                            beyond=False)[0]
            data = json.loads(path.read_text())
            failing = [r for r in data["results"] if r["status"] not in ("pass", "skip")]
            assert failing, "the markup engine must fail something"
            failing[0]["detail"] = {
                **failing[0].get("detail", {}), "stderr": f"</pre>{SCRIPT}\npanic: {IMAGE}",
                "step": 1, "step_kind": "expect", "path": f"battlefield[{SCRIPT}]",
                "expected": {"card": SCRIPT}, "observed": [IMAGE], "expected_status": "fail",
                "expected_reason": f"known {SCRIPT}",
                "expected_link": "javascript:window.pwned = 1"}
            failing[-1]["case_id"] = f"land.{SCRIPT}"
            failing[-1]["message"] = f"{IMAGE} {failing[-1]['message']}"
            marked = self.base / "markup" / "marked.json"
            marked.write_text(json.dumps(data))
            fuzz = json.loads(FUZZ.read_text())
            fuzz["engine"] = {"name": f"{SCRIPT}toy", "version": IMAGE}
            finding = fuzz["findings"][0]
            finding["message"] = f"{SCRIPT} in the graveyard"
            finding["case"] = {"id": IMAGE, "summary": SVG}
            finding["trace"] = [f"A: cast {SVG}"]
            finding["case_file"] = f"{SCRIPT}.yaml"
            fuzz["findings"] = [finding]
            (self.base / "markup" / "fuzz.json").write_text(json.dumps(fuzz))
            out = self.base / "xss"
            reports.build([marked], out, fuzz=[self.base / "markup" / "fuzz.json"],
                          title=f"Report {SCRIPT}")
            return out, [f"{SCRIPT}toy", IMAGE, SVG]
        return self._once("xss", make)


_SHARED: list[Shared] = []


def shared(tmp_path_factory: pytest.TempPathFactory) -> Shared:
    """The session's runs and sites (both test modules import this)."""
    if not _SHARED:
        _SHARED.append(Shared(tmp_path_factory.mktemp("reports")))
    return _SHARED[0]


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Shared:
    return shared(tmp_path_factory)


@pytest.fixture(scope="module")
def suite(made: Shared) -> Path:
    return made.suite()


# ---- reading pages ----

class Parsed(HTMLParser):
    """A page's elements, attributes, links and ids."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attributes: list[tuple[str, str, str]] = []
        self.links: list[str] = []
        self.ids: set[str] = set()
        self.stylesheets: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        values = {name: value or "" for name, value in attrs}
        for name, value in values.items():
            self.attributes.append((tag, name, value))
            if name in ("href", "src") and value:
                self.links.append(value)
            elif name == "id" and value:
                self.ids.add(value)
        if tag == "link" and values.get("rel") == "stylesheet":
            self.stylesheets.append(values.get("href", ""))


def parse(text: str) -> Parsed:
    parser = Parsed()
    parser.feed(text)
    return parser


_PARSED: dict[Path, Parsed] = {}


def parse_file(path: Path) -> Parsed:
    """A page of a site, parsed once (the shared sites never change once written)."""
    if path not in _PARSED:
        _PARSED[path] = parse(path.read_text(encoding="utf-8"))
    return _PARSED[path]


def element_ids(text: str) -> set[str]:
    return parse(text).ids


def broken_links(site: Path) -> list[str]:
    """Every href and src of every page that does not resolve to a file (and anchor) of the
    site."""
    found = []
    for page in sorted(site.rglob("*.html")):
        for link in parse_file(page).links:
            if link.startswith("data:"):
                continue
            parts = urlsplit(link)
            if parts.scheme or parts.netloc:
                found.append(f"{page}: leaves the site: {link}")
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if not target.is_relative_to(site.resolve()) or not target.is_file():
                found.append(f"{page}: no such file: {link}")
            elif parts.fragment and unquote(parts.fragment) not in parse_file(target).ids:
                found.append(f"{page}: no such anchor: {link}")
    return found


def active_content(page: Parsed) -> list[str]:
    """What in a page could run or load something: active elements, event handler
    attributes, script URLs, inline styles (which the pages' policy would refuse, logging an
    error)."""
    found = [f"<{tag}>" for tag in page.tags if tag in ACTIVE]
    for tag, name, value in page.attributes:
        if name.startswith("on") or name in {"style", "srcdoc"}:
            found.append(f"<{tag} {name}=...>")
        if name in ("href", "src", "action") and value.strip().lower().startswith(
                ("javascript:", "vbscript:")):
            found.append(f"<{tag} {name}={value!r}>")
    return found


# ---- the report of two engines ----

def test_the_report_has_every_page_and_links_only_inside(suite, made):
    corpus = Corpus.load()
    for rule in corpus.all_rules:  # both parts
        assert (suite / "rules" / rule.edition / f"{rule.id}.html").is_file(), rule.ref
    toy = Results.from_file(made.toy()[0])
    failing = [r for r in toy.records if r.status not in ("pass", "skip")]
    assert failing
    assert len(list((suite / "results").rglob("*.html"))) == len(failing)
    for name in ("index.html", "tree-cr2004.html", "tree-modern.html", "beyond-cr2004.html",
                 "beyond-modern.html", "anomalies.html", "fuzz.html", "report.css",
                 "summary.md", "badge.json", MARKER):
        assert (suite / name).is_file(), name
    assert len(list((suite / "badges").glob("*.json"))) == 2
    assert broken_links(suite) == []


def test_every_page_is_small_static_and_loads_only_its_stylesheet(suite):
    pages = sorted(suite.rglob("*.html"))
    sizes = sorted(((p.stat().st_size, str(p.relative_to(suite))) for p in pages),
                   reverse=True)
    total = sum(p.stat().st_size for p in suite.rglob("*") if p.is_file())
    assert total < 3_000_000, total
    assert sizes[0][0] < 250_000, sizes[:3]
    for page in pages:
        text = page.read_text(encoding="utf-8")
        head = text.split("</head>")[0]
        assert "Content-Security-Policy" in head and "default-src 'none'" in head, page
        assert active_content(parse_file(page)) == [], page
        parsed = parse_file(page)
        assert len(parsed.stylesheets) == 1, page
        assert (page.parent / parsed.stylesheets[0]).resolve() == (suite / "report.css"), page
        assert "http://" not in head and "https://" not in text, page


def test_the_summary_shows_both_engines_and_the_matrix(suite):
    summary = (suite / "index.html").read_text(encoding="utf-8")
    assert "mtg-conformance-reference" in summary and "toy 1.0" in summary
    assert "of the testable rules passed" not in summary  # passed, failed, untested apart
    assert re.search(r'<span class="figure">\d+</span> passed\s*<span class="figure">\d+'
                     r'</span> failed\s*<span class="figure">\d+</span> untested', summary)
    tree_text = (suite / "tree-cr2004.html").read_text(encoding="utf-8")
    header = re.search(r"<table class=\"tree\">\s*<thead><tr>(.*?)</tr>", tree_text, re.S)
    assert header and header.group(1).count("<th") == 2 + 2 + 2  # rule, gist, 2 engines, ...
    rule = (suite / "rules" / "cr2004" / "212.6a.html").read_text(encoding="utf-8")
    assert 'lang="zh-Hant"' in rule and "Gist:" in rule and "land.only-in-main-phase" in rule
    assert "✗ fail" in rule and "✓ pass" in rule
    modern = (suite / "rules" / "modern" / "400.1.html").read_text(encoding="utf-8")
    assert 'lang="ja"' in modern and "cr2004:217.1" in modern  # the concordance
    assert "one-zone-per-card" in modern and "30642 times" in modern  # fuzzed, and a finding


def test_mtgconf_run_writes_the_report_and_coverage_beside_results(made):
    results, printed = made.reference()
    out = results.parent
    assert printed.splitlines()[-1] == f"report:  {out / 'report' / 'index.html'}"
    coverage = json.loads((out / "coverage.json").read_text())
    assert {"summary", "rules", "cases"} <= set(coverage)
    case = coverage["cases"]["land.one-per-turn"]
    assert case["quotes"]["cr2004:212.6b"] and case["rules"] == ["cr2004:212.6b"]
    page = (out / "report" / "rules" / "cr2004" / "212.6b.html").read_text(encoding="utf-8")
    assert case["quotes"]["cr2004:212.6b"] in page
    # --no-report: neither
    toy, printed = made.toy()
    assert "report:" not in printed
    assert not (toy.parent / "report").exists() and not (toy.parent / "coverage.json").exists()


# ---- beyond the seeds ----

def test_the_rules_beyond_the_seeds_have_a_tree_and_pages_of_their_own(suite):
    beyond = (suite / "beyond-modern.html").read_text(encoding="utf-8")
    assert "<h1>Beyond the seeds: modern</h1>" in beyond and "2026-09-25" in beyond
    row = re.search(r'<tr id="r505\.6b".*?</tr>', beyond, re.S)
    assert row and "✓ pass 1/1" in row.group(0) and "✗ fail 0/1" in row.group(0)
    assert "1 (1)" in row.group(0)  # a case, discriminating
    assert 'id="r505.6b"' not in (suite / "tree-modern.html").read_text(encoding="utf-8")
    assert 'id="r400.1"' not in beyond
    cr2004 = (suite / "beyond-cr2004.html").read_text(encoding="utf-8")
    assert '<span class="original" lang="zh-Hant">戰鬥傷害步驟</span>' in cr2004  # 310's title
    assert "unsure in 2004" in cr2004

    page = (suite / "rules" / "modern" / "505.6b.html").read_text(encoding="utf-8")
    assert '<span class="beyond">beyond the seeds</span>' in page
    assert 'class="rule-text"' not in page  # no text of the rule: our record
    assert "<q>one land</q>, <q>stack empty</q>, <q>does not use the stack</q>" in page
    assert "<code>spec/outside/modern.yaml</code> lines " in page and "2026-09-25" in page
    assert 'href="../../rules/modern/405.6d.html">modern:405.6d</a>' in page  # connects
    assert 'href="../../beyond-modern.html#r505.6b"' in page
    assert '<th scope="col">key terms</th>' in page
    assert "beyond.land-only-in-main-phase" in page and "✗ fail" in page
    cases = page.split('<table class="cases">')[1]
    assert "<q>one land</q>, <q>stack empty</q><br>" in cases  # what the case names
    seed = (suite / "rules" / "modern" / "405.6d.html").read_text(encoding="utf-8")
    assert "Beyond the seeds, connected to it" in seed and 'href="../../rules/modern/505.6b.html"' \
        in seed
    unsure = (suite / "rules" / "cr2004" / "303.1.html").read_text(encoding="utf-8")
    assert "Unsure in June 2004:" in unsure and "2004-06-01" in unsure


def test_the_summary_shows_both_parts(suite, made):
    summary = (suite / "index.html").read_text(encoding="utf-8")
    assert "Beyond the seeds, by engine and edition" in summary
    assert re.search(r"Beyond the seeds: <strong>2 of \d+</strong>", summary)  # reference
    assert re.search(r"Beyond the seeds: <strong>1 of \d+</strong>", summary)  # toy
    assert "Coverage of the rules beyond the seeds, counted apart: 2 of" in summary
    assert 'href="beyond-modern.html"' in summary
    md = (suite / "summary.md").read_text(encoding="utf-8")
    assert re.search(r"Beyond the seeds \(counted apart\): 1 of \d+ rules passed", md)
    coverage = json.loads(made.reference()[0].with_name("coverage.json").read_text())
    case = coverage["cases"]["beyond.unblocked-attacker-hits-the-player"]
    assert case["terms"] == {"cr2004:310.2b": ["nobody blocked", "defending player"]}
    assert list(case["quotes"]) == ["cr2004:212.3d"]  # the seed rule it also cites
    assert coverage["summary_outside"]["covered"] == 2
    results = json.loads(made.reference()[0].read_text())  # the roll-up marks them too
    marked = {r["rule"]: r.get("outside") for r in results["rules"]}
    assert marked["modern:505.6b"] is True and marked["cr2004:310.2b"] is True
    assert marked["cr2004:212.6a"] is None  # a seed rule: no mark


def test_a_rule_is_linked_only_when_it_has_a_page(made):
    site = Site(Inputs(runs=(Results.from_file(made.reference()[0]),)), Corpus.load())
    assert site._links(["modern:508.1a", "cr2004:212.6a", "modern:999.9"]) == [
        ("modern:508.1a", "rules/modern/508.1a.html"),
        ("cr2004:212.6a", "rules/cr2004/212.6a.html"), ("modern:999.9", None)]
    page = site.rule_page(Corpus.load().get("modern:508.1a"))
    assert [(r["href"], r["gist"]) for r in page.context["references"]] == [
        ("rules/modern/302.6.html", Corpus.load().get("modern:302.6").gist),
        ("rules/modern/702.10b.html", Corpus.load().get("modern:702.10b").gist)]
    seed = site.rule_page(Corpus.load().get("cr2004:101.5"))  # to 304, outside the seed
    assert [(r["text"], r["href"], r["outside"], r["gist"]) for r in
            seed.context["references"]] == [("規則304", "rules/cr2004/304.html", True,
                                             Corpus.load().get("cr2004:304").gist)]
    absent = site.rule_page(Corpus.load().get("cr2004:103.2")).context["references"]
    assert [(r["target"], r["href"]) for r in absent] == [("407", None)]  # in neither part
    assert {p.path for p in site.pages()} >= {
        "beyond-cr2004.html", "beyond-modern.html", "rules/modern/508.1a.html"}
    summary = site.summary_page().context  # no coverage given: neither part's coverage
    assert summary["coverage"] is None and summary["coverage_outside"] is None
    beyond = summary["engines"][0]["beyond"]
    assert (beyond.rules_tested, beyond.rules_passed) == (2, 2)
    assert beyond.rules_due == len(model.due_rules(Corpus.load(), ["cr2004", "modern"],
                                                   outside=True))


# ---- the data handed to the templates ----

def record(case: str, status: str, *, edition: str = "cr2004", engine: str = "e",
           rules: tuple[str, ...] = ("cr2004:212.6b",), outcome: str | None = None) -> Record:
    return Record(case_id=case, edition=edition, rules=rules, engine=engine, status=status,
                  outcome=outcome or ("fail" if status == "xfail" else
                                      "pass" if status == "xpass" else status),
                  message="", duration=0.0)


def test_a_rule_cell_shows_the_worst_result_and_what_passed():
    assert model.cell([]).label == "no case"
    assert model.cell([record("a", "skip")]).status == "skip"
    mixed = model.cell([record("a", "pass"), record("b", "fail"), record("c", "skip")])
    assert (mixed.status, mixed.label, mixed.conforms) == ("fail", "fail 1/2", False)
    known = model.cell([record("a", "pass"), record("b", "xfail")])
    assert (known.status, known.symbol, known.word) == ("xfail", "✗", "known fail")
    passed = model.cell([record("a", "pass"), record("b", "xpass")])
    assert passed.conforms and passed.status == "xpass"


def test_the_headline_counts_rules_that_passed_among_those_that_do_not_wait():
    corpus = Corpus.load()
    records = [record("a", "pass"), record("b", "fail", rules=("cr2004:212.6a",)),
               record("c", "pass", edition="modern")]  # a 2004 rule run in modern: not counted
    head = model.headline("e", records, by_rule(records), corpus, ["cr2004"])
    due = model.due_rules(corpus, ["cr2004"])
    assert head.rules_due == len(due) and all(not r.testability.get("waits") for r in due)
    assert (head.rules_tested, head.rules_passed, head.unexpected) == (2, 1, 1)
    assert head.counts == {"pass": 2, "fail": 1}


def test_changes_against_a_baseline():
    before = [record("a", "pass"), record("b", "fail"), record("c", "pass"),
              record("d", "skip"), record("gone", "pass")]
    after = [record("a", "fail", engine="e2"), record("b", "pass", engine="e2"),
             record("c", "skip", engine="e2"), record("d", "pass", engine="e2"),
             record("new", "crash", engine="e2"), record("fine", "pass", engine="e2")]
    # the only engine of the baseline stands for the only one now, whatever its spec
    found = {(c.case_id, c.kind) for c in model.changes(after, before, ["e"])}
    assert found == {("a", "regression"), ("b", "fixed"), ("c", "now-skipped"),
                     ("d", "now-runs"), ("new", "new"), ("gone", "gone")}
    assert model.changes(before, before, ["e"]) == []


def test_a_failed_check_reads_as_a_diff():
    lines = model.diff({"life": 20, "cards": ["Forest"]}, {"life": 18, "cards": ["Forest"]})
    assert [(line.mark, line.text.strip()) for line in lines if line.kind != "same"] == [
        ("-", '"life": 20'), ("+", '"life": 18')]
    assert [line.mark for line in model.diff("main", "end")] == ["-", "+"]
    text, cut = model.tail("\n".join(f"line {i}" for i in range(100)))
    assert cut and text.splitlines()[-1] == "line 99" and len(text.splitlines()) == 40


def test_the_rerun_command_is_the_one_mtgconf_run_prints(made, suite):
    results, printed = made.toy()
    reruns = [line.split("rerun: ", 1)[1] for line in printed.splitlines() if "rerun: " in line]
    assert reruns
    run = Results.from_file(results)
    rebuilt = [rerun_command(r, run.options, results.parent) for r in run.records
               if r.unexpected]
    assert sorted(rebuilt) == sorted(reruns)
    # Each rerun writes to a folder of its own: never over the whole run's results.
    assert all(f"--out {results.parent / 'rerun-'}" in line for line in reruns)
    page = _a_failure_page(suite, "toy 1.0")
    assert "--case-timeout 5 --validate-protocol" in page
    assert f"--cases {from_here(FROZEN)} --cases {from_here(BEYOND)} --no-bundled" in page


def test_case_paths_are_shown_as_a_reader_can_use_them(tmp_path, monkeypatch):
    bundled = BUNDLED_CASES / "combat.yaml"
    mine = tmp_path / "cases" / "mine.yaml"
    elsewhere = tmp_path.parent / "elsewhere.yaml"
    monkeypatch.chdir(tmp_path)
    assert shown_path(bundled) == "conformance/cases/combat.yaml"
    assert shown_path(mine) == from_here(mine) == "cases/mine.yaml"
    assert shown_path(elsewhere) == str(elsewhere)
    # A rerun names a folder of cases as the reader, here, would type it.
    failed = record("x", "fail", engine="reference")
    options = {"case_dirs": [str(BUNDLED_CASES), str(mine.parent)],
               "bundled_case_dirs": [str(BUNDLED_CASES)]}
    assert rerun_command(failed, options, from_here(tmp_path / "out")) == \
        "mtgconf run --edition cr2004 --case x --cases cases --out out/rerun-x"


def test_results_files_say_which_case_folders_were_bundled(tmp_path):
    bundled, mine = str(BUNDLED_CASES), str(tmp_path / "mine")
    failed = record("x", "fail", engine="reference")
    options = {"case_dirs": [bundled, mine], "bundled_case_dirs": [bundled]}
    assert rerun_command(failed, options) == \
        f"mtgconf run --edition cr2004 --case x --cases {mine}"
    assert rerun_command(failed, {"case_dirs": [mine], "bundled_case_dirs": []}) == \
        f"mtgconf run --edition cr2004 --case x --cases {mine} --no-bundled"
    # A version 2 file does not say: the bundled folder is known by its place in the package,
    # this installation's or another's.
    elsewhere = "/elsewhere/site-packages/conformance/cases"
    old = {"format": "mtg-conformance results", "version": 2, "harness": "h",
           "engines": [{"spec": "reference", "info": None}], "editions": ["cr2004"],
           "started": "s", "finished": "f", "interrupted": False, "selected": 0,
           "options": {"case_dirs": [elsewhere, mine]},
           "summary": {"total": 0, "unexpected": 0, "counts": {}}, "results": [],
           "rules": []}
    read = Results.from_dict(old)
    assert read.options["bundled_case_dirs"] == [elsewhere]
    assert rerun_command(failed, read.options) == \
        f"mtgconf run --edition cr2004 --case x --cases {mine}"
    assert read.to_dict()["version"] == 3


def _a_failure_page(site: Path, engine_label: str) -> str:
    for page in sorted((site / "results").rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        if f"<dt>engine</dt><dd>{engine_label}" in text:
            return text
    raise AssertionError(f"no failure page of {engine_label}")


def test_the_site_data_is_built_without_rendering(made):
    runs = [Results.from_file(made.reference()[0]), Results.from_file(made.toy()[0])]
    site = Site(Inputs(runs=tuple(runs)), Corpus.load())
    assert [e.label for e in site.engines] == ["mtg-conformance-reference 0.1.0", "toy 1.0"]
    tree = site.tree_page("cr2004")
    lands = next(s for _, _, sections in tree.context["chapters"] for s in sections
                 if s["rule"].id == "212")
    row = next(r for r in lands["rows"] if r["rule"].id == "212.6a")
    assert [c.status for c in row["cells"]] == ["pass", "fail"]
    assert row["coverage"] is None and row["mutation"] is None  # neither given
    page = site.rule_page(Corpus.load().get("cr2004:212.6b"))
    assert page.path == "rules/cr2004/212.6b.html" and page.root == "../../"
    summary = site.summary_page().context
    toy = summary["engines"][1]
    assert toy["failing"] and toy["headline"].unexpected > 0
    assert summary["changes"] is None and summary["mutation"] is None


def test_an_edition_the_engine_does_not_play_is_shown_apart(made, tmp_path):
    data = json.loads(made.toy()[0].read_text())
    data["engines"][0]["info"]["editions"] = ["modern"]
    for item in data["results"]:
        if item["edition"] == "cr2004":
            item.update(status="skip", outcome="skip", message="edition cr2004: not declared")
            item.pop("detail", None)
    path = tmp_path / "results.json"
    path.write_text(json.dumps(data))
    site = Site(Inputs(runs=(Results.from_file(path),)), Corpus.load())
    assert site.engines[0].editions == ("modern",)
    assert site.engines[0].not_played == ("cr2004",)
    engine = site.summary_page().context["engines"][0]
    assert engine["not_played"] == [("cr2004", {"skip": 13})]
    assert engine["headline"].total == 13  # modern only


# ---- inputs ----

def test_inputs_that_are_not_what_they_claim_exit_2(tmp_path, capsys):
    out = str(tmp_path / "site")
    assert mtgconf("report", str(tmp_path / "missing.json"), "-o", out)[0] == 2
    assert "missing.json: no such results file" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "mtg-conformance results", "version": 2}')
    assert mtgconf("report", str(bad), "-o", out)[0] == 2
    assert "bad.json: not a valid results file" in capsys.readouterr().err
    bad.write_text("[1, 2")
    assert mtgconf("report", str(bad), "-o", out)[0] == 2
    assert "not JSON" in capsys.readouterr().err
    with pytest.raises(BadInput, match="not a fuzz results file"):
        read_fuzz(MUTANTS)


def test_a_fuzz_file_is_read_in_the_fuzzers_shape(tmp_path):
    run = read_fuzz(FUZZ)
    assert (run.engine, run.against, run.edition, run.profile) == (
        "mtg-conformance-reference 0.1.0", None, "modern", "ci")
    assert run.checked == 30642 + 91926 and (run.examples, run.steps) == (200, 15321)
    given, from_file = run.findings
    assert given.case.startswith("- id: fuzz.one-zone-per-card.7\n")
    assert "do: {action: cast, player: A, card: bears}" in given.case  # YAML as cases read
    assert given.trace[1] == "A: cast bears" and given.case_file is None
    assert "fuzz.new-object-on-zone-change.7" in from_file.case  # read from its case_file
    assert given.replay == "" and \
        from_file.replay == f"mtgconf fuzz replay {FUZZ.parent / 'shrunk.yaml'}"
    data = json.loads(FUZZ.read_text())
    data["findings"][1]["case_file"] = "gone.yaml"
    data["against"] = "reference"
    (tmp_path / "fuzz.json").write_text(json.dumps(data))
    again = read_fuzz(tmp_path / "fuzz.json")
    assert again.findings[1].case == "" and again.against == "reference"
    for broken, where in ((lambda d: d.pop("invariants"), ""),
                          (lambda d: d.update(engine="reference"), "engine"),
                          (lambda d: d["findings"][0].pop("trace"), "findings/0"),
                          (lambda d: d.update(edition="legacy"), "edition")):
        data = json.loads(FUZZ.read_text())
        broken(data)
        (tmp_path / "bad.json").write_text(json.dumps(data))
        with pytest.raises(BadInput, match="not a valid fuzz results file") as caught:
            read_fuzz(tmp_path / "bad.json")
        assert caught.value.where == where


def test_the_report_replaces_only_a_report(made, tmp_path, capsys):
    results = made.toy()[0]
    elsewhere = tmp_path / "notes"
    elsewhere.mkdir()
    (elsewhere / "mine.txt").write_text("keep me")
    assert mtgconf("report", str(results), "-o", str(elsewhere))[0] == 2
    assert "a folder that is not a report" in capsys.readouterr().err
    assert (elsewhere / "mine.txt").read_text() == "keep me"
    site = tmp_path / "site"
    assert mtgconf("report", str(results), "-o", str(site))[0] == 0
    (site / "stale.html").write_text("old")
    assert mtgconf("report", str(results), "-o", str(site))[0] == 0
    assert not (site / "stale.html").exists() and (site / "index.html").is_file()


def test_the_same_case_run_twice_in_two_files_is_refused(made, tmp_path, capsys):
    results = str(made.toy()[0])
    assert mtgconf("report", results, results, "-o", str(tmp_path / "s"))[0] == 2
    assert "give each engine's results once" in capsys.readouterr().err


def test_fuzz_mutants_and_a_baseline_reach_the_pages(made, tmp_path, monkeypatch):
    results = made.toy()[0]
    baseline = tmp_path / "baseline.json"
    data = json.loads(results.read_text())
    for item in data["results"]:
        if item["status"] == "fail":
            item.update(status="pass", outcome="pass", message="")
            item.pop("detail", None)
            break
    baseline.write_text(json.dumps(data))
    summary_md = tmp_path / "step-summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary_md))
    site = tmp_path / "site"
    code, out = mtgconf("report", str(results), "-o", str(site), "--fuzz", str(FUZZ),
                        "--mutants", str(MUTANTS), "--baseline", str(baseline))
    assert code == 0
    assert "What changed against the baseline:" in out and "- newly failing: " in out
    assert f"report: {site / 'index.html'}" in out
    assert "### What changed against the baseline" in summary_md.read_text()
    fuzz = (site / "fuzz.html").read_text(encoding="utf-8")
    assert "one-zone-per-card" in fuzz and "fuzz.new-object-on-zone-change.7" in fuzz
    assert "122568 invariant checks" in fuzz and "A: cast bears" in fuzz
    assert f"mtgconf fuzz replay {FUZZ.parent / 'shrunk.yaml'}</pre>" in fuzz
    assert 'href="rules/modern/400.7.html"' in fuzz
    index = (site / "index.html").read_text(encoding="utf-8")
    assert "newly failing (1)" in index and "Mutation score:" in index
    assert "200 games, 15321 steps, 122568 invariant checks" in index
    tree = (site / "tree-cr2004.html").read_text(encoding="utf-8")
    assert "mutants killed" in tree
    badge = json.loads((site / "badge.json").read_text())
    assert badge["schemaVersion"] == 1 and badge["label"] == "MTG rules"
    assert re.fullmatch(r"\d+ passed, \d+ failed, \d+ untested of \d+ rules, \d+ unexpected",
                        badge["message"])


# ---- escaping ----

def test_the_environment_always_escapes_and_no_template_marks_anything_safe():
    env = environment()
    assert env.autoescape is True
    assert env.from_string("{{ x }}").render(x=SCRIPT) == \
        "&lt;script&gt;window.pwned = 1&lt;/script&gt;"
    for template in (ROOT / "reports" / "templates").glob("*.html"):
        text = template.read_text(encoding="utf-8")
        assert "|safe" not in text.replace(" ", "") and "autoescape false" not in text
    for module in (ROOT / "reports").glob("*.py"):
        assert "Markup(" not in module.read_text(encoding="utf-8"), module


def test_markup_from_an_engine_is_escaped_on_every_page(made):
    site, marks = made.xss()
    pages = sorted(site.rglob("*.html"))
    assert len(list((site / "results").rglob("*.html"))) >= 1
    for page in pages:
        assert active_content(parse_file(page)) == [], page
    summary = (site / "index.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;window.pwned = 1&lt;/script&gt;toy" in summary
    assert "&lt;svg onload=" in summary  # a card name
    failure = "\n".join(p.read_text(encoding="utf-8")
                        for p in (site / "results").rglob("*.html"))
    assert "&lt;/pre&gt;&lt;script&gt;" in failure  # the stderr
    assert "&lt;iframe" in failure  # the engine's error message
    assert "javascript:window.pwned = 1</code>" in failure  # shown, never a link
    assert list(site.rglob("*.trace.jsonl"))  # the traces, with the engine's answers
    wires = re.findall(r'<table class="wire">.*?</table>', failure, re.S)
    assert wires and any("&lt;iframe" in wire for wire in wires)  # the error, as answered
    fuzz = (site / "fuzz.html").read_text(encoding="utf-8")
    assert fuzz.count("&lt;script&gt;") >= 3 and "&lt;svg onload=" in fuzz
    md = (site / "summary.md").read_text(encoding="utf-8")
    assert "\\<script\\>" in md and not re.search(r"(?<!\\)[<>]", md)  # every mark escaped
    assert broken_links(site) == []
    assert marks


# ---- the whole case on a failure page, traces, symptoms, baselines ----

def _toy_failure(site: Path, case_id: str, edition: str = "cr2004") -> Path:
    return site / "results" / model.slug(TOY, 40) / edition / f"{case_id}.html"


def test_a_failure_page_shows_the_whole_case_and_its_trace(suite, made):
    toy = made.toy()[0]
    page = _toy_failure(suite, "land.not-in-opponents-turn")
    text = page.read_text(encoding="utf-8")
    assert "<h2>The case, step by step</h2>" in text
    steps = re.findall(r'<li class="step step-([a-z-]+)" value="(\d+)"', text)
    states = [state for state, _ in steps]
    assert states.count("reached") == 1 and states[0] == "passed"
    reached = int(next(index for state, index in steps if state == "reached"))
    record = next(r for r in Results.from_file(toy).records
                  if r.case_id == "land.not-in-opponents-turn" and r.edition == "cr2004")
    assert reached == record.detail["step"]
    assert all(state == "passed" for state, index in steps if int(index) < reached)
    assert all(state == "not-reached" for state, index in steps if int(index) > reached)
    assert 'id="reached" aria-current="step"' in text
    # The trace, copied beside the page and linked from it, as the run wrote it.
    copied = page.with_name("land.not-in-opponents-turn.trace.jsonl")
    assert copied.read_text() == (toy.parent / record.detail["trace"]).read_text()
    assert 'href="land.not-in-opponents-turn.trace.jsonl" class="trace-link"' in text
    # Each step's exchange: the reached step's is open, with the action the engine took.
    opened = text.split('id="reached"')[1].split("</li>")[0]
    assert '<details class="exchange" open>' in opened
    assert "&#34;command&#34;: &#34;perform&#34;" in opened and "play_land" in opened
    assert "<h2>The game when the check failed</h2>" in text
    assert '<details class="observation">' in text and "&#34;lands_played&#34;" in text
    assert f"--out {toy.parent / 'rerun-land.not-in-opponents-turn'}" in text
    # The case's file as the reader here names it, not by this machine's whole path.
    shown = re.escape(shown_path(FROZEN / "lands.yaml"))
    assert not Path(shown_path(FROZEN / "lands.yaml")).is_absolute()
    assert re.search(rf"<dt>case</dt><dd><code>{shown}:\d+</code>", text)


def test_a_failure_page_without_a_trace_says_how_to_keep_one(made, tmp_path):
    toy = made.toy()[0]
    data = json.loads(toy.read_text())
    for item in data["results"]:
        item.get("detail", {}).pop("trace", None)
    path = tmp_path / "results.json"
    path.write_text(json.dumps(data))
    reference = made.reference()[0]
    site = tmp_path / "site"
    reports.build([path], site, coverage=reference.with_name("coverage.json"))
    text = _toy_failure(site, "land.not-in-opponents-turn").read_text(encoding="utf-8")
    assert "the run kept no trace of this case" in text and "trace-link" not in text
    assert '<li class="step step-reached"' in text  # the steps all the same
    assert not list(site.rglob("*.trace.jsonl"))


def test_the_summary_and_the_ci_summary_group_unexpected_results_by_symptom(suite):
    summary = (suite / "index.html").read_text(encoding="utf-8")
    assert "Unexpected results by symptom (1 group, the largest first)" in summary
    assert re.search(r"<strong>\d+ ×</strong> <code>\[fail\] expect_illegal: the engine "
                     r"accepted …; it must be rejected as illegal_action</code>", summary)
    assert 'rules cited: <a href="rules/cr2004/212.6a.html">cr2004:212.6a</a>' in summary
    md = (suite / "summary.md").read_text(encoding="utf-8")
    assert "### Unexpected results by symptom (the largest group first)" in md
    assert re.search(r"- \*\*\d+\*\* × \\\[fail\\\] expect\\_illegal: the engine accepted …",
                     md)
    assert "| rules passed | failed | untested |" in md


def test_a_baseline_of_a_narrower_selection_is_refused_and_a_wider_one_compared_in_part(
        made, tmp_path, capsys):
    toy = made.toy()[0]
    data = json.loads(toy.read_text())
    narrow = {**data, "options": {**data["options"], "cases": ["land.only-in-main-phase"]},
              "results": [r for r in data["results"]
                          if r["case_id"] == "land.only-in-main-phase"]}
    rerun = tmp_path / "rerun" / "results.json"
    rerun.parent.mkdir()
    rerun.write_text(json.dumps(narrow))
    code, _ = mtgconf("report", str(toy), "-o", str(tmp_path / "a"), "--baseline", str(rerun))
    assert code == 2
    err = capsys.readouterr().err
    assert f"{rerun}: a narrower selection (--case land.only-in-main-phase;" in err
    assert "give as --baseline the results of a run of the same selection" in err
    # The other way round: a rerun compared with the whole run's results.
    code, out = mtgconf("report", str(rerun), "-o", str(tmp_path / "b"), "--baseline",
                        str(toy))
    assert code == 0
    err = capsys.readouterr().err
    assert "warning: the results are of a narrower selection" in err
    assert "- no case run changed" in out  # not every other case run "no longer run"

