"""``mtgconf rules``: list, show, search, lint and count the rules of the corpus.

The corpus has two parts: the seed rules (their original text) and the rules outside the seeds
(our records of them: a gist, key terms, no text). ``list`` and ``search`` go through the seed
rules, or with ``--outside`` the rules outside them; ``stats`` counts both parts apart (only the
outside part with ``--outside``); ``show`` finds a rule of either part and says which. ``lint``
lists the anomalies of the seed sources only: the records outside the seeds have no source
text to be irregular, and ``python -m spec.build`` checks them as it compiles them
(``spec/outside.py``: ids, order, parents, section titles, key terms, connections,
cross-references, testability)."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from typing import Any

from conformance.exitcodes import ExitCode
from mtgconf import Parser, UsageError
from spec.annotations import CLASSES
from spec.corpus import Corpus, Rule, Testability, fold
from spec.editions import EDITIONS
from spec.terms import load_concordance, load_glossary

_KINDS = ("section", "rule", "heading")


def register(commands: argparse._SubParsersAction[Parser]) -> None:
    rules = commands.add_parser(
        "rules",
        help="List, show, search, lint and count the rules of the corpus",
        description="The Comprehensive Rules of both editions as records. Without a "
        "subcommand, lists rules (like `rules list`).",
    )
    _list_options(rules, argparse.SUPPRESS)
    rules.set_defaults(handler=_list, edition=None, section=None, testability=None,
                       kind=None, json=False, outside=False)
    sub = rules.add_subparsers(dest="rules_command", metavar="SUBCOMMAND", title="subcommands",
                               parser_class=type(rules))

    listing = sub.add_parser("list", help="List rules, filtered (the default)")
    _list_options(listing, argparse.SUPPRESS)
    listing.set_defaults(handler=_list)

    show = sub.add_parser(
        "show", help="Show one rule: text, gist, class, references and anomalies",
        description="Show a rule by id, with or without an edition prefix (101.5, "
        "cr2004:101.5). A printed id that occurs more than once shows every record. A rule "
        "outside the seeds (modern:508.1a) shows our record of it: gist, key terms, the seed "
        "rules it connects to, its cross-references, the version it follows and, for 2004, "
        "what is unsure.",
    )
    show.add_argument("rule_id", metavar="ID", help="A rule id such as 217.2b or modern:400.7")
    _json_option(show)
    show.set_defaults(handler=_show)

    search = sub.add_parser(
        "search", help="Find rules whose gist, text, examples or key terms contain every word "
        "of TEXT",
    )
    search.add_argument("words", nargs="+", metavar="TEXT", help="Words to look for")
    _edition_option(search)
    _outside_option(search)
    _json_option(search)
    search.set_defaults(handler=_search)

    lint = sub.add_parser(
        "lint", help="Report every anomaly of the sources: numbering, translation, format",
        description="Every irregularity found in the seed sources: file, line, printed id, "
        "canonical id and why. Exits 0: the anomalies are facts of the seeds, kept and named. "
        "The records of the rules outside the seeds are not listed: they have no source text "
        "to be irregular, and python -m spec.build refuses a bad one as it compiles them "
        "(spec/outside.py).",
    )
    _edition_option(lint)
    lint.add_argument(
        "--kind", dest="anomaly_kind", action="append", metavar="KIND",
        choices=("numbering", "translation", "not-a-rule", "format"),
        help="Only anomalies of this kind (repeatable): numbering, translation, not-a-rule, "
        "format",
    )
    _json_option(lint)
    lint.set_defaults(handler=_lint)

    stats = sub.add_parser(
        "stats", help="Count rules per edition, section and testability, the seed rules and "
        "the rules outside the seeds apart")
    _edition_option(stats)
    _outside_option(stats, "Only the rules outside the seeds")
    _json_option(stats)
    stats.set_defaults(handler=_stats)

    glossary = sub.add_parser(
        "glossary", help="Key terms of each edition's language with their English",
    )
    glossary.add_argument("term", nargs="?", metavar="TERM",
                          help="Only terms whose English or original contains TERM")
    _json_option(glossary)
    glossary.set_defaults(handler=_glossary)

    concordance = sub.add_parser(
        "concordance", help="The 2004 zone rules (217) against their modern counterparts",
    )
    _json_option(concordance)
    concordance.set_defaults(handler=_concordance)


def _list_options(parser: argparse.ArgumentParser, default: Any) -> None:
    _edition_option(parser, default)
    parser.add_argument("--section", default=default, metavar="SECTION",
                        help="Only rules of this section, e.g. 217")
    parser.add_argument("--testability", default=default, choices=CLASSES,
                        help="Only rules of this testability class")
    parser.add_argument("--kind", default=default, choices=_KINDS,
                        help="Only records of this kind")
    _outside_option(parser, default=default)
    _json_option(parser, default)


def _edition_option(parser: argparse.ArgumentParser, default: Any = None) -> None:
    parser.add_argument("--edition", default=default, choices=tuple(EDITIONS),
                        help="Only this edition")


def _outside_option(parser: argparse.ArgumentParser,
                    help: str = "The rules outside the seeds (our records of them) instead of "
                    "the seed rules", default: Any = False) -> None:
    parser.add_argument("--outside", action="store_true", default=default, help=help)


def _json_option(parser: argparse.ArgumentParser, default: Any = False) -> None:
    parser.add_argument("--json", action="store_true", default=default,
                        help="Print JSON (a list of records) instead of text")


def _print_json(value: object) -> None:
    json.dump(value, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


def _list(args: argparse.Namespace) -> int:
    corpus = Corpus.load()

    def chosen(outside: bool) -> list[Rule]:
        return [
            r for r in corpus.records(args.edition, outside=outside)
            if args.section in (None, r.section)
            and args.testability in (None, r.testability_class)
            and args.kind in (None, r.kind)
        ]

    rules = chosen(args.outside)
    if args.section is not None and not rules:
        other = "" if not chosen(not args.outside) else (
            " (it is a section of the seeds: drop --outside)" if args.outside else
            " (it is a section outside the seeds: add --outside)")
        raise UsageError(f"no rules in section {args.section!r} with these filters{other}")
    if args.json:
        _print_json([r.to_json() for r in rules])
        return ExitCode.OK
    for rule in rules:
        print(_row(rule))
    return ExitCode.OK


def _row(rule: Rule) -> str:
    indent = "  " * rule.depth
    return f"{rule.ref:<16} {rule.testability_class:<12} {indent}{rule.gist}"


def _show(args: argparse.Namespace) -> int:
    corpus = Corpus.load()
    rules = corpus.find(args.rule_id)
    if args.json:
        _print_json([r.to_json() for r in rules])
        return ExitCode.OK
    if len(rules) > 1:
        print(f"{args.rule_id} names {len(rules)} records:\n")
    print("\n\n".join(_describe(corpus, r) for r in rules))
    return ExitCode.OK


def _describe(corpus: Corpus, rule: Rule) -> str:
    source = corpus.source_of(rule)
    lines = f"line {rule.line}" if rule.end_line == rule.line else (
        f"lines {rule.line}-{rule.end_line}")
    printed = f", printed {rule.printed_id}" if rule.printed_id != rule.id else ""
    part = ", outside the seeds" if rule.outside else ""
    out = [f"{rule.ref}  [{rule.kind}{printed}{part}]  {source} {lines}"]
    out.append(f"  Section:     {rule.section} {rule.section_title}")
    if rule.parent and rule.parent != rule.section:
        parent = corpus.get(f"{rule.edition}:{rule.parent}")
        out.append(f"  Parent:      {parent.id} {parent.gist if parent.outside else parent.text}")
    if rule.outside:
        out.append(f"  Record:      ours, following the Comprehensive Rules effective "
                   f"{rule.version}; the corpus holds no text of the rule")
    else:
        out.append(f"  Text:        {rule.text}")
    out.extend(f"  Example:     {x['text']}" for x in rule.examples)
    out.append(f"  Gist:        {rule.gist}")
    if rule.terms:
        out.append(f"  Key terms:   {', '.join(rule.terms)} (a case citing it names one or "
                   "more in place of a quote)")
    out.append(f"  Testability: {_testability(rule.testability)}")
    if rule.connects:
        out.append(f"  Connects:    {', '.join(rule.connects)} (seed rules)")
    if rule.unsure:
        out.append(f"  Unsure:      {rule.unsure}")
    if rule.references:
        refs = ", ".join(f"{x['target']} ({_reference_status(corpus, rule, x)})"
                         for x in rule.references)
        out.append(f"  References:  {refs}")
    children = corpus.children(rule)
    if children:
        out.append(f"  Sub-rules:   {', '.join(c.id for c in children)}")
    out.extend(f"  Anomaly:     {a['kind']}: {a['why']}" for a in rule.anomalies)
    return "\n".join(out)


def _reference_status(corpus: Corpus, rule: Rule, reference: dict[str, Any]) -> str:
    """present (a seed rule), outside the seeds (a record of the other part: the seed index
    marks a target outside its seed absent), or not in the corpus."""
    target = f"{rule.edition}:{reference['target']}"
    if target not in corpus:
        return "not in the corpus"
    return "outside the seeds" if corpus.get(target).outside else "present"


def _testability(value: Testability) -> str:
    text = value["class"]
    if "reason" in value:
        text += f" ({value['reason']})"
    if "exercised_by" in value:
        text += f", exercised by {', '.join(value['exercised_by'])}"
    if "note" in value:
        text += f"; {value['note']}"
    return text


def _search(args: argparse.Namespace) -> int:
    corpus = Corpus.load()
    text = " ".join(args.words)
    rules = corpus.search(text, args.edition, outside=args.outside)
    if args.json:
        _print_json([r.to_json() for r in rules])
        return ExitCode.OK
    # the other part's matches are counted on stderr, so that a search never hides them
    other = len(corpus.search(text, args.edition, outside=not args.outside))
    part, other_part, option = (("rule outside the seeds", "seed rule", "drop --outside")
                                if args.outside else
                                ("seed rule", "rule outside the seeds", "add --outside"))
    plural = other_part.replace("rule", "rules")
    hint = (f"{other} {other_part} mentions it: {option}" if other == 1 else
            f"{other} {plural} mention it: {option}") if other else ""
    if not rules:
        print(f"no {part} mentions {text!r}" + (f"; {hint}" if hint else ""), file=sys.stderr)
        return ExitCode.OK
    for rule in rules:
        print(_row(rule))
    if hint:
        print(hint, file=sys.stderr)
    return ExitCode.OK


def _lint(args: argparse.Namespace) -> int:
    corpus = Corpus.load()
    kinds = set(args.anomaly_kind or ())
    found = [
        (rule, anomaly) for rule, anomaly in corpus.anomalies(args.edition)
        if not kinds or anomaly["kind"] in kinds
    ]
    rows = [{
        "file": corpus.editions[rule.edition].source["file"],
        "line": anomaly["line"],
        "edition": rule.edition,
        "printed_id": anomaly["printed_id"],
        "canonical_id": anomaly["canonical_id"],
        "record": rule.ref,
        "kind": anomaly["kind"],
        "why": anomaly["why"],
    } for rule, anomaly in found]
    if args.json:
        _print_json(rows)
        return ExitCode.OK
    for row in rows:
        ids = row["printed_id"] or "-"
        if row["canonical_id"] and row["canonical_id"] != row["printed_id"]:
            ids += f" -> {row['canonical_id']}"
        print(f"{row['file']}:{row['line']}: {row['kind']}: {ids}: {row['why']}")
    counts = Counter(row["kind"] for row in rows)
    summary = ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items()))
    print(f"{len(rows)} anomalies" + (f" ({summary})" if summary else ""))
    return ExitCode.OK


def _stats(args: argparse.Namespace) -> int:
    """Per edition: the seed rules' counts, and under ``outside`` those of the rules outside
    the seeds (with ``--outside``, only those, in the place of the seed rules')."""
    corpus = Corpus.load()
    editions = [args.edition] if args.edition else list(corpus.editions)
    report: dict[str, Any] = {}
    for key in editions:
        outside = _part_stats(corpus, key, outside=True)
        report[key] = outside if args.outside else {
            **_part_stats(corpus, key, outside=False), "outside": outside}
    if args.json:
        _print_json(report)
        return ExitCode.OK
    for key, data in report.items():
        info = corpus.editions[key]
        print(f"{key}: {info.title}")
        if not args.outside:
            print(f"  {data['rules']} numbered rules ({data['headings']} heading-only) in "
                  f"{data['sections']} sections; {data['anomalies']} source anomalies")
            _print_part(data)
        outside = data if args.outside else data["outside"]
        print(f"  outside the seeds: {outside['rules']} numbered rules ({outside['headings']} "
              f"heading-only) in {outside['sections']} sections, our records in "
              f"{outside['file']} following the Comprehensive Rules effective "
              f"{outside['version']}"
              + (f"; {outside['unsure']} unsure in June 2004" if outside["unsure"] else ""))
        _print_part(outside)
    return ExitCode.OK


def _part_stats(corpus: Corpus, edition: str, *, outside: bool) -> dict[str, Any]:
    rules = corpus.records(edition, outside=outside)
    numbered = [r for r in rules if r.kind != "section"]
    sections: dict[str, Any] = {}
    for rule in numbered:
        entry = sections.setdefault(rule.section, {
            "title": rule.section_title, "rules": 0, **dict.fromkeys(CLASSES, 0)})
        entry["rules"] += 1
        entry[rule.testability_class] += 1
    counts: dict[str, Any] = {
        "sections": len(rules) - len(numbered),
        "rules": len(numbered),
        "headings": sum(r.kind == "heading" for r in numbered),
        "testability": {c: sum(r.testability_class == c for r in numbered) for c in CLASSES},
    }
    if outside:
        info = corpus.editions[edition].outside
        counts.update(file=info["file"], version=info["version"],
                      unsure=sum(r.unsure is not None for r in numbered))
    else:
        counts["anomalies"] = len(corpus.anomalies(edition))
    return {**counts, "by_section": sections}


def _print_part(data: dict[str, Any]) -> None:
    print("  testability: " + ", ".join(f"{n} {c}" for c, n in data["testability"].items()))
    print(f"  {'section':<8}{'rules':>6}" + "".join(f"{c:>14}" for c in CLASSES) + "  title")
    for section, row in data["by_section"].items():
        print(f"  {section:<8}{row['rules']:>6}"
              + "".join(f"{row[c]:>14}" for c in CLASSES) + f"  {row['title']}")


def _glossary(args: argparse.Namespace) -> int:
    terms = load_glossary()
    if args.term:
        wanted = fold(args.term)
        terms = [t for t in terms if any(
            wanted in fold(x) for x in (t.english, t.cr2004 or "", t.modern or ""))]
        if not terms:
            raise UsageError(f"no glossary term matches {args.term!r}")
    if args.json:
        _print_json([{
            "english": t.english, "cr2004": t.cr2004, "modern": t.modern,
            "rules": list(t.rules), "note": t.note,
        } for t in terms])
        return ExitCode.OK
    for term in terms:
        line = f"{term.english:<28} {term.cr2004 or '-':<14} {term.modern or '-':<16}"
        line += f" {', '.join(term.rules)}"
        print(line.rstrip())
        if term.note:
            print(f"{'':<28} {term.note}")
    return ExitCode.OK


def _concordance(args: argparse.Namespace) -> int:
    pairs = load_concordance()
    if args.json:
        _print_json([
            {"cr2004": f"cr2004:{p.cr2004}", "modern": [f"modern:{m}" for m in p.modern],
             "note": p.note}
            for p in pairs
        ])
        return ExitCode.OK
    for pair in pairs:
        modern = ", ".join(pair.modern) if pair.modern else "(no counterpart)"
        print(f"cr2004:{pair.cr2004:<8} -> {modern}")
        print(f"{'':<16}{pair.note}")
    return ExitCode.OK
