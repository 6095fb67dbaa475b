"""Protocol 1.1 in the harness: capabilities derived from a case's shape, payment in the form
an engine declared, stand-ins, opening hands kept, hidden cards, incarnations, 1.0 engines,
and the portability report. Each behaviour against a fake engine that shows it, or breaks it."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from conformance import casefile, lint, paths, portability
from conformance.needs import derive
from conformance.protocol import EngineInfo
from conformance.runner import RunOptions, run_case
from conformance.session import EngineSession
from conformance.transports import EngineSpec
from mtgconf import main

ROOT = Path(__file__).resolve().parents[1]
FAKE = "py:tests.fakes.portable:"


def cases_of(tmp_path: Path, text: str) -> casefile.CaseSet:
    path = tmp_path / "cases.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return casefile.load([path])


def run(engine: str, case, edition: str = "modern"):
    """The outcome, and the actions the engine was sent (fakes that record them)."""
    session = EngineSession(EngineSpec.parse(engine))
    session.start()
    try:
        outcome = run_case(case, edition, session, RunOptions(case_timeout=20))
        instance = session.client.transport.engine  # type: ignore[union-attr]
        return outcome, list(getattr(instance, "sent", ()))
    finally:
        session.close()


BOLT_FROM_A_MOUNTAIN = """
- id: t.bolt
  rules: [modern:404.1]
  editions: [cr2004, modern]
  quote: オーナーの墓地
  summary: A Bolt paid from a Mountain.
  setup:
    turn: {number: 3, active: A, step: precombat_main}
    players: {A: {hand: [{handle: bolt, card: Lightning Bolt}]}}
    battlefield: [{handle: mountain, card: Mountain, controller: A}]
  steps:
    - do: {action: cast, player: A, card: bolt, targets: [B], pay_with: [mountain]}
    - do: {action: pass, player: A}
    - do: {action: pass, player: B}
    - expect: {players.B.life: 17, "battlefield[mountain].tapped": true}
