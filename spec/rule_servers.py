"""What serves each testable rule in conformance cases: cards of the pool
(spec/card_rules.yaml), the base game (spec/base_game.yaml, naming the part of the game), or
nothing yet (``testability.waits`` in the corpus, saying why its cases must wait).

The seed rules and the rules outside the seeds are served apart (:func:`rule_coverage`'s
``outside``): every testable seed rule is served or waits; the rules outside the seeds get
their servers with their cases (issue 27), and :func:`unserved` says which have none yet."""

from __future__ import annotations

from functools import cache
from typing import Any

import yaml

from spec.corpus import Corpus
from spec.editions import SPEC_DIR
from spec.errors import SpecError

BASE_GAME_PATH = SPEC_DIR / "base_game.yaml"
CARD_RULES_PATH = SPEC_DIR / "card_rules.yaml"


@cache
def card_rules() -> dict[str, tuple[str, ...]]:
    """Card name -> the rules it serves."""
    display = "spec/card_rules.yaml"
    try:
        raw = yaml.safe_load(CARD_RULES_PATH.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise SpecError(f"{display}: unreadable: {exc}") from None
    if not isinstance(raw, dict):
        raise SpecError(f"{display}: must map card names to lists of rules")
    out = {}
    for name, refs in raw.items():
        if not isinstance(refs, list) or not all(isinstance(r, str) for r in refs):
            raise SpecError(f"{display}: {name}: must be a list of rule refs")
        out[str(name)] = tuple(refs)
    return out


@cache
def base_game() -> dict[str, str]:
    """Rule ref -> the part of the base game that shows it."""
    display = "spec/base_game.yaml"
    try:
        raw = yaml.safe_load(BASE_GAME_PATH.read_text(encoding="utf-8")) or []
    except (OSError, yaml.YAMLError) as exc:
        raise SpecError(f"{display}: unreadable: {exc}") from None
    out: dict[str, str] = {}
    for index, item in enumerate(raw, start=1):
        if not isinstance(item, dict) or not isinstance(item.get("rule"), str) or not (
                isinstance(item.get("by"), str)):
            raise SpecError(f"{display}: entry {index}: needs rule and by")
        out[item["rule"]] = item["by"]
    return out


def rule_coverage(corpus: Corpus | None = None, *, outside: bool | None = False
                  ) -> dict[str, dict[str, Any]]:
    """For every engine or card-data rule of one part (``outside``: False the seed rules, True
    the rules outside the seeds, None both): the cards, the base-game part, the wait reason,
    and which part it is of."""
    corpus = corpus or Corpus.load()
    by_rule: dict[str, list[str]] = {}
    for name, refs in card_rules().items():
        for ref in refs:
            by_rule.setdefault(ref, []).append(name)
    base = base_game()
    coverage = {}
    for rule in corpus.records(outside=outside):
        if not rule.is_testable:
            continue
        coverage[rule.ref] = {
            "cards": sorted(by_rule.get(rule.ref, [])),
            "base_game": base.get(rule.ref),
            "waits": rule.testability.get("waits"),
            "outside": rule.outside,
        }
    return coverage


def unserved(coverage: dict[str, dict[str, Any]]) -> list[str]:
    """The rules of ``coverage`` (what :func:`rule_coverage` gives) that no card and no part
    of the base game serves, and that do not say why they wait."""
    return [ref for ref, entry in coverage.items()
            if not (entry["cards"] or entry["base_game"] or entry["waits"])]
