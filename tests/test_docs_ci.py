"""The CI recipes of docs/ci.md run as written: the commands of the GitHub Actions workflow and
of the GitLab CI job (all but the installs, which this environment has done already) pass a
correct engine, fail a wrong one, and leave the files the recipes publish where they say."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
RECIPES = ROOT / "docs" / "ci.md"
WRONG_ENGINE = "py:tests.fakes.miniatures:PlaysLandsAnyTime"


def _yaml_blocks() -> list[Any]:
    text = RECIPES.read_text(encoding="utf-8")
    return [yaml.safe_load(block) for block in re.findall(r"```yaml\n(.*?)```", text, re.S)]


def github() -> tuple[dict[str, str], list[str], list[str]]:
    """The workflow's job environment, its commands, and the paths its steps publish."""
    (workflow,) = [b for b in _yaml_blocks() if "jobs" in b]
    job = workflow["jobs"]["conformance"]
    commands = [line for step in job["steps"] if "run" in step
                for line in step["run"].splitlines() if line.strip()]
    published = [step["with"].get("path") or step["with"].get("report_paths")
                 for step in job["steps"] if "uses" in step and "with" in step
                 and ("path" in step["with"] or "report_paths" in step["with"])]
    return job["env"], commands, published


def gitlab() -> tuple[dict[str, str], list[str], list[str]]:
    (pipeline,) = [b for b in _yaml_blocks() if "conformance" in b]
    job = pipeline["conformance"]
    artifacts = job["artifacts"]
    return job["variables"], job["script"], [*artifacts["paths"],
                                             artifacts["reports"]["junit"]]


def run_recipe(tmp_path: Path, variables: dict[str, str], commands: list[str],
               **override: str) -> list[subprocess.CompletedProcess[str]]:
    """Run the recipe's commands in a fresh checkout-like folder holding the expectations file,
    as CI would: one shell per command, the job's variables in the environment."""
    (tmp_path / "conformance").mkdir(exist_ok=True)
    (tmp_path / variables["EXPECTATIONS"]).write_text("expectations: {}\n", encoding="utf-8")
    env = {**os.environ, **variables, **override,
           "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "PYTHONPATH": str(ROOT)}
    done = []
    for command in commands:
        if command.strip().startswith("pip install"):
            continue
        done.append(subprocess.run(["bash", "-euo", "pipefail", "-c", command], cwd=tmp_path,
                                   env=env, capture_output=True, text=True, timeout=300,
                                   check=False))
    return done


@pytest.mark.parametrize("recipe", [github, gitlab], ids=["github", "gitlab"])
def test_a_recipe_passes_a_correct_engine_and_publishes_its_results(tmp_path, recipe):
    variables, commands, published = recipe()
    assert any(c.strip().startswith("pip install") for c in commands)
    (run,) = run_recipe(tmp_path, variables, commands)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert "(all as expected)" in run.stdout
    for path in published:
        assert (tmp_path / path).exists(), path
    assert (tmp_path / "conformance-results" / "results.json").is_file()


def test_the_recipe_fails_the_job_for_a_wrong_engine(tmp_path):
    variables, commands, _ = github()
    (run,) = run_recipe(tmp_path, variables, commands, ENGINE=WRONG_ENGINE)
    assert run.returncode == 1, run.stderr[-2000:]
    assert "Unexpected results" in run.stdout
    junit = (tmp_path / "conformance-results" / "junit.xml").read_text(encoding="utf-8")
    assert "<failure" in junit
