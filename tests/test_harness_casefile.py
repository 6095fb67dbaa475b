"""Case files: loading, every kind of problem located, params, and lint against the corpus."""

from __future__ import annotations

import textwrap

import pytest

from conformance import casefile, lint
from conformance.casefile import CASES_DIR

GOOD = """\
- id: test.one
  rules: [cr2004:101.3]
  editions: [cr2004]
  quote: 每位玩家擁有20點的總生命值
  summary: Each player starts with 20 life.
  setup:
    players:
      A: {hand: [{handle: bolt, card: Lightning Bolt}]}
  steps:
    - expect: {players.A.life: 20}
"""


def load(tmp_path, text, name="cases.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return casefile.load([tmp_path]), path


def only_problem(tmp_path, text):
    cases, path = load(tmp_path, text)
    assert cases.cases == []
    assert len(cases.problems) >= 1, "expected a problem"
    return cases.problems[0], path


def test_bundled_cases_load_and_lint_clean():
    cases = casefile.load()
    assert cases.problems == []
    assert len(cases.cases) >= 6
    assert [p for p in lint.lint(cases) if p.severity == "error"] == []
    for case in cases.cases:
        assert case.steps and case.summary and case.editions


def test_a_good_case_is_compiled(tmp_path):
    cases, path = load(tmp_path, GOOD)
    (case,) = cases.cases
    assert (case.id, case.file, case.line) == ("test.one", path, 1)
    assert case.handles == {"bolt"} and case.cards == {"Lightning Bolt"}
    assert case.needs == {"setup.state"}
    assert case.steps[0].line == 10 and case.steps[0].checks[0].path.text == "players.A.life"


@pytest.mark.parametrize(("edit", "line", "field", "words"), [
    (("id: test.one", "id: Test One"), 1, "id", "does not match"),
    (("editions: [cr2004]", "editions: [cr1999]"), 3, "editions[0]", "is not one of"),
    (("  summary: Each player starts with 20 life.\n", ""), 1, None, "'summary' is a required"),
    (("- expect: {players.A.life: 20}", "- wait: 3"), 10, "steps[0]",
     "a step has exactly one of do, expect, expect_illegal, advance, bind, "
     "expect_illegal_setup (found wait)"),
    (("- expect: {players.A.life: 20}", "- {do: {action: dance, player: A}}"), 10,
     "steps[0]", "do.action: 'dance' is not one of"),
    (("- expect: {players.A.life: 20}", "- {do: {action: pass}}"), 10, "steps[0]",
     "'player' is a required property"),
    (("  steps:", "  colour: red\n  steps:"), 9, "colour", "unknown field 'colour' (known: id"),
    (("  steps:", "  require: []\n  steps:"), 9, "require",
     "unknown field 'require' (did you mean requires?)"),
    (("- expect: {players.A.life: 20}", "- {advance: {step: upkeep, phase: combat}}"), 10,
     "steps[0]", "should not be valid"),
])
def test_schema_problems_name_file_line_case_and_field(tmp_path, edit, line, field, words):
    problem, path = only_problem(tmp_path, GOOD.replace(*edit))
    assert (problem.path, problem.line, problem.field) == (str(path), line, field)
    assert problem.case in ("test.one", "Test One")
    assert words in problem.message
    assert str(problem).startswith(f"{path}:{line}: case ")


@pytest.mark.parametrize(("edit", "field", "words"), [
    (("{players.A.life: 20}", "{players.A.life: 20}\n    - {do: {action: cast, player: A, "
      "card: blot}}"), "steps[1].do.card", "'blot' is not a handle of the setup, a card in it "
      "(did you mean bolt?)"),
    (("{players.A.life: 20}", "{players.A.life: 20}\n    - {do: {action: cast, player: C, "
      "card: bolt}}"), "steps[1].do.player", "player must be A or B"),
    (("{players.A.life: 20}", "{'battlefield[bears]': {count: 1}}"), "steps[0].expect."
     "battlefield[bears]",
     "[bears] is not a handle of the setup or of a bind step before (handles: bolt"),
    (("{players.A.life: 20}", "{'players..life': 20}"), "steps[0].expect.players..life",
     "bad path: empty key"),
    (("{players.A.life: 20}", "{players.C.life: 20}"), "steps[0].expect.players.C.life",
     "bad path: players.C: no player C (A or B)"),
    (("{players.A.life: 20}", "{turn.stepp: upkeep}"), "steps[0].expect.turn.stepp",
     "no field stepp in turn (did you mean step?)"),
    (("{players.A.life: 20}", "{'players.A.hand[bolt].pwoer': 3}"),
     "steps[0].expect.players.A.hand[bolt].pwoer",
     "did you mean power?"),
    (("  steps:", "  requires: [observe.event]\n  steps:"), "requires",
     "unknown capability 'observe.event' (did you mean observe.events?)"),
    (("A: {hand: [{handle: bolt, card: Lightning Bolt}]}", "A: {life: twenty}"),
     "setup.players.A.life", "not a valid setup"),
    (("A: {hand: [{handle: bolt, card: Lightning Bolt}]}",
      "A: {hand: [{handle: bolt, card: Lightning Bolt, count: 2}]}"), "setup.players.A.hand[0]",
     "not a valid setup"),
    (("{players.A.life: 20}", "{players.A.life: '${life}'}"), "steps[0].expect.players.A.life",
     "unknown parameter ${life}"),
])
def test_compile_problems(tmp_path, edit, field, words):
    problem, _ = only_problem(tmp_path, GOOD.replace(*edit))
    assert problem.field == field
    assert words in problem.message


def test_yaml_syntax_errors_give_the_line(tmp_path):
    problem, _ = only_problem(tmp_path, GOOD.replace(
        "{players.A.life: 20}", "{battlefield[card=Forest]: {count: 0}}"))
    assert problem.line == 10
    assert "not valid YAML" in problem.message and "quote a path" in problem.message


def test_duplicate_keys_are_problems(tmp_path):
    duplicated = GOOD.replace("  editions: [cr2004]\n", "  editions: [cr2004]\n  editions: [x]\n")
    problem, _ = only_problem(tmp_path, duplicated)
    assert (problem.line, problem.message) == (4, "duplicate key 'editions'")


def test_duplicate_ids_within_and_across_files(tmp_path):
    cases, _ = load(tmp_path, GOOD + GOOD)
    assert [p.message for p in cases.problems] == ["duplicate id: already used at line 1"]
    (tmp_path / "cases.yaml").write_text(GOOD)
    (tmp_path / "more.yaml").write_text(GOOD)
    cases = casefile.load([tmp_path])
    assert [c.file.name for c in cases.cases] == ["cases.yaml"]
    (problem,) = cases.problems
    assert problem.path.endswith("more.yaml") and "already used at" in problem.message


def test_params_expand_with_typed_values_and_suffixes(tmp_path):
    cases, _ = load(tmp_path, GOOD.replace("  setup:", """\
  params:
    - {suffix: low, life: 1}
    - {life: 30, tag: Big Life}
  setup:""").replace("A: {hand:", "B: {life: '${life}'}\n      A: {hand:").replace(
        "{players.A.life: 20}", "{players.B.life: '${life}', result.reason: 'at ${life}'}"))
    assert cases.problems == []
    assert [c.id for c in cases.cases] == ["test.one.low", "test.one.30-big-life"]
    low = cases.cases[0]
    assert low.setup["players"]["B"]["life"] == 1
    assert [c.expected for c in low.steps[0].checks] == [1, "at 1"]
    assert low.base_id == "test.one" and low.params == {"life": 1}


def test_empty_and_missing(tmp_path):
    cases, _ = load(tmp_path, "")
    assert cases.cases == [] and cases.problems == []
    cases = casefile.load([tmp_path / "nowhere"])
    assert cases.problems[0].message == "no such file or directory"


@pytest.mark.parametrize(("edit", "severity", "words"), [
    (("rules: [cr2004:101.3]", "rules: [cr2004:101.99]"), "error",
     "no rule cr2004:101.99 in the corpus"),
    (("rules: [cr2004:101.3]", "rules: [cr2004:212.2b]"), "error", "does not occur in"),
    (("quote: 每位玩家擁有20點的總生命值", "quote: 每位玩家擁有30點"), "error", "does not occur"),
    (("rules: [cr2004:101.3]\n  editions: [cr2004]\n  quote: 每位玩家擁有20點的總生命值",
      "rules: [cr2004:101]\n  editions: [cr2004]\n  quote: 開始遊戲"), "warning",
     "not testable by an engine (heading)"),
    (("editions: [cr2004]", "editions: [modern]"), "warning", "which the case does not run under"),
    (("quote: 每位玩家擁有20點的總生命值", "quote: {cr2004:101.3: 20點, cr2004:101.4: 調度}"),
     "warning", "the quote for cr2004:101.4 belongs to no cited rule"),
])
def test_lint_against_the_corpus(tmp_path, edit, severity, words):
    cases, _ = load(tmp_path, GOOD.replace(*edit))
    problems = lint.lint(cases)
    assert [(p.severity, words in p.message) for p in problems] == [(severity, True)]
    assert problems[0].case == "test.one"


SKIPPED_DRAW = """\
- id: test.skips-draw
  rules: [cr2004:101.5]
  editions: [cr2004]
  quote: 先手的玩家略過他第一個回合的抽牌步驟
  summary: The player who goes first skips the draw step of their first turn.
  setup:
    start: game
    seed: 5
    first_player: A
    decks: {A: [{card: Forest, count: 40}], B: [{card: Island, count: 40}]}
  steps:
"""
# The first form of turn.first-player-skips-draw: it counts cards, which an engine with a
# turn-1 draw step that draws nothing (priority in it) passes.
BY_COUNT = """\
    - advance: {turn: 1, step: precombat_main}
    - expect: {turn.active: A, players.A.hand: {count: 7}}
"""
BY_STEP = """\
    - advance: {turn: 1, step: upkeep}
    - do: {action: pass, player: A}
    - do: {action: pass, player: B}
    - expect: {turn: {number: 1, step: precombat_main}, players.A.hand: {count: 7}}
"""


def test_a_case_that_says_a_step_is_skipped_must_read_the_step(tmp_path):
    cases, _ = load(tmp_path, SKIPPED_DRAW + BY_COUNT)
    problems = lint.lint(cases)
    assert [(p.severity, p.field) for p in problems] == [("error", "steps")]
    assert "no expect reads the step or who has priority" in problems[0].message
    cases, _ = load(tmp_path, SKIPPED_DRAW + BY_STEP)
    assert lint.lint(cases) == []


def test_load_checked_drops_files_with_lint_errors(tmp_path):
    (tmp_path / "good.yaml").write_text(GOOD)
    (tmp_path / "bad.yaml").write_text(GOOD.replace("test.one", "test.two").replace(
        "101.3", "101.99"))
    cases = lint.load_checked([tmp_path])
    assert [c.id for c in cases.cases] == ["test.one"]
    assert [p.path.endswith("bad.yaml") for p in cases.problems] == [True]


def test_case_files_are_found_once_in_order(tmp_path):
    (tmp_path / "b.yaml").write_text("")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.yml").write_text("")
    (tmp_path / "notes.txt").write_text("")
    files = casefile.case_files([tmp_path, tmp_path / "b.yaml", CASES_DIR / "start.yaml"])
    assert [f.name for f in files] == ["b.yaml", "a.yml", "start.yaml"]


def test_lint_reads_the_editions_of_every_expansion(tmp_path):
    # The first entry runs under cr2004 only: the modern rule is still one the case runs under.
    cases, _ = load(tmp_path, GOOD.replace("rules: [cr2004:101.3]\n  editions: [cr2004]\n", """\
rules: [cr2004:101.3, modern:508.1d]
  editions: [cr2004, modern]
  terms: {modern:508.1d: [requirements]}
  params:
    - {editions: [cr2004], suffix: old}
    - {editions: [modern], suffix: new}
""").replace("quote: 每位玩家擁有20點的總生命值",
                "quote: {cr2004:101.3: 每位玩家擁有20點的總生命值}"))
    assert [c.id for c in cases.cases] == ["test.one.old", "test.one.new"]
    assert lint.lint(cases) == []
    # Every expansion under modern only: the 2004 rule is cited by a case that never runs it.
    cases, _ = load(tmp_path, GOOD.replace("editions: [cr2004]\n", """\
editions: [cr2004, modern]
  params:
    - {editions: [modern], suffix: a}
    - {editions: [modern], suffix: b}
"""))
    problems = lint.lint(cases)
    assert [(p.severity, p.case) for p in problems] == [("warning", "test.one")]
    assert "cr2004:101.3 is a rule of cr2004, which the case does not run under" in (
        problems[0].message)


def test_lint_checks_the_steps_of_every_expansion(tmp_path):
    # Only the second entry's spell costs mana: an illegal cast of it with nothing to pay.
    cases, _ = load(tmp_path, GOOD.replace("  setup:", """\
  params:
    - {suffix: free, card: Ornithopter}
    - {suffix: bolt, card: Lightning Bolt}
  setup:""").replace("card: Lightning Bolt}", "card: '${card}'}").replace(
        "    - expect: {players.A.life: 20}",
        "    - expect_illegal: {action: cast, player: A, card: bolt}"))
    assert cases.problems == []
    problems = lint.lint(cases)
    assert [(p.severity, p.case, p.field) for p in problems] == [
        ("warning", "test.one", "steps[0]")]
    assert "nothing pays for this cast" in problems[0].message
