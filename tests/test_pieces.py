"""The picture atlas, the type scale, Makoto card geometry, the piece widgets and the widget-tree fit checker.

The atlas and geometry tests run here; the widgets and the checker need a real Kivy window, so they run in a
child process per window size (``pieces_child.py``; Kivy allows one window per process and ``test_ui.py``
owns this one's). The child's gallery of pieces is saved as ``artifacts/pieces_WxH.png`` for a human to look at.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kiosk.games import GAMES, pictures_of
from kiosk.games.makoto.cards import CARD_ASPECT, DIGIT_EM, card_number_size, row_layout
from kiosk.ui import pictures
from kiosk.ui.typescale import SCALE, min_target_px, min_text_px, px

ARTIFACTS = Path(os.environ.get("KIOSK_ARTIFACTS", Path(__file__).resolve().parents[1] / "artifacts"))
SIZES = [(1920, 1080), (1280, 800)]
#: The widget child's bound (real seconds: a hung child; its animations run on virtual time); the file's is a
#: minute more (conftest).
CHILD_S = 600


# ------------------------------------------------------------------------------------------------ the atlas
@pytest.fixture(autouse=True)
def registered() -> None:
    """The picture table as the app's build hands it to the kit: the shell's and every registered game's."""
    pictures.use_pictures(pictures_of(GAMES))


@pytest.fixture()
def fresh(monkeypatch: pytest.MonkeyPatch) -> Any:
    pictures.reset()
    yield
    pictures.reset()


def test_atlas_has_every_picture_in_colour(tmp_path: Path, fresh: None) -> None:
    from PIL import Image

    assert pictures.font_path().is_file(), "test.sh installs fonts-noto-color-emoji"
    atlas = pictures.ensure_atlas(tmp_path)
    assert atlas == tmp_path / "pieces.atlas"
    index = json.loads(atlas.read_text())["pieces.png"]
    assert set(index) == set(pictures.PICTURES)
    sheet = Image.open(tmp_path / "pieces.png").convert("RGBA")
    in_colour: set[str] = set()
    for name, (x, y, w, h) in index.items():
        # Kivy's atlas y counts from the bottom; Pillow's from the top
        cell = sheet.crop((x, sheet.height - y - h, x + w, sheet.height - y))
        raw = cell.tobytes()  # RGBA bytes (getdata is going away in Pillow 14)
        pixels = [tuple(raw[i : i + 4]) for i in range(0, len(raw), 4)]
        inked = sum(1 for p in pixels if p[3] > 128)
        assert inked > 0.15 * w * h, f"{name}: only {inked} inked pixels"
        hues = {p[:3] for p in pixels if p[3] > 200}
        if sum(1 for c in hues if max(c) - min(c) > 40) > 3:
            in_colour.add(name)
    grey = set(index) - in_colour  # a few are grey by nature (a steel knife, a white plate, a rice ball)
    assert len(grey) <= 4, f"rendered without colour (embedded_color?): {sorted(grey)}"
    assert pictures.picture("Cream Cheese").endswith("/pieces/cream_cheese")
    assert pictures.picture("no such thing") == ""


def test_atlas_is_reused_and_rebuilt_when_stale(tmp_path: Path, fresh: None) -> None:
    atlas = pictures.ensure_atlas(tmp_path)
    assert atlas is not None
    built = (tmp_path / "pieces.png").stat().st_mtime_ns
    pictures.reset()
    assert pictures.ensure_atlas(tmp_path) == atlas
    assert (tmp_path / "pieces.png").stat().st_mtime_ns == built, "an up-to-date atlas is not rendered again"
    (tmp_path / "stamp").write_text("an older picture table")
    pictures.reset()
    assert pictures.ensure_atlas(tmp_path) == atlas
    assert (tmp_path / "stamp").read_text() != "an older picture table"
    assert not list(tmp_path.glob(".*.tmp")), "no temporary files left behind"


