"""A fuzz finding cites the rules of its game's edition, never the other edition's, and every
rule it cites can be cited by a case (a quote of a seed rule, the key terms of one outside
the seeds): issue 25."""

from __future__ import annotations

import pytest

from conformance.citation import fields_for
from fuzz import differential
from fuzz.invariants import INVARIANTS, Violation
from fuzz.replay import rules_for, step_rules
from spec.cardpool import default_pool

RUNS = [(i.id, edition) for i in INVARIANTS.values() for edition in i.editions]


@pytest.mark.parametrize(("invariant", "edition"), RUNS)
def test_each_invariant_cites_rules_of_the_games_edition(invariant, edition):
    item = INVARIANTS[invariant]
    for action in ({"action": "pass", "player": "A"}, {"action": "play_land", "card": 1},
                   {"action": "cast", "card": 1}):
        rules = rules_for(Violation(item.id, item.rules, "broken"), edition, action)
        assert rules and all(r.startswith(f"{edition}:") for r in rules), rules
        fields_for(rules)  # citable: raises on a rule a case cannot cite


@pytest.mark.parametrize("edition", ["cr2004", "modern"])
@pytest.mark.parametrize("part", [*differential.RULES_OF, *differential.FIELD_RULES])
def test_each_difference_cites_rules_of_the_games_edition(part, edition):
    if part in differential.FIELD_RULES:
        rules = differential._edition_rules(differential.FIELD_RULES[part], edition,
                                            "battlefield")
    else:
        rules = differential._rules_for(part, edition)
    if part in ("ante", "command") and edition == "cr2004":
        assert rules == ()  # the 2004 seeds have no such zone (and no 2004 game shows one)
        return
    assert rules and all(r.startswith(f"{edition}:") for r in rules), rules
    fields_for(rules)


def test_a_step_of_a_protocol_invariant_cites_the_rule_of_that_step():
    forest = default_pool().edition("cr2004").get("Forest")
    assert step_rules("cr2004", {"action": "play_land", "card": 1}) == ("cr2004:212.6a",)
    assert step_rules("modern", {"action": "play_land", "card": 1}) == ("modern:505.6b",)
    assert step_rules("cr2004", {"action": "activate", "card": 1, "ability": 0},
                      forest) == ("cr2004:406.1",)
    assert step_rules("modern", {"action": "activate", "card": 1, "ability": 0},
                      default_pool().edition("modern").get("Forest")) == ("modern:605.3a",)
    assert step_rules("modern", {"action": "pass", "player": "A"}) == ("modern:117.4",)
    assert step_rules("modern", {"action": "cast", "card": 1}) == ("modern:601.2",)
    protocol = Violation("listed-actions-are-legal", (), "a listed pass was rejected")
    assert rules_for(protocol, "cr2004", {"action": "play_land", "card": 1}) == \
        ["cr2004:212.6a"]
    assert "modern:405.5" not in rules_for(protocol, "modern", {"action": "play_land"})
