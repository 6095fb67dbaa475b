"""docs/ci.md works as written. In a fresh engine repository made here, its first-time commands
write the expectations file (creating its folder), then the commands of the GitHub Actions
workflow and of the GitLab CI job run, one shell each with the job's variables, and pass a
correct engine, fail a wrong one, and leave the files the recipes publish where they say. Each
workflow file parses.

The one substitution: mtg-conformance is installed already, from this checkout (installing it
into a fresh virtualenv for each recipe would take minutes), so ``pip install
"$MTG_CONFORMANCE"`` is checked to name mtg-conformance by a direct reference (it is not on
PyPI) and not run; ``pip install .`` (the engine's own package) is not run either: the
examples' engine is the bundled reference engine, installed with mtg-conformance."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
RECIPES = ROOT / "docs" / "ci.md"
WRONG_ENGINE = "py:tests.fakes.miniatures:PlaysLandsAnyTime"
INSTALL_ITSELF = 'pip install "$MTG_CONFORMANCE"'
INSTALL_ENGINE = "pip install ."
#: a requirement pip can meet without an index: a direct reference (git or a URL) or a path
DIRECT_REFERENCE = re.compile(r"^mtg-conformance @ (git\+https://|https://|file://)\S+$|^\.{0,2}/")


def _blocks(language: str) -> list[str]:
    text = RECIPES.read_text(encoding="utf-8")
    return re.findall(rf"```{language}\n(.*?)```", text, re.S)


def _yaml_blocks() -> list[Any]:
    return [yaml.safe_load(block) for block in _blocks("yaml")]


def first_time() -> list[str]:
    """The first-time commands (the sh block after "First time"), comments dropped."""
    text = RECIPES.read_text(encoding="utf-8")
    block = re.search(r"First time.*?```sh\n(.*?)```", text, re.S)
    assert block, "docs/ci.md has no first-time sh block"
    return [line for line in block.group(1).splitlines() if line.strip()]


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


def _environment(variables: dict[str, str]) -> dict[str, str]:
    return {**os.environ, **variables,
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
            "PYTHONPATH": str(ROOT)}


def _shell(script: str, cwd: Path, env: dict[str, str], *, errexit: bool = True
           ) -> subprocess.CompletedProcess[str]:
    flags = "-euo" if errexit else "-uo"
    return subprocess.run(["bash", flags, "pipefail", "-c", script], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300, check=False)


def _substituted(command: str, env: dict[str, str]) -> str | None:
    """The command to run in its place, or None for an install this checkout has done."""
    stripped = command.strip()
    if stripped == INSTALL_ITSELF:
        requirement = env.get("MTG_CONFORMANCE", "")
        assert DIRECT_REFERENCE.match(requirement), (
            f"MTG_CONFORMANCE={requirement!r}: mtg-conformance is not on PyPI; name it by a "
            "direct reference (mtg-conformance @ git+https://...) or a path")
        return None
    if stripped == INSTALL_ENGINE:
        return None
    assert not stripped.startswith("pip install"), f"an install the test does not know: {command}"
    return command


@pytest.fixture(scope="module")
def first_timed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh engine repository, after the first-time commands of docs/ci.md ran in it (once:
    a whole run of the suite)."""
    repository = tmp_path_factory.mktemp("first-time") / "my-engine"
    repository.mkdir()
    subprocess.run(["git", "init", "-q", str(repository)], check=True)
    (repository / "README.md").write_text("# my engine\n", encoding="utf-8")
    lines = first_time()
    exports = dict(re.findall(r'^export (\w+)="([^"]*)"', "\n".join(lines), re.M))
    script = []
    for line in lines:
        command = _substituted(line.split("  #")[0], {**os.environ, **exports})
        if command is not None:
            script.append(command)
    # One shell, as typed in a terminal: the exports carry, a run with failures goes on.
    done = _shell("\n".join(script), repository, _environment({}), errexit=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    shutil.rmtree(repository / "conformance-results")  # CI starts from the committed files
    return repository


@pytest.fixture
def engine_repository(first_timed: Path, tmp_path: Path) -> Path:
    """A copy of the first-timed repository of its own, for one recipe to run in."""
    return Path(shutil.copytree(first_timed, tmp_path / "my-engine"))


def run_recipe(repository: Path, variables: dict[str, str], commands: list[str],
               **override: str) -> list[subprocess.CompletedProcess[str]]:
    """The recipe's commands in the engine's repository, as CI would: one shell per command,
    the job's variables in the environment. The expectations file must be there already."""
    assert (repository / variables["EXPECTATIONS"]).is_file(), (
        f"{variables['EXPECTATIONS']}: the recipe's expectations file is not where the "
        "first-time commands wrote it")
    env = _environment({**variables, **override})
    done = []
    for line in commands:
        command = _substituted(line, env)
        if command is not None:
            done.append(_shell(command, repository, env))
    return done


def test_every_workflow_file_parses_as_its_ci_reads_it():
    blocks = _yaml_blocks()
    assert len(blocks) == 2
    (workflow,) = [b for b in blocks if "jobs" in b]
    assert workflow["name"] and workflow[True] == ["push", "pull_request"]  # YAML 1.1's "on"
    for step in workflow["jobs"]["conformance"]["steps"]:
        assert ("uses" in step) != ("run" in step), step
    (pipeline,) = [b for b in blocks if "conformance" in b]
    assert pipeline["conformance"]["image"].startswith("python:")
    assert all(isinstance(line, str) for line in pipeline["conformance"]["script"])


def test_the_first_time_commands_write_the_expectations_file_the_recipes_read(
        engine_repository):
    written = engine_repository / "conformance" / "expectations.yaml"
    assert written.is_file()
    assert "expectations: {}" in written.read_text(encoding="utf-8")
    for variables, _, _ in (github(), gitlab()):
        assert (engine_repository / variables["EXPECTATIONS"]) == written


@pytest.mark.parametrize("recipe", [github, gitlab], ids=["github", "gitlab"])
def test_a_recipe_passes_a_correct_engine_and_publishes_its_results(engine_repository, recipe):
    variables, commands, published = recipe()
    assert INSTALL_ITSELF in [c.strip() for c in commands]
    (run,) = run_recipe(engine_repository, variables, commands)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert "(all as expected)" in run.stdout
    for path in published:
        assert (engine_repository / path).exists(), path
    assert (engine_repository / "conformance-results" / "results.json").is_file()


def test_the_recipe_fails_the_job_for_a_wrong_engine(engine_repository):
    variables, commands, _ = github()
    (run,) = run_recipe(engine_repository, variables, commands, ENGINE=WRONG_ENGINE)
    assert run.returncode == 1, run.stderr[-2000:]
    assert "Unexpected results" in run.stdout
    junit = (engine_repository / "conformance-results" / "junit.xml").read_text(
        encoding="utf-8")
    assert "<failure" in junit


def test_an_install_from_the_index_is_refused():
    with pytest.raises(AssertionError, match="not on PyPI"):
        _substituted(INSTALL_ITSELF, {"MTG_CONFORMANCE": "mtg-conformance"})
