"""Undoable monkeypatches for mutants: set an attribute, or edit one function's source.

A source edit replaces exact text in a function's source and swaps the function's
``__code__`` in place. Swapping the code object, rather than rebinding a name, reaches every
reference to the function at once: card implementations hold their effect functions inside
frozen registry entries, and ``from x import f`` copies a name into other modules. Every
edit must match exactly once, so a mutant whose target code has changed fails loudly instead
of silently testing nothing.
"""

from __future__ import annotations
import __future__

import inspect
import textwrap
from collections.abc import Callable
from types import FunctionType
from typing import Any

_MISSING = object()


class PatchError(Exception):
    """A patch does not apply: its target is not there or its edit does not match."""


class Patcher:
    """Collects patches so that they can be undone in reverse order."""

    def __init__(self, label: str = "mutant") -> None:
        self.label = label
        self._undo: list[Callable[[], None]] = []

    def __len__(self) -> int:
        return len(self._undo)

    def set(self, owner: Any, name: str, value: Any) -> None:
        """Set ``owner.name``; on a class, only that class's own attribute is touched, so
        that undoing restores inheritance exactly."""
        if isinstance(owner, type):
            old = owner.__dict__.get(name, _MISSING)
            if old is _MISSING and not hasattr(owner, name):
                raise PatchError(f"{owner.__qualname__} has no attribute {name!r}")
        else:
            old = getattr(owner, name, _MISSING)
            if old is _MISSING:
                raise PatchError(f"{owner!r} has no attribute {name!r}")
        setattr(owner, name, value)

        def undo() -> None:
            if old is _MISSING:
                delattr(owner, name)
            else:
                setattr(owner, name, old)

        self._undo.append(undo)

    def source(self, func: Callable[..., Any], *edits: tuple[str, str],
               count: int = 1) -> None:
        """Replace text in ``func``'s source, each ``(old, new)`` pair in turn; ``old`` must
        occur exactly ``count`` times. The code is recompiled with the function's own
        globals, closure variables and defaults."""
        if not isinstance(func, FunctionType):
            raise PatchError(f"{func!r} is not a plain function")
        text = textwrap.dedent(inspect.getsource(func))
        for old, new in edits:
            found = text.count(old)
            if found != count:
                raise PatchError(f"{func.__qualname__}: {old!r} occurs {found} times, "
                                 f"expected {count}")
            text = text.replace(old, new)
        code = _compile_like(func, text, f"<{self.label}: {func.__qualname__}>")
        original = func.__code__
        func.__code__ = code
        self._undo.append(lambda: setattr(func, "__code__", original))

    def undo(self) -> None:
        while self._undo:
            self._undo.pop()()


def _compile_like(func: FunctionType, text: str, filename: str) -> Any:
    """Compile ``text`` (a ``def`` of ``func``) so that its code object can replace
    ``func.__code__``: same free variables (closure cells, ``__class__`` for ``super()``)."""
    freevars = func.__code__.co_freevars
    name = func.__name__
    # Wrap the def in an outer function that defines the free variables, so that the
    # compiler makes them free in the inner code too; a class body supplies __class__.
    cells = [v for v in freevars if v != "__class__"]
    body = textwrap.indent(text, "        ")
    lines = ["def _outer():"]
    lines += [f"    {v} = None" for v in cells]
    if "__class__" in freevars:
        lines += ["    class _Holder:", body, f"    return _Holder.__dict__[{name!r}]"]
    else:
        lines += [textwrap.indent(text, "    "), f"    return {name}"]
    wrapper = "\n".join(lines) + "\n"
    flags = __future__.annotations.compiler_flag
    try:
        module_code = compile(wrapper, filename, "exec", flags=flags, dont_inherit=True)
    except SyntaxError as exc:
        raise PatchError(f"{func.__qualname__}: the edited source does not compile: {exc}"
                         ) from None
    namespace: dict[str, Any] = dict(func.__globals__)
    exec(module_code, namespace)
    inner = namespace["_outer"]()
    if isinstance(inner, staticmethod | classmethod):
        inner = inner.__func__
    code = inner.__code__
    if code.co_freevars != freevars:
        raise PatchError(f"{func.__qualname__}: free variables changed from {freevars} to "
                         f"{code.co_freevars}")
    return code.replace(co_name=func.__code__.co_name,
                        co_qualname=func.__code__.co_qualname)
