"""Observation paths, the checks of expect steps, and handles followed across zones."""

from __future__ import annotations

import pytest

from conformance import paths
from conformance.handles import Handles, UnknownReference, translate


def obj(oid, card, **more):
    return {"id": oid, "card": card, **more}


OBSERVATION = {
    "turn": {"number": 3, "active": "A", "step": "precombat_main", "priority": "A"},
    "pending": None,
    "players": {
        "A": {"life": 20, "hand": [obj(1, "Forest"), obj(2, "Forest"), obj(3, "Lightning Bolt")],
              "graveyard": [obj(9, "Island"), obj(8, "Forest")]},
        "B": {"life": 17, "hand": [{"hidden": True}, {"hidden": True}], "graveyard": []},
    },
    "battlefield": [obj(5, "Grizzly Bears", tapped=True), obj(6, "Grizzly Bears", tapped=False),
                    obj(7, "Mountain", tapped=False)],
    "stack": [],
    "result": {"over": False, "winners": [], "losers": [], "draw": False, "reason": None},
}
HANDLES = {"bears": 5, "other": 6, "bolt": 3}


def check(text, expected):
    path = paths.parse(text)
    paths.check(path, expected, paths.resolve(path, OBSERVATION, Handles(HANDLES).matches))


@pytest.mark.parametrize(("text", "expected"), [
    ("players.B.life", 17),
    ("players.A.hand", {"count": 3, "contains": ["Forest", "Forest"]}),
    ("players.A.hand.count", 3),
    ("players.A.hand", {"not_contains": ["Island"]}),
    ("players.A.graveyard", {"cards": ["Island", "Forest"]}),
    ("players.A.graveyard[0].card", "Island"),
    ("players.A.graveyard[-1].card", "Forest"),
    ("players.B.hand", {"hidden": 2, "count": 2}),
    ("battlefield[bears].tapped", True),
    ("battlefield[bears]", {"tapped": True, "card": "Grizzly Bears"}),
    ("battlefield[card=Grizzly Bears]", {"count": 2}),
    ("battlefield[card=Forest]", {"absent": True}),
    ("battlefield[card=Mountain]", {"absent": False}),
    ("stack", {"count": 0}),
    ("result", {"over": False, "winners": []}),
    ("result.reason", None),
    ("players.A.poison", {"absent": True}),
    ("pending", None),
])
def test_checks_that_hold(text, expected):
    check(text, expected)


@pytest.mark.parametrize(("text", "expected", "message"), [
    ("players.B.life", 20, "players.B.life: expected 20, observed 17"),
    ("players.B.life", "17", 'expected "17", observed 17'),
    ("battlefield[other].tapped", 1, "expected 1, observed false"),
    ("players.A.hand", {"count": 2}, "expected count 2, observed 3 (Forest, Forest, Lightning"),
    ("players.A.hand", {"contains": ["Island"]}, "expected to contain Island"),
    ("players.A.hand", {"contains": ["Lightning Bolt", "Lightning Bolt"]}, "to contain Light"),
    ("players.A.hand", {"not_contains": ["Forest"]}, "expected not to contain Forest"),
    ("players.A.graveyard", {"cards": ["Forest", "Island"]}, "expected cards"),
    ("battlefield[card=Grizzly Bears].tapped", True, "selects 2 objects, so .tapped is ambig"),
    ("battlefield[bolt]", {"absent": False}, "expected present, observed nothing"),
    ("battlefield[bears]", {"absent": True}, "expected absent"),
    ("players.A.life.total", 1, "is 20, which has no .total"),
    ("players.C.life", 20, "expected 20, observed <missing>"),
    ("result", {"over": True}, "result.over: expected true, observed false"),
    ("players.A.hand[card=Forest]", [{"card": "Forest"}], "expected"),
    ("turn.number[0]", 1, "is not a list"),
])
def test_checks_that_fail_say_where_and_what(text, expected, message):
    with pytest.raises(paths.Mismatch) as info:
        check(text, expected)
    assert message in str(info.value)


def test_helper_keys_on_a_mapping_are_plain_keys():
    observation = {"pending": {"player": "A", "decision": "discard", "count": 1}}
    path = paths.parse("pending")
    paths.check(path, {"count": 1}, paths.resolve(path, observation, {}.__getitem__))


@pytest.mark.parametrize("text", ["", "a..b", "a[", "a[]", "a[card=]", "a]b", ".a"])
def test_bad_paths(text):
    with pytest.raises(ValueError, match=r"\S"):
        paths.parse(text)


def test_path_handles():
    assert paths.parse("players.A.graveyard[bolt].card").handles == {"bolt"}
    assert paths.parse("battlefield[card=Forest][0]").handles == frozenset()


def test_handles_follow_zone_changes():
    handles = Handles({"bears": 5, "bolt": 3})
    handles.follow([
        {"type": "zone_change", "object": 3, "new_object": 11},   # hand -> stack
        {"type": "life", "player": "B", "amount": -3, "cause": "damage"},
        {"type": "zone_change", "object": 11, "new_object": 12},  # stack -> graveyard
        {"type": "zone_change", "object": "5", "new_object": 13},  # a string id is another id
        {"type": "zone_change", "object": {"bad": 1}, "new_object": 14},
    ])
    assert handles.current == {"bears": 5, "bolt": 12}


def test_actions_map_handles_players_and_card_names():
    observe_calls = []

    def observe():
        observe_calls.append(1)
        return OBSERVATION

    handles = Handles(HANDLES)
    action = translate({"action": "cast", "player": "A", "card": "bolt",
                        "targets": ["B", "bears"]}, handles, observe)
    assert action == {"action": "cast", "player": "A", "card": 3,
                      "targets": [{"player": "B"}, {"object": 5}]}
    assert observe_calls == []
    land = translate({"action": "play_land", "player": "A", "card": "Forest"}, handles, observe)
    assert land["card"] == 1
    block = translate({"action": "block", "player": "B", "card": "Mountain", "attacker": "bears"},
                      handles, observe)
    assert (block["card"], block["attacker"]) == (7, 5)
    assert observe_calls == [1, 1]
    with pytest.raises(UnknownReference, match="no Island in the hand of A"):
        translate({"action": "play_land", "player": "A", "card": "Island"}, handles, observe)


def test_a_choice_naming_a_handle_is_that_object():
    from conformance.handles import Handles, translate

    handles = Handles({"bolt": 17, "G": 3})
    action = {"action": "choose", "player": "A", "choice": "bolt"}
    assert translate(action, handles, dict)["choice"] == 17
    assert translate({"action": "choose", "player": "A", "choice": "W"}, handles,
                     dict)["choice"] == "W"
    assert translate({"action": "choose", "player": "A", "choice": ["bolt", 4]}, handles,
                     dict)["choice"] == [17, 4]