"""


# ---- capabilities derived from the case's shape -------------------------------------------


def step(kind: str, value: dict, view: str | None = None):
    from conformance.case import Check, Step

    checks = tuple(Check(paths.parse(k), v) for k, v in value.items()) if kind == "expect" \
        else ()
    return Step(1, kind, value, view=view, checks=checks)


@pytest.mark.parametrize(("setup", "steps", "needs"), [
    ({"start": "game", "seed": 1, "decks": {"A": ["Forest"], "B": ["Forest"]}}, [],
     {"setup.start"}),
    ({"start": "game", "seed": 1, "shuffle": False, "decks": {"A": [], "B": []}}, [],
     {"setup.start", "setup.deck_order"}),
    ({}, [], {"setup.state"}),
    ({"players": {"A": {"mana_pool": {"R": 1}, "poison": 2, "graveyard": ["Island"]}}}, [],
     {"setup.state", "setup.mana_pool", "setup.poison", "setup.graveyard"}),
    ({"players": {"A": {"mana_pool": {"R": 0}, "library": ["Island", "Island"]}}}, [],
     {"setup.state"}),
    ({"players": {"A": {"library": ["Island", "Forest"]}}}, [],
     {"setup.state", "setup.library_order"}),
    ({"battlefield": [{"card": "Forest", "owner": "B", "controller": "A", "tapped": True,
                       "sick": False, "counters": {"+1/+1": 0}}]}, [],
     {"setup.state", "setup.controller", "setup.tapped"}),
    ({"battlefield": [{"card": "Forest", "controller": "B"}]}, [], {"setup.state"}),
    ({}, [step("do", {"action": "cast", "player": "A", "card": "Lightning Bolt"})],
     {"setup.state", "pay.pool"}),
    ({}, [step("do", {"action": "cast", "player": "A", "card": "Ornithopter"})],
     {"setup.state"}),
    # A mana ability as an action and a concession are rules, not capabilities.
    ({}, [step("do", {"action": "activate", "player": "A", "card": "Forest", "ability": 0})],
     {"setup.state"}),
    ({}, [step("do", {"action": "activate", "player": "A", "card": "Mind Stone",
                      "ability": 1})], {"setup.state", "pay.pool"}),
    ({}, [step("do", {"action": "concede", "player": "B"}),
          step("do", {"action": "keep", "player": "A"})],
     {"setup.state", "actions.mulligan"}),
    ({}, [step("expect", {"stack": {"count": 0}, "players.A.library": {"count": 3},
                          "players.B.library.count": 2})], {"setup.state", "observe.stack"}),
    ({}, [step("expect", {"players.A.library": {"cards": ["Island"]}})],
     {"setup.state", "observe.library"}),
    ({}, [step("expect", {"players.A.library[0].card": "Island"})],
     {"setup.state", "observe.library"}),
    ({}, [step("expect", {"pending": {"decision": "mulligan"}}, view="A")],
     {"setup.state", "observe.view", "actions.mulligan"}),
])
def test_what_a_case_needs_is_derived_from_its_shape(setup, steps, needs):
    assert derive(setup, steps, {}).capabilities == needs


def test_naming_sources_asks_for_a_way_to_pay_from_them():
    do = step("do", {"action": "cast", "player": "A", "card": "bolt", "pay_with": ["m"]})
    illegal = step("expect_illegal", {"action": "cast", "player": "A", "card": "bolt",
                                      "pay_with": ["m"]})
    payment = derive({}, [do], {"bolt": "Lightning Bolt"}).payment
    assert payment is not None and payment.forms == ("sources", "pool", "auto")
    assert derive({}, [do, illegal], {}).payment.forms == ("sources", "auto")
    assert payment.form_for(frozenset({"pay.pool", "pay.auto"})) == "pool"
    assert payment.form_for(frozenset({"pay.pool"})) == "pool"
    assert derive({}, [do, illegal], {}).payment.form_for(frozenset({"pay.pool"})) is None


def test_a_derived_capability_listed_by_hand_is_an_error(tmp_path):
    text = BOLT_FROM_A_MOUNTAIN.replace("  setup:", "  requires: [setup.state, "
                                        "setup.mana_pool, observe.events]\n  setup:")
    loaded = cases_of(tmp_path, text)
    found = {p.message.split(" is derived")[0]: p.severity for p in loaded.problems}
    assert found == {"setup.state": "warning", "setup.mana_pool": "error"}


# ---- paying in the engine's form ----------------------------------------------------------


@pytest.mark.parametrize(("fake", "form"), [
    ("SourcesOnly", "sources"), ("AutoPayOnly", "auto"), ("PoolOnly", "pool")])
def test_named_sources_reach_the_engine_in_the_form_it_declared(tmp_path, fake, form):
    case = cases_of(tmp_path, BOLT_FROM_A_MOUNTAIN).cases[0]
    outcome, sent = run(FAKE + fake, case)
    assert outcome.status == "pass", outcome.message
    actions = [a for a in sent if a["action"] != "pass"]
    mountain = actions[-1].get("pay_with")
    if form == "sources":
        assert [a["action"] for a in actions] == ["cast"] and isinstance(mountain, list)
    elif form == "auto":
        assert [a["action"] for a in actions] == ["cast"] and mountain == "auto"
    else:
        assert [a["action"] for a in actions] == ["activate", "cast"] and mountain is None


def test_an_illegal_action_naming_sources_is_not_paid_from_the_pool(tmp_path):
    text = BOLT_FROM_A_MOUNTAIN.replace(
        "    - do: {action: cast, player: A, card: bolt, targets: [B], pay_with: [mountain]}",
        "    - expect_illegal: {action: cast, player: B, card: bolt, targets: [A], "
        "pay_with: [mountain]}\n"
        "    - do: {action: cast, player: A, card: bolt, targets: [B], pay_with: [mountain]}")
    case = cases_of(tmp_path, text).cases[0]
    outcome, _ = run(FAKE + "PoolOnly", case)
    assert outcome.status == "skip"
    assert "a way to pay from named sources: pay.sources or pay.auto" in outcome.message
    assert run(FAKE + "SourcesOnly", case)[0].status == "pass"


def test_an_engine_with_no_way_to_pay_skips_and_says_why(tmp_path):
    case = cases_of(tmp_path, BOLT_FROM_A_MOUNTAIN).cases[0]
    outcome, _ = run(FAKE + "CannotPay", case)
    assert outcome.status == "skip"
    assert outcome.message == ("the engine lacks a way to pay from named sources: pay.sources "
                               "or pay.pool or pay.auto")


# ---- stand-ins ----------------------------------------------------------------------------

BEAR_CASE = """
- id: t.bear
  rules: [modern:404.1]
  editions: [modern]
  quote: オーナーの墓地
  summary: A bear dies to a Bolt.
  setup:
    turn: {number: 3, active: A, step: precombat_main}
    players: {A: {hand: [{handle: bolt, card: Lightning Bolt}]}}
    battlefield:
      - {handle: mountain, card: Mountain, controller: A}
      - {handle: bears, card: <bear>, controller: B}
  steps:
    - expect: {"battlefield[bears].power": 2, "battlefield[card=<bear>]": {count: 1}}
    - do: {action: cast, player: A, card: bolt, targets: [bears], pay_with: [mountain]}
    - do: {action: pass, player: A}
    - do: {action: pass, player: B}
    - expect: {players.B.graveyard: {cards: [<bear>]}}
