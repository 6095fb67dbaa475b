"""The site as data: every page's path, template and context, built from the inputs and the
rules corpus. Rendering (``reports.render``) only hands each context to its template.

Pages (paths relative to the site's root):

* ``index.html``: the summary, per engine and edition, with what changed;
* ``tree-EDITION.html``: the rule tree of an edition's seed rules, a status per engine for
  each rule;
* ``beyond-EDITION.html``: "beyond the seeds", the tree of an edition's rules outside the seeds
  (our records of them: a gist and key terms, no text), with the same statuses;
* ``rules/EDITION/ID.html``: a rule of either part, its text (or our record of it) and every
  case citing it;
* ``results/ENGINE/EDITION/CASE.html``: a result that did not pass (nor was skipped);
* ``anomalies.html``: the anomalies of the rules' sources;
* ``fuzz.html``: fuzz findings, when fuzz results are given.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from conformance.resultsfile import (
    STATUSES,
    UNEXPECTED,
    Record,
    Results,
    by_rule,
    counts,
    from_here,
    rerun_command,
    shown_path,
)
from conformance.symptoms import Group, group
from reports import failure, model
from reports.inputs import BadInput, CoverageInput, FuzzRun, Mutant
from reports.model import Cell, Change, Headline

if TYPE_CHECKING:
    from spec.corpus import Rule

BLOCKERS_SHOWN = 10
GIST_CHARS = 140


@dataclass(frozen=True)
class Inputs:
    runs: tuple[Results, ...]
    coverage: CoverageInput | None = None
    mutants: tuple[Mutant, ...] | None = None
    fuzz: tuple[FuzzRun, ...] = ()
    baseline: Results | None = None
    title: str = "Rules conformance report"


@dataclass(frozen=True)
class Engine:
    """A column of the report: one engine, from one or more results files."""

    spec: str
    label: str
    slug: str
    info: dict[str, Any] | None
    editions: tuple[str, ...]
    sources: tuple[str, ...]
    #: editions its results files ran that it does not declare (every case run skipped)
    not_played: tuple[str, ...] = ()

    def cards(self) -> list[tuple[str, list[str]]]:
        """The cards it declared, per edition (one list: under "all")."""
        cards = (self.info or {}).get("cards") or []
        return sorted(cards.items()) if isinstance(cards, dict) else [("all", list(cards))]


@dataclass(frozen=True)
class Page:
    path: str  # relative to the site's root
    template: str
    title: str
    context: dict[str, Any] = field(default_factory=dict)

    @property
    def root(self) -> str:
        """The way back to the site's root from this page."""
        return "../" * self.path.count("/")


def rule_href(ref: str) -> str:
    edition, _, number = ref.partition(":")
    return f"rules/{edition}/{number}.html"


def tree_href(edition: str, anchor: str = "", *, outside: bool = False) -> str:
    """The tree of an edition's seed rules, or (``outside``) of its rules beyond the seeds."""
    return f"{'beyond' if outside else 'tree'}-{edition}.html" + (f"#r{anchor}" if anchor
                                                                   else "")


