"""Every invariant of the fuzzer catches an engine that breaks it.

"An invariant that cannot fail on a broken engine is a defect": for each invariant of
``fuzz.invariants`` a fake engine of ``tests/fakes/fuzz_engines.py`` (the reference engine
with one bug) plays a short fixed game through ``fuzz.play.Play`` and the invariant reports
it; the same game on the reference engine breaks no invariant at all. The end-to-end tests
run a small campaign on a fake and check that the fuzzer finds the bug by itself, shrinks it,
and writes a case file that lints and replays. The last tests pin down gaps found on the way
(strict xfails: each fails once its gap is fixed, and its mark is then dropped).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from conformance.casefile import load_file
from fuzz import observations as ob
from fuzz.campaign import Campaign, Profile
from fuzz.engines import FuzzEngines
from fuzz.invariants import INVARIANTS, Violation, check_all
from fuzz.machine import (
    ENGINE_ERROR,
    Failure,
    Findings,
    FuzzConfig,
    replays_the_same,
)
from fuzz.play import Play, opens_with_decisions
from fuzz.replay import case_from, replay, write_case
from fuzz.strategies import NO_SUCH_ID, Flaw

FAKES = "py:tests.fakes.fuzz_engines"
REFERENCE = "reference"


# ---- games: setups and steps ------------------------------------------------------------------


def _deck(prefix: str, cards: list[str]) -> list[dict[str, str]]:
    return [{"card": card, "handle": f"{prefix}{i:02d}"} for i, card in enumerate(cards, 1)]


def seeded() -> dict[str, Any]:
    """A seeded start with tiny decks in a given order (top first), like the fuzzer's."""
    return {"start": "game", "seed": 7, "first_player": "A", "shuffle": False,
            "decks": {"A": _deck("a", ["Forest", "Grizzly Bears"] * 6),
                      "B": _deck("b", ["Mountain", "Lightning Bolt"] * 6)}}


