"""Reading case files: YAML, checked against ``spec/schemas/case.json``, expanded, compiled.

Every problem names the file, the line, the case id and the field, and a file with a problem
yields no cases (its collector reports the problems instead). Loading happens once per
process: the pytest plugin and the CLI share ``load``.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

if TYPE_CHECKING:
    from jsonschema import ValidationError

from conformance import observed, paths, schemas
from conformance.case import Case, Check, Step, StepKind, setup_cards
from conformance.errors import InputError, Problem
from conformance.needs import DERIVED, derive
from conformance.protocol import CAPABILITIES, PLAYERS, RETIRED
from spec.standins import parse_token, standins

CASES_DIR = Path(__file__).resolve().parent / "cases"
SUFFIXES = (".yaml", ".yml")
_PLACEHOLDER = re.compile(r"\$\{([a-z_][a-z0-9_]*)\}")
_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+(-[a-z0-9]+)*)+$")
_STEP_KINDS: tuple[StepKind, ...] = (
    "do", "expect", "expect_illegal", "advance", "bind", "expect_illegal_setup")
_Loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
LinePath = tuple[str | int, ...]


@dataclass
class CaseSet:
    """Every case of some directories, with the problems that kept files out."""

    cases: list[Case] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def by_file(self, path: Path) -> list[Case]:
        return [c for c in self.cases if c.file == path]

    def problems_for(self, path: Path) -> list[Problem]:
        return [p for p in self.problems if p.path == str(path)]

    def get(self, case_id: str) -> Case | None:
        return next((c for c in self.cases if c.id == case_id), None)

    @property
    def ids(self) -> frozenset[str]:
        return frozenset(c.id for c in self.cases)

    def raise_for_problems(self) -> None:
        errors = [p for p in self.problems if p.severity == "error"]
        if errors:
            raise InputError(tuple(errors))


def case_files(dirs: Iterable[Path]) -> list[Path]:
    """The case files under ``dirs`` (a file may be named directly), sorted, once each."""
    seen: dict[Path, None] = {}
    for given in dirs:
        base = Path(given).resolve()
        if base.is_file():
            seen.setdefault(base)
        elif base.is_dir():
            for path in sorted(p for p in base.rglob("*") if p.suffix in SUFFIXES):
                seen.setdefault(path)
    return list(seen)


def load(dirs: Sequence[Path] = (CASES_DIR,)) -> CaseSet:
    """Load every case file under ``dirs``; a missing directory is a problem, not an error."""
    result = CaseSet()
    for base in dirs:
        if not Path(base).exists():
            result.problems.append(Problem(str(base), "no such file or directory"))
    first_seen: dict[str, Case] = {}
    for path in case_files(dirs):
        result.files.append(path)
        cases, problems = load_file(path)
        for case in cases:
            other = first_seen.get(case.id)
            if other is not None:
                problems.append(Problem(str(path), f"duplicate id: already used at "
                                        f"{other.location}", case.line, case.id, "id"))
            else:
                first_seen[case.id] = case
        result.problems.extend(problems)
        if not any(p.severity == "error" for p in problems):
            result.cases.extend(cases)
    return result


def load_file(path: Path) -> tuple[list[Case], list[Problem]]:
    """The cases of one file, or the problems that make it unusable."""
    where = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return [], [Problem(where, f"cannot read: {exc}")]
    try:
        data, lines, duplicates = _parse(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc)
        if "expected ',' or '}'" in problem:
            problem += " (inside {...}, quote a path that has [...] in it)"
        return [], [Problem(where, f"not valid YAML: {problem}", line)]
    if data is None:
        return [], []
    problems = [Problem(where, f"duplicate key {key!r}", line, _case_id(data, p), _field(p))
                for p, key, line in duplicates]
    for error in sorted(schemas.iter_errors("case.json", data), key=lambda e: list(e.path)):
        location = tuple(error.absolute_path)
        if (error.validator == "additionalProperties" and isinstance(error.instance, dict)
                and isinstance(error.schema, Mapping)):
            # Point at the first unknown key itself, not at the mapping holding it.
            known = error.schema.get("properties", {})
            unknown = sorted(k for k in error.instance if k not in known)
            if unknown:
                location = (*location, unknown[0])
        problems.append(Problem(where, _schema_message(error), _line(lines, location),
                                _case_id(data, location), _field(location)))
    if problems:
        return [], problems
    cases: list[Case] = []
    for index, raw in enumerate(data):
        for case, case_problems in _expand(path, index, raw, lines):
            problems.extend(case_problems)
            if case is not None:
                cases.append(case)
    seen: dict[str, Case] = {}
    for case in cases:
        if case.id in seen:
            problems.append(Problem(where, f"duplicate id: already used at line "
                                    f"{seen[case.id].line}", case.line, case.id, "id"))
        seen.setdefault(case.id, case)
    return ([] if _errors(problems) else cases), problems


def _errors(problems: list[Problem]) -> bool:
    return any(p.severity == "error" for p in problems)


# ---- YAML with line numbers ----


def _parse(text: str) -> tuple[Any, dict[LinePath, int], list[tuple[LinePath, str, int]]]:
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, {}, []
        data = loader.construct_document(node)
    finally:
        loader.dispose()
    lines: dict[LinePath, int] = {}
    duplicates: list[tuple[LinePath, str, int]] = []
    _index(node, (), lines, duplicates)
    return data, lines, duplicates


def _index(node: yaml.Node, at: LinePath, lines: dict[LinePath, int],
           duplicates: list[tuple[LinePath, str, int]]) -> None:
    lines[at] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        keys: set[str] = set()
        for key_node, value_node in node.value:
            key = str(key_node.value)
            if key in keys:
                duplicates.append((at, key, key_node.start_mark.line + 1))
            keys.add(key)
            _index(value_node, (*at, key), lines, duplicates)
            lines[(*at, key)] = key_node.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            _index(item, (*at, i), lines, duplicates)


def _line(lines: dict[LinePath, int], at: LinePath) -> int | None:
    while at not in lines and at:
        at = at[:-1]
    return lines.get(at)


def _case_id(data: Any, at: LinePath) -> str | None:
    if at and isinstance(at[0], int) and isinstance(data, list) and at[0] < len(data):
        case = data[at[0]]
        case_id = case.get("id") if isinstance(case, dict) else None
        if isinstance(case_id, str):
            return case_id
        return f"#{at[0] + 1}"
    return None


def _field(at: LinePath) -> str | None:
    out = ""
    for part in at[1:]:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or None


def _schema_message(error: ValidationError) -> str:
    if error.validator == "oneOf" and error.absolute_path and "steps" in error.absolute_path:
        keys = sorted(error.instance) if isinstance(error.instance, dict) else []
        kinds = [k for k in keys if k in _STEP_KINDS]
        if len(kinds) != 1:
            return (f"a step has exactly one of {', '.join(_STEP_KINDS)} (found "
                    f"{', '.join(keys) or 'none'})")
        sub = [e for e in error.context if e.path and e.path[0] == kinds[0]] or error.context
        if sub:
            best = min(sub, key=lambda e: -len(e.path))
            where = ".".join(str(p) for p in best.path)
            return f"{where}: {best.message}" if where else best.message
    if (error.validator == "additionalProperties" and isinstance(error.instance, dict)
            and isinstance(error.schema, Mapping)):
        known = list(error.schema.get("properties", {}))
        unknown = sorted(k for k in error.instance if k not in known)
        close = difflib.get_close_matches(unknown[0], known, n=1) if unknown else []
        hint = f" (did you mean {close[0]}?)" if close else f" (known: {', '.join(known)})"
        return f"unknown field {', '.join(map(repr, unknown))}{hint}"
    return error.message


# ---- expansion and compilation ----


def _expand(path: Path, index: int, raw: dict[str, Any],
            lines: dict[LinePath, int]) -> Iterator[tuple[Case | None, list[Problem]]]:
    params_list: list[dict[str, Any] | None] = list(raw.get("params") or [None])
    for params in params_list:
        yield _compile(path, index, raw, params, lines)


def _compile(path: Path, index: int, raw: dict[str, Any], params: dict[str, Any] | None,
             lines: dict[LinePath, int]) -> tuple[Case | None, list[Problem]]:
    problems: list[Problem] = []
    where = str(path)
    case_id = raw["id"]
    values = {k: v for k, v in (params or {}).items() if k not in ("suffix", "editions")}
    editions = tuple(raw["editions"])
    if params is not None and "editions" in params:
        wanted = params["editions"]
        editions = tuple(e for e in editions if e in wanted)
        if not editions or set(wanted) - set(raw["editions"]):
            problems.append(Problem(where, f"this entry's editions {wanted} must be some of the "
                                    f"case's editions {list(raw['editions'])}",
                                    _line(lines, (index, "params")), raw["id"], "params"))
    if params is not None:
        suffix = params.get("suffix") or "-".join(_slug(v) for v in values.values())
        case_id = f"{raw['id']}.{suffix}"
        if not _ID.match(case_id):
            problems.append(Problem(where, f"the expanded id {case_id!r} is not dotted lowercase "
                                    "words; give this entry a suffix", _line(lines, (index,
                                    "params")), raw["id"], "params"))

    def problem(at: LinePath, message: str, severity: str = "error") -> None:
        problems.append(Problem(where, message, _line(lines, (index, *at)), case_id,
                                _field((index, *at)), severity))

    def substitute(value: Any, at: LinePath) -> Any:
        if isinstance(value, str):
            whole = _PLACEHOLDER.fullmatch(value)
            if whole:
                if whole.group(1) not in values:
                    problem(at, f"unknown parameter ${{{whole.group(1)}}}")
                    return value
                return values[whole.group(1)]

            def replace(match: re.Match[str]) -> str:
                if match.group(1) not in values:
                    problem(at, f"unknown parameter ${{{match.group(1)}}}")
                    return match.group(0)
                return str(values[match.group(1)])

            return _PLACEHOLDER.sub(replace, value)
        if isinstance(value, list):
            return [substitute(v, (*at, i)) for i, v in enumerate(value)]
        if isinstance(value, dict):
            return {k: substitute(v, (*at, k)) for k, v in value.items()}
        return value

    setup = substitute(raw["setup"], ("setup",))
    summary = substitute(raw["summary"], ("summary",))
    for top in schemas.iter_errors("protocol/setup.json", setup):
        for error in _setup_errors(top):
            problem(("setup", *error.absolute_path), f"not a valid setup: {_message(error)}")
    cards, handle_cards = setup_cards(setup)
    handles = frozenset(handle_cards)
    for card in sorted(cards):
        token = parse_token(card)
        if token is not None and token not in standins():
            problem(("setup",), f"unknown stand-in class {card} (known: "
                    f"{', '.join(f'<{n}>' for n in standins())}; spec/standins.yaml)")

    for capability in raw.get("requires", ()):
        if capability in RETIRED:
            problem(("requires",), f"{capability} is no capability: {RETIRED[capability]}, "
                    "needs none; drop it")
        elif capability not in CAPABILITIES:
            close = difflib.get_close_matches(capability, CAPABILITIES, n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            problem(("requires",), f"unknown capability {capability!r}{hint}")

    steps: list[Step] = []
    known = set(handles)  # the setup's handles, then those bound by earlier steps
    for i, raw_step in enumerate(raw["steps"]):
        at: LinePath = ("steps", i)
        step_value = substitute(raw_step, at)
        kind = next(k for k in _STEP_KINDS if k in step_value)
        value = step_value[kind]
        line = _line(lines, (index, *at))
        checks: list[Check] = []
        if kind in ("do", "expect_illegal"):
            for message, sub in _check_action(value, cards, frozenset(known)):
                problem((*at, kind, *sub), message)
        elif kind == "expect_illegal_setup":
            if len(raw["steps"]) != 1:
                problem(at, "expect_illegal_setup is a case's only step: nothing can follow a "
                        "game that must not start")
        elif kind == "advance":
            if "turn" in value and not isinstance(value["turn"], int):
                problem((*at, kind, "turn"), f"turn must be a whole number, not "
                        f"{value['turn']!r}")
        elif kind == "bind":
            for handle, text in value.items():
                parsed = _path(problem, (*at, kind, handle), str(text), known)
                if handle in known:
                    problem((*at, kind, handle), f"{handle!r} is a handle already")
                if parsed is not None:
                    checks.append(Check(parsed, handle))
            known.update(value)
        else:
            for text, expected in value.items():
                parsed = _path(problem, (*at, kind, text), str(text), known)
                if parsed is not None:
                    checks.append(Check(parsed, expected))
        steps.append(Step(i + 1, kind, value, line, step_value.get("as"), tuple(checks)))

    steps_tuple = tuple(steps)
    requires = frozenset(raw.get("requires", ()))
    derived = derive(setup, steps_tuple, handle_cards)
    for capability in sorted(requires & DERIVED):
        if capability in derived.capabilities:
            problem(("requires",), f"{capability} is derived from the setup and steps, which "
                    "need it: drop it", "warning")
        else:
            problem(("requires",), f"{capability} is derived from the setup and steps, yet "
                    "they do not need it (derived: "
                    f"{', '.join(sorted(derived.capabilities))}): drop it or change the case")
    case = Case(
        id=case_id,
        rules=tuple(raw["rules"]),
        editions=editions,
        quote=raw.get("quote", {}),
        summary=summary,
        requires=requires,
        setup=setup,
        steps=steps_tuple,
        file=path,
        line=_line(lines, (index,)),
        base_id=raw["id"],
        params=values if params is not None else None,
        needs=requires | derived.capabilities,
        payment=derived.payment,
        catches=substitute(raw["catches"], ("catches",)) if "catches" in raw else None,
        terms=_terms(raw.get("terms")),
        cards=cards,
        handles=handles,
        handle_cards=handle_cards,
    )
    return (None if _errors(problems) else case), problems


def _terms(raw: Any) -> tuple[str, ...] | dict[str, tuple[str, ...]] | None:
    """A case's ``terms`` (schema-checked): one list for every cited outside rule, or per rule."""
    def listed(value: Any) -> tuple[str, ...]:
        return (value,) if isinstance(value, str) else tuple(value)

    if raw is None:
        return None
    if isinstance(raw, dict):
        return {str(ref): listed(value) for ref, value in raw.items()}
    return listed(raw)


