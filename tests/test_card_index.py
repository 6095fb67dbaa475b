"""The card pool, the card index and rule coverage: every testable rule is served."""

from __future__ import annotations

import json

from reference_engine.cards.__main__ import main
from reference_engine.registry import implementation, implemented
from spec import rule_servers
from spec.cardpool import default_pool
from spec.corpus import Corpus
from spec.rule_servers import base_game, card_rules, rule_coverage, unserved


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


def test_every_engine_or_card_data_seed_rule_is_served_or_says_why_it_waits():
    coverage = rule_coverage()
    assert len(coverage) == len([r for r in Corpus.load() if r.is_testable])
    assert unserved(coverage) == []
    for ref, entry in coverage.items():
        if entry["waits"]:  # a rule waits only when nothing can serve it yet
            assert not entry["cards"] and not entry["base_game"], ref


def test_the_rules_outside_the_seeds_are_served_apart(monkeypatch):
    """Each part's servers are listed apart, marked; a server naming a rule outside the seeds
    serves it (its cases are still to be written, so today most are unserved)."""
    corpus = Corpus.load()
    seed, outside = rule_coverage(), rule_coverage(outside=True)
    assert set(outside) == {r.ref for r in corpus.records(outside=True) if r.is_testable}
    assert not set(seed) & set(outside)
    assert {e["outside"] for e in seed.values()} == {False}
    assert {e["outside"] for e in outside.values()} == {True}
    assert set(rule_coverage(outside=None)) == set(seed) | set(outside)
    waiting = {ref for ref, entry in outside.items() if entry["waits"]}
    assert waiting and not waiting & set(unserved(outside))
    monkeypatch.setattr(rule_servers, "card_rules", lambda: {"Serra Angel": ("modern:702.9b",)})
    monkeypatch.setattr(rule_servers, "base_game", lambda: {"modern:508.1a": "declare attackers"})
    served = rule_coverage(outside=True)
    assert served["modern:702.9b"]["cards"] == ["Serra Angel"]
    assert served["modern:508.1a"]["base_game"] == "declare attackers"
    assert {"modern:702.9b", "modern:508.1a"}.isdisjoint(unserved(served))


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


def test_the_abilities_a_harness_reads_from_card_text_are_the_engines():
    """``spec.cardpool.activated_abilities`` (what the harness knows of a card: which ability
    index is a mana ability, and which costs mana) agrees with the reference engine's own
    abilities, in number, order and kind, for every card of both editions."""
    from reference_engine.layers import BASIC_ABILITIES
    from reference_engine.registry import implementation
    from spec.cardpool import activated_abilities, default_pool

    for edition, cards in default_pool().cards.items():
        for name, card in cards.items():
            impl = implementation(name, edition)
            engine = [BASIC_ABILITIES[s] for s in card.subtypes if s in BASIC_ABILITIES]
            engine += list(impl.abilities if impl is not None else ())
            ours = activated_abilities(card)
            assert [(a.mana, a.mana_cost) for a in ours] == [
                (e.produces is not None or e.any_color, e.cost is not None and not e.cost.is_free)
                for e in engine], (edition, name)
            intrinsic = sum(1 for s in card.subtypes if s in BASIC_ABILITIES)
            assert [a.text for a in ours[:intrinsic]] == [e.text for e in engine[:intrinsic]]
