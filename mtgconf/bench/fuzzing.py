"""The fuzzer's speed: steps per second of a campaign, every invariant checked.

A campaign as ``mtgconf fuzz --profile ci`` runs it (its games and steps per game, the
engine's views every fourth step, one game in eight replayed), without the example database,
for the budget. On a correct engine nothing shrinks; on an engine with bugs, shrinking is
bounded by the budget too, and its steps count like any other.
"""

from __future__ import annotations

from dataclasses import replace

from conformance.errors import CallFailed, SetupError
from mtgconf.bench.figures import NotApplicable, Sample, Unmeasurable

SEED = 1


def fuzz_rate(engine: str, edition: str, seconds: float) -> Sample:
    from fuzz.campaign import PROFILES, Campaign
    from fuzz.engines import FuzzEngines
    from fuzz.machine import ENGINE_ERROR, FuzzConfig, check_config

    config = FuzzConfig(engine, edition)
    try:
        with FuzzEngines() as engines:
            check_config(config, engines)
            campaign = Campaign(config, replace(PROFILES["ci"], shrink_seconds=seconds),
                                seconds, SEED, database="none", engines=engines)
            campaign.run()
    except ValueError as exc:  # check_config: what the engine lacks to be fuzzed
        raise NotApplicable(str(exc)) from None
    except (SetupError, CallFailed) as exc:
        raise Unmeasurable(f"the engine failed while fuzzing: {exc}") from None
    findings = campaign.findings
    failed = findings.by_key.get(ENGINE_ERROR)
    if failed is not None:
        raise Unmeasurable(f"the engine failed while fuzzing: {failed.violation.describe()}")
    return Sample(findings.steps / campaign.seconds if campaign.seconds else 0.0, {
        "steps": findings.steps, "games": findings.games, "rounds": campaign.rounds,
        "seconds": round(campaign.seconds, 3), "findings": sorted(findings.by_key)})
