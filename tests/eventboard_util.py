"""Shared by the event board's tests: the service as its own process, a headless Chromium, the wall's fit check, and
an event filled with the largest values the contract and the games allow.

The fit check (:data:`FIT_JS`) measures the page as the kiosk's own fit checker (``devtools/fit.py``) measures its
screens: every text on screen must lie inside its box (not cut: its inked extent, a DOM ``Range``, within the
element), inside its card or column, inside the window, with no two texts of a row overlapping, set no smaller than
the wall's smallest size; and the page must not scroll.
"""

from __future__ import annotations

import base64
import contextlib
import json
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from devtools.broker import Mosquitto, free_port

BOUND_S = 240
ADMIN = "let-me-in"


def until(pred: Callable[[], Any], what: str, bound: float = BOUND_S) -> Any:
    end = time.monotonic() + bound
    while True:
        got = pred()
        if got:
            return got
        assert time.monotonic() < end, f"not within the file's bound: {what}"
        time.sleep(0.02)


class BoardProcess:
    """``python -m kiosk.events.board`` for the event ``fair`` on its own HTTP port, its database in ``tmp``."""

    def __init__(
        self,
        tmp: Path,
        broker: Mosquitto | None,
        tables: Iterable[str] = ("t1",),
        password: str = "",
        title: str = "Summer Fair",
    ) -> None:
        self.tmp, self.broker = tmp, broker
        self.port = free_port()
        self.tables = list(tables)
        self.title = title
        (tmp / "mqtt-password").write_text(password)
        (tmp / "admin-password").write_text(ADMIN)
        self.db = tmp / "board.sqlite"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def start(self) -> None:
        cmd = [sys.executable, "-m", "kiosk.events.board", "--event", "fair", "--title", self.title]
        for t in self.tables:
            cmd += ["--table", t]
        cmd += [
            "--broker",
            "127.0.0.1",
            "--port",
            str(self.broker.port if self.broker is not None else free_port()),
            "--password-file",
            str(self.tmp / "mqtt-password"),
            "--admin-password-file",
            str(self.tmp / "admin-password"),
            "--db",
            str(self.db),
            "--http-host",
            "127.0.0.1",
            "--http-port",
            str(self.port),
        ]
        with open(self.tmp / "board.log", "ab") as log:
            self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log)
        until(self._up, "the service answers")

    def _up(self) -> bool:
        assert self.proc is not None and self.proc.poll() is None, self.log()
        try:
            with urllib.request.urlopen(self.url + "api/board", timeout=2) as r:
                return bool(r.status == 200)
        except OSError:
            return False

    def log(self) -> str:
        p = self.tmp / "board.log"
        return p.read_text(errors="replace")[-3000:] if p.exists() else ""

    def kill(self) -> None:
        """SIGKILL: a power cut for the service."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(30)
        self.proc = None

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=5) as r:
            return json.loads(r.read())

    def board(self) -> dict[str, Any]:
        return self.get("api/board")  # type: ignore[no-any-return]

    def admin(self, path: str, password: str | None) -> int:
        req = urllib.request.Request(self.url + "api/admin/" + path, data=b"{}", method="POST")
        if password is not None:
            req.add_header("Authorization", "Basic " + base64.b64encode(f"staff:{password}".encode()).decode())
        try:
            with urllib.request.urlopen(req, timeout=5) as r:
                return int(r.status)
        except urllib.error.HTTPError as e:
            return int(e.code)


def chromium(tmp: Path, width: int = 1920, height: int = 1080) -> Any:
    """Debian's headless Chromium through its chromedriver (Selenium), its viewport exactly ``width`` x ``height``."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--hide-scrollbars",
        f"--user-data-dir={tmp / 'chromium'}",
        f"--window-size={width},{height}",
    ):
        opts.add_argument(arg)
    driver = webdriver.Chrome(options=opts, service=Service("/usr/bin/chromedriver"))
    viewport(driver, width, height)
    return driver


def viewport(driver: Any, width: int, height: int) -> None:
    """The page's viewport exactly ``width`` x ``height`` CSS pixels at one device pixel each (a wall screen)."""
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 900},
    )
    until(
        lambda: driver.execute_script("return [innerWidth, innerHeight]") == [width, height],
        f"the {width}x{height} viewport",
    )


