"""The bundled suite under every dialect of the protocol and every capability ablation
(tests/fakes/dialects.py, docs/protocol.md, Dialects): only pass or skip, never fail or error.
This is the check that a case needs only what it declares and passes however a correct engine
speaks the protocol; each parametrization runs the whole suite (both editions) in-process, so
xdist spreads them over its workers.

A parametrization that fails today is marked ``xfail(strict=True)`` with its defect class:
once the cases or the harness are mended it passes, the strict mark turns that into a
failure, and the mark goes. Then come the shims' own tests: each speaks its dialect (a shim
that changed nothing would prove nothing), each ablation refuses or hides what it withdrew,
and the forbidden dialects do not pass.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from conformance import casefile
from conformance.runner import RunOptions, run_case
from conformance.session import EngineSession
from conformance.transports import EngineSpec
from reference_engine.engine import ReferenceEngine
from reference_engine.errors import BadRequestError, IllegalActionError, UnsupportedError
from tests.fakes import dialects

CASES = casefile.load().cases

# The defect classes of the parametrizations that fail today, by shim (DIALECT-FINDINGS.md
# had seven: all mended, in the cases and in the harness, conformance/observed.py).
KNOWN: dict[str, str] = {}

SPEAKERS = [*dialects.DIALECTS, *(cls.__name__ for cls in dialects.ABLATIONS.values())]


def _marked(names: list[str]) -> list[Any]:
    return [pytest.param(name, id=name, marks=pytest.mark.xfail(strict=True, reason=KNOWN[name]))
            if name in KNOWN else pytest.param(name, id=name) for name in names]


#: The ablations of a setup capability change only what new_game accepts: their messages are
#: the reference engine's own, which tests/test_suite_reference.py validates over the wire;
#: every other shim's are validated here (a second of each run's few).
UNCHANGED_MESSAGES = frozenset(cls.__name__ for capability, cls in dialects.ABLATIONS.items()
                               if capability.startswith("setup."))


def run_suite(name: str) -> tuple[dict[str, int], list[str]]:
    """Every bundled case in each of its editions on the shim ``name``, every message checked
    against the schemas: the count of each status, and a line for each run that neither passed
    nor skipped."""
    session = EngineSession(EngineSpec.parse(f"py:tests.fakes.dialects:{name}"),
                            validate=name not in UNCHANGED_MESSAGES)
    session.start()
    counts: dict[str, int] = {}
    bad: list[str] = []
    try:
        for case in CASES:
            for edition in case.editions:
                outcome = run_case(case, edition, session, RunOptions(case_timeout=30))
                counts[outcome.status] = counts.get(outcome.status, 0) + 1
                if outcome.status not in ("pass", "skip"):
                    bad.append(f"{case.id} [{edition}] {outcome.status} at {case.location}: "
                               f"{outcome.message[:300]}")
    finally:
        session.close()
    return counts, bad


@pytest.mark.parametrize("name", _marked(SPEAKERS))
def test_the_suite_passes_or_skips_in_every_dialect_and_ablation(name):
    counts, bad = run_suite(name)
    assert not bad, (f"{len(bad)} of {sum(counts.values())} case runs neither passed nor "
                     f"skipped on {name}:\n" + "\n".join(bad))
    assert counts.get("pass", 0) >= 150, counts  # it ran something


@pytest.mark.parametrize("name", _marked(list(dialects.FORBIDDEN)))
def test_the_suite_fails_a_forbidden_dialect(name):
    counts, bad = run_suite(name)
    assert bad, f"{name} breaks the protocol, yet every case passed or skipped: {counts}"


# ---- each shim speaks its dialect ---------------------------------------------------------------

GIVEN = {
    "turn": {"number": 3, "active": "A", "step": "precombat_main"},
    "players": {"A": {"hand": [{"handle": "forest", "card": "Forest"},
                               {"handle": "bears", "card": "Grizzly Bears"},
                               {"handle": "bolt", "card": "Lightning Bolt"}],
                      "library": ["Island", "Island"]},
                "B": {"library": ["Island"]}},
    "battlefield": [{"handle": "mountain-1", "card": "Mountain", "controller": "A"},
                    {"handle": "mountain-2", "card": "Mountain", "controller": "A"},
                    {"handle": "elves", "card": "Llanowar Elves", "controller": "B"}],
}
SEEDED = {"start": "game", "seed": 3, "first_player": "A",
          "decks": {"A": ["Forest", "Island", "Mountain", "Plains", "Swamp", "Grizzly Bears",
                          "Lightning Bolt", "Giant Growth", "Llanowar Elves", "Counterspell"],
                    "B": [{"card": "Forest", "count": 10}]}}


def started(engine: Any, setup: dict[str, Any] = GIVEN, edition: str = "modern"
            ) -> dict[str, Any]:
    engine.hello(1.1)
    result = engine.new_game(edition, setup)
    return result.get("handles", result)


def play_forest_and_bolt(engine: Any) -> dict[str, Any]:
    """The reference's first moves on GIVEN: a land played, a Bolt cast and resolved."""
    ids = started(engine)
    engine.perform({"action": "play_land", "player": "A", "card": ids["forest"]})
    engine.perform({"action": "cast", "player": "A", "card": ids["bolt"],
                    "targets": [{"player": "B"}], "pay_with": [ids["mountain-1"]]})
    engine.perform({"action": "pass", "player": "A"})
    engine.perform({"action": "pass", "player": "B"})
    return ids


