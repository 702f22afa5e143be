"""All-in EV: what each player would win on average from the moment the chips were all in.

Layer: hands (:mod:`pipeline.hands`); imports :mod:`~pipeline.hands.model`,
:mod:`~pipeline.hands.tables` (the chips' decimals), pure hold'em evaluation
(:mod:`pipeline.poker.holdem`) and the foundation modules.

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
  board from the cards no live player holds (a folded player's cards stay
  in the deck, as trackers treat them: the players did not see them).
  Exact on the flop and the turn; before the flop sampled (``samples``
  run-outs, drawn from ``seed`` and the hand's own cards, so a hand gets the
  same numbers in any batch), or enumerated with ``exact``.
* **The rake** comes out of each pot in proportion.
* A seat's **EV** is its share of the pots less what it put in; every
  other hand keeps its actual net.  So a hand's EVs sum to its nets.

Hands that would be adjusted but for a live hand that is unknown are
counted apart (:attr:`AllIn.unknown`).
"""

from __future__ import annotations

import itertools
import math
import zlib
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
from numpy.typing import NDArray

from pipeline.hands import model
from pipeline.hands.tables import CHIP_DECIMALS
from pipeline.poker import cards, holdem

#: Run-outs of a preflop all-in drawn by default; the standard error of a seat's equity is then
#: at most 0.5 / sqrt(samples), 0.5 % of the pot.
DEFAULT_SAMPLES = 10_000
#: Run-outs scored at once: bounds memory (a run-out costs about 20 bytes a seat).
_CHUNK = 1 << 19
_BOARD_AT = {0: 0, 1: 3, 2: 4}  # the board cards known when betting ended on each street
_UNKNOWN = 255
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


def _hole_codes(text: pa.Array | pa.ChunkedArray) -> NDArray[np.int64]:
    """(n, 2) card codes of ``"Ah Kd"`` texts, _UNKNOWN for a card not known or no text."""
    values = text.to_pylist()
    out = np.full((len(values), 2), _UNKNOWN, np.int64)
    for row, value in enumerate(values):  # seats of all-in hands only: a few in a hundred
        words = (value or "").split()
        if len(words) == 2 and "?" not in value:
            out[row] = [cards.card_code(word) for word in words]
    return out


def _board_codes(text: str) -> list[int]:
    return [cards.card_code(word) for word in text.split()]


def allin_ev(*, hand_of_seat: NDArray[np.int64], last_street: NDArray[np.int64],
             board: pa.Array | pa.ChunkedArray,
             rake: NDArray[np.float64], seats: pa.Table, samples: int = DEFAULT_SAMPLES, seed: int = 0,
             exact: bool = False) -> AllIn:
    """The all-in EV of each seat (see the module's rules).

    Parameters
    ----------
    hand_of_seat : ndarray of shape (seats,), int64
        The hand (0 .. hands - 1) of each seat row, in hand order.
    last_street : ndarray of shape (hands,), int64
        The street code of each hand's last decision, -1 for none.
    board : pyarrow string array of shape (hands,)
        Each hand's board as written.
    rake : ndarray of shape (hands,), float64
        Each hand's rake, NaN where unknown (taken as none).
    seats : pyarrow.Table
        The seat rows: ``contributed``, ``net``, ``hole_cards``, ``folded_street``,
        ``all_in_street``.
    samples, seed, exact : how a preflop all-in is run out
    """
    order = np.argsort(hand_of_seat, kind="stable")  # the seats hand by hand
    if not (order == np.arange(len(order))).all():
        found = allin_ev(hand_of_seat=hand_of_seat[order], last_street=last_street, board=board, rake=rake,
                         seats=seats.take(pa.array(order)), samples=samples, seed=seed, exact=exact)
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
    candidate = ((live_count >= 2) & (free <= 1) & (last_street >= 0) & (last_street < 3) & balanced
                 & full_board)
    ev, variance, adjusted = net.copy(), np.zeros(n), np.zeros(n, bool)
    chosen = np.flatnonzero(candidate[hand_of_seat] & live)
    holes = np.full((n, 2), _UNKNOWN, np.int64)
    holes[chosen] = _hole_codes(seats.column("hole_cards").take(pa.array(chosen)))
    known_hand = np.ones(hands, bool)
    np.logical_and.at(known_hand, hand_of_seat[chosen], (holes[chosen] != _UNKNOWN).all(axis=1))
    unknown = int((candidate & ~known_hand).sum())
    done = np.flatnonzero(candidate & known_hand)
    starts = np.searchsorted(hand_of_seat, np.arange(hands + 1))
    texts = dict(zip(done.tolist(), board.take(pa.array(done, pa.int64())).to_pylist()))
    groups: dict[tuple[int, int], list[int]] = {}
    for hand in done.tolist():
        groups.setdefault((_BOARD_AT[int(last_street[hand])], int(live_count[hand])), []).append(hand)
    for (known, players), members in groups.items():
        step = max(_CHUNK // _runouts(known, players, samples, exact), 1)
        for first in range(0, len(members), step):
            group = members[first:first + step]
            _share(group, known, players, starts, live, put, holes, texts, rake, net, ev, variance,
                   samples=samples, seed=seed, exact=exact)
            for hand in group:
                adjusted[starts[hand]:starts[hand + 1]] = True
    unknown_seats = (candidate & ~known_hand)[hand_of_seat]
    return AllIn(ev, variance, adjusted, unknown_seats, len(done), unknown)


def _combinations(n: int, k: int) -> NDArray[np.uint8]:
    """(comb(n, k), k) uint8: every k of ``range(n)``, in lexicographic order.

    >>> _combinations(4, 2).tolist()
    [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    """
    flat = np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(n), k)), dtype=np.uint8,
                       count=math.comb(n, k) * k)
    return flat.reshape(-1, k)


