"""Screenshots of every screen: ``python -m devtools.shots`` (the one command that regenerates ``artifacts/screens``).

It starts the real kiosk (``KioskApp``, mock hardware, a throw-away state folder with a few saved high scores) in
a real window at each size (default 1920x1080 and 1280x800), visits every screen and saves a PNG of each:

* attract mode: the call, the high-score boards, each game as bots play it, the resume offer;
* the picker, a game's how-to and the joining screen, chosen from a long edge (south-west) and a short edge (west);
* every game with a human at a long edge and, separately, at a short edge (bots in the other seats), the
  human's private tray held open;
* every step of every game's how-to as the seat menu shows it at a seat (``seat_howto_<game>_<step>_<edge>``);
* attract mode's replay of the day's best game of each title (a guest's game finished for the tour);
* the results screen with the initials entry, with the initials saved ("Watch again"), and Watch again playing;
* the operator screen from both edges.

Files are ``artifacts/screens/<shot>_<W>x<H>.png`` (``--language ja``: in ``artifacts/screens/ja/``). Each screen
is also walked by the fit checker (:func:`devtools.fit.check_tree`); its findings go to
``artifacts/screens/fit_<W>x<H>.txt`` and the command prints how many each shot has. Without a display the
command re-runs itself under ``xvfb-run`` (Debian ``xvfb``, which ``test.sh`` installs). Each size runs in its
own process (Kivy allows one window per process).

The tour runs on the kiosk's virtual clock (:func:`kiosk.clock.freeze`, as the UI tests do): each frame first
waits for the kiosk's background work (a bot's search, a demo, the stores opening) and then advances the clock
by :data:`STEP`; every game is dealt from :data:`SEED` and search bots have a fixed budget
(:data:`BOT_ITERATIONS`). So every shot and every finding depend on frames alone, never on the machine's speed
or load; only the frame before a PNG is drawn (the fit checker lays text out itself).

    python -m devtools.shots                      # both sizes, every shot
    python -m devtools.shots --sizes 1280x800 --only makoto   # shots whose name contains "makoto"

Exit status 1 if a shot failed to be taken (the others are still taken).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from devtools import harness

__all__ = ["main", "SHOT_SIZES", "Tour", "run_tour", "fit_tour"]

SHOT_SIZES = ("1920x1080", "1280x800")
LONG, SHORT = "south-west", "west"
#: Virtual seconds one frame advances the kiosk's clock (``kiosk.clock.freeze``; the UI tests' ``STEP``): what a
#: shot shows depends on frames, never on how fast the machine draws them.
STEP = harness.STEP
#: Frames before a shot is taken (a screen switch or a layout completes on the next frame).
SETTLE_FRAMES = 4
#: Every game the tour starts is dealt from this seed, and it is the app's (attract mode's generator is seeded
#: again for each of its shots: a shot shows the same game whichever shots ran before it, see ``--only``).
SEED = 1
#: The search bots' fixed budget (a decision depends on the seed alone; the UI tests' ``BOT_ITERATIONS``).
BOT_ITERATIONS = 40


#: Words on screen that are not messages (the pseudo-translation's check, ``--pseudo``): the players' initials the
#: tour saves, the languages' own names, the operator's event settings the tour types, the call TAKOYAKI!
ALLOWED = frozenset(
    ["AAA", "AKI", "BEN", "CHO", "DAN", "EVE", "KEN", "MIA", "JO", "ANA", "TAKOYAKI"]
    + ["English", "\u65e5\u672c\u8a9e", "Deutsch", "Fran\u00e7ais", "Espa\u00f1ol"]
    + ["leaderboard", "cafe", "sakura", "local", "winter", "tournament", "Winter", "Tournament", "table", "window"]
    + ["s3cret"]
)


#: The mixed-language shots' table: a long and a short edge each side, four languages.
MIXED = {"south-west": "ja", "north-east": "de", "west": "fr", "east": "es"}


def _default_out() -> Path:
    return Path.cwd() / "artifacts" / "screens"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m devtools.shots", description=__doc__.split("\n")[0])
    p.add_argument("--out", type=Path, default=None, help="folder for the PNGs (default ./artifacts/screens)")
    p.add_argument("--sizes", default=",".join(SHOT_SIZES), help="window sizes, comma-separated WxH")
    p.add_argument("--only", default="", help="take only the shots whose name contains this text")
    p.add_argument("--fit", action="store_true", help="only the fit checker's screens, no PNGs (see fit_tour)")
    p.add_argument("--findings", type=Path, default=None, help="write the fit findings as JSON to this file")
    p.add_argument("--language", default="en", help="the table's language, which every seat reads (en, ja, de, fr, es)")
    p.add_argument(
        "--pseudo", action="store_true", help="pseudo-translation: report only words not from a catalog (with --fit)"
    )
    p.add_argument("--child", default="", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    out = (args.out or _default_out()).resolve()
    if args.pseudo:
        from kiosk.i18n import PSEUDO_ENV

        os.environ[PSEUDO_ENV] = "1"  # before the first translator is made (the children inherit it)
    if args.child:
        return _child(out, args.child, args.only, fit=args.fit, findings=args.findings, language=args.language)
    if not os.environ.get("DISPLAY"):
        xvfb = shutil.which("xvfb-run")
        if xvfb is None:
            print("no display and no xvfb-run: install xvfb (test.sh does)", file=sys.stderr)
            return 2
        cmd = [
            xvfb,
            "-a",
            "-s",
            "-screen 0 1920x1080x24",
            sys.executable,
            "-m",
            "devtools.shots",
            *(argv or sys.argv[1:]),
        ]
        return subprocess.call(cmd)
    out.mkdir(parents=True, exist_ok=True)
    status = 0
    for size in [s.strip() for s in args.sizes.split(",") if s.strip()]:
        cmd = [sys.executable, "-m", "devtools.shots", "--out", str(out), "--child", size]
        if args.only:
            cmd += ["--only", args.only]
        if args.fit:
            cmd += ["--fit"]
        cmd += ["--language", args.language]
        if args.findings is not None:
            cmd += ["--findings", str(args.findings.with_name(f"{args.findings.stem}_{size}{args.findings.suffix}"))]
        rc = subprocess.call(cmd)
        status = status or (1 if rc else 0)
    return status


# ------------------------------------------------------------------------------------------------ the child
class Tour:
    """Drives one running kiosk from screen to screen (one window size)."""

    def __init__(self, app: Any, out: Path, size: str, pngs: bool = True, pseudo: bool = False) -> None:
        self.app = app
        #: under the pseudo-translation: the fit checker looks for unmarked words only (:data:`ALLOWED` aside)
        self.pseudo = pseudo
        self.out = out
        self.size = size
        self.pngs = pngs
        self.fit_lines: list[str] = []
        #: shot name -> its fit findings (``Problem.as_dict``)
        self.findings: dict[str, list[dict[str, str]]] = {}
        self.failed: list[str] = []

    # -------------------------------------------------------------------------------------- loop helpers
    @staticmethod
    def frame(draw: bool = False) -> None:
        """One turn of the loop (:func:`devtools.harness.turn`): undrawn unless a PNG is taken (the fit checker lays
        text out itself)."""
        harness.turn(draw)

    @staticmethod
    def frames(n: int = 2) -> None:
        """``n`` frames, none drawn."""
        harness.tick(n)

    def run_for(self, seconds: float) -> None:
        """Frames for ``seconds`` of virtual time, none drawn."""
        harness.tick(math.ceil(seconds / STEP))

    def run_until(self, pred: Callable[[], bool], timeout: float, what: str) -> None:
        """Frames until ``pred()`` (then 3 more), at most ``timeout`` virtual seconds: else the shot fails."""
        harness.run_until(pred, timeout, what, settle=2, draw=False)

    def seat(self, position: str) -> Any:
        return self.app.table.by_position(position)

    # -------------------------------------------------------------------------------------- one shot
    def shot(self, name: str) -> None:
        from kivy.core.window import Window

        from devtools.fit import check_tree

        self.frames(SETTLE_FRAMES)
        if self.pngs:
            self.frame(draw=True)
            target = self.out / f"{name}_{self.size}.png"
            made = Window.screenshot(name=str(target))
            if made:
                shutil.move(made, target)
        allowed = (ALLOWED | {spec.title.rstrip("!") for spec in self.app.games.values()}) if self.pseudo else None
        problems = check_tree(Window, (float(Window.width), float(Window.height)), pseudo=allowed)
        self.findings[name] = [p.as_dict() for p in problems]
        self.fit_lines.append(f"## {name} ({len(problems)})")
        self.fit_lines += [f"- {p}" for p in problems]
        print(f"{self.size} {name}: {len(problems)} fit findings", flush=True)

    def take(self, name: str, only: str, setup: Callable[[], None]) -> None:
        if only and only not in name:
            return
        try:
            setup()
            self.shot(name)
        except Exception:
            self.failed.append(name)
            print(f"{self.size} {name}: FAILED\n{traceback.format_exc()}", file=sys.stderr, flush=True)

    # -------------------------------------------------------------------------------------- the screens
    def attract_call(self) -> None:
        self.app.go_attract()
        self.run_until(lambda: self.app.sm.current == "attract", 3, "the attract screen")

    def attract_step(self, kind: str, key: str | None, seconds: float) -> None:
        app = self.app
        app.go_attract()
        app.director.rng.seed(f"shots:attract:{kind}:{key}")  # the bots' game whichever shots came before
        app.director.jump_to(kind, key)
        self.run_for(seconds)

    def attract_event_boards(self) -> None:
        """The boards of a table paired with an event: the event's best beside the table's own (a long name)."""
        self.attract_step("boards", next(iter(self.app.games)), 0.5)
        from types import SimpleNamespace

        from kiosk.shell.attractscreen import board_rows

        rows = board_rows([SimpleNamespace(name=n, score=s) for n, s in [("KEN", 212), ("MIA", 198), ("JO", 187)]])
        self.app.attract_screen.show_boards(
            self.app.attract_screen.board_title,
            ["1.  ANA   88"],
            ["1.  ANA   88"],
            event=("Winter Tournament 2026", rows),
        )
        self.frames(2)

    def attract_offer(self) -> None:
        self.attract_call()
        import datetime
        from types import SimpleNamespace

        from kiosk.i18n import translator
        from kiosk.shell.attractscreen import offer_question

        offer = SimpleNamespace(title="Makoto", last_activity=datetime.datetime(2026, 12, 4, 14, 5), meta={})
        self.app.attract_screen.show_offer(offer_question(offer, translator(self.app.cfg.language.default)))

    def picker(self, position: str) -> None:
        self.app.go_attract()
        self.frames(2)
        self.app.leave_attract(self.seat(position).index)

    def howto(self, position: str, key: str) -> None:
        self.picker(position)
        self.frames(2)
        self.app.picker.show_howto(key)

    def join(self, position: str, key: str) -> None:
        self.picker(position)
        self.frames(2)
        self.app.open_join(key, self.seat(position).index)

    def game(self, key: str, position: str) -> None:
        app = self.app
        app.go_attract()
        self.frames(2)
        spec = app.games[key]
        n = max(spec.min_players, min(spec.max_players, 4))
        human = self.seat(position)
        others = [s for s in app.table.seats if s.index != human.index]
        # bots spread around the table: every other seat first
        others = sorted(others, key=lambda s: (s.edge == human.edge, s.index))
        seats = [(human.index, None)] + [(s.index, "random") for s in others[: n - 1]]
        app.start_game(key, seats, seed=SEED)
        self.run_for(1.5 if not self.pngs else 2.5)  # a few moves in (the fit test needs no lively picture)
        screen = app.sm.current_screen
        panel = getattr(screen, "panels", {}).get(human.index)
        tray = getattr(getattr(panel, "ids", None), "tray", None) if panel is not None else None
        if tray is not None:
            tray.held_by_button = True

    def results(self, position: str) -> None:
        app = self.app
        app.go_attract()
        self.frames(2)
        human = self.seat(position)
        bot_seat = next(s for s in app.table.seats if s.edge != human.edge)
        app.start_game("makoto", [(human.index, None), (bot_seat.index, "random")], seed=SEED)
        session = app.sm.current_screen.session
        spec = app.games["makoto"]
        g = next(i for i, s in enumerate(session.seats) if s.index == human.index)
        hand = spec.bots["random"](g, 5)
        for _ in range(math.ceil(60 / STEP)):  # the human's moves, one a frame, for 60 virtual seconds at most
            if app.mode != "game":
                break
            state = session.state
            if g in state.to_move():
                session.apply(g, hand.choose(state))
            next_game = getattr(app.sm.current_screen, "next_game", None)
            if getattr(app.sm.current_screen, "sheet_text", "") and next_game is not None:
                next_game()
            self.frame()
        self.run_until(lambda: app.mode == "results", 5, "the results screen")

    def guests_game(self, key: str) -> None:
        """A finished game of ``key`` with a guest at the south-west seat (a bot across; Takoyaki: a time trial),
        the guest's initials KEN on the board: the day's best for attract mode's replay."""
        from devtools.guestgames import finished_game

        app = self.app
        seats = [{"seat": self.seat(LONG).index, "bot": None}]
        seats += [] if key == "takoyaki" else [{"seat": self.seat("north-east").index, "bot": "random"}]
        trial = 84.2 if key == "takoyaki" else None
        finished_game(app.saved_games, key, seats, SEED, time_s=trial, initials="KEN", scores=app.scores)

    def attract_replay(self, key: str) -> None:
        """The day's best game of ``key`` replayed in attract mode, its caption in the corners, a few moves in."""
        self.guests_game(key)
        self.app.go_attract()
        self.app.director.jump_to("replay", key, hold=True)
        self.run_for(6.0 if self.pngs else 2.0)

    def results_saved(self, position: str) -> None:
        """The results once the initials are saved: "Play again" and "Watch again" at the guest's pad (the results
        shot's game when it is still on screen)."""
        app = self.app
        if not (app.mode == "results" and app.results.pads[self.seat(position).index].in_game):
            self.results(position)
        for pad in self.app.results.pads.values():
            if pad.entering:
                pad.finish()

    def watch_again(self, position: str) -> None:
        """ "Watch again" pressed at the guest's pad: the game replayed fast, the corners saying how to skip."""
        self.results_saved(position)
        self.frames(2)
        self.app.results.watch_again()
        self.run_for(3.0 if self.pngs else 1.0)

    def seat_howto(self, position: str, key: str, step: int) -> None:
        """One step of a game's how-to at a seat, as the seat menu shows it on the joining screen."""
        app = self.app
        if app.sm.current != "join" or app.join_screen.spec is not app.games[key]:
            self.join(position, key)
            self.frames(2)
        app.seat_menus.close_all()
        menu = app.seat_menus.open(self.seat(position).index, app.games[key], in_game=False, howto=True)
        menu.show_step(step)
        if menu.steps[step].demo is not None:  # a demo: a few moves in
            self.run_until(lambda: menu.demo_caption.startswith("3/"), 20, "the demo's third move")

    def seat_card(self, position: str, key: str) -> None:
        """A card of the game explained at a seat (the seat menu's cards, as a touch-and-hold opens them)."""
        self.seat_howto(position, key, 0)
        menu = self.app.seat_menus.menus[self.seat(position).index]
        menu.show_cards()
        menu.show_step(min(len(menu.steps) - 1, 1))

    def refusal(self, key: str, position: str) -> None:
        """A move the engine refuses, shown at the human's seat in its language."""
        from kiosk.engine import RuleError

        self.game(key, position)
        session = self.app.session
        g = session.game_seat_of(self.seat(position).index)
        state = session.state
        ahead, seen = state.clone(), []  # moves of later steps (a game played on a copy): refused now
        for _ in range(30):
            if ahead.is_over():
                break
            m = ahead.to_move()[0]
            seen += ahead.legal_actions(m)[:2]
            ahead.apply(m, ahead.legal_actions(m)[-1])
        for action in seen:
            try:
                state.clone().apply(g, action)
            except RuleError:
                session.apply(g, action)
                break
        self.frames(2)

    def operator(self, facing: str) -> None:
        self.app.go_attract()
        self.frames(2)
        self.app.desk.open(facing)

    def operator_page(self, facing: str, page: str) -> None:
        """The operator menu (past the PIN) facing ``facing``, on its ``menu`` or its ``event`` page, the event
        settings filled as at a café with long names (not paired: nothing connects)."""
        self.operator(facing)
        app = self.app
        app.desk.update_config(
            event={
                "broker": "leaderboard.cafe-sakura.local",
                "port": 8883,
                "tls": True,
                "event": "winter-tournament-2026",
                "table": "table-3-window",
                "user": "table-3-window",
                "password": "s3cret",
            }
        )
        app.operator.show_menu()
        if page == "event":
            app.operator.show_event()
        self.frames(2)

    def mixed(self, key: str, languages: dict[str, str]) -> None:
        """``key`` with a human at each of ``languages``' seats (position -> language), each seat reading its own,
        joined on the joining screen as guests do (the centre reads the table's language)."""
        app = self.app
        self.join(next(iter(languages)), key)
        self.frames(2)
        join = app.join_screen
        for position, language in languages.items():
            pad = join.pads[self.seat(position).index]
            pad.mode, pad.language = "human", language
        seats = [(s.index, None) for s in app.table.seats if s.position in languages]
        app.start_game(key, seats, seed=SEED)
        self.run_for(2.5)
        screen = app.sm.current_screen
        for position in languages:
            panel = getattr(screen, "panels", {}).get(self.seat(position).index)
            tray = getattr(getattr(panel, "ids", None), "tray", None) if panel is not None else None
            if tray is not None:
                tray.held_by_button = True

    def tour(self, only: str, fit: bool = False) -> None:
        """Every shot (``fit``: only the screens the fit test walks, see :func:`fit_tour`)."""
        app = self.app
        self.take("attract_call", only, self.attract_call)
        for key in app.games:
            self.take(f"attract_{key}", only, partial(self.attract_step, "game", key, 4.0 if not fit else 2.0))
        self.take("attract_boards", only, partial(self.attract_step, "boards", next(iter(app.games)), 0.5))
        self.take("attract_event_boards", only, self.attract_event_boards)
        self.take("attract_offer", only, self.attract_offer)
        for key in app.games:
            self.take(f"attract_replay_{key}", only, partial(self.attract_replay, key))
        edges = (("long", LONG), ("short", SHORT))
        for edge, position in edges:
            self.take(f"picker_{edge}", only, partial(self.picker, position))
            self.take(f"howto_{edge}", only, partial(self.howto, position, "makoto"))
            self.take(f"join_{edge}", only, partial(self.join, position, "makoto"))
        for key in app.games:
            for edge, position in edges:
                self.take(f"{key}_{edge}", only, partial(self.game, key, position))
        from kiosk.shell.howto import howto_steps

        for key, spec in app.games.items():
            for edge, position in edges:  # every step (the fit set too: a few frames each)
                for i in range(len(howto_steps(spec))):
                    self.take(f"seat_howto_{key}_{i + 1}_{edge}", only, partial(self.seat_howto, position, key, i))
        for edge, position in edges:
            self.take(f"results_{edge}", only, partial(self.results, position))
            self.take(f"results_saved_{edge}", only, partial(self.results_saved, position))
            self.take(f"watch_again_{edge}", only, partial(self.watch_again, position))
        for key in app.games:  # four seats, four languages (not in the fit set: each language has its own tour)
            if not fit:
                self.take(f"mixed_{key}", only, partial(self.mixed, key, MIXED))
        for key in app.games:  # a card explained, a refusal (tests/test_card_explanations.py fits every card)
            if not fit:
                self.take(f"seat_card_{key}", only, partial(self.seat_card, LONG, key))
                self.take(f"refusal_{key}", only, partial(self.refusal, key, LONG))
        self.take("operator_long", only, partial(self.operator, "bottom"))
        self.take("operator_short", only, partial(self.operator, "left"))
        for edge, facing in (("long", "bottom"), ("short", "left")):
            self.take(f"operator_menu_{edge}", only, partial(self.operator_page, facing, "menu"))
            self.take(f"operator_event_{edge}", only, partial(self.operator_page, facing, "event"))
        app.go_attract()
        self.frames(2)


