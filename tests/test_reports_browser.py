"""The report in a real browser: headless Chromium (Debian's ``chromium``), driven through the
DevTools protocol over a pipe (``--remote-debugging-pipe``: JSON messages ending in NUL on
file descriptors 3 and 4), with nothing but the standard library.

Why not Playwright: it would add a 40 MB wheel with its own Node.js driver, pinned to
Chromium builds of its own that it wants to download (which this project's machines cannot),
for the four things these tests need: open a page, listen to its console, evaluate an
expression, take a screenshot. Playwright talks to Chromium over this same pipe.

One browser serves every test. The sites are those of tests/test_reports.py (made once per
session): the report of two engines (the matrix) and the report of an engine whose name,
messages, stderr and card names carry markup and scripts. test_reports.py checks every page
without a browser for what would make one log an error (links, anchors, resources, scripts,
inline styles); here a page of every kind, and every page carrying an engine's text, is
loaded: none may log a console error or a failed load, request anything outside the site, or
hold a link that does not resolve inside it; nothing an engine wrote may run or become an
element; the summary, a rule page, the tree of the rules beyond the seeds and one of its rule
pages are photographed and checked not blank. Set
``MTGCONF_REPORT_PAGES=all`` to load every page of both sites (about 1,430, about four
minutes).

The screenshots are written to the test's temporary folder, and also to
``$MTGCONF_SCREENSHOTS`` when set; ``MTGCONF_SCREENSHOT_SITE`` (a report folder) and
``MTGCONF_SCREENSHOT_RULE`` (a rule ref) photograph another report, and rule, instead, and
``MTGCONF_SCREENSHOT_BEYOND`` (a rule ref outside the seeds) the rule page beyond the seeds
(docs/reports.md: how docs/screenshots/ is made).

Without a browser the tests skip, saying how to install one; with ``MTGCONF_REQUIRE_BROWSER``
set (``.ci/run`` sets it, after installing Chromium when missing) they fail instead.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import struct
import subprocess
import tempfile
import time
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest

from reports import model
from tests.test_reports import TOY, Shared, element_ids, shared

CANDIDATES = ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--mute-audio", "--hide-scrollbars")
TIMEOUT = 60.0
WIDTH, HEIGHT = 1280, 1500  # the window: a screenshot shows the top of a page this size
SCREENSHOTS = os.environ.get("MTGCONF_SCREENSHOTS")  # also keep them here (docs/screenshots)
ALL_PAGES = os.environ.get("MTGCONF_REPORT_PAGES") == "all"
# photograph this report instead of the test's own, and this rule (docs/reports.md)
PHOTOGRAPHED = os.environ.get("MTGCONF_SCREENSHOT_SITE")
PHOTOGRAPHED_RULE = os.environ.get("MTGCONF_SCREENSHOT_RULE", "cr2004:212.6a")
PHOTOGRAPHED_BEYOND = os.environ.get("MTGCONF_SCREENSHOT_BEYOND", "modern:505.6b")


def find_chromium() -> str | None:
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


class BrowserError(Exception):
    pass


class Chromium:
    """A headless Chromium spoken to over the DevTools pipe: one tab, reused page after
    page."""

    def __init__(self, executable: str) -> None:
        self.profile = tempfile.mkdtemp(prefix="mtgconf-chromium-")
        to_browser, self._ours_w = os.pipe()
        self._ours_r, from_browser = os.pipe()

        def descriptors() -> None:  # in the child: the pipe's ends become fds 3 and 4
            read, write = os.dup(to_browser), os.dup(from_browser)
            os.dup2(read, 3)
            os.dup2(write, 4)

        self.process = subprocess.Popen(
            [executable, *FLAGS, f"--user-data-dir={self.profile}", "--remote-debugging-pipe",
             "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=descriptors, close_fds=False)  # noqa: PLW1509 (fds 3-4 need it)
        os.close(to_browser)
        os.close(from_browser)
        self._buffer = b""
        self._next = 0
        self.events: list[dict[str, Any]] = []
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget",
                                 {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable", session=self.session)
        self.call("Emulation.setDeviceMetricsOverride", {"width": WIDTH, "height": HEIGHT,
                  "deviceScaleFactor": 1, "mobile": False}, session=self.session)

    # ---- the wire ----

    def _read(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._ours_r], [], [], left)[0]:
                raise BrowserError("Chromium did not answer in time")
            chunk = os.read(self._ours_r, 1 << 16)
            if not chunk:
                raise BrowserError("Chromium closed the pipe")
            self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(message)

    def call(self, method: str, params: dict[str, Any] | None = None, *,
             session: str | None = None) -> dict[str, Any]:
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._ours_w, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + TIMEOUT
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._next:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                return reply["result"]
            self.events.append(reply)

    def wait_for(self, event: str) -> dict[str, Any]:
        deadline = time.monotonic() + TIMEOUT
        while True:
            for i, message in enumerate(self.events):
                if message.get("method") == event:
                    return self.events.pop(i)
            self.events.append(self._read(deadline))

    # ---- pages ----

    def open(self, url: str) -> list[dict[str, Any]]:
        """Load ``url`` and return what happened on the way (console, log, requests)."""
        self.events.clear()
        self.call("Page.navigate", {"url": url}, session=self.session)
        self.wait_for("Page.loadEventFired")
        happened, self.events = self.events, []
        return happened

    def evaluate(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", {"expression": expression,
                                                "returnByValue": True}, session=self.session)
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, scale: float = 1.0) -> bytes:
        """The viewport as a PNG (``scale`` < 1: a smaller picture of the same view)."""
        import base64

        params: dict[str, Any] = {"format": "png"}
        if scale != 1.0:
            params["clip"] = {"x": 0, "y": 0, "width": WIDTH, "height": HEIGHT, "scale": scale}
        data = self.call("Page.captureScreenshot", params, session=self.session)
        return base64.b64decode(data["data"])

    def close(self) -> None:
        with contextlib.suppress(BrowserError):
            self.call("Browser.close")
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._ours_r)
        os.close(self._ours_w)
        shutil.rmtree(self.profile, ignore_errors=True)


@pytest.fixture(scope="module")
def browser() -> Iterator[Chromium]:
    executable = find_chromium()
    if executable is None:
        reason = ("no Chromium to test the report in: install Debian's chromium package "
                  "(apt-get install chromium); .ci/run installs it")
        if os.environ.get("MTGCONF_REQUIRE_BROWSER"):
            pytest.fail(reason)
        pytest.skip(reason)
    chromium = Chromium(executable)
    try:
        yield chromium
    finally:
        chromium.close()


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Shared:
    return shared(tmp_path_factory)


# ---- what a page must not do ----

def problems(happened: list[dict[str, Any]], site: Path) -> list[str]:
    """Console errors, uncaught exceptions, dialogs, and requests leaving the site."""
    found = []
    for event in happened:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            found.append(f"console {params['type']}: {params.get('args')}")
        elif method == "Runtime.exceptionThrown":
            found.append(f"exception: {params.get('exceptionDetails')}")
        elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
            found.append(f"log: {params['entry'].get('text')} {params['entry'].get('url', '')}")
        elif method == "Page.javascriptDialogOpening":
            found.append(f"dialog: {params.get('message')}")
        elif method == "Network.requestWillBeSent":
            url = params["request"]["url"]
            if not _inside(url, site) and not url.startswith("data:"):
                found.append(f"request outside the site: {url}")
        elif method == "Network.loadingFailed":
            found.append(f"failed to load: {params.get('errorText')}")
    return found


def _inside(url: str, site: Path) -> bool:
    parts = urlsplit(url)
    return parts.scheme == "file" and Path(unquote(parts.path)).resolve().is_relative_to(
        site.resolve())


LINKS = ("JSON.stringify([...document.querySelectorAll('a[href], link[href], img[src]')]"
         ".map(e => e.href || e.src))")
IDS = "JSON.stringify([...document.querySelectorAll('[id]')].map(e => e.id))"


def broken_links(links: list[str], site: Path, ids: dict[Path, set[str]]) -> list[str]:
    found = []
    for link in links:
        if link.startswith("data:"):
            continue
        if not _inside(link, site):
            found.append(f"leaves the site: {link}")
            continue
        parts = urlsplit(link)
        target = Path(unquote(parts.path))
        if not target.is_file():
            found.append(f"no such file: {link}")
        elif parts.fragment and target.suffix == ".html":
            if target not in ids:
                ids[target] = element_ids(target.read_text(encoding="utf-8"))
            if unquote(parts.fragment) not in ids[target]:
                found.append(f"no such anchor: {link}")
    return found


# ---- screenshots ----

def png_pixels(data: bytes) -> list[bytes]:
    """The pixels of an 8-bit RGB or RGBA PNG, as RGB triples (the row filters undone)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height, channels = 8, b"", 0, 0, 4
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and colour in (2, 6), (depth, colour)
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw, stride = zlib.decompress(idat), width * channels
    previous, pixels = bytearray(stride), []
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up = previous[x]
            corner = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif kind == 4:
                guess = left + up - corner
                near = min((abs(guess - left), 0, left), (abs(guess - up), 1, up),
                           (abs(guess - corner), 2, corner))[2]
                line[x] = (line[x] + near) & 0xFF
        pixels += [bytes(line[i:i + 3]) for i in range(0, stride, channels)]
        previous = line
    return pixels


