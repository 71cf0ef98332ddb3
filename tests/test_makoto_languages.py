"""Makoto in every seat's language: its words (``kiosk/games/makoto/words.py``: combinations, the log, the engine's
refusals) in each language, and, in the real kiosk (one child process, as tests/test_screen_makoto.py), a seat
reading Japanese (its hand's buttons and prompt in the CJK face) beside one reading German while the centre and the
log read the table's French; every step of a turn (lead, follow, a chosen play, the Blind, the Oracle) fits at
both window sizes in every language."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import build_app, frames, run_child, run_scenarios, tick

HERE = Path(__file__).resolve()
CHILD_S = 600
SCENARIOS = ["seats_read_their_own_language", "every_language_fits_every_step", "every_button_fits_a_short_edge"]


# =============================================================================================== plain tests
def test_combinations_and_log_in_each_language() -> None:
    from kiosk.engine import Event
    from kiosk.games.makoto.words import combo_text, makoto_event_text
    from kiosk.i18n import translator

    de, ja, fr = (translator(lang, "makoto") for lang in ("de", "ja", "fr"))
    assert combo_text("set", 2, 5) == "a pair of 5s"
    assert combo_text("set", 2, 5, de) == "ein Paar 5er"
    assert combo_text("run", 4, 9, ja) == "9までの 4枚の 階段"
    assert combo_text("kensei", 4, 7, fr) == "un Kensei de 7"
    played = Event("played", 0, {"cards": [3, 23, 43], "combination": "a set of 3 of 3s", "kensei": False})
    assert makoto_event_text(played, lambda g: "Ann", str) == "Ann played a set of 3 of 3s"
    assert makoto_event_text(played, lambda g: "Ann", str, tr=de) == "Ann spielt: 3-mal die 3"
    won = Event("round_won", 0, {"cards": [25], "points": 5})
    assert makoto_event_text(won, lambda g: "Ann", str, tr=de) == "Ann gewinnt die Runde: 1 Karte, 5 Punkte"
    assert makoto_event_text(won, lambda g: "Ann", str, tr=fr) == "Ann remporte la manche\u00a0: 1 carte, 5 points"
    # a drawn Oracle card is never named; a Sword card's mark in Japanese is a dagger (the CJK face lacks ⚔)
    took = Event("blind_take", 1, {"cards": [22, 2]})
    assert makoto_event_text(took, lambda g: "Bo", str) == "Bo took 2 2\u2694 from the Blind"


def test_every_refusal_of_the_engine_is_translated() -> None:
    """Every ``RuleError`` message of rules.py (and its waiting-for texts) reaches a German seat in German."""
    from kiosk.games.makoto import rules
    from kiosk.games.makoto.words import error_text
    from kiosk.i18n import translator

    de = translator("de", "makoto")
    source = Path(rules.__file__).read_text(encoding="utf-8")
    fixed = re.findall(r'RuleError\("([^"{]*)"\)', source) + list(rules.WAITING.values()) + ["The game is over"]
    assert len(fixed) > 10
    for message in fixed:
        assert error_text(message, de) != message, message
        assert error_text(message) == message
    pair, run = rules.describe((rules.SET, 2, 5)), rules.describe((rules.RUN, 3, 9))
    samples = {
        f"Only a higher Kensei beats {rules.describe((rules.KENSEI, 4, 6))}": (
            "Auf dem Tisch liegt ein Kensei aus 6ern: das schlägt nur ein höherer Kensei"
        ),
        f"You must play a pair (or a Kensei) to beat {pair}": (
            "Gegen ein Paar 5er musst du ein Paar (oder einen Kensei) spielen"
        ),
        f"You must play a run of 3 cards (or a Kensei) to beat {run}": (
            "Gegen eine 3er-Straße bis 9 musst du eine Straße aus 3 Karten (oder einen Kensei) spielen"
        ),
        f"You must play higher than {rules.describe((rules.SET, 3, 4))}": "Du musst höher spielen als 3-mal die 4",
        "The card you put in the Blind must be lower than 7": "Die Karte für den Talon muss niedriger als 7 sein",
        "You may take at most 1 card(s): as many as you played": (
            "Du darfst höchstens 1 Karte nehmen: so viele, wie du gespielt hast"
        ),
        "The cards you take must be lower than 4": "Die genommenen Karten müssen niedriger als 4 sein",
    }
    for message, german in samples.items():
        assert error_text(message, de) == german, message


@pytest.mark.ui
@pytest.mark.slow
@pytest.mark.parametrize("name", SCENARIOS)
def test_scenario(results: dict[str, Any], name: str) -> None:
    assert name in results, f"scenario {name} did not run; results: {sorted(results)}"
    assert results[name] == "ok", results[name]


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return run_child(HERE, tmp_path_factory.mktemp("makoto-languages"), timeout=CHILD_S)


# =============================================================================================== child
def child_main(tmp: Path, out: Path) -> None:
    from kivy.core.window import Window
    from test_screen_makoto import Table

    from devtools.fit import check_tree
    from kiosk.games.makoto.actions import EndTurn, OracleDiscard, Pass, Play
    from kiosk.games.makoto.panel import StepButton
    from kiosk.games.makoto.rules import BLIND, ORACLE_STEP
    from kiosk.i18n import CJK, font_for

    app = build_app(tmp / "state", bots={"move_delay_s": 0.0, "default_level": "easy"})
    tb = Table(app)
    seats = [("south-west", None), ("west", None), ("north-east", "easy")]
    cjk = font_for("ja")  # "" without fonts-noto-cjk (test.sh installs it)

    def start(table: str, own: dict[str, str], seed: int = 7) -> Any:
        """A game of ``seats`` with the table's language and the seats' own, as the launcher starts one with the
        languages chosen on the join pads."""
        session = tb.start(seats, seed=seed)
        chosen = {str(app.table.by_position(p).index): lang for p, lang in own.items()}
        session.set_languages(table, chosen)
        tb.screen.begin(session)
        frames(2)
        return session

    def until_turn(position: str, other: str) -> None:
        """Bots play; the other human passes when it may (else plays its first choice) until ``position`` moves."""
        session = app.session
        g, o = tb.g(position), tb.g(other)
        for _ in range(400):
            st = session.state
            assert not st.is_over(), "the game ended first"
            movers = st.to_move()
            if g in movers:
                tick(2)
                return
            if o in movers:
                legal = st.legal_actions(o)
                choice = Pass(False) if Pass(False) in legal else (EndTurn() if EndTurn() in legal else legal[0])
                assert session.apply(o, choice)
            tick()
        raise AssertionError(f"{position}'s turn did not come")

    def shown_buttons(panel: Any) -> list[Any]:
        return [b for b in panel.actions if b.opacity > 0 and b.parent is not None and b.text]

    found: list[str] = []

    def fits(what: str, size: tuple[int, int]) -> None:
        """The whole screen fits (its problems are noted in ``found``: every language and step is walked)."""
        tick(3)
        found.extend(f"{what} at {size}: {p}" for p in check_tree(tb.screen, size))

    def seats_read_their_own_language() -> None:
        session = start("fr", {"south-west": "ja", "west": "de"})
        ja, de = tb.panel("south-west"), tb.panel("west")
        assert (ja.language, de.language, tb.screen.language) == ("ja", "de", "fr")
        until_turn("south-west", "west")
        hold = tb.hold("south-west")
        try:
            # the Japanese seat: its prompt and buttons in Japanese, set in the CJK face
            assert "出" in ja.prompt or "パス" in ja.prompt, ja.prompt
            texts = [b.text for b in shown_buttons(ja)]
            assert texts and any(t.endswith("を 出す") or t == "パス" for t in texts), texts
            assert not any("Play" in t or "Pass" in t for t in texts), texts
            assert all(b.font_name == (cjk or b.font_name) for b in shown_buttons(ja))
            if cjk:
                assert cjk == CJK and ja.face == CJK and all(b.font_name == CJK for b in shown_buttons(ja))
            # the German seat (its tray closed): its hint, its points, in the table's face
            assert de.ids.tray.hint == "Hier halten (oder Platztaste), um deine Hand zu sehen"
            assert de.info.startswith("Beute: ") and de.face != CJK
            # refusals reach each seat in its own language
            tb.screen._on_error(session, tb.g("south-west"), "You do not hold that card")
            tb.screen._on_error(session, tb.g("west"), "Play cards or pass first")
            assert (ja.error, de.error) == ("その カードは 持っていません", "Erst Karten spielen oder passen")
            # the centre and the log read the table's French
            for sl in tb.screen.slices:
                centre = sl.ids.centre
                assert centre.language == "fr" and centre.headline.startswith("Au tour de "), centre.headline
                assert centre.play_label.startswith("Rien sur la table") or ", par " in centre.play_label
            log = tb.screen._history
            assert all(
                any(w in line for w in ("joue", "passe", "pose", "prend", "défausse", "remporte")) for line in log
            )
            found.clear()
            fits("a Japanese seat, a German seat, a French table", (1920, 1080))
            assert not found, "\n".join(found)
        finally:
            hold.up()
            tick()

    def every_language_fits_every_step() -> None:
        found.clear()
        try:
            for size in ((1280, 800), (1920, 1080)):
                Window.size = size
                frames(3)
                for lang in ("en", "ja", "de", "fr", "es"):
                    session = start(lang, {})
                    for position, other in (("west", "south-west"), ("south-west", "west")):
                        until_turn(position, other)
                        panel = tb.panel(position)
                        g = tb.g(position)
                        hold = tb.hold(position)
                        fits(f"{lang}: {position} to play", size)
                        legal = session.state.legal_actions(g)
                        enabled = sorted(tb.screen.enabled_cards(panel))
                        if enabled:  # a chosen card: the play's button names its combination
                            panel.toggle(enabled[-1])
                            fits(f"{lang}: {position} chose a card", size)
                            panel.command("clear")
                        hand = session.state.view(g)["hand"]
                        plays = [
                            a
                            for a in legal
                            if isinstance(a, Play) and min(c % 20 for c in a.cards) > min(c % 20 for c in hand)
                        ]
                        if Pass(True) in legal:
                            assert session.apply(g, Pass(True)) and session.state.phase == ORACLE_STEP
                            panel.refresh()
                            fits(f"{lang}: {position} drew from the Oracle", size)
                            assert session.apply(g, OracleDiscard(session.state.view(g)["hand"][0]))
                        elif plays:
                            tb.screen.command(panel, plays[-1])  # as its button does (the play can be taken back)
                            if session.state.phase == BLIND:
                                panel.refresh()
                                fits(f"{lang}: {position} in the Blind step", size)
                                assert session.apply(g, EndTurn())
                        hold.up()
                        tick()
                    assert any(isinstance(w, StepButton) for w in tb.panel("west").actions)
        finally:
            Window.size = (1920, 1080)
            frames(3)
        assert not found, "\n".join(found)

    def every_button_fits_a_short_edge() -> None:
        """Every action button's words, with the longest cards they name, on the narrowest button there is (a short
        edge's at 1280x800, four to a row), in every language: whole (or, for a play, its cards alone)."""
        from kiosk.games.makoto.words import Worded, card_text, cards_text, combo_text
        from kiosk.i18n import translator

        Window.size = (1280, 800)
        frames(3)
        try:
            for lang in ("en", "ja", "de", "fr", "es"):
                start(lang, {})
                until_turn("west", "south-west")
                panel = tb.panel("west")
                hold = tb.hold("west")
                tr = translator(lang, "makoto")
                run, take = cards_text([9, 10, 31, 12, 33], tr), cards_text([12, 12, 32], tr)
                labels = [
                    Worded(tr.gettext("Play {cards}").format(cards=run), run),
                    Worded(tr.gettext("Play {combination}").format(combination=combo_text("run", 5, 13, tr)), run),
                    Worded(tr.gettext("Play {combination}").format(combination=combo_text("set", 3, 12, tr)), take),
                    Worded(tr.gettext("Play {combination}").format(combination=combo_text("kensei", 4, 12, tr)), take),
                    tr.gettext("Play (choose cards)"),
                    tr.gettext("Clear"),
                    tr.gettext("Pass"),
                    tr.gettext("Pass + draw {oracle}").format(oracle=tr.sym("\u2600")),
                    tr.gettext("Put {card} in Blind").format(card=card_text(32, tr)),
                    tr.gettext("Take {cards}").format(cards=take),
                    tr.gettext("End turn"),
                    tr.sym("\u21b6") + " " + tr.gettext("Take back"),
                    Worded(
                        tr.gettext("Discard {card} to Oracle").format(card=card_text(53, tr)),
                        tr.gettext("Discard {card}").format(card=card_text(53, tr)),
                    ),
                    tr.gettext("Pick a card"),
                    tr.gettext("Use box lid"),
                    tr.gettext("Lid: take {card}").format(card=card_text(32, tr)),
                    tr.pgettext("makoto tray", "Cancel"),
                ]
                button = next(b for b in panel.actions if b.opacity > 0 and b.parent is not None)
                for label in labels:
                    button.label = label
                    tick(2)
                    found.extend(f"{lang}: {p}" for p in check_tree(button, (1280, 800)))
                hold.up()
                tick()
        finally:
            Window.size = (1920, 1080)
            frames(3)
        assert not found, "\n".join(found)

    run_scenarios(
        {
            "every_button_fits_a_short_edge": every_button_fits_a_short_edge,
            "seats_read_their_own_language": seats_read_their_own_language,
            "every_language_fits_every_step": every_language_fits_every_step,
        },
        out,
    )
    app.launcher.end()
    app.stop()


if __name__ == "__main__":
    child_main(Path(sys.argv[1]), Path(sys.argv[2]))