"""


def test_a_stand_in_becomes_the_first_member_the_engine_supports(tmp_path):
    case = cases_of(tmp_path, BEAR_CASE).cases[0]
    assert case.cards == {"Lightning Bolt", "Mountain", "<bear>"}
    # The fake refuses any card it did not declare: passing, it was sent a Forest Bear.
    outcome, _ = run(FAKE + "ForestBearOnly", case)
    assert outcome.status == "pass", outcome.message
    assert run("reference", case)[0].status == "pass"


def test_an_engine_with_no_member_of_a_class_skips_naming_the_class(tmp_path):
    case = cases_of(tmp_path, BEAR_CASE).cases[0]
    outcome, _ = run(FAKE + "NoBear", case)
    assert outcome.status == "skip"
    assert "stand-in <bear> (any of Grizzly Bears, Balduvian Bears" in outcome.message


def test_lint_rejects_a_check_of_what_a_class_does_not_fix(tmp_path, monkeypatch):
    from spec import standins

    loose = {"bear": standins.StandinClass("bear", "a 2/2", {"power": 2, "toughness": 2},
                                           ("Grizzly Bears",))}
    monkeypatch.setattr("conformance.lint.standins", lambda: loose)
    text = BEAR_CASE.replace('"battlefield[bears].power": 2', '"battlefield[bears].subtypes": '
                             "[Bear]")
    problems = lint.lint(cases_of(tmp_path, text))
    assert [p.message for p in problems if p.severity == "error"] == [
        "step 1: battlefield[bears].subtypes reads subtypes of <bear>, which its class does "
        "not fix (spec/standins.yaml fixes power, toughness)"]


def test_every_member_of_a_class_shares_what_it_fixes(tmp_path):
    from spec.standins import StandinError, load, standins

    assert standins()["bear"].members("cr2004")[0] == "Grizzly Bears"
    bad = tmp_path / "standins.yaml"
    bad.write_text("bear:\n  summary: x\n  fixes: {power: 2}\n  cards: [Hill Giant]\n")
    with pytest.raises(StandinError, match=r"Hill Giant \(\w+\) has power 3, the class fixes 2"):
        load(bad)


# ---- opening hands, hidden cards, identity ------------------------------------------------

SEEDED = """
- id: t.seeded
  rules: [modern:401.1]
  editions: [cr2004, modern]
  quote: 各プレイヤーのデッキはそのライブラリーとなる
  summary: x
  setup:
    start: game
    seed: 4
    first_player: A
    decks: {A: [{card: Forest, count: 40}], B: [{card: Island, count: 40}]}
  steps:
    - advance: {turn: 1, step: precombat_main}
    - do: {action: play_land, player: A, card: Forest}
    - expect: {players.A.hand: {count: 6}, players.A.library: {count: 33}}
