#!/usr/bin/env bash
# Install the kiosk into ./.venv (first run only) and start it: windowed on a desktop, mock hardware,
# keyboard fallback, attract mode. Extra arguments go to the kiosk (for example --fullscreen).
set -euo pipefail
cd "$(dirname "$0")"
source scripts/venv.sh
apt_install libgl1 libmtdev1 fonts-noto-color-emoji fonts-inter fonts-dejavu-core fonts-noto-cjk
ensure_venv
rm -rf build  # setuptools keeps deleted package files in build/lib and would install them again
"$VENV/bin/pip" install --quiet --disable-pip-version-check .
# Render the pieces' pictures now rather than at the first start (kept until the picture table or font changes).
"$VENV/bin/python" -m kiosk.ui.pictures >/dev/null || true
exec "$VENV/bin/kiosk" "$@"
