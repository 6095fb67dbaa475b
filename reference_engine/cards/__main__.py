"""The card index: every card the reference engine implements, and the rules each serves.

    python -m reference_engine.cards --json          # every card: name, editions, type line, rules
    python -m reference_engine.cards --coverage      # every engine/card-data rule: what serves it

A rule classed ``engine`` or ``card-data`` is served by cards (spec/card_rules.yaml),
by the base game (spec/base_game.yaml, with the part of the game that shows it), or waits for
a mechanic the engine lacks (``testability.waits`` in the corpus).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from reference_engine.registry import implemented
from spec.cardpool import default_pool
from spec.rule_servers import card_rules, rule_coverage


def card_index() -> list[dict[str, Any]]:
    pool = default_pool()
    impls = implemented()
    served = card_rules()
    cards = []
    for name in pool.names():
        editions = {key: per[name] for key, per in pool.cards.items() if name in per}
        first = next(iter(editions.values()))
        cards.append({
            "name": name,
            "editions": list(editions),
            "type_line": {key: card.type_line for key, card in editions.items()},
            "mana_cost": first.cost,
            "implemented": name in impls,
            "rules": list(served.get(name, ())),
        })
    return cards


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reference_engine.cards",
                                     description="The reference engine's card index.")
    parser.add_argument("--json", action="store_true", help="Print JSON")
    parser.add_argument("--coverage", action="store_true",
                        help="Per testable rule: the cards or base-game part that serve it")
    args = parser.parse_args(argv)
    if args.coverage:
        coverage = rule_coverage()
        if args.json:
            print(json.dumps(coverage, indent=1, ensure_ascii=False))
            return 0
        for ref, entry in coverage.items():
            parts = []
            if entry["cards"]:
                parts.append(", ".join(entry["cards"]))
            if entry["base_game"]:
                parts.append(f"base game: {entry['base_game']}")
            if entry["waits"]:
                parts.append(f"waits: {entry['waits']}")
            print(f"{ref:<16} {'; '.join(parts) or 'NOT SERVED'}")
        return 0
    cards = card_index()
    if args.json:
        print(json.dumps(cards, indent=1, ensure_ascii=False))
        return 0
    for card in cards:
        rules = ", ".join(card["rules"]) or "-"
        print(f"{card['name']:<32} {'/'.join(card['editions']):<14} {rules}")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # the reader (e.g. `| head`) went away
        sys.stdout = None
        sys.exit(0)
