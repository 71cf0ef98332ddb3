"""Every word a seat reads comes from a catalog, through a whole game: the project's "every word on screen comes from
a catalog" check (the pseudo-translation, ``devtools.fit.check_tree(..., pseudo=...)``, as ``python -m devtools.shots
--fit --pseudo`` walks the screens) extended to refusals, the end of a game and the high scores. Each game is played
in the real kiosk (one child process, as tests/conftest.py) with every seat in Japanese, and with one seat in each of
Japanese, German, French and Spanish: each human seat is refused a move (out of turn, and one of another step), the
game is played to its end by the game's own bots deciding for the humans (the screens read every
:data:`READ_EVERY` moves), and the results with the high scores are shown; any word on screen that no catalog gave
fails the test."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import build_app, frames, run_child, run_scenarios, run_until, tick

pytestmark = [pytest.mark.ui, pytest.mark.slow]
HERE = Path(__file__).resolve()
CHILD_S = 900
GAMES = ["maki", "wasabi", "makoto", "takoyaki"]
TABLES = {"all_japanese": ["ja", "ja", "ja", "ja"], "four_languages": ["ja", "de", "fr", "es"]}
SCENARIOS = [f"{key}_{table}" for key in GAMES for table in TABLES]
#: Every this many moves the screens are redrawn and every word on them read (the last moves' box, each seat's
#: prompt, its buttons, its tray). Between readings the moves are applied without a redraw: a redraw is what a
#: move costs here (a 150-move game redrawn after every move took a minute), and an unread redraw checks nothing.
READ_EVERY = 8


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return run_child(HERE, tmp_path_factory.mktemp("every-word"), timeout=CHILD_S, env={"KIOSK_PSEUDO_LOCALE": "1"})


@pytest.mark.parametrize("name", SCENARIOS)
def test_scenario(results: dict[str, Any], name: str) -> None:
    assert name in results, f"scenario {name} did not run; results: {sorted(results)}"
    assert results[name] == "ok", results[name]


# =============================================================================================== child
def child_main(tmp: Path, out: Path) -> None:
    from kivy.core.window import Window

    from devtools.fit import check_tree
    from devtools.shots import ALLOWED
    from kiosk.ai import make_bot
    from kiosk.engine import RuleError

    app = build_app(
        tmp / "state",
        bots={"move_delay_s": 0.0, "default_level": "easy"},
        timeouts={"initials_s": 1.0},  # the initials' time runs out at once: the boards with the scores saved
        language={"default": "ja", "enabled": ["en", "ja", "de", "fr", "es"]},
    )
    allowed = ALLOWED | {spec.title.rstrip("!") for spec in app.games.values()}
    positions = ["south-west", "north-east", "west", "east"]

    def unmarked(what: str) -> list[str]:
        tick(2)
        return [f"{what}: {p}" for p in check_tree(Window, pseudo=allowed)]

    def play(key: str, languages: list[str]) -> None:
        spec = app.games[key]
        players = min(4, spec.max_players)
        chairs = sorted(app.table.by_position(p).index for p in positions[:players])
        seed = 11
        state = spec.new_game(players, seed)
        seats = state.seating([(i, None) for i in chairs])
        own = {str(i): languages[k] for k, i in enumerate(chairs)}
        app.launcher.launch(spec, state, seats, seed, None, {"languages": own})
        frames(3)
        session = app.session
        assert session is not None and session.spec.key == key
        assert sorted(session.languages.values()) == sorted(languages[:players]), session.languages
        found = unmarked(f"{key}: the start")
        deciders = {g: make_bot(spec, "easy", g, seed + g, app.bot_iterations) for g in range(players)}
        refused: set[int] = set()
        moves = 0
        for _ in range(3000):
            state = session.state
            if state.is_over() or app.mode != "game":
                break
            movers = state.to_move()
            for g in range(players):  # each seat once: a move out of turn, or one of another step
                if g in refused:
                    continue
                other = [a for m in movers if m != g for a in state.legal_actions(m)[:1]]
                mine = set(state.legal_actions(g)) if g in movers else set()
                wrong = [a for a in other if a not in mine]
                if wrong:
                    before = state.fingerprint()
                    errors: list[RuleError] = []
                    session.bind(on_error=lambda _s, _g, e, errors=errors: errors.append(e))
                    assert not session.apply(g, wrong[0])
                    assert errors and state.fingerprint() == before
                    refused.add(g)
                    found += unmarked(f"{key}: seat {g} ({languages[chairs.index(session.seats[g].index)]}) "
                                      f"refused {errors[0]}")  # fmt: skip
            g = movers[0]
            session.apply(g, deciders[g].choose(state.clone()))
            moves += 1
            if moves % READ_EVERY == 0:  # the screens redrawn and read, every seat in its language
                found += unmarked(f"{key}: after move {moves}")
        assert session.state.is_over(), f"{key} did not end"
        assert refused, "no refusal was shown"
        run_until(lambda: app.mode == "results", 5.0, f"{key}: the results")
        entering = [p for p in app.results.pads.values() if p.entering]
        assert entering, "no seat enters its initials"
        found += unmarked(f"{key}: the results")
        run_until(lambda: not any(p.entering for p in entering), 5.0, f"{key}: the initials' time out")
        found += unmarked(f"{key}: the high scores")
        assert not found, "\n".join(found)
        app.go_attract()
        frames(3)

    scenarios = {
        f"{key}_{table}": (lambda key=key, languages=languages: play(key, languages))
        for key in GAMES
        for table, languages in TABLES.items()
    }
    run_scenarios(scenarios, out)
    app.stop()


if __name__ == "__main__":
    child_main(Path(sys.argv[1]), Path(sys.argv[2]))