def state(step: str = "precombat_main", *, turn: int = 3, active: str = "A",
          a: dict[str, Any] | None = None, b: dict[str, Any] | None = None,
          battlefield: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A given state (players' libraries stocked, so that nobody draws from an empty one)."""
    players = {name: {"library": ["Island"] * 3, **(extra or {})}
               for name, extra in (("A", a), ("B", b))}
    return {"turn": {"number": turn, "active": active, "step": step}, "players": players,
            "battlefield": battlefield or []}


def constructed(bolts: int) -> dict[str, Any]:
    """A seeded start naming the constructed format: A's 60 cards hold ``bolts`` Bolts."""
    return {"start": "game", "seed": 3, "first_player": "A", "format": "constructed",
            "decks": {"A": [{"card": "Mountain", "count": 60 - bolts},
                            {"card": "Lightning Bolt", "count": bolts}],
                      "B": [{"card": "Forest", "count": 60}]}}


BOLT_IN_HAND = {"hand": [{"handle": "bolt", "card": "Lightning Bolt"}]}
MOUNTAIN = {"handle": "mountain", "card": "Mountain", "controller": "A"}
FOREST_IN_HAND = {"hand": [{"handle": "forest", "card": "Forest"}]}


@dataclass(frozen=True)
class Do:
    """One action, objects named by handle (performed as listed if the engine lists it)."""

    action: dict[str, Any]


@dataclass(frozen=True)
class Until:
    """Take the first listed action (pass, done, ...) until the game reaches this moment."""

    step: str | None = None
    turn: int | None = None
    over: bool = False
    limit: int = 40


def do(kind: str, player: str = "A", **fields: Any) -> Do:
    return Do({"action": kind, "player": player, **fields})


def bolt(target: str, player: str = "A", card: str = "bolt") -> Do:
    return do("cast", player, card=card, targets=[target], pay_with="auto")


PASS_BOTH = (do("pass", "A"), do("pass", "B"))
BOLT_B = (bolt("B"), *PASS_BOTH)


@dataclass(frozen=True)
class Scenario:
    invariant: str
    fake: str  # a class of tests/fakes/fuzz_engines.py
    edition: str
    setup: dict[str, Any]
    steps: tuple[Do | Until, ...] = ()
    flaw: Flaw | None = None  # the setup is deliberately illegal

    @property
    def id(self) -> str:
        return f"{self.invariant}:{self.fake}"


SCENARIOS = [
    # -- the start of the game
    Scenario("deck-rules", "FiveCopiesAllowed", "cr2004", constructed(5),
             flaw=Flaw(("cr2004:100.2",), "five Lightning Bolts")),
    Scenario("mulligan-one-card-fewer", "MulliganOffByOne", "cr2004", seeded(),
             (do("mulligan"), do("keep"), do("keep", "B"))),
    Scenario("mulligan-one-card-fewer", "MulliganStopsAtOne", "cr2004", seeded(),
             (*[do("mulligan")] * 7, do("keep", "B"))),
    Scenario("mulligan-one-card-fewer", "MulliganSeatOrder", "cr2004",
             {**seeded(), "first_player": "B"}, (do("keep", "B"), do("keep"))),
    Scenario("starting-life", "StartLife25", "modern", seeded()),
    Scenario("opening-hand-seven", "OpeningHandSix", "cr2004", seeded()),
    Scenario("first-player-skips-draw", "FirstPlayerDraws", "modern", seeded(),
             (Until(step="precombat_main"),)),
    # -- winning and losing
    Scenario("zero-life-loses", "ZeroLifeSurvives", "cr2004",
             state(a=BOLT_IN_HAND, b={"life": 3}, battlefield=[MOUNTAIN]), BOLT_B),
    Scenario("ten-poison-loses", "PoisonNeedsEleven", "cr2004",
             state(b={"poison": 9}, battlefield=[
                 {"handle": "mosquito", "card": "Swamp Mosquito", "controller": "A"},
                 {"card": "Ornithopter", "controller": "B"}]),
             (Until(step="declare_attackers"), do("attack", card="mosquito"), do("done"),
              Until(step="declare_blockers"), do("done", "B"), *PASS_BOTH)),
    Scenario("empty-library-draw-loses", "DrawFromEmptyIgnored", "modern",
             state("upkeep", a={"library": []}), PASS_BOTH),
    Scenario("game-over-is-final", "GameOverKeepsPriority", "modern", seeded(),
             (do("concede", "B"),)),
    Scenario("both-lose-draw", "BothLoseNoDraw", "cr2004",
             state(a={"life": 0}, b={"life": 0}), (Until(over=True),)),
    Scenario("game-ends-at-a-result", "PlaysOnAfterTheEnd", "modern", seeded(),
             (do("concede", "B"), do("pass", "A"))),
    # -- zones and objects
    Scenario("one-zone-per-object", "LandLeftInHand", "modern", state(a=FOREST_IN_HAND),
             (do("play_land", card="forest"),)),
    Scenario("cards-conserved", "InstantsVanish", "modern",
             state(a=BOLT_IN_HAND, battlefield=[MOUNTAIN]), BOLT_B),
    Scenario("new-object-on-zone-change", "KeepsIds", "modern", state(a=FOREST_IN_HAND),
             (do("play_land", card="forest"),)),
    Scenario("owners-zones", "ControllersGraveyard", "cr2004",
             state(a=BOLT_IN_HAND, battlefield=[MOUNTAIN, {
                 "handle": "bears", "card": "Grizzly Bears", "owner": "B",
                 "controller": "A"}]),
             (bolt("bears"), *PASS_BOTH)),
    Scenario("tokens-only-on-battlefield", "TokenSurvives", "modern",
             state(a=BOLT_IN_HAND, battlefield=[MOUNTAIN, {
                 "handle": "token", "card": "Grizzly Bears", "token": True,
                 "controller": "B"}]),
             (bolt("token"), *PASS_BOTH)),
    Scenario("no-instant-or-sorcery-in-play", "InstantsStayInPlay", "cr2004",
             state(a=BOLT_IN_HAND, battlefield=[MOUNTAIN]), BOLT_B),
    Scenario("library-order-kept", "DrawReordersLibrary", "modern",
             state("upkeep", turn=2, active="B",
                   b={"library": ["Island", "Forest", "Mountain", "Plains", "Swamp"]}),
             (do("pass", "B"), do("pass", "A"))),
    Scenario("graveyard-order-kept", "GraveyardSorted", "cr2004",
             state(a={**BOLT_IN_HAND, "graveyard": ["Mountain", "Forest"]},
                   battlefield=[MOUNTAIN]), BOLT_B),
    Scenario("graveyard-grows-on-top", "GraveyardBottom", "modern",
             state(a={**BOLT_IN_HAND, "graveyard": ["Forest"]}, battlefield=[MOUNTAIN]),
             BOLT_B),
    Scenario("permanents-have-controllers", "LandsWithoutController", "modern",
             state(a=FOREST_IN_HAND), (do("play_land", card="forest"),)),
    Scenario("spells-have-controllers", "SpellsWithoutController", "cr2004",
             state(a=BOLT_IN_HAND, battlefield=[MOUNTAIN]), (bolt("B"),)),
    Scenario("stack-last-in-first-out", "StackAsQueue", "modern",
             state(a={"hand": [{"handle": "bolt", "card": "Lightning Bolt"},
                               {"handle": "bolt2", "card": "Lightning Bolt"}]},
                   battlefield=[MOUNTAIN, {"card": "Mountain", "controller": "A"}]),
             (bolt("B"), bolt("B", card="bolt2"))),
    Scenario("hands-are-hidden", "ShowsOpponentsHand", "modern", seeded()),
    Scenario("hands-are-hidden", "OpponentHandUncounted", "cr2004", seeded()),
    Scenario("libraries-are-hidden", "ShowsOwnLibrary", "modern", seeded()),
    # -- turns, priority, mana
    Scenario("time-moves-forward", "TurnsCountedInRounds", "modern",
             state("end", turn=1), PASS_BOTH),
    Scenario("priority-or-decision", "PriorityDuringDecisions", "modern",
             state("beginning_of_combat", battlefield=[
                 {"card": "Grizzly Bears", "controller": "A"}]),
             (Until(step="declare_attackers"),)),
    Scenario("lands-played-counted", "LandCountNeverResets", "modern",
             state("end", a={"lands_played": 1}), PASS_BOTH),
    Scenario("one-land-per-turn", "TwoLands", "modern",
             state(a={"hand": [{"handle": "forest", "card": "Forest"},
                               {"handle": "forest2", "card": "Forest"}]}),
             (do("play_land", card="forest"), do("play_land", card="forest2"))),
    Scenario("summoning-sick-cannot-attack", "SickCreatureAttacks", "cr2004",
             state(battlefield=[{"handle": "bears", "card": "Grizzly Bears",
                                 "controller": "A", "sick": True}]),
             (Until(step="declare_attackers"), do("attack", card="bears"))),
    Scenario("mana-empties", "ManaKeptThroughPhase", "modern",
             state("upkeep", a={"mana_pool": {"R": 1}}), PASS_BOTH),
    Scenario("mana-burn-2004", "NoManaBurn", "cr2004",
             state(a={"mana_pool": {"R": 1}}), PASS_BOTH),
    Scenario("no-mana-burn-modern", "ModernManaBurn", "modern",
             state(a={"mana_pool": {"R": 1}}), PASS_BOTH),
    Scenario("hand-size-after-cleanup", "NoCleanupDiscard", "modern",
             state("end", a={"hand": ["Forest"] * 9}), (*PASS_BOTH, Until(turn=4))),
    Scenario("permanents-enter-untapped", "LandsEnterTapped", "cr2004",
             state(a=FOREST_IN_HAND), (do("play_land", card="forest"),)),
    Scenario("lethal-damage-destroys", "LethalDamageSpared", "modern",
             state(a=BOLT_IN_HAND, battlefield=[MOUNTAIN, {
                 "handle": "giant", "card": "Hill Giant", "controller": "B"}]),
             (bolt("giant"), *PASS_BOTH)),
    # -- the protocol's promises
    Scenario("illegal-action-changes-nothing", "CountsRejectedLandPlays", "modern",
             state("upkeep", a=FOREST_IN_HAND), (do("play_land", card="forest"),)),
    Scenario("listed-actions-are-legal", "ListsLandsAnyTime", "modern",
             state("upkeep", a=FOREST_IN_HAND), (do("play_land", card="forest"),)),
    Scenario("illegal-action-rejected", "IgnoresWhoActs", "modern", seeded(),
             (do("pass", "B"),)),
]


def scenario_of(fake: str) -> Scenario:
    return next(s for s in SCENARIOS if s.fake == fake)


# ---- playing a scenario ---------------------------------------------------------------------


@dataclass
class Played:
    play: Play
    #: per transition (the start first), the violations found
    found: list[list[Violation]] = field(default_factory=list)

    @property
    def broken(self) -> set[str]:
        return {v.invariant for step in self.found for v in step}

    def describe(self) -> str:
        return "; ".join(v.describe() for step in self.found for v in step) or "nothing"


def _core(action: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in action.items() if k not in ("pay_with", "payment")}


def play_scenario(engine: str, scenario: Scenario, *, views_every: int = 1) -> Played:
    session = ENGINES.session(engine)
    assert session.client is not None and session.info is not None
    play = Play(session.client, session.info, scenario.edition, views_every=views_every)
    opening = opens_with_decisions({"do": s.action} for s in scenario.steps
                                   if isinstance(s, Do))
    played = Played(play, [check_all(play.begin(copy.deepcopy(scenario.setup),
                                                keep=not opening, flaw=scenario.flaw))])
    for step in scenario.steps:
        if isinstance(step, Until):
            for _ in range(step.limit):
                turn = ob.turn(play.observation)
                if ob.over(play.observation) or (not step.over and (
                        step.step in (None, turn.get("step")) and
                        step.turn in (None, turn.get("number")))):
                    break
                legal = play.legal()
                played.found.append(check_all(play.act(legal[0], listed=True, legal=legal)))
            else:
                pytest.fail(f"{engine}: {step} not reached in {step.limit} steps")
            continue
        action = play.unname(step.action)
        if step.action.get("pay_with") == "auto":
            action["pay_with"] = "auto"
        listed = [_core(a) for a in play.game.legal()]
        played.found.append(check_all(play.act(action, listed=_core(action) in listed,
                                               legal=play.legal())))
    return played


#: the engines this module's scenarios play on, closed when its tests are done
ENGINES = FuzzEngines()


@pytest.fixture(scope="module", autouse=True)
def _engines() -> Iterator[None]:
    with ENGINES:
        yield


# ---- every invariant has a fake that breaks it --------------------------------------------------


def test_every_invariant_has_a_fake_that_breaks_it() -> None:
    tested = {s.invariant for s in SCENARIOS} | {"same-game-same-trace"}
    assert tested == set(INVARIANTS), (
        f"invariants without a fake: {sorted(set(INVARIANTS) - tested)}; "
        f"fakes of invariants that are gone: {sorted(tested - set(INVARIANTS))}")


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.id)
def test_the_invariant_catches_its_fake(scenario: Scenario) -> None:
    broken = play_scenario(f"{FAKES}:{scenario.fake}", scenario)
    assert scenario.invariant in broken.broken, (
        f"{scenario.fake} did not break {scenario.invariant}: {broken.describe()}")
    correct = play_scenario(REFERENCE, scenario)
    assert not correct.broken, f"the reference engine breaks {correct.describe()}"


def test_same_game_same_trace_catches_a_nondeterministic_engine() -> None:
    scenario = Scenario("same-game-same-trace", "SharedShuffler", "modern", seeded(),
                        (Until(step="precombat_main"),))
    broken = play_scenario(f"{FAKES}:SharedShuffler", scenario)
    assert not broken.broken  # each game alone is a correct game
    found = replays_the_same(broken.play)
    assert [v.invariant for v in found] == ["same-game-same-trace"], found
    correct = play_scenario(REFERENCE, scenario)
    assert replays_the_same(correct.play) == []


# ---- end to end: the fuzzer finds a bug by itself ---------------------------------------------

#: a small campaign: a few short games a round, one round
TINY = Profile("tiny", 60.0, None, 5, 40, True, "a few short games", 60.0)
#: successful shrinks Hypothesis makes of a failure (its own limit is 500, and the campaign
#: bounds the time): a fixed number keeps the shrunk game the same on a busy machine
SHRINKS = 8


@dataclass
class FirstFailures(Findings):
    """Findings that also remember how long each invariant's first failing game was."""

    first: dict[str, int] = field(default_factory=dict)

    def note(self, failure: Failure) -> None:
        self.first.setdefault(failure.violations[0].invariant, len(failure.trace.steps))
        super().note(failure)


@dataclass(frozen=True)
class Hunt:
    fake: str
    invariant: str
    seed: int  # a campaign seed whose game reaches the bug (and shrinks) quickly
    edition: str = "modern"


HUNTS = [
    Hunt("TwoLands", "one-land-per-turn", 5),
    Hunt("IgnoresWhoActs", "illegal-action-rejected", 9),
    Hunt("CrashesOnLandPlay", ENGINE_ERROR, 5),
    # A deliberately flawed setup (a formatted start), and a plan of mulligans
    Hunt("FiveCopiesAllowed", "deck-rules", 7),
    Hunt("MulliganOffByOne", "mulligan-one-card-fewer", 0, "cr2004"),
]


def _campaign(hunt: Hunt, out: Path, monkeypatch: pytest.MonkeyPatch
              ) -> tuple[Campaign, FirstFailures]:
    """A campaign of one round that plays the same games wherever it runs: Hypothesis's
    shrinking bounded by count rather than time, and without the constants it mines from
    the project's modules imported so far (which would make the games depend on the tests
    run before)."""
    from hypothesis.internal.conjecture import engine as conjecture
    from hypothesis.internal.conjecture import providers
    from hypothesis.internal.constants_ast import Constants

    monkeypatch.setattr(conjecture, "MAX_SHRINKS", SHRINKS)
    monkeypatch.setattr(providers, "_get_local_constants", Constants)
    monkeypatch.setattr(providers, "CONSTANTS_CACHE", type(providers.CONSTANTS_CACHE)(
        providers.CONSTANTS_CACHE.max_size))
    findings = FirstFailures()
    campaign = Campaign(FuzzConfig(f"{FAKES}:{hunt.fake}", hunt.edition), TINY, 60.0, hunt.seed,
                        rounds_wanted=1, database="none", out=out, findings=findings)
    campaign.run()
    return campaign, findings


@dataclass
class Hunted:
    finding: dict[str, Any]  # the campaign's results record of the finding
    first: int  # steps of the first failing game
    out: Path


@pytest.fixture(scope="module")
def hunted(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Hunt], Hunted]:
    """Each hunt's campaign, run once for the tests that look at its result."""
    done: dict[Hunt, Hunted] = {}

    def run(hunt: Hunt) -> Hunted:
        if hunt not in done:
            out = tmp_path_factory.mktemp(hunt.fake)
            with pytest.MonkeyPatch.context() as monkeypatch:
                campaign, findings = _campaign(hunt, out, monkeypatch)
            found = {f["invariant"]: f for f in campaign.results()["findings"]}
            assert hunt.invariant in found, f"{hunt.fake}: found only {sorted(found)}"
            done[hunt] = Hunted(found[hunt.invariant], findings.first[hunt.invariant], out)
        return done[hunt]

    return run


