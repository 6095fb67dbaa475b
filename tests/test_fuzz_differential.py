"""The differential comparison (fuzz.differential) on hand-made observations: what it compares,
what it leaves alone, and the rules it cites. The end-to-end runs are in tests/test_fuzz.py."""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz.differential import diverges
from fuzz.strategies import formatted_starts, illegal_action, topics_for


@dataclass
class Info:
    name: str


@dataclass
class FakePlay:
    """What the comparison reads of a Play: the engine's name, the edition, the handles of
    its ids, its last observation."""

    name: str
    handle_of: dict[Any, str]
    observation: dict[str, Any] = field(default_factory=dict)
    edition: str = "cr2004"
    capabilities: frozenset[str] = frozenset()

    @property
    def info(self) -> Info:
        return Info(self.name)


def card(object_id: int, name: str, **fields: Any) -> dict[str, Any]:
    return {"id": object_id, "card": name, "owner": "A", "types": ["Land"], "colors": [],
            "mana_cost": "{0}", **fields}


def game(**zones: Any) -> dict[str, Any]:
    observation: dict[str, Any] = {
        "turn": {"number": 2, "active": "A", "step": "precombat_main", "priority": "A"},
        "pending": None,
        "players": {name: {"life": 20, "hand": [], "library": [{"id": 90 + i, "card": "Island"}
                                                             for i in range(3)],
                           "graveyard": []} for name in ("A", "B")},
        "battlefield": [], "stack": [], "exile": [],
        "result": {"over": False},
    }
    for key, value in zones.items():
        if key in ("hand_a", "library_a"):
            observation["players"]["A"][key[:-2]] = value
        else:
            observation[key] = value
    return observation


def pair(mine: dict[str, Any], theirs: dict[str, Any], *, ids_differ: bool = True
         ) -> tuple[FakePlay, FakePlay]:
    """The engine under test and the reference: the same handles, other ids (+100)."""
    engine = FakePlay("engine", {1: "a01", 2: "a02", 3: "b01"}, mine)
    shift = 100 if ids_differ else 0
    reference = FakePlay("reference", {1 + shift: "a01", 2 + shift: "a02", 3 + shift: "b01"},
                         theirs)
    return engine, reference


def shifted(observation: dict[str, Any]) -> dict[str, Any]:
    """The same observation with the reference's ids (objects 1-3 become 101-103)."""
    def move(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: (v + 100 if k in ("id", "attached_to", "source", "object") and
                        isinstance(v, int) and v < 10 else move(v)) for k, v in value.items()}
        if isinstance(value, list):
            return [move(v) for v in value]
        return value
    return move(copy.deepcopy(observation))


def test_the_same_game_under_other_ids_does_not_diverge() -> None:
    mine = game(battlefield=[card(1, "Forest", controller="A", tapped=False)],
                stack=[{"id": 2, "kind": "spell", "card": "Giant Growth", "controller": "A",
                        "owner": "A", "targets": [{"object": 1}], "types": ["Instant"]}])
    engine, reference = pair(mine, shifted(mine))
    assert diverges(mine, engine, reference) == []


@pytest.mark.parametrize(("field", "theirs", "rules"), [
    ("colors", ["G"], ("cr2004:203.2",)),
    ("mana_cost", None, ("cr2004:203.1",)),
    ("types", ["Land", "Creature"], ("cr2004:205.1", "cr2004:217.6c")),
    ("card", "Forest Token", ("cr2004:200.1", "cr2004:216.1")),
])
def test_every_characteristic_of_a_permanent_is_compared(field: str, theirs: Any,
                                                         rules: tuple[str, ...]) -> None:
    mine = game(battlefield=[card(1, "Forest", controller="A")])
    other = shifted(mine)
    other["battlefield"][0][field] = theirs
    engine, reference = pair(mine, other)
    [violation] = diverges(mine, engine, reference)
    assert violation.invariant == "differential"
    assert f"battlefield.a01.{field}" in violation.message
    assert violation.rules == rules


def test_a_spell_is_compared_with_its_types_controller_and_targets() -> None:
    spell = {"id": 2, "kind": "spell", "card": "Grizzly Bears", "controller": "A",
             "owner": "A", "targets": [], "types": ["Creature"]}
    mine = game(stack=[spell], battlefield=[card(1, "Forest", controller="A")])
    other = shifted(mine)
    other["stack"][0]["types"] = []
    [violation] = diverges(mine, *pair(mine, other))
    assert "stack.a02.types" in violation.message
    other = shifted(mine)
    other["stack"][0]["targets"] = [{"object": 101}]
    [violation] = diverges(mine, *pair(mine, other))
    assert "stack.a02.targets" in violation.message and "a01" in violation.message