def ink(data: bytes) -> tuple[float, int]:
    """The share of pixels that differ from the most common colour (the background), and how
    many colours there are."""
    colours: dict[bytes, int] = {}
    for pixel in png_pixels(data):
        colours[pixel] = colours.get(pixel, 0) + 1
    return 1 - max(colours.values()) / sum(colours.values()), len(colours)


def check_screenshot(chromium: Chromium, url: str, name: str, folder: Path) -> None:
    chromium.open(url)
    data = chromium.screenshot()
    (folder / name).write_bytes(data)
    if SCREENSHOTS:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        (Path(SCREENSHOTS) / name).write_bytes(data)
    share, colours = ink(chromium.screenshot(scale=0.25))  # the same view, quicker to read
    assert share > 0.02 and colours > 8, f"{name} looks blank ({share:.1%} ink, {colours} colours)"


# ---- the tests ----

def load_cleanly(chromium: Chromium, site: Path, pages: list[Path]) -> list[str]:
    """Load each page: what went wrong on the way, and the links that do not resolve."""
    failures: list[str] = []
    ids: dict[Path, set[str]] = {}
    for page in pages:
        happened = chromium.open(page.resolve().as_uri())
        name = page.relative_to(site)
        failures += [f"{name}: {p}" for p in problems(happened, site)]
        links = json.loads(chromium.evaluate(LINKS))
        failures += [f"{name}: {p}" for p in broken_links(links, site, ids)]
        if chromium.evaluate("document.styleSheets.length") != 1 or chromium.evaluate(
                "getComputedStyle(document.body).maxWidth") != "1248px":
            failures.append(f"{name}: report.css is not applied")
    return failures


