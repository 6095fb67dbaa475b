"""The phase-python adapter (``--engine phase``): card data generated from our pool, seeded
starts and given states built with the engine's own state export and import, actions with
their actor and their announcements, observations with incarnations, events, and illegal
actions that change nothing. Skipped when the ``phase`` extra is not installed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("phase", reason="phase-python is not installed: pip install -e '.[phase]'")

import conformance
from conformance import schemas
from conformance.engines import named
from conformance.engines.phase import carddata
from conformance.engines.phase.adapter import (
    BadRequest,
    IllegalAction,
    PhaseEngine,
    Unsupported,
)
from conformance.expectations import Expectations
from conformance.lint import load_checked
from spec.cardpool import default_pool


@pytest.fixture(scope="module")
def engine() -> PhaseEngine:
    return PhaseEngine()


def state(engine: PhaseEngine, **setup: Any) -> dict[str, int]:
    setup.setdefault("turn", {"number": 3, "active": "A", "step": "precombat_main"})
    return engine.new_game("modern", setup)["handles"]


def obs(engine: PhaseEngine, player: str | None = None) -> dict[str, Any]:
    observation = engine.observe(player) if player else engine.observe()
    message = {"id": 1, "result": {"observation": observation}}
    assert schemas.first_error("protocol/observe.json#response", message) is None
    return observation


def names(objects: list[dict[str, Any]]) -> list[str]:
    return [o["card"] for o in objects]


def by_id(observation: dict[str, Any], oid: int) -> dict[str, Any]:
    return next(o for o in observation["battlefield"] if o["id"] == oid)


# ---- card data ----

def test_card_data_is_generated_outside_the_repository_and_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("MTGCONF_CACHE_DIR", str(tmp_path))
    carddata.card_database.cache_clear()
    try:
        database = carddata.card_database()
        assert database.path.is_relative_to(tmp_path)
        faces = json.loads(database.path.read_text(encoding="utf-8"))
        assert faces["lightning bolt"]["abilities"][0]["effect"]["type"] == "DealDamage"
        assert "Contract from Below" in database.excluded
        assert "unimplemented" in database.excluded["Contract from Below"]
        modern = set(default_pool().edition("modern"))
        assert set(database.cards) == modern - set(database.excluded)
        again = carddata.card_database.__wrapped__()
        assert again.path == database.path and again.cards == database.cards
    finally:
        carddata.card_database.cache_clear()


def test_atomic_cards_carry_the_fields_the_generator_reads():
    pool = default_pool().edition("modern")
    goblin = carddata.atomic_card(pool["Raging Goblin"])
    assert goblin["manaCost"] == "{R}" and goblin["manaValue"] == 1
    assert goblin["keywords"] == ["Haste"] and goblin["power"] == "1"
    assert carddata.keywords(pool["Rancor"]) == ["Enchant"]  # trample is granted, not Rancor's
    assert "manaCost" not in carddata.atomic_card(pool["Forest"])


# ---- hello ----

def test_hello_declares_modern_auto_payment_and_incarnations(engine):
    info = engine.hello(1.1)
    assert schemas.first_error("protocol/hello.json#response", {"id": 1, "result": info}) \
        is None
    assert info["editions"] == ["modern"]
    capabilities = set(info["capabilities"])
    assert {"pay.auto", "observe.incarnation", "setup.state", "setup.start"} <= capabilities
    assert not capabilities & {"pay.pool", "pay.sources", "setup.mana_pool",
                               "setup.library_order", "setup.sideboard"}
    assert "Contract from Below" not in info["cards"]["modern"]
    assert "Grizzly Bears" in info["cards"]["modern"]


def test_the_named_engine_is_this_adapter_and_its_expectations_name_real_cases():
    row = named("phase")
    assert row is not None and row.target == "conformance.engines.phase.adapter:PhaseEngine"
    expectations = row.expectations_file()
    assert expectations == Path(carddata.__file__).with_name("expectations.yaml")
    cases = load_checked([Path(conformance.__file__).parent / "cases"])
    loaded = Expectations.load(expectations, cases.ids)
    assert loaded.entries and all(e.reason for e in loaded.entries.values())


def test_a_cr2004_game_is_unsupported(engine):
    with pytest.raises(Unsupported):
        engine.new_game("cr2004", {"start": "game", "seed": 1,
                                   "decks": {"A": ["Forest"], "B": ["Forest"]}})


def test_an_unknown_card_is_unsupported(engine):
    with pytest.raises(Unsupported, match="Contract from Below"):
        state(engine, players={"A": {"hand": ["Contract from Below"]}})


# ---- seeded starts ----

def test_a_seeded_start_deals_seven_and_asks_each_player_to_keep(engine):
    handles = engine.new_game("modern", {
        "start": "game", "seed": 4, "first_player": "A",
        "decks": {"A": [{"handle": "bolt", "card": "Lightning Bolt"},
                        {"card": "Mountain", "count": 6}],
                  "B": [{"card": "Forest", "count": 40}]}})["handles"]
    o = obs(engine)
    assert len(o["players"]["A"]["hand"]) == 7 and len(o["players"]["B"]["library"]) == 33
    assert handles["bolt"] in [c["id"] for c in o["players"]["A"]["hand"]]
    assert o["pending"] == {"player": "A", "decision": "mulligan"}
    actions = engine.legal_actions()
    assert {"action": "keep", "player": "A"} in actions
    with pytest.raises(IllegalAction):
        engine.perform({"action": "play_land", "player": "A", "card": handles["bolt"]})
    engine.perform({"action": "keep", "player": "A"})
    assert obs(engine)["pending"] == {"player": "B", "decision": "mulligan"}
    engine.perform({"action": "keep", "player": "B"})
    o = obs(engine)
    assert o["pending"] is None
    assert o["turn"] == {"number": 1, "active": "A", "phase": "beginning", "step": "upkeep",
                         "priority": "A"}


def test_shuffle_false_keeps_the_deck_order(engine):
    deck = ["Forest", "Llanowar Elves", "Mountain", "Giant Growth", "Lightning Bolt", "Plains",
            "Plains", "Island", "Swamp", "Forest", "Mountain"]
    handles = engine.new_game("modern", {
        "start": "game", "seed": 1, "first_player": "A", "shuffle": False,
        "decks": {"A": [*deck[:3], {"handle": "growth", "card": "Giant Growth"}, *deck[4:]],
                  "B": [{"card": "Forest", "count": 40}]}})["handles"]
    o = obs(engine)
    assert sorted(names(o["players"]["A"]["hand"])) == sorted(deck[:7])
    assert names(o["players"]["A"]["library"]) == deck[7:]
    assert handles["growth"] in [c["id"] for c in o["players"]["A"]["hand"]]


# ---- given states ----

def test_a_given_state_puts_every_object_where_it_says(engine):
    handles = state(engine, players={
        "A": {"life": 7, "poison": 2, "hand": [{"handle": "bolt", "card": "Lightning Bolt"}],
              "library": ["Island", "Forest"], "graveyard": ["Shock", "Giant Growth"]},
        "B": {"life": 3}},
        battlefield=[{"handle": "m", "card": "Mountain", "controller": "A", "tapped": True},
                     {"handle": "bears", "card": "Grizzly Bears", "owner": "B",
                      "controller": "A", "sick": True, "damage": 1},
                     {"handle": "hs", "card": "Holy Strength", "controller": "B",
                      "attached_to": "bears"},
                     {"handle": "token", "card": "Savannah Lions", "controller": "B",
                      "token": True}],
        exile=[{"card": "Lava Axe", "owner": "B"}])
    o = obs(engine)
    a, b = o["players"]["A"], o["players"]["B"]
    assert (a["life"], a["poison"], b["life"]) == (7, 2, 3)
    assert names(a["library"]) == ["Island", "Forest"]
    assert names(a["graveyard"]) == ["Shock", "Giant Growth"]  # top first
    assert names(o["exile"]) == ["Lava Axe"] and o["exile"][0]["owner"] == "B"
    bears = by_id(o, handles["bears"])
    assert (bears["owner"], bears["controller"], bears["sick"], bears["damage"]) == \
        ("B", "A", True, 1)
    assert (bears["power"], bears["toughness"]) == (3, 4)  # Holy Strength applies
    assert by_id(o, handles["hs"])["attached_to"] == handles["bears"]
    assert by_id(o, handles["m"])["tapped"] is True
    assert by_id(o, handles["token"])["token"] is True
    assert o["turn"] == {"number": 3, "active": "A", "phase": "precombat_main",
                         "step": "precombat_main", "priority": "A"}
    assert all(isinstance(x["incarnation"], int) for x in o["battlefield"])


def test_a_given_state_can_start_in_another_players_turn_and_step(engine):
    state(engine, turn={"number": 4, "active": "B", "step": "upkeep"},
          players={"A": {"library": ["Forest"]}, "B": {"library": ["Forest"]}})
    o = obs(engine)
    assert o["turn"]["active"] == "B" and o["turn"]["step"] == "upkeep"
    engine.perform({"action": "pass", "player": "B"})
    engine.perform({"action": "pass", "player": "A"})
    o = obs(engine)
    assert o["turn"]["step"] == "draw" and len(o["players"]["B"]["hand"]) == 1


def test_a_player_sees_only_their_own_hand_and_no_library(engine):
    state(engine, players={"A": {"hand": ["Island"], "library": ["Forest"]},
                           "B": {"hand": ["Swamp"], "library": ["Plains"]}})
    o = obs(engine, "A")
    assert names(o["players"]["A"]["hand"]) == ["Island"]
    assert o["players"]["B"]["hand"] == [{"hidden": True}]
    assert o["players"]["A"]["library"] == [{"hidden": True}]


# ---- actions ----

def test_casting_lists_targets_with_the_actor_and_auto_payment(engine):
    handles = state(engine, players={"A": {"hand": [{"handle": "bolt",
                                                     "card": "Lightning Bolt"}]}},
                    battlefield=[{"handle": "m", "card": "Mountain", "controller": "A"},
                                 {"handle": "bears", "card": "Grizzly Bears",
                                  "controller": "B"}])
    actions = engine.legal_actions()
    assert {"action": "pass", "player": "A"} in actions
    assert {"action": "concede", "player": "B"} in actions
    casts = [a for a in actions if a["action"] == "cast"]
    assert all(a["player"] == "A" and a["pay_with"] == "auto" for a in casts)
    assert sorted(json.dumps(a["targets"]) for a in casts) == sorted(
        json.dumps(t) for t in ([{"player": "A"}], [{"player": "B"}],
                                [{"object": handles["bears"]}]))
    with pytest.raises(BadRequest):
        engine.perform({**casts[0], "pay_with": [handles["m"]]})


def test_a_cast_goes_on_the_stack_with_its_targets_and_keeps_its_id(engine):
    handles = state(engine, players={"A": {"hand": [{"handle": "bolt",
                                                     "card": "Lightning Bolt"}]}},
                    battlefield=[{"handle": "m", "card": "Mountain", "controller": "A"}])
    before = obs(engine)["players"]["A"]["hand"][0]["incarnation"]
    engine.events()
    engine.perform({"action": "cast", "player": "A", "card": handles["bolt"],
                    "targets": [{"player": "B"}], "pay_with": "auto"})
    o = obs(engine)
    top = o["stack"][0]
    assert (top["id"], top["kind"], top["card"], top["targets"]) == \
        (handles["bolt"], "spell", "Lightning Bolt", [{"player": "B"}])
    assert o["turn"]["priority"] == "A"
    moves = [e for e in engine.events() if e["type"] == "zone_change"]
    assert moves[0]["object"] == moves[0]["new_object"] == handles["bolt"]
    assert (moves[0]["from"], moves[0]["to"]) == ("hand", "stack")
    assert moves[0]["incarnation"] != before == top["incarnation"] - 1
    engine.perform({"action": "pass", "player": "A"})
    engine.perform({"action": "pass", "player": "B"})
    o = obs(engine)
    assert o["players"]["B"]["life"] == 17
    assert names(o["players"]["A"]["graveyard"]) == ["Lightning Bolt"]


def test_an_illegal_target_or_player_changes_nothing(engine):
    handles = state(engine, players={"A": {"hand": [{"handle": "growth",
                                                     "card": "Giant Growth"}]}},
                    battlefield=[{"handle": "f", "card": "Forest", "controller": "A"},
                                 {"handle": "bears", "card": "Grizzly Bears",
                                  "controller": "B"}])
    before = obs(engine)
    with pytest.raises(IllegalAction):
        engine.perform({"action": "cast", "player": "A", "card": handles["growth"],
                        "targets": [{"player": "B"}], "pay_with": "auto"})
    with pytest.raises(IllegalAction):
        engine.perform({"action": "pass", "player": "B"})
    assert obs(engine) == before


def test_one_land_per_turn(engine):
    handles = state(engine, players={"A": {"hand": [{"handle": "f1", "card": "Forest"},
                                                    {"handle": "f2", "card": "Forest"}]}})
    engine.perform({"action": "play_land", "player": "A", "card": handles["f1"]})
    assert obs(engine)["players"]["A"]["lands_played"] == 1
    with pytest.raises(IllegalAction):
        engine.perform({"action": "play_land", "player": "A", "card": handles["f2"]})


def test_attackers_and_blockers_are_declared_one_by_one_then_done(engine):
    handles = state(engine, turn={"number": 3, "active": "A", "step": "beginning_of_combat"},
                    battlefield=[{"handle": "bears", "card": "Grizzly Bears", "controller": "A"},
                                 {"handle": "sick", "card": "Hill Giant", "controller": "A",
                                  "sick": True},
                                 {"handle": "lions", "card": "Savannah Lions",
                                  "controller": "B"}])
    engine.perform({"action": "pass", "player": "A"})
    engine.perform({"action": "pass", "player": "B"})
    assert obs(engine)["pending"] == {"player": "A", "decision": "declare_attackers"}
    with pytest.raises(IllegalAction):  # summoning sick: the engine does not list it
        engine.perform({"action": "attack", "player": "A", "card": handles["sick"]})
    engine.perform({"action": "attack", "player": "A", "card": handles["bears"]})
    engine.perform({"action": "done", "player": "A"})
    assert obs(engine)["turn"]["step"] == "declare_attackers"
    engine.perform({"action": "pass", "player": "A"})
    engine.perform({"action": "pass", "player": "B"})
    assert obs(engine)["pending"]["decision"] == "declare_blockers"
    block = {"action": "block", "player": "B", "card": handles["lions"],
             "attacker": handles["bears"]}
    assert block in engine.legal_actions()
    engine.perform(block)
    engine.perform({"action": "done", "player": "B"})
    engine.perform({"action": "pass", "player": "A"})
    engine.perform({"action": "pass", "player": "B"})
    o = obs(engine)
    assert o["turn"]["step"] == "combat_damage"
    assert names(o["players"]["B"]["graveyard"]) == ["Savannah Lions"]


def test_discards_are_collected_until_the_count_is_reached(engine):
    handles = state(engine, turn={"number": 3, "active": "A", "step": "end"},
                    players={"A": {"hand": [{"handle": f"i{n}", "card": "Island"}
                                            for n in range(9)],
                                   "library": ["Island"]},
                             "B": {"library": ["Island"]}})
    engine.perform({"action": "pass", "player": "A"})
    engine.perform({"action": "pass", "player": "B"})
    assert obs(engine)["pending"] == {"player": "A", "decision": "discard", "count": 2}
    engine.perform({"action": "discard", "player": "A", "card": handles["i0"]})
    assert obs(engine)["pending"]["count"] == 1
    with pytest.raises(IllegalAction):
        engine.perform({"action": "discard", "player": "A", "card": handles["i0"]})
    engine.perform({"action": "discard", "player": "A", "card": handles["i1"]})
    o = obs(engine)
    assert len(o["players"]["A"]["hand"]) == 7 and len(o["players"]["A"]["graveyard"]) == 2


def test_brainstorm_puts_back_the_last_chosen_card_on_top(engine):
    handles = state(engine, players={"A": {"hand": [{"handle": "brainstorm",
                                                     "card": "Brainstorm"},
                                                    {"handle": "mountain", "card": "Mountain"},
                                                    {"handle": "plains", "card": "Plains"}],
                                           "library": ["Forest"] * 4}},
                    battlefield=[{"card": "Island", "controller": "A"}])
    engine.perform({"action": "cast", "player": "A", "card": handles["brainstorm"],
                    "pay_with": "auto"})
    engine.perform({"action": "pass", "player": "A"})
    engine.perform({"action": "pass", "player": "B"})
    assert obs(engine)["pending"] == {"player": "A", "decision": "put_on_top", "count": 2}
    engine.perform({"action": "choose", "player": "A", "choice": handles["mountain"]})
    engine.perform({"action": "choose", "player": "A", "choice": handles["plains"]})
    assert names(obs(engine)["players"]["A"]["library"])[:3] == ["Plains", "Mountain", "Forest"]


def test_a_concession_ends_the_game(engine):
    state(engine)
    engine.perform({"action": "concede", "player": "B"})
    o = obs(engine)
    assert o["result"] == {"over": True, "winners": ["A"], "losers": ["B"], "draw": False,
                           "reason": "concede"}
    assert engine.legal_actions() == []


def test_every_event_matches_the_event_schema(engine):
    # Damage, life and a game's end, as the adapter reports them, by event.json's clauses.
    handles = state(engine, players={"A": {"hand": [{"handle": "bolt",
                                                     "card": "Lightning Bolt"}]}},
                    battlefield=[{"handle": "m", "card": "Mountain", "controller": "A"}])
    engine.events()
    engine.perform({"action": "cast", "player": "A", "card": handles["bolt"],
                    "targets": [{"player": "B"}], "pay_with": "auto"})
    engine.perform({"action": "pass", "player": "A"})
    engine.perform({"action": "pass", "player": "B"})
    engine.perform({"action": "concede", "player": "B"})
    events = engine.events()
    assert {"damage", "life", "game_over"} <= {e["type"] for e in events}
    for event in events:
        assert schemas.first_error("protocol/event.json", event) is None, event


def test_tropical_island_abilities_are_in_protocol_order(engine):
    assert engine._ability_orders("Tropical Island") == [1, 0]  # phase lists blue first
    assert engine._ability_orders("Mishra's Factory") == [0, 1, 2]


def test_the_deviation_scripts_run(capsys):
    from conformance.engines.phase import deviations

    assert deviations.main(["wrath", "plow-under"]) == 0
    out = capsys.readouterr().out
    assert "404.3" in out and "601.2c" in out
    assert deviations.main(["no-such-deviation"]) == 2


def test_a_london_mulligan_ends_with_cards_put_on_the_bottom(engine):
    engine.new_game("modern", {"start": "game", "seed": 1, "first_player": "A",
                               "decks": {"A": [{"card": "Forest", "count": 40}],
                                         "B": [{"card": "Island", "count": 40}]}})
    engine.perform({"action": "mulligan", "player": "A"})
    engine.perform({"action": "keep", "player": "A"})
    o = obs(engine)
    assert o["pending"] == {"player": "A", "decision": "bottom", "count": 1}
    card = o["players"]["A"]["hand"][0]["id"]
    assert {"action": "choose", "player": "A", "choice": card} in engine.legal_actions()
    engine.perform({"action": "choose", "player": "A", "choice": card})
    o = obs(engine)
    assert len(o["players"]["A"]["hand"]) == 6 and o["players"]["A"]["library"][-1]["id"] == card
    assert o["pending"] == {"player": "B", "decision": "mulligan"}