def words(observation: dict[str, Any]) -> list[str]:
    return [w for o in dialects.card_objects(observation)
            for key in ("types", "supertypes", "subtypes") for w in o[key]]


def test_lower_case_types_writes_type_words_in_lower_case_and_takes_any_case():
    engine, reference = dialects.LowerCaseTypes(), ReferenceEngine()
    started(engine), started(reference)
    assert "Land" in words(reference.observe())
    assert words(engine.observe()) == [w.lower() for w in words(reference.observe())]


def test_string_ids_names_every_object_by_a_string():
    engine = dialects.StringIds()
    ids = play_forest_and_bolt(engine)
    assert all(isinstance(i, str) for i in ids.values())
    observation = engine.observe()
    assert all(isinstance(o["id"], str) for o in dialects.objects_of(observation))
    assert all(isinstance(e["new_object"], str) for e in engine.events()
               if e["type"] == "zone_change")


def test_kept_ids_keep_an_id_across_a_zone_change_and_count_incarnations():
    engine = dialects.KeptIds()
    assert "observe.incarnation" in engine.hello(1.1)["capabilities"]
    ids = play_forest_and_bolt(engine)
    forest = next(o for o in engine.observe()["battlefield"] if o["card"] == "Forest")
    assert (forest["id"], forest["incarnation"]) == (ids["forest"], 1)
    moves = [e for e in engine.events() if e["type"] == "zone_change"
             and e["object"] in (ids["forest"], ids["bolt"])]
    assert [(e["object"] == e["new_object"], e["incarnation"]) for e in moves] == \
        [(True, 1), (True, 1), (True, 2)]  # Forest played; Bolt cast, then resolved


def test_kept_ids_without_events_declares_incarnations_and_no_events():
    capabilities = dialects.KeptIdsWithoutEvents().hello(1.1)["capabilities"]
    assert "observe.incarnation" in capabilities
    assert "observe.events" not in capabilities


def test_turn_zero_before_game_reports_turn_zero_while_hands_are_decided():
    engine = dialects.TurnZeroBeforeGame()
    started(engine, SEEDED)
    assert engine.observe()["turn"] | {"active": None} == {
        "number": 0, "active": None, "phase": None, "step": None, "priority": None}


def test_shuffled_lists_give_a_fresh_order_each_time():
    engine = dialects.ShuffledLists()
    started(engine)
    orders = {tuple(o["card"] for o in engine.observe()["players"]["A"]["hand"])
              for _ in range(12)}
    assert len(orders) > 1


def test_reversed_lists_reverse_every_unordered_list_and_keep_ordered_ones():
    engine, reference = dialects.ReversedLists(), ReferenceEngine()
    started(engine), started(reference)
    mine, theirs = engine.observe(), reference.observe()

    def ids(objects: list[dict[str, Any]]) -> list[Any]:
        return [o["id"] for o in objects]
    assert ids(mine["battlefield"]) == ids(theirs["battlefield"])[::-1]
    assert ids(mine["players"]["A"]["hand"]) == ids(theirs["players"]["A"]["hand"])[::-1]
    assert mine["players"]["A"]["library"] == theirs["players"]["A"]["library"]
    elves, theirs_elves = mine["battlefield"][0], theirs["battlefield"][-1]
    assert elves["subtypes"] == theirs_elves["subtypes"][::-1] == ["Druid", "Elf"]