def test_no_font_means_shapes_not_a_crash(tmp_path: Path, fresh: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KIOSK_EMOJI_FONT", str(tmp_path / "missing.ttf"))
    monkeypatch.setenv("KIVY_HOME", str(tmp_path / "home"))
    assert pictures.ensure_atlas() is None
    assert pictures.picture("Salmon") == ""
    (tmp_path / "broken.ttf").write_bytes(b"not a font")
    monkeypatch.setenv("KIOSK_EMOJI_FONT", str(tmp_path / "broken.ttf"))
    pictures.reset()
    assert pictures.ensure_atlas() is None
    assert pictures.main([str(tmp_path / "x")]) == 1


def test_atlas_lives_in_the_state_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KIVY_HOME", str(tmp_path / "kivy"))
    assert pictures.cache_dir() == tmp_path / "kivy" / "pictures"
    monkeypatch.delenv("KIVY_HOME")
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    assert pictures.cache_dir() == tmp_path / "state" / "kivy" / "pictures", "where the kiosk sets KIVY_HOME"


def test_every_ingredient_of_both_games_has_a_picture() -> None:
    import kiosk.games

    root = Path(kiosk.games.__file__).parent
    kinds: set[str] = set()
    for game, section in (("maki", "pantry"), ("wasabi", "categories")):
        data = json.loads((root / game / "cards.json").read_text())
        for cat, members in data[section].items():
            if not cat.startswith("_"):
                kinds |= set(members)
    assert len(kinds) > 20, "the card data lists ingredients"
    missing = sorted(k for k in kinds if not pictures.has_picture(k))
    assert not missing, f"no picture for {missing}"
    wasabi = json.loads((root / "wasabi" / "cards.json").read_text())
    for card in [k for k in wasabi["action_cards"]["4"] if not k.startswith("_")]:
        assert pictures.has_picture(card), card


# ------------------------------------------------------------------------------------------------ type and cards
@pytest.mark.parametrize("size", SIZES)
def test_type_scale_meets_the_minimums(size: tuple[int, int]) -> None:
    u = min(size) / 1080
    for step in SCALE:
        if step != "tiny":
            assert px(step, u) >= min_text_px(size), f"{step} is {px(step, u):.1f} px at {size}"
    assert 60 * u >= min_target_px(size) - 0.5
    assert min_text_px((1920, 1080)) == 18 and min_text_px((1280, 800)) == 14
    assert min_target_px((1920, 1080)) == 60 and min_target_px((1280, 800)) == 44


@given(
    n=st.integers(1, 20),
    width=st.floats(120, 2000),
    height=st.floats(40, 500),
    min_step=st.sampled_from([44.0, 60.0]),
)
def test_card_rows_fit_and_keep_every_number(n: int, width: float, height: float, min_step: float) -> None:
    cw, ch, step, per_row = row_layout(n, width, height, min_step=min_step)
    rows = math.ceil(n / per_row)
    assert rows <= 2
    assert cw <= width + 1e-6 and cw <= ch * CARD_ASPECT + 1e-6, "cards keep their proportions and the box"
    assert (per_row - 1) * step + cw <= width + 1e-6, "the row stays in its box"
    assert rows * ch + (rows - 1) * 4 <= height + 1e-6
    if per_row > 1 and step >= min_step:
        assert step >= min_step
    # the number always fits the part of the card in view
    shown = cw if step >= cw else step
    for digits in (1, 2) if shown >= 4 else ():  # (a box too small for any card: the checker flags its text)
        assert card_number_size(shown, ch * 0.9, digits) * DIGIT_EM * digits <= shown * 0.8 + 1e-6


def test_a_hand_of_eighteen_wraps_rather_than_squeezes() -> None:
    cw, ch, step, per_row = row_layout(18, 560 * 0.74, 220 * 0.74, min_step=44)
    assert per_row == 9 and step >= 44
    cw, _, step, per_row = row_layout(6, 900, 100, min_step=44)
    assert per_row == 6 and step > cw, "cards that fit side by side do not overlap"


# ------------------------------------------------------------------------------------------------ widgets (child)
@pytest.fixture(scope="module", params=SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def child(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    assert os.environ.get("DISPLAY"), "UI tests need a display: run them under xvfb-run (see test.sh)"
    w, h = request.param
    tmp = tmp_path_factory.mktemp(f"pieces{w}")
    out = tmp / "result.json"
    env = dict(os.environ, KIVY_HOME=str(tmp / "kivy"), SDL_AUDIODRIVER="dummy")
    proc = subprocess.run(
        [sys.executable, str(Path(__file__).with_name("pieces_child.py")), str(out), f"{w}x{h}"],
        env=env,
        capture_output=True,
        text=True,
        timeout=CHILD_S,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    ARTIFACTS.mkdir(exist_ok=True)
    shutil.copy(tmp / f"pieces_{w}x{h}.png", ARTIFACTS / f"pieces_{w}x{h}.png")
    result: dict[str, Any] = json.loads(out.read_text())
    assert result["window"] == [w, h]
    return result


@pytest.mark.ui
def test_checker_on_hand_made_trees(child: dict[str, Any]) -> None:
    assert child["good"] == [], "a tree that fits has no findings"
    assert child["cut_label"] == ["cut"], "a label too narrow for its text"
    assert child["cut_lines"] == ["cut"], "lines Kivy drops at the bottom of a text_size box"
    assert child["broken_word"] == ["cut"], "a word broken across two lines"
    assert child["shortened"] == ["cut"], "text shortened with an ellipsis"
    assert child["small_text"] == ["small_text"]
    assert child["fine_print"] == [], "fine print is held only to fitting"
    assert child["small_target"] == ["small_target"], "the 28x59 letter arrow"
    assert child["disabled_target"] == []
    assert child["overlap"] == ["overlap"]
    assert child["hidden"] == [], "invisible widgets are not checked"
    assert child["ok_button"] == ["cut", "small_target"], "OK drawn as O over K, in a narrow button"


@pytest.mark.ui
def test_makoto_cards_show_their_whole_number(child: dict[str, Any]) -> None:
    assert child["row_problems"] == [], "the card rows pass the checker"
    for card in child["row_cards"]:
        assert card["number_text"] == card["text"], "the corner shows the card's whole number"
        room = card["corner"] or card["card_w"]
        assert card["number_w"] <= room, f"{card['text']} is {card['number_w']} px wide in {room:.0f} px"
    assert [c["text"] for c in child["row_cards"][:3]] == ["13", "12", "10"]
    assert child["hand_rows"] == 2, "eighteen cards wrap onto two rows"
    assert child["lone_number"]["w"] <= child["lone_number"]["card_w"], "even a too-narrow card keeps its number"


@pytest.mark.ui
def test_pieces_are_pictures_with_their_cues(child: dict[str, Any]) -> None:
    assert child["atlas"], "the atlas was built in the child's KIVY_HOME"
    rice, salmon, cup, empty, crab = child["tile_sources"]
    assert rice.endswith("/rice") and salmon.endswith("/salmon") and cup.endswith("/teacup") and crab.endswith("/crab")
    assert empty == ""
    assert child["tile_symbols"] == ["R", "F", "CUP", "", "S"], "category symbols, not only colours"
    assert [s.rsplit("/", 1)[1] for s in child["recipe_sources"]] == ["salmon", "rice"]
    # the order card: unheated (left) half raw, heated (right) half fried
    for colour, fried, letter in child["order_balls"]:
        assert letter == {1: "R", 2: "G", 3: "B"}[colour] if fried else letter == {1: "r", 2: "g", 3: "b"}[colour]
    assert [f for _, f, _ in child["order_balls"]] == [False, True, False, True, False, True]
    assert child["ball_letters"] == [["r", False], ["R", True], ["g", False], ["B", True]]


@pytest.mark.ui
def test_title_banner_and_motion_that_never_delays_input(child: dict[str, Any]) -> None:
    assert child["banner_problems"] == []
    assert child["banner_sources"] == ["game_maki", "game_wasabi", "game_makoto", "game_takoyaki"]
    assert child["ghosts_in_flight"] == 1 and 0 <= child["flip_during"] < 1, "the tile flies, the card flips"
    assert child["ghosts_mid"] == 1 and 0 < child["flip_mid"] < 1, "still flying and flipping 150 ms in"
    assert child["ghost_on_top"] == "Ghost"
    assert child["pressed_during_flight"] == 1, "a touch under a flying piece acts at once"
    assert child["ghosts_after"] == 0 and child["flip_after"] == 1, "animations end within 400 ms and clean up"
