"""The rules corpus: the Comprehensive Rules of two editions as machine-readable records."""

from spec.corpus import Corpus, Rule, fold
from spec.editions import EDITIONS, Edition
from spec.errors import AnnotationError, OutsideError, SourceError, SpecError, UnknownRule

__all__ = [
    "EDITIONS",
    "AnnotationError",
    "Corpus",
    "Edition",
    "OutsideError",
    "Rule",
    "SourceError",
    "SpecError",
    "UnknownRule",
    "fold",
]
