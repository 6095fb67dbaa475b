"""Rendering: one Jinja2 template per page kind (``reports/templates``), autoescape always on,
written to a folder that replaces the previous report only once it is whole
(``conformance.atomic.folder``).

Every text of an engine (its name, messages, stderr, card names) reaches a page through a
template's ``{{ }}`` and is escaped there; no template marks anything safe, and the pages
carry a Content-Security-Policy that allows no script at all.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from conformance import atomic
from reports import ci, model
from reports.pages import Page, Site

PACKAGE = Path(__file__).resolve().parent
TEMPLATES = PACKAGE / "templates"
STYLESHEET = PACKAGE / "static" / "report.css"
#: left in a report folder so that a later report may replace it (and nothing else)
MARKER = ".mtgconf-report"


class OutputError(Exception):
    """The report cannot be written where asked."""


@dataclass(frozen=True)
class Written:
    index: Path
    pages: int
    bytes: int
    markdown: str
    changes: list[str] | None
    warnings: tuple[str, ...] = ()


@cache
def environment() -> jinja2.Environment:
    """The one environment (its templates compiled once per process)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
        undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
    )
    env.filters["pct"] = lambda value: f"{value:.1f}%"
    env.globals["word"] = model.word
    env.globals["symbols"] = model.SYMBOLS
    return env


def render(page: Page, env: jinja2.Environment | None = None) -> str:
    env = env or environment()
    return env.get_template(page.template).render(root=page.root, path=page.path,
                                                  **page.context)


def write(site: Site, out: Path) -> Written:
    """Write every page, the stylesheet, summary.md and the badges into ``out``."""
    if out.exists() and not out.is_dir():
        raise OutputError(f"{out}: exists and is not a folder")
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).exists():
        raise OutputError(f"{out}: a folder that is not a report; give an empty or new "
                          "folder (a previous report there is replaced)")
    env = environment()
    size = 0
    with atomic.folder(out) as partial:
        pages = site.pages()
        for page in pages:
            target = partial / page.path
            target.parent.mkdir(parents=True, exist_ok=True)
            text = render(page, env)
            target.write_text(text, encoding="utf-8")
            size += len(text.encode("utf-8"))
        for where, source in site.files():
            target = partial / where
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
        shutil.copyfile(STYLESHEET, partial / STYLESHEET.name)
        markdown = ci.markdown(site, str(out / "index.html"))
        (partial / "summary.md").write_text(markdown, encoding="utf-8")
        _write_json(partial / "badge.json", ci.badge(site, site.engines[0]))
        if len(site.engines) > 1:
            for engine in site.engines:
                _write_json(partial / "badges" / f"{engine.slug}.json", ci.badge(site, engine))
        (partial / MARKER).write_text("written by mtgconf report; replaced by the next one\n",
                                      encoding="utf-8")
    return Written(index=out / "index.html", pages=len(pages), bytes=size, markdown=markdown,
                   changes=ci.change_lines(site),
                   warnings=tuple(w for w in (site.narrower_than_baseline,) if w))


def _write_json(path: Path, data: Any) -> None:
    # Inside the folder atomic.folder swaps in whole: no file of it needs its own swap.
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
