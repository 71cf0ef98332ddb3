"""A fifth game is one folder: a throwaway game (rules and ``SPEC``, no screen, no how-to, no bots module) in a
temporary folder named by ``$KIOSK_GAMES_PATH`` shows up in the picker with a generic how-to, joins like any
game, and is played to its results on the generic screen, by touch, with nothing else edited.

The game is Nim: a pile of sticks, each turn take one to three, whoever takes the last stick wins. Its folder is
written by the pytest side; the kiosk runs in a child process (see ``conftest.py``) started with the variable set.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from conftest import (
    build_app,
    button_with_text,
    buttons,
    frames,
    run_child,
    run_scenarios,
    run_until,
    tap,
    touch_down,
    touch_up,
    window_point,
)

pytestmark = pytest.mark.ui
#: The child's bound (real seconds: a hung child; the scenarios run on virtual time); the file's is a minute more.
CHILD_S = 600

HERE = Path(__file__).resolve()
SCENARIOS = [
    "listed_in_picker_with_generic_howto",
    "joins_and_plays_on_generic_screen",
    "attract_plays_it",
    "the_touch_driver_plays_it_with_no_driver_of_its_own",
]

NIM = '''
"""Nim: a pile of sticks; each turn take 1 to 3; whoever takes the last stick wins."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from kiosk.engine import Action, Event, GameSpec, RuleError, State, action_codec


@dataclass(frozen=True, slots=True)
class Take(Action):
    n: int


class NimState(State):
    def __init__(self, players: int, seed: int) -> None:
        super().__init__(players, seed)
        self.pile = 7 + 2 * players
        self.turn = 0
        self.winner: int | None = None

    def to_move(self) -> list[int]:
        return [] if self.is_over() else [self.turn]

    def legal_actions(self, seat: int) -> list[Action]:
        if seat != self.turn or self.is_over():
            return []
        return [Take(n) for n in (1, 2, 3) if n <= self.pile]

    def _apply(self, seat: int, action: Action) -> list[Event]:
        if action not in self.legal_actions(seat):
            raise RuleError(f"{action} is not legal for seat {seat} now")
        assert isinstance(action, Take)
        self.pile -= action.n
        events = [Event("took", seat, {"sticks": action.n, "left": self.pile})]
        if self.pile == 0:
            self.winner = seat
            events.append(Event("game_over", seat, {}))
        else:
            self.turn = (self.turn + 1) % self.players
        return events

    def is_over(self) -> bool:
        return self.winner is not None

    def scores(self) -> list[int]:
        return [1 if s == self.winner else 0 for s in range(self.players)]

    def winners(self) -> list[int]:
        return [] if self.winner is None else [self.winner]

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"pile": self.pile, "turn": self.turn}

    def determinize(self, seat: int, rng: random.Random) -> State:
        return self.clone()

    def clone(self) -> State:
        other = NimState.__new__(NimState)
        self.copy_base_into(other)
        other.pile, other.turn, other.winner = self.pile, self.turn, self.winner
        return other


class FirstBot:
    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat

    def choose(self, state: State) -> Action:
        return state.legal_actions(self.seat)[0]