def test_omits_optional_fields_leaves_them_out():
    engine = dialects.OmitsOptionalFields()
    play_forest_and_bolt(engine)
    for obj in engine.observe()["battlefield"]:
        assert not {"attacking", "blocking", "phased_out"} & set(obj)
    moves = [e for e in engine.events() if e["type"] == "zone_change"]
    assert moves and all("cause" not in e for e in moves)


def test_zone_changes_only_reports_zone_changes():
    engine = dialects.ZoneChangesOnly()
    play_forest_and_bolt(engine)
    assert {e["type"] for e in engine.events()} == {"zone_change"}


def test_adds_own_fields_to_objects_decisions_and_events():
    engine = dialects.AddsOwnFields()
    play_forest_and_bolt(engine)
    assert all("x_engine_ref" in o for o in dialects.objects_of(engine.observe()))
    events = engine.events()
    assert events[0]["type"] == "x_batch" and all("x_engine_seq" in e for e in events[1:])


def test_own_words_rejects_in_its_own_words():
    engine = dialects.OwnWords()
    ids = play_forest_and_bolt(engine)
    with pytest.raises(IllegalActionError) as rejected:
        engine.perform({"action": "play_land", "player": "A", "card": ids["bears"]})
    assert rejected.value.reason.startswith("x-")


def test_reseeded_randomness_deals_another_game_from_the_same_seed():
    def hands(engine: Any) -> list[tuple[str, ...]]:
        found = []
        for seed in range(4):
            started(engine, {**SEEDED, "seed": seed})
            found.append(tuple(o["card"] for o in engine.observe()["players"]["A"]["hand"]))
        return found
    assert hands(dialects.ReseededRandomness()) != hands(ReferenceEngine())


def test_bare_handles_returns_the_mapping_itself():
    engine = dialects.BareHandles()
    engine.hello(1.1)
    assert set(engine.new_game("modern", GIVEN)) == {"forest", "bears", "bolt", "mountain-1",
                                                     "mountain-2", "elves"}


def until_decided(engine: Any, decision: str) -> None:
    """Pass priority until ``decision`` is pending."""
    while (engine.observe()["pending"] or {}).get("decision") != decision:
        engine.perform({"action": "pass", "player": engine.observe()["turn"]["priority"]})


FIREBALL = {
    "turn": {"number": 3, "active": "A", "step": "precombat_main"},
    "players": {"A": {"hand": [{"handle": "fireball", "card": "Fireball"}]}},
    "battlefield": [*({"handle": f"mountain-{i}", "card": "Mountain", "controller": "A"}
                      for i in range(1, 5)),
                    {"handle": "bears-1", "card": "Grizzly Bears", "controller": "B"},
                    {"handle": "bears-2", "card": "Grizzly Bears", "controller": "B"}],
}


def fireballs(actions: list[dict[str, Any]], ids: dict[str, Any]) -> dict[int, set[int]]:
    """For each number of targets, the X values the listing gives Fireball."""
    found: dict[int, set[int]] = {}
    for action in actions:
        if action["action"] == "cast" and action["card"] == ids["fireball"]:
            found.setdefault(len(action["targets"]), set()).add(action.get("x", 0))
    return found


def test_full_listings_list_any_number_of_targets_whole_and_each_listing_is_legal():
    engine, reference = dialects.FullListings(), ReferenceEngine()
    ids, _ = started(engine, FIREBALL), started(reference, FIREBALL)
    # Four Mountains: {X}{R} and {1} per target beyond the first; four targets (two Bears,
    # two players).
    assert fireballs(reference.legal_actions(), ids) == {1: {0, 1, 2, 3}, 2: {0, 1, 2}}
    listed = engine.legal_actions()
    assert fireballs(listed, ids) == {1: {0, 1, 2, 3}, 2: {0, 1, 2}, 3: {0, 1}, 4: {0}}
    for action in (a for a in listed if a["action"] == "cast" and len(a["targets"]) > 2):
        fresh = ReferenceEngine()
        started(fresh, FIREBALL)
        fresh.perform(action)  # legal: the reference engine takes it
        assert fresh.observe()["stack"][0]["card"] == "Fireball"


