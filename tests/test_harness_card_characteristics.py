"""Cases for any engine's card pool (protocol 1.2): stand-in classes by characteristics,
``$(...)`` references to a stand-in's numbers, cards an engine declares by their
characteristics, and the harness holding an engine to what it declared."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance import casefile, portability, schemas, standins, templating
from conformance.lint import lint
from conformance.protocol import EngineInfo
from mtgconf import main
from spec.standins import fits
from spec.standins import standins as classes
from tests.fakes.renamed import MisdeclaredBears, RenamedPool, RenamedPoolTextless

CASE = """\
- id: t.standin
  rules: [modern:510.1a]
  editions: [modern]
  terms: {{modern:510.1a: [as much as its power]}}
  summary: A vanilla creature attacks unblocked.
  setup:
    turn: {{number: 3, active: A, step: beginning_of_combat}}
    battlefield:
      - {{handle: c, card: <vanilla-creature>, controller: A}}
      - {{handle: d, card: {other}, controller: A}}
  steps:
    - advance: {{step: declare_attackers}}
    - do: {{action: attack, player: A, card: c}}
    - do: {{action: done, player: A}}
    - advance: {{step: end_of_combat}}
    - expect: {{players.B.life: {life}}}
"""


def _case(tmp_path: Path, other: str = "<vanilla-creature:b>",
          life: str = '"$(20 - <vanilla-creature>.power)"') -> casefile.CaseSet:
    path = tmp_path / "t.yaml"
    path.write_text(CASE.format(other=other, life=life), encoding="utf-8")
    cases = casefile.load([path])
    assert cases.problems == []
    return cases


def _info(engine: object) -> EngineInfo:
    return EngineInfo.from_result(engine.hello(1.2))  # type: ignore[attr-defined]


def test_a_reference_reads_sums_of_a_stand_ins_numbers():
    assert templating.references("$(20 - <a>.power + 2 - <b:x>.toughness)") == [
        ("<a>", "power"), ("<b:x>", "toughness")]
    assert templating.evaluate("$(20 - <a>.power + 2)", lambda t, p: 3) == 19
    for bad in ("$(20 -)", "$(<a>.colour)", "$(20 <a>.power)", "$()"):
        with pytest.raises(templating.TemplateError):
            templating.references(bad)


def test_lint_rejects_a_reference_to_no_stand_in_of_the_case(tmp_path):
    cases = _case(tmp_path, life='"$(20 - <vanilla-3-3>.power)"')
    messages = [p.message for p in lint(cases)]
    assert any("reads <vanilla-3-3>, which is no stand-in of the case's setup" in m
               for m in messages)
    assert [p.message for p in lint(_case(tmp_path))] == []


def test_a_class_takes_any_card_with_what_it_fixes_and_bounds_numbers():
    sturdy = classes()["vanilla-sturdy"]
    assert "Hill Giant" in sturdy.members("modern")
    assert "Savannah Lions" not in sturdy.members("modern")  # toughness 1
    assert fits({"types": ["creature"], "supertypes": [], "has_text": False, "power": 1,
                 "toughness": 2}, sturdy.fixes)
    assert not fits({"types": ["Creature"], "supertypes": [], "has_text": True, "power": 1,
                     "toughness": 2}, sturdy.fixes)


def test_two_tokens_are_two_cards_and_the_reference_follows_the_choice(tmp_path):
    case = _case(tmp_path).cases[0]
    info = _info(RenamedPoolTextless())
    chosen, missing = standins.choose(case, "modern", info)
    assert missing == []
    assert chosen["<vanilla-creature>"] != chosen["<vanilla-creature:b>"]
    resolved = standins.resolve(case, chosen, "modern", info)
    power = info.facts("modern", chosen["<vanilla-creature>"])["power"]  # type: ignore[index]
    assert resolved.steps[-1].checks[0].expected == 20 - power


def test_a_named_card_is_met_by_the_engines_card_with_every_characteristic_the_same(tmp_path):
    case = _case(tmp_path, other="Lightning Bolt").cases[0]
    whole, textless = _info(RenamedPool()), _info(RenamedPoolTextless())
    assert standins.choose(case, "modern", whole)[0]["Lightning Bolt"] == \
        "Ersatz Lightning Bolt"
    # Saying only that a card has rules text does not tell which: no Bolt then.
    assert standins.choose(case, "modern", textless)[1] == ["Lightning Bolt"]


def test_an_engine_may_name_its_members_of_a_class_itself():
    info = _info(RenamedPoolTextless())
    named = EngineInfo.from_result({**RenamedPoolTextless().hello(1.2),
                                    "standins": {"bear": ["Ersatz Bear Cub"]}})
    bear = classes()["bear"]
    assert standins.candidates(bear, "modern", named)[0] == "Ersatz Bear Cub"
    assert standins.candidates(bear, "modern", info)[0] != "Ersatz Bear Cub"


def test_the_hello_of_an_engine_declaring_its_cards_is_valid_protocol_1_2():
    hello = {"id": 1, "result": RenamedPool().hello(1.2)}
    assert list(schemas.iter_errors("protocol/hello.json#response", hello)) == []
    bad = {**RenamedPool().hello(1.2), "card_data": {"modern": {"X": {"colour": ["G"]}}}}
    with pytest.raises(TypeError, match=r"card_data\.modern\.X must map some of"):
        EngineInfo.from_result(bad)


def test_an_engine_sharing_no_card_name_runs_most_modern_cases(tmp_path):
    """Its pool shares no name with the suite's, but it declares its cards: more than half of
    the modern case runs run, with the textless declaration too once cases use classes."""
    cases = casefile.load().cases
    for engine, floor in ((RenamedPool, 0.5), (RenamedPoolTextless, 0.1)):
        info = _info(engine())
        assert not info.cards_for("modern") & set(standins.default_pool().names())
        assert portability.report(cases, info, ("modern",)).share >= floor


def _run(tmp_path: Path, fake: str, *extra: str) -> tuple[int, dict]:
    out = tmp_path / fake
    code = main(["run", "-n", "2", "--edition", "modern", "--out", str(out),
                 "--engine", f"py:tests.fakes.renamed:{fake}", *extra])
    return code, json.loads((out / "results.json").read_text(encoding="utf-8"))


def test_the_renamed_pool_passes_every_modern_case_it_runs(tmp_path):
    code, results = _run(tmp_path, "RenamedPool")
    ran = [r for r in results["results"] if r["status"] != "skip"]
    assert [(r["case_id"], r["message"]) for r in ran if r["status"] != "pass"] == []
    assert len(ran) >= len(results["results"]) / 2
    assert code == 0


def test_a_card_shown_otherwise_than_declared_fails_as_the_engines_fault(tmp_path):
    """MisdeclaredBears declares its Hill Giant a 2/2 Bear: taken for a Bear, it enters as a
    red 3/3 Giant, and the case fails before its first step, saying whose fault it is."""
    assert "Ersatz Hill Giant" in standins.candidates(classes()["bear"], "modern",
                                                      _info(MisdeclaredBears()))
    code, results = _run(tmp_path, "MisdeclaredBears", "--case", "combat.*")
    declared = [r for r in results["results"] if r["status"] == "fail" and
                "otherwise than it shows it on the battlefield" in r["message"]]
    assert declared
    assert "power declared 2, shown 3" in declared[0]["message"]
    assert code == 1
