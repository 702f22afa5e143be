"""All-in EV: what each player would win on average from the moment the chips were all in.

Layer: hands (:mod:`pipeline.hands`); imports :mod:`~pipeline.hands.model`,
:mod:`~pipeline.hands.tables` (the chips' decimals), the games' registry
(:mod:`pipeline.games.registry`: each hand's game deals the deck and ranks
the run-outs), card codes (:mod:`pipeline.poker.cards`) and the foundation
modules.

This module owns the rule by which a hand is adjusted and the sharing of its
pots by equity:

* **When:** betting ended before the river (the last decision was made
  before it), two players or more were still in, all of them but one at
  most all in, and every live player's cards are known.  A hand whose
  chips do not add up to its pot less its rake (a cash-out paid by the
  site) keeps its actual result.
* **The pots:** each pot, the main pot and every side pot, made of every
  player's chips up to a level live players reached, goes to the live
  players who reached it, shared by their equity over the run-outs of the
  board from the cards of the game's deck no live player holds (a folded player's cards stay
  in the deck, as trackers treat them: the players did not see them).
  Exact on the flop and the turn; before the flop sampled (``samples``
  run-outs, drawn from ``seed`` and the hand's own cards, so a hand gets the
  same numbers in any batch), or enumerated with ``exact``.
* **The rake** comes out of each pot in proportion.
* A seat's **EV** is its share of the pots less what it put in; every
  other hand keeps its actual net.  So a hand's EVs sum to its nets.

Hands that would be adjusted but for a live hand that is unknown are
counted apart (:attr:`AllIn.unknown`).

How the run-outs are shared
---------------------------
Hands of one game with as many board cards known, live players and hole
cards are shared together: their decks less the cards shown are one
``(hands, left)`` array, so the run-outs are one set of positions among
them (every combination, or each hand's own draws), scored in one call of
the game's :meth:`~pipeline.games.base.Game.pot_keys` and split pot by pot
with whole-array operations, a chunk of run-outs at a time.
"""

from __future__ import annotations

import itertools
import math
import zlib
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
from numpy.typing import NDArray

from pipeline.games import registry
from pipeline.games.base import Game
from pipeline.hands import model
from pipeline.hands.tables import CHIP_DECIMALS
from pipeline.poker import cards

#: Run-outs of a preflop all-in drawn by default; the standard error of a seat's equity is then
#: at most 0.5 / sqrt(samples), 0.5 % of the pot.
DEFAULT_SAMPLES = 10_000
#: Run-outs scored at once: bounds memory (a run-out costs about 100 bytes a seat).
_CHUNK = 1 << 18
_BOARD_AT = {0: 0, 1: 3, 2: 4}  # the board cards known when betting ended on each street
_UNKNOWN = 255
_MAX_HOLE = 6  # the most hole cards a seat of any game holds
_UNITS = 10.0 ** CHIP_DECIMALS  # chips to the decimals the tables keep


@dataclass(frozen=True)
class AllIn:
    """Each seat's all-in EV, aligned with the seats given to :func:`allin_ev`.

    ``ev`` (float64) the EV in chips (the net where the hand is not
    adjusted), ``variance`` its sampling variance (0 where exact),
    ``adjusted`` (bool) whether the seat's hand is; ``unknown_seats`` the
    seats of the hands not adjusted for a live hand unknown, and ``unknown``
    counts those hands.
    """

    ev: NDArray[np.float64]
    variance: NDArray[np.float64]
    adjusted: NDArray[np.bool_]
    unknown_seats: NDArray[np.bool_]  # the seats of the hands not adjusted for a live hand unknown
    hands_adjusted: int
    unknown: int


