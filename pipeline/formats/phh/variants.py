"""The PHH variants pokerpipe reads: each code's game, betting, hole cards and deck, in one list.

Layer: formats and I/O (:mod:`pipeline.formats`); imports the board games
(:mod:`pipeline.games`: their names and the shapes of their deals) and the
hands' vocabulary (:mod:`pipeline.hands.model`), nothing else of the package.

This module owns which PHH ``variant`` codes pokerpipe reads
(:data:`VARIANTS`) and what each one is: the game it is scored as (the
name the hands table's ``game`` column and the game registry give it), its
betting, and, from the game's deal (:class:`~pipeline.games.deals.Shape`),
how many hole cards a player is dealt and the deck they come from.  The
codes are pokerkit's (its ``docs/notation.rst``; ``HandHistory.game_types``):

* ``NT``, ``FT``: no-limit and fixed-limit Texas hold'em (``holdem``), two hole cards;
* ``NS``: no-limit short-deck hold'em (``shortdeck``: a straight beats three
  of a kind, as pokerkit ranks it), two hole cards of the 36 cards six to ace;
* ``PO``: pot-limit Omaha (``omaha``), four hole cards (five or six read too);
* ``FO/8``: fixed-limit Omaha eight-or-better (``omaha-hilo``), as ``PO``'s cards.

A hand of any other variant (stud, razz, draw, badugi: ``F7S``, ``FR``,
``F2L3D``, ...) is rejected with :func:`unread_variant`'s reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.games import holdem, omaha, shortdeck
from pipeline.games.board import BoardGame
from pipeline.games.deals import Shape
from pipeline.hands.model import Betting


@dataclass(frozen=True)
class Variant:
    """A PHH variant pokerpipe reads.

    Attributes
    ----------
    game : BoardGame
        The game its showdowns are scored as; :attr:`name` is the hands
        table's ``game``.
    betting : Betting
        Its betting structure, the hands table's ``betting``.
    """

    game: BoardGame
    betting: Betting

    @property
    def name(self) -> str:
        """The game's name (``holdem``, ``omaha``, ...), as the registry and the hands table give it."""
        return self.game.name

    @property
    def shape(self) -> Shape:
        """The game's deal: the hole cards a player holds (``hole_sizes``), the deck and its name."""
        return self.game.shape


#: The variants read, by PHH code, in the order a reason lists them.
VARIANTS: dict[str, Variant] = {
    "NT": Variant(holdem.GAME, Betting.NO_LIMIT),
    "FT": Variant(holdem.GAME, Betting.FIXED_LIMIT),
    "NS": Variant(shortdeck.GAME, Betting.NO_LIMIT),
    "PO": Variant(omaha.OMAHA_GAME, Betting.POT_LIMIT),
    "FO/8": Variant(omaha.HILO_GAME, Betting.FIXED_LIMIT),
}


def unread_variant(code: object) -> str:
    """The reason a hand of a variant pokerpipe does not read is rejected.

    >>> unread_variant("F7S")
    "variant 'F7S' is not a game pokerpipe scores (NT, FT, NS, PO or FO/8)"
    """
    *others, last = VARIANTS
    return f"variant {code!r} is not a game pokerpipe scores ({', '.join(others)} or {last})"
