"""The case runner against fake engines: each misbehaviour gives its own result kind, in the
case it happens in only, and the run goes on."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

from conformance import casefile
from conformance import outcomes as kinds
from conformance.expectations import Expectations, generate
from conformance.outcomes import Expectation
from conformance.resultsfile import Record
from conformance.runner import RunOptions, run_case
from conformance.session import EngineSession
from conformance.transports import EngineSpec

FAKES = Path(__file__).resolve().parent / "fakes"
SCRIPTABLE = f"cmd:{sys.executable} {FAKES / 'scriptable.py'} --lint"
# A frozen copy of the first bundled cases: the fakes implement what these need, and the
# bundled suite keeps growing (tests/test_suite_reference.py runs it on the real engine).
CASES_DIR = FAKES / "cases"
BUNDLED = casefile.load([CASES_DIR]).cases
QUICK = RunOptions(case_timeout=1.0)


def run_all(engine: str, cases=BUNDLED, *, validate=False, options=QUICK,
            max_restarts=3) -> dict[str, kinds.Outcome]:
    session = EngineSession(EngineSpec.parse(engine), validate=validate,
                            max_restarts=max_restarts)
    session.start()
    try:
        return {f"{edition}::{case.id}": run_case(case, edition, session, options)
                for case in cases for edition in case.editions}
    finally:
        session.close()


def statuses(outcomes) -> dict[str, str]:
    return {key: outcome.status for key, outcome in outcomes.items()}


def miniature(name: str) -> str:
    return f"py:tests.fakes.miniatures:{name}"


def test_bundled_cases_pass_on_a_correct_engine_with_every_message_validated():
    # Validating every message of a 500-action advance is slow on a loaded machine: this test
    # is about verdicts, not timeouts.
    outcomes = run_all(miniature("Correct"), validate=True, options=RunOptions(case_timeout=10))
    assert len(outcomes) >= 12
    assert {k: o.message for k, o in outcomes.items() if o.status != "pass"} == {}


def test_bundled_cases_pass_over_the_wire_and_every_request_is_valid():
    # --lint makes the fake exit on any request that breaks the schemas.
    assert set(statuses(run_all(SCRIPTABLE)).values()) == {"pass"}


def test_a_rule_broken_is_a_fail_naming_step_and_action():
    outcomes = run_all(miniature("PlaysLandsAnyTime"))
    failed = {k for k, s in statuses(outcomes).items() if s != "pass"}
    assert failed == {f"{e}::land.{c}" for e in ("cr2004", "modern")
                      for c in ("only-in-main-phase", "not-in-opponents-turn")}
    outcome = outcomes["cr2004::land.only-in-main-phase"]
    assert isinstance(outcome, kinds.Failed)
    assert (outcome.step, outcome.step_kind, outcome.line) == (1, "expect_illegal", 30)
    assert "the engine accepted" in outcome.message and "illegal_action" in outcome.message


def test_a_state_change_on_rejection_is_a_fail_with_the_difference():
    outcome = run_all(miniature("ChangesStateWhenRejecting"))["cr2004::land.one-per-turn"]
    assert outcome.status == "fail"
    assert "changed the state at players.A.lands_played: before 1, after 2" in outcome.message


def test_an_engine_exception_is_an_error_with_its_traceback():
    outcomes = run_all(miniature("CrashesOnCast"))
    outcome = outcomes["cr2004::instant.resolved-to-graveyard"]
    assert outcome.status == "error"
    assert "step 1 (do cast): perform: engine_error: RuntimeError" in outcome.message
    assert "Traceback" in outcome.stderr
    assert outcomes["cr2004::land.one-per-turn"].status == "pass"


def test_a_hang_is_a_timeout_that_costs_only_its_case():
    """Each restarted engine answers hello: a hang in every case is a timeout of every case,
    never "not run" (only failed restarts mark an engine broken)."""
    outcomes = run_all(miniature("HangsOnObserve"), options=RunOptions(case_timeout=0.1),
                       max_restarts=1)
    assert set(statuses(outcomes).values()) == {"timeout"}
    assert not [o for o in outcomes.values() if o.message.startswith("not run: ")]


def test_three_adjacent_protocol_slips_cost_three_cases_not_the_rest():
    """A slip (an answer that is no response) costs its case and a restart that does not count
    towards marking the engine broken: the restarted process answered hello. (Three slips in a
    row, more than max_restarts=2: counted, they would mark it broken.)"""
    import itertools

    from tests.fakes import miniatures

    miniatures.SlipsInThreeCases.games = itertools.count(1)
    outcomes = list(run_all(miniature("SlipsInThreeCases"), max_restarts=2).values())
    assert [o.status for o in outcomes[1:4]] == ["error"] * 3
    assert all("observation" in o.message for o in outcomes[1:4])
    assert not [o.message for o in outcomes if o.message.startswith("not run")]
    assert {o.status for o in outcomes[:1] + outcomes[4:]} == {"pass"}


def test_a_schema_break_is_an_error_with_validation_and_a_fail_without():
    cases = [c for c in BUNDLED if c.id == "start.life-twenty"]
    with_validation = run_all(miniature("BreaksTheSchema"), cases, validate=True)
    assert {o.status for o in with_validation.values()} == {"error"}
    assert "protocol violation in the observe response" in next(
        iter(with_validation.values())).message
    without = run_all(miniature("BreaksTheSchema"), cases)
    assert {o.status for o in without.values()} == {"fail"}


def test_a_declared_capability_answered_unsupported_is_an_error():
    outcomes = run_all(miniature("LiesAboutEvents"))
    outcome = outcomes["cr2004::zone.destroyed-to-owners-graveyard"]
    assert outcome.status == "error"
    assert "declared observe.events but answered events: unsupported" in outcome.message
    # Cases that start from a seeded start and observe only never call events.
    assert outcomes["cr2004::start.life-twenty"].status == "pass"


def test_an_unsupported_setup_is_a_skip_naming_the_engines_words():
    outcomes = run_all(miniature("RefusesStateSetups"))
    outcome = outcomes["cr2004::land.one-per-turn"]
    assert (outcome.status, outcome.message) == (
        "skip", "the engine answered unsupported: given states are not supported")
    assert outcomes["cr2004::start.life-twenty"].status == "pass"


@pytest.mark.parametrize(("engine", "key", "reason"), [
    ("OnlyCr2004", "modern::land.one-per-turn", "the engine does not support edition modern"),
    ("WithoutBolt", "cr2004::instant.resolved-to-graveyard",
     "the engine lacks card Lightning Bolt"),
    ("LacksCapabilities", "cr2004::instant.resolved-to-graveyard",
     "the engine lacks capability observe.stack"),
    ("LacksCapabilities", "cr2004::zone.destroyed-to-owners-graveyard",
     "the engine lacks capability observe.events"),
    ("LacksCapabilities", "cr2004::start.life-twenty", "the engine lacks capability setup.start"),
])
def test_what_the_engine_did_not_declare_is_skipped_before_sending(engine, key, reason):
    outcomes = run_all(miniature(engine))
    assert (outcomes[key].status, outcomes[key].message) == ("skip", reason)


def test_forgotten_handles_are_an_error():
    outcome = run_all(miniature("ForgetsHandles"))["cr2004::land.one-per-turn"]
    assert outcome.message == "new_game: the engine returned no id for handle forest-1, forest-2"


def test_nondeterministic_answers_are_caught():
    outcome = run_all(miniature("Nondeterministic"))["cr2004::land.one-per-turn"]
    assert outcome.status == "fail"
    assert "changed the state at players.A.life" in outcome.message


def test_process_misbehaviour_costs_only_its_case(tmp_path):
    text = (CASES_DIR / "lands.yaml").read_text()
    misbehaving = []
    for what in ("crash", "hang", "garble"):
        misbehaving.append(text.split("\n- id: land.only")[0].replace(
            "land.one-per-turn", f"fake.{what}").replace(
            "{handle: forest-2, card: Forest}",
            f"{{handle: forest-2, card: Forest}}, {{handle: fake-{what}-on-perform, card: "
            "Island}"))
    (tmp_path / "fake.yaml").write_text("\n".join(misbehaving))
    cases = casefile.load([tmp_path]).cases
    cases = [cases[0], BUNDLED[1], cases[1], BUNDLED[1], cases[2], BUNDLED[1]]
    # Without --lint: four process starts are quicker without the schemas to load.
    session = EngineSession(EngineSpec.parse(SCRIPTABLE.removesuffix(" --lint")))
    session.start()
    outcomes = [run_case(c, "cr2004", session, RunOptions(case_timeout=0.25)) for c in cases]
    session.close()
    assert [o.status for o in outcomes] == ["crash", "pass", "timeout", "pass", "error", "pass"]
    assert "crashing on perform as instructed" in outcomes[0].stderr
    assert "the response to perform is not JSON" in outcomes[4].message
    assert session.restarts == 3 and session.broken is None


def test_advance_stops_with_a_clear_failure(tmp_path):
    (tmp_path / "advance.yaml").write_text(textwrap.dedent("""\
        - id: advance.past-the-end
          rules: [cr2004:101.3]
          editions: [cr2004]
          quote: 20點
          summary: x
          setup: {turn: {number: 3, active: A, step: precombat_main}}
          steps:
            - advance: {turn: 4, step: precombat_main}
        - id: advance.overshoot
          rules: [cr2004:101.3]
          editions: [cr2004]
          quote: 20點
          summary: x
          setup:
            turn: {number: 3, active: A, step: precombat_main}
            players: {A: {library: [Forest]}, B: {library: [Forest]}}
          steps:
            - advance: {turn: 2}
        """))
    cases = casefile.load([tmp_path]).cases
    outcomes = run_all(miniature("Correct"), cases)
    assert outcomes["cr2004::advance.past-the-end"].message == (
        "step 1 (advance to turn 4, step precombat_main): the game ended (draw_empty_library) "
        "before reaching turn 4, step precombat_main")
    assert outcomes["cr2004::advance.overshoot"].message == (
        "step 1 (advance to turn 2): the game is at turn 3, past turn 2")


def test_advance_until_the_game_is_over(tmp_path):
    (tmp_path / "over.yaml").write_text(textwrap.dedent("""\
        - id: advance.to-the-end
          rules: [cr2004:101.3]
          editions: [cr2004]
          quote: 20點
          summary: x
          setup: {turn: {number: 3, active: A, step: precombat_main}}
          steps:
            - advance: {over: true}
            - expect: {result.reason: draw_empty_library, result.winners: [A]}
        """))
    loaded = casefile.load([tmp_path])
    (tmp_path / "bad" / "over.yaml").parent.mkdir()
    (tmp_path / "bad" / "over.yaml").write_text((tmp_path / "over.yaml").read_text().replace(
        "{over: true}", "{over: true, turn: 5}"))
    (problem, *_) = casefile.load([tmp_path / "bad"]).problems
    assert (problem.field, problem.line) == ("steps[0]", 8)
    assert "has too many properties" in problem.message
    outcomes = run_all(miniature("Correct"), loaded.cases)
    assert outcomes["cr2004::advance.to-the-end"].status == "pass"


DECKS = """\
- id: deck.constructed-needs-sixty
  rules: [cr2004:101.3]
  editions: [cr2004]
  quote: 每位玩家擁有20點的總生命值
  summary: x
  setup:
    start: game
    seed: 1
    format: constructed
    decks: {A: [{card: Forest, count: 59}], B: [{card: Forest, count: 60}]}
  steps:
    - expect_illegal_setup: a constructed deck of 59 cards