"""


@pytest.mark.parametrize("edition", ["cr2004", "modern"])
def test_the_harness_keeps_opening_hands_of_a_case_not_about_mulligans(tmp_path, edition):
    case = cases_of(tmp_path, SEEDED).cases[0]
    assert "actions.mulligan" not in case.needs
    outcome, sent = run(FAKE + "AutoPayOnly", case, edition)
    assert outcome.status == "pass", outcome.message
    assert [a["action"] for a in sent][:2] == ["keep", "keep"]


LIBRARY = SEEDED.replace("    - expect: {players.A.hand: {count: 6}, players.A.library: "
                         "{count: 33}}",
                         "    - expect: {players.A.library: {count: 33}}\n"
                         "    - expect: {players.A.library: {not_contains: [Island]}}")


def test_a_hidden_card_in_a_full_observation_fails_a_check_of_cards(tmp_path):
    case = cases_of(tmp_path, LIBRARY).cases[0]
    assert "observe.library" in case.needs
    outcome, _ = run(FAKE + "HidesLibraries", case)
    assert outcome.status == "fail"
    assert "the engine hid 33 card(s) in a full observation" in outcome.message
    assert outcome.message.startswith("step 4 (expect)")  # the count alone passed


def test_an_engine_that_says_it_cannot_show_libraries_skips_cases_that_read_them(tmp_path):
    case = cases_of(tmp_path, LIBRARY).cases[0]
    outcome, _ = run(FAKE + "CannotShowLibraries", case)
    assert (outcome.status, outcome.message) == (
        "skip", "the engine lacks capability observe.library")
    counts = cases_of(tmp_path, SEEDED).cases[0]
    assert run(FAKE + "CannotShowLibraries", counts)[0].status == "pass"


NEW_OBJECT = """
- id: t.new-object
  rules: [modern:400.7]
  editions: [modern]
  quote: 新しいオブジェクト
  summary: A creature put into a graveyard is a new object there.
  requires: [observe.events]
  setup:
    turn: {number: 3, active: A, step: precombat_main}
    players: {A: {hand: [{handle: bolt, card: Lightning Bolt}]}}
    battlefield:
      - {handle: mountain, card: Mountain, controller: A}
      - {handle: bears, card: Grizzly Bears, controller: B}
  steps:
    - expect: {"battlefield[bears].power": 2}
    - do: {action: cast, player: A, card: bolt, targets: [bears], pay_with: [mountain]}
    - do: {action: pass, player: A}
    - do: {action: pass, player: B}
    - expect: {"players.B.graveyard[bears]": {count: 1}, battlefield: {count: 1}}
