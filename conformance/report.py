"""The run's console summary by rule section (``mtgconf run`` prints it after the results)."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any

from conformance.results import UNEXPECTED
from conformance.resultsfile import Results, counts

if TYPE_CHECKING:
    from spec.corpus import Corpus


def sections(results: Results, corpus: Corpus) -> list[dict[str, Any]]:
    """Results per rule section (edition and section number), for the run's summary. A result
    counts under the sections of the rules it cites in its own edition."""
    groups: dict[tuple[str, str], list[str]] = defaultdict(list)
    titles: dict[tuple[str, str], str] = {}
    for record in results.records:
        keys = set()
        for ref in record.rules:
            edition = ref.partition(":")[0]
            if edition != record.edition or ref not in corpus:
                continue
            rule = corpus.get(ref)
            keys.add((edition, rule.section))
            titles[(edition, rule.section)] = section_title(corpus, edition, rule.section)
        if not keys:
            keys.add((record.edition, "-"))
            titles[(record.edition, "-")] = "(cases citing another edition's rules only)"
        for key in keys:
            groups[key].append(record.status)
    return [{"edition": e, "section": s, "title": titles[(e, s)], "counts": counts(st),
             "unexpected": sum(x in UNEXPECTED for x in st)}
            for (e, s), st in sorted(groups.items())]


def section_title(corpus: Corpus, edition: str, section: str) -> str:
    """The English title of a section, from its gist."""
    gist = corpus.get(f"{edition}:{section}").gist.removeprefix("Section heading: ")
    return gist.split(" (")[0].rstrip(".")
