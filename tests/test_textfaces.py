"""kiosk.ui.textfaces: Kivy's SDL2 text provider drawing every size of a font from one open face per font file.

The same texts are measured and drawn by Kivy's own provider (a face opened per size) and through one face per
file, in a child process (Kivy's text provider needs no window): every picture must be the same, byte for byte, in
each face the table uses (Inter, DejaVu, Noto Sans CJK; regular and bold), at sizes visited out of order (a face
set back to a size it had before), plain and marked up, in colour, outlined, underlined, wrapped, solid.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

CHILD = textwrap.dedent(
    """
    import hashlib, json, sys
    from kivy.core.text import Label, LabelBase
    from kivy.core.text.markup import MarkupLabel
    from kiosk.ui import textfaces

    fonts = json.loads(sys.argv[1])
    texts = ["Touch to play!", "日本語で遊ぶ、タッチしてください", "Größenänderung ÄÖÜ ß", "0:12.3 ✓ × ★",
             "Wasabi! [b]bold[/b] [i]italic[/i] [u]under[/u] [s]struck[/s] [size=30]big[/size] [sup]1[/sup]"]
    looks = [{}, {"color": (1, 0.5, 0.2, 0.6)}, {"outline_width": 2, "outline_color": (0, 0, 1, 1)},
             {"underline": True, "strikethrough": True}, {"text_size": (150, None), "halign": "center"},
             {"font_blended": False}, {"bold": True}]
    plain_only = [{"font_hinting": "light"}, {"font_hinting": None}, {"font_kerning": False}]

    class Capture:  # stands in for the label's texture: keeps what Kivy would upload
        data = None
        def blit_data(self, data):
            self.data = data

    def draw():
        out = []
        for name, (regular, bold) in fonts.items():
            LabelBase.register(name, regular, fn_bold=bold)
            for size in (11, 19, 26, 19, 44, 80, 26):
                for text in texts:
                    for cls in (Label, MarkupLabel):
                        for look in looks + (plain_only if cls is Label else []):
                            label = cls(text=text, font_name=name, font_size=size, **look)
                            label.resolve_font_name()
                            w, h = label.render()
                            label._size, label.texture = (w, h), Capture()
                            label.render(real=True)
                            data = label.texture.data
                            digest = hashlib.sha1(data.data).hexdigest() if data else ""
                            out.append([name, size, text, cls.__name__, repr(look), w, h, digest])
        return out

    assert textfaces.install()
    textfaces.uninstall()
    kivys = draw()
    assert textfaces.install() and textfaces.installed()
    ours = draw()
    print(json.dumps({"kivy": kivys, "ours": ours, "open": textfaces.open_faces()}))
    """
)


def _faces() -> dict[str, list[str | None]]:
    from kiosk.i18n import CJK_PATH
    from kiosk.ui.typescale import DEJAVU_BOLD, inter_paths

    dejavu = Path(DEJAVU_BOLD).with_name("DejaVuSans.ttf")
    faces: dict[str, list[str | None]] = {}
    inter = inter_paths()
    if inter:
        faces["Inter"] = [str(inter[0]), str(inter[1])]
    if dejavu.is_file():
        faces["DejaVu"] = [str(dejavu), str(DEJAVU_BOLD) if DEJAVU_BOLD.is_file() else None]
    if CJK_PATH.is_file():
        bold = CJK_PATH.with_name("NotoSansCJK-Bold.ttc")
        faces["CJK"] = [str(CJK_PATH), str(bold) if bold.is_file() else None]
    return faces


@pytest.fixture(scope="module")
def drawn(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    faces = _faces()
    assert {"Inter", "DejaVu", "CJK"} <= set(faces), "test.sh installs fonts-inter, fonts-dejavu-core, fonts-noto-cjk"
    env = dict(
        os.environ,
        KIVY_NO_ARGS="1",
        KIVY_NO_CONSOLELOG="1",
        KIVY_NO_FILELOG="1",
        KIVY_HOME=str(tmp_path_factory.mktemp("kivy")),
        SDL_AUDIODRIVER="dummy",
    )
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, json.dumps(faces)],
        env=env,
        cwd=env["KIVY_HOME"],  # the installed kiosk, not the checkout's
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    result: dict[str, object] = json.loads(proc.stdout.splitlines()[-1])
    return result


def test_every_text_is_drawn_as_kivy_draws_it(drawn: dict[str, list[list[object]]]) -> None:
    kivys, ours = drawn["kivy"], drawn["ours"]
    assert len(kivys) == len(ours) > 1000
    differ = [(k[:5], k[5:], o[5:]) for k, o in zip(kivys, ours, strict=True) if k != o]
    assert differ == [], f"{len(differ)} texts drawn otherwise, e.g. {differ[:3]}"
    assert all(k[7] for k in kivys if k[5] > 1 and k[6] > 1), "every text with a size was drawn"
    japanese = {tuple(k[5:]) for k in kivys if k[0] == "CJK" and "日本語" in str(k[2])}
    assert len(japanese) > 10, "the CJK face drew Japanese in many sizes and looks"


def test_one_open_face_per_font_file(drawn: dict[str, dict[str, int]]) -> None:
    """Seven sizes of each face and weight were drawn, each weight's from its own file, all from one open face
    per file (left at the size last drawn: 26, or 13 where a marked-up text ends in a superscript)."""
    files = {f for pair in _faces().values() for f in pair if f}
    assert set(drawn["open"]) == files
    assert set(drawn["open"].values()) <= {26, 13}