def _hole_codes(text: pa.Array | pa.ChunkedArray) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Card codes of ``"Ah Kd"`` texts, (n, 6) padded with _UNKNOWN, and each text's count of
    cards, 0 where a card is not known or there is no text.

    >>> codes, count = _hole_codes(pa.array(["Ah Kd", "?? 2c", None]))
    >>> codes[0, :3].tolist(), count.tolist()
    ([50, 45, 255], [2, 0, 0])
    """
    values = text.to_pylist()
    out = np.full((len(values), _MAX_HOLE), _UNKNOWN, np.int64)
    count = np.zeros(len(values), np.int64)
    for row, value in enumerate(values):  # seats of all-in hands only: a few in a hundred
        words = (value or "").split()
        if 0 < len(words) <= _MAX_HOLE and "?" not in value:
            out[row, :len(words)] = [cards.card_code(word) for word in words]
            count[row] = len(words)
    return out, count


def _board_codes(text: str) -> list[int]:
    return [cards.card_code(word) for word in text.split()]


def allin_ev(*, hand_of_seat: NDArray[np.int64], last_street: NDArray[np.int64],
             board: pa.Array | pa.ChunkedArray, game: pa.Array | pa.ChunkedArray,
             rake: NDArray[np.float64], seats: pa.Table, samples: int = DEFAULT_SAMPLES, seed: int = 0,
             exact: bool = False) -> AllIn:
    """The all-in EV of each seat (see the module's rules).

    Parameters
    ----------
    hand_of_seat : ndarray of shape (seats,), int64
        The hand (0 .. hands - 1) of each seat row.
    last_street : ndarray of shape (hands,), int64
        The street code of each hand's last decision, -1 for none.
    board : pyarrow string array of shape (hands,)
        Each hand's board as written.
    game : pyarrow array of shape (hands,)
        Each hand's ``game`` (the hands table's vocabulary column); a hand of no game is not
        adjusted.
    rake : ndarray of shape (hands,), float64
        Each hand's rake, NaN where unknown (taken as none).
    seats : pyarrow.Table
        The seat rows: ``contributed``, ``net``, ``hole_cards``, ``folded_street``,
        ``all_in_street``.
    samples, seed, exact : how a preflop all-in is run out
    """
    order = np.argsort(hand_of_seat, kind="stable")  # the seats hand by hand
    if not (order == np.arange(len(order))).all():
        found = allin_ev(hand_of_seat=hand_of_seat[order], last_street=last_street, board=board, game=game,
                         rake=rake, seats=seats.take(pa.array(order)), samples=samples, seed=seed,
                         exact=exact)
        back = np.empty_like(order)
        back[order] = np.arange(len(order))
        return AllIn(found.ev[back], found.variance[back], found.adjusted[back], found.unknown_seats[back],
                     found.hands_adjusted, found.unknown)
    n = seats.num_rows
    net = np.nan_to_num(np.asarray(seats.column("net").to_numpy(zero_copy_only=False), np.float64))
    put = np.nan_to_num(np.asarray(seats.column("contributed").to_numpy(zero_copy_only=False), np.float64))
    live = np.asarray(seats.column("folded_street").is_null().to_numpy(zero_copy_only=False))
    all_in = np.asarray(seats.column("all_in_street").is_valid().to_numpy(zero_copy_only=False))
    hands = len(last_street)
    live_count = np.bincount(hand_of_seat[live], minlength=hands)
    free = np.bincount(hand_of_seat[live & ~all_in], minlength=hands)
    rake = np.nan_to_num(np.asarray(rake, np.float64))
    balanced = np.abs(np.bincount(hand_of_seat, weights=net, minlength=hands) + rake) < 1e-6
    full_board = model.board_card_count(board) == 5
    game_code = model.vocabulary_codes(game, "game")
    candidate = ((live_count >= 2) & (free <= 1) & (last_street >= 0) & (last_street < 3) & balanced
                 & full_board & (game_code >= 0))
    chosen = np.flatnonzero(candidate[hand_of_seat] & live)
    holes = np.full((n, _MAX_HOLE), _UNKNOWN, np.int64)
    hole_count = np.zeros(n, np.int64)
    holes[chosen], hole_count[chosen] = _hole_codes(seats.column("hole_cards").take(pa.array(chosen)))
    # A hand is known when every live seat shows as many cards, all known.
    fewest = np.full(hands, _MAX_HOLE + 1, np.int64)
    most = np.zeros(hands, np.int64)
    np.minimum.at(fewest, hand_of_seat[chosen], hole_count[chosen])
    np.maximum.at(most, hand_of_seat[chosen], hole_count[chosen])
    known_hand = (fewest == most) & (most > 0)
    starts = np.searchsorted(hand_of_seat, np.arange(hands + 1))
    shared = np.zeros(hands, bool)
    ev, variance = net.copy(), np.zeros(n)
    done = np.flatnonzero(candidate & known_hand)
    texts = board.take(pa.array(done, pa.int64())).to_pylist()
    known = np.array([_BOARD_AT[int(street)] for street in last_street[done]], np.int64)
    group_of = np.stack([game_code[done], known, live_count[done], most[done]])
    groups, which = np.unique(group_of, axis=1, return_inverse=True)
    for index, (code, shown, players, width) in enumerate(groups.T.tolist()):
        members = np.flatnonzero(which.ravel() == index)
        spot = _Spot(registry.get(model.VOCABULARIES["game"][code]), shown, players, width,
                     samples=samples, seed=seed, exact=exact)
        step = max(_CHUNK // spot.runouts, 1)
        for first in range(0, len(members), step):
            part = members[first:first + step]
            boards = np.array([_board_codes(texts[i] or "")[:shown] for i in part], np.int64)
            shared[done[part]] = spot.share(done[part], boards.reshape(len(part), shown), starts, live, put,
                                            holes, rake, net, ev, variance)
    adjusted = shared[hand_of_seat]
    unknown_hand = candidate & ~shared
    return AllIn(ev, variance, adjusted, unknown_hand[hand_of_seat], int(shared.sum()),
                 int(unknown_hand.sum()))


def _combinations(n: int, k: int) -> NDArray[np.uint8]:
    """(comb(n, k), k) uint8: every k of ``range(n)``, in lexicographic order.

    >>> _combinations(4, 2).tolist()
    [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    """
    flat = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(n), k)), dtype=np.uint8,
                       count=math.comb(n, k) * k)
    return flat.reshape(-1, k)


def _distinct_draws(uniform: NDArray[np.float64], left: int) -> NDArray[np.uint8]:
    """Distinct positions in ``range(left)`` from uniform draws in [0, 1): (..., k) of the same shape.

    The j-th draw picks among the ``left - j`` positions not drawn yet: its rank among them is
    stepped past each earlier pick at or below it, in ascending order.

    >>> _distinct_draws(np.array([[0.0, 0.0, 0.0]]), 5).tolist()
    [[0, 1, 2]]
    >>> sorted(_distinct_draws(np.array([[0.99, 0.99, 0.99]]), 5).ravel().tolist())
    [2, 3, 4]
    """
    k = uniform.shape[-1]
    picks = np.empty(uniform.shape, np.int64)
    for j in range(k):
        rank = (uniform[..., j] * (left - j)).astype(np.int64)
        for earlier in np.moveaxis(np.sort(picks[..., :j], axis=-1), -1, 0):
            rank += rank >= earlier
        picks[..., j] = rank
    return picks.astype(np.uint8)


@dataclass(frozen=True)
class _Spot:
    """Hands of one game with ``shown`` board cards, ``players`` live and ``width`` hole cards each."""

    game: Game
    shown: int
    players: int
    width: int
    samples: int
    seed: int
    exact: bool

    @property
    def left(self) -> int:
        """The deck's cards no live player holds and the board does not show."""
        return len(self.game.deck()) - self.shown - self.players * self.width

    @property
    def enumerated(self) -> bool:
        return self.shown >= 3 or self.exact

    @property
    def runouts(self) -> int:
        return math.comb(self.left, 5 - self.shown) if self.enumerated else self.samples

    def share(self, hands: NDArray[np.int64], boards: NDArray[np.int64], starts: NDArray[np.intp],
              live: NDArray[np.bool_], put: NDArray[np.float64], holes: NDArray[np.int64],
              rake: NDArray[np.float64], net: NDArray[np.float64], ev: NDArray[np.float64],
              variance: NDArray[np.float64]) -> NDArray[np.bool_]:
        """Share the pots of ``hands`` (m,), whose ``boards`` (m, shown) are known, writing ``ev`` and
        ``variance`` of their seats; True for each hand shared (False: a card twice or off the deck)."""
        m = len(hands)
        lengths = starts[hands + 1] - starts[hands]
        local = np.repeat(np.arange(m), lengths)  # each seat row's hand, 0 .. m - 1
        rows = np.repeat(starts[hands] - np.cumsum(lengths) + lengths, lengths) + np.arange(len(local))
        mine = rows[live[rows]].reshape(m, self.players)  # the live seats, hand by hand
        hole = holes[mine][:, :, :self.width]  # (m, players, width)
        taken = np.concatenate([boards, hole.reshape(m, -1)], axis=1)
        in_deck = np.zeros(cards.DECK_SIZE + 1, bool)
        in_deck[self.game.deck()] = True
        free = np.broadcast_to(in_deck[:cards.DECK_SIZE], (m, cards.DECK_SIZE)).copy()
        free[np.arange(m)[:, None], np.minimum(taken, cards.DECK_SIZE - 1)] = False
        ok = (free.sum(axis=1) == self.left) & in_deck[np.minimum(taken, cards.DECK_SIZE)].all(axis=1)
        if not ok.all():
            keep = np.flatnonzero(ok)
            done = np.zeros(m, bool)
            if len(keep):
                done[keep] = self.share(hands[keep], boards[keep], starts, live, put, holes, rake, net, ev,
                                        variance)
            return done
        rest = np.nonzero(free)[1].reshape(m, self.left).astype(np.uint8)
        picks = self._picks(taken, put, rows, local)
        if picks.ndim == 2:  # the same positions for every hand
            runout = rest[:, picks]
        else:
            runout = rest[np.arange(m)[:, None, None], picks]
        count = runout.shape[1]
        full = np.concatenate([np.broadcast_to(boards.astype(np.uint8)[:, None, :], (m, count, self.shown)),
                               runout], axis=2).reshape(m * count, 5)
        seat_holes = np.broadcast_to(hole.astype(np.uint8)[:, None], (m, count, self.players, self.width))
        keys = self.game.pot_keys(full, seat_holes.reshape(m * count, self.players, self.width))
        won = self._pots_won(keys.reshape(len(keys), m, count, self.players), put, mine, rows, local,
                             rake[hands])
        ev[mine] = won.mean(axis=1) - put[mine]
        variance[mine] = 0.0 if self.enumerated else won.var(axis=1) / count
        _round_to_nets(ev, net, rows, local, m)
        return np.ones(m, bool)

    def _picks(self, taken: NDArray[np.int64], put: NDArray[np.float64], rows: NDArray[np.intp],
               local: NDArray[np.intp]) -> NDArray[np.uint8]:
        """Positions among the cards left: (run-outs, missing) shared, or (m, samples, missing)."""
        missing = 5 - self.shown
        if self.enumerated:
            return _combinations(self.left, missing)
        # Drawn from the seed and the hand's own cards and chips: the same in any batch.
        uniform = np.empty((len(taken), self.samples, missing))
        for hand, cards_taken in enumerate(taken):
            chips = put[rows[local == hand]]
            tag = zlib.crc32(cards_taken.astype(np.int64).tobytes()) ^ zlib.crc32(chips.tobytes())
            uniform[hand] = np.random.default_rng([self.seed, tag]).random((self.samples, missing))
        return _distinct_draws(uniform, self.left)

    def _pots_won(self, keys: NDArray[np.int64], put: NDArray[np.float64], mine: NDArray[np.intp],
                  rows: NDArray[np.intp], local: NDArray[np.intp],
                  rake: NDArray[np.float64]) -> NDArray[np.float64]:
        """(m, run-outs, players): the chips each live seat receives on each run-out."""
        m = len(mine)
        levels = np.sort(put[mine], axis=1)  # each pot's top: a level a live player reached
        # Every seat's chips up to each level, summed per hand; a pot is the step between levels.
        capped = np.minimum(put[rows][:, None], levels[local])
        upto = np.stack([np.bincount(local, capped[:, j], minlength=m) for j in range(self.players)], axis=1)
        pots = np.diff(upto, axis=1, prepend=0.0)
        total = np.bincount(local, put[rows], minlength=m)
        pots *= (1.0 - np.divide(rake, total, out=np.zeros(m), where=total > 0))[:, None]
        won = np.zeros(keys.shape[1:])
        for level in range(self.players):
            who = put[mine] >= levels[:, level:level + 1]  # (m, players): who reached the level
            amount = pots[:, level]
            if not (amount > 0).any():
                continue
            parts = []
            for part in keys:  # (m, run-outs, players)
                masked = np.where(who[:, None, :], part, 0)
                best = masked.max(axis=2, keepdims=True)
                parts.append((masked == best) & (best > 0))
            winning = np.stack(parts)  # (parts, m, run-outs, players)
            counts = winning.sum(axis=3, keepdims=True)
            halves = (counts > 0).sum(axis=0)  # parts someone wins, each a like share of the pot
            shares = (winning / np.maximum(counts, 1)).sum(axis=0) / np.maximum(halves, 1)
            won += amount[:, None, None] * shares
        return won


def _round_to_nets(ev: NDArray[np.float64], net: NDArray[np.float64], rows: NDArray[np.intp],
                   local: NDArray[np.intp], m: int) -> None:
    """Round the EVs of the hands' seats to the unit of chip a sum keeps, so that a hand's EVs sum
    to its nets: the difference goes to the seat of the largest EV."""
    units = np.round(ev[rows] * _UNITS)
    nets = np.bincount(local, np.round(net[rows] * _UNITS), minlength=m)
    short = nets - np.bincount(local, units, minlength=m)
    order = np.lexsort((-units, local))  # hand by hand, the largest EV first
    first = order[np.searchsorted(local[order], np.arange(m))]
    units[first] += short
    ev[rows] = units / _UNITS


def last_decision_street(hand_of_action: NDArray[np.int64], street: NDArray[np.int64],
                         decision: NDArray[np.bool_], hands: int) -> NDArray[np.int64]:
    """(hands,) int64: the street code of each hand's last decision, -1 for a hand without one."""
    last = np.full(hands, -1, np.int64)
    np.maximum.at(last, hand_of_action[decision], street[decision])
    return last


