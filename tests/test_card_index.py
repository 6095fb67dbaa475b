"""The card pool, the card index and rule coverage: every testable rule is served."""

from __future__ import annotations

import json

from reference_engine.cardimpl import implementation, implemented
from reference_engine.cards.__main__ import main
from spec.cardpool import default_pool
from spec.corpus import Corpus
from spec.coverage import base_game, card_rules, rule_coverage


def test_every_card_of_the_pool_is_implemented_and_vice_versa():
    pool = set(default_pool().names())
    assert pool == set(implemented())


def test_card_rules_name_real_cards_and_testable_rules_of_the_cards_editions():
    corpus = Corpus.load()
    pool = default_pool()
    for name, refs in card_rules().items():
        editions = {key for key, cards in pool.cards.items() if name in cards}
        assert editions, name
        for ref in refs:
            rule = corpus.get(ref)
            assert rule.is_testable, (name, ref)
            assert rule.edition in editions, (name, ref)
    for ref in base_game():
        assert corpus.get(ref).is_testable, ref


def test_every_engine_or_card_data_rule_is_served_or_says_why_it_waits():
    coverage = rule_coverage()
    assert len(coverage) == len([r for r in Corpus.load() if r.is_testable])
    unserved = [ref for ref, entry in coverage.items()
                if not (entry["cards"] or entry["base_game"] or entry["waits"])]
    assert unserved == []
    for ref, entry in coverage.items():
        if entry["waits"]:  # a rule waits only when nothing can serve it yet
            assert not entry["cards"] and not entry["base_game"], ref


def test_card_index_json(capsys):
    assert main(["--json"]) == 0
    cards = json.loads(capsys.readouterr().out)
    by_name = {c["name"]: c for c in cards}
    assert set(by_name) == set(default_pool().names())
    elves = by_name["Llanowar Elves"]
    assert elves["editions"] == ["cr2004", "modern"]
    assert elves["type_line"] == {"cr2004": "Creature — Elf", "modern": "Creature — Elf Druid"}
    assert {"cr2004:104.4", "modern:405.6c"} <= set(elves["rules"])
    assert by_name["Divination"]["editions"] == ["modern"]
    assert main(["--coverage"]) == 0
    assert "NOT SERVED" not in capsys.readouterr().out


def test_edition_specific_behaviour_is_registered_per_edition():
    assert implementation("Animate Dead", "cr2004").enchant is None  # 2004 Oracle
    assert implementation("Animate Dead", "modern").enchant is not None  # an Aura
