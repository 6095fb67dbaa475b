"""How a case cites its rules: a quote of a seed rule's text, or key terms of a rule outside the
seeds (which has no text in the corpus, only our record: docs/cases.md, ``terms:``).

Two directions. :func:`fields_for` writes the citation fields of a case that code makes (the
fuzzer's replay: a shrunk game cites the rules of the invariant it broke), so that the case it
writes passes ``conformance.lint``; :func:`citations_of` reads back what a loaded case names
for each rule it cites (what ``mtgconf run`` keeps in coverage.json for the report).

>>> fields_for(["cr2004:300.3", "modern:508.1a"])          # doctest: +SKIP
{'quote': {'cr2004:300.3': '...'}, 'terms': {'modern:508.1a': ['untapped', ...]}}
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from conformance.case import Case
from spec.corpus import Corpus, Rule

#: how much of a seed rule's text a written quote takes (its start: it always occurs in it)
QUOTE_CHARS = 24


class CitationError(ValueError):
    """A rule a case cannot cite: a section or heading outside the seeds has no key terms."""


def quote_of(rule: Rule) -> str:
    """A quote of a seed rule: the start of its text."""
    text = rule.text.strip()
    return text[:QUOTE_CHARS].strip() or text


def terms_of(rule: Rule) -> list[str]:
    """The key terms a case citing ``rule``, a rule outside the seeds, names: all of them.

    :raises CitationError: ``rule`` is a section or heading (it has none).
    """
    if not rule.terms:
        raise CitationError(f"{rule.ref} is a {rule.kind} outside the seeds, with no key terms "
                            "to name: cite one of the rules under it")
    return list(rule.terms)


def fields_for(refs: Iterable[str], corpus: Corpus | None = None) -> dict[str, Any]:
    """The citation fields of a case citing ``refs``: ``quote`` (seed rule -> a quote of its
    text) and ``terms`` (rule outside the seeds -> its key terms), each given only when some
    cited rule needs it, keyed by rule as a case file writes them.

    :raises spec.errors.UnknownRule: a ref the corpus does not have.
    :raises CitationError: a section or heading outside the seeds.
    """
    corpus = corpus or Corpus.load()
    quote: dict[str, str] = {}
    terms: dict[str, list[str]] = {}
    for ref in refs:
        rule = corpus.get(ref)
        if rule.outside:
            terms[ref] = terms_of(rule)
        else:
            quote[ref] = quote_of(rule)
    return {**({"quote": quote} if quote else {}), **({"terms": terms} if terms else {})}


def citations_of(case: Case, corpus: Corpus | None = None) -> dict[str, dict[str, Any]]:
    """What ``case`` names for each rule it cites: ``quotes`` for the seed rules, ``terms`` for
    the rules outside the seeds (a rule the corpus lacks keeps its quote, if any)."""
    corpus = corpus or Corpus.load()
    quotes: dict[str, str] = {}
    terms: dict[str, list[str]] = {}
    for ref in case.rules:
        if ref in corpus and corpus.get(ref).outside:
            terms[ref] = list(case.terms_for(ref))
        else:
            quotes[ref] = case.quote_for(ref)
    return {"quotes": quotes, "terms": terms}
