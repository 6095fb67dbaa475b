"""The freedoms an engine has in writing an observation, taken out once by the harness
(conformance/observed.py, docs/protocol.md, Dialects): type words in any letter case, unordered
lists in any order, and the verdict on a decision with one possible answer."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from conformance import casefile, observed, paths
from conformance.runner import RunOptions, run_case
from conformance.session import EngineSession
from conformance.transports import EngineSpec
from reference_engine.engine import ReferenceEngine
from tests.fakes import dialects

GIVEN = {
    "turn": {"number": 3, "active": "A", "step": "precombat_main"},
    "players": {"A": {"hand": [{"handle": "bears", "card": "Grizzly Bears"},
                               {"handle": "forest", "card": "Forest"}]}},
    "battlefield": [{"handle": "ornithopter", "card": "Ornithopter", "controller": "A"},
                    {"handle": "elves", "card": "Llanowar Elves", "controller": "B"}],
}


def observation() -> dict:
    engine = ReferenceEngine()
    engine.hello(1.1)
    engine.new_game("modern", GIVEN)
    return engine.observe()


def _words(obs: dict) -> list[str]:
    return [w for o in observed._objects(obs) if isinstance(o, dict)
            for key in observed.TYPE_KEYS for w in o.get(key, ())]


def test_type_words_in_any_letter_case_are_spelt_as_the_cards_print_them():
    printed = observation()
    shouted = copy.deepcopy(printed)
    for obj in observed._objects(shouted):
        for key in observed.TYPE_KEYS:
            obj[key] = [w.upper() if i % 2 else w.lower() for i, w in enumerate(obj[key])]
    assert _words(shouted) != _words(printed)
    assert observed.normalise(shouted) == printed
    assert {"Artifact", "Creature", "Basic", "Elf", "Druid"} <= set(_words(printed))


def test_a_type_word_the_pool_does_not_know_is_left_as_it_is():
    obs = observation()
    obs["battlefield"][0]["subtypes"] = ["thopter", "x-unknown"]
    assert observed.normalise(obs)["battlefield"][0]["subtypes"] == ["Thopter", "x-unknown"]


def test_the_fuzzer_reads_normalised_observations_through_the_client():
    """The one place observations enter (EngineClient.observe): the fuzzer's ``"Land" in
    types`` holds for an engine that writes ``land``."""
    session = EngineSession(EngineSpec.parse("py:tests.fakes.dialects:LowerCaseTypes"))
    session.start()
    try:
        client = session.begin(None)
        client.new_game("modern", GIVEN)
        hand = client.observe()["players"]["A"]["hand"]
    finally:
        session.close()
    assert [o["types"] for o in hand] == [["Creature"], ["Land"]]


def test_canonical_forms_ignore_the_order_of_unordered_lists_only():
    before = observation()
    after = copy.deepcopy(before)
    after["battlefield"].reverse()
    after["players"]["A"]["hand"].reverse()
    after["battlefield"][0]["types"].reverse()
    assert after != before
    assert observed.canonical(after) == observed.canonical(before)
    after["battlefield"][0]["tapped"] = True
    assert observed.canonical(after) != observed.canonical(before)
    library = copy.deepcopy(before)
    library["players"]["A"]["library"] = copy.deepcopy(before["players"]["A"]["hand"])
    flipped = copy.deepcopy(library)
    flipped["players"]["A"]["library"].reverse()
    assert observed.canonical(flipped) != observed.canonical(library)  # top first: ordered


@pytest.mark.parametrize(("expected", "holds"), [
    (["Artifact", "Creature"], True), (["Creature", "Artifact"], True),
    (["Creature"], False), (["Creature", "Creature"], False)])
def test_a_list_of_type_words_matches_as_a_set(expected, holds):
    value = ["Artifact", "Creature"]
    for path, wanted in ((paths.parse("battlefield[o].types"), expected),
                         (paths.parse("battlefield[o]"), {"types": expected})):
        selected = value if "types" in path.text else [{"types": value}]
        if holds:
            paths.check(path, wanted, selected)
        else:
            with pytest.raises(paths.Mismatch):
                paths.check(path, wanted, selected)


def test_other_lists_still_match_element_by_element():
    with pytest.raises(paths.Mismatch):  # the stack is top first
        paths.check(paths.parse("stack"), [{"card": "Lightning Bolt"}, {"card": "Shock"}],
                    [{"card": "Shock"}, {"card": "Lightning Bolt"}])


def test_one_answer_is_judged_from_the_pending_players_listed_answers():
    pending = {"player": "B", "decision": "choose_sacrifice"}
    concede = [{"action": "concede", "player": p} for p in "AB"]
    one = [{"action": "choose", "player": "B", "choice": 7}, *concede]
    two = [{"action": "choose", "player": "B", "choice": 7},
           {"action": "choose", "player": "B", "choice": 8}, *concede]
    assert "one possible answer" in (observed.one_answer(pending, one) or "")
    assert observed.one_answer(pending, two) is None
    assert observed.one_answer(pending, None) is None  # no listing: it cannot tell
    attackers = {"player": "A", "decision": "declare_attackers"}
    assert observed.one_answer(attackers, [{"action": "done", "player": "A"}]) is None
    assert observed.one_answer(None, one) is None


def test_an_order_with_one_card_left_has_one_answer_without_a_listing():
    for decision in ("order_graveyard", "put_on_top"):
        last = {"player": "B", "decision": decision, "count": 1}
        assert "one card left to place" in (observed.one_answer(last, None) or "")
        assert observed.one_answer({**last, "count": 2}, None) is None
    # A discard of one card of several is a choice.
    assert observed.one_answer({"player": "A", "decision": "discard", "count": 1}, None) is None


def _bundled(case_id: str):
    return next(c for c in casefile.load().cases if c.id == case_id)


def _run(engine: str, case_id: str, edition: str = "modern"):
    session = EngineSession(EngineSpec.parse(engine), validate=True)
    session.start()
    try:
        return run_case(_bundled(case_id), edition, session, RunOptions(case_timeout=30))
    finally:
        session.close()


class _AsksWithoutListing(dialects.AsksOneAnswerDecisions):
    """Asks the last card of an order and cannot list legal actions."""

    def hello(self, protocol: float = 1.1) -> dict[str, Any]:
        info = super().hello(protocol)
        info["capabilities"] = [c for c in info["capabilities"] if c != "actions.legal"]
        return info


@pytest.mark.parametrize("engine", ["py:tests.fakes.dialects:AsksOneAnswerDecisions",
                                    f"py:{__name__}:_AsksWithoutListing"])
def test_a_one_answer_decision_asked_is_a_protocol_error_not_the_cases_rule_broken(engine):
    outcome = _run(engine, "zone.owner-orders-cards-into-graveyard")
    assert outcome.status == "error"
    assert "broke the protocol" in outcome.message
    assert "order_graveyard" in outcome.message and "one possible answer" in outcome.message
    assert "cr2004" not in outcome.message and "modern:" not in outcome.message


def test_a_rejected_action_that_lists_a_hand_anew_left_the_state_unchanged():
    """ShuffledLists lists every hand in a fresh order at each observation, as an engine that
    restores a snapshot after a rejected action may."""
    outcome = _run("py:tests.fakes.dialects:ShuffledLists", "land.one-per-turn")
    assert outcome.status == "pass", outcome.message
