"""The python-mtg adapter (conformance/engines/python_mtg): what it declares and how it
translates the engine's games, checked on games played through it. Runs when the extra is
installed (``pip install -e '.[python-mtg]'``) and is skipped otherwise."""

from __future__ import annotations

import pytest

pytest.importorskip("mtg", reason="python-mtg is not installed (pip install -e '.[python-mtg]')")

from conformance.engines.python_mtg import cards
from conformance.engines.python_mtg.adapter import (
    BadRequest,
    IllegalAction,
    PythonMtgEngine,
    Unsupported,
)
from conformance.schemas import ProtocolValidator

VALIDATOR = ProtocolValidator()


@pytest.fixture(scope="module")
def engine() -> PythonMtgEngine:
    adapter = PythonMtgEngine()
    VALIDATOR.check_response("hello", {"id": 1, "result": adapter.hello(1.1)})
    return adapter


def start(engine: PythonMtgEngine, a: list, b: list, *, first: str = "A", seed: int = 1,
          shuffle: bool = False) -> dict:
    setup = {"start": "game", "seed": seed, "first_player": first, "decks": {"A": a, "B": b}}
    if not shuffle:
        setup["shuffle"] = False
    VALIDATOR.check_request({"id": 2, "command": "new_game",
                             "args": {"edition": "modern", "setup": setup}})
    result = engine.new_game("modern", setup)
    VALIDATOR.check_response("new_game", {"id": 2, "result": result})
    return result["handles"]


def observe(engine: PythonMtgEngine, player: str | None = None) -> dict:
    observation = engine.observe(player)
    VALIDATOR.check_response("observe", {"id": 3, "result": {"observation": observation}})
    return observation


def do(engine: PythonMtgEngine, **action) -> list:
    engine.perform(action)
    events = engine.events()
    VALIDATOR.check_response("events", {"id": 4, "result": {"events": events}})
    return events


def named(observation: dict, zone: list, card: str) -> list[str]:
    return [o["id"] for o in zone if o.get("card") == card]


def advance(engine: PythonMtgEngine, turn: int, step: str) -> None:
    """Pass (and declare nothing) until turn and step, as the harness's advance does."""
    for _ in range(200):
        seen = observe(engine)
        if (seen["turn"]["number"], seen["turn"]["step"]) == (turn, step):
            return
        assert not seen["result"]["over"], seen["result"]
        pending = seen["pending"]
        if pending is None:
            do(engine, action="pass", player=seen["turn"]["priority"])
        elif pending["decision"] in ("declare_attackers", "declare_blockers"):
            do(engine, action="done", player=pending["player"])
        else:
            do(engine, **engine.legal_actions()[0])
    raise AssertionError(f"never reached turn {turn} {step}")


# ---- declaration ----

def test_hello_declares_only_checked_cards(engine):
    hello = engine.hello(1.1)
    assert hello["editions"] == ["modern"]
    assert set(hello["capabilities"]) == {
        "setup.start", "setup.deck_order", "setup.state", "pay.auto", "observe.stack",
        "observe.events", "observe.view", "observe.library", "observe.incarnation"}
    declared = set(hello["cards"]["modern"])
    assert {"Forest", "Grizzly Bears", "Lightning Bolt", "Giant Growth"} <= declared
    assert declared <= set(cards.EXPECTED)
    assert "Lava Axe" not in declared


def test_card_check_refuses_what_the_engine_only_pretends_to_have(monkeypatch):
    # python-mtg accepts any name as a blank card: the check is the adapter's.
    assert cards.check("Zzyzx Qwerty") is not None
    assert cards.check("Grizzly Bears") is None
    wrong = cards.Expected(types=frozenset({"creature"}), subtypes=frozenset({"bear"}),
                           colors=frozenset({"green"}), power=3, toughness=3)
    monkeypatch.setitem(cards.EXPECTED, "Grizzly Bears", wrong)
    assert "power" in cards.check("Grizzly Bears")
    # Lava Axe shares its slug with the Un-card "Lava, Axe": the engine merges the two.
    monkeypatch.setitem(cards.EXPECTED, "Lava Axe", cards.Expected(
        types=frozenset({"sorcery"}), colors=frozenset({"red"}),
        effects=frozenset({("deal_damage", "5", "target_player_or_planeswalker")})))
    assert "Lava, Axe" in cards.check("Lava Axe")