"""
OLD_HANDLE = NEW_OBJECT.replace("  requires: [observe.events]\n", "").replace(
    '"players.B.graveyard[bears]": {count: 1}', '"players.B.graveyard[bears]": {count: 0}')


def test_an_engine_may_keep_ids_if_incarnations_tell_objects_apart(tmp_path):
    followed = cases_of(tmp_path, NEW_OBJECT).cases[0]
    outcome, _ = run(FAKE + "KeepsIds", followed)
    assert outcome.status == "pass", outcome.message
    # Without events a handle is not followed: it names the creature that died, and the card
    # in the graveyard is another object (a new incarnation) unless the engine forgets to
    # count incarnations.
    stale = cases_of(tmp_path, OLD_HANDLE).cases[0]
    outcome, _ = run(FAKE + "KeepsIdsWithoutEvents", stale)
    assert outcome.status == "pass", outcome.message
    outcome, _ = run(FAKE + "ForgetsIncarnations", stale)
    assert outcome.status == "fail"
    assert "players.B.graveyard[bears]: expected count 0, observed 1" in outcome.message


def test_an_engine_that_declares_the_retired_capabilities_is_taken_as_it_is():
    """actions.mana and actions.concede were capabilities; an engine written then still lists
    them: they are known (no unknown-capability warning, no exit 4) and mean nothing."""
    for protocol in (1, 1.1):
        info = EngineInfo.from_result({
            "name": "x", "version": "1", "protocol": protocol, "editions": ["modern"],
            "capabilities": ["setup.state", "actions.mana", "actions.concede"],
            "cards": ["Forest"] if protocol == 1 else {"modern": ["Forest"]}})
        assert info.unknown() == []
        assert not {"actions.mana", "actions.concede"} & info.capabilities
        assert {"actions.mana", "actions.concede"} <= info.declared


def test_a_case_that_requires_a_retired_capability_is_told_to_drop_it(tmp_path):
    text = BOLT_FROM_A_MOUNTAIN.replace("  setup:", "  requires: [actions.concede]\n  setup:")
    problems = cases_of(tmp_path, text).problems
    assert [p.field for p in problems] == ["requires"]
    assert "actions.concede is no capability" in problems[0].message
    assert "drop it" in problems[0].message


# ---- protocol 1.0 engines -------------------------------------------------------------------


def test_a_protocol_1_engine_has_what_1_made_part_of_its_capabilities():
    old = EngineInfo.from_result({"name": "x", "version": "1", "protocol": 1,
                                  "editions": ["modern"], "capabilities": ["setup.state"],
                                  "cards": ["Forest"]})
    assert {"setup.mana_pool", "setup.controller", "pay.pool", "observe.library"} \
        <= old.capabilities
    assert "actions.mulligan" not in old.capabilities  # it had no seeded starts
    assert old.declared == {"setup.state"}
    new = EngineInfo.from_result({"name": "x", "version": "1", "protocol": 1.1,
                                  "editions": ["modern"], "capabilities": ["setup.state"],
                                  "cards": {"modern": ["Forest"]}})
    assert new.capabilities == {"setup.state"}
    assert new.cards_for("modern") == {"Forest"} and new.cards_for("cr2004") == set()


# ---- lint and the portability report ------------------------------------------------------


def test_lint_warns_of_an_illegal_cast_nothing_could_pay_for(tmp_path):
    text = BOLT_FROM_A_MOUNTAIN.replace(
        "    - do: {action: cast, player: A, card: bolt, targets: [B], pay_with: [mountain]}",
        "    - expect_illegal: {action: cast, player: A, card: bolt, targets: [B]}\n"
        "    - do: {action: cast, player: A, card: bolt, targets: [B], pay_with: [mountain]}")
    warnings = [p.message for p in lint.lint(cases_of(tmp_path, text))]
    assert warnings == ["step 1: nothing pays for this cast (no pay_with, no mana in the pool): "
                        "an engine may reject it for want of mana whatever the rule; name its "
                        "sources"]


def test_lint_warns_of_an_unneeded_deck_order(tmp_path):
    text = SEEDED.replace("    first_player: A\n", "    first_player: A\n    shuffle: false\n")
    warnings = [p.message for p in lint.lint(cases_of(tmp_path, text))]
    assert len(warnings) == 1 and warnings[0].startswith("shuffle: false is not needed")


def test_the_portability_report_counts_runs_and_groups_blockers(tmp_path):
    loaded = cases_of(tmp_path, BOLT_FROM_A_MOUNTAIN + SEEDED + LIBRARY.replace(
        "t.seeded", "t.library"))
    chosen = portability.profile("seeded-start-only")
    report = portability.report(loaded.cases, chosen.info(), chosen.editions)
    assert (len(report.runs), report.total) == (2, 3)
    assert report.by_blocker() == [("capability setup.state", 1, 1)]
    every = portability.report(loaded.cases, portability.profile("given-zones-auto-pay").info(),
                               ["cr2004", "modern"])
    assert ("edition cr2004", 3, 3) in every.by_blocker()


def test_mtgconf_cases_portability(tmp_path, capsys):
    (tmp_path / "c.yaml").write_text(textwrap.dedent(BOLT_FROM_A_MOUNTAIN), encoding="utf-8")
    code = main(["cases", "portability", "--no-bundled", str(tmp_path), "--profile",
                 "seeded-start-only", "--cases-blocked"])
    out = capsys.readouterr().out
    assert code == 0
    assert out.splitlines()[:3] == [
        "seeded-start-only: 0 of 1 case runs (0%) can run",
        "  blocked by              runs  alone",
        "  capability setup.state     1      1"]
    assert "      modern::t.bolt" in out
    code = main(["cases", "portability", "--no-bundled", str(tmp_path), "--capabilities",
                 "setup.state,pay.auto", "--cards", "Lightning Bolt,Mountain", "--json"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)["given"]
    assert (report["runs"], report["total"]) == (2, 2)
    assert main(["cases", "portability", "--capabilities", "setup.stat", "--cards", "x"]) == 2


def test_the_case_guide_example_runs_on_every_profile(tmp_path):
    text = (ROOT / "docs" / "cases.md").read_text(encoding="utf-8")
    example = text.split("```yaml\n", 1)[1].split("```", 1)[0]
    case = cases_of(tmp_path, example).cases[0]
    for engine in ("reference", "py:tests.fakes.profiles:GivenZonesAutoPay",
                   "py:tests.fakes.profiles:SeededStartOnly"):
        assert run(engine, case)[0].status == "pass", engine


TOKENS = """
- id: t.bind
  rules: [cr2004:216.3]
  editions: [cr2004, modern]
  quote: 衍生物
  summary: A token made by play is named by a bind step, then dies.
  setup:
    turn: {number: 3, active: A, step: precombat_main}
    players: {A: {hand: [{handle: alarm, card: Raise the Alarm},
                        {handle: bolt, card: Lightning Bolt}]}}
    battlefield:
      - {handle: plains, card: Plains, controller: A}
      - {handle: plains-2, card: Plains, controller: A}
      - {handle: mountain, card: Mountain, controller: A}
  steps:
    - do: {action: cast, player: A, card: alarm, pay_with: [plains, plains-2]}
    - do: {action: pass, player: A}
    - do: {action: pass, player: B}
    - bind: {soldier: "battlefield[card=Soldier][0]", other: "battlefield[card=Soldier][1]"}
    - do: {action: cast, player: A, card: bolt, targets: [soldier], pay_with: [mountain]}
    - do: {action: pass, player: A}
    - do: {action: pass, player: B}
    - expect: {"battlefield[soldier]": {absent: true}, "battlefield[other].token": true,
               players.A.graveyard: {cards: [Lightning Bolt, Raise the Alarm]}}