def a_page_of_every_kind(site: Path) -> list[Path]:
    """The summary, the four trees (each edition's seed rules and its rules beyond the seeds),
    the anomalies and fuzz pages, every failure page, and rule pages showing each part a rule
    page can have (cases of two engines, a concordance, terms, fuzzing, anomalies, examples, a
    section, no case at all; beyond the seeds: key terms, connections to the seed rules and
    back, cross-references, unsure in 2004, a section)."""
    rules = site / "rules"
    chosen = [site / name for name in ("index.html", "tree-cr2004.html", "tree-modern.html",
                                       "beyond-cr2004.html", "beyond-modern.html",
                                       "anomalies.html", "fuzz.html")]
    chosen += sorted((site / "results").rglob("*.html"))
    chosen += [rules / "cr2004" / "212.6a.html", rules / "cr2004" / "212.6c.html",
               rules / "cr2004" / "212.html", rules / "cr2004" / "103.4.html",
               rules / "modern" / "400.1.html", rules / "modern" / "400.7.html",
               rules / "modern" / "505.6b.html", rules / "modern" / "405.6d.html",
               rules / "modern" / "508.1a.html", rules / "modern" / "508.html",
               rules / "cr2004" / "303.1.html", rules / "cr2004" / "310.2b.html"]
    return chosen


def test_a_page_of_every_kind_loads_cleanly_and_links_inside(browser, made, tmp_path):
    site = made.suite()
    pages = sorted(site.rglob("*.html")) if ALL_PAGES else a_page_of_every_kind(site)
    assert all(page.is_file() for page in pages)
    failures = load_cleanly(browser, site, pages)
    assert not failures, "\n".join(failures[:30])

    # the matrix: a column per engine
    browser.open((site / "tree-cr2004.html").as_uri())
    headers = json.loads(browser.evaluate(
        "JSON.stringify([...document.querySelector('table.tree thead tr').cells]"
        ".map(c => c.textContent))"))
    assert headers[:4] == ["rule", "gist", "mtg-conformance-reference 0.1.0", "toy 1.0"]
    # beyond the seeds: the same matrix, and the statuses of a rule outside the seeds
    browser.open((site / "beyond-modern.html").as_uri())
    row = json.loads(browser.evaluate(
        "JSON.stringify([...document.getElementById('r505.6b').cells].map(c => c.textContent))"))
    assert row[0] == "505.6b" and row[2:4] == ["✓ pass 1/1", "✗ fail 0/1"], row
    browser.open((site / "rules" / "modern" / "505.6b.html").as_uri())
    assert browser.evaluate("document.querySelector('h1 .beyond').textContent") == \
        "beyond the seeds"
    assert browser.evaluate("document.querySelectorAll('.key-terms q').length") == 3
    assert browser.evaluate("getComputedStyle(document.querySelector('.beyond-intro'))"
                            ".borderLeftStyle") == "solid"
    # printed: no navigation, the statuses keep their colours
    browser.call("Emulation.setEmulatedMedia", {"media": "print"}, session=browser.session)
    try:
        assert browser.evaluate("getComputedStyle(document.querySelector('header')).display") \
            == "none"
    finally:
        browser.call("Emulation.setEmulatedMedia", {"media": ""}, session=browser.session)