def test_undeclared_setups_are_unsupported(engine):
    with pytest.raises(Unsupported):
        engine.new_game("cr2004", {"start": "game", "seed": 1, "decks": {
            "A": [{"card": "Forest", "count": 40}], "B": [{"card": "Forest", "count": 40}]}})
    with pytest.raises(Unsupported):
        start(engine, ["Zzyzx Qwerty"] * 40, ["Forest"] * 40)
    turn = {"number": 3, "active": "A", "step": "precombat_main"}
    for departure in ({"battlefield": [{"card": "Forest", "controller": "A", "tapped": True}]},
                      {"battlefield": [{"card": "Forest", "controller": "A", "owner": "B"}]},
                      {"players": {"A": {"mana_pool": {"G": 1}}}},
                      {"players": {"A": {"graveyard": ["Forest"]}}}):
        with pytest.raises(Unsupported):
            engine.new_game("modern", {"turn": turn, **departure})


# ---- start and observation ----

def test_seeded_start_is_deterministic_and_the_first_player_draws(engine):
    decks = ([{"handle": "bears", "card": "Grizzly Bears"}, {"card": "Forest", "count": 39}],
             [{"card": "Island", "count": 40}])
    handles = start(engine, *decks, shuffle=True, seed=5)
    first = observe(engine)
    assert handles["bears"] in [o["id"] for zone in ("hand", "library")
                                for o in first["players"]["A"][zone]]
    assert start(engine, *decks, shuffle=True, seed=5) == handles
    assert observe(engine) == first
    # The engine's first decision point is the first player's main phase; that player has
    # drawn (a deviation: 103.8a, the first player skips that draw).
    assert first["turn"] == {"number": 1, "active": "A", "phase": "precombat_main",
                             "step": "precombat_main", "priority": "A"}
    assert len(first["players"]["A"]["hand"]) == 8
    assert len(first["players"]["A"]["library"]) == 32
    assert len(first["players"]["B"]["hand"]) == 7
    assert first["stack"] == [] and first["pending"] is None


def test_deck_order_deals_the_top_seven_and_keeps_the_rest_in_order(engine):
    deck = ["Forest", "Llanowar Elves", "Mountain", "Giant Growth", "Lightning Bolt", "Plains",
            "Plains", "Island", "Swamp", {"handle": "last", "card": "Forest"}]
    handles = start(engine, deck, [{"card": "Forest", "count": 40}], first="B")
    seen = observe(engine)
    assert sorted(o["card"] for o in seen["players"]["A"]["hand"]) == sorted(
        ["Forest", "Llanowar Elves", "Mountain", "Giant Growth", "Lightning Bolt", "Plains",
         "Plains"])
    assert [o["card"] for o in seen["players"]["A"]["library"]] == ["Island", "Swamp", "Forest"]
    assert seen["players"]["A"]["library"][-1]["id"] == handles["last"]


def test_a_players_view_hides_libraries_and_the_opponents_hand(engine):
    start(engine, ["Forest"] * 20, ["Island"] * 20)
    view = observe(engine, "A")
    assert all("hidden" not in o for o in view["players"]["A"]["hand"])
    assert all(o == {"hidden": True} for o in view["players"]["B"]["hand"])
    assert all(o == {"hidden": True} for p in "AB" for o in view["players"][p]["library"])
    assert len(view["players"]["B"]["library"]) == len(observe(engine)["players"]["B"]["library"])


# ---- actions ----

def test_land_play_keeps_the_id_and_counts_an_incarnation(engine):
    start(engine, ["Forest"] * 20, ["Island"] * 20)
    before = observe(engine)
    forest = named(before, before["players"]["A"]["hand"], "Forest")[0]
    events = do(engine, action="play_land", player="A", card=forest)
    assert events == [{"type": "zone_change", "object": forest, "new_object": forest,
                       "incarnation": 1, "card": "Forest", "from": "hand",
                       "to": "battlefield", "owner": "A"}]
    after = observe(engine)
    assert [(o["id"], o["incarnation"], o["controller"]) for o in after["battlefield"]] == \
        [(forest, 1, "A")]
    assert after["players"]["A"]["lands_played"] == 1
    second = named(after, after["players"]["A"]["hand"], "Forest")[0]
    with pytest.raises(IllegalAction) as refused:
        engine.perform({"action": "play_land", "player": "A", "card": second})
    assert refused.value.reason == "land_already_played"
    assert observe(engine) == after