def _seed_scores(state: Path) -> None:
    """A few high scores (all-time and today) so the boards have something to show."""
    from kiosk.games import GAMES
    from kiosk.storage import HighScores

    scores = HighScores.open_or_unavailable(state / "scores.json")
    names = ["AKI", "BEN", "CHO", "DAN", "EVE"]
    for key in GAMES:
        for i, name in enumerate(names):
            scores.add(key, name, 40 - 7 * i)
    close = getattr(scores, "close", None)
    if close is not None:
        close()


def run_tour(size: str, out: Path, only: str = "", fit: bool = False, language: str = "en") -> Tour:
    """Start the kiosk in this process at ``size`` ("1920x1080"), take the tour and return it (its findings,
    its failed shots). ``fit``: the fit checker's set of screens and no PNGs. ``language``: the table's, which
    every seat reads (every language enabled). Kivy allows one window per process: call it once, in a fresh
    process (``python -m devtools.shots --child <size>``)."""
    width, height = (int(v) for v in size.split("x"))
    out = out if language == "en" else out / language  # another language's shots: in their own folder
    out.mkdir(parents=True, exist_ok=True)
    state = Path(tempfile.mkdtemp(prefix="kiosk-shots-"))
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ["KIVY_HOME"] = str(state / "kivy")
    from kiosk.__main__ import configure_kivy

    configure_kivy(state_dir=state, fullscreen=False, width=width, height=height, log_level="warning")
    from kivy.base import runTouchApp, stopTouchApp
    from kivy.core.window import Window

    from kiosk import clock
    from kiosk.app import KioskApp
    from kiosk.config import Config
    from kiosk.i18n import LANGUAGES

    clock.freeze()  # virtual time from here: see Tour.frame

    _seed_scores(state)
    cfg = Config().replace(
        attract={"move_delay_s": 0.15, "game_s": 60.0, "boards_s": 60.0, "call_s": 60.0, "bot_level": "random"},
        bots={"move_delay_s": 0.05, "default_level": "random"},
        timeouts={"idle_s": 600.0, "still_playing_s": 600.0, "menu_idle_s": 600.0, "initials_s": 300.0},
        language={"default": language, "enabled": [language] + [lang for lang in LANGUAGES if lang != language]},
    )
    app = KioskApp(
        cfg,
        state_dir=state,
        config_path=state / "kiosk.json",
        hardware="mock",
        handle_signals=False,
        seed=SEED,
        bot_iterations=BOT_ITERATIONS,
    )
    Window.size = (width, height)
    app._run_prepare()
    runTouchApp(embedded=True)
    Tour.frames(2)
    Tour.frame(draw=True)  # the first frame drawn: the kiosk is up (the attract cycle waits for it)
    app.builder.ensure_ready()
    from kiosk.i18n import PSEUDO_ENV

    tour = Tour(app, out, size, pngs=not fit, pseudo=os.environ.get(PSEUDO_ENV) == "1")
    try:
        tour.tour(only, fit=fit)
    finally:
        app.stop()
        stopTouchApp()
        shutil.rmtree(state, ignore_errors=True)
    return tour


