"""Golden outputs: what the fuzzer finds and writes, and what its replays say, recorded so that
a restructuring (or a speed-up) that should change nothing can show it changed nothing.

* ``fuzz/RUN/``: one round of the ci profile (10 games of up to 120 steps, seed fixed) against
  a fake engine of ``tests/fakes/fuzz_engines.py``: ``results.json`` is the campaign's results
  file (``mtgconf fuzz``'s ``fuzz-EDITION.json``) without its timings, ``cases/`` the case files
  it wrote, byte for byte.
* ``given/``: findings from a given state (the fuzzer's case files, written from a fixed game of
  ``tests/test_fuzz_invariants.py``'s kind): the fuzzer draws given states, but shrinking takes
  its findings towards a seeded start, so a campaign this short finds none from a given state.
* ``replays.yaml``: what ``mtgconf fuzz replay`` says of every case file above, on the fake that
  broke it and on the reference engine: exit status and output.

Shrinking is bounded by a count of successful shrinks (``SHRINKS``) rather than by time (the
profile's ``shrink_seconds`` is lifted), so that a slower or faster machine (or fuzzer, or a
busy moment) shrinks to the same game.

Regenerate after a change that should change them (a new card in the pool, an engine fix, a
new invariant), and read the diff before committing it::

    python -m tests.golden

``tests/test_golden.py`` compares.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
FAKES = "py:tests.fakes.fuzz_engines"
#: successful shrinks Hypothesis may make of one failure (its own limit is 500)
SHRINKS = 8
#: the time limit of shrinking, high enough never to be what stops it
SHRINK_SECONDS = 3600.0


@dataclass(frozen=True)
class FuzzRun:
    fake: str  # a class of tests/fakes/fuzz_engines.py
    edition: str
    seed: int
    against: str | None = None  # differential: the engine compared with

    @property
    def name(self) -> str:
        return f"{self.fake}-{self.edition}-{self.seed}" + (
            f"-against-{self.against}" if self.against else "")

    @property
    def engine(self) -> str:
        return f"{FAKES}:{self.fake}"


FUZZ_RUNS = (
    FuzzRun("TwoLands", "modern", 0),  # a rule broken in play (a second land a turn)
    FuzzRun("MulliganOffByOne", "cr2004", 0),  # broken in the opening decisions
    FuzzRun("CrashesOnLandPlay", "modern", 0),  # the engine crashes: engine-error
    FuzzRun("InstantsVanish", "cr2004", 0),  # a card lost on its way to the graveyard
    FuzzRun("LandsEnterTapped", "modern", 0, against="reference"),  # differential
)


@dataclass(frozen=True)
class GivenRun:
    """A finding from a given state: a fixed game on a fake, written as the fuzzer writes it."""

    fake: str
    invariant: str
    edition: str
    setup: dict[str, Any]
    steps: tuple[dict[str, Any], ...]
    #: why its replay verdict is wrong today, when it is (a change to replay is to fix it)
    known_wrong: str = ""

    @property
    def engine(self) -> str:
        return f"{FAKES}:{self.fake}"


def _state(a: dict[str, Any], b: dict[str, Any] | None = None,
           battlefield: tuple[dict[str, Any], ...] = ()) -> dict[str, Any]:
    players = {name: {"library": ["Island"] * 3, **extra}
               for name, extra in (("A", a), ("B", b or {}))}
    return {"turn": {"number": 3, "active": "A", "step": "precombat_main"},
            "players": players, "battlefield": list(battlefield)}


_MOUNTAIN = {"handle": "mountain", "card": "Mountain", "controller": "A"}
_BOLT = {"hand": [{"handle": "bolt", "card": "Lightning Bolt"}]}

GIVEN_RUNS = (
    GivenRun("KeepsIds", "new-object-on-zone-change", "modern",
             _state({"hand": [{"handle": "forest", "card": "Forest"}]}),
             ({"action": "play_land", "player": "A", "card": "forest"},)),
    GivenRun("ZeroLifeSurvives", "zero-life-loses", "cr2004",
             _state(_BOLT, {"life": 3}, (_MOUNTAIN,)),
             ({"action": "cast", "player": "A", "card": "bolt", "targets": ["B"],
               "pay_with": "auto"},
              {"action": "pass", "player": "A"}, {"action": "pass", "player": "B"})),
)


# ---- making them ------------------------------------------------------------------------------


@contextlib.contextmanager
def shrinks_counted() -> Iterator[None]:
    from hypothesis.internal.conjecture import engine as conjecture

    old = conjecture.MAX_SHRINKS
    conjecture.MAX_SHRINKS = SHRINKS
    try:
        yield
    finally:
        conjecture.MAX_SHRINKS = old


def fuzz(run: FuzzRun, out: Path) -> dict[str, Any]:
    """Run the campaign, its case files written under ``out/cases``; its results file without
    what differs from run to run (the time it started and took) or from place to place."""
    from fuzz.campaign import PROFILES, Campaign
    from fuzz.machine import FuzzConfig

    profile = replace(PROFILES["ci"], shrink_seconds=SHRINK_SECONDS)
    campaign = Campaign(FuzzConfig(run.engine, run.edition, against=run.against), profile,
                        budget=3600.0, seed=run.seed, rounds_wanted=1, database="none",
                        out=out)
    with shrinks_counted():
        campaign.run()
    results = campaign.results()
    results.pop("started")
    results.pop("seconds")
    for finding in results["findings"]:
        if finding["case_file"] is not None:
            finding["case_file"] = Path(finding["case_file"]).relative_to(out).as_posix()
    return results


def given(run: GivenRun, out: Path) -> Path:
    """Play the given-state game on the fake and write its finding as the fuzzer would."""
    from fuzz.engines import FuzzEngines
    from fuzz.invariants import check_all
    from fuzz.play import Play
    from fuzz.replay import case_from, write_case

    with FuzzEngines() as engines:
        session = engines.session(run.engine)
        play = Play(session.client, session.info, run.edition)
        found = check_all(play.begin(json.loads(json.dumps(run.setup)), keep=True))
        for step in run.steps:
            if found:
                break
            action = play.unname(step)
            if step.get("pay_with") == "auto":
                action["pay_with"] = "auto"
            found = check_all(play.act(action, listed=True, legal=play.legal()))
        violation = next((v for v in found if v.invariant == run.invariant), None)
        if violation is None or play.trace is None:
            raise AssertionError(f"{run.fake} broke no {run.invariant}: {found}")
        case = case_from(violation, play.trace, play.info.name)
        assert case is not None, f"{run.fake}: no case for {violation.describe()}"
    return write_case(case, out / f"{case['id']}.yaml")


def replay(case_file: Path, engine: str) -> dict[str, Any]:
    """``mtgconf fuzz replay CASE_FILE --engine ENGINE``: its exit status and output."""
    from mtgconf import main

    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        code = main(["fuzz", "replay", str(case_file), "--engine", engine])
    return {"exit": code, "output": output.getvalue()}


def replays(fuzz_dir: Path, given_dir: Path) -> list[dict[str, Any]]:
    """Every case file's replays, on the fake that broke it and on the reference engine."""
    out = []
    for run in FUZZ_RUNS:
        for case_file in sorted((fuzz_dir / run.name / "cases").glob("*.yaml")):
            out += _both(case_file, fuzz_dir.parent, run.engine, "")
    for given_run in GIVEN_RUNS:
        [case_file] = sorted(given_dir.glob(f"fuzz.{given_run.invariant}.*.yaml"))
        out += _both(case_file, given_dir.parent, given_run.engine, given_run.known_wrong)
    return out