"""


@pytest.mark.parametrize(("engine", "status", "words"), [
    ("reference", "pass", ""),
    ("py:tests.fakes.portable:AcceptsAnyDeck", "fail",
     "step 1 (expect_illegal_setup): the engine started a game the rules forbid (a "
     "constructed deck of 59 cards); new_game must refuse it as illegal_setup"),
    ("py:tests.fakes.portable:RejectsDecksAsBadRequests", "error", "bad_request"),
    (miniature("Correct"), "skip", "capability setup.legality"),
])
def test_a_setup_the_rules_forbid_must_be_refused(tmp_path, engine, status, words):
    (tmp_path / "decks.yaml").write_text(DECKS, encoding="utf-8")
    (case,) = casefile.load([tmp_path]).cases
    assert "setup.legality" in case.needs
    outcome = run_all(engine, [case])["cr2004::deck.constructed-needs-sixty"]
    assert outcome.status == status, outcome.message
    assert words in outcome.message


def test_an_illegal_setup_step_is_a_case_s_only_step(tmp_path):
    (tmp_path / "decks.yaml").write_text(
        DECKS + "    - expect: {players.A.life: 20}\n", encoding="utf-8")
    (problem, *_) = casefile.load([tmp_path]).problems
    assert "expect_illegal_setup is a case's only step" in problem.message


def test_expectations_turn_outcomes_into_results():
    failed = kinds.Failed(2, "expect", "step 2 (expect): no")
    fail = Expectation("fail", "known bug", "https://example.org/1")
    assert kinds.apply(kinds.Passed(), None).status == "pass"
    assert kinds.apply(failed, fail).status == "xfail"
    assert kinds.apply(kinds.Passed(), fail).status == "xpass"
    crashed = kinds.apply(kinds.Crashed("boom"), fail)
    assert crashed.status == "crash" and kinds.is_unexpected(crashed)
    assert "expected fail: known bug (https://example.org/1), got crash" in crashed.message
    assert kinds.apply(kinds.Skipped("no"), fail).status == "skip"
    record = Record.judged(case_id="a.b", edition="cr2004", rules=("cr2004:101.3",),
                           engine="toy", result=kinds.apply(failed, fail), duration=0.5)
    assert (record.status, record.outcome, record.detail["expected_status"]) == (
        "xfail", "fail", "fail")
    assert Record.from_dict(record.to_dict()) == record  # its JSON form is the whole of it


def test_expectations_files_are_strict(tmp_path):
    path = tmp_path / "expected.yaml"
    path.write_text("expectations:\n  cr2004::land.one-per-turn: {status: fail}\n"
                    "  start.life-twenty: {status: crash, reason: r}\n")
    expectations = Expectations.load(path, {"land.one-per-turn", "start.life-twenty"})
    assert expectations.lookup("land.one-per-turn", "cr2004").status == "fail"
    assert expectations.lookup("land.one-per-turn", "modern") is None
    assert expectations.lookup("start.life-twenty", "modern").reason == "r"
    from conformance.errors import InputError

    with pytest.raises(InputError, match="no case has this id"):
        Expectations.load(path, {"start.life-twenty"})
    path.write_text("expectations:\n  start.life-twenty: {status: flaky}\n")
    with pytest.raises(InputError, match="'flaky' is not one of"):
        Expectations.load(path)


def test_generated_expectations_round_trip(tmp_path):
    def record(case_id: str, edition: str, outcome: str, message: str) -> Record:
        return Record(case_id, edition, ("cr2004:101.3",), "toy", outcome, outcome, message,
                      0.0)

    rows = [
        record("a.b", "cr2004", "fail", "step 1: no"),
        record("a.b", "modern", "fail", "step 1: no"),
        record("c.d", "cr2004", "pass", ""),
        record("c.d", "modern", "crash", "died"),
    ]
    path = tmp_path / "expected.yaml"
    path.write_text(generate(rows, "toy"))
    loaded = Expectations.load(path, {"a.b", "c.d"})
    assert loaded.entries == {"a.b": Expectation("fail", "step 1: no"),
                              "modern::c.d": Expectation("crash", "died")}


def test_results_documents_are_valid_and_keep_a_dead_workers_case(tmp_path):
    from types import SimpleNamespace

    from conformance import schemas
    from conformance.recorder import ResultsRecorder
    from conformance.settings import Settings
    from conformance.transports import EngineSpec

    toy = "cmd:toy"  # never started: the recorder only names it
    settings = Settings(engines=(EngineSpec.parse(toy),), editions=("cr2004",),
                        results=tmp_path / "results.json")
    recorder = ResultsRecorder(
        settings, case_node=lambda nodeid: ("a.b", "cr2004", toy, ["cr2004:101.3"],
                                            "x.yaml", 3) if nodeid.endswith("a.b") else None)
    recorder.open_stream()
    passed = Record.judged(case_id="c.d", edition="cr2004",
                           rules=("cr2004:101.3", "modern:402.1"), engine=toy,
                           result=kinds.Passed(), duration=0.1)
    recorder.pytest_runtest_logreport(SimpleNamespace(
        nodeid="x.yaml::cr2004::c.d", mtg_result=passed.to_dict(), failed=False))
    # A report without a result: the worker running the case died.
    recorder.pytest_runtest_logreport(SimpleNamespace(
        nodeid="x.yaml::cr2004::a.b", failed=True, duration=0.5))
    # Streamed as they came: a header, then one line per result.
    lines = (tmp_path / "results.jsonl").read_text().splitlines()
    assert [json.loads(line).get("case_id") for line in lines] == [None, "c.d", "a.b"]
    recorder.finish(interrupted=False)
    data = json.loads((tmp_path / "results.json").read_text())
    assert schemas.first_error("results.json", data) is None
    assert [(r["case_id"], r["status"]) for r in data["results"]] == [("a.b", "crash"),
                                                                     ("c.d", "pass")]
    assert data["results"][0]["file"] == "x.yaml" and data["results"][0]["line"] == 3
    assert data["rules"] == [{"rule": "cr2004:101.3", "engine": toy, "total": 2,
                              "unexpected": 1, "counts": {"pass": 1, "crash": 1}}]
    assert (data["interrupted"], data["selected"]) == (False, 2)


LONG_DECK = """\
- id: deck.no-maximum
  rules: [cr2004:100.4]
  editions: [cr2004]
  quote: 套牌沒有最大張數的限制
  summary: x
  setup:
    start: game
    seed: 1
    format: constructed
    decks: {A: [{card: Forest, count: 300}], B: [{card: Forest, count: 60}]}
  steps:
    - expect: {players.A.library: {count: 293}}
"""


def test_refusing_a_setup_the_rules_allow_is_a_failure(tmp_path):
    # The engine judged the rules, wrongly: a fail (not an error, which blames no rule).
    (tmp_path / "decks.yaml").write_text(LONG_DECK, encoding="utf-8")
    (case,) = casefile.load([tmp_path]).cases
    outcomes = run_all("py:tests.fakes.portable:RefusesLongDecks", [case])
    outcome = outcomes["cr2004::deck.no-maximum"]
    assert outcome.status == "fail", outcome.message
    assert "refused a setup the rules allow, as illegal_setup: setup.decks.A: 300 cards" in \
        outcome.message
    assert run_all("reference", [case])["cr2004::deck.no-maximum"].status == "pass"
