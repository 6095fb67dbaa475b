"""``mtgconf fuzz`` end to end: the command line, results files the report reads, replays,
differential runs, the ci profile's determinism, and the shared example database on a real
redis-server. (Each invariant against a fake engine that breaks it: test_fuzz_invariants.py.)"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import time
from dataclasses import replace
from pathlib import Path

import jsonschema
import pytest

from fuzz.campaign import PROFILES, Campaign, open_database
from fuzz.machine import FuzzConfig
from mtgconf import main

ROOT = Path(__file__).resolve().parents[1]
TWO_LANDS = "py:tests.fakes.fuzz_engines:TwoLands"
#: the ci profile with little shrinking: a test shows a finding, not the smallest one
QUICK = replace(PROFILES["ci"], shrink_seconds=3.0)
FUZZ_SCHEMA = json.loads((ROOT / "spec" / "schemas" / "fuzz.json").read_text())


def fuzz(*args: str) -> int:
    return main(["fuzz", "--quiet", "--database", "none", *args])


def test_list_names_every_invariant_and_its_rules(capsys):
    assert fuzz("list") == 0
    out = capsys.readouterr().out
    assert "one-land-per-turn                    cr2004:212.6b" in out
    tagged = int(out.rsplit(",", 1)[1].split()[0])
    assert tagged >= 25


def test_the_reference_engine_gives_no_finding_and_a_results_file_the_report_reads(tmp_path,
                                                                                   capsys):
    assert fuzz("--edition", "modern", "--budget", "2", "--seed", "5", "--out",
                str(tmp_path)) == 0
    result = json.loads((tmp_path / "fuzz-modern.json").read_text())
    jsonschema.validate(result, FUZZ_SCHEMA)
    assert result["findings"] == [] and result["steps"] > 0 and result["examples"] > 0
    checked = {i["id"]: i["checked"] for i in result["invariants"]}
    assert checked["cards-conserved"] > 0 and checked["mana-burn-2004"] == 0  # cr2004 only
    assert "0 finding(s)" in capsys.readouterr().out


def test_fuzz_starts_the_engine_once_for_every_edition(tmp_path):
    from tests.fakes.fuzz_engines import CountsStarts

    CountsStarts.starts = 0
    assert fuzz("--engine", "py:tests.fakes.fuzz_engines:CountsStarts", "--budget", "1",
                "--seed", "3", "--out", str(tmp_path)) == 0
    assert {p.name for p in tmp_path.glob("fuzz-*.json")} == {"fuzz-cr2004.json",
                                                              "fuzz-modern.json"}
    assert CountsStarts.starts == 1


def test_a_campaign_closes_the_engines_it_started_and_not_those_it_was_given():
    from fuzz.engines import FuzzEngines

    config = FuzzConfig("reference", "cr2004")
    with FuzzEngines() as engines:
        session = engines.session("reference")
        Campaign(config, QUICK, 60.0, 0, rounds_wanted=1, database="none",
                 engines=engines).run()
        assert engines.session("reference") is session and session.client is not None
        assert engines.started == 1
    assert session.client is None  # closed with its owner
    own = Campaign(config, QUICK, 60.0, 0, rounds_wanted=1, database="none")
    own.run()
    assert own.info is not None and own.info.name == session.info.name
    assert own.results()["engine"]["name"] == session.info.name


def test_the_hypothesis_privates_a_campaign_sets_are_where_it_sets_them():
    """A Hypothesis release that moves one of them fails here (and a campaign would fail
    with HypothesisMoved, not shrink without bound or draw other games)."""
    from hypothesis.internal.reflection import function_digest

    from fuzz.campaign import HYPOTHESIS_PRIVATES, hypothesis_private

    for module, name in HYPOTHESIS_PRIVATES:
        hypothesis_private(module, name)
    # The machine's example-database key: Hypothesis reads this attribute of the class.
    digests = set()
    for salt in (b"a", b"b"):
        class Machine:
            _hypothesis_internal_add_digest = salt
        digests.add(function_digest(Machine))
    assert len(digests) == 2


def test_a_moved_hypothesis_private_stops_the_campaign_naming_it(monkeypatch):
    from hypothesis.internal.conjecture import engine

    from fuzz.campaign import HypothesisMoved, shrinking_bounded

    monkeypatch.delattr(engine, "MAX_SHRINKING_SECONDS")
    with pytest.raises(HypothesisMoved, match="MAX_SHRINKING_SECONDS"), shrinking_bounded(1.0):
        pass


def test_a_broken_engine_is_found_shrunk_and_replayable(tmp_path, capsys):
    status = fuzz("--engine", TWO_LANDS, "--edition", "cr2004", "--invariant",
                  "one-land-per-turn", "--profile", "ci", "--shrink-seconds", "3", "--out",
                  str(tmp_path))
    assert status == 1
    result = json.loads((tmp_path / "fuzz-cr2004.json").read_text())
    jsonschema.validate(result, FUZZ_SCHEMA)
    [finding] = result["findings"]
    assert finding["invariant"] == "one-land-per-turn"
    assert finding["rules"] == ["cr2004:212.6b"]
    case_file = Path(finding["case_file"])
    assert finding["steps"] <= 40 and case_file.is_file()
    capsys.readouterr()
    # The case file replays: it fails the broken engine and passes the reference engine.
    assert main(["fuzz", "replay", str(case_file), "--engine", TWO_LANDS]) == 1
    assert "fail" in capsys.readouterr().out
    assert main(["fuzz", "replay", str(case_file)]) == 0
    # ... and lints as a bundled case would.
    assert main(["cases", "lint", "--no-bundled", str(case_file)]) == 0


def test_the_ci_profile_plays_the_same_games_every_run(tmp_path):
    def run(out: Path) -> dict:
        campaign = Campaign(FuzzConfig("reference", "cr2004"), PROFILES["ci"], 60.0, 0,
                            rounds_wanted=1, database="none", out=out)
        campaign.run()
        return campaign.results()

    first, second = run(tmp_path / "a"), run(tmp_path / "b")
    assert first["steps"] == second["steps"] > 0
    assert first["invariants"] == second["invariants"]


def test_a_differential_run_reports_the_first_difference(tmp_path):
    same = Campaign(FuzzConfig("reference", "modern", against="reference"), PROFILES["ci"],
                    60.0, 1, rounds_wanted=1, database="none")
    assert same.run().by_key == {}
    # TwoLands also lists a second land play: the reference engine rejects it.
    other = Campaign(FuzzConfig(TWO_LANDS, "cr2004", against="reference",
                                invariants=("differential",)), QUICK, 60.0, 1,
                     rounds_wanted=3, database="none")
    findings = other.run().by_key
    assert {key.split()[0] for key in findings} == {"differential"}  # one per part of the game
    assert any("reference" in f.violation.message for f in findings.values())


def test_a_differential_run_compares_the_engines_states_after_a_step(tmp_path):
    # Lands enter tapped: both engines list and accept the same actions; only the states
    # after the land play differ.
    config = FuzzConfig("py:tests.fakes.fuzz_engines:LandsEnterTapped", "modern",
                        against="reference", invariants=("differential",))
    findings = Campaign(config, QUICK, 60.0, 1, rounds_wanted=3, database="none").run().by_key
    assert {key.split()[0] for key in findings} == {"differential"}  # one per part of the game
    message = findings["differential battlefield"].violation.message
    assert ".tapped: " in message and "shows True" in message, message
    # A modern game's difference cites modern rules (no modern rule of tapping is known to
    # the corpus: the battlefield's), never cr2004:214.3.
    assert findings["differential battlefield"].violation.rules == ("modern:403.1",)


def test_an_engine_that_cannot_be_fuzzed_exits_4(tmp_path, capsys):
    status = fuzz("--engine", "py:tests.fakes.portable:CannotPay", "--out", str(tmp_path))
    assert status == 4
    assert "lacks actions.legal" in capsys.readouterr().err


def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys):
    assert fuzz("--invariant", "no-such-thing", "--out", str(tmp_path)) == 2
    assert "no invariant no-such-thing" in capsys.readouterr().err
    assert main(["fuzz", "replay", str(tmp_path / "missing.yaml")]) == 2
    assert fuzz("--budget", "0", "--out", str(tmp_path)) == 2
    assert "--budget must be a positive number" in capsys.readouterr().err
    # A Redis address where nothing answers (port 1): one line, not a traceback.
    status = main(["fuzz", "--quiet", "--database", "redis://127.0.0.1:1/0", "--budget", "1",
                   "--out", str(tmp_path)])
    assert status == 2
    assert "Redis" in capsys.readouterr().err  # no server there (or no redis package)


def _case_file(path: Path, setup: dict, steps: list, rules: str = "cr2004:212.6b") -> Path:
    """A case file as the fuzzer writes one: no last expect (the invariants find the bug)."""
    case = {"id": f"fuzz.replayed.{path.stem}", "rules": [rules],
            "editions": [rules.split(":", maxsplit=1)[0]], "quote": {rules: _quote(rules)},
            "summary": "Replayed.", "setup": setup, "steps": steps}
    path.write_text(json.dumps([case]), encoding="utf-8")  # JSON is YAML
    return path


def _quote(rule: str) -> str:
    from spec.corpus import Corpus

    return Corpus.load().get(rule).text.strip()[:24].strip()


def test_the_replay_of_a_seeded_start_runs_the_case_with_every_invariant_watching(tmp_path,
                                                                                  capsys):
    case_file = _case_file(tmp_path / "seeded.yaml", {
        "start": "game", "seed": 1, "first_player": "A", "shuffle": False,
        "decks": {"A": [{"card": "Forest", "handle": f"a{i:02d}"} for i in range(1, 13)],
                  "B": [{"card": "Forest", "count": 12}]}}, [
        {"advance": {"turn": 1, "step": "precombat_main"}},
        {"do": {"action": "play_land", "player": "A", "card": "a01"}},
        {"expect_illegal": {"action": "play_land", "player": "A", "card": "a02"}}])
    assert main(["fuzz", "replay", str(case_file), "--engine", TWO_LANDS]) == 1
    out = capsys.readouterr().out
    assert "[cr2004]: fail: step 3 (expect_illegal play_land): the engine accepted" in out
    assert "invariant broken: one-land-per-turn (cr2004:212.6b): A played a second land" in out
    assert main(["fuzz", "replay", str(case_file)]) == 0
    assert capsys.readouterr().out.endswith("[cr2004]: pass\n")


def test_a_given_state_finding_replays_as_failing_until_the_engine_is_fixed(
        tmp_path, capsys, monkeypatch):
    """A finding from a given state (no seeded start), written without a last expect: the
    replay's verdict is the invariants', whatever the setup (it once said pass, exit 0)."""
    from tests.fakes import fuzz_engines

    keeps_ids = "py:tests.fakes.fuzz_engines:KeepsIds"
    case_file = _case_file(tmp_path / "given.yaml", {
        "turn": {"number": 3, "active": "A", "step": "precombat_main"},
        "players": {"A": {"hand": [{"handle": "forest", "card": "Forest"}],
                          "library": ["Island"] * 3},
                    "B": {"library": ["Island"] * 3}}},
        [{"do": {"action": "play_land", "player": "A", "card": "forest"}}], "modern:400.7")
    assert main(["fuzz", "replay", str(case_file), "--engine", keeps_ids]) == 1
    out = capsys.readouterr().out
    assert "[modern]: pass\n" in out
    assert "invariant broken: new-object-on-zone-change" in out
    assert "Forest moved from hand to battlefield keeping id" in out
    # The fake fixed: zone changes make new objects (its ids are the engine's own again).
    monkeypatch.setattr(fuzz_engines.KeepsIds, "_follow", lambda self: None)
    assert main(["fuzz", "replay", str(case_file), "--engine", keeps_ids]) == 0
    assert "invariant broken" not in capsys.readouterr().out


# ---- the shared example database -----------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def redis_url(tmp_path):
    server = shutil.which("redis-server")
    try:
        import redis
    except ImportError:
        server = None
    if server is None:
        reason = "no redis-server and redis package (.ci/run installs both)"
        if os.environ.get("MTGCONF_REQUIRE_REDIS"):
            pytest.fail(reason)
        pytest.skip(reason)
    port = _free_port()
    process = subprocess.Popen([server, "--port", str(port), "--save", "", "--appendonly", "no",
                                "--dir", str(tmp_path)], stdout=subprocess.DEVNULL)
    try:
        import redis

        client = redis.Redis(port=port)
        for _ in range(100):
            try:
                client.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(10)


def test_a_campaign_shares_its_failures_through_redis(redis_url):
    import redis

    config = FuzzConfig(TWO_LANDS, "cr2004", invariants=("one-land-per-turn",))
    first = Campaign(config, QUICK, 60.0, 0, rounds_wanted=4, database=redis_url)
    assert "one-land-per-turn" in first.run().by_key
    keys = redis.Redis.from_url(redis_url).keys(b"mtgconf-fuzz:*")
    assert keys, f"nothing saved in Redis; found {first.findings.by_key}, rounds {first.rounds}"
    # Another machine (another seed, one round of one game) starts from the saved failure.
    second_profile = replace(QUICK, examples_per_round=1)
    second = Campaign(config, second_profile, 60.0, 12345, rounds_wanted=1,
                      database=redis_url)
    assert "one-land-per-turn" in second.run().by_key


def test_a_directory_database_by_default(tmp_path, monkeypatch):
    from hypothesis.database import DirectoryBasedExampleDatabase

    monkeypatch.chdir(tmp_path)
    assert isinstance(open_database(None), DirectoryBasedExampleDatabase)
    assert open_database("none") is None
