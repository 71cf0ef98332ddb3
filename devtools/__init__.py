"""Test and benchmark tooling, kept out of the installed kiosk (the wheel ships ``kiosk``, ``hardware`` and
``layouts`` only): the touch driver (:mod:`devtools.touchplay`), the widget-tree fit checker
(:mod:`devtools.fit`) and the screenshot tour (``python -m devtools.shots``). ``test.sh`` puts this folder, alone,
on the tests' import path; from a checkout's top folder it imports as is."""
