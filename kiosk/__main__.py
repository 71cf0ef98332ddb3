"""Start the kiosk: ``kiosk`` or ``python -m kiosk``.

    kiosk                      # a window on a desktop: mock seat buttons, keyboard fallback, attract mode
    kiosk --fullscreen         # the Pi service: fullscreen (KMS/DRM without a desktop), real GPIO and serial
    kiosk --check-config       # validate the config file and exit (2 with one line per problem)
    kiosk --set-pin            # set the operator PIN (asked twice on the terminal; stored hashed); as root
                               # (sudo) on an installed table: the table's own state folder, as its owner
    kiosk --version            # print the version and exit
    kiosk --build-update DIR   # from a checkout: build an update bundle into DIR (see kiosk.appliance.update)
    kiosk --install-update F   # as root: install bundle F beside the running version, roll back if not READY

A config file that does not load never stops the kiosk itself: it starts with the last good copy or the defaults
and shows the problems in the operator menu (``kiosk.config.load_safely``); only ``--check-config`` exits non-zero,
for scripts. Neither does an unusable state folder (a read-only card): the kiosk starts without storage.

Ctrl+C in the terminal or SIGTERM (systemd) stops it cleanly. Kivy is configured here, before anything of Kivy
but ``kivy.config`` is imported (see ../shared/notes/platform.md): no command-line parsing by Kivy, no log
files or ``~/.kivy`` (``KIVY_HOME`` in the state folder), Escape never quits, no screensaver.
"""

from __future__ import annotations

import argparse
import getpass
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path

__all__ = ["main", "configure_kivy", "parse_args", "build_parser"]


def configure_kivy(
    *, state_dir: Path, fullscreen: bool, width: int, height: int, maxfps: int = 60, log_level: str = "info"
) -> None:
    """Set Kivy's environment and config. Must run before ``kivy.app``/``kivy.core`` are imported."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")  # one log stream: ours (no doubled lines)
    kivy_home = Path(os.environ.setdefault("KIVY_HOME", str(state_dir / "kivy")))
    try:
        kivy_home.mkdir(parents=True, exist_ok=True)
    except OSError:  # a read-only card: Kivy's home in a temporary folder rather than no start
        import tempfile

        os.environ["KIVY_HOME"] = tempfile.mkdtemp(prefix="kiosk-kivy-")
    if fullscreen:
        os.environ.setdefault("SDL_VIDEO_MINIMIZE_ON_FOCUS_LOSS", "0")
    from kivy.config import Config

    Config.set("kivy", "exit_on_escape", "0")
    Config.set("kivy", "log_level", log_level)
    Config.set("kivy", "log_enable", "0")
    Config.set("kivy", "keyboard_mode", "system")
    Config.set("graphics", "allow_screensaver", "0")
    Config.set("graphics", "maxfps", str(maxfps))
    Config.set("graphics", "multisamples", "0")
    if fullscreen:
        Config.set("graphics", "fullscreen", "auto")
        Config.set("graphics", "show_cursor", "0")
        Config.set("graphics", "borderless", "1")
        # touch panels come from Kivy's own providers; the mouse steps aside while touches happen
        Config.set("input", "mouse", "mouse,disable_on_activity,disable_multitouch")
    else:
        Config.set("graphics", "fullscreen", "0")
        Config.set("graphics", "show_cursor", "1")
        Config.set("graphics", "width", str(width))
        Config.set("graphics", "height", str(height))
        # a right click must not leave Kivy's red multitouch-simulation dots on the table
        Config.set("input", "mouse", "mouse,disable_multitouch")
    # never load the inspector, the screen/keybinding modules or the touch ring
    if Config.has_section("modules"):
        for name in list(Config.options("modules")):
            Config.remove_option("modules", name)


def build_parser() -> argparse.ArgumentParser:
    """The kiosk's command line (the docs test checks every documented ``kiosk ...`` call against it)."""
    from kiosk.config import default_config_path, default_state_dir

    p = argparse.ArgumentParser(prog="kiosk", description="The sushi game table kiosk.")
    p.add_argument("--fullscreen", action="store_true", help="fullscreen with real hardware (the Pi service)")
    p.add_argument(
        "--config", type=Path, default=None, help=f"config file (default $KIOSK_CONFIG or {default_config_path()})"
    )
    p.add_argument(
        "--state-dir",
        type=Path,
        default=None,
        help=f"scores, saved games, sounds (default $STATE_DIRECTORY or {default_state_dir()})",
    )
    p.add_argument(
        "--hardware",
        choices=("auto", "real", "mock", "none"),
        default="auto",
        help="seat buttons and tap sticks: real GPIO/serial, gpiozero's mock pins, or none; "
        "auto = real with --fullscreen, mock otherwise (the keyboard fallback is always on)",
    )
    p.add_argument(
        "--no-kiosk",
        action="store_true",
        help="developer mode: Escape and window close work, callback errors are raised",
    )
    p.add_argument("--check-config", action="store_true", help="validate the config file and exit")
    p.add_argument("--set-pin", action="store_true", help="set the operator PIN and exit")
    p.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error"))
    p.add_argument("--version", action="store_true", help="print the version and exit")
    p.add_argument("--build-update", type=Path, metavar="DIR", help="build an update bundle from the checkout here")
    p.add_argument("--install-update", type=Path, metavar="FILE", help="install an update bundle (as root)")
    return p


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    return build_parser().parse_args(argv)


