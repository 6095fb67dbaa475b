"""The house in dependency order (docs/architecture.md): every import of every module of ours,
read from its source (imports inside functions and under ``TYPE_CHECKING`` too, relative ones,
and ``importlib.import_module`` or ``__import__`` of a literal name), goes one way:

    spec              -> nothing of ours
    reference_engine  -> spec
    conformance       -> spec
    fuzz, reports     -> spec, conformance
    mtgconf           -> any of them

with no exception. The harness reaches an engine, the reference one included, by name (a
``py:reference_engine...`` target, a mutant set's module name), never by an import."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ALLOWED: dict[str, frozenset[str]] = {
    "spec": frozenset(),
    "reference_engine": frozenset({"spec"}),
    "conformance": frozenset({"spec"}),
    "fuzz": frozenset({"spec", "conformance"}),
    "reports": frozenset({"spec", "conformance"}),
    "mtgconf": frozenset({"spec", "reference_engine", "conformance", "fuzz", "reports"}),
}
PACKAGES = tuple(ALLOWED)
#: top-level folders of the repository that are not packages of the house
NOT_THE_HOUSE = {"tests", "benchmarks", "docs", "build", "dist"}


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    path: Path
    line: int
    target: str  # the module imported, absolute

    @property
    def arrow(self) -> tuple[str, str]:
        return self.module.partition(".")[0], self.target.partition(".")[0]

    def __str__(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}: {self.module} imports {self.target}"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> Iterator[Import]:
    """Every import in the module at ``path``, wherever it is in the file."""
    module = module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                targets = [".".join([*base, *([node.module] if node.module else [])])]
            else:
                targets = [node.module or ""]
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in ("import_module", "__import__"):
                targets = [node.args[0].value]
        for target in targets:
            yield Import(module, path, node.lineno, target)


def modules() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


@cache
def house_imports() -> tuple[Import, ...]:
    return tuple(i for path in modules() for i in imports_of(path)
                 if i.target.partition(".")[0] in PACKAGES)


def test_the_house_is_these_packages():
    """A new top-level package must take its place in the flow (ALLOWED) before it counts."""
    found = {p.name for p in ROOT.iterdir()
             if p.is_dir() and (p / "__init__.py").is_file() and p.name not in NOT_THE_HOUSE}
    assert found == set(PACKAGES)


@pytest.mark.parametrize("package", PACKAGES)
def test_imports_flow_one_way(package: str):
    against = [str(i) for i in house_imports()
               if i.arrow[0] == package and i.arrow[1] != package
               and i.arrow[1] not in ALLOWED[package]]
    assert against == [], "\n".join(against)


def test_no_import_circle_between_packages():
    edges: dict[str, set[str]] = {p: set() for p in PACKAGES}
    for item in house_imports():
        source, target = item.arrow
        if source != target:
            edges[source].add(target)
    state: dict[str, str] = {}

    def circle_from(node: str, path: list[str]) -> list[str] | None:
        state[node] = "open"
        for nxt in sorted(edges[node]):
            if state.get(nxt) == "open":
                return [*path, node, nxt]
            if nxt not in state:
                found = circle_from(nxt, [*path, node])
                if found:
                    return found
        state[node] = "done"
        return None

    for package in PACKAGES:
        if package not in state:
            assert circle_from(package, []) is None


def test_the_reader_sees_every_kind_of_import(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The test itself: an import in a function, a relative one, one under TYPE_CHECKING and
    one through importlib are each seen (a test of the flow that misses one proves nothing)."""
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    package = tmp_path / "conformance" / "sub"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from fuzz.machine import FuzzConfig\n"
        "def later():\n    import reports\n    from ..session import x\n"
        "    from . import sibling\n"
        "    importlib.import_module('mtgconf.commands')\n    __import__('reference_engine')\n"
        "    importlib.import_module(name_from_a_registry)\n")
    (package / "mod.py").write_text(source)
    found = [(i.line, i.target) for i in imports_of(package / "mod.py")]
    assert sorted(found) == [(1, "typing"), (3, "fuzz.machine"), (5, "reports"),
                             (6, "conformance.session"), (7, "conformance.sub"),
                             (8, "mtgconf.commands"), (9, "reference_engine")]


def test_the_architecture_page_states_this_flow():
    """docs/architecture.md shows the allowed imports as this test enforces them."""
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = page.split("## The allowed imports", 1)[1].split("```")[1]
    stated: dict[str, frozenset[str]] = {}
    for line in block.strip().splitlines():
        package, _, targets = (part.strip() for part in line.partition("->"))
        stated[package] = frozenset() if targets == "nothing of ours" else frozenset(
            t.strip() for t in targets.split(","))
    assert stated == ALLOWED
    tree = page.split("## The tree", 1)[1].split("```")[1]
    assert {line.split("/")[0] for line in tree.splitlines()
            if line and not line.startswith(" ")} >= set(PACKAGES)
