#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests (test/browser) when it is missing.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
  chromium --version 2>/dev/null || true
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends chromium
chromium --version
