"""The event board service as its own process (``python -m kiosk.events.board``) and its wall page in a real
headless Chromium (Debian's ``chromium`` and ``chromium-driver``, through Selenium), fed by a table's link through
a real Mosquitto.

The page shows a game that a table published without a reload, keeps doing so after the service is killed and
started again and after its network paused (its "live" only while the stream is heard), fits a wall screen at
1920x1080, 3840x2160 and 1280x720 with no scrolling whatever the names and scores (measured element by element,
the boards paged), and the admin actions need the password. A reader that stops reading gets no backlog, only the
latest snapshot when it reads again. The screenshots (``artifacts/eventboard_wall*.png``, ``eventboard_phone.png``)
are for a human to look at. How fast a record reaches the page is measured by ``benchmarks/bench_events.py``.
"""

from __future__ import annotations

import json
import os
import socket
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from conftest import ARTIFACTS
from eventboard_util import (
    ADMIN,
    LONG_TABLE,
    LONG_TITLE,
    BoardProcess,
    PausableProxy,
    chromium,
    fill_largest,
    fit_problems,
    until,
    viewport,
)
from test_events_store import game as stored_game

from devtools.broker import Mosquitto, table_settings
from kiosk.events.link import EventLink
from kiosk.events.outbox import Outbox

BOUND_S = 240
pytestmark = [pytest.mark.events, pytest.mark.timeout(BOUND_S)]
USERS = {"t1": "pw-t1", "eventboard": "pw-board"}
#: The wall sizes the page must fit without scrolling.
WALLS = [(1920, 1080), (3840, 2160), (1280, 720)]


def game(**kw: Any) -> dict[str, Any]:
    """A finished game as the tests of the store make it, finished now (the service checks its clock)."""
    return stored_game(**{"when": datetime.now(UTC), **kw})


@pytest.fixture
def setup(tmp_path: Path) -> Iterator[tuple[Mosquitto, BoardProcess, EventLink]]:
    broker = Mosquitto(tmp_path / "broker", users=USERS)
    broker.start()
    service = BoardProcess(tmp_path, broker, password=USERS["eventboard"])
    service.start()
    settings = table_settings(broker.port, "t1", user="t1", password=USERS["t1"])
    link = EventLink(settings, Outbox(tmp_path / "t1" / "outbox.jsonl"), retry_s=(1.0, 2.0))
    link.start()
    yield broker, service, link
    link.stop()
    service.stop()
    broker.stop()


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Any]:
    driver = chromium(tmp_path)
    yield driver
    driver.quit()


def shown(driver: Any, record_id: str) -> bool:
    from selenium.webdriver.common.by import By

    return bool(driver.find_elements(By.CSS_SELECTOR, f'.latest[data-id="{record_id}"]'))


def settled(driver: Any) -> None:
    """The phone layout, once laid out for the new width, fits: nothing cut, nothing sideways (it may scroll down)."""
    end = time.monotonic() + 10
    while (problems := fit_problems(driver, phone=True)) and time.monotonic() < end:
        time.sleep(0.2)
    assert not problems, "the phone layout:\n" + "\n".join(problems)


def link_text(driver: Any) -> str:
    return str(driver.execute_script("return document.getElementById('link').textContent"))


def test_the_wall_page_follows_the_tables_live_and_survives_a_restart(setup: Any, browser: Any) -> None:
    from selenium.webdriver.common.by import By

    _broker, service, link = setup
    browser.get(service.url)
    until(lambda: link_text(browser) == "live", "the page's stream is live")
    assert browser.find_element(By.ID, "title").text == "Summer Fair"
    until(lambda: browser.find_elements(By.CSS_SELECTOR, '#table-t1[data-state="online"]'), "t1 shown online")
    marker = browser.execute_script("window.__same_page = 1; return window.__same_page")
    first = game(scores=(88, 20), initials=("ANA", None))
    link.publish(first)
    until(lambda: shown(browser, first["id"]), "the game in the latest games, without a reload")
    until(
        lambda: browser.find_elements(By.CSS_SELECTOR, f'#game-maki li.row[data-id="{first["id"]}"]'),
        "ANA on the Maki boards",
    )
    maki = browser.find_element(By.ID, "game-maki").text
    assert "ANA" in maki and "88" in maki
    for i, key in enumerate(["wasabi", "makoto", "takoyaki", "takoyaki-trial", "maki"]):
        scores = {"takoyaki": (3, 5), "takoyaki-trial": (12_340,)}.get(key, (40 - i, 2))
        initials = ("BEA", "CY")[: len(scores)] if key != "takoyaki-trial" else ("DAN",)
        link.publish(game(key=key, scores=scores, initials=initials))
    until(lambda: browser.find_element(By.TAG_NAME, "body").get_attribute("data-games") == "6", "six games shown")
    until(lambda: len(link.outbox) == 0, "every game receipted")
    assert fit_problems(browser) == []
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(ARTIFACTS / "eventboard_wall.png"))

    service.kill()  # the service dies mid-event...
    until(lambda: link_text(browser) != "live", "the page notices")
    later = game(scores=(99, 1), initials=("ZED", None))
    link.publish(later)  # ...a game finishes meanwhile (the broker keeps it for the service's session)
    service.start()
    until(lambda: shown(browser, later["id"]), "the game played while the service was down, on the same page")
    assert browser.execute_script("return window.__same_page") == marker, "no reload"
    assert service.board()["games"] == 7

    viewport(browser, 390, 844)
    until(lambda: browser.execute_script("return document.body.className") == "phone", "the phone layout")
    settled(browser)
    browser.save_screenshot(str(ARTIFACTS / "eventboard_phone.png"))