def test_a_field_one_engine_does_not_show_is_not_compared() -> None:
    mine = game(battlefield=[card(1, "Forest", controller="A", damage=0)])
    other = shifted(mine)
    del other["battlefield"][0]["damage"], other["battlefield"][0]["colors"]
    assert diverges(mine, *pair(mine, other)) == []


def test_a_card_in_hand_is_compared_by_its_fields_too() -> None:
    mine = game(hand_a=[card(1, "Nightmare", types=["Creature"], power=0, toughness=0)])
    other = shifted(mine)
    other["players"]["A"]["hand"][0]["power"] = 3
    [violation] = diverges(mine, *pair(mine, other))
    assert "hand.A.a01.power" in violation.message
    assert violation.rules == ("cr2004:208.1",)


def test_libraries_are_compared_by_count_only() -> None:
    mine = game()
    other = shifted(mine)
    other["players"]["A"]["library"] = list(reversed(other["players"]["A"]["library"]))
    assert diverges(mine, *pair(mine, other)) == []
    other["players"]["A"]["library"].pop()
    [violation] = diverges(mine, *pair(mine, other))
    assert "library.A" in violation.message


def test_what_a_player_sees_is_compared() -> None:
    mine = game(stack=[{"id": 2, "kind": "spell", "card": "Shock", "controller": "A",
                        "owner": "A", "targets": [{"player": "B"}]}])
    engine, reference = pair(mine, shifted(mine))
    shown = copy.deepcopy(mine)
    hidden = shifted(mine)
    hidden["stack"] = [{"hidden": True}]  # the reference hides the stack from B: wrong
    views = ({"A": shown, "B": shown}, {"A": shifted(mine), "B": hidden})
    [violation] = diverges(mine, engine, reference, views=views)
    assert violation.message.startswith("what B sees: stack")
    assert "modern:400.2" in violation.rules or "cr2004:217.2c" in violation.rules


def test_a_revealed_top_card_is_compared_in_a_view() -> None:
    mine = game()
    engine, reference = pair(mine, shifted(mine))
    revealed = copy.deepcopy(mine)
    revealed["players"]["A"]["library"] = [card(95, "Island")] + [{"hidden": True}] * 2
    covered = shifted(mine)
    covered["players"]["A"]["library"] = [{"hidden": True}] * 3
    views = ({"A": revealed}, {"A": covered})
    [violation] = diverges(mine, engine, reference, views=views)
    assert "library.A" in violation.message and "'shown': 1" in violation.message


def test_the_legal_actions_are_compared_by_kind_player_and_object() -> None:
    mine = game(hand_a=[card(1, "Forest")])
    engine, reference = pair(mine, shifted(mine))
    legal = ([{"action": "play_land", "player": "A", "card": 1}, {"action": "pass",
                                                                  "player": "A"}],
             [{"action": "pass", "player": "A"}])
    [violation] = diverges(mine, engine, reference, legal)
    assert "('play_land', 'A', 'a01')" in violation.message


# ---- deliberately illegal actions and directed starts ----


def test_an_illegal_action_leaves_out_the_targets_a_listed_action_needs() -> None:
    observation = game(hand_a=[card(1, "Shock", types=["Instant"])])
    legal = [{"action": "pass", "player": "A"},
             {"action": "cast", "player": "A", "card": 1, "targets": [{"player": "B"}]}]
    action, why = illegal_action(2, legal, observation)
    assert action == {"action": "cast", "player": "A", "card": 1}
    assert "without the targets" in why


def test_no_targets_are_left_out_of_an_action_also_listed_without_them() -> None:
    observation = game()
    legal = [{"action": "cast", "player": "A", "card": 1, "targets": [{"player": "B"}]},
             {"action": "cast", "player": "A", "card": 1}]
    action, _ = illegal_action(2, legal, observation)
    assert action.get("card") != 1  # another kind took its place


def test_an_illegal_action_plays_a_land_at_the_wrong_step() -> None:
    observation = game(hand_a=[card(1, "Forest")])
    observation["turn"]["step"] = "upkeep"
    action, why = illegal_action(3, [{"action": "pass", "player": "A"}], observation)
    assert action == {"action": "play_land", "player": "A", "card": 1}
    assert "outside their main phase" in why
    observation["turn"]["step"] = "precombat_main"  # now it is the right time: not this kind
    action, _ = illegal_action(3, [{"action": "pass", "player": "A"}], observation)
    assert action.get("card") != 1


def test_rules_direct_the_kind_of_start() -> None:
    assert topics_for(["cr2004:100.*"]) == {"deck"}
    assert topics_for(["modern:407.3"]) == {"deck", "ante"}
    assert topics_for(["cr2004:101.4"]) == {"mulligan"}
    assert topics_for(["cr2004:212.*"]) == frozenset()


