"""Every seat in its own language, in the real kiosk (one child process, as in tests/conftest.py): two seats'
join pads in Deutsch and 日本語 with their own texts and faces, the choice kept by the game, its seat menu and
"Play again"; and a table that never touches languages sees English and no language button."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import (
    build_app,
    button_with_text,
    buttons,
    frames,
    run_child,
    run_for,
    run_scenarios,
    screenshot,
    tap,
)

pytestmark = pytest.mark.ui
#: The child's bound (real seconds: a hung child; the scenarios run on virtual time); the file's is a minute more.
CHILD_S = 300

HERE = Path(__file__).resolve()
SCENARIOS = [
    "two_seats_two_languages",
    "english_table_has_no_language_button",
    "picker_in_the_tables_german",
    "attract_call_cycles_languages_per_seat",
    "fit_checker_sees_missing_glyphs",
]


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return run_child(HERE, tmp_path_factory.mktemp("languages"), timeout=CHILD_S)


@pytest.mark.parametrize("name", SCENARIOS)
def test_scenario(results: dict[str, Any], name: str) -> None:
    assert name in results, f"scenario {name} did not run; results: {sorted(results)}"
    assert results[name] == "ok", results[name]


# =============================================================================================== child
def texts(root: Any) -> list[str]:
    """The visible texts under ``root`` (labels and buttons)."""
    from kivy.uix.label import Label

    return [w.text for w in root.walk(restrict=True) if isinstance(w, Label) and w.opacity > 0 and w.text]


def open_join(app: Any, seat: int) -> Any:
    app.go_attract()
    frames(2)
    app.leave_attract(seat)
    frames(2)
    tap(button_with_text(app.picker.card_widgets["makoto"], "Play \u25b6"))
    frames(2)
    assert app.sm.current == "join"
    return app.join_screen


def child_main(tmp: Path, out: Path) -> None:
    from kiosk.i18n import CJK, font_for, translator

    languages = {"default": "en", "enabled": ["en", "ja", "de", "fr", "es"]}
    app = build_app(tmp / "state", language=languages)
    sw = app.table.by_position("south-west").index
    ne = app.table.by_position("north-east").index
    cjk = font_for("ja")  # "" without fonts-noto-cjk (test.sh installs it)
    sym = translator("ja").sym  # a symbol the CJK face lacks has a stand-in there

    def two_seats_two_languages() -> None:
        join = open_join(app, sw)
        de, ja = join.pads[sw], join.pads[ne]
        assert de.mode == "human" and ja.mode == "empty"
        assert button_with_text(de, "English  \u21bb") and button_with_text(ja, "English  \u21bb")
        # south-west: English -> 日本語 -> Deutsch; north-east: English -> 日本語, then joins with its own pad
        tap(button_with_text(de, "English  \u21bb"))
        assert buttons(de, "日本語  " + sym("\u21bb")), texts(de)
        tap(button_with_text(de, "日本語  " + sym("\u21bb")))
        tap(button_with_text(ja, "English  \u21bb"))
        tap(button_with_text(ja, "参加 " + sym("\u261d")))
        frames(2)
        assert (de.language, ja.language, ja.mode) == ("de", "ja", "human")
        de_texts, ja_texts = texts(de), texts(ja)
        assert "Deutsch  \u21bb" in de_texts and "\u2716 Verlassen" in de_texts, de_texts
        assert any("Dabei \u2714" in t for t in de_texts) and any("[?] Anleitung" in t for t in de_texts), de_texts
        assert "日本語  " + sym("\u21bb") in ja_texts and sym("\u2716") + " 退席" in ja_texts, ja_texts
        assert any("参加中 " + sym("\u2714") in t for t in ja_texts), ja_texts
        assert not any("Join" in t or "Leave" in t for t in de_texts + ja_texts)
        # the centre keeps the table's language; Japanese is set in the CJK face, German in the table's
        assert any("Join at your own seat" in t for t in texts(join.ids.buttons.parent))
        assert cjk in ("", CJK)
        table_face = button_with_text(de, "Start \u25b6").font_name
        assert button_with_text(ja, sym("\u2716") + " 退席").font_name == (cjk or table_face)
        assert button_with_text(de, "\u2716 Verlassen").font_name != CJK
        screenshot("languages_join_de_ja")
        # the game keeps them: the session, the journal, the seat menu
        tap(button_with_text(de, "Start \u25b6"))
        frames(3)
        assert app.mode == "game"
        session = app.session
        assert session.languages == {sw: "de", ne: "ja"} and session.language_of(sw) == "de"
        assert session.meta["languages"] == {str(sw): "de", str(ne): "ja"}
        menu = app.seat_menus.open(ne, session.spec, in_game=True)
        frames(2)
        assert menu.language == "ja" and "? 遊び方" in texts(menu), texts(menu)
        assert "はい、 抜ける" in [b.text for b in buttons(menu, enabled=False)]
        screenshot("languages_seat_menu_ja")
        # its how-to: each step through the game's catalog in the seat's language, its title line in Japanese
        tap(button_with_text(menu, "? 遊び方"))
        frames(2)
        spec, game_ja = session.spec, translator("ja", session.spec.key)
        assert menu.page == "howto" and menu.step_title == game_ja.gettext(spec.howto[0]["title"])
        assert menu.step_text == game_ja.gettext(spec.howto[0]["text"])
        title = f"{spec.title} 1/{len(spec.howto)}： {menu.step_title}"
        assert title in texts(menu), texts(menu)
        assert next(w for w in menu.walk() if getattr(w, "text", None) == title).font_name == (cjk or table_face)
        assert button_with_text(menu, "次へ " + sym("\u25b6"))
        # a demo's captions in the seat's language (the game's formatter with the seat's translator)
        from kiosk.shell.demo import demo_frames

        assert demo_frames(app.games["wasabi"], moves=0, tr=translator("ja", "wasabi"))[0].caption == "ゲーム開始"
        app.seat_menus.close_all()
        # "Play again": the same seats in the same languages
        app.launcher.end()
        app.launcher.play_again()
        frames(2)
        join = app.join_screen
        assert join.pads[sw].language == "de" and join.pads[ne].language == "ja"
        assert join.pads[sw].mode == join.pads[ne].mode == "human"
        app.go_attract()
        frames(2)

    def english_table_has_no_language_button() -> None:
        from kiosk.config import LanguageConfig

        app.use_config(app.cfg.replace(language={"default": "en", "enabled": ["en"]}))
        assert app.cfg.language == LanguageConfig()
        join = open_join(app, sw)
        pad = join.pads[sw]
        assert pad.language == "en" and not pad.can_choose_language
        assert pad.ids.language.height == 0 and pad.ids.language.disabled
        assert "\u2716 Leave" in texts(pad) and not any("English" in t for t in texts(pad)), texts(pad)
        assert button_with_text(join.pads[ne], "Join \u261d")
        app.go_attract()
        frames(2)

    def fit_checker_sees_missing_glyphs() -> None:
        """devtools.fit's ``tofu``: Japanese in a Latin face, a symbol the CJK face lacks; its stand-in is there."""
        from kivy.uix.label import Label

        from devtools.fit import missing_glyphs

        latin = Label(text="日本語 Join", font_size=20)
        latin.texture_update()
        assert missing_glyphs(latin) == "日本語", missing_glyphs(latin)
        if cjk:
            cases = (("参加 \u2714", "\u2714"), ("参加 " + sym("\u2714"), ""), ("退席 " + sym("\u2716"), ""))
            for text, missing in cases:
                label = Label(text=text, font_name=cjk, font_size=20)
                label.texture_update()
                assert missing_glyphs(label) == missing, (text, missing_glyphs(label))

    def picker_in_the_tables_german() -> None:
        from kiosk.shell.howto import players_text

        app.use_config(app.cfg.replace(language={"default": "de", "enabled": ["de", "en"]}))
        app.go_attract()
        frames(2)
        app.leave_attract(sw)
        frames(2)
        picker, de = app.picker, translator("de")
        assert app.sm.current == "picker" and picker.language == "de"
        shown = texts(picker)
        assert "Spiel auswählen" in shown and not any("Choose" in t or "How to play" in t for t in shown), shown
        card = picker.card_widgets["makoto"]
        assert button_with_text(card, "Spielen \u25b6") and button_with_text(card, "? Anleitung"), texts(card)
        assert players_text(app.games["makoto"], de) in texts(card) and "Spieler" in card.players, texts(card)
        assert any("Menü zu mir drehen" in t for t in shown), shown
        tap(button_with_text(card, "? Anleitung"))
        frames(2)
        shown = texts(picker)
        assert "Anleitung: Makoto" in shown and "\u25c0 Zurück" in shown and "Makoto spielen \u25b6" in shown, shown
        screenshot("languages_picker_de")
        tap(button_with_text(picker, "\u25c0 Zurück"))
        frames(2)
        assert "Spiel auswählen" in texts(picker)

    def attract_call_cycles_languages_per_seat() -> None:
        from kiosk.shell.attractscreen import CALL, CALL_LANGUAGE_S

        enabled = ["en", "ja", "de", "fr", "es"]
        app.use_config(app.cfg.replace(language={"default": "fr", "enabled": enabled}))
        app.go_attract()
        frames(2)
        app.director.jump_to("call", None, hold=True)
        frames(2)
        screen = app.attract_screen
        zones = screen.zones

        def calls() -> list[tuple[str, str]]:
            return [(z.language, z.text) for z in zones]

        before = calls()
        # each seat's call in another enabled language (six seats, five languages: the first five all differ)
        assert len({lang for lang, _ in before[:5]}) == 5, before
        for lang, text in before:
            assert lang in enabled and text == translator(lang).gettext(CALL), before
        assert ("ja", "タッチして 遊ぼう！") in before and ("de", "Antippen und mitspielen!") in before, before
        ja_zone = next(z for z in zones if z.language == "ja")
        assert ja_zone.face == cjk
        # the centre in the table's language
        assert sum("Table à sushis" in t for t in texts(screen)) == 2, texts(screen)
        run_for(CALL_LANGUAGE_S * 0.5)
        assert calls() == before, "a call stays a moment in its language"
        run_for(CALL_LANGUAGE_S * 0.6)
        after = calls()
        assert all(a[0] != b[0] for a, b in zip(after, before)), (before, after)
        assert [a[0] for a in after] == [enabled[(enabled.index(b[0]) + 1) % 5] for b in before], (before, after)
        screenshot("languages_attract_call")
        # over a bots' game: its seats and centre in the table's language, the corners' calls in turn
        app.director.jump_to("game", "makoto", hold=True)
        frames(3)
        corners = app.director._calls.calls
        bots = app.director.session
        assert bots.attract and bots.language == "fr" and bots.language_of(sw) == "fr"
        calling = [c for c in corners if not c.warn]  # (the operator's corner may say what the operator must fix)
        assert len(calling) >= 3 and len({c.text for c in calling}) == len(calling), [c.text for c in corners]
        assert {c.text for c in calling} <= {translator(lang).gettext(CALL) for lang in enabled}
        app.director.jump_to("call", None, hold=True)
        frames(2)
        # the resume offer in the table's language
        import datetime
        from types import SimpleNamespace

        from kiosk.shell.attractscreen import offer_question

        offer = SimpleNamespace(
            title="Makoto", last_activity=datetime.datetime(2026, 5, 1, 14, 5), meta={"series": [2, 3]}
        )
        question = offer_question(offer, translator("fr"))
        assert question == "Reprendre le match de Makoto de 14:05 (partie 2 sur 3)\u00a0?", question
        screen.show_offer(question)
        frames(2)
        shown = texts(screen)
        assert shown.count(question) == 2 and shown.count("Reprendre \u25b6") == 2, shown
        assert shown.count("Non, nouvelle partie") == 2, shown
        screen.hide_offer()
        # an operator's own call is shown as written, in every seat
        app.use_config(app.cfg.replace(attract={"text": "Free sushi games!"}))
        app.go_attract()
        frames(2)
        assert {z.text for z in zones} == {"Free sushi games!"}
        app.use_config(app.cfg.replace(language={"default": "en", "enabled": ["en"]}, attract={"text": CALL}))
        app.go_attract()
        frames(2)
        assert {z.text for z in zones} == {"Touch to play!"}

    run_scenarios(
        {
            "fit_checker_sees_missing_glyphs": fit_checker_sees_missing_glyphs,
            "two_seats_two_languages": two_seats_two_languages,
            "english_table_has_no_language_button": english_table_has_no_language_button,
            "picker_in_the_tables_german": picker_in_the_tables_german,
            "attract_call_cycles_languages_per_seat": attract_call_cycles_languages_per_seat,
        },
        out,
    )
    app.stop()


if __name__ == "__main__":
    child_main(Path(sys.argv[1]), Path(sys.argv[2]))
