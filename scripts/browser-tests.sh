#!/usr/bin/env bash
# The browser UI in headless Chromium: installs what is missing (Chromium, chromedriver, selenium,
# axe-selenium-python, pytest), then runs browser-tests/ against a real `momentum serve` per test.
# Usage: scripts/browser-tests.sh PATH/TO/momentum [ARTIFACTS_DIR]   (default: browser-artifacts/)
# MOMENTUM_PUBLIC_DIR, when set, serves the UI files from that folder instead of the bundled ones.
set -euo pipefail
momentum=${1:?usage: browser-tests.sh PATH/TO/momentum [ARTIFACTS_DIR]}
artifacts=${2:-browser-artifacts}
# Absolute paths first: the tests run from the repository's top.
momentum=$(cd "$(dirname "$momentum")" && pwd)/$(basename "$momentum")
mkdir -p "$artifacts"
artifacts=$(cd "$artifacts" && pwd)
cd "$(dirname "$0")/.."

if ! { command -v chromium >/dev/null || command -v chromium-browser >/dev/null; } \
    || ! command -v chromedriver >/dev/null; then
    apt-get update -qq && apt-get install -y -qq chromium chromium-driver >/dev/null
fi
# http-ece and cryptography: the independent Web Push implementation of test_push_delivery.py.
if ! python3 -c 'import axe_selenium_python, pytest, selenium, http_ece, cryptography' 2>/dev/null; then
    python3 -m pip install --quiet axe-selenium-python pytest selenium http-ece cryptography 2>/dev/null \
        || python3 -m pip install --quiet --break-system-packages axe-selenium-python pytest selenium http-ece \
            cryptography
fi

status=0
MOMENTUM_BIN="$momentum" MOMENTUM_ARTIFACTS="$artifacts" \
    python3 -m pytest -q -p no:cacheprovider browser-tests || status=$?
echo "browser tests: screenshots in $artifacts"
exit "$status"