def test_only_the_player_who_decides_in_the_engine_has_priority(engine):
    start(engine, ["Forest"] * 20, ["Island"] * 20)
    before = observe(engine)
    with pytest.raises(IllegalAction) as refused:
        engine.perform({"action": "pass", "player": "B"})
    assert refused.value.reason == "not_your_priority"
    with pytest.raises(IllegalAction):
        engine.perform({"action": "keep", "player": "A"})
    with pytest.raises(Unsupported):
        engine.perform({"action": "concede", "player": "B"})
    with pytest.raises(BadRequest):
        engine.perform({"action": "pass", "player": "C"})
    assert observe(engine) == before


def test_bolt_goes_where_asked_or_is_refused_unchanged(engine):
    start(engine, ["Mountain", "Lightning Bolt", "Lightning Bolt"] + ["Mountain"] * 10,
          ["Forest"] * 20)
    seen = observe(engine)
    do(engine, action="play_land", player="A",
       card=named(seen, seen["players"]["A"]["hand"], "Mountain")[0])
    seen = observe(engine)
    bolt = named(seen, seen["players"]["A"]["hand"], "Lightning Bolt")[0]
    # python-mtg picks a Bolt's target itself (an enemy creature it can kill, else the
    # opponent): a Bolt at its own caster cannot be asked for.
    with pytest.raises(Unsupported):
        engine.perform({"action": "cast", "player": "A", "card": bolt,
                        "targets": [{"player": "A"}], "pay_with": "auto"})
    assert observe(engine) == seen
    with pytest.raises(BadRequest):
        engine.perform({"action": "cast", "player": "A", "card": bolt,
                        "targets": [{"player": "B"}], "pay_with": ["mountain_0"]})
    events = do(engine, action="cast", player="A", card=bolt, targets=[{"player": "B"}],
                pay_with="auto")
    after = observe(engine)
    assert after["players"]["B"]["life"] == 17
    assert [o["card"] for o in after["players"]["A"]["graveyard"]] == ["Lightning Bolt"]
    assert (bolt, "hand", "graveyard") in {(e["object"], e["from"], e["to"]) for e in events}
    # The spell resolved inside the move: it was never on the stack with priority (405, 117.3c).
    assert after["stack"] == []


def test_combat_declarations_and_a_block(engine):
    a = ["Forest", "Grizzly Bears", "Forest", "Forest", "Forest", "Forest", "Forest", "Forest",
         "Forest", "Forest"]
    b = ["Forest", "Grizzly Bears", "Forest", "Forest", "Forest", "Forest", "Forest", "Forest",
         "Forest", "Forest"]
    start(engine, a, b)
    for turn, player in ((1, "A"), (2, "B"), (3, "A")):
        advance(engine, turn, "precombat_main")
        seen = observe(engine)
        do(engine, action="play_land", player=player,
           card=named(seen, seen["players"][player]["hand"], "Forest")[0])
    seen = observe(engine)
    mine = named(seen, seen["players"]["A"]["hand"], "Grizzly Bears")[0]
    do(engine, action="cast", player="A", card=mine, pay_with="auto")
    advance(engine, 4, "precombat_main")
    seen = observe(engine)
    do(engine, action="play_land", player="B",
       card=named(seen, seen["players"]["B"]["hand"], "Forest")[0])
    theirs = named(observe(engine), observe(engine)["players"]["B"]["hand"], "Grizzly Bears")[0]
    do(engine, action="cast", player="B", card=theirs, pay_with="auto")
    advance(engine, 5, "declare_attackers")
    seen = observe(engine)
    assert seen["pending"] == {"player": "A", "decision": "declare_attackers"}
    assert seen["turn"]["priority"] is None
    with pytest.raises(IllegalAction):
        engine.perform({"action": "pass", "player": "A"})
    do(engine, action="attack", player="A", card=mine)
    do(engine, action="done", player="A")
    seen = observe(engine)
    assert seen["pending"] == {"player": "B", "decision": "declare_blockers"}
    assert {"action": "block", "player": "B", "card": theirs, "attacker": mine} in \
        engine.legal_actions()
    do(engine, action="block", player="B", card=theirs, attacker=mine)
    events = do(engine, action="done", player="B")
    after = observe(engine)
    assert {(e["object"], e["to"]) for e in events} >= {(mine, "graveyard"),
                                                        (theirs, "graveyard")}
    assert named(after, after["players"]["A"]["graveyard"], "Grizzly Bears") == [mine]


