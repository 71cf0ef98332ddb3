"""Every language's catalogs, every domain (the shell's ``kiosk`` and each game folder with a ``babel.cfg``):
extract the template, update (or start) each language's ``.po`` from it, compile the ``.mo`` (Babel's own
``pybabel`` commands, run from Python).

    python -m devtools.catalogs                  extract, update and compile every domain; then what is untranslated
    python -m devtools.catalogs compile          compile only (after translating)
    (either also writes kiosk/locale/numbers.json: each language's decimal mark, from Babel)
    python -m devtools.catalogs --domain maki    one domain

Run it with the kiosk importable (``./.venv/bin/python``: the kv and how-to extractors live in kiosk.i18n).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po

from kiosk.i18n import DOMAIN, LANGUAGES, SOURCE

ROOT = Path(__file__).resolve().parents[1]
TRANSLATED = [lang for lang in LANGUAGES if lang != SOURCE]


def domains() -> list[str]:
    """The checkout's domains: the shell's, then each game folder holding a ``babel.cfg`` (as kiosk.i18n.domains
    finds them in the installed kiosk)."""
    return [DOMAIN, *sorted(p.parent.name for p in (ROOT / "kiosk" / "games").glob("*/babel.cfg"))]


def locale_dir(domain: str) -> Path:
    """A domain's catalogs in the checkout (kiosk.i18n.locale_dir: in the installed kiosk)."""
    return ROOT / "kiosk" / "locale" if domain == DOMAIN else ROOT / "kiosk" / "games" / domain / "locale"


def source_root(domain: str) -> Path:
    """Where a domain's ``babel.cfg`` sits and its paths start: the checkout's top, or the game's folder."""
    return ROOT if domain == DOMAIN else ROOT / "kiosk" / "games" / domain


def template(domain: str) -> Path:
    return locale_dir(domain) / f"{domain}.pot"


def po_path(domain: str, lang: str) -> Path:
    return locale_dir(domain) / lang / "LC_MESSAGES" / f"{domain}.po"


def pybabel(*args: str) -> None:
    CommandLineInterface().run(["pybabel", "--quiet", *args])


def extract(domain: str) -> None:
    """The template, sorted by message and without source locations (so that two changes merge cleanly)."""
    root = source_root(domain)
    template(domain).parent.mkdir(parents=True, exist_ok=True)
    pybabel(
        "extract", "-F", str(root / "babel.cfg"), "-o", str(template(domain)), "--project", "sushi-table-kiosk",
        "--no-wrap", "--no-location", "--sort-output", "--add-comments", "TRANSLATORS:", "--omit-header", str(root),
    )  # fmt: skip


def update(domain: str) -> None:
    """Each language's ``.po`` from the template (a new one started); the header keeps its dates (only the
    messages change, so that two changes merge cleanly)."""
    for lang in TRANSLATED:
        if po_path(domain, lang).is_file():
            before = po_path(domain, lang).read_text(encoding="utf-8")
            pybabel(
                "update", "-i", str(template(domain)), "-d", str(locale_dir(domain)), "-D", domain, "-l", lang,
                "--no-wrap", "--no-fuzzy-matching", "--ignore-obsolete",
            )  # fmt: skip
            after = po_path(domain, lang).read_text(encoding="utf-8")
            dated = re.compile(r'^"POT-Creation-Date: .*$', re.M)
            if (old := dated.search(before)) is not None:
                po_path(domain, lang).write_text(dated.sub(lambda _m: old.group(0), after, count=1), encoding="utf-8")
        else:
            pybabel("init", "-i", str(template(domain)), "-d", str(locale_dir(domain)), "-D", domain, "-l", lang,
                    "--no-wrap")  # fmt: skip


def compile_(domain: str) -> None:
    for lang in TRANSLATED:
        if po_path(domain, lang).is_file():
            pybabel("compile", "-d", str(locale_dir(domain)), "-D", domain, "-l", lang)


def write_numbers() -> None:
    """``kiosk/locale/numbers.json``: each language's decimal mark as Babel (CLDR) has it, so that the kiosk writes
    plain numbers without loading Babel's locale data (kiosk.i18n.Translator.number)."""
    from babel.numbers import get_decimal_symbol

    marks = {lang: {"decimal": get_decimal_symbol(lang)} for lang in LANGUAGES}
    path = ROOT / "kiosk" / "locale" / "numbers.json"
    path.write_text(json.dumps(marks, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")


def untranslated(domain: str) -> list[str]:
    lines = []
    for lang in TRANSLATED:
        if not po_path(domain, lang).is_file():
            continue
        with open(po_path(domain, lang), "rb") as f:
            catalog = read_po(f, locale=lang)
        todo = [
            m.id
            for m in catalog
            if m.id and (m.fuzzy or not all(m.string if isinstance(m.string, tuple) else [m.string]))
        ]
        if todo:
            lines.append(f"{domain}/{lang}: {len(todo)} to translate, first {todo[0]!r}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("step", nargs="?", choices=["all", "compile"], default="all")
    parser.add_argument("--domain", choices=domains(), action="append", help="one domain (default: every one)")
    args = parser.parse_args(argv)
    todo: list[str] = []
    for domain in args.domain or domains():
        if args.step == "all":
            extract(domain)
            update(domain)
        compile_(domain)
        todo += untranslated(domain)
    write_numbers()
    print("\n".join(todo) or "every message translated in every language")
    return 1 if todo else 0


if __name__ == "__main__":
    sys.exit(main())
