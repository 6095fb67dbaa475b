"""How fast the fuzzer drives an engine, against baselines measured in the same run.

    python benchmarks/fuzz_speed.py [--engine reference] [--seconds 10] [--rounds 3]

Per round and edition: fuzzer steps per second (a campaign with every invariant, the ci
profile's games, no database, no shrinking needed on a correct engine), and right before it
the same engine's raw rate through the protocol client (random legal play: legal_actions,
perform, observe each step, nothing checked). The ratio says what the fuzzer's own work
costs; the machines are shared and noisy, so take the best round.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from fuzz.campaign import PROFILES, Campaign
from fuzz.machine import FuzzConfig, close_sessions, session_for
from fuzz.strategies import playable_cards


def raw_rate(engine: str, edition: str, seconds: float) -> float:
    """Protocol steps per second of random legal play, nothing checked."""
    session = session_for(engine)
    client, info = session.client, session.info
    assert client is not None and info is not None
    basics, rest = playable_cards(info, edition)
    rng = random.Random(0)
    steps = 0
    begin = time.perf_counter()
    while time.perf_counter() - begin < seconds:
        decks = {p: rng.sample(basics, 1) * 8 + [rng.choice(rest) for _ in range(12)]
                 for p in ("A", "B")}
        client.new_game(edition, {"start": "game", "seed": rng.randrange(1 << 16),
                                  "decks": decks})
        for _ in range(200):
            observation = client.observe()
            if (observation.get("result") or {}).get("over"):
                break
            actions = [a for a in client.legal_actions() if a.get("action") != "concede"]
            if not actions:
                break
            client.perform(rng.choice(actions))
            steps += 1
    return steps / (time.perf_counter() - begin)


def fuzz_rate(engine: str, edition: str, seconds: float) -> float:
    campaign = Campaign(FuzzConfig(engine, edition), PROFILES["ci"], seconds, 1,
                        database="none")
    campaign.run()
    return campaign.findings.steps / campaign.seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", default="reference")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    for edition in ("cr2004", "modern"):
        best: dict[str, float] = {}
        for _ in range(args.rounds):
            raw = raw_rate(args.engine, edition, args.seconds)
            fuzzed = fuzz_rate(args.engine, edition, args.seconds)
            close_sessions()
            if fuzzed > best.get("fuzz", 0):
                best = {"raw": raw, "fuzz": fuzzed}
        rows.append({"edition": edition, "raw_steps_per_s": round(best["raw"]),
                     "fuzz_steps_per_s": round(best["fuzz"]),
                     "ratio": round(best["fuzz"] / best["raw"], 2)})
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    for row in rows:
        print(f"{args.engine} {row['edition']}: fuzzer {row['fuzz_steps_per_s']} steps/s, raw "
              f"play {row['raw_steps_per_s']} steps/s, ratio {row['ratio']}")


if __name__ == "__main__":
    main()
