"""Debian's Chromium (``/usr/bin/chromium``) driven by Playwright, for the
tests of the browser game. Where either is missing the tests skip and say why."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

QUIET = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"]
"""Flags for a machine with no outside network: Chromium asks for nothing it cannot have."""


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium (a Playwright ``Browser``)."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need the test extra (playwright)")
    if not Path(CHROMIUM).exists():
        pytest.skip("no Chromium here: Debian's chromium package gives /usr/bin/chromium (.ci/run installs it as root)")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=QUIET)
        try:
            yield launched
        finally:
            launched.close()