WRATH = {
    "turn": {"number": 3, "active": "A", "step": "precombat_main"},
    "players": {"A": {"hand": [{"handle": "wrath", "card": "Wrath of God"}]}},
    "battlefield": [*({"handle": f"plains-{i}", "card": "Plains", "controller": "A"}
                      for i in range(1, 5)),
                    {"handle": "bears", "card": "Grizzly Bears", "controller": "A"},
                    {"handle": "elves", "card": "Llanowar Elves", "controller": "A"}],
}


def test_asks_one_answer_decisions_asks_the_last_card_of_a_graveyard_order():
    engine = dialects.AsksOneAnswerDecisions()
    ids = started(engine, WRATH)
    engine.perform({"action": "cast", "player": "A", "card": ids["wrath"],
                    "pay_with": [ids[f"plains-{i}"] for i in range(1, 5)]})
    until_decided(engine, "order_graveyard")
    engine.perform({"action": "choose", "player": "A", "choice": ids["elves"]})
    assert engine.observe()["pending"] == {"player": "A", "decision": "order_graveyard",
                                           "count": 1}
    assert engine.legal_actions() == [{"action": "choose", "player": "A",
                                       "choice": ids["bears"]}]
    engine.perform({"action": "choose", "player": "A", "choice": ids["bears"]})
    assert engine.observe()["pending"] is None


def test_pay_auto_its_own_way_taps_other_sources_than_the_reference():
    def tapped(engine: Any) -> list[str]:
        ids = started(engine)
        engine.perform({"action": "cast", "player": "A", "card": ids["bolt"],
                        "targets": [{"player": "B"}], "pay_with": "auto"})
        handle = {v: k for k, v in ids.items()}
        return [handle[o["id"]] for o in engine.observe()["battlefield"] if o["tapped"]]
    assert tapped(dialects.PayAuto()) == ["mountain-2"]
    assert tapped(ReferenceEngine()) == ["mountain-1"]


def test_reversed_events_reverse_each_batch():
    engine, reference = dialects.ReversedEvents(), ReferenceEngine()
    play_forest_and_bolt(engine), play_forest_and_bolt(reference)
    assert engine.events() == reference.events()[::-1]


def test_protocol_10_speaks_1_0():
    engine = dialects.Protocol10()
    info = engine.hello(1.1)
    assert info["protocol"] == 1 and isinstance(info["cards"], list)
    ids = started(engine)
    with pytest.raises(BadRequestError):
        engine.perform({"action": "cast", "player": "A", "card": ids["bolt"],
                        "targets": [{"player": "B"}], "pay_with": "auto"})


# ---- each ablation lacks its capability -------------------------------------------------------

def _battlefield(**entry: Any) -> dict[str, Any]:
    return {**GIVEN, "battlefield": [{"handle": "ours", "card": "Grizzly Bears",
                                      "controller": "A", **entry}]}


def _players(**state: Any) -> dict[str, Any]:
    return {**GIVEN, "players": {"A": {**GIVEN["players"]["A"], **state}}}


#: For each setup capability, a setup that departs with it alone.
DEPARTING = {
    "setup.start": SEEDED,
    "setup.deck_order": {**SEEDED, "shuffle": False},
    "setup.ante": {**SEEDED, "ante": True},
    "setup.legality": {**SEEDED, "format": "constructed",
                       "decks": {p: [{"card": "Forest", "count": 60}] for p in "AB"}},
    "setup.sideboard": {**SEEDED, "sideboards": {"A": ["Lightning Bolt"]}},
    "setup.state": GIVEN,
    "setup.mana_pool": _players(mana_pool={"R": 1}),
    "setup.poison": _players(poison=3),
    "setup.graveyard": _players(graveyard=["Island"]),
    "setup.lands_played": _players(lands_played=1),
    "setup.hand_size": _players(max_hand_size=None),
    "setup.exile": {**GIVEN, "exile": ["Island"]},
    "setup.zones": {**GIVEN, "ante": ["Island"]},
    "setup.tapped": _battlefield(tapped=True),
    "setup.sick": _battlefield(sick=True),
    "setup.damage": _battlefield(damage=1),
    "setup.counters": _battlefield(counters={"+1/+1": 1}),
    "setup.tokens": _battlefield(token=True),
    "setup.controller": _battlefield(owner="B"),
    "setup.attachments": {**GIVEN, "battlefield": [
        {"handle": "ours", "card": "Grizzly Bears", "controller": "A"},
        {"handle": "strength", "card": "Holy Strength", "controller": "A",
         "attached_to": "ours"}]},
    "setup.combat": {**_battlefield(attacking=True),
                     "turn": {"number": 3, "active": "A", "step": "declare_blockers"}},
}


