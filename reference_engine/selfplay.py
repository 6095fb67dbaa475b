"""Self-play: random legal games, for speed measurement and robustness.

    python -m reference_engine.selfplay --games 200 --seed 1 --edition cr2004 --json
    python -m reference_engine.selfplay --games 200 --seed 1 --edition modern --decks pool

Each game builds two random two-colour decks (by the seed) from the core cards or, with
``--decks pool``, from the whole pool; then both players choose uniformly among the legal
actions (conceding only rarely) until the game ends. The JSON summary has ``games``,
``actions``, ``seconds``, ``actions_per_second``, ``results`` (wins, draws, by reason),
``errors`` and ``trace_sha256`` (a hash of every game's action sequence and final
observation): the same seed gives the same hash.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import random
import sys
import time
import traceback
from collections import Counter
from typing import Any

from reference_engine.actions import Action
from reference_engine.cards.core import CORE
from reference_engine.constants import COLORS, PLAYERS
from reference_engine.engine import supported_cards
from reference_engine.observation import observe
from reference_engine.registry import implementation
from reference_engine.setup import new_game
from spec.cardpool import default_pool
from spec.editions import EDITIONS

BASICS = {"W": "Plains", "U": "Island", "B": "Swamp", "R": "Mountain", "G": "Forest"}
MAX_ACTIONS_PER_GAME = 50_000
# Conceding ends a game at once; a small chance keeps it exercised without ending most games.
CONCEDE_CHANCE = 1 / 20_000


DECK_POOLS = ("core", "pool")


def random_deck(rng: random.Random, edition: str, size: int = 40, decks: str = "core"
                ) -> list[str]:
    """A two-colour deck: basics of both colours, one other land, and spells of those colours
    (or colourless), drawn from the core cards or (``decks="pool"``) from every card the
    engine implements in ``edition``. Ante cards are left out (the games are not for ante)."""
    _, lands, _ = _deck_candidates(edition, decks)
    colors = rng.sample(COLORS, 2)
    spells = _spells_of(edition, decks, frozenset(colors))
    deck = [BASICS[colors[i % 2]] for i in range(16)]
    if lands:
        deck.append(rng.choice(lands))
    while len(deck) < size:
        deck.append(rng.choice(spells))
    return deck


@functools.cache
def _deck_candidates(edition: str, decks: str
                     ) -> tuple[dict[str, Any], list[str], list[str]]:
    """The pool's cards, the nonbasic lands and the nonland cards a deck draws from: the same
    for every game, so worked out once (the games draw from them in the same order)."""
    cards = default_pool().edition(edition)
    impls = {n: implementation(n, edition) for n in supported_cards()[edition]}
    names = [n for n, impl in impls.items() if impl is not None and not impl.ante_card]
    if decks == "core":
        names = [n for n in names if n in CORE]
    lands = [n for n in names if "Land" in cards[n].types and n not in BASICS.values()]
    spells = [n for n in names if "Land" not in cards[n].types]
    return cards, lands, spells


@functools.cache
def _spells_of(edition: str, decks: str, colors: frozenset[str]) -> list[str]:
    """The nonland cards of those colours (or colourless) a deck draws from, in the pool's
    order: the same for every game with that pair of colours, so worked out once."""
    cards, _, candidates = _deck_candidates(edition, decks)
    return [n for n in candidates if set(cards[n].colors) <= colors]


def play_game(edition: str, seed: int, trace: Any, decks: str = "core"
              ) -> tuple[dict[str, Any], int]:
    """Play one random game; feed its actions and final observation to ``trace``."""
    rng = random.Random(seed)
    setup = {
        "start": "game",
        "seed": seed,
        "decks": {name: random_deck(rng, edition, decks=decks) for name in PLAYERS},
    }
    game, _ = new_game(edition, setup)
    actions = 0
    legal = game.legal_actions
    apply = game.apply
    choice = rng.choice
    rand = rng.random
    # Most actions chosen are objects the listing reuses all game (a pass, a land's mana
    # ability): their text is made once per game, found by identity. (Not by equality:
    # choice=1 equals choice=True, and their texts differ. Each action is kept with its text,
    # so its id is not reused while it is there.)
    texts: dict[int, tuple[Action, bytes]] = {}
    while not game.result.over and actions < MAX_ACTIONS_PER_GAME:
        options = legal()
        # options end with the two concessions
        action = options[-1 - (rand() < 0.5)] if rand() < CONCEDE_CHANCE else choice(
            options[:-2])
        known = texts.get(id(action))
        if known is None or known[0] is not action:
            known = texts[id(action)] = (action, repr(action).encode())
        trace(known[1])
        apply(action)
        actions += 1
    final = observe(game)
    trace(json.dumps(final, sort_keys=True).encode())
    if not game.result.over:
        raise RuntimeError(f"game {seed} did not end within {MAX_ACTIONS_PER_GAME} actions")
    return final["result"], actions


def run(games: int, seed: int, edition: str, decks: str = "core") -> dict[str, Any]:
    digest = hashlib.sha256()
    results: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    errors: list[dict[str, Any]] = []
    total = 0
    started = time.perf_counter()
    for index in range(games):
        game_seed = seed * 1_000_003 + index
        try:
            result, actions = play_game(edition, game_seed, digest.update, decks)
        except Exception as exc:  # recorded and counted: one bad game must not end the run
            errors.append({"game": index, "seed": game_seed, "error": repr(exc),
                           "where": traceback.format_exc().strip().splitlines()[-3:]})
            continue
        total += actions
        if result["draw"]:
            results["draws"] += 1
        else:
            results[f"wins_{result['winners'][0]}"] += 1
        reasons[result["reason"]] += 1
    seconds = time.perf_counter() - started
    return {
        "edition": edition,
        "seed": seed,
        "decks": decks,
        "games": games,
        "actions": total,
        "seconds": round(seconds, 3),
        "actions_per_second": round(total / seconds) if seconds else 0,
        "results": {
            "wins": {name: results[f"wins_{name}"] for name in PLAYERS},
            "draws": results["draws"],
            "by_reason": dict(sorted(reasons.items())),
        },
        "errors": errors,
        "trace_sha256": digest.hexdigest(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reference_engine.selfplay",
                                     description="Play random legal games and measure speed.")
    parser.add_argument("--games", type=int, default=20, help="Number of games (default 20)")
    parser.add_argument("--seed", type=int, default=1, help="Seed of the whole run")
    parser.add_argument("--edition", choices=tuple(EDITIONS), default="cr2004")
    parser.add_argument("--decks", choices=DECK_POOLS, default="core",
                        help="Build decks from the core cards (default) or the whole pool")
    parser.add_argument("--json", action="store_true", help="Print the summary as JSON")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    try:
        summary = run(args.games, args.seed, args.edition, args.decks)
    except KeyboardInterrupt:
        print("selfplay: interrupted", file=sys.stderr)
        return 130
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        print(describe(summary))
    return 1 if summary["errors"] else 0


def describe(summary: dict[str, Any]) -> str:
    """A run's summary as a person reads it."""
    results = summary["results"]
    wins = ", ".join(f"{name} won {count}" for name, count in results["wins"].items())
    reasons = ", ".join(f"{reason} {count}" for reason, count in results["by_reason"].items())
    lines = [
        f"{summary['games']} {summary['edition']} games ({summary['decks']} decks, seed "
        f"{summary['seed']}): {summary['actions']} actions in {summary['seconds']}s, "
        f"{summary['actions_per_second']} actions/s",
        f"results: {wins}, {results['draws']} drawn; ended by {reasons or 'nothing'}",
        f"trace:   {summary['trace_sha256']} (the same seed plays the same games)",
    ]
    for error in summary["errors"]:
        lines.append(f"error in game {error['game']} (seed {error['seed']}): {error['error']}")
        lines.extend(f"    {line}" for line in error["where"])
    if not summary["errors"]:
        lines.append("errors:  none")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())



