"""An engine whose every text carries markup and scripts, for the report's escaping tests.

Use it as ``--engine py:tests.fakes.markup:MarkupEngine`` from the repository root. A page
that let any of its texts through unescaped would run ``window.pwned = 1`` or grow an element.
"""

from __future__ import annotations

from typing import Any

from tests.fakes.toy import ToyEngine

SCRIPT = "<script>window.pwned = 1</script>"
IMAGE = '"><img src=x onerror="window.pwned = 1">'
SVG = "<svg onload=\"window.pwned = 1\"><title>Bear</title></svg>"


class MarkupEngine(ToyEngine):
    """Named, versioned and declaring a card with markup; every cast fails with a message
    carrying an iframe."""

    name = f"{SCRIPT}toy"
    version = f"1.0{IMAGE}"

    def hello(self, protocol: int) -> dict[str, Any]:
        info = super().hello(protocol)
        info["cards"] = [*info["cards"], SVG]
        return info

    def perform(self, action: dict[str, Any]) -> None:
        if action.get("action") == "cast":
            raise RuntimeError("<iframe src=\"javascript:window.pwned = 1\"></iframe> in cast")
        super().perform(action)
