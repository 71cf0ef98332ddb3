"""Every message of a language beside its English and its context, for a native reader to go through.

    python -m devtools.wordreview ja                 every domain (the shell's, then each game's)
    python -m devtools.wordreview de --domain maki   one domain
    python -m devtools.wordreview fr --terms         the language's glossary first (kiosk/locale/glossary.fr.json)

Each message is printed as one block: its domain and number, its context (``msgctxt``), the translators' notes
(``#.``), the English (both forms of a plural) and the translation (each plural form). The last line counts the
messages printed. Read it with the rules of docs/developer/languages.md ("Writing the translations", "Typography")
and the glossary at hand; fix a message in its ``.po`` and compile (``python -m devtools.catalogs compile``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator

from babel.messages.pofile import read_po

from devtools.catalogs import ROOT, TRANSLATED, domains, po_path


def blocks(lang: str, domain: str) -> Iterator[str]:
    """One text block per message of ``domain``'s catalog in ``lang``, in the catalog's order."""
    with open(po_path(domain, lang), "rb") as f:
        catalog = read_po(f, locale=lang)
    number = 0
    for message in catalog:
        if not message.id:
            continue
        number += 1
        lines = [f"[{domain} {number}]" + (f"  context: {message.context}" if message.context else "")]
        lines += [f"  note: {note}" for note in (*message.auto_comments, *message.user_comments)]
        ids = message.id if isinstance(message.id, (list, tuple)) else (message.id,)
        strings = message.string if isinstance(message.string, (list, tuple)) else (message.string,)
        for n, text in enumerate(ids):
            lines.append(f"  en{f'[{n}]' if len(ids) > 1 else ''}: {text}")
        for n, translated in enumerate(strings):
            lines.append(f"  {lang}{f'[{n}]' if len(strings) > 1 else ''}: {translated or ''}")
        yield "\n".join(lines)


def glossary_lines(lang: str) -> Iterator[str]:
    """The language's glossary: each English term, its translation and what it means."""
    terms = json.loads((ROOT / "kiosk" / "locale" / "glossary.en.json").read_text(encoding="utf-8"))
    words = json.loads((ROOT / "kiosk" / "locale" / f"glossary.{lang}.json").read_text(encoding="utf-8"))
    for key, term in terms["terms"].items():
        where = ", ".join(term["scope"])
        yield f"{' / '.join(term['en'])} ({where}): {words['terms'][key]['term']}  - {term['means']}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("language", choices=TRANSLATED)
    parser.add_argument("--domain", choices=domains(), action="append", help="one domain (default: every one)")
    parser.add_argument("--terms", action="store_true", help="print the language's glossary first")
    args = parser.parse_args(argv)
    if args.terms:
        print("\n".join(glossary_lines(args.language)), end="\n\n")
    count = 0
    for domain in args.domain or domains():
        for block in blocks(args.language, domain):
            print(block)
            count += 1
    print(f"{count} messages in {args.language}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
