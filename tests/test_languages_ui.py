"""Every seat in its own language, in the real kiosk (one child process, as in tests/conftest.py): two seats'
join pads in Deutsch and 日本語 with their own texts and faces, the choice kept by the game, its seat menu and
"Play again"; and a table that never touches languages sees English and no language button."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import build_app, button_with_text, buttons, frames, run_child, run_scenarios, screenshot, tap

pytestmark = pytest.mark.ui
#: The child's bound (real seconds: a hung child; the scenarios run on virtual time); the file's is a minute more.
CHILD_S = 300

HERE = Path(__file__).resolve()
SCENARIOS = ["two_seats_two_languages", "english_table_has_no_language_button", "fit_checker_sees_missing_glyphs"]


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

    run_scenarios(
        {
            "fit_checker_sees_missing_glyphs": fit_checker_sees_missing_glyphs,
            "two_seats_two_languages": two_seats_two_languages,
            "english_table_has_no_language_button": english_table_has_no_language_button,
        },
        out,
    )
    app.stop()


if __name__ == "__main__":
    child_main(Path(sys.argv[1]), Path(sys.argv[2]))
