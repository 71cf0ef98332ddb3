#!/usr/bin/env bash
# Install the kiosk with its test extra into ./.venv (a real `pip install .`, not editable) and run every test.
# UI tests run in a real window on Xvfb, installed here when missing. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/venv.sh
# systemd-analyze checks the units; mmdebstrap builds the Debian root that the installer check runs in
apt_install xvfb xauth libgl1 libgl1-mesa-dri libegl1 libmtdev1 fonts-noto-color-emoji fonts-inter fonts-dejavu-core \
    systemd mmdebstrap
ensure_venv
rm -rf build  # setuptools keeps deleted package files in build/lib and would install them again
"$VENV/bin/pip" install --quiet --disable-pip-version-check ".[test]"
# The gate: lint and format (ruff) and types (mypy), configured in pyproject.toml.
"$VENV/bin/ruff" check --quiet .
"$VENV/bin/ruff" format --check --quiet .
"$VENV/bin/mypy"
# Run the tests against the installed package, not the source tree, so a missing data file fails here.
export KIVY_NO_ARGS=1 KIVY_NO_FILELOG=1 KIVY_NO_CONSOLELOG=1
export KIVY_HOME="$PWD/.venv/kivy-home"
cd tests
exec xvfb-run -a -s "-screen 0 1920x1080x24" "$VENV/bin/python" -m pytest -p no:cacheprovider --rootdir=.. -c ../pyproject.toml "$@" .
