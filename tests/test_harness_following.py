"""The safety net for cases that follow a handle across a zone change without requiring
observe.events (conformance/following.py, ``mtgconf cases lint --run``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from conformance import casefile
from conformance.following import followed_handles
from conformance.session import EngineSession
from conformance.transports import EngineSpec
from mtgconf import main

HEAD = """
- id: follow.{id}
  rules: [cr2004:212.6a]
  editions: [cr2004]
  quote: 擁有優先權，並且堆疊空著時，從他手上使用地牌
  summary: A plays a Mountain from the opening hand and taps it for a Lightning Bolt.
  {requires}
  setup:
    start: game
    seed: 1
    first_player: A
    decks:
      A: [{{handle: bolt, card: Lightning Bolt}}, {{handle: mountain, card: Mountain}},
          {{card: Island, count: 5}}]
      B: [{{card: Forest, count: 40}}]
  steps:
    - advance: {{turn: 1, step: precombat_main}}
    - do: {{action: play_land, player: A, card: mountain}}
"""
# The Mountain named by its handle after it moved from the hand to the battlefield: in an
# action (the pay_with), in a check, in an action that must be rejected (which an engine
# without events rejects for naming nothing: a pass for the wrong reason), by card name.
STEPS = {
    "action": """    - do: {action: cast, player: A, card: bolt, targets: [B], pay_with: [mountain]}
    - expect: {players.B.life: 20, stack: {count: 1}}
""",
    "check": """    - expect: {"battlefield[mountain].tapped": false}
""",
    "rejected": """    - expect_illegal: {action: activate, player: A, card: mountain, ability: 1}
""",
    "by-card":
        """    - do: {action: cast, player: A, card: bolt, targets: [B], pay_with: [Mountain]}
    - expect: {"battlefield[card=Mountain].tapped": true, stack: {count: 1}}
""",
}


def _cases(tmp_path: Path, requires: str = "") -> list:
    text = "".join(textwrap.dedent(HEAD).format(id=name, requires=requires) + steps
                   for name, steps in STEPS.items())
    path = tmp_path / "follow.yaml"
    path.write_text(text, encoding="utf-8")
    loaded = casefile.load([path])
    assert not loaded.problems, loaded.problems
    return loaded.cases


@pytest.fixture
def reference():
    session = EngineSession(EngineSpec.parse("reference"))
    session.start()
    yield session
    session.close()


def test_a_handle_named_after_it_moved_is_found_in_actions_checks_and_rejections(
        tmp_path, reference):
    problems = followed_handles(_cases(tmp_path), reference)
    assert sorted(p.case for p in problems) == ["follow.action", "follow.check",
                                                "follow.rejected"]
    by_case = {p.case: p.message for p in problems}
    assert "moved: mountain" in by_case["follow.action"]
    assert "fails there" in by_case["follow.check"]
    # The rejection passes without events too, for naming nothing: the requests tell.
    assert "is sent other actions" in by_case["follow.rejected"]
    assert all("requires" in m and "bind" in m for m in by_case.values())


def test_a_case_that_requires_events_is_not_reported(tmp_path, reference):
    assert followed_handles(_cases(tmp_path, "requires: [observe.events]"), reference) == []


def test_no_bundled_case_follows_a_handle_without_requiring_events(reference):
    problems = followed_handles(casefile.load().cases, reference)
    assert [str(p) for p in problems] == []


def test_the_lint_command_runs_it(tmp_path, capsys):
    _cases(tmp_path)
    assert main(["cases", "lint", "--no-bundled", "--run", str(tmp_path)]) == 2
    out = capsys.readouterr().out
    assert "follow.action" in out and "observe.events" in out
    assert main(["cases", "lint", "--no-bundled", str(tmp_path)]) == 0
