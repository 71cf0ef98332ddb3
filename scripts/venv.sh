# Shared by run.sh and test.sh: make sure Python 3.11+ with venv, and a virtual environment in ./.venv.
VENV="${VENV:-$PWD/.venv}"
need_apt=()
ensure_venv() {
    if ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        echo "Python 3.11 or newer is needed (found: $(python3 --version 2>&1))." >&2
        exit 1
    fi
    if [ ! -x "$VENV/bin/python" ]; then
        if ! python3 -m venv "$VENV" 2>/dev/null; then
            rm -rf "$VENV"
            apt_install python3-venv
            python3 -m venv "$VENV"
        fi
        "$VENV/bin/pip" install --quiet --disable-pip-version-check --upgrade pip setuptools wheel
    fi
}
apt_install() {
    # Install Debian packages when missing (needs root or sudo).
    local missing=()
    for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "Installing system packages: ${missing[*]}" >&2
    $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}
