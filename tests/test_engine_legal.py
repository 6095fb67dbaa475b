"""legal_actions() lists exactly what perform() accepts, in states reached by random play."""

from __future__ import annotations

import random

import pytest

from reference_engine.errors import IllegalActionError
from reference_engine.selfplay import random_deck
from reference_engine.setup import new_game


def replay(edition: str, seed: int, prefix: list) -> object:
    rng = random.Random(seed)
    setup = {"start": "game", "seed": seed,
             "decks": {p: random_deck(rng, edition) for p in ("A", "B")}}
    game, _ = new_game(edition, setup)
    for action in prefix:
        game.perform(action)
    return game


@pytest.mark.parametrize("edition", ["cr2004", "modern"])
@pytest.mark.parametrize("seed", [1, 2])
def test_every_listed_action_is_accepted_by_the_checked_path(edition, seed):
    rng = random.Random(seed)
    game = replay(edition, seed, [])
    prefix: list = []
    checked = 0
    while not game.result.over and len(prefix) < 400:
        options = game.legal_actions()
        assert len(set(options)) == len(options), "an action is listed twice"
        if len(prefix) % 13 == 0:
            for action in options:
                if action.kind == "concede":
                    continue
                fresh = replay(edition, seed, prefix)
                fresh.perform(action)  # must not raise
                checked += 1
        action = rng.choice(options[:-2])
        prefix.append(action)
        game.perform(action)
    assert checked > 10


@pytest.mark.parametrize("edition", ["cr2004", "modern"])
def test_an_action_missing_from_the_list_is_rejected(edition):
    game = replay(edition, 3, [])
    listed = set(game.legal_actions())
    for other in [a._replace(player="B" if a.player == "A" else "A") for a in listed]:
        if other not in listed:
            with pytest.raises(IllegalActionError):
                game.perform(other)
