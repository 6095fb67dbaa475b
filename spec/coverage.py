"""What serves each testable rule in conformance cases: cards of the pool (``rules`` in
spec/cards.yaml), the base game (spec/base_game.yaml), or nothing yet (``testability.waits``
in the corpus, saying why its cases must wait)."""

from __future__ import annotations

from functools import cache
from typing import Any

import yaml

from spec.cardpool import default_pool
from spec.corpus import Corpus
from spec.editions import SPEC_DIR
from spec.errors import SpecError

BASE_GAME_PATH = SPEC_DIR / "base_game.yaml"


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


def rule_coverage(corpus: Corpus | None = None) -> dict[str, dict[str, Any]]:
    """For every engine or card-data rule: the cards, the base-game part, the wait reason."""
    corpus = corpus or Corpus.load()
    pool = default_pool()
    by_rule: dict[str, list[str]] = {}
    for per_edition in pool.cards.values():
        for card in per_edition.values():
            for ref in card.rules:
                if card.name not in by_rule.setdefault(ref, []):
                    by_rule[ref].append(card.name)
    base = base_game()
    coverage = {}
    for rule in corpus:
        if not rule.is_testable:
            continue
        coverage[rule.ref] = {
            "cards": sorted(by_rule.get(rule.ref, [])),
            "base_game": base.get(rule.ref),
            "waits": rule.testability.get("waits"),
        }
    return coverage
