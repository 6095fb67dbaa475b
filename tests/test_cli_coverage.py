"""``mtgconf coverage`` and the ``catches`` field: which rules the cases cover."""

from __future__ import annotations

import json
import textwrap

from conformance import casefile, schemas
from conformance.coverage import Coverage
from mtgconf import main

CASE = """\
- id: mine.life
  rules: [cr2004:101.3, cr2004:102.2]
  editions: [cr2004]
  quote:
    cr2004:101.3: 每位玩家擁有20點的總生命值
    cr2004:102.2: 生命
  summary: Each player starts with 20 life.
  {catches}
  setup:
    turn: {{number: 3, active: A, step: precombat_main}}
  steps:
    - expect: {{players.A.life: 20}}
"""


def write(tmp_path, catches: str = "") -> None:
    (tmp_path / "mine.yaml").write_text(CASE.format(catches=catches), encoding="utf-8")


def test_a_case_without_catches_only_shows_its_rules(tmp_path):
    write(tmp_path)
    cases = casefile.load([tmp_path]).cases
    report = Coverage.of(cases, editions=["cr2004"])
    rule = report.rule("cr2004:101.3")
    assert (rule.showing, rule.discriminating, rule.status) == (("mine.life",), (),
                                                                "showing-only")
    assert report.rule("cr2004:100.2").status == "uncovered"
    assert report.rule("cr2004:101.2").status == "waits"
    assert report.rule("cr2004:100.1").status == "not-testable"


def test_catches_per_rule_makes_a_case_discriminating_for_that_rule(tmp_path):
    write(tmp_path, "catches: {cr2004:101.3: an engine that starts players at 25 life}")
    report = Coverage.of(casefile.load([tmp_path]).cases, editions=["cr2004"])
    assert report.rule("cr2004:101.3").status == "covered"
    assert report.rule("cr2004:102.2").status == "showing-only"
    assert report.counts()["covered"] == 1


def test_catches_for_an_uncited_rule_is_a_lint_error(tmp_path, capsys):
    write(tmp_path, "catches: {cr2004:300.3: mana burn}")
    code = main(["cases", "lint", "--no-bundled", str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 2
    assert "catches names cr2004:300.3, which the case does not cite" in out + err


def test_the_command_reports_sections_and_fails_under_a_floor(tmp_path, capsys):
    write(tmp_path, "catches: an engine that starts players at 25 life")
    argv = ["coverage", "--no-bundled", "--cases", str(tmp_path), "--edition", "cr2004"]
    assert main(argv) == 0
    out, _ = capsys.readouterr()
    assert "cr2004  101   Starting the game" in out
    assert "coverage: 2 of" in out
    assert main([*argv, "--fail-under", "50"]) == 1
    assert "is below --fail-under 50%" in capsys.readouterr().out
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert schemas.first_error("coverage.json", data) is None  # the writer keeps its schema
    assert data["summary"]["covered"] == 2
    rule = next(r for r in data["rules"] if r["rule"] == "cr2004:101.3")
    assert rule == {"rule": "cr2004:101.3", "section": "101", "testability": "engine",
                    "status": "covered", "cases": ["mine.life"],
                    "discriminating": ["mine.life"]}


def test_definition_rules_are_linked_to_the_cases_that_exercise_them():
    report = Coverage.of(casefile.load().cases)
    rule = report.rule("cr2004:104.3")
    assert rule.testability == "definition" and "cr2004:104.3a" in rule.exercised_by
    assert rule.via  # the cases citing the rules that exercise it


def test_params_substitute_into_catches(tmp_path):
    (tmp_path / "p.yaml").write_text(textwrap.dedent("""\
        - id: mine.life
          rules: [cr2004:101.3]
          editions: [cr2004]
          quote: 每位玩家擁有20點的總生命值
          summary: Life ${n}.
          catches: an engine that starts at ${n}
          params: [{n: 25}]
          setup: {turn: {number: 3, active: A, step: precombat_main}}
          steps:
            - expect: {players.A.life: 20}
        """), encoding="utf-8")
    (case,) = casefile.load([tmp_path]).cases
    assert case.catches_for("cr2004:101.3") == "an engine that starts at 25"