def _replayed(case_file: Path, engine: str) -> set[str]:
    """The invariants a replay of the case file breaks on the engine (``mtgconf fuzz replay``:
    the case run through the harness with every invariant watching)."""
    [case] = load_file(case_file)[0]
    session = ENGINES.session(engine)
    return {v.invariant for v in replay(case, case.editions[0], session).violations}


@pytest.mark.parametrize("hunt", HUNTS, ids=lambda h: h.fake)
def test_the_fuzzer_finds_the_bug_and_shrinks_it(hunt: Hunt,
                                                 hunted: Callable[[Hunt], Hunted]) -> None:
    found = hunted(hunt)
    assert found.finding["steps"] <= found.first
    assert found.finding["steps"] <= 30, found.finding["trace"]


@pytest.mark.parametrize("hunt", HUNTS, ids=lambda h: h.fake)
def test_the_case_file_lints(hunt: Hunt, hunted: Callable[[Hunt], Hunted]) -> None:
    found = hunted(hunt)
    path = Path(found.finding["case_file"])
    assert path.parent == found.out / "cases"
    cases, problems = load_file(path)
    assert not problems
    assert [c.id for c in cases] == [found.finding["case"]["id"]]


@pytest.mark.parametrize("hunt", HUNTS, ids=lambda h: h.fake)
def test_the_case_replays_on_the_fake_and_not_on_the_reference(
        hunt: Hunt, hunted: Callable[[Hunt], Hunted]) -> None:
    case_file = Path(hunted(hunt).finding["case_file"])
    assert _replayed(case_file, REFERENCE) == set()
    assert hunt.invariant in _replayed(case_file, f"{FAKES}:{hunt.fake}")