def _both(case_file: Path, base: Path, engine: str, known_wrong: str) -> list[dict[str, Any]]:
    name = case_file.relative_to(base).as_posix()
    return [{"case": name, "engine": engine, **replay(case_file, engine),
             **({"known_wrong": known_wrong} if known_wrong else {})},
            {"case": name, "engine": "reference", **replay(case_file, "reference")}]


def dump_replays(records: list[dict[str, Any]]) -> str:
    """``replays.yaml``'s text: a comment above each verdict known to be wrong today."""
    import yaml

    _Dumper = _dumper()
    lines = ["# What `mtgconf fuzz replay CASE --engine ENGINE` says of each golden case file",
             "# (regenerate: python -m tests.golden).", ""]
    for record in records:
        if record.get("known_wrong"):
            lines += ["# KNOWN WRONG: this verdict is not the one a correct replay gives:",
                      f"# {record['known_wrong']}.",
                      "# Update this record, deliberately, with the change that fixes it."]
        lines.append(yaml.dump([record], Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                               width=100).rstrip())
    return "\n".join(lines) + "\n"


def load_replays(path: Path) -> list[dict[str, Any]]:
    import yaml

    return list(yaml.safe_load(path.read_text(encoding="utf-8")))


def _literal(dumper: Any, text: str) -> Any:
    # The output reads best as it was printed, line by line.
    style = "|" if "\n" in text else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


def _dumper() -> Any:
    import yaml

    class Dumper(yaml.SafeDumper):
        pass

    Dumper.add_representer(str, _literal)
    return Dumper


def normalised(results: dict[str, Any]) -> str:
    return json.dumps(results, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