def test_a_choice_inside_a_move_is_a_pending_decision(engine):
    # A holds eight cards at the end of turn 1 (it drew): the cleanup discard is a choice the
    # engine makes inside A's pass; the adapter asks it, then replays the move with it.
    start(engine, ["Island"] * 20, ["Forest"] * 20)
    seen = observe(engine)
    hand = [o["id"] for o in seen["players"]["A"]["hand"]]
    for _ in range(20):
        if observe(engine)["pending"] is not None:
            break
        do(engine, action="pass", player="A")
    seen = observe(engine)
    assert seen["pending"] == {"player": "A", "decision": "discard", "count": 1}
    assert (seen["turn"]["number"], seen["turn"]["step"]) == (1, "cleanup")
    assert {a["card"] for a in engine.legal_actions()} == set(hand)
    with pytest.raises(IllegalAction):
        engine.perform({"action": "discard", "player": "B", "card": hand[0]})
    with pytest.raises(IllegalAction):
        engine.perform({"action": "discard", "player": "A", "card": "forest_99"})
    events = do(engine, action="discard", player="A", card=hand[3])
    after = observe(engine)
    assert after["pending"] is None
    assert (hand[3], "graveyard") in {(e["object"], e["to"]) for e in events}
    assert [o["id"] for o in after["players"]["A"]["graveyard"]] == [hand[3]]
    assert after["turn"]["active"] == "B"


def test_a_seven_card_deck_loses_on_the_first_draw(engine):
    # 103.8a: the first player skips the first draw; python-mtg draws, from an empty library.
    start(engine, ["Forest"] * 7, ["Island"] * 20)
    seen = observe(engine)
    assert seen["result"] == {"over": True, "winners": ["B"], "losers": ["A"], "draw": False,
                              "reason": "draw_empty_library"}
    assert (seen["turn"]["number"], seen["turn"]["step"]) == (1, "draw")
    with pytest.raises(IllegalAction):
        engine.perform({"action": "pass", "player": "A"})


def test_a_given_state_is_loaded_at_its_step(engine):
    setup = {"seed": 1, "turn": {"number": 3, "active": "B", "step": "precombat_main"},
             "players": {"A": {"life": 3, "library": ["Island", "Island"]},
                         "B": {"hand": [{"handle": "bolt", "card": "Lightning Bolt"}],
                               "library": ["Mountain"]}},
             "battlefield": [{"handle": "mountain", "card": "Mountain", "controller": "B"},
                             {"handle": "bears", "card": "Grizzly Bears", "controller": "A"}]}
    VALIDATOR.check_request({"id": 2, "command": "new_game",
                             "args": {"edition": "modern", "setup": setup}})
    handles = engine.new_game("modern", setup)["handles"]
    seen = observe(engine)
    assert seen["turn"] == {"number": 3, "active": "B", "phase": "precombat_main",
                            "step": "precombat_main", "priority": "B"}
    assert seen["players"]["A"]["life"] == 3
    assert [o["card"] for o in seen["players"]["A"]["library"]] == ["Island", "Island"]
    assert [o["id"] for o in seen["players"]["B"]["hand"]] == [handles["bolt"]]
    bears = next(o for o in seen["battlefield"] if o["id"] == handles["bears"])
    assert (bears["controller"], bears["tapped"], bears["sick"], bears["power"]) == \
        ("A", False, False, 2)
    # B's Bolt: python-mtg would kill the Bears (the creature it can kill), not hit A.
    with pytest.raises(Unsupported):
        engine.perform({"action": "cast", "player": "B", "card": handles["bolt"],
                        "targets": [{"player": "A"}], "pay_with": "auto"})
    events = do(engine, action="cast", player="B", card=handles["bolt"],
                targets=[{"object": handles["bears"]}], pay_with="auto")
    assert (handles["bears"], "battlefield", "graveyard") in {
        (e["object"], e["from"], e["to"]) for e in events}
    assert observe(engine)["players"]["A"]["life"] == 3
