#!/usr/bin/env bash
# Turn a fresh Raspberry Pi OS Lite (Bookworm or later, 64-bit) into the sushi table, from a checkout of this
# repository. Idempotent: a second run changes nothing and says so. See docs/owner/README.md (step by step) and
# docs/appliance.md.
#
#   sudo scripts/install.sh                         # asks for the operator PIN
#   sudo scripts/install.sh --pin 1357 --rotate 180
#   sudo scripts/install.sh --read-only --data-device /dev/sda1
#   scripts/install.sh --dry-run                    # print each step it would take, change nothing
#
# The steps themselves are in kiosk/appliance/install.py (the system's Python 3, standard library only).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
if ! command -v python3 >/dev/null; then
    echo "python3 is missing (Raspberry Pi OS has it): apt-get install python3" >&2
    exit 1
fi
exec env PYTHONPATH="$here" PYTHONDONTWRITEBYTECODE=1 python3 -m kiosk.appliance.install --source "$here" "$@"
