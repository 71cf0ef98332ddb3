"""The board kit Maki and Wasabi! share, knowing no game: the board screen (:mod:`kiosk.board.board`, its look in
``board.kv``), its panels and pieces (:mod:`kiosk.board.pieces`), the play from a seat's panel
(:mod:`kiosk.board.play`), the two-step actions (:mod:`kiosk.board.twostep`) and the touch plans
(:mod:`kiosk.board.touch`). A game's own drawing, colours and words live in that game's folder."""
