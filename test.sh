#!/usr/bin/env bash
# The one test command (what CI runs). Installs the kiosk with its test extra into ./.venv (a real `pip install .`,
# not editable; skipped when nothing it installs changed since the last install) and runs the tests against the
# installed copy. UI tests run in real windows, one Xvfb display per pytest-xdist worker.
#
#   ./test.sh                        lint and types, then the unit tier (stops there on a failure), then the rest
#   ./test.sh tests/test_x.py        one file (also test_x.py, test_x.py::name); any other pytest arguments:
#   ./test.sh -k makoto              ./test.sh --lf             ./test.sh -m ui              ./test.sh -n 0
#   ./test.sh --coverage [args]      the same, measured by coverage.py (subprocesses too), with a report at the end
#   ./test.sh -m system              the booted tier: the installed table in QEMU (not part of the everyday run)
#   ./test.sh -m arm64               the same table on the Pi's processor, 64-bit ARM emulated (not everyday either)
set -euo pipefail
cd "$(dirname "$0")"
source scripts/venv.sh
# systemd-analyze checks the units; mmdebstrap builds the Debian root that the installer check runs in; the backup
# test writes a real FAT stick (mkfs.vfat; fusefat mounts it where the kernel has no vfat); the events tests run a real
# Mosquitto and the event board's wall page in Debian's headless Chromium (through its chromedriver); the booted tier
# boots the table's image in QEMU (qemu-utils for its overlays, mtools to fill an owner's FAT stick without a mount, socat to forward a broker on loopback into it);
# the arm64 tier makes its root under user-mode emulation (qemu-user-static) and boots it in qemu-system-arm's aarch64
apt_install xvfb xauth libgl1 libgl1-mesa-dri libegl1 libmtdev1 fonts-noto-color-emoji fonts-inter fonts-dejavu-core fonts-noto-cjk \
    systemd mmdebstrap dosfstools fusefat fuse mosquitto chromium chromium-driver qemu-system-x86 qemu-utils mtools socat \
    qemu-system-arm qemu-user-static
ensure_venv

# --- install, unless what it installs is unchanged (a clean clone always installs: it has no stamp)
stamp="$VENV/.installed-tree"
tree=$( (cat pyproject.toml; find kiosk hardware layouts README.md -type f ! -name '*.pyc' ! -path '*/__pycache__/*' \
    -print0 | sort -z | xargs -0 sha256sum) | sha256sum | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$tree" ]; then
    rm -f "$stamp"
    rm -rf build  # setuptools keeps deleted package files in build/lib and would install them again
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check ".[test]"
    echo "$tree" >"$stamp"
else
    echo "test.sh: the installed kiosk is up to date (nothing under kiosk/, hardware/, layouts/ or pyproject changed)"
fi

# --- arguments: --coverage is ours; a bare test file name means the one under tests/
coverage=0
args=()
for a in "$@"; do
    if [ "$a" = "--coverage" ]; then
        coverage=1
    elif [[ "$a" == test_*.py* && ! -e "${a%%::*}" && -e "tests/${a%%::*}" ]]; then
        args+=("tests/$a")
    else
        args+=("$a")
    fi
done

# the tooling (devtools/: touch driver, fit checker, screenshot tour) is not installed: a folder holding only it goes
# on the path (never the checkout's top folder, whose kiosk/ would shadow the installed one)
mkdir -p "$VENV/devtools-path"
ln -sfn "$PWD/devtools" "$VENV/devtools-path/devtools"
export PYTHONPATH="$VENV/devtools-path"
export KIVY_NO_ARGS=1 KIVY_NO_FILELOG=1 KIVY_NO_CONSOLELOG=1 SDL_AUDIODRIVER=dummy
export LP_NUM_THREADS=1  # software GL: one thread per worker (the workers already use every core)
export HYPOTHESIS_PROFILE="${HYPOTHESIS_PROFILE:-dev}"
# -P: the tests import the installed kiosk, not ./kiosk (the source tree is not on the path)
# a UI file's scenarios share one child kiosk: its tests stay on one worker (loadfile); unit tests spread (load)
pytest=("$VENV/bin/python" -P -m pytest -n "${TEST_WORKERS:-auto}")
if [ "$coverage" = 1 ]; then
    rm -rf .coverage .coverage.*
    pytest=("$VENV/bin/python" -P -m coverage run -m pytest -n "${TEST_WORKERS:-auto}")
fi
report() {
    if [ "$coverage" = 1 ]; then
        "$VENV/bin/python" -m coverage combine --quiet
        "$VENV/bin/python" -m coverage report
    fi
}

if [ ${#args[@]} -gt 0 ]; then
    status=0
    "${pytest[@]}" --dist loadfile "${args[@]}" || status=$?
    report
    exit $status
fi

# --- the full run: the gate (lint, format, types; configured in pyproject.toml), the unit tier, then the rest
"$VENV/bin/ruff" check --quiet .
"$VENV/bin/ruff" format --check --quiet .
"$VENV/bin/python" -m mypy
status=0
"${pytest[@]}" --dist load -m unit || status=$?
if [ $status -eq 0 ]; then
    "${pytest[@]}" --dist loadfile -m "not unit and not system and not arm64" --durations=15 || status=$?
else
    echo "test.sh: the unit tier failed; the UI, slow and appliance tiers were not run" >&2
fi
report
exit $status