@pytest.mark.parametrize("hunt", HUNTS, ids=lambda h: h.fake)
def test_the_campaign_checks_each_case_on_the_fake_and_on_the_reference(
        hunt: Hunt, hunted: Callable[[Hunt], Hunted]) -> None:
    """Before it writes a finding, the campaign runs its case on both engines and says what
    it found: each of these is confirmed (the fake breaks it, the reference engine does not),
    never a deviation passed off as a confirmation (issue 25)."""
    checked = hunted(hunt).finding["checked"]
    assert checked["kind"] == "confirmed", checked
    assert checked["reference"]["verdict"] in ("pass", "skip")
    assert not checked["reference"]["invariants"]


# ---- known gaps, reported (each xfail turns into a failure once fixed: drop the mark then) ----


def test_an_unmarked_token_left_in_a_graveyard_is_caught() -> None:
    scenario = Scenario("tokens-only-on-battlefield", "TokenSurvivesUnmarked", "modern",
                        scenario_of("TokenSurvives").setup, scenario_of("TokenSurvives").steps)
    assert play_scenario(f"{FAKES}:{scenario.fake}", scenario).broken


def test_tokens_only_on_battlefield_catches_an_unmarked_token() -> None:
    scenario = Scenario("tokens-only-on-battlefield", "TokenSurvivesUnmarked", "modern",
                        scenario_of("TokenSurvives").setup, scenario_of("TokenSurvives").steps)
    broken = play_scenario(f"{FAKES}:{scenario.fake}", scenario)
    assert "tokens-only-on-battlefield" in broken.broken, broken.describe()