SPEC = GameSpec(
    key="nim",
    title="Nim",
    min_players=2,
    max_players=3,
    new_game=NimState,
    action_from_json=action_codec(Take),
    bots={"easy": FirstBot},
)
'''


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("fifth-game")
    folder = tmp / "games" / "nim"
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text(textwrap.dedent(NIM).lstrip(), encoding="utf-8")
    return run_child(HERE, tmp, timeout=CHILD_S, env={"KIOSK_GAMES_PATH": str(tmp / "games")})


@pytest.mark.parametrize("name", SCENARIOS)
def test_scenario(results: dict[str, Any], name: str) -> None:
    assert name in results, f"scenario {name} did not run; results: {sorted(results)}"
    assert results[name] == "ok", results[name]


# =============================================================================================== child
def child_main(tmp: Path, out: Path) -> None:
    app = build_app(tmp / "state", bots={"move_delay_s": 0.02, "default_level": "easy"})
    sw = app.table.by_position("south-west").index

    def listed_in_picker_with_generic_howto() -> None:
        from kiosk.ui.game import GenericGameScreen

        assert list(app.games)[:4] == ["maki", "wasabi", "makoto", "takoyaki"] and "nim" in app.games
        app.leave_attract(sw)
        frames(2)
        card = app.picker.card_widgets["nim"]
        assert card.title == "Nim" and card.players == "2-3 players" and card.symbol
        tap(button_with_text(card, "? How to play"))
        assert app.picker.howto_key == "nim"
        assert "Nim is for 2-3 players" in app.picker.howto_text, app.picker.howto_text
        app.picker.close_howto()
        assert isinstance(app.launcher.screen_for("nim"), GenericGameScreen)

    def joins_and_plays_on_generic_screen() -> None:
        if app.mode != "menu":
            app.leave_attract(sw)
            frames(2)
        tap(button_with_text(app.picker.card_widgets["nim"], "Play \u25b6"))
        join = app.join_screen
        assert app.sm.current == "join" and join.title == "Nim" and join.match_choices == []
        west = app.table.by_position("west").index
        tap(button_with_text(join.pads[west], "+ Add a bot here"))
        app.launcher.rng.seed(3)  # the game's seed (who starts): the launcher draws it from its own generator
        tap(button_with_text(join.pads[sw], "Start \u25b6"))
        session = app.session
        assert app.mode == "game" and session is not None and session.spec.key == "nim"
        screen = app.sm.current_screen
        assert app.sm.current == "game:generic", app.sm.current
        g = session.game_seat_of(sw)
        panel = screen.panels[sw]
        while not session.state.is_over():
            run_until(lambda: session.state.is_over() or g in session.state.to_move(), 5, "the human's turn")
            if session.state.is_over():
                break
            frames(1)
            before = len(session.state.journal)
            tray = panel.ids.tray
            hold = touch_down(*window_point(tray, 0.5, 0.9))  # one finger holds the private tray open
            assert tray.is_open
            choices = [b for b in buttons(tray) if b.text and b.text in panel.labels and b.text.startswith("Take")]
            assert choices, (panel.labels, [b.text for b in buttons(tray)])
            tap(choices[0])
            touch_up(hold)
            assert len(session.state.journal) > before, "the touched action was applied"
        run_until(lambda: app.mode == "results", 10, "the results")
        assert app.results.game_key == "nim"

    def attract_plays_it() -> None:
        app.go_attract()
        frames(1)
        assert ("game", "nim") in app.director.steps() and ("boards", "nim") in app.director.steps()
        app.director.stop()  # hold the cycle on this step: the bots' game of Nim, now
        app.director.rng.seed(4)  # the bots' game's seed: attract mode draws it from its own generator
        session = app.director.start_game("nim")
        assert app.sm.current == "game:generic" and session.attract
        run_until(lambda: session.state.is_over(), 20, "the bots' game of Nim")
        assert sum(session.state.scores()) == 1
        app.director.stop_game()

    def the_touch_driver_plays_it_with_no_driver_of_its_own() -> None:
        """The touch driver plays a whole game of the fifth game from what its (generic) screen declares: each
        seat button carries its action (kiosk.ui.touchplan), no driver code knows Nim."""
        from devtools.touchplay import play

        log = play(app, "nim", level="easy", seed=3, timeout=120.0)
        assert log.finished, log
        assert log.turns and all(1 <= t <= 3 for t in log.turns), log.turns  # open the tray (if closed), tap

    run_scenarios(
        {
            "listed_in_picker_with_generic_howto": listed_in_picker_with_generic_howto,
            "joins_and_plays_on_generic_screen": joins_and_plays_on_generic_screen,
            "attract_plays_it": attract_plays_it,
            "the_touch_driver_plays_it_with_no_driver_of_its_own": the_touch_driver_plays_it_with_no_driver_of_its_own,
        },
        out,
    )
    app.launcher.end()
    app.stop()


if __name__ == "__main__":
    child_main(Path(sys.argv[1]), Path(sys.argv[2]))