class Site:
    """The whole report: its engines, records and pages, worked out once."""

    def __init__(self, inputs: Inputs, corpus: Any) -> None:
        from spec.terms import load_concordance, load_glossary

        self.inputs = inputs
        self.corpus = corpus
        self.engines = _engines(inputs.runs)
        self.records: list[Record] = sorted((r for run in inputs.runs for r in run.records),
                                            key=lambda r: r.key)
        self.options = {r.key: run.options for run in inputs.runs for r in run.records}
        #: the folder of each record's results file (its trace is there, under traces/)
        self.folders = {r.key: run.path.parent if run.path is not None else None
                        for run in inputs.runs for r in run.records}
        self.rule_records = by_rule(self.records)
        self.editions = [e for e in corpus.editions
                         if any(e in engine.editions for engine in self.engines)] \
            or list(corpus.editions)
        self.mutants_by_rule: dict[str, list[Mutant]] = {}
        for mutant in inputs.mutants or ():
            for ref in mutant.rules:
                self.mutants_by_rule.setdefault(ref, []).append(mutant)
        self.findings = [f for run in inputs.fuzz for f in run.findings]
        self.concordance = load_concordance(corpus)
        self.glossary = load_glossary(corpus)
        self.failure_href = {r.key: f"results/{self._engine(r.engine).slug}/{r.edition}/"
                             f"{model.slug(r.case_id)}.html"
                             for r in self.records if r.status not in ("pass", "skip")}
        #: the rules that have a page: every record of both parts
        self.paged = frozenset(r.ref for r in corpus.all_rules)
        #: seed rule -> the rules outside the seeds that connect to it
        self.connected_from: dict[str, list[Rule]] = {}
        for outside in corpus.outside_rules:
            for ref in outside.connects:
                self.connected_from.setdefault(ref, []).append(outside)
        self.nav = [("Summary", "index.html"),
                    *((f"Rules {e}", tree_href(e)) for e in corpus.editions),
                    *((f"Beyond the seeds {e}", tree_href(e, outside=True))
                      for e in corpus.editions),
                    ("Anomalies", "anomalies.html"),
                    *((("Fuzz findings", "fuzz.html"),) if inputs.fuzz else ())]

    def _engine(self, spec: str) -> Engine:
        return next(e for e in self.engines if e.spec == spec)

    # ---- pages ----

    def pages(self) -> list[Page]:
        pages = [self.summary_page()]
        pages += [self.tree_page(edition, outside=outside) for outside in (False, True)
                  for edition in self.corpus.editions]
        pages += [self.rule_page(rule) for rule in self.corpus.all_rules]
        pages += [self.failure_page(r) for r in self.records if r.key in self.failure_href]
        pages.append(self.anomalies_page())
        if self.inputs.fuzz:
            pages.append(self.fuzz_page())
        return pages

    def _page(self, path: str, template: str, title: str, **context: Any) -> Page:
        return Page(path, template, title, {"title": title, "nav": self.nav,
                                            "report_title": self.inputs.title, **context})

    def href(self, ref: str) -> str | None:
        """The path of a rule's page (None: no rule of the corpus, so no page)."""
        return rule_href(ref) if ref in self.paged else None

    def cells(self, ref: str) -> list[Cell]:
        return [model.cell(self.rule_records.get((e.spec, ref), [])) for e in self.engines]

    def headline(self, engine: Engine, editions: Sequence[str] | None = None, *,
                 outside: bool = False) -> Headline:
        """The engine's figures over the seed rules, or (``outside``) the rules outside
        them."""
        chosen = tuple(editions or engine.editions)
        records = [r for r in self.records if r.engine == engine.spec and r.edition in chosen]
        return model.headline(engine.spec, records, self.rule_records, self.corpus, chosen,
                              outside=outside)

    def mutation(self, ref: str | None = None) -> tuple[int, int] | None:
        if self.inputs.mutants is None:
            return None
        chosen = self.inputs.mutants if ref is None else self.mutants_by_rule.get(ref, [])
        return model.mutation_score(chosen)

    def coverage_of(self, ref: str) -> dict[str, Any] | None:
        if self.inputs.coverage is None:
            return None
        return dict(self.inputs.coverage.rules.get(ref) or {})

    def changes(self) -> list[Change] | None:
        """What changed against the baseline, over the case runs the results select: a
        baseline of a wider selection is not said to have lost the rest
        (``narrower_than_baseline``)."""
        baseline = self.inputs.baseline
        if baseline is None:
            return None
        return model.changes(self.records, self._compared(baseline), list(baseline.engines))

    def _compared(self, baseline: Results) -> list[Record]:
        return [r for r in baseline.records
                if any(run.selects(r) for run in self.inputs.runs)]

    @property
    def narrower_than_baseline(self) -> str | None:
        """A warning, when the results are of a narrower selection than their baseline."""
        baseline = self.inputs.baseline
        if baseline is None:
            return None
        left = len(baseline.records) - len(self._compared(baseline))
        if not left:
            return None
        return (f"the results are of a narrower selection "
                f"({'; '.join(run.selection for run in self.inputs.runs)}) than the baseline "
                f"{baseline.path} ({baseline.selection}): only the case runs both select are "
                f"compared ({left} of the baseline's are left out)")

    def baseline_headlines(self) -> dict[str, Headline]:
        """Each engine's headline in the baseline (matched as ``changes`` matches them)."""
        baseline = self.inputs.baseline
        if baseline is None:
            return {}
        rule_records = by_rule(baseline.records)
        out = {}
        for engine in self.engines:
            spec = engine.spec if engine.spec in baseline.engines or len(baseline.engines) != 1 \
                else next(iter(baseline.engines))
            records = [r for r in baseline.records if r.engine == spec]
            if records:
                out[engine.spec] = model.headline(spec, records, rule_records, self.corpus,
                                                  engine.editions)
        return out

    def symptom_groups(self, engine: Engine | None = None) -> list[Group]:
        """The unexpected results (of one engine, or all) grouped by symptom, the largest
        group first (``conformance.symptoms``)."""
        return group(r for r in self.records if r.unexpected
                     and (engine is None or r.engine == engine.spec))

    def summary_page(self) -> Page:
        engines = []
        for engine in self.engines:
            records = [r for r in self.records if r.engine == engine.spec]
            blockers: Counter[str] = Counter()
            for record in records:
                if record.status == "skip":
                    blockers.update(record.detail.get("blockers") or [record.message])
            failing = sorted((r for r in records if r.key in self.failure_href),
                             key=lambda r: (r.status not in UNEXPECTED, r.case_id))
            engines.append({
                "engine": engine,
                "headline": self.headline(engine),
                "beyond": self.headline(engine, outside=True),
                "editions": [(e, self.headline(engine, [e])) for e in engine.editions],
                "beyond_editions": [(e, self.headline(engine, [e], outside=True))
                                    for e in engine.editions],
                "not_played": [(e, counts(r.status for r in records if r.edition == e))
                               for e in engine.not_played],
                "failing": [(r, self.failure_href[r.key]) for r in failing],
                "groups": [(found, self._links(found.rules),
                            [(r, self.failure_href[r.key]) for r in found.records])
                           for found in self.symptom_groups(engine)],
                "blockers": blockers.most_common(BLOCKERS_SHOWN),
                "more_blockers": max(0, len(blockers) - BLOCKERS_SHOWN),
                "runs": [run for run in self.inputs.runs if engine.spec in run.engines],
            })
        statuses = [s for s in STATUSES if any(r.status == s for r in self.records)]
        changes = self.changes()
        grouped = None
        if changes is not None:
            grouped = [(kind, model.CHANGE_TITLES[kind], [c for c in changes if c.kind == kind])
                       for kind in model.CHANGE_ORDER]
            grouped = [g for g in grouped if g[2]]
        fuzz = None
        if self.inputs.fuzz:
            runs = self.inputs.fuzz
            fuzz = {"runs": len(runs), "findings": len(self.findings),
                    "examples": sum(r.examples for r in runs),
                    "steps": sum(r.steps for r in runs), "checked": sum(r.checked for r in runs)}
        return self._page(
            "index.html", "summary.html", self.inputs.title,
            engines=engines, statuses=statuses, editions=self.editions,
            coverage=self.inputs.coverage.summary if self.inputs.coverage else None,
            coverage_outside=self.inputs.coverage.summary_outside if self.inputs.coverage
            else None,
            beyond=[(key, tree_href(key, outside=True), info.outside.get("version"),
                     len(self.corpus.records(key, outside=True)))
                    for key, info in self.corpus.editions.items()],
            mutation=self.mutation(), fuzz=fuzz, changes=grouped,
            baseline=self.inputs.baseline, before=self.baseline_headlines(),
            narrower=self.narrower_than_baseline,
            edition_info=self.corpus.editions, anomalies=len(self.corpus.anomalies()))

    def tree_page(self, edition: str, *, outside: bool = False) -> Page:
        """The tree of an edition's seed rules, or (``outside``) its rules beyond the
        seeds."""
        info = self.corpus.editions[edition]
        chapters: dict[str, list[dict[str, Any]]] = {}
        sections: dict[str, dict[str, Any]] = {}
        for rule in self.corpus.records(edition, outside=outside):
            if rule.kind == "section":
                sections[rule.section] = {"rule": rule, "title": section_title(rule),
                                          "printed": printed_title(rule), "rows": []}
                chapters.setdefault(rule.chapter, []).append(sections[rule.section])
                continue
            sections[rule.section]["rows"].append(self._row(rule))
        for section in sections.values():
            section["passed"] = [sum(row["cells"][i].conforms for row in section["rows"]
                                     if row["due"])
                                 for i in range(len(self.engines))]
            section["due"] = sum(row["due"] for row in section["rows"])
        title = (f"Beyond the seeds: the rules of {edition} outside its seed" if outside
                 else f"Rules of {edition}: {info.title}")
        return self._page(
            tree_href(edition, outside=outside), "tree.html", title,
            edition=edition, info=info, outside=outside,
            source=info.outside if outside else info.source,
            engines=self.engines, mutants=self.inputs.mutants,
            coverage=self.inputs.coverage is not None,
            chapters=[(number, f"{secs[0]['rule'].id}-{secs[-1]['rule'].id}", secs)
                      for number, secs in chapters.items()])

    def _row(self, rule: Any) -> dict[str, Any]:
        gist = rule.gist if len(rule.gist) <= GIST_CHARS else \
            rule.gist[:GIST_CHARS].rsplit(" ", 1)[0] + "…"
        return {"rule": rule, "href": rule_href(rule.ref), "gist": gist,
                "cells": self.cells(rule.ref), "coverage": self.coverage_of(rule.ref),
                "mutation": self.mutation(rule.ref), "testability": rule.testability["class"],
                "due": rule.testability["class"] in model.TESTABLE
                and not rule.testability.get("waits")}

    def rule_page(self, rule: Any) -> Page:
        corpus = self.corpus
        references = [self._reference(rule, ref) for ref in rule.references]
        # (the other edition's rule, the path of its page, the note); (None, None, note):
        # a 2004 rule with no modern counterpart
        concordance: list[tuple[str | None, str | None, str]] = []
        for pair in self.concordance:
            if rule.edition == "cr2004" and pair.cr2004 == rule.id:
                concordance += [(f"modern:{m}", rule_href(f"modern:{m}"), pair.note)
                                for m in pair.modern] or [(None, None, pair.note)]
            elif rule.edition == "modern" and rule.id in pair.modern:
                concordance.append((f"cr2004:{pair.cr2004}",
                                    rule_href(f"cr2004:{pair.cr2004}"), pair.note))
        parent = corpus.get(f"{rule.edition}:{rule.parent}") if rule.parent else None
        exercised = [(ref, href) for ref in rule.testability.get("exercised_by", ())
                     if (href := self.href(ref))]
        return self._page(
            rule_href(rule.ref), "rule.html", f"{rule.ref} {short(rule.gist, 60)}",
            rule=rule, info=corpus.editions[rule.edition], engines=self.engines,
            section=corpus.get(f"{rule.edition}:{rule.section}"),
            section_title=section_title(corpus.get(f"{rule.edition}:{rule.section}")),
            tree=tree_href(rule.edition, rule.id, outside=rule.outside),
            tree_root=tree_href(rule.edition, outside=rule.outside),
            source=corpus.source_of(rule),
            connects=[(ref, self.href(ref), corpus.get(ref).gist if ref in corpus else "")
                      for ref in rule.connects],
            connected_from=[(r, rule_href(r.ref)) for r in self.connected_from.get(rule.ref,
                                                                                  ())],
            parent=(parent, rule_href(parent.ref)) if parent else None,
            children=[(c, rule_href(c.ref)) for c in corpus.children(rule)],
            references=references, concordance=concordance, exercised=exercised,
            terms=[t for t in self.glossary if rule.ref in t.rules],
            cells=self.cells(rule.ref), coverage=self.coverage_of(rule.ref),
            mutants=self.mutants_by_rule.get(rule.ref, []), has_mutants=self.inputs.mutants
            is not None, mutation=self.mutation(rule.ref),
            findings=[(number, f) for number, f in enumerate(self.findings, start=1)
                      if rule.ref in f.rules],
            fuzzed=[(run, inv) for run in self.inputs.fuzz for inv in run.invariants
                    if rule.ref in inv["rules"]],
            cases=self._cases_citing(rule.ref))

    def _reference(self, rule: Rule, ref: dict[str, Any]) -> dict[str, Any]:
        """A cross-reference with the path of its target's page. The seed index marks a target
        outside its seed absent; it is linked when it is a record outside the seeds. Each
        target outside the seeds, and each of a rule outside them (which has no text of its
        own to show the reference in), shows the target's gist."""
        target = ref.get("ref") or f"{rule.edition}:{ref['target']}"
        found = self.corpus.get(target) if target in self.paged else None
        if found is None:
            return {**ref, "href": None, "outside": False, "gist": ""}
        return {**ref, "ref": target, "href": rule_href(target), "outside": found.outside,
                "gist": found.gist if rule.outside or found.outside else ""}

    def _cases_citing(self, ref: str) -> list[dict[str, Any]]:
        """Each case run citing the rule (by case and edition), with its quote and a status
        per engine; then the cases the coverage file names that no result ran."""
        cases = self.inputs.coverage.cases if self.inputs.coverage else {}
        runs: dict[tuple[str, str], dict[str, Record]] = {}
        for record in self.records:
            if ref in record.rules:
                runs.setdefault((record.case_id, record.edition), {})[record.engine] = record
        rows = []
        for (case_id, edition), by_engine in sorted(runs.items()):
            case = cases.get(case_id) or {}
            cells = []
            for engine in self.engines:
                result = by_engine.get(engine.spec)
                cells.append({"status": result.status if result else "none",
                              "symbol": model.SYMBOLS[result.status if result else "none"],
                              "word": model.word(result.status if result else "none"),
                              "href": self.failure_href.get(result.key) if result else None,
                              "message": result.message if result else ""})
            rows.append({"case_id": case_id, "edition": edition, "not_run": False,
                         "own_edition": edition == ref.partition(":")[0],
                         "quote": (case.get("quotes") or {}).get(ref, ""),
                         "terms": list((case.get("terms") or {}).get(ref, ())),
                         "catches": (case.get("catches") or {}).get(ref, ""),
                         "summary": case.get("summary", ""), "cells": cells})
        ran = {case_id for case_id, _ in runs}
        ran_bases = {(cases.get(c) or {}).get("base_id", c) for c in ran}
        not_run = []
        for case_id, case in sorted(cases.items()):
            if ref in case.get("rules", ()) and case_id not in ran \
                    and case.get("base_id", case_id) not in ran_bases | ran:
                not_run.append({"case_id": case_id, "quote": case["quotes"].get(ref, ""),
                                "terms": list((case.get("terms") or {}).get(ref, ())),
                                "summary": case.get("summary", ""),
                                "catches": (case.get("catches") or {}).get(ref, "")})
        if self.inputs.coverage is not None and not cases:
            for base in (self.inputs.coverage.rules.get(ref) or {}).get("cases", ()):
                if base not in ran:
                    not_run.append({"case_id": base, "quote": "", "terms": [],
                                    "summary": "", "catches": ""})
        return [*rows, *({"not_run": True, **row} for row in not_run)]

    def failure_page(self, record: Record) -> Page:
        engine = self._engine(record.engine)
        detail = dict(record.detail)
        case = (self.inputs.coverage.cases if self.inputs.coverage else {}).get(
            record.case_id) or {}
        stderr, cut = model.tail(str(detail.get("stderr") or ""))
        has_check = "path" in detail
        folder = self.folders.get(record.key)
        source = failure.trace_source(folder, detail)
        steps, before = failure.steps(case, detail, record.status, failure.read_trace(source))
        path = self.failure_href[record.key]
        observation = detail.get("observation")
        return self._page(
            path, "failure.html",
            f"{model.word(record.status)}: {record.case_id} ({record.edition}, "
            f"{engine.label})",
            record=record, engine=engine, detail=detail, case=case,
            symbol=model.SYMBOLS[record.status], word=model.word(record.status),
            rules=[(ref, self.href(ref), (case.get("quotes") or {}).get(ref, ""),
                    list((case.get("terms") or {}).get(ref, ())),
                    self.corpus.get(ref).gist if ref in self.corpus else "")
                   for ref in record.rules],
            expected=_json(detail.get("expected")) if has_check else None,
            observed=_json(detail.get("observed")) if has_check else None,
            diff=model.diff(detail.get("expected"), detail.get("observed"))
            if has_check else [],
            stderr=stderr, stderr_cut=cut, steps=steps, before=before,
            trace=trace_href(path) if source is not None else None,
            observation=_json(observation) if observation is not None else None,
            case_path=shown_path(record.file) if record.file else None,
            rerun=rerun_command(record, self.options[record.key],
                                None if folder is None else from_here(folder)))

    def files(self) -> list[tuple[str, Path]]:
        """Files the site carries besides its pages (path in the site, source): the trace of
        each result with a page, beside it."""
        found = []
        for record in self.records:
            if record.key in self.failure_href:
                source = failure.trace_source(self.folders.get(record.key), record.detail)
                if source is not None:
                    found.append((_beside(self.failure_href[record.key]), source))
        return found

    def anomalies_page(self) -> Page:
        groups = [(edition, [(rule, rule_href(rule.ref), anomaly)
                             for rule, anomaly in self.corpus.anomalies(edition)])
                  for edition in self.corpus.editions]
        return self._page("anomalies.html", "anomalies.html",
                          "Anomalies of the rules' sources", groups=groups)

    def fuzz_page(self) -> Page:
        runs = [(run, [(inv, self._links(inv["rules"])) for inv in run.invariants])
                for run in self.inputs.fuzz]
        findings = [(number, f, self._links(f.rules))
                    for number, f in enumerate(self.findings, start=1)]
        return self._page("fuzz.html", "fuzz.html", "Fuzz findings", runs=runs,
                          findings=findings)

    def _links(self, refs: Sequence[str]) -> list[tuple[str, str | None]]:
        """Rule refs with the path of their page (None: not a rule of the corpus)."""
        return [(ref, self.href(ref)) for ref in refs]


