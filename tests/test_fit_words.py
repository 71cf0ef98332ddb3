"""devtools.fit's ``unmarked`` check under the pseudo-translation (kiosk.i18n.PSEUDO_ENV): which words on screen
no catalog gave, nested messages (a name inside a sentence) included."""

from __future__ import annotations

import os
import subprocess
import sys

from devtools.fit import unmarked_words
from kiosk.i18n import PSEUDO_ENV, PSEUDO_MARKS

L, R = PSEUDO_MARKS


def test_words_outside_the_marks_are_unmarked() -> None:
    assert unmarked_words(f"{L}Join{R} \u261d") == []
    assert unmarked_words(f"{L}Saved as {L}Circle{R}{R}: Score 12, B3") == ["Score"]
    assert unmarked_words("Play \u25b6", {"Play"}) == [] and unmarked_words("Play \u25b6") == ["Play"]
    assert unmarked_words(f"{L}Game over{R} Maki", {"Maki"}) == []
    assert unmarked_words("日本語 ok") == ["日本語", "ok"]
    assert unmarked_words(f"Circle {L}Bot (ra") == ["Circle"]  # shortened to fit its badge: marked up to the cut


def test_pseudo_translation_marks_only_extracted_messages() -> None:
    code = (
        "from kiosk.i18n import translator; t = translator('ja', 'maki'); "
        "print(t.gettext('Join'), '|', t.gettext('never extracted'), '|', t.ngettext('{n} pt', '{n} pts', 2), '|', "
        "t.pgettext('bot level', 'hard'))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=dict(os.environ, **{PSEUDO_ENV: "1"}), capture_output=True, text=True
    )
    assert out.stdout.strip() == f"{L}Join{R} | never extracted | {L}{{n}} pts{R} | {L}hard{R}", out.stderr
