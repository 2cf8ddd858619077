#!/usr/bin/env bash
# Installs Debian's Chromium for the headless browser test of report.html (test/integration/browser/), idempotent:
# a machine that already has /usr/bin/chromium does nothing. playwright-core drives it through executablePath,
# because Playwright's own browser download needs a host this workplace cannot reach.
set -euo pipefail
CHROMIUM=/usr/bin/chromium
if [ -x "$CHROMIUM" ]; then
  echo "[browser] $("$CHROMIUM" --version 2>/dev/null || echo chromium) already installed" >&2
  exit 0
fi
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
echo "[browser] installing chromium and fonts with apt-get" >&2
$SUDO apt-get update -qq
# fonts-dejavu-core: readable labels in screenshots when the image has no fonts at all.
$SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
[ -x "$CHROMIUM" ] || { echo "ERROR: apt-get installed chromium but $CHROMIUM is missing" >&2; exit 3; }
echo "[browser] $("$CHROMIUM" --version 2>/dev/null) installed" >&2