def test_a_page_whose_network_pauses_is_not_live_and_comes_back_by_itself(setup: Any, browser: Any) -> None:
    """The page's network pauses (its open stream stalls in a relay that stops carrying bytes, and Chromium's own
    network is set offline through DevTools, so its reconnections fail too): the page stops saying "live" within a
    few pings' time, while games go on; when the network is back it reconnects by itself and shows them, on the
    same page. Chromium's offline emulation alone leaves an open stream flowing (it fails only new requests)."""
    from selenium.webdriver.common.by import By

    _broker, service, link = setup
    proxy = PausableProxy(service.port)
    try:
        browser.execute_cdp_cmd("Network.enable", {})
        browser.get(proxy.url)
        until(lambda: link_text(browser) == "live", "live")
        marker = browser.execute_script("window.__same_page = 2; return window.__same_page")
        before = game(scores=(10, 1), initials=("PRE", None))
        link.publish(before)
        until(lambda: shown(browser, before["id"]), "a game before the pause")
        proxy.pause()
        browser.execute_cdp_cmd(
            "Network.emulateNetworkConditions",
            {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
        )
        paused = time.monotonic()
        during = [game(scores=(60 + i, 1), initials=(f"P{i}", None)) for i in range(5)]
        for r in during:
            link.publish(r)
            time.sleep(0.3)
        until(lambda: len(link.outbox) == 0, "the service has them (the page does not, yet)")
        until(lambda: link_text(browser) != "live", "the page no longer says live", bound=30)
        noticed = time.monotonic() - paused
        assert noticed < 15, f"the page said live for {noticed:.1f} s with nothing arriving"
        assert not any(shown(browser, r["id"]) for r in during)
        time.sleep(2)
        assert link_text(browser) != "live", "and does not claim it while still paused"
        status = service.get("api/status")
        assert status["readers"] <= 3, status  # a stalled stream holds one snapshot, never a queue of them
        browser.execute_cdp_cmd(
            "Network.emulateNetworkConditions",
            {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
        )
        proxy.resume()
        resumed = time.monotonic()
        until(lambda: link_text(browser) == "live" and all(shown(browser, r["id"]) for r in during), "back, by itself")
        assert time.monotonic() - resumed < 20
        assert browser.execute_script("return window.__same_page") == marker, "no reload"
        rendered = int(browser.find_element(By.TAG_NAME, "body").get_attribute("data-rendered"))
        assert rendered >= service.get("api/status")["version"] - 1, "the latest snapshot, not an old one"
        after = game(scores=(70, 1), initials=("AFT", None))
        link.publish(after)
        until(lambda: shown(browser, after["id"]), "and follows the tables again")
    finally:
        proxy.close()


def test_a_page_asleep_wakes_to_the_latest_snapshot(setup: Any, browser: Any) -> None:
    """A screen asleep (Chromium freezes the page: no script runs, its stream is not read) wakes to the latest
    snapshot and stays live, on the same page."""
    _broker, service, link = setup
    browser.get(service.url)
    until(lambda: link_text(browser) == "live", "live")
    browser.execute_cdp_cmd("Page.setWebLifecycleState", {"state": "frozen"})
    during = [game(scores=(20 + i, 1), initials=(f"S{i}", None)) for i in range(4)]
    for r in during:
        link.publish(r)
        time.sleep(0.2)
    until(lambda: len(link.outbox) == 0, "the service has them")
    time.sleep(4)
    browser.execute_cdp_cmd("Page.setWebLifecycleState", {"state": "active"})
    until(lambda: all(shown(browser, r["id"]) for r in during) and link_text(browser) == "live", "awake, up to date")


def test_a_reader_that_stops_reading_gets_the_latest_snapshot_not_a_backlog(tmp_path: Path) -> None:
    """On the server's side: a stream reader with a small window stops reading while 30 snapshots are made; the
    service keeps it connected, holds at most the one being written, and when it reads again the next complete
    snapshots lead it straight to the latest, then on to later ones."""
    names = fill_largest(tmp_path / "board.sqlite", tables=20)  # big snapshots: the socket fills at once
    service = BoardProcess(tmp_path, None, tables=names)
    service.start()
    try:
        record = service.board()["latest"][0]["id"]
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", service.port))
        sock.sendall(b"GET /api/stream HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
        data = b""
        while b"event: snapshot" not in data:
            data += sock.recv(65536)
        start_version = service.get("api/status")["version"]
        for i in range(30):  # the organiser hides and shows an entry: a new snapshot each time
            assert service.admin(f"{'hide' if i % 2 == 0 else 'show'}/{record}", ADMIN) == 200
            time.sleep(0.15)
        status = service.get("api/status")
        latest = status["version"]
        assert latest - start_version >= 15, status
        assert status["readers"] == 1, "the paused reader is still connected"
        sock.settimeout(10)
        versions: list[int] = []
        buf = b""
        while not versions or versions[-1] < latest:
            chunk = sock.recv(65536)
            assert chunk, "the stream closed"
            buf += chunk
            while b"\n\n" in buf:
                frame, buf = buf.split(b"\n\n", 1)
                lines = frame.decode(errors="replace").split("\n")
                if "event: snapshot" in lines:
                    data_line = next(x for x in lines if x.startswith("data: "))
                    versions.append(json.loads(data_line[6:])["version"])
        skipped = (latest - start_version) - len(versions)
        assert skipped > 0 and len(versions) < (latest - start_version) / 2, (versions, start_version, latest)
        assert versions == sorted(versions) and versions[-1] == latest
        assert service.admin(f"show/{record}", ADMIN) == 200  # and it follows on from there
        while True:
            chunk = sock.recv(65536)
            assert chunk
            if f'"version":{latest + 1}'.encode() in chunk or b'"version": ' + str(latest + 1).encode() in chunk:
                break
        sock.close()
    finally:
        service.stop()


@pytest.mark.parametrize("width,height", WALLS, ids=[f"{w}x{h}" for w, h in WALLS])
def test_the_wall_fits_the_screen_at_the_largest_values(tmp_path: Path, width: int, height: int) -> None:
    """Every board of every game full, the widest results the games allow, 50 tables with 40-letter names, the
    longest title: at each wall size nothing scrolls, no text leaves its box, column or card, none overlaps, none
    is too small; the boards turn page by page (every page measured). Screenshots for a human to look at."""
    names = fill_largest(tmp_path / "board.sqlite", tables=50)
    service = BoardProcess(tmp_path, None, tables=names, title=LONG_TITLE)
    service.start()
    driver = chromium(tmp_path, width, height)
    try:
        driver.get(service.url)
        until(lambda: driver.execute_script("return document.body.dataset.rendered"), "rendered")
        pages = int(driver.execute_script("return document.getElementById('pager').dataset.pages"))
        assert pages == 2, "five boards of ten rows: two pages on a wall"
        keys_seen: set[str] = set()
        for page in range(pages):
            driver.execute_script("S.page = arguments[0]; render();", page)
            problems = fit_problems(driver)
            assert problems == [], f"page {page + 1} at {width}x{height}:\n" + "\n".join(problems)
            keys_seen |= set(driver.execute_script("return [...document.querySelectorAll('.game')].map(e => e.id)"))
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            driver.save_screenshot(str(ARTIFACTS / f"eventboard_wall_{width}x{height}_p{page + 1}.png"))
        assert keys_seen == {f"game-{k}" for k in ("maki", "wasabi", "makoto", "takoyaki", "takoyaki-trial")}
        assert driver.execute_script("return document.querySelector('.table.more').textContent").startswith("+")
        assert driver.execute_script("return S.snap.tables.some(t => t.table === arguments[0])", LONG_TABLE)
        assert driver.execute_script("return document.getElementById('title').textContent") == LONG_TITLE
        if (width, height) == WALLS[0]:
            viewport(driver, 390, 844)
            until(lambda: driver.execute_script("return document.body.className") == "phone", "the phone layout")
            settled(driver)
            driver.save_screenshot(str(ARTIFACTS / "eventboard_phone_largest.png"))
    finally:
        driver.quit()
        service.stop()


def test_admin_actions_need_the_password_and_hidden_entries_leave_the_boards(setup: Any) -> None:
    _broker, service, link = setup
    r = game(scores=(50, 1), initials=("HID", None))
    link.publish(r)
    until(lambda: service.board()["games"] == 1, "the record at the service")
    assert service.admin(f"hide/{r['id']}", None) == 401
    assert service.admin(f"hide/{r['id']}", "wrong") == 401
    assert service.admin(f"hide/{r['id']}", ADMIN) == 200
    assert service.board()["board"]["games"]["maki"]["all"] == []
    assert service.admin("hide/" + "0" * 32, ADMIN) == 404
    assert service.admin("close", ADMIN) == 200
    link.publish(game())
    until(lambda: link._inflight, "the game sent")
    time.sleep(1.0)
    assert service.board()["games"] == 1, "a closed event takes no more games"
    assert len(link.outbox) == 1, "and sends no receipt: the table keeps the game (the event may open again)"
    assert service.admin("open", ADMIN) == 200
    until(lambda: service.board()["games"] == 2 and len(link.outbox) == 0, "taken once the event is open again")
    assert os.path.exists(service.db)
