#!/usr/bin/env bash
# `hugginggpt serve` (agent/server): FastAPI, uvicorn and LangServe come with the `serve` extra,
# Playwright with `test`. The browser test uses Debian's Chromium: never `playwright install`.
set -euo pipefail
test -x /usr/bin/chromium || { echo "70-serve: /usr/bin/chromium missing (see 70-serve.apt)" >&2; exit 1; }
python3 - <<'PY'
from playwright.sync_api import sync_playwright

with sync_playwright() as playwright:  # fails here, not in the test, if the pair cannot start
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                         args=["--headless", "--no-sandbox", "--disable-gpu"])
    browser.close()
print("70-serve: Playwright drives /usr/bin/chromium")
PY
