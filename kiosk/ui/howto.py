"""One-screen how-to-play texts for the game picker, drawn from the rulebooks (/work/shared/rules/) and the rules
supplement. Titles and player counts shown on the picker come from each game's ``GameSpec``; these texts and the
fallback titles/counts below are for games not registered yet ("coming soon")."""

from __future__ import annotations

#: key -> (title, min players, max players) for games whose engine is not registered yet.
KNOWN: dict[str, tuple[str, int, int]] = {
    "maki": ("Maki", 1, 4),
    "wasabi": ("Wasabi!", 2, 4),
    "makoto": ("Makoto", 2, 6),
    "takoyaki": ("Takoyaki", 1, 4),
}

HOWTO: dict[str, str] = {
    "maki": (
        "Goal: serve the most recipes, plus wasabi.\n"
        "Your turn: 1) play one ingredient from the pantry into any empty space (you may move a teacup "
        "first). 2) Serve or prep.\n"
        "Serve: reveal a recipe from your hand if your turn helped complete its ingredients in a straight line "
        "with no gaps. Same order as the card = served with style: wasabi (or an action card for 2-ingredient "
        "recipes). Refill your hand to three.\n"
        "Prep: take an action card, or the wasabi pool, or swap recipes.\n"
        "When the board is full, everyone takes one last turn. Recipes + wasabi = score."
    ),
    "wasabi": (
        "Goal: complete recipes on the shared board; first to use all 10 challenge tokens wins at once.\n"
        "Your turn: lay one ingredient tile from your hand on an empty square (and you may play one action "
        "card). If you complete a straight line matching a recipe in your screen, claim it with a challenge "
        "token of that length; in the exact order it is made with style and earns wasabi.\n"
        "Then take an action card per recipe completed, refill to 3 ingredients and 3 recipes.\n"
        "When the board is full: token points + wasabi. Most points wins."
    ),
    "makoto": (
        "Goal: collect 2s (20 pts), 5s and 10s, and go out early for a reward card.\n"
        "Your turn: play a combination, or pass.\n"
        "The round's first player chooses: a single card, two or more of a number, or a run of three or more. "
        "Everyone else must play the same kind and count, higher. A Kensei (four of a number) beats anything.\n"
        "After playing you may put one lower card into the Blind, or take cards of one number lower than your "
        "play. After passing you may draw an Oracle card (keep it by discarding one).\n"
        "When all but one passed, that player wins the cards of the round."
    ),
    "takoyaki": (
        "Goal: be first to complete 5 orders.\n"
        "An order shows where the six takoyaki balls must be: fried side up on the hot half of your grill, "
        "raw side up on the cold half.\n"
        "Drag a ball one space to push it; swipe or double tap to turn it over.\n"
        "Dropping a ball off the grill, dragging it over another or more than one space, or touching with a "
        "whole hand puts you out of this order.\n"
        "Done? Shout TAKOYAKI!: tap your claim pad, your seat button or your stick. A wrong claim locks you "
        "out until the next order. Alone it is a race against the clock."
    ),
}