def _pin_paths(args: argparse.Namespace) -> tuple[Path, Path] | str:
    """Where ``--set-pin`` writes: the given folder or file; else, run by root, the installed table's state folder
    (:func:`kiosk.config.table_state_dir`); else the user's own. A message instead when that would be wrong."""
    from kiosk import config as kconfig

    explicit = args.state_dir or args.config or os.environ.get("KIOSK_CONFIG") or os.environ.get("STATE_DIRECTORY")
    table = kconfig.table_state_dir()
    if not explicit:
        if os.geteuid() == 0:
            if not table.is_dir():
                return (
                    f"There is no table here: {table} does not exist. Install the table first "
                    "(sudo scripts/install.sh), or name the folder with --state-dir. Nothing changed."
                )
            return table / "kiosk.json", table
        if table.is_dir() and not os.access(table, os.W_OK):
            return (
                f"This is the table's PIN, kept in {table}: run it as root, "
                "sudo /opt/sushi-kiosk/current/bin/kiosk --set-pin. Nothing changed."
            )
    state_dir = args.state_dir or kconfig.default_state_dir()
    config_path = args.config or (
        Path(os.environ["KIOSK_CONFIG"]) if os.environ.get("KIOSK_CONFIG") else state_dir / "kiosk.json"
    )
    return config_path, state_dir


def _become_owner(folder: Path) -> str | None:
    """Run by root: go on as the owner of ``folder`` (the kiosk user), so every file written is that user's,
    as the kiosk writes them. A message if the folder cannot be used."""
    import pwd

    try:
        st = folder.stat()
    except OSError as exc:
        return f"cannot use {folder}: {exc.strerror or exc}. Nothing changed."
    if st.st_uid == 0:
        return None  # a folder root owns (a test, a development machine): root writes it
    try:
        os.initgroups(pwd.getpwuid(st.st_uid).pw_name, st.st_gid)
    except KeyError:
        os.setgroups([])
    os.setgid(st.st_gid)
    os.setuid(st.st_uid)
    return None


