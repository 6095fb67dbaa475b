"""The editions differ only through the hooks of GameState, and an edition must decide every
one of them: a flag left out fails as the class is defined, a hook left out when the game is
made, and the engine's editions are exactly spec's."""

from __future__ import annotations

from typing import ClassVar

import pytest

from reference_engine import editions
from reference_engine.editions import EDITION_GAMES, Game2004, GameModern
from reference_engine.game import Game
from reference_engine.state import EDITION_FLAGS
from spec.editions import EDITIONS


def test_each_edition_sets_every_flag_itself():
    for game in (Game2004, GameModern):
        missing = [flag for flag in EDITION_FLAGS if flag not in game.__dict__]
        assert missing == [], f"{game.__name__} inherits {missing}"


def test_an_edition_leaving_a_flag_out_fails_as_it_is_defined():
    with pytest.raises(TypeError, match="does not set extra_zones, pool_empties_each_step"):
        class _Bare(Game):  # defining it is the test
            edition: ClassVar[str] = "third"


def test_an_edition_leaving_a_hook_out_cannot_be_made():
    flags = {flag: getattr(GameModern, flag) for flag in EDITION_FLAGS}
    third = type("GameThird", (Game,), {"edition": "third", **flags})
    with pytest.raises(TypeError, match="abstract"):
        third(1)


def test_the_engines_editions_are_specs():
    assert list(EDITION_GAMES) == list(EDITIONS)
    with pytest.raises(TypeError, match="not spec's"):
        editions._edition_games(Game2004)
