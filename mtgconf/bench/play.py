"""Random legal play: how many actions an engine performs a second.

``protocol_play`` drives any engine through the protocol client, as the fuzzer and every
third-party engine are driven: seeded starts (``start: game``) with two decks drawn from the
cards the engine declared for the edition (the fuzzer's ``playable_cards``), then, each step,
``legal_actions`` and ``perform`` of one of them chosen uniformly by a seeded RNG (never a
concession), until the game ends (no legal action is left) or a step cap, then a new game.
Nothing is observed or checked: the figure is the engine's, and the protocol's, cost per
action. ``reference_selfplay`` is the reference engine's own loop, in process and without the
protocol (``python -m reference_engine.selfplay --decks pool``), for comparison.
"""

from __future__ import annotations

import random
import time
from typing import Any

from conformance.errors import CallFailed, EngineRejected
from conformance.protocol import ILLEGAL_ACTION, PLAYERS
from conformance.session import EngineBroken, EngineSession
from mtgconf.bench.figures import NotApplicable, Sample, Unmeasurable

#: a game that has not ended after this many attempted actions is dropped for a new one
STEP_CAP = 2_000
DECK_SIZE = 40
LANDS = 16
COLOR_OF_BASIC = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}
#: every measurement plays the same games (the same seed): repeats differ by noise alone
SEED = 0
#: a call may take this long past the budget before it counts as hung
GRACE = 30.0


def protocol_play(session: EngineSession, edition: str, seconds: float) -> Sample:
    """Accepted actions per second of random legal play through the protocol."""
    from fuzz.strategies import playable_cards

    info = session.info
    assert info is not None
    missing = [c for c in ("setup.start", "actions.legal") if c not in info.capabilities]
    if missing:
        raise NotApplicable(f"the engine lacks {', '.join(missing)}")
    basics, rest = playable_cards(info, edition)
    if not basics:
        raise NotApplicable(f"the engine declares no basic land in {edition}")
    colours = _colours(edition)
    rng = random.Random(SEED)
    actions = rejected = games = ended = attempts = 0
    # A process engine that hangs is stopped by a time limit; an in-process one only by
    # Ctrl-C, since its limit (an alarm signal per call) would cost it a sixth of its rate.
    limit = seconds + GRACE if session.spec.kind == "cmd" else None
    try:
        # The session restarts an engine that a measurement before left unusable.
        client = session.begin(limit)
    except (EngineBroken, CallFailed) as exc:
        raise Unmeasurable(str(exc)) from None
    begin = time.perf_counter()
    try:
        while time.perf_counter() - begin < seconds:
            if attempts == 0:
                decks = {p: deck(rng, basics, rest, colours) for p in PLAYERS}
                client.new_game(edition, {"start": "game", "seed": rng.randrange(1 << 16),
                                          "decks": decks})
                games += 1
            legal = [a for a in client.legal_actions() if a.get("action") != "concede"]
            if not legal:
                ended += 1
                attempts = 0
                continue
            attempts += 1
            try:
                client.perform(rng.choice(legal))
                actions += 1
            except EngineRejected as exc:
                if exc.type != ILLEGAL_ACTION:
                    raise
                rejected += 1  # a listed action refused: the engine's bug, not the bench's
            if attempts >= STEP_CAP:
                attempts = 0
    except CallFailed as exc:
        session.end(unusable=True)
        raise Unmeasurable(f"the engine failed in game {games} after {actions} actions: "
                           f"{type(exc).__name__}: {exc}") from None
    elapsed = time.perf_counter() - begin
    session.end(unusable=False)
    return Sample(actions / elapsed, {"actions": actions, "games": games, "ended": ended,
                                      "rejected": rejected, "seconds": round(elapsed, 3)})


def deck(rng: random.Random, basics: list[str], rest: list[str],
         colours: dict[str, tuple[str, ...]]) -> list[str]:
    """Basics of one or two colours, and other cards of those colours or colourless (a card
    the pool does not know counts as colourless): a deck that can cast what it draws."""
    lands = rng.sample(basics, min(2, len(basics)))
    allowed = {COLOR_OF_BASIC.get(land) for land in lands}
    spells = [c for c in rest if set(colours.get(c, ())) <= allowed] or rest or lands
    return [lands[i % len(lands)] for i in range(LANDS)] + [
        rng.choice(spells) for _ in range(DECK_SIZE - LANDS)]


def _colours(edition: str) -> dict[str, tuple[str, ...]]:
    from spec.cardpool import default_pool

    try:
        cards = default_pool().edition(edition)
    except KeyError:
        return {}
    return {name: card.colors for name, card in cards.items()}


def reference_selfplay(edition: str, seconds: float) -> Sample:
    """The reference engine's in-process self-play (``--decks pool``), games until the
    budget is spent: actions per second."""
    from reference_engine.selfplay import run

    actions = games = 0
    elapsed = 0.0
    errors: list[dict[str, Any]] = []
    while elapsed < seconds:
        started = time.perf_counter()
        summary = run(1, SEED + games + 1, edition, "pool")
        elapsed += time.perf_counter() - started
        games += 1
        actions += summary["actions"]
        errors += summary["errors"]
        if errors:
            first = errors[0]
            raise Unmeasurable(f"the reference engine failed in self-play game seed "
                               f"{first['seed']}: {first['error']}")
    return Sample(actions / elapsed if elapsed else 0.0,
                  {"actions": actions, "games": games, "seconds": round(elapsed, 3)})
