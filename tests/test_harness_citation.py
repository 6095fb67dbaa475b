"""conformance.citation: the citation fields a case written by code needs (a quote of a seed
rule, key terms of a rule outside the seeds), and what a loaded case names per rule."""

from __future__ import annotations

import pytest
import yaml

from conformance import casefile, lint
from conformance.citation import CitationError, citations_of, fields_for
from spec.corpus import Corpus
from spec.errors import UnknownRule


def test_every_citable_rule_gets_fields_the_lint_accepts():
    corpus = Corpus.load()
    for rule in corpus.all_rules:
        if rule.kind != "rule" and rule.outside:
            continue  # a section or heading outside the seeds: below
        fields = fields_for([rule.ref], corpus)
        if rule.outside:
            assert set(fields) == {"terms"}, rule.ref
            assert all(rule.key_term(t) for t in fields["terms"][rule.ref]), rule.ref
        else:
            assert set(fields) == {"quote"}, rule.ref
            assert rule.quotes(fields["quote"][rule.ref]), rule.ref


def test_a_written_case_citing_both_parts_loads_and_lints_clean(tmp_path):
    refs = ["modern:508.1a", "modern:400.1"]
    case = {"id": "written.by-code", "rules": refs, "editions": ["modern"],
            **fields_for(refs), "summary": "A case written by code.",
            "setup": {"turn": {"number": 3, "active": "A", "step": "precombat_main"}},
            "steps": [{"expect": {"players.A.life": 20}}]}
    assert set(case["quote"]) == {"modern:400.1"} and set(case["terms"]) == {"modern:508.1a"}
    (tmp_path / "written.yaml").write_text(yaml.safe_dump([case], allow_unicode=True),
                                           encoding="utf-8")
    cases = casefile.load([tmp_path])
    assert cases.problems == []
    assert [(p.field, p.message) for p in lint.lint(cases)] == []
    (loaded,) = cases.cases
    assert citations_of(loaded) == {"quotes": {"modern:400.1": case["quote"]["modern:400.1"]},
                                    "terms": {"modern:508.1a": case["terms"]["modern:508.1a"]}}


def test_a_seed_only_case_gets_no_terms_and_an_outside_only_case_no_quote():
    assert set(fields_for(["cr2004:300.3"])) == {"quote"}
    assert set(fields_for(["cr2004:310.2b"])) == {"terms"}
    assert fields_for([]) == {}


def test_what_cannot_be_cited_is_refused_by_name():
    with pytest.raises(CitationError, match="modern:508 is a section outside the seeds"):
        fields_for(["modern:508"])
    with pytest.raises(UnknownRule, match=r"modern:999\.1"):
        fields_for(["modern:999.1"])