def _set_pin(config_path: Path, state_dir: Path) -> int:
    """Ask for the new PIN twice on the terminal and store its hash; the wrong-PIN count starts again. Run by
    root, the files are written as the state folder's owner."""
    from kiosk import config as kconfig
    from kiosk.pin import FILE_NAME, PinGuard, new_pin_hash

    loaded = kconfig.load_safely(config_path, create=False)
    if loaded.problems:
        print(f"Note: {config_path} has problems; the PIN is saved with the {loaded.source}:", file=sys.stderr)
        for line in loaded.problems:
            print(f"  {line}", file=sys.stderr)
    try:
        pin_hash = new_pin_hash(getpass.getpass("New operator PIN (4-8 digits): "), getpass.getpass("Again: "))
    except ValueError as exc:
        print(f"{exc} Nothing changed.", file=sys.stderr)
        return 1
    except (EOFError, KeyboardInterrupt):
        print("\nNothing changed.", file=sys.stderr)
        return 1
    cfg = loaded.config.replace(operator={"pin_hash": pin_hash})
    if os.geteuid() == 0:
        problem = _become_owner(state_dir)
        if problem:
            print(problem, file=sys.stderr)
            return 1
    try:
        kconfig.save(cfg, config_path)
    except OSError as exc:
        print(f"Could not save {config_path}: {exc.strerror or exc}. Nothing changed.", file=sys.stderr)
        return 1
    try:
        PinGuard(state_dir / FILE_NAME).reset()
    except OSError as exc:
        print(f"Note: the wrong-PIN count in {state_dir} could not be reset: {exc.strerror or exc}", file=sys.stderr)
    print(f"Operator PIN set in {config_path}.")
    return 0


def _check_config(config_path: Path) -> int:
    from kiosk import config as kconfig

    if not config_path.exists():
        print(f"{config_path}: missing (the kiosk creates it with the defaults at its first start)")
        return 0
    try:
        cfg = kconfig.load(config_path, create=False)
    except kconfig.ConfigError as exc:
        print(f"kiosk: {exc}", file=sys.stderr)
        fallback = kconfig.load_safely(config_path, create=False)
        print(f"The kiosk would start with the {fallback.source}.", file=sys.stderr)
        return 2
    print(f"{config_path}: OK ({len(cfg.seats.positions)} seats)")
    if not cfg.operator.pin_set:
        print("No operator PIN is set: run `kiosk --set-pin` (until then the operator menu stays closed).")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.version:
        import importlib.metadata

        from kiosk import __version__

        try:  # the installed distribution's version (what an update bundle installed)
            version = importlib.metadata.version("sushi-table-kiosk")
        except importlib.metadata.PackageNotFoundError:
            version = __version__
        print(f"kiosk {version}")
        return 0
    if args.build_update or args.install_update:
        from kiosk.appliance import update

        if args.build_update:
            return update.main(["build", "--source", ".", "--out", str(args.build_update)])
        return update.main(["install", str(args.install_update)])
    from kiosk import config as kconfig

    state_dir = args.state_dir or kconfig.default_state_dir()
    config_path = args.config or (
        Path(os.environ["KIOSK_CONFIG"]) if os.environ.get("KIOSK_CONFIG") else state_dir / "kiosk.json"
    )
    logging.basicConfig(
        level=getattr(logging, args.log_level.upper()), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    if args.set_pin:
        where = _pin_paths(args)
        if isinstance(where, str):
            print(where, file=sys.stderr)
            return 1
        return _set_pin(*where)
    if args.check_config:
        return _check_config(config_path)
    try:
        state_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # a read-only card: the kiosk still starts (storage shows as unavailable)
        logging.getLogger("kiosk").error("cannot use the state folder %s: %s", state_dir, exc)
    loaded = kconfig.load_safely(config_path)
    cfg = loaded.config

    hardware = args.hardware if args.hardware != "auto" else ("real" if args.fullscreen else "mock")
    configure_kivy(
        state_dir=state_dir,
        fullscreen=args.fullscreen,
        width=cfg.window.width,
        height=cfg.window.height,
        log_level=args.log_level,
    )
    from kiosk.app import KioskApp  # imports Kivy: only after configure_kivy

    app = KioskApp(cfg, state_dir=state_dir, config_path=config_path, hardware=hardware, kiosk_mode=not args.no_kiosk)
    app.use_config(app.cfg, loaded)
    try:
        app.run()
    except KeyboardInterrupt:  # Ctrl+C before our handler was installed
        app.service.stop_reason = app.service.stop_reason or "SIGINT"
    logging.getLogger("kiosk").info("kiosk stopped (%s)", app.service.stop_reason or "window closed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