def test_objects_without_a_handle_do_not_depend_on_their_place() -> None:
    token = {"id": 7, "card": "Soldier", "owner": "A", "controller": "A", "token": True}
    mine = game(battlefield=[card(1, "Forest", controller="A"), token])
    other = shifted(mine)
    other["battlefield"] = [{**token, "id": 77}, other["battlefield"][0]]  # another order
    assert diverges(mine, *pair(mine, other)) == []


# ---- deliberately illegal setups ----


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_a_flawed_setup_is_illegal_and_the_others_legal(data: st.DataObject) -> None:
    """Every formatted start the fuzzer draws is judged as the deck rules do: flawed ones
    illegal, the others legal (a fifth Snow-Covered Forest, a basic land, is no flaw)."""
    from reference_engine.decks import deck_problems

    info = _reference_info()
    edition = data.draw(st.sampled_from(("cr2004", "modern")))
    focus = data.draw(st.sampled_from((frozenset(), frozenset({"Snow-Covered Forest"}))))
    setup, flaw = data.draw(formatted_starts(info, edition, focus))
    problems = [p for name in ("A", "B") for p in deck_problems(
        [c["card"] if isinstance(c, dict) else c for c in setup["decks"][name]],
        setup["format"], edition, ante=bool(setup.get("ante")))]
    sideboard = [c for cards in (setup.get("sideboards") or {}).values() for c in cards]
    assert bool(problems or sideboard) == (flaw is not None), (flaw, problems, sideboard)


@functools.cache
def _reference_info() -> Any:
    """What the reference engine declares (its session closed once read)."""
    from fuzz.engines import FuzzEngines

    with FuzzEngines() as engines:
        return engines.info("reference")


# ---- issue 25: a correct engine in any dialect gives no finding -------------------------------

def _dialects_compared() -> list[Any]:
    from tests.fakes.dialects import DIALECTS

    params = []
    for name, shim in DIALECTS.items():
        declared = set(shim().hello()["capabilities"])
        marks: list[Any] = []
        lacking = {"setup.deck_order", "observe.events"} - declared
        if lacking:
            marks.append(pytest.mark.skip(reason=f"a differential run needs "
                                                 f"{', '.join(sorted(lacking))} of both engines"))
        if name == "ReseededRandomness":
            marks.append(pytest.mark.skip(
                reason="another engine's randomness plays another game from the same seed "
                       "(the first player, the shuffles): the differential compares engines "
                       "on the same game, and cannot tell that from a deviation"))
        params.append(pytest.param(name, marks=marks))
    return params


@pytest.mark.parametrize("edition", ["cr2004", "modern"])
@pytest.mark.parametrize("dialect", _dialects_compared())
def test_the_reference_engine_in_any_dialect_gives_no_finding(dialect: str,
                                                              edition: str) -> None:
    """The reference engine behind each shim of tests/fakes/dialects.py, fuzzed against the
    reference engine: the differential and every invariant normalise what the protocol lets
    an engine say its own way (type words in any case, unordered lists in any order, kept ids,
    a payment form of its own, no mana abilities listed by a pay.auto engine). One round of
    the ci profile, shortened (a few games): every dialect in seconds."""
    from dataclasses import replace

    from fuzz.campaign import PROFILES, Campaign
    from fuzz.machine import FuzzConfig

    profile = replace(PROFILES["ci"], examples_per_round=4, steps=60, shrink_seconds=3.0)
    config = FuzzConfig(f"py:tests.fakes.dialects:{dialect}", edition, against="reference")
    found = Campaign(config, profile, 60.0, 0, rounds_wanted=1, database="none").run().by_key
    assert {k: f.violation.message for k, f in found.items()} == {}


def test_a_part_found_to_differ_is_passed_over_and_the_others_still_compared() -> None:
    """After a difference in one part of the game the campaign goes on comparing the others
    (``known``): a life total found already does not hide a tapped land that differs."""
    mine = game(battlefield=[card(1, "Forest", controller="A", tapped=False)])
    theirs = shifted(game(battlefield=[card(1, "Forest", controller="A", tapped=True)]))
    theirs["players"]["B"]["life"] = 17
    engine, reference = pair(mine, theirs)
    first = diverges(mine, engine, reference)
    assert [v.key for v in first] == ["differential life"]
    again = diverges(mine, engine, reference, known=frozenset({"life"}))
    assert [v.key for v in again] == ["differential battlefield"]
    assert again[0].rules == ("cr2004:214.3",)


def test_unordered_words_compare_in_any_order_and_letter_case() -> None:
    mine = game(battlefield=[card(1, "Forest", controller="A", types=["Land"],
                                  subtypes=["Forest"])])
    theirs = shifted(game(battlefield=[card(1, "Forest", controller="A", types=["land"],
                                            subtypes=["forest"])]))
    engine, reference = pair(mine, theirs)
    assert diverges(mine, engine, reference) == []
