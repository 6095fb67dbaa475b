"""``python -m tests.golden``: write the golden outputs again (see ``tests/golden/__init__.py``)."""

from __future__ import annotations

import shutil

from tests import golden


def main() -> None:
    fuzz_dir, given_dir = golden.HERE / "fuzz", golden.HERE / "given"
    for folder in (fuzz_dir, given_dir):
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
    for run in golden.FUZZ_RUNS:
        out = fuzz_dir / run.name
        results = golden.fuzz(run, out)
        (out / "results.json").write_text(golden.normalised(results), encoding="utf-8")
        print(f"{run.name}: {[f['invariant'] for f in results['findings']]}")
    for given_run in golden.GIVEN_RUNS:
        print(f"given: {golden.given(given_run, given_dir).name}")
    records = golden.replays(fuzz_dir, given_dir)
    (golden.HERE / "replays.yaml").write_text(golden.dump_replays(records), encoding="utf-8")
    print(f"replays: {len(records)}")


if __name__ == "__main__":
    main()
