"""PHH hands as the shared Record: a group's fields and actions, checked, as every format hands them over.

Layer: formats and I/O (:mod:`pipeline.formats`); imports
:mod:`~pipeline.formats.phh.toml`, :mod:`~pipeline.formats.phh.actions`,
:mod:`~pipeline.formats.phh.checks`, :mod:`~pipeline.formats.phh.variants`,
:mod:`pipeline.hands` and the foundation modules.

This module owns what PHH's fields say in the terms of
:class:`~pipeline.hands.record.Record` (:func:`record_of`):

- ``variant`` names the game and the betting
  (:data:`~pipeline.formats.phh.variants.VARIANTS`: ``NT``, ``FT``, ``NS``,
  ``PO``, ``FO/8``); the rest reads alike in every variant;
- the slots are the players in the file's order (``p1`` is slot 0), and
  the button is the last of them;
- ``antes`` and ``blinds_or_straddles`` are posted before the first
  action, antes first, then the blinds in the order they are listed: the
  first a small blind, the second a big blind, the others straddles; a
  heads-up hand swaps the first two antes and blinds (its button, the
  second player, posts the small blind, as pokerkit reads it); a negative entry is a post
  of its size, live money, as pokerkit posts it; a blind of the last player (short-deck's
  button blind: ``[0, ..., 0, 3000]``) is a straddle, live money the others call;
- ``cbr`` is a bet or raise to its amount, ``cc`` a check or call (the
  replay names each from the chips), ``f`` a fold, ``sm`` with cards (or
  ``-``) a show and without a muck; the street of an action is the number
  of board deals before it; ``d dh`` and ``d db`` deal cards, not actions;
- ``finishing_stacks`` and ``winnings`` are the record's result;
- a hand that deals more than five board cards, none of its deals more than
  a flop's three, ran the board again: it is set apart (``run twice``).
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from pipeline.arrays import as_mask, masked, segment_starts
from pipeline.formats.phh.actions import CBR, CC, DB, FOLD, SM, Actions, split_actions
from pipeline.formats.phh.checks import (
    Fields,
    Rejections,
    board_cards,
    card_codes,
    check_actions,
    check_dealt_twice,
    check_fields,
    check_folded,
    hole_cards,
)
from pipeline.formats.phh.toml import Hands, padded
from pipeline.formats.phh.variants import VARIANTS
from pipeline.hands.model import Action, Apart
from pipeline.hands.record import CODE, SLOTS, Record
from pipeline.hands.times import utc


@cache
def _variant_columns() -> tuple[pa.Array, pa.Array]:
    """The game and the betting of each variant by its place in VARIANTS, null past them (a variant
    not read).  Built on first use: a pyarrow conversion at import would import pandas."""
    return (pa.array([variant.name for variant in VARIANTS.values()] + [None], pa.string()),
            pa.array([str(variant.betting) for variant in VARIANTS.values()] + [None], pa.string()))

_LAST_STREET = 3  # the river: a hand that deals more is rejected for its board


def streets(verb: NDArray[np.int8], hand: NDArray[np.int64]) -> NDArray[np.int8]:
    """The street of every action: the board deals before it in its hand, at most the river.

    Parameters
    ----------
    verb : ndarray of shape (n,), dtype int8
        Verb codes of the actions of a group, hand after hand.
    hand : ndarray of shape (n,), dtype int64
        The hand of each action (non-decreasing).

    Examples
    --------
    >>> from pipeline.formats.phh.actions import DH
    >>> streets(np.array([DH, CBR, DB, CC, DB, CC, DH]), np.array([0, 0, 0, 0, 0, 0, 1])).tolist()
    [0, 0, 0, 1, 1, 2, 0]
    """
    is_db = (verb == DB).astype(np.int64)
    before = np.cumsum(is_db) - is_db
    if not len(before):
        empty: NDArray[np.int8] = before.astype(np.int8)
        return empty
    first = segment_starts(hand)  # the first action of each action's hand
    street: NDArray[np.int8] = np.minimum(before - before[first], _LAST_STREET).astype(np.int8)
    return street


def forced_bets(fields: Fields, listed_blind: NDArray[np.float64]
                ) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int8], NDArray[np.float64],
                           NDArray[np.int64]]:
    """The antes and blinds of every hand as posts, with the order they are posted in.

    Parameters
    ----------
    fields : Fields
        From :func:`~pipeline.formats.phh.checks.check_fields` (posts as blinds of their size).
    listed_blind : ndarray of shape (hands, SLOTS), dtype float64
        ``blinds_or_straddles`` as listed, a post negative.

    Returns
    -------
    hand, slot, code, to, order : ndarray of shape (posts,)
        The hand and slot of each post, its action code and size, and its
        place among the hand's posts.
    """
    players, seated = fields.players, fields.seated
    hands = len(players)
    kind = np.full((hands, SLOTS), CODE[Action.POST_STRADDLE], dtype=np.int8)
    kind[:, 0], kind[:, 1] = CODE[Action.POST_SMALL_BLIND], CODE[Action.POST_BIG_BLIND]
    kind[listed_blind < 0] = CODE[Action.POST]
    place = np.broadcast_to(np.arange(SLOTS), (hands, SLOTS)).copy()  # where the blind is listed
    ante, blind = fields.ante.copy(), fields.blind.copy()
    two = np.flatnonzero(players == 2)
    for values in (kind, place, ante, blind):
        values[two, 0], values[two, 1] = values[two, 1], values[two, 0].copy()
    ante_rows, ante_slots = np.nonzero((ante > 0) & seated)
    blind_rows, blind_slots = np.nonzero((blind > 0) & seated)
    hand = np.concatenate([ante_rows, blind_rows]).astype(np.int64)
    slot = np.concatenate([ante_slots, blind_slots]).astype(np.int64)
    code = np.concatenate([np.full(len(ante_rows), CODE[Action.POST_ANTE], np.int8),
                           kind[blind_rows, blind_slots]]).astype(np.int8)
    to = np.concatenate([ante[ante_rows, ante_slots], blind[blind_rows, blind_slots]])
    order = np.concatenate([ante_slots, SLOTS + place[blind_rows, blind_slots]]).astype(np.int64)
    return hand, slot, code, to, order


def record_of(hands: Hands) -> Record:
    """Check a group of hands and hand it over as a Record (the rules in the module's docstring).

    The order of the checks is the order of the reasons: a hand keeps the
    first one (those of the parser, then the fields, the actions, the cards).
    """
    count = len(hands.ordinal)
    rejections = Rejections.of(hands)
    fields = check_fields(hands, rejections)
    actions = split_actions(hands.actions, hands.action_counts)
    check_actions(actions, fields.players, rejections)
    check_folded(actions, fields.players, rejections)
    code, owner, width = card_codes(actions, fields, rejections)
    before_board = rejections.rejected
    board, dealt = board_cards(code, owner, actions, count, rejections)
    # More than five board cards, each deal a street's (three at most): the board was run again,
    # a hand set apart, not one that cannot have been played.
    apart = np.full(count, None, dtype=object)
    again = np.flatnonzero(~before_board & rejections.rejected & (dealt > len(board[0]) if count else False))
    if len(again):
        apart[again] = str(Apart.RUN_TWICE)
        rejections.problem[again] = None
        for row in again.tolist():
            rejections.excerpt[row] = None
    holes = hole_cards(code, owner, width, actions, count, rejections)
    check_dealt_twice(board, holes, rejections)
    hand, slot, kind, to, street, text = _actions(actions, fields, hands)
    players = np.clip(fields.players, 0, SLOTS)
    seated = fields.seated
    finishing, winnings = hands.numbers["finishing_stacks"], hands.numbers["winnings"]
    record = Record(
        number=hands.ordinal, line=hands.line, problem=rejections.problem, excerpt=rejections.excerpt,
        apart=apart, hand=_hand_columns(hands, fields),
        button=np.where(players >= 2, players - 1, -1).astype(np.int8),
        seat=_seat_numbers(hands, seated, rejections),
        player=_names(hands.players, seated), stack=fields.stack, holes=holes, board=board,
        action_hand=hand, slot=slot, action=kind, street=street, to=to, written=np.full(len(hand), np.nan),
        all_in=np.zeros(len(hand), dtype=bool), received=_given(winnings),
        cashed_out=np.zeros((count, SLOTS)), returned=np.full((count, SLOTS), np.nan),
        pot=np.full(count, np.nan), rake=np.full(count, np.nan),
        finishing=_given(finishing), text=text)
    # The parser gives the hands it read fast first: the Record is in the file's order.
    order = np.argsort(hands.ordinal, kind="stable")
    return record if (order == np.arange(count)).all() else record.take(order)


def _given(lists: tuple[np.ndarray, np.ndarray]) -> NDArray[np.float64]:
    """A per-seat number field of every hand, NaN in a hand that does not give it."""
    values, lengths = lists
    found: NDArray[np.float64] = np.where((lengths >= 0)[:, None], padded(values, lengths), np.nan)
    return found


def _actions(actions: Actions, fields: Fields, hands: Hands
             ) -> tuple[NDArray[np.int64], NDArray[np.int8], NDArray[np.int8], NDArray[np.float64],
                        NDArray[np.int8], pa.Array]:
    """The action rows of a group, posts first in each hand: hand, slot, code, to, street, text."""
    verb = actions.verb
    mine = np.flatnonzero(actions.by_player(fields.players) & np.isin(verb, [CBR, CC, FOLD, SM]))
    played = verb[mine]
    code = np.select([played == CBR, played == CC, played == FOLD, actions.arg_length[mine] > 0],
                     [CODE[Action.BET], CODE[Action.CALL], CODE[Action.FOLD], CODE[Action.SHOW]],
                     CODE[Action.MUCK]).astype(np.int8)
    street = streets(verb, actions.hand)[mine]
    listed = padded(*hands.numbers["blinds_or_straddles"])
    post_hand, post_slot, post_code, post_to, post_order = forced_bets(fields, listed)
    hand = np.concatenate([post_hand, actions.hand[mine]])
    # Each hand's posts in their order, then its actions as written: the posts sorted among
    # themselves (few), then a stable sort by hand puts each hand's posts before its actions.
    posts = np.lexsort((post_order, post_hand))
    order = np.concatenate([posts, len(post_hand) + np.arange(len(mine))])
    order = order[np.argsort(hand[order], kind="stable")]
    slot = np.concatenate([post_slot, actions.seat[mine]]).astype(np.int8)
    kinds = np.concatenate([post_code, code]).astype(np.int8)
    to = np.concatenate([post_to, np.where(played == CBR, actions.amount[mine], np.nan)])
    streets_of = np.concatenate([np.zeros(len(post_hand), np.int8), street]).astype(np.int8)
    # The text of each row as written (none for a post), taken from the actions' texts at once.
    written = np.concatenate([np.full(len(post_hand), -1, dtype=np.int64), mine])[order]
    texts = actions.texts.take(masked(written, pa.int64(), written < 0)).cast(pa.string())
    return hand[order], slot[order], kinds[order], to[order], streets_of[order], texts


def _hand_columns(hands: Hands, fields: Fields) -> dict[str, pa.Array]:
    """The hands-table columns a PHH hand writes: its ids, table, time, stakes, game and betting."""
    variant = pc.fill_null(hands.variant, "")  # as the checks read it (Fields.variant)
    index = pa.array(fields.variant_index.astype(np.int64))
    text = hands.fields
    zone = pc.coalesce(text["time_zone"], text["time_zone_abbreviation"])
    symbol = pc.replace_substring_regex(pc.replace_substring_regex(
        pc.replace_substring_regex(text["currency_symbol"], r"^\$$", "USD"), "^€$", "EUR"), "^£$", "GBP")
    symbol = pc.if_else(pc.is_in(symbol, value_set=pa.array(["USD", "EUR", "GBP"])), symbol,
                        pa.scalar(None, pa.string()))
    return {
        "hand_id": text["hand"],
        "table_key": hands.table_key,
        "site": hands.venue,
        "table": text["table"],
        "time": utc(_local_times(text), zone),
        "time_zone": zone,
        "variant": pc.if_else(pc.equal(variant, ""), pa.scalar(None, pa.string()), variant),
        "game": _variant_columns()[0].take(index),
        "betting": _variant_columns()[1].take(index),
        "currency": pc.coalesce(text["currency"], symbol),
        "max_seats": _integers(text["seat_count"], pa.int8()),
        **_stakes(hands),
    }


def _stakes(hands: Hands) -> dict[str, pa.Array]:
    """The blinds and the ante as listed: the blinds are the first two entries of
    ``blinds_or_straddles`` (a straddle comes after them, a post is negative), the ante the one
    every player antes; null where the record gives none, or antes that differ (a big blind's
    ante).  A hand whose one blind is the last player's, the button's (short-deck's button blind),
    gives it as the big blind, as PokerStars' 6+ stakes do.

    >>> from types import SimpleNamespace
    >>> numbers = {"blinds_or_straddles": (np.array([50., 100., 0., 1., 2., 4., 0., 0., 30.]),
    ...                                    np.array([3, 3, 3])),
    ...            "antes": (np.array([0., 0., 0., 5., 5., 5., 10., 10., 10.]), np.array([3, 3, 3]))}
    >>> {k: v.to_pylist() for k, v in _stakes(SimpleNamespace(numbers=numbers)).items()}
    {'small_blind': [50.0, 1.0, None], 'big_blind': [100.0, 2.0, 30.0], 'ante': [None, 5.0, 10.0]}
    """
    every = padded(*hands.numbers["blinds_or_straddles"])
    blinds = every[:, :2]
    posted = blinds > 0
    big = np.where(posted.any(axis=1), np.where(posted, blinds, -np.inf).max(axis=1), np.nan)
    if every.size:  # the one blind the last player posts: nothing before it is
        count = np.asarray(hands.numbers["blinds_or_straddles"][1])
        last = every[np.arange(len(every)), np.clip(count - 1, 0, every.shape[1] - 1)]
        before_last = np.arange(every.shape[1]) < count[:, None] - 1
        only_last = (last > 0) & ~((every > 0) & before_last).any(axis=1)
        big = np.where(only_last & ~posted.any(axis=1), last, big)
    small = np.where(posted.all(axis=1), np.where(posted, blinds, np.inf).min(axis=1), np.nan)
    antes = padded(*hands.numbers["antes"])
    listed = np.arange(antes.shape[1]) < np.maximum(hands.numbers["antes"][1], 0)[:, None]
    same = np.where(listed, antes == antes[:, :1], True).all(axis=1) & listed.any(axis=1)
    ante = np.where(same & (antes[:, 0] > 0), antes[:, 0], np.nan)
    return {name: pa.array(column, pa.float64(), mask=np.isnan(column))
            for name, column in (("small_blind", small), ("big_blind", big), ("ante", ante))}


def _integers(values: pa.Array, kind: pa.DataType) -> pa.Array:
    """Whole numbers as written (``6``), null where a value is none or not one that fits ``kind``."""
    fits = as_mask(pc.match_substring_regex(values, "^[0-9]{1,4}$"))
    number = pc.cast(pc.if_else(pa.array(fits), values, pa.scalar("0")), pa.int64())
    return pc.cast(pc.if_else(pa.array(fits), number, pa.scalar(None, pa.int64())), kind, safe=False)


def _local_times(text: dict[str, pa.Array]) -> pa.Array:
    """The local time of each hand from ``year``, ``month``, ``day`` and ``time`` (midnight without
    one); null where the date is incomplete or not a date."""
    year, month, day = (_integers(text[name], pa.int64()) for name in ("year", "month", "day"))
    clock = pc.coalesce(text["time"], pa.scalar("00:00:00"))
    written = pc.binary_join_element_wise(pc.cast(year, pa.string()), pc.cast(month, pa.string()),
                                          pc.cast(day, pa.string()), clock, "-")
    # "2009-7-1-00:00:26"; strptime takes a month and a day of one digit, and refuses a date that is none.
    return pc.strptime(written, format="%Y-%m-%d-%H:%M:%S", unit="us", error_is_null=True)


def _seat_numbers(hands: Hands, seated: NDArray[np.bool_], rejections: Rejections) -> NDArray[np.int8]:
    """(hands, SLOTS) int8: the table seat of each player: the ``seats`` field where a hand gives it,
    else the player's place (``p3`` is 3); 0 at an empty slot.  A ``seats`` field that is not one
    seat number, 1 to 10, for each player, each once, rejects its hand."""
    own = np.where(seated, np.arange(1, SLOTS + 1), 0)
    values, lengths = hands.numbers["seats"]
    given = lengths >= 0
    listed = padded(values, lengths)
    players = seated.sum(axis=1)
    fine = (lengths == players) & ((listed >= 1) & (listed <= SLOTS) & (listed == np.round(listed))
                                   | ~seated).all(axis=1)
    ordered = np.sort(np.where(seated, listed, 0), axis=1)
    fine &= ~((ordered[:, 1:] == ordered[:, :-1]) & (ordered[:, 1:] > 0)).any(axis=1)
    wrong = np.flatnonzero(given & ~fine)
    rejections.reject(wrong, f"seats is not a seat number from 1 to {SLOTS} for each player, each once")
    seats: NDArray[np.int8] = np.where((given & fine)[:, None] & seated, listed, own).astype(np.int8)
    return seats


def _names(names: pa.Array, seated: NDArray[np.bool_]) -> pa.Array:
    """(hands * SLOTS,) the name of each slot's player (``players``), null where none is seated or named."""
    lengths = pc.list_value_length(names).fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64)
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]) if len(lengths) else np.zeros(0, np.int64)
    slots = np.arange(SLOTS)
    named = seated & (slots < lengths[:, None])
    where = np.where(named, starts[:, None] + slots, 0).reshape(-1)
    flat = pc.list_flatten(names)
    if not len(flat):
        return pa.nulls(len(where), pa.string())
    return pc.if_else(pa.array(named.reshape(-1)), flat.take(pa.array(where, pa.int64())),
                      pa.scalar(None, pa.string()))