def test_a_winner_at_zero_life_is_caught() -> None:
    scenario = Scenario("zero-life-loses", "BothLoseFirstLoses", "cr2004",
                        state(a={"life": 0}, b={"life": 0}), (Until(over=True),))
    broken = play_scenario(f"{FAKES}:{scenario.fake}", scenario)
    assert broken.broken, broken.play.observation["result"]


def test_the_reference_breaks_nothing_when_wrath_of_god_kills_a_token() -> None:
    scenario = Scenario("cards-conserved", "", "modern", state(
        a={"hand": [{"handle": "wrath", "card": "Wrath of God"}]},
        battlefield=[{"card": "Plains", "controller": "A", "count": 4},
                     {"card": "Grizzly Bears", "controller": "B", "token": True},
                     {"card": "Grizzly Bears", "controller": "B"},
                     {"card": "Hill Giant", "controller": "B"}]),
        (do("cast", card="wrath", pay_with="auto"), *PASS_BOTH,
         Until(step="beginning_of_combat")))
    correct = play_scenario(REFERENCE, scenario)
    assert not correct.broken, correct.describe()


def test_the_reference_breaks_nothing_with_an_indestructible_creature() -> None:
    scenario = Scenario("lethal-damage-destroys", "", "modern", state(
        a=BOLT_IN_HAND, battlefield=[MOUNTAIN, {
            "handle": "elspeth", "card": "Elspeth, Knight-Errant", "controller": "A",
            "counters": {"loyalty": 8}},
            {"handle": "giant", "card": "Hill Giant", "controller": "A"}]),
        (do("activate", card="elspeth", ability=2), *PASS_BOTH, bolt("giant"), *PASS_BOTH))
    correct = play_scenario(REFERENCE, scenario)
    assert ob.player(correct.play.observation, "A")["graveyard"]  # the game got that far
    assert not correct.broken, correct.describe()