def _runouts(known: int, players: int, samples: int, exact: bool) -> int:
    """Run-outs of a hand with ``known`` board cards and ``players`` live."""
    return math.comb(52 - known - 2 * players, 5 - known) if known >= 3 or exact else samples


def _share(group: list[int], known: int, players: int, starts: NDArray[np.intp], live: NDArray[np.bool_],
           put: NDArray[np.float64], holes: NDArray[np.int64], board: dict[int, str],
           rake: NDArray[np.float64], net: NDArray[np.float64], ev: NDArray[np.float64],
           variance: NDArray[np.float64], *,
           samples: int, seed: int, exact: bool) -> None:
    """Share the pots of hands with ``known`` board cards and ``players`` live, writing ``ev`` and
    ``variance`` of their seats."""
    missing = 5 - known
    deck = np.arange(52)
    boards, hole_rows, rows, pots, eligible = [], [], [], [], []
    for hand in group:
        seat_rows = np.arange(starts[hand], starts[hand + 1])
        mine = seat_rows[live[seat_rows]]
        shown = _board_codes(board[hand] or "")[:known]
        taken = np.concatenate([shown, holes[mine].ravel()])
        rest = np.setdiff1d(deck, taken).astype(np.uint8)  # small codes: a run-out costs bytes, not words
        if known >= 3 or exact:
            picks = _combinations(len(rest), missing)
        else:  # drawn from the seed and the hand's own cards: the same in any batch
            tag = zlib.crc32(np.asarray(taken, np.int64).tobytes()) ^ zlib.crc32(put[seat_rows].tobytes())
            rng = np.random.default_rng([seed, tag])
            picks = np.argsort(rng.random((samples, len(rest))), axis=1)[:, :missing].astype(np.uint8)
        runout = np.concatenate([np.broadcast_to(np.asarray(shown, np.uint8), (len(picks), known)),
                                 rest[picks]], axis=1)
        boards.append(runout)
        hole_rows.append(np.broadcast_to(holes[mine].astype(np.uint8), (len(picks), players, 2)))
        # The pots: every seat's chips up to each level a live player reached.
        levels = np.sort(put[mine])
        below = np.concatenate([[0.0], levels[:-1]])
        amounts = np.array([np.minimum(put[seat_rows], top).sum() - np.minimum(put[seat_rows], low).sum()
                            for low, top in zip(below, levels)])
        total = put[seat_rows].sum()
        kept = 1.0 - (rake[hand] / total if total > 0 else 0.0)
        pots.append(amounts * kept)
        eligible.append(put[mine][None, :] >= levels[:, None])  # (pots, players)
        rows.append(mine)
    keys = holdem.deal_keys(np.concatenate(boards), np.concatenate(hole_rows)).T.astype(np.int32)
    at = 0
    for mine, pot, allowed, runout in zip(rows, pots, eligible, boards):
        mine_keys = keys[at:at + len(runout)]  # (run-outs, players)
        at += len(runout)
        won = np.zeros(mine_keys.shape)
        for amount, who in zip(pot, allowed):
            if amount <= 0:
                continue
            masked = np.where(who[None, :], mine_keys, -1)
            best = masked.max(axis=1, keepdims=True)
            winners = (masked == best) & who[None, :]
            won += amount * winners / winners.sum(axis=1, keepdims=True)
        ev[mine] = won.mean(axis=0) - put[mine]
        sampled = not (known >= 3 or exact)
        variance[mine] = won.var(axis=0) / len(runout) if sampled else 0.0
    for hand in group:  # to the unit of chip a sum keeps, a hand's EVs sum to its nets
        seat_rows = np.arange(starts[hand], starts[hand + 1])
        units = np.round(ev[seat_rows] * _UNITS)
        units[np.argmax(units)] += np.round(net[seat_rows] * _UNITS).sum() - units.sum()
        ev[seat_rows] = units / _UNITS


def last_decision_street(hand_of_action: NDArray[np.int64], street: NDArray[np.int64],
                         decision: NDArray[np.bool_], hands: int) -> NDArray[np.int64]:
    """(hands,) int64: the street code of each hand's last decision, -1 for a hand without one."""
    last = np.full(hands, -1, np.int64)
    np.maximum.at(last, hand_of_action[decision], street[decision])
    return last


