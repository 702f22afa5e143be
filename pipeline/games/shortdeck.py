"""Short-deck (6+) hold'em as games: deals of the 36-card deck written as text in, winners out.

Layer: games (:mod:`pipeline.games`); imports the board games' part
(:mod:`pipeline.games.board`), the deals (:mod:`pipeline.games.deals`) and
pure evaluation (:mod:`pipeline.poker`), nothing above.

This module owns the short-deck games behind the interface: two hole cards
a seat and a board of five from the 36 cards six to ace (a card below the
six is refused with its reason), the best five of seven, A-6-7-8-9 the
lowest straight and a flush above a full house.  The rooms rank three of a
kind and a straight two ways, so there are two games:

* :class:`ShortDeck` (``shortdeck``): a straight beats three of a kind, as
  pokerkit ranks short-deck and PHH ``NS`` hands follow, and as PokerStars'
  6+ Hold'em does;
* :class:`ShortDeckTrips` (``shortdeck-trips``): three of a kind beats a
  straight, as other rooms rank it.

Their keys are :mod:`pipeline.poker.shortdeck`'s, one key space per
ranking; the exact category counts are those of every hand of five, six or
seven short-deck cards.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
from numpy.typing import NDArray

from pipeline.games.board import BoardGame
from pipeline.games.deals import Deals, Shape
from pipeline.poker import describe, exact, notation, shortdeck
from pipeline.poker.holdem import BEST_OF

#: A short-deck deal: two hole cards a seat, a board of five, the 36 cards six to ace.
SHORT_DECK = Shape(deck=tuple(shortdeck.DECK_CODES.tolist()), deck_name="the 36-card deck, 6 to A")


class ShortDeck(BoardGame):
    """Short-deck hold'em, a straight above three of a kind: ``board,p1..p10[,winners]``."""

    name = "shortdeck"
    title = "short-deck"
    detectable = False  # its deals look like another game's: named with --game only
    shape = SHORT_DECK
    #: Whether three of a kind beats a straight (the ranking of :class:`ShortDeckTrips`).
    trips_beat_straight = False
    categories = tuple(str(category) for category in shortdeck.category_order())
    hand_cards = 7
    exact_hand_sizes = (BEST_OF, 6, 7)

    def seat_keys(self, deals: Deals) -> NDArray[np.int16]:
        holes = np.where(deals.seated[:, :, None], deals.holes, shortdeck.LOWEST_CODE)
        keys: NDArray[np.int16] = shortdeck.deal_keys(deals.board, holes,
                                                      trips_beat_straight=self.trips_beat_straight)
        return keys

    def key_categories(self, keys: NDArray[np.int16]) -> NDArray[np.int8]:
        return shortdeck.key_categories(keys, trips_beat_straight=self.trips_beat_straight)

    def best_columns(self, deals: Deals, keys: NDArray[np.int16],
                     seats: tuple[str, ...]) -> list[dict[str, pa.Array]]:
        columns = []
        for seat, name in enumerate(seats):
            present = deals.seated[:, seat]
            hands = np.concatenate([deals.board, np.where(present[:, None], deals.holes[:, seat],
                                                          deals.board[:, :2])], axis=1)
            best = np.zeros((len(hands), BEST_OF), np.uint8)
            best[present] = describe.shortdeck_best_five(hands[present], keys[seat][present],
                                                         trips_beat_straight=self.trips_beat_straight)
            columns.append({f"{name}_best": notation.cards_text(best, present=present),
                            f"{name}_hand": describe.shortdeck_descriptions(
                                keys[seat], present=present, trips_beat_straight=self.trips_beat_straight)})
        return columns

    def pot_keys(self, board: NDArray[np.uint8], holes: NDArray[np.uint8]) -> NDArray[np.int64]:
        keys = shortdeck.deal_keys(board, holes, trips_beat_straight=self.trips_beat_straight)
        pot: NDArray[np.int64] = keys.T[None].astype(np.int64)
        return pot

    def exact_counts(self, cards: int | None = None) -> dict[str, int]:
        return exact.shortdeck_counts(cards or self.hand_cards, trips_beat_straight=self.trips_beat_straight)


class ShortDeckTrips(ShortDeck):
    """Short-deck hold'em ranked with three of a kind above a straight."""

    name = "shortdeck-trips"
    title = "short-deck (trips over straights)"
    trips_beat_straight = True
    categories = tuple(str(category) for category in shortdeck.category_order(trips_beat_straight=True))


GAME = ShortDeck()
TRIPS_GAME = ShortDeckTrips()
