#!/usr/bin/env bash
# The chat page test (tests/server/test_browser.py) drives Debian's Chromium with Playwright (the `test` extra):
# never `playwright install` (its own browser download does not work offline).
set -euo pipefail
test -x /usr/bin/chromium || { echo "70-browser: /usr/bin/chromium missing (see 70-browser.apt)" >&2; exit 1; }
python3 - <<'PY'
from playwright.sync_api import sync_playwright

with sync_playwright() as playwright:  # fails here, not in the test, if the pair cannot start
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                         args=["--headless", "--no-sandbox", "--disable-gpu"])
    browser.close()
print("70-browser: Playwright drives /usr/bin/chromium")
PY
