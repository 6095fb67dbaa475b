"""pytest-xdist's status line, once. Under ``-q`` (as ``mtgconf run`` runs pytest) and without
a terminal, xdist writes its status as a plain line each time it shows it: "bringing up
nodes..." when the workers start and again once they have collected (when they are long up).
This plugin lets the first line through and drops the repeats; on a terminal, where xdist
rewrites one line in place, it changes nothing."""

from __future__ import annotations

from typing import Any

import pytest


class XdistStatusOnce:
    @pytest.hookimpl(trylast=True)  # after xdist's own sessionstart registered its reporter
    def pytest_sessionstart(self, session: pytest.Session) -> None:
        reporter: Any = session.config.pluginmanager.get_plugin("terminaldistreporter")
        if reporter is None or getattr(reporter, "_isatty", True):
            return
        show = reporter.ensure_show_status
        shown = False

        def once() -> None:
            nonlocal shown
            if not shown:
                shown = True
                show()

        reporter.ensure_show_status = once
