"""Errors of the rules corpus. Each names the file (and line or key) it is about."""

from __future__ import annotations


class SpecError(ValueError):
    """Base class: the corpus or one of its inputs is unusable."""


class SourceError(SpecError):
    """A seed source file is unreadable, modified, truncated or malformed."""

    def __init__(self, path: str, line: int | None, message: str) -> None:
        self.path = path
        self.line = line
        self.message = message
        where = f"{path}:{line}" if line is not None else path
        super().__init__(f"{where}: {message}")


class AnnotationError(SpecError):
    """An annotation file (gists, testability, errata) disagrees with the parsed rules."""

    def __init__(self, path: str, key: str | None, message: str) -> None:
        self.path = path
        self.key = key
        self.message = message
        where = f"{path}: {key}" if key else path
        super().__init__(f"{where}: {message}")


class UnknownRule(SpecError):
    """A rule id or reference that names no rule of the corpus."""


class OutsideError(SpecError):
    """A record of a rule outside the seeds (spec/outside/<edition>.yaml) is malformed or
    disagrees with the seed: named by file, line and rule id."""

    def __init__(self, path: str, line: int | None, key: str | None, message: str) -> None:
        self.path = path
        self.line = line
        self.key = key
        self.message = message
        where = f"{path}:{line}" if line is not None else path
        super().__init__(f"{where}: {key}: {message}" if key else f"{where}: {message}")
