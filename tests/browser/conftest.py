"""Chromium driven by Playwright against a live server (pytest-django's ``live_server``).

Debian's Chromium is used (``/usr/bin/chromium``); the tests are skipped, saying why,
only when no Chromium is installed. Screenshots of the main pages land in
``test-artifacts/screenshots/``, at 1280 px and in a narrow window.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.dashboard.world import PASSWORD, World, build_world
from tests.dashboard.world import projects_dir as projects_dir

# Playwright's sync API runs an event loop in this thread; the test's own ORM calls
# (setting up data, reading results) are still plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
WIDE = {"width": 1280, "height": 900}
NARROW = {"width": 390, "height": 844}


def chromium_path() -> str | None:
    for candidate in CHROMIUM_CANDIDATES:
        if Path(candidate).exists():
            return candidate
    return shutil.which("chromium")


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    executable = chromium_path()
    if executable is None:
        pytest.skip(
            "no Chromium found (install Debian's chromium package: apt-get install chromium)"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=executable,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield launched
        launched.close()


@pytest.fixture
def live_world(transactional_db, projects_dir: Path) -> World:
    return build_world()


class Session:
    """One signed-in browser window."""

    def __init__(self, browser: object, base_url: str, viewport: dict[str, int]) -> None:
        self.context = browser.new_context(base_url=base_url, viewport=viewport)  # type: ignore[attr-defined]
        self.page = self.context.new_page()
        self.page.set_default_timeout(15_000)
        # Anything the Content-Security-Policy blocked: a page that needs it is broken.
        self.csp_violations: list[str] = []
        self.page.on("console", self._note_csp_violation)

    def _note_csp_violation(self, message: object) -> None:
        text = str(message.text)  # type: ignore[attr-defined]
        if "Content Security Policy" in text:
            self.csp_violations.append(f"{self.page.url}: {text}")

    def login(self, username: str) -> Session:
        page = self.page
        page.goto("/login/")
        page.fill("input[name=username]", username)
        page.fill("input[name=password]", PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_url("**/")
        return self

    def screenshot(self, name: str) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path

    def horizontal_overflow(self) -> int:
        """How many pixels the page is wider than the window (0: nothing cut off)."""
        return int(
            self.page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        )


@pytest.fixture
def open_session(browser, live_server) -> Iterator[object]:
    sessions: list[Session] = []

    def open_(username: str, viewport: dict[str, int] = WIDE) -> Session:
        session = Session(browser, live_server.url, viewport).login(username)
        sessions.append(session)
        return session

    yield open_
    violations = [text for session in sessions for text in session.csp_violations]
    for session in sessions:
        session.context.close()
    assert not violations, "the Content-Security-Policy blocked:\n" + "\n".join(violations)