@pytest.mark.parametrize("capability", sorted(dialects.ABLATIONS))
def test_an_ablation_no_longer_declares_its_capability(capability):
    assert capability not in dialects.ABLATIONS[capability]().hello(1.1)["capabilities"]


@pytest.mark.parametrize("capability", sorted(set(DEPARTING) - {"setup.start", "setup.state"}))
def test_an_ablation_refuses_a_setup_that_departs_with_what_it_withdrew(capability):
    setup = DEPARTING[capability]
    assert dialects.setup_departures(setup) - {"setup.start", "setup.state"} == {capability}
    ReferenceEngine().new_game("cr2004", setup)  # a setup the engine with it takes
    with pytest.raises(BadRequestError, match=re.escape(capability)):
        dialects.ABLATIONS[capability]().new_game("cr2004", setup)


def test_without_setup_start_or_state_the_setup_is_refused():
    with pytest.raises(BadRequestError, match=re.escape("setup.start")):
        dialects.WithoutSetupStart().new_game("modern", SEEDED)
    with pytest.raises(BadRequestError, match=re.escape("setup.state")):
        dialects.WithoutSetupState().new_game("modern", GIVEN)


def test_without_library_order_a_given_library_is_not_kept_in_order():
    setup = _players(library=["Island", "Forest", "Plains"])
    engine = dialects.WithoutSetupLibraryOrder()
    started(engine, setup)
    assert [o["card"] for o in engine.observe()["players"]["A"]["library"]] == \
        ["Plains", "Forest", "Island"]


def test_without_a_payment_form_it_is_refused():
    engine = dialects.WithoutPayPool()
    ids = started(engine, _players(mana_pool={"R": 1}))
    with pytest.raises(BadRequestError, match=re.escape("pay.pool")):
        engine.perform({"action": "cast", "player": "A", "card": ids["bolt"],
                        "targets": [{"player": "B"}]})
    for capability, pay_with in (("pay.sources", [ids["mountain-1"]]), ("pay.auto", "auto")):
        engine = dialects.ABLATIONS[capability]()
        started(engine)
        with pytest.raises(BadRequestError, match=re.escape(capability)):
            engine.perform({"action": "cast", "player": "A", "card": ids["bolt"],
                            "targets": [{"player": "B"}], "pay_with": pay_with})


def test_without_pay_pool_it_lists_nothing_it_refuses_and_refuses_before_acting():
    """A cast the pool pays for: an engine with pay.auto lists it as its own choice, one with
    only pay.sources not at all, and a cast without pay_with is refused with the game
    unchanged (the shim once listed it bare, performed it, then refused it)."""
    setup = _players(mana_pool={"R": 1})
    bolt_from_pool = {"action": "cast", "player": "A", "targets": [{"player": "B"}]}
    for name, listed in (("PayAutoOnly", "auto"), ("WithoutPayPool", "auto"),
                         ("PaySourcesOnly", None)):
        engine = getattr(dialects, name)()
        ids = started(engine, setup)
        bolt = {**bolt_from_pool, "card": ids["bolt"]}
        casts = [a for a in engine.legal_actions() if a["action"] == "cast"
                 and a["card"] == ids["bolt"] and a["targets"] == [{"player": "B"}]]
        assert [a.get("pay_with") for a in casts] == ([listed] if listed else []), name
        before = engine.observe()
        with pytest.raises(BadRequestError, match=re.escape("pay.pool")):
            engine.perform(bolt)
        assert engine.observe() == before, name
        if listed:
            engine.perform(casts[0])
            assert engine.observe()["players"]["A"]["mana_pool"]["R"] == 0, name
            assert not any(o["tapped"] for o in engine.observe()["battlefield"]), name


