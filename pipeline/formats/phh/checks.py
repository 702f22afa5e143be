"""The checks of a group of PHH hands before its chips are replayed, and the cards its actions deal.

Layer: formats and I/O (:mod:`pipeline.formats`); imports :mod:`~pipeline.formats.phh.toml`,
:mod:`~pipeline.formats.phh.actions`, :mod:`~pipeline.formats.phh.variants`, the board games'
seats, the card codes of :mod:`pipeline.hands.record` and of pure evaluation, and the foundation
modules.

This module owns the reasons a hand is rejected before its chips count
(:class:`Rejections`, the first reason of a hand kept): fields that do not
fit (:func:`check_fields`: a variant pokerpipe does not read, the lengths
and values of the per-seat fields, which it pads into :class:`Fields`),
actions that are not actions of a seated player pokerpipe reads
(:func:`check_actions`), a player acting after folding
(:func:`check_folded`); and the cards: the card codes of every deal and
show (:func:`card_codes`, :data:`UNKNOWN_CARD` for ``??``: as many hole
cards as the variant deals, every player of a hand as many, each card of
the variant's deck), the board and hole cards of every hand
(:func:`board_cards`, :func:`hole_cards`) and a card dealt twice
(:func:`check_dealt_twice`).  Like the steps of the replay
(:mod:`~pipeline.formats.phh.chips`), each takes and returns whole arrays,
one row per hand or per action.

Hold'em and short-deck deal two hole cards, Omaha four to six: the hole
cards of a group are ``(hands, seats, K)``, K the most any deal or show of
the group holds; where it is two (every hand of the group hold'em or
short-deck), a seat's two cards move as one 16-bit item: one gather or
scatter a seat, not one a card, and no lookup of the variant per action.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from pipeline.formats.phh.actions import CBR, CC, DB, DH, FOLD, OTHER, SM, Actions
from pipeline.formats.phh.toml import Hands, padded
from pipeline.formats.phh.variants import VARIANTS, unread_variant
from pipeline.games import deals
from pipeline.hands.record import MAX_HOLE, NO_CARD, UNKNOWN_CARD
from pipeline.poker import cards
from pipeline.poker.holdem import BEST_OF
from pipeline.text import shown

_SEATS = deals.MAX_PLAYERS
_BOARD = BEST_OF

# The variants as rows of the tables below: a hand's row is its variant's place in VARIANTS,
# _UNREAD for a variant pokerpipe does not read (rejected already; its cards read as hold'em's,
# so that a stud hand's deals never widen a group's hole cards).
_CODES = tuple(VARIANTS)
_UNREAD = len(_CODES)
_SHAPES = (*(variant.shape for variant in VARIANTS.values()), deals.HOLDEM)
#: [row, cards]: a deal or show of that many hole cards fits the variant (cards past MAX_HOLE never do).
_HOLE_SIZES = np.zeros((_UNREAD + 1, MAX_HOLE + 2), dtype=bool)
for _row, _shape in enumerate(_SHAPES):
    _HOLE_SIZES[_row, list(_shape.hole_sizes)] = True
#: [row]: the variant deals two hole cards and only two (hold'em, short-deck).
_TWO_ONLY = _HOLE_SIZES[:, 2] & (_HOLE_SIZES.sum(axis=1) == 1)
#: [row, code]: the card (0..51; 52, past the deck, never) is in the variant's deck.
_IN_DECK = np.stack([shape.in_deck for shape in _SHAPES])
_FULL_DECK = np.array([shape.full_deck for shape in _SHAPES])


@dataclass
class Rejections:
    """Why hands of a group are rejected, the first reason given to a hand kept.

    Attributes
    ----------
    problem : ndarray of shape (hands,), dtype object
        The reason (str), None while the hand is not rejected.
    excerpt : list of str or None, length hands
        The text shown with the reason (the action at fault), None for none.
    """

    problem: NDArray[np.object_]
    excerpt: list[str | None]

    @classmethod
    def of(cls, hands: Hands) -> Rejections:
        """The rejections the parser already made, copied, so that the hands stay as read."""
        return cls(hands.problem.copy(), list(hands.excerpt))

    @property
    def rejected(self) -> NDArray[np.bool_]:
        """(hands,) bool: the hand has a reason."""
        rejected: NDArray[np.bool_] = self.problem != None  # noqa: E711 (elementwise)
        return rejected

    def reject(self, rows: NDArray[np.intp], reason: str | Callable[[int, np.intp], str],
               text: str | Callable[[int, np.intp], str] | None = None) -> None:
        """Give the hands ``rows`` a reason and an excerpt, unless they have one already.

        ``reason`` and ``text`` are a string, or a function of the position in
        ``rows`` and the row, called only for a hand not yet rejected (the
        messages are costly and rejections rare).
        """
        for position, row in enumerate(rows):
            if self.problem[row] is None:
                self.problem[row] = reason(position, row) if callable(reason) else reason
                self.excerpt[row] = text(position, row) if callable(text) else text

    def reject_actions(self, actions: Actions, bad: NDArray[np.bool_],
                       why: Callable[[np.intp], str]) -> None:
        """Reject the hands of the actions flagged in ``bad`` ((n,) bool), each named by its first bad action.

        ``why`` gives the reason from the index of that action.
        """
        rows = np.flatnonzero(bad)
        if not len(rows):
            return
        hand_rows, first = np.unique(actions.hand[rows], return_index=True)
        shown_text: list[str] = actions.texts.take(pa.array(rows[first])).to_pylist()
        self.reject(hand_rows, lambda i, _: f"action {shown(shown_text[i])}: {why(rows[first[i]])}",
                    lambda i, _: shown_text[i])


@dataclass
class Fields:
    """The per-seat fields of a group of hands, padded to :data:`deals.MAX_PLAYERS` seats.

    Attributes
    ----------
    variant : ndarray of shape (hands,), dtype object
        The variant code (str), "" where the hand has none.
    variant_index : ndarray of shape (hands,), dtype intp
        The variant's place in :data:`~pipeline.formats.phh.variants.VARIANTS`,
        ``len(VARIANTS)`` for a variant pokerpipe does not read (a rejected hand).
    players : ndarray of shape (hands,), dtype int64
        The number of starting stacks (-1 where absent, out of range in a
        rejected hand).
    stack, ante, blind : ndarray of shape (hands, seats), dtype float64
        Starting stacks, antes and blinds or straddles by seat, 0 past the
        last value.
    seated : ndarray of shape (hands, seats), dtype bool
        The seat has a player.
    """

    variant: NDArray[np.object_]
    variant_index: NDArray[np.intp]
    players: NDArray[np.int64]
    stack: NDArray[np.float64]
    ante: NDArray[np.float64]
    blind: NDArray[np.float64]
    seated: NDArray[np.bool_]


def check_fields(hands: Hands, rejections: Rejections) -> Fields:
    """Reject the hands whose variant or list lengths do not fit, and pad the per-seat fields.

    Parameters
    ----------
    hands : Hands
        A group of hands as read.
    rejections : Rejections
        Gets a reason for a variant not in
        :data:`~pipeline.formats.phh.variants.VARIANTS`, fewer than
        two or more than ten starting stacks, a list of antes, blinds,
        finishing stacks or winnings of another length than the stacks, a
        starting stack that is negative or NaN, an ante that is negative,
        NaN or infinite, and a blind that is NaN or infinite.  A negative
        blind is a post (see the returned ``blind``).

    Returns
    -------
    Fields
        The variant, number of players and per-seat numbers of every hand;
        a post (a negative entry of ``blinds_or_straddles``) is given as the
        blind of its size: live money, as pokerkit posts it.
    """
    written = pc.fill_null(hands.variant, "")
    variant = written.to_numpy(zero_copy_only=False)
    found = pc.fill_null(pc.index_in(written, value_set=pa.array(_CODES, pa.string())), _UNREAD)
    variant_index = found.to_numpy(zero_copy_only=False).astype(np.intp)
    rejections.reject(np.flatnonzero(variant_index == _UNREAD), lambda _, row: unread_variant(variant[row]))
    players = hands.numbers["starting_stacks"][1]
    rejections.reject(np.flatnonzero((players < 2) | (players > _SEATS)),
                      lambda _, row: f"{players[row]} starting stacks: expected 2 to {_SEATS} players")
    for name in ("antes", "blinds_or_straddles", "finishing_stacks", "winnings"):
        lengths = hands.numbers[name][1]

        def miscount(_: int, row: np.intp, name: str = name, lengths: np.ndarray = lengths) -> str:
            return f"{name} has {lengths[row]} values for {players[row]} players"

        rejections.reject(np.flatnonzero((lengths >= 0) & (lengths != players)), miscount)
    seated = np.arange(_SEATS) < np.minimum(players, _SEATS)[:, None]
    stack = padded(*hands.numbers["starting_stacks"])
    ante, blind = padded(*hands.numbers["antes"]), padded(*hands.numbers["blinds_or_straddles"])
    # Chips are never negative nor NaN; a stack may be unknown (inf), a forced bet may not.  A
    # negative blind is a post: the chips a player just seated pays to play at once, without
    # waiting for the big blind to reach it (pokerkit's reading); live money, as a blind is.
    for name, values, wrong in (("starting stack", stack, (stack < 0) | np.isnan(stack)),
                                ("ante", ante, ~(ante >= 0) | np.isinf(ante)),
                                ("blind or straddle", blind, ~np.isfinite(blind))):
        rows, seats = np.nonzero(wrong & seated)

        def impossible(i: int, row: np.intp, name: str = name, values: np.ndarray = values,
                       seats: np.ndarray = seats) -> str:
            value = values[row, seats[i]]
            what = "not a number" if np.isnan(value) else "unknown" if np.isinf(value) else "negative"
            return f"{name} of p{seats[i] + 1} is {what} ({value:g})"

        rejections.reject(rows, impossible)
        values[rows, seats] = 0.0  # the hand is out; the group's replay meets no NaN
    np.abs(blind, out=blind)  # a post is posted as a blind of its size
    return Fields(variant=variant, variant_index=variant_index, players=players, stack=stack, ante=ante,
                  blind=blind, seated=seated)


def check_actions(actions: Actions, players: NDArray[np.int64], rejections: Rejections) -> None:
    """Reject the hands with an action that is not one pokerpipe reads, of a seated player.

    Parameters
    ----------
    actions : Actions
        The split actions of a group of hands.
    players : ndarray of shape (hands,), dtype int64
        The players seated in each hand.
    rejections : Rejections
        Gets, for the first bad action of a hand: not understood, a verb
        other than dh, db, cbr, cc, f, sm, a deal by a player or a bet by
        the dealer, ``d dh`` without its player, a player not seated, a
        ``cbr`` without an amount, ``cc`` or ``f`` with an argument.
    """
    understood, actor, verb, target = actions.understood, actions.actor, actions.verb, actions.target
    rejections.reject_actions(actions, ~understood, lambda _: "not understood")
    dealer = actor == 0
    is_deal = (verb == DH) | (verb == DB)
    rejections.reject_actions(actions, understood & (verb == OTHER),
                              lambda a: "not an action pokerpipe reads (dh, db, cbr, cc, f, sm)")
    rejections.reject_actions(actions, understood & (verb != OTHER) & (dealer != is_deal),
                              lambda a: "dealing is the dealer's (d), betting the players' (pN)")
    rejections.reject_actions(actions, understood & ((verb == DH) != (target > 0)),
                              lambda a: "d dh names the player dealt to, and only it")
    seats_of = players[actions.hand]
    unseated = understood & ((actor > seats_of) | (target > seats_of) | (actor < 0) | (target < 0))
    rejections.reject_actions(actions, unseated, lambda a: f"player {max(actor[a], target[a])} is not seated "
                                                           f"({seats_of[a]} players)")
    rejections.reject_actions(actions, understood & (verb == CBR) & np.isnan(actions.amount),
                              lambda _: "cbr needs an amount")
    rejections.reject_actions(actions, understood & ((verb == CC) | (verb == FOLD))
                              & (actions.arg_length > 0), lambda _: "cc and f take no argument")


def card_codes(actions: Actions, fields: Fields, rejections: Rejections
               ) -> tuple[NDArray[np.uint8], NDArray[np.int64], int]:
    """The cards of every deal and show, as codes, with the action each comes from.

    Parameters
    ----------
    actions : Actions
        The split actions of a group of hands.
    fields : Fields
        The group's fields (:func:`check_fields`): the variant of each hand
        says how many hole cards a deal or show holds and the deck.
    rejections : Rejections
        Gets, for the first bad action of a hand: cards not of two
        characters each, hole cards of another count than the variant
        deals (two in hold'em and short-deck, four to six in Omaha) or than
        the hand's first deal or show, more than five board cards in one
        deal, an unknown card, a card not in the variant's deck (below the
        six in short-deck).

    Returns
    -------
    code : ndarray of shape (cards,), dtype uint8
        The card codes of :mod:`pipeline.cards`, 254 for ``??`` (a card
        nobody saw), :data:`cards.INVALID` for a card that is not one.
    owner : ndarray of shape (cards,), dtype int64
        The action of each card (non-decreasing; its cards in order).
    width : int
        The most hole cards a deal or show of the group holds, 2 at least:
        the K of :func:`hole_cards`.
    """
    verb, arg_length, data = actions.verb, actions.arg_length, actions.data
    carded = actions.understood & ((verb == DH) | (verb == DB) | ((verb == SM) & (arg_length > 0)))
    carded &= ~actions.shows_dealt  # 'sm -': the cards are those dealt
    odd = (arg_length & 1).astype(bool)
    rejections.reject_actions(actions, carded & (odd | (arg_length == 0)),
                              lambda _: "cards are two characters each")
    carded &= ~odd & (arg_length > 0)
    board_deal = verb == DB
    hole = carded & ~board_deal
    rows = fields.variant_index
    two_only = bool(_TWO_ONLY[rows].all())
    if two_only:  # hold'em and short-deck: two cards every deal and show, no lookup per action
        miscounted = hole & (arg_length != 4)
    else:
        count = np.minimum(arg_length // 2, MAX_HOLE + 1)
        miscounted = hole & ~_HOLE_SIZES[rows[actions.hand], count]
    rejections.reject_actions(actions, miscounted, lambda a: _miscounted(arg_length[a] // 2,
                                                                         fields.variant[actions.hand[a]]))
    too_many = carded & board_deal & (arg_length > 2 * _BOARD)
    rejections.reject_actions(actions, too_many, lambda _: "more than five board cards")
    carded &= ~miscounted & ~too_many
    width = 2
    if not two_only:
        width, unlike = _same_counts(actions, carded & ~board_deal, rejections)
        carded[unlike] = False
    card_actions = np.flatnonzero(carded)
    per = arg_length[card_actions] // 2
    # Card k of an action begins 2k bytes into its argument: k is the card's rank less the action's first.
    first_card = np.cumsum(per) - per
    begin = 2 * np.arange(per.sum()) + np.repeat(actions.arg_start[card_actions] - 2 * first_card, per)
    pair = data[begin].astype(np.uint16) | data[begin + 1].astype(np.uint16) << 8 if len(begin) else \
        np.zeros(0, np.uint16)
    code: NDArray[np.uint8] = cards.CODE_OF_TEXT[pair]
    code[pair == ord("?") | ord("?") << 8] = UNKNOWN_CARD
    bad_card = code == cards.INVALID
    owner = np.repeat(card_actions, per)
    if bad_card.any():
        words = {int(owner[i]): data[begin[i]:begin[i] + 2].tobytes().decode("utf-8", "replace")
                 for i in np.flatnonzero(bad_card)[::-1]}
        rejections.reject_actions(
            actions, np.isin(np.arange(len(verb)), owner[bad_card]),
            lambda a: f"unknown card {shown(words[int(a)])} (ranks {cards.RANKS}, suits {cards.SUITS}, "
                      f"?? unknown)")
    if not _FULL_DECK[rows].all():  # a short deck (short-deck hold'em): its cards only
        _check_decks(code, owner, actions, rows, rejections)
    return code, owner, width


def _miscounted(count: int, variant: str) -> str:
    """The reason a deal or show of ``count`` hole cards does not fit ``variant``.

    >>> _miscounted(3, "PO"), _miscounted(4, "NT")
    ('3 hole cards, expected 4, 5 or 6 (PO)', '4 hole cards, expected 2 (NT)')
    """
    row = _CODES.index(variant) if variant in _CODES else _UNREAD
    return f"{count} hole cards, expected {deals.counts_text(_SHAPES[row].hole_sizes)} ({variant})"


def _same_counts(actions: Actions, hole: NDArray[np.bool_], rejections: Rejections
                 ) -> tuple[int, NDArray[np.intp]]:
    """Reject the hands whose deals and shows of hole cards (the actions ``hole`` flags) hold
    different counts, each named by the first that holds other than the hand's first.

    Returns the most hole cards one of the others holds (2 at least) and the actions rejected.
    """
    at = np.flatnonzero(hole)
    count = actions.arg_length[at] // 2
    hand = actions.hand[at]
    starts = np.flatnonzero(np.r_[True, hand[1:] != hand[:-1]]) if len(at) else at
    first = np.repeat(count[starts], np.diff(np.r_[starts, len(at)]))
    differs = count != first
    unlike = at[differs]
    if len(unlike):
        expected = dict(zip(unlike.tolist(), first[differs].tolist(), strict=True))
        rejections.reject_actions(actions, np.isin(np.arange(len(hole)), unlike),
                                  lambda a: f"{actions.arg_length[a] // 2} hole cards, where the hand's "
                                            f"first are {expected[int(a)]} (every player holds as many)")
    kept = count[~differs]
    return max(2, int(kept.max()) if len(kept) else 2), unlike


def _check_decks(code: NDArray[np.uint8], owner: NDArray[np.int64], actions: Actions, rows: NDArray[np.intp],
                 rejections: Rejections) -> None:
    """Reject the hands with a known card (``code``, of the actions ``owner``) not in their variant's
    deck (``rows``: each hand's row in the variant tables)."""
    deck_row = rows[actions.hand[owner]]
    outside = (code < cards.DECK_SIZE) & ~_IN_DECK[deck_row, np.minimum(code, cards.DECK_SIZE)]
    if not outside.any():
        return
    found = {int(owner[i]): (str(cards.CARD_TEXT[code[i]]), _SHAPES[deck_row[i]].deck_name)
             for i in np.flatnonzero(outside)[::-1]}  # each action's first card outside
    rejections.reject_actions(actions, np.isin(np.arange(len(actions.verb)), owner[outside]),
                              lambda a: "card {} is not in {}".format(*found[int(a)]))


def board_cards(code: NDArray[np.uint8], owner: NDArray[np.int64], actions: Actions, hands: int,
                rejections: Rejections) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    """The board of every hand: the cards of its ``d db`` actions in order.

    Parameters
    ----------
    code, owner : ndarray of shape (cards,)
        Card codes (uint8) and their actions (int64), from :func:`card_codes`.
    actions : Actions
        The split actions of the group.
    hands : int
        Hands in the group.
    rejections : Rejections
        Gets "more than five board cards" for a hand dealt more in all.

    Returns
    -------
    board : ndarray of shape (hands, 5), dtype uint8
        The board's card codes, 255 past the cards dealt.
    board_count : ndarray of shape (hands,), dtype int64
        The board cards dealt, all of them (more than five in a rejected hand).
    """
    board = np.full((hands, _BOARD), NO_CARD, dtype=np.uint8)
    is_board = actions.verb[owner] == DB
    board_hand = actions.hand[owner[is_board]]
    order = np.arange(len(board_hand))
    first_of_hand = np.searchsorted(board_hand, board_hand)  # board_hand is sorted
    slot = order - first_of_hand
    over = slot >= _BOARD
    rejections.reject(np.unique(board_hand[over]), "more than five board cards")
    board[board_hand[~over], slot[~over]] = code[is_board][~over]
    board_count: NDArray[np.int64] = np.bincount(board_hand, minlength=hands)
    return board, board_count


def hole_cards(code: NDArray[np.uint8], owner: NDArray[np.int64], width: int, actions: Actions, hands: int,
               rejections: Rejections) -> NDArray[np.uint8]:
    """The hole cards of every seat: those dealt, replaced by those the player shows.

    Parameters
    ----------
    code, owner : ndarray of shape (cards,)
        Card codes (uint8) and their actions (int64), from :func:`card_codes`.
    width : int
        The most hole cards a deal or show holds, from :func:`card_codes`.
    actions : Actions
        The split actions of the group.
    hands : int
        Hands in the group.
    rejections : Rejections
        Gets a reason for a player who shows other cards than the known
        cards dealt to it.

    Returns
    -------
    ndarray of shape (hands, seats, width), dtype uint8
        Card codes by hand and seat, a seat's cards first: 254 for a card
        nobody saw, 255 past its last card (all 255 where none was dealt).
    """
    holes = np.full((hands, _SEATS, width), NO_CARD, dtype=np.uint8)
    shown_cards = np.full((hands, _SEATS, width), NO_CARD, dtype=np.uint8)
    verb = actions.verb[owner]
    for which, grid, player in ((DH, holes, actions.target), (SM, shown_cards, actions.actor)):
        mine = verb == which
        if width == 2:
            acts = owner[mine][::2]
            # Seat -1 (a dealer's show) is the last seat of its hand, as a negative index is.
            seat = (np.minimum(player[acts], _SEATS) - 1) % _SEATS
            # A seat's two cards as one uint16: one item a seat, not a row of two.
            grid.view(np.uint16).reshape(-1)[actions.hand[acts] * _SEATS + seat] = code[mine].view(np.uint16)
        else:
            acts = owner[mine]
            place = np.arange(len(acts)) - np.searchsorted(acts, acts)  # each card's place in its action
            seat = (np.minimum(player[acts], _SEATS) - 1) % _SEATS
            grid[actions.hand[acts], seat, place] = code[mine]
    if width == 2:
        (dealt, dealt_too), (shown, shown_too) = np.moveaxis(holes, 2, 0), np.moveaxis(shown_cards, 2, 0)
        shown_known = (shown < UNKNOWN_CARD) & (shown_too < UNKNOWN_CARD)
        # Two pairs are the same cards when their lower and their higher codes are.
        differ = shown_known & (dealt < UNKNOWN_CARD) & (dealt_too < UNKNOWN_CARD) & (
            (np.minimum(dealt, dealt_too) != np.minimum(shown, shown_too))
            | (np.maximum(dealt, dealt_too) != np.maximum(shown, shown_too)))
    else:
        # Known: cards shown (or dealt), none of them '??'; past a seat's last card all are 255.
        shown_known = (shown_cards[:, :, 0] < UNKNOWN_CARD) & (shown_cards != UNKNOWN_CARD).all(axis=2)
        dealt_known = (holes[:, :, 0] < UNKNOWN_CARD) & (holes != UNKNOWN_CARD).all(axis=2)
        other = (np.sort(holes, axis=2) != np.sort(shown_cards, axis=2)).any(axis=2)  # as sets of cards
        differ = shown_known & dealt_known & other
    rows, seats = np.nonzero(differ)
    rejections.reject(rows, lambda i, row: f"p{seats[i] + 1} shows {_cards_of(shown_cards[row, seats[i]])}, "
                                           f"dealt {_cards_of(holes[row, seats[i]])}")
    if width == 2:
        pairs = np.where(shown_known, shown_cards.view(np.uint16)[:, :, 0], holes.view(np.uint16)[:, :, 0])
        known: NDArray[np.uint8] = pairs.view(np.uint8).reshape(holes.shape)
        return known
    wide: NDArray[np.uint8] = np.where(shown_known[:, :, None], shown_cards, holes)
    return wide


def check_dealt_twice(board: NDArray[np.uint8], holes: NDArray[np.uint8], rejections: Rejections) -> None:
    """Reject the hands in which a known card is dealt twice.

    Parameters
    ----------
    board : ndarray of shape (hands, 5), dtype uint8
        From :func:`board_cards`.
    holes : ndarray of shape (hands, seats, K), dtype uint8
        From :func:`hole_cards`.
    rejections : Rejections
        Gets "card Xx is dealt twice".
    """
    hands = len(board)
    every = np.concatenate([board, holes.reshape(hands, -1)], axis=1)
    # Unknown cards ('??') and cards not dealt take no place in the deck.
    twice = np.flatnonzero(~cards.all_distinct([np.minimum(column, cards.DECK_SIZE) for column in every.T]))
    rejections.reject(twice, lambda _, row: f"card {_twice(every[row])} is dealt twice")


def check_folded(actions: Actions, players: NDArray[np.int64], rejections: Rejections) -> None:
    """Reject the hands in which a player acts after folding.

    Parameters
    ----------
    actions : Actions
        The split actions of a group of hands.
    players : ndarray of shape (hands,), dtype int64
        The players seated in each hand.
    rejections : Rejections
        Gets "pN acts after folding" at the first such action.
    """
    mine = actions.by_player(players) & (actions.verb != OTHER)
    position = np.arange(len(mine))
    first_fold = np.full(len(players) * _SEATS, len(mine), dtype=np.int64)  # by slot
    folds = np.flatnonzero(mine & (actions.verb == FOLD))
    np.minimum.at(first_fold, actions.slot[folds], folds)
    after = mine & (position > first_fold[actions.slot])
    rejections.reject_actions(actions, after, lambda a: f"p{actions.actor[a]} acts after folding")


def _cards_of(codes: np.ndarray) -> str:
    return "".join("??" if c == UNKNOWN_CARD else str(cards.CARD_TEXT[c]) for c in codes if c != NO_CARD)


def _twice(codes: np.ndarray) -> str:
    real = codes[codes < cards.DECK_SIZE]
    values, counts = np.unique(real, return_counts=True)
    return str(cards.CARD_TEXT[values[counts > 1][0]])