#: The wall's fit check, run in the page: a list of problems (empty: everything fits). See the module docstring.
FIT_JS = r"""
const problems = [];
const W = innerWidth, H = innerHeight, EPS = 1.0;
const minPx = arguments[0], scrolls = arguments[1];
const root = document.documentElement;
if (!scrolls && root.scrollHeight > H + EPS) problems.push(`the page scrolls: ${root.scrollHeight} px tall in ${H}`);
if (root.scrollWidth > W + EPS) problems.push(`the page scrolls sideways: ${root.scrollWidth} px wide in ${W}`);
const name = e => (e.id ? "#" + e.id : e.className ? "." + String(e.className).split(" ")[0] : e.tagName) +
                  " " + JSON.stringify((e.textContent || "").slice(0, 40));
const inside = (a, b) => a.left >= b.left - EPS && a.right <= b.right + EPS && a.top >= b.top - EPS &&
                         a.bottom <= b.bottom + EPS;
const ink = e => { const r = document.createRange(); r.selectNodeContents(e); return r.getBoundingClientRect(); };
const texts = [...document.querySelectorAll(
  "#title, #pager, #link, .table, .game h2, .periods h3, li.row > span, li.empty, aside h2, .latest, #empty")];
let checked = 0;
for (const e of texts) {
  const box = e.getBoundingClientRect();
  // not on the page at all (display: none) is not checked; on it with no room (a box of zero width) is cut
  if (!e.textContent.trim() || e.getClientRects().length === 0 || getComputedStyle(e).visibility === "hidden")
    continue;
  checked += 1;
  const text = ink(e);
  const screen = {left: 0, top: scrolls ? -1e9 : 0, right: W, bottom: scrolls ? 1e9 : H};
  if (!inside(box, screen)) problems.push(`off the screen: ${name(e)} at ${JSON.stringify(box)}`);
  if (!inside(text, box))
    problems.push(`cut: ${name(e)}'s text (${text.width}x${text.height}) leaves its box (${box.width}x${box.height})`);
  const holder = e.closest(".game, aside, #tables, header, .periods > div, li.row");
  const within = e.matches("li.row > span") ? e.closest(".periods > div") : holder;
  if (within && within !== e && !inside(text, within.getBoundingClientRect()))
    problems.push(`out of its ${within.className || within.tagName}: ${name(e)}`);
  const card = e.closest(".game, aside");
  if (card && !inside(text, card.getBoundingClientRect())) problems.push(`out of its card: ${name(e)}`);
  const size = parseFloat(getComputedStyle(e).fontSize);
  if (size < minPx - 0.01) problems.push(`too small: ${name(e)} at ${size.toFixed(1)} px (least ${minPx.toFixed(1)})`);
}
for (const row of document.querySelectorAll("li.row")) {
  const parts = [...row.children].map(ink);
  for (let i = 1; i < parts.length; i++)
    if (parts[i].left < parts[i - 1].right - EPS) problems.push(`overlap in a row: ${name(row)}`);
}
return {problems, checked};
"""


def fit_problems(driver: Any, phone: bool = False) -> list[str]:
    """What does not fit on the page as shown (see :data:`FIT_JS`); the least size scales with the screen (16 px at
    1080 lines), as the kiosk's type scale does. ``phone``: a page that scrolls down (but never sideways), its
    least size 14 px."""
    least = 14.0 if phone else 16.0 * driver.execute_script("return innerHeight") / 1080
    got = driver.execute_script(FIT_JS, least, phone)
    assert got["checked"] > 10, got
    return list(got["problems"])


# ------------------------------------------------------------------------------------------------ the largest event
LONG_TABLE = "table-" + "w" * 34  # 40 letters: the longest name a table may have
LONG_TITLE = "Wasabi Wednesday: WWW Championship of the Whole Wide World, Wimbledon Wards 2026"
assert len(LONG_TITLE) == 80  # the longest title an event may have


def largest_values(rules: dict[str, Any], game: str) -> int:
    """The result of ``game`` that takes the most room on a board: the longest of its lowest and highest."""
    lo, hi = rules[game].score
    return hi if len(str(hi)) >= len(str(lo)) else lo


def fill_largest(db: Path, tables: int = 50, now: datetime | None = None) -> list[str]:
    """An event in ``db`` as full as the wall can get: every board of every game ten rows deep with 3-letter
    initials and the game's widest result, ``tables`` tables with 40-letter names, the latest games won by six;
    the title the longest allowed. The table names, in order."""
    from kiosk.events.board.store import BoardStore
    from kiosk.events.contract import event_rules, new_record

    rules = event_rules()
    now = now or datetime.now(UTC)
    names = [LONG_TABLE] + [f"table-{i:02d}-" + "w" * 30 for i in range(1, tables)]
    store = BoardStore(db)
    store.open_event("fair", LONG_TITLE, names, now=now - timedelta(hours=2))
    for i, name in enumerate(names):
        store.set_status("fair", name, "online" if i % 3 else "offline", "2026-12-04T10:00:00Z")
    for game, r in rules.items():
        lo, hi = r.players
        n = max(lo, min(hi, 6))
        best = largest_values(rules, game)
        for k in range(10):
            players = [
                {"seat": s, "initials": "WMW"[:3], "score": best, "bot": False, "winner": True} for s in range(n)
            ]
            rec = new_record(
                "fair", names[k % len(names)], game, players, 600.0, finished_at=now - timedelta(minutes=k)
            )
            store.add(rec, now=now)
    store.close()
    return names


class PausableProxy:
    """A TCP relay in front of the service: the page's network, which a test can pause (nothing moves either way
    while the connections stay open, as on a Wi-Fi that stalls) and resume. Connections made while paused wait."""

    def __init__(self, target_port: int) -> None:
        import socket
        import threading

        self.target = target_port
        self.open = threading.Event()
        self.open.set()
        self._stop = threading.Event()
        self.server = socket.socket()
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(64)
        self.port = int(self.server.getsockname()[1])
        self._socks: list[Any] = []
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def pause(self) -> None:
        self.open.clear()

    def resume(self) -> None:
        self.open.set()

    def _accept(self) -> None:
        import socket
        import threading

        while not self._stop.is_set():
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                client.close()
                continue
            for s in (client, upstream):
                s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a small window: a pause shows soon
            self._socks += [client, upstream]
            threading.Thread(target=self._pump, args=(client, upstream), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client), daemon=True).start()

    def _pump(self, src: Any, dst: Any) -> None:
        try:
            while not self._stop.is_set():
                self.open.wait()
                data = src.recv(4096)
                if not data:
                    break
                self.open.wait()
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.close()

    def close(self) -> None:
        self._stop.set()
        self.open.set()
        self.server.close()
        for s in self._socks:
            with contextlib.suppress(OSError):
                s.close()