def test_the_summary_the_trees_and_rule_pages_are_not_blank(browser, made, tmp_path):
    site = Path(PHOTOGRAPHED) if PHOTOGRAPHED else made.suite()
    edition, _, rule = PHOTOGRAPHED_RULE.partition(":")
    check_screenshot(browser, (site / "index.html").resolve().as_uri(), "summary.png",
                     tmp_path)
    check_screenshot(browser, (site / "rules" / edition / f"{rule}.html").resolve().as_uri(),
                     "rule.png", tmp_path)
    edition, _, rule = PHOTOGRAPHED_BEYOND.partition(":")
    check_screenshot(browser, (site / "beyond-modern.html").resolve().as_uri(), "beyond.png",
                     tmp_path)
    check_screenshot(browser, (site / "rules" / edition / f"{rule}.html").resolve().as_uri(),
                     "beyond-rule.png", tmp_path)


def test_the_failure_page_shows_the_steps_and_links_the_trace(browser, made, tmp_path):
    site = made.suite()
    page = site / "results" / model.slug(TOY, 40) / "cr2004" / "land.not-in-opponents-turn.html"
    happened = browser.open(page.resolve().as_uri())
    assert problems(happened, site) == []
    steps = json.loads(browser.evaluate(
        "JSON.stringify([...document.querySelectorAll('ol.steps > li')].map(li => "
        "[li.className, li.value, li.querySelector('.step-state').textContent]))"))
    assert [c for c, _, _ in steps].count("step step-reached") == 1
    reached = next(i for i, (c, _, _) in enumerate(steps) if c == "step step-reached")
    assert steps[reached][2].startswith("✗ reached")
    assert all(c == "step step-passed" and t == "✓ held" for c, _, t in steps[:reached])
    assert all(c == "step step-not-reached" for c, _, _ in steps[reached + 1:])
    assert [v for _, v, _ in steps] == list(range(1, len(steps) + 1))
    # The reached step's exchange is open, the others folded, and so is the observation.
    assert browser.evaluate("document.querySelector('#reached details.exchange').open") is True
    assert browser.evaluate("[...document.querySelectorAll('li.step-passed details')]"
                            ".every(d => !d.open)") is True
    assert browser.evaluate("document.querySelector('details.observation').open") is False
    assert browser.evaluate("getComputedStyle(document.querySelector('.step-reached'))"
                            ".borderLeftStyle") == "solid"
    # The trace link resolves inside the site, to the trace the run wrote.
    hrefs = json.loads(browser.evaluate(
        "JSON.stringify([...document.querySelectorAll('a.trace-link')].map(a => a.href))"))
    assert len(hrefs) == 2 and len(set(hrefs)) == 1
    target = Path(unquote(urlsplit(hrefs[0]).path))
    assert target.parent == page.parent and target.is_file()
    assert json.loads(target.read_text().splitlines()[0])["case_id"] == \
        "land.not-in-opponents-turn"
    check_screenshot(browser, page.resolve().as_uri(), "failure.png", tmp_path)


def test_markup_from_an_engine_stays_text_in_the_browser(browser, made):
    site, marks = made.xss()
    if ALL_PAGES:
        pages = sorted(site.rglob("*.html"))
    else:  # every page that shows an engine's text
        cited = {ref for page in (site / "results").rglob("*.html")
                 for ref in _cited(page.read_text(encoding="utf-8"))}
        pages = [site / "index.html", site / "fuzz.html", site / "tree-cr2004.html",
                 site / "tree-modern.html", *sorted((site / "results").rglob("*.html")),
                 *sorted(site / "rules" / f"{ref.replace(':', '/')}.html" for ref in cited)]
    assert len(pages) > 10
    for page in pages:
        happened = browser.open(page.resolve().as_uri())
        assert problems(happened, site) == [], page
        assert browser.evaluate("document.querySelectorAll('script, iframe, object, embed, "
                                "svg, img, form').length") == 0, page
        assert not browser.evaluate("[...document.querySelectorAll('*')].some(e => "
                                    "[...e.attributes].some(a => a.name.startsWith('on')))")
        assert browser.evaluate("window.pwned === undefined")
    browser.open((site / "index.html").as_uri())
    text = browser.evaluate("document.body.innerText")
    for mark in marks[:2]:
        assert mark in text, mark
    browser.open((site / "fuzz.html").as_uri())
    assert marks[2] in browser.evaluate("document.body.innerText")


def _cited(text: str) -> set[str]:
    """The rules a failure page links to."""
    import re

    return {f"{edition}:{rule}" for edition, rule in
            re.findall(r'href="(?:\.\./)+rules/(\w+)/([\w.]+)\.html"', text)}
