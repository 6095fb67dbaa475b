"""The reference engine of this checkout against another copy of the repository, same run.

    python benchmarks/engine_versus.py /tmp/engine-base [--games 200] [--repeats 5]
    python benchmarks/engine_versus.py /tmp/engine-base --check-traces [--seeds 1 2 3]

Speed: self-play over the whole card pool (``python -m reference_engine.selfplay --decks
pool --json``), run in a subprocess in each checkout, the two alternating (base, new, base,
new, ...) so that both see the same load on a shared machine; per edition it prints each
side's median actions per second and the ratio new/base (and the ratio of the fastest runs,
the steadier on a loaded machine). Nothing is asserted about the figures: they are for
reading.

``--check-traces``: for every seed and edition, plays the same games in both checkouts and
compares a digest of each game's actions and final observation, game by game; any difference
(or a different number of games) is listed and the exit status is 1.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]
EDITIONS = ("modern", "cr2004")

# Runs inside a checkout: one digest per game, printed as JSON. Uses only play_game(), which
# the base commit has too, so both sides play exactly the same seeds the same way.
_DIGESTS = """
import hashlib, json, sys
from reference_engine.selfplay import play_game
edition, seed, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
out = []
for index in range(games):
    digest = hashlib.sha256()
    game_seed = seed * 1_000_003 + index
    try:
        result, actions = play_game(edition, game_seed, digest.update, "pool")
        out.append([game_seed, actions, digest.hexdigest()])
    except Exception as exc:
        out.append([game_seed, None, repr(exc)])
print(json.dumps(out))
"""


def _run(root: Path, args: list[str]) -> str:
    env = dict(os.environ, PYTHONPATH=str(root))
    done = subprocess.run([sys.executable, *args], cwd=root, env=env, capture_output=True,
                          text=True, check=False)
    if done.returncode != 0 and not done.stdout.strip():
        raise SystemExit(f"{root}: {' '.join(args)} failed:\n{done.stderr}")
    return done.stdout


def selfplay(root: Path, edition: str, games: int, seed: int) -> dict[str, Any]:
    out = _run(root, ["-m", "reference_engine.selfplay", "--games", str(games), "--seed",
                      str(seed), "--edition", edition, "--decks", "pool", "--json"])
    return json.loads(out)


def compare_speed(base: Path, new: Path, games: int, repeats: int, seed: int) -> int:
    rows = []
    for edition in EDITIONS:
        rates: dict[str, list[int]] = {"base": [], "new": []}
        traces: dict[str, set[str]] = {"base": set(), "new": set()}
        for repeat in range(repeats):
            # Alternate which side goes first too, so neither always runs on a warmer machine.
            order = (("base", base), ("new", new)) if repeat % 2 == 0 else (
                ("new", new), ("base", base))
            for side, root in order:
                summary = selfplay(root, edition, games, seed)
                rates[side].append(summary["actions_per_second"])
                traces[side].add(summary["trace_sha256"])
                print(f"  {edition} {side}: {summary['actions_per_second']} actions/s",
                      file=sys.stderr)
        base_median = statistics.median(rates["base"])
        new_median = statistics.median(rates["new"])
        # Load on a shared machine only ever slows a run: the best run of each side is the
        # steadier estimate of its own speed, the median the more typical one.
        best = max(rates["new"]) / max(rates["base"])
        same = traces["base"] == traces["new"] and len(traces["new"]) == 1
        rows.append((edition, base_median, new_median, new_median / base_median, best, same))
    print(f"{'edition':8} {'base a/s':>10} {'new a/s':>10} {'ratio':>6} {'best':>6}  same trace")
    for edition, base_median, new_median, ratio, best, same in rows:
        print(f"{edition:8} {base_median:>10.0f} {new_median:>10.0f} {ratio:>6.2f} {best:>6.2f}  "
              f"{'yes' if same else 'NO'}")
    print(f"({games} games, seed {seed}, --decks pool, median of {repeats} alternating runs; "
          "best: the ratio of each side's fastest run)")
    return 0 if all(row[5] for row in rows) else 1


def check_traces(base: Path, new: Path, seeds: list[int], games: int) -> int:
    differences = 0
    compared = 0
    for edition in EDITIONS:
        for seed in seeds:
            args = ["-c", _DIGESTS, edition, str(seed), str(games)]
            theirs = json.loads(_run(base, args))
            ours = json.loads(_run(new, args))
            compared += len(ours)
            if len(theirs) != len(ours):
                print(f"{edition} seed {seed}: {len(theirs)} games against {len(ours)}")
                differences += 1
            for before, after in zip(theirs, ours, strict=False):
                if before != after:
                    differences += 1
                    print(f"{edition} game seed {before[0]}: {before[1:]} became {after[1:]}")
    print(f"{compared} games compared (editions {', '.join(EDITIONS)}, seeds "
          f"{' '.join(map(str, seeds))}, {games} games each): {differences} differences")
    return 1 if differences else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", type=Path, help="Root of the other checkout (the baseline)")
    parser.add_argument("--games", type=int, default=200,
                        help="Games per self-play run (default 200)")
    parser.add_argument("--repeats", type=int, default=5,
                        help="Runs of each side per edition (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="Seed of the speed runs")
    parser.add_argument("--check-traces", action="store_true",
                        help="Compare every game's digest instead of measuring speed")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3],
                        help="Seeds of --check-traces (default 1 2 3)")
    args = parser.parse_args(argv)
    base = args.base.resolve()
    if not (base / "reference_engine").is_dir():
        parser.error(f"{base} has no reference_engine/")
    if args.check_traces:
        return check_traces(base, HERE, args.seeds, args.games)
    return compare_speed(base, HERE, args.games, args.repeats, args.seed)


if __name__ == "__main__":
    sys.exit(main())