def test_mana_abilities_and_concession_are_rules_an_engine_without_them_fails():
    """No ablation withdraws them (they are no capabilities); an engine that cannot do them
    fails the cases that do them, blamed on the missing rule, and skips none."""
    assert not {"WithoutActionsMana", "WithoutActionsConcede"} & set(SPEAKERS)
    for name, action in (("CannotActivateManaAbilities", "activate"),
                         ("CannotConcede", "concede")):
        session = EngineSession(EngineSpec.parse(f"py:tests.fakes.dialects:{name}"))
        session.start()
        try:
            outcomes = [run_case(case, edition, session, RunOptions(case_timeout=30))
                        for case in CASES for edition in case.editions
                        if any(isinstance(s.value, dict) and s.value.get("action") == action
                               for s in case.steps)]
        finally:
            session.close()
        failed = [o for o in outcomes if o.status == "fail"]
        assert failed and not [o for o in outcomes if o.status in ("skip", "error")], name
        assert all("is no capability an engine may lack" in o.message for o in failed
                   if "unsupported" in o.message)
        assert any("unsupported" in o.message for o in failed)


def test_without_actions_mulligan_the_engine_keeps_every_hand_itself():
    engine = dialects.WithoutActionsMulligan()
    started(engine, SEEDED)
    assert engine.observe()["pending"] is None
    assert engine.observe()["turn"]["priority"] == "A"


def test_without_actions_legal_events_or_view_those_calls_are_unsupported():
    for name, call in (("WithoutActionsLegal", lambda e: e.legal_actions()),
                       ("WithoutObserveEvents", lambda e: e.events()),
                       ("WithoutObserveView", lambda e: e.observe("A"))):
        engine = getattr(dialects, name)()
        started(engine)
        with pytest.raises(UnsupportedError):
            call(engine)


def test_without_observe_stack_or_library_they_are_not_shown():
    engine = dialects.WithoutObserveStack()
    started(engine)
    assert "stack" not in engine.observe()
    engine = dialects.WithoutObserveLibrary()
    started(engine)
    assert engine.observe()["players"]["A"]["library"] == [{"hidden": True}] * 2


def test_the_hidden_card_forms_the_protocol_forbids_are_rejected_by_the_schema():
    """docs/protocol.md, Dialects: a hidden card is {"hidden": true} and nothing else."""
    from conformance.schemas import first_error

    reference = ReferenceEngine()
    started(reference)
    for hidden in ({"hidden": True, "id": 5}, {"hidden": True, "card": "Forest"},
                   {"hidden": False}):
        observation = reference.observe("B")
        observation["players"]["A"]["hand"] = [hidden]
        assert first_error("protocol/observe.json#response",
                           {"id": 1, "result": {"observation": observation}}) is not None


# ---- the same verdicts through mtgconf run ----------------------------------------------------


def test_mtgconf_run_judges_a_dialect_as_the_runner_does_here(tmp_path):
    """ShuffledLists through ``mtgconf run`` (its pytest route, the one an engine's CI takes)
    gives every case with an ``expect_illegal`` step the verdict ``run_case`` gives it here:
    the state around a rejected action is compared without the order of unordered lists on
    both routes (a route that compared raw observations failed these cases there)."""
    import json

    from mtgconf import main

    name = "ShuffledLists"
    chosen = [c for c in CASES if any(s.kind == "expect_illegal" for s in c.steps)]
    assert len(chosen) >= 30
    session = EngineSession(EngineSpec.parse(f"py:tests.fakes.dialects:{name}"))
    session.start()
    try:
        here = {(c.id, e): run_case(c, e, session, RunOptions(case_timeout=30)).status
                for c in chosen for e in c.editions}
    finally:
        session.close()
    argv = ["run", "--engine", f"py:tests.fakes.dialects:{name}", "--out", str(tmp_path),
            "--no-report", "-n", "1", *(a for c in chosen for a in ("--case", c.id))]
    assert main(argv) == 0
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))["results"]
    there = {(r["case_id"], r["edition"]): r["status"] for r in results}
    assert there == here
    assert set(here.values()) <= {"pass", "skip"} and "pass" in here.values()