def _lints(violation: Violation, play: Play, tmp_path: Path) -> list[str]:
    assert play.trace is not None
    case = case_from(violation, play.trace, play.info.name)
    assert case is not None
    _, problems = load_file(write_case(case, tmp_path / "case.yaml"))
    return [p.message for p in problems]


def test_a_finding_at_the_start_becomes_a_case_that_lints(tmp_path: Path) -> None:
    broken = play_scenario(f"{FAKES}:StartLife25", scenario_of("StartLife25"))
    assert _lints(broken.found[0][0], broken.play, tmp_path) == []


def test_an_action_on_no_object_keeps_the_case_lintable(tmp_path: Path) -> None:
    scenario = Scenario("one-land-per-turn", "TwoLands", "modern", seeded(), (
        *PASS_BOTH, do("play_land", card=NO_SUCH_ID), do("play_land", card="a01"),
        do("play_land", card="a03")))
    broken = play_scenario(f"{FAKES}:TwoLands", scenario)
    assert [v.invariant for v in broken.found[-1]] == ["one-land-per-turn"]
    assert _lints(broken.found[-1][0], broken.play, tmp_path) == []


# ---- issue 25: skip rather than guess, and say what was computed -----------------------------

def _library_step(card: str) -> Any:
    from fuzz.invariants import Transition

    def game(library: list[int]) -> dict[str, Any]:
        return {"turn": {"number": 3, "active": "A", "step": "precombat_main", "priority": "A"},
                "players": {"A": {"library": [{"id": i, "card": "Forest"} for i in library]},
                            "B": {}},
                "battlefield": [{"id": 9, "card": card, "controller": "A", "tapped": False}]}

    return Transition("cr2004", frozenset({"observe.events", "observe.library"}),
                      game([3, 1, 2]), game([1, 2, 3]),
                      {"action": "activate", "player": "A", "card": 9, "ability": 0})