"""


def test_a_bind_step_names_an_object_play_created(tmp_path):
    loaded = cases_of(tmp_path, TOKENS)
    assert loaded.problems == []
    case = loaded.cases[0]
    assert "setup.tokens" not in case.needs
    for edition in ("cr2004", "modern"):
        outcome, _ = run("reference", case, edition)
        assert outcome.status == "pass", outcome.message
    ambiguous = TOKENS.replace('other: "battlefield[card=Soldier][1]"',
                               'other: "battlefield[card=Soldier]"')
    outcome, _ = run("reference", cases_of(tmp_path, ambiguous).cases[0])
    assert outcome.status == "fail"
    assert "battlefield[card=Soldier] selects 2 objects; a bind needs exactly one" in \
        outcome.message
    early = TOKENS.replace("    - bind:", "    - expect: {'battlefield[soldier]': {count: 1}}\n"
                           "    - bind:")
    problems = [p.message for p in cases_of(tmp_path, early).problems]
    assert problems and problems[0].startswith("[soldier] is not a handle of the setup or of "
                                               "a bind step before")


def test_a_source_that_triggers_when_tapped_for_mana_is_not_activated_before_the_cast():
    # Activated first, Forbidden Orchard's trigger would be on the stack before the spell.
    do = step("do", {"action": "cast", "player": "A", "card": "elves",
                     "pay_with": ["orchard"]})
    cards = {"elves": "Llanowar Elves", "orchard": "Forbidden Orchard"}
    assert derive({}, [do], cards).payment.forms == ("sources", "auto")
    cards["orchard"] = "Forest"
    assert derive({}, [do], cards).payment.forms == ("sources", "pool", "auto")