def _path(problem: Any, at: LinePath, text: str, known: set[str]) -> paths.Path | None:
    try:
        parsed = paths.parse(text)
    except ValueError as exc:
        problem(at, f"bad path: {exc}")
        return None
    for message in observed.problems(parsed):
        problem(at, f"bad path: {message}")
    for handle in sorted(parsed.handles - known):
        problem(at, f"[{handle}] is not a handle of the setup or of a bind step before "
                f"(handles: {', '.join(sorted(known)) or 'none'}; use [card=NAME] for a card "
                "name)")
    return parsed


def _check_action(action: dict[str, Any], cards: frozenset[str],
                  handles: frozenset[str]) -> Iterator[tuple[str, LinePath]]:
    if action.get("player") not in PLAYERS:
        yield f"player must be A or B, not {action.get('player')!r}", ("player",)
    for key in ("ability", "x"):
        if key in action and not (isinstance(action[key], int) and action[key] >= 0):
            yield f"{key} must be a whole number, not {action[key]!r}", (key,)
    refs: list[tuple[Any, LinePath, bool]] = []  # the case's values, not yet known to be text
    for key in ("card", "attacker"):
        if key in action:
            refs.append((action[key], (key,), False))
    for key in ("targets", "order"):
        for i, ref in enumerate(action.get(key, ())):
            refs.append((ref, (key, i), key == "targets"))
    sources = action.get("pay_with")
    for i, entry in enumerate(sources if isinstance(sources, list) else ()):
        ref = entry.get("card") if isinstance(entry, dict) else entry
        refs.append((ref, ("pay_with", i), False))
    for ref, at, may_be_player in refs:
        if ref in handles or ref in cards or (may_be_player and ref in PLAYERS):
            continue
        what = "a handle of the setup, a card in it" + (" or a player" if may_be_player else "")
        close = difflib.get_close_matches(ref, [*handles, *cards], n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        yield f"{ref!r} is not {what}{hint}", at


def _setup_errors(error: ValidationError) -> Iterator[ValidationError]:
    """The errors that say what is wrong: inside a oneOf (seeded start or given state; a card
    as a name or an object), those of the branch the value was meant to be."""
    if error.validator == "oneOf" and error.context:
        instance = error.instance
        branch = 0 if isinstance(instance, str) else 1
        if not error.absolute_path:  # the setup itself: seeded start or given state
            branch = 0 if isinstance(instance, dict) and "start" in instance else 1
        chosen = [e for e in error.context if e.relative_schema_path[0] == branch]
        if chosen:
            for sub in chosen:
                yield from _setup_errors(sub)
            return
    yield error


def _message(error: ValidationError) -> str:
    value = error.validator_value
    if error.validator == "not" and isinstance(value, Mapping) and "required" in value:
        return f"{' and '.join(value['required'])} cannot be used together"
    return error.message


def _slug(value: Any) -> str:
    return re.sub(r"[^a-z0-9]+", "-", str(value).lower()).strip("-") or "x"