def test_library_order_kept_skips_a_card_the_pool_does_not_know():
    """An engine's own card may shuffle a library, and shuffle events are optional: the
    invariant cannot tell, so it says nothing (a card the pool knows, which does not
    shuffle, is checked)."""
    check = INVARIANTS["library-order-kept"]
    assert check.violations(_library_step("Homebrew Tutor of Nowhere")) == []
    found = check.violations(_library_step("Grizzly Bears"))
    assert [v.message for v in found] == ["A's library changed order: [1, 2, 3] became [3, 1, 2]"]


def test_an_accepted_illegal_action_says_why_the_fuzzer_drew_it_as_illegal():
    from dataclasses import replace as replaced

    step = replaced(_library_step("Grizzly Bears"), listed=False, legal=[],
                    why_illegal="Forest is not a land in A's hand")
    found = INVARIANTS["illegal-action-rejected"].violations(step)
    assert len(found) == 1 and found[0].message.endswith(
        "was accepted, though Forest is not a land in A's hand")


def test_the_fuzzer_reads_type_words_in_any_letter_case():
    from fuzz import observations as ob

    assert ob.has_type({"types": ["land"]}, "Land") and ob.has_type({"types": ["Land"]}, "Land")
    assert not ob.has_type({"types": ["creature"]}, "Land")


# ---- issue 25: each written case fails on the engine that broke its invariant ------------------

#: The scenarios (invariant:fake) whose finding can be written as no case that fails on the
#: engine: each finding says why (``Violation.unchecked``), and the test holds it to that.
UNCHECKABLE = frozenset({
    "new-object-on-zone-change:KeepsIds",  # a case names objects by handle, not by id
    "listed-actions-are-legal:ListsLandsAnyTime",  # a case cannot check a listing
    "stack-last-in-first-out:StackAsQueue",  # two Bolts: stack objects are told by name
})