def fit_tour(size: str, only: str = "", language: str = "en") -> dict[str, Any]:
    """The fit test's tour in this (fresh) process: ``{"findings": {shot: [finding, ...]}, "failed": [shot]}``.

    The screens: attract mode, the picker, a how-to and the joining screen from a long and a short edge, every
    game with a human at a long and a short edge, every step of every game's how-to in a seat's menu, the
    results from both edges, the operator screen facing both (its PIN, its menu, its event page), the boards of a
    table paired with an event; shorter waits, and no PNGs are written."""
    with tempfile.TemporaryDirectory(prefix="kiosk-fit-") as tmp:
        tour = run_tour(size, Path(tmp), only, fit=True, language=language)
    return {"findings": tour.findings, "failed": tour.failed}


def _child(
    out: Path, size: str, only: str, fit: bool = False, findings: Path | None = None, language: str = "en"
) -> int:
    if fit:
        result = fit_tour(size, only, language)
        failed = result["failed"]
        if findings is not None:
            findings.write_text(json.dumps(result, indent=1), encoding="utf-8")
        return 1 if failed else 0
    tour = run_tour(size, out, only, language=language)
    (tour.out / f"fit_{size}.txt").write_text("\n".join(tour.fit_lines) + "\n", encoding="utf-8")
    if findings is not None:
        findings.write_text(json.dumps({"findings": tour.findings, "failed": tour.failed}, indent=1), "utf-8")
    return 1 if tour.failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