def _beside(page: str) -> str:
    """Where a failure page's trace goes in the site: beside the page."""
    return page.removesuffix(".html") + ".trace.jsonl"


def trace_href(page: str) -> str:
    """The link from a failure page to its trace (the same folder)."""
    return _beside(page).rsplit("/", 1)[-1]


def section_title(section: Rule) -> str:
    """The English title of a section, from its gist."""
    gist = section.gist.removeprefix("Section heading: ")
    return gist.split(" (")[0].rstrip(".")


def printed_title(section: Rule) -> str | None:
    """A section's title as its source prints it, when that is not the English one: the seed's
    own text, or for a 2004 section outside the seed the title the seed's contents list
    prints."""
    if not section.outside:
        return section.text
    return None if section.section_title.isascii() else section.section_title


def short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + "…"


def _json(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True)


def _engines(runs: Sequence[Results]) -> list[Engine]:
    """The engines of the runs, in the order given; an engine in several files (one run per
    edition, say) is one engine, unless two files ran the same case in the same edition."""
    found: dict[str, dict[str, Any]] = {}
    seen: dict[tuple[str, str, str], int] = {}
    for number, run in enumerate(runs):
        for record in run.records:
            if seen.setdefault(record.key, number) != number:
                raise BadInput(run.path or "results", f"{record.edition}::{record.case_id} "
                               f"against {record.engine} is also in "
                               f"{runs[seen[record.key]].path}: give each engine's results once")
        for spec, declared_info in run.engines.items():
            info = declared_info.serializable() if declared_info else None
            entry = found.setdefault(spec, {"info": info, "editions": [], "sources": [],
                                            "not_played": []})
            entry["info"] = entry["info"] or info
            declared = (info or {}).get("editions")
            for edition in run.editions:
                played = declared is None or edition in declared
                kept = entry["editions"] if played else entry["not_played"]
                if edition not in kept:
                    kept.append(edition)
            entry["sources"].append(str(run.path))
    labels = {spec: model.engine_label(spec, e["info"]) for spec, e in found.items()}
    clashes = {label for label in labels.values() if list(labels.values()).count(label) > 1}
    engines = []
    for spec, entry in found.items():
        label = labels[spec] if labels[spec] not in clashes else f"{labels[spec]} ({spec})"
        engines.append(Engine(spec=spec, label=label, slug=model.slug(spec, 40),
                              info=entry["info"], editions=tuple(entry["editions"]),
                              sources=tuple(entry["sources"]),
                              not_played=tuple(entry["not_played"])))
    return engines