def _verdict(case_file: Path, engine: str) -> tuple[str, str]:
    """The harness's verdict on the case file (no invariant watching): what an engine's CI
    sees."""
    from conformance.runner import RunOptions, run_case

    [case] = load_file(case_file)[0]
    outcome = run_case(case, case.editions[0], ENGINES.session(engine),
                       RunOptions(case_timeout=30))
    return outcome.status, outcome.message


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.id)
def test_the_case_written_fails_on_the_fake_and_passes_on_the_reference(
        scenario: Scenario, tmp_path: Path) -> None:
    """The fuzzer's case of each invariant's finding, as written (a final expect or
    expect_illegal that holds on a correct engine), fails on the fake that broke the invariant
    and passes on the reference engine; or the finding says why no case can (UNCHECKABLE)."""
    broken = play_scenario(f"{FAKES}:{scenario.fake}", scenario)
    at = next(i for i, found in enumerate(broken.found)
              if any(v.invariant == scenario.invariant for v in found))
    violation = next(v for v in broken.found[at] if v.invariant == scenario.invariant)
    trace = broken.play.trace
    assert trace is not None
    trace = replace(trace, steps=trace.steps[:at])  # the game up to the step that broke it
    case = case_from(violation, trace, broken.play.info.name)
    if scenario.id in UNCHECKABLE:
        assert violation.unchecked, violation.describe()
        assert case is None or violation.unchecked in case["summary"]
        return
    assert not violation.unchecked, violation.unchecked
    assert case is not None, violation.describe()
    case_file = write_case(case, tmp_path / "case.yaml")
    assert load_file(case_file)[1] == []
    assert _verdict(case_file, REFERENCE) == ("pass", "")
    status, message = _verdict(case_file, f"{FAKES}:{scenario.fake}")
    assert status in ("fail", "error"), (status, message, case["steps"][-3:])


def _moment(step: str, turn: int = 1, active: str = "A") -> dict[str, Any]:
    return {"turn": turn, "step": step, "active": active}


def test_a_run_of_passes_is_written_as_an_advance_as_far_as_an_advance_goes() -> None:
    """Passes from the upkeep to the main phase are one advance; an advance stops where the
    game first gets to its target, so a pass after that (the other player's, in the same
    step) stays a step of its own, and so does the pass that broke the invariant."""
    from fuzz.play import Trace, TraceStep

    def passing(player: str, where: dict[str, Any]) -> TraceStep:
        action = {"action": "pass", "player": player}
        return TraceStep(action, None, True, dict(action), moment=where)

    main = _moment("precombat_main")
    trace = Trace("modern", seeded(), [
        passing("A", _moment("upkeep")), passing("B", _moment("draw")),
        passing("A", _moment("draw")), passing("B", main), passing("A", main),
        passing("B", _moment("beginning_of_combat"))], start=_moment("upkeep"))
    violation = Violation("lands-played-counted", ("modern:505.6b",), "a message",
                          {"players.A.lands_played": 0})
    case = case_from(violation, trace, "an engine")
    assert case is not None
    assert case["steps"] == [{"advance": main}, {"do": {"action": "pass", "player": "A"}},
                             {"do": {"action": "pass", "player": "B"}},
                             {"expect": {"players.A.lands_played": 0}}]
    # A run that ends where it began (passes that resolve the stack) is no advance at all.
    again = replace(trace, steps=trace.steps[3:], start=main)
    case = case_from(violation, again, "an engine")
    assert case is not None and "advance" not in str(case["steps"])


def test_a_case_from_an_engine_that_pays_by_itself_runs_on_it(tmp_path: Path) -> None:
    """A pay.auto-only engine pays a Bolt from its pool, tapping nothing: the case keeps
    pay_with auto (needs pay.auto), the form the engine was driven in, and runs there rather
    than skipping for want of pay.pool."""
    from conformance.runner import RunOptions, run_case

    engine = "py:tests.fakes.dialects:PayAutoOnly"
    session = ENGINES.session(engine)
    assert session.client is not None and session.info is not None
    play = Play(session.client, session.info, "modern")
    play.begin(state(a={**BOLT_IN_HAND, "mana_pool": {"R": 1}}))
    [cast] = [a for a in play.legal() if a["action"] == "cast" and a["targets"] == [
        {"player": "B"}]]
    assert cast["pay_with"] == "auto"
    play.act(cast, listed=True)
    for player in ("A", "B"):
        play.act({"action": "pass", "player": player}, listed=True)
    assert play.trace is not None
    case = case_from(Violation("zero-life-loses", ("modern:704.5a",), "a message",
                               {"players.B.life": 17}), play.trace, play.info.name)
    assert case is not None
    assert next(s["do"].get("pay_with") for s in case["steps"] if "do" in s) == "auto"
    [loaded] = load_file(write_case(case, tmp_path / "case.yaml"))[0]
    assert "pay.auto" in loaded.needs
    for name in (engine, REFERENCE):
        outcome = run_case(loaded, "modern", ENGINES.session(name), RunOptions(case_timeout=30))
        assert (outcome.status, outcome.message) == ("pass", ""), name
