"""The three hand tables of a group of hands, built from a format's Record and the replay of its chips.

Layer: hands (:mod:`pipeline.hands`); imports the other hands modules, the
card codes of :mod:`pipeline.poker.cards` and :mod:`pipeline.arrays`.

This module owns how a hand ends (:func:`outcomes`: one rule for every
format) and the rows of the tables of :mod:`pipeline.hands.model`
(:func:`tables`): every hand read is a row of ``hands``; the players dealt
into a hand that is not rejected are rows of ``seats``, and its actions
rows of ``actions``.  A rejected hand's seats and actions are not written:
what its text says cannot be trusted to be a hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from pipeline.arrays import across, masked, segment_starts
from pipeline.hands import model
from pipeline.hands.model import Action, Outcome
from pipeline.hands.positions import positions
from pipeline.hands.record import CODE, NO_CARD, SLOTS, UNKNOWN_CARD, Record
from pipeline.hands.replay import Chips, tolerance
from pipeline.poker import cards

OUTCOME_CODE = {outcome: code for code, outcome in enumerate(Outcome)}
_BOARD = 5

# Three bytes per card code: its text and a space; "??" for a card nobody saw, blanks for none.
_CARD_TOKENS = np.full((256, 3), ord(" "), dtype=np.uint8)
_CARD_TOKENS[:cards.DECK_SIZE, :2] = np.frombuffer("".join(cards.CARD_TEXT).encode(), np.uint8).reshape(-1, 2)
_CARD_TOKENS[UNKNOWN_CARD, :2] = ord("?")


def cards_text(codes: NDArray[np.uint8]) -> pa.Array:
    """Rows of card codes as text, unknown cards as ``??``; null where a row has no card.

    Parameters
    ----------
    codes : ndarray of shape (n, k), dtype uint8
        Codes 0..51, :data:`~pipeline.hands.record.UNKNOWN_CARD`, and
        :data:`~pipeline.hands.record.NO_CARD` after a row's last card.

    Examples
    --------
    >>> cards_text(np.array([[51, 254, 255], [255, 255, 255]], dtype=np.uint8)).to_pylist()
    ['As ??', None]
    """
    n, k = codes.shape
    data = _CARD_TOKENS[codes].reshape(-1)
    offsets = np.arange(n + 1, dtype=np.int32) * 3 * k
    text = pa.Array.from_buffers(pa.string(), n, [None, pa.py_buffer(offsets), pa.py_buffer(data)])
    trimmed = pc.utf8_rtrim(text, characters=" ")
    return pc.if_else(pc.equal(trimmed, ""), pa.scalar(None, pa.string()), trimmed)


def slot_cards(holes: NDArray[np.integer], flat: NDArray[np.integer]) -> NDArray[np.uint8]:
    """The hole cards of some slots: ``holes`` (hands, SLOTS, K) at the flat places ``hand * SLOTS + slot``.

    Two codes of a slot (hold'em's) are gathered as one 16-bit item: numpy
    gathers items many times quicker than pairs of bytes.

    Returns
    -------
    ndarray of shape (len(flat), K), dtype uint8

    >>> holes = np.arange(2 * SLOTS * 2, dtype=np.uint8).reshape(2, SLOTS, 2)
    >>> slot_cards(holes, np.array([SLOTS + 1, 0])).tolist()
    [[22, 23], [0, 1]]
    >>> slot_cards(np.arange(SLOTS * 4, dtype=np.uint8).reshape(1, SLOTS, 4), np.array([1])).tolist()
    [[4, 5, 6, 7]]
    """
    width = holes.shape[2]
    rows = np.ascontiguousarray(holes, dtype=np.uint8)
    if width != 2:
        wide: NDArray[np.uint8] = rows.reshape(-1, width)[flat]
        return wide
    pairs = rows.view(np.uint16).reshape(-1)
    found: NDArray[np.uint8] = pairs[flat].view(np.uint8).reshape(-1, 2)
    return found


@dataclass
class Ending:
    """How each hand of a group ends: an :class:`~pipeline.hands.model.Outcome` code and its reason.

    Attributes
    ----------
    outcome : ndarray of shape (hands,), dtype int8
    reason : ndarray of shape (hands,), dtype object
        Why a hand is rejected or set apart (str), None for the others.
    scored : ndarray of shape (hands,), dtype bool
        A showdown to score: the contesting players' cards and the board known.
    """

    outcome: NDArray[np.int8]
    reason: NDArray[np.object_]

    @property
    def scored(self) -> NDArray[np.bool_]:
        found: NDArray[np.bool_] = self.outcome == OUTCOME_CODE[Outcome.SCORED]
        return found

    @property
    def kept(self) -> NDArray[np.bool_]:
        """(hands,) bool: not rejected: the hand's seats and actions are rows of the tables."""
        found: NDArray[np.bool_] = self.outcome != OUTCOME_CODE[Outcome.REJECTED]
        return found


def outcomes(record: Record, chips: Chips) -> Ending:
    """How every hand ends, the first rule that applies, in this order:

    rejected (the format's reason); set apart (run twice, cancelled, ...);
    no showdown (fewer than two players live at the end); unknown cards (a
    contesting player's hole cards or a board card not known, or every
    live player mucked); scored.
    """
    rejected = record.problem != None  # noqa: E711 (elementwise)
    apart = ~rejected & (record.apart != None)  # noqa: E711
    showdown = chips.showdown
    contesting = chips.contesting
    # Known cards up to the slot's last: NO_CARD past it (an Omaha hand of four in a group of six).
    holes_known = (record.holes[:, :, 0] < cards.DECK_SIZE) & (
        (record.holes < cards.DECK_SIZE) | (record.holes == NO_CARD)).all(axis=2)
    known = (across(np.logical_and, record.board < cards.DECK_SIZE)
             & across(np.logical_and, holes_known | ~contesting) & across(np.logical_or, contesting))
    outcome = np.full(record.hands, OUTCOME_CODE[Outcome.SCORED], dtype=np.int8)
    outcome[~known] = OUTCOME_CODE[Outcome.UNKNOWN_CARDS]
    outcome[~showdown] = OUTCOME_CODE[Outcome.NO_SHOWDOWN]
    outcome[apart] = OUTCOME_CODE[Outcome.SET_APART]
    outcome[rejected] = OUTCOME_CODE[Outcome.REJECTED]
    reason = np.full(record.hands, None, dtype=object)
    reason[apart] = record.apart[apart]
    reason[rejected] = record.problem[rejected]
    return Ending(outcome=outcome, reason=reason)


def received(record: Record, chips: Chips) -> NDArray[np.float64]:
    """(hands, SLOTS) float64: what each player received, as the record says; NaN where it does not.

    Finishing stacks, where the record gives them and the stack is known,
    say ``finishing - starting + contributed``; else the record's own
    figure (winnings, collections); a cash-out's chips come on top.
    """
    got = record.received.copy()
    if record.finishing is not None:
        known = np.isfinite(record.finishing) & np.isfinite(record.stack)
        got = np.where(known, record.finishing - record.stack + chips.contributed, got)
    got = got + record.cashed_out
    return np.where(record.dealt, got, np.nan)


#: Decimal places chips are written with: what sums and differences of binary floats leave beyond
#: them is rounding (24.54 - 21.09 + 3 is 6.449999999999999), never a chip.
CHIP_DECIMALS = 8


def player_names(player: pa.Array, at: NDArray[np.int64]) -> pa.Array:
    """The names of :attr:`Record.player <pipeline.hands.record.Record.player>` at ``at`` as the
    tables type them (dictionary of strings): a Record's dictionary kept (its codes taken, its
    values cast), plain strings encoded."""
    taken = player.take(pa.array(at, pa.int64()))
    if pa.types.is_dictionary(taken.type):
        return taken.cast(model.SEATS.field("player").type)
    return taken.cast(pa.string()).dictionary_encode()


def chips_column(values: NDArray[np.float64], *, mask: NDArray[np.bool_] | None = None) -> pa.Array:
    """A column of chips, rounded to :data:`CHIP_DECIMALS`; null where ``mask``.

    >>> chips_column(np.array([24.54 - 21.09 + 3, 0.1 + 0.2])).to_pylist()
    [6.45, 0.3]
    """
    return masked(np.round(values, CHIP_DECIMALS), pa.float64(), mask)


def _text_column(values: pa.Array | None, count: int, kind: pa.DataType) -> pa.Array:
    """A column of the model from what the format gave (cast to the model's type), null where none."""
    if values is None:
        return pa.nulls(count, kind)
    if pa.types.is_dictionary(kind) and not pa.types.is_dictionary(values.type):
        return pc.cast(values, kind.value_type).dictionary_encode().cast(kind)
    return pc.cast(values, kind)


def _vocabulary(name: str, values: pa.Array | None, count: int) -> pa.Array:
    """A vocabulary column from text (the format's), in the vocabulary's order; null where not in it."""
    if values is None:
        return model.vocabulary_column(name, np.zeros(count, np.int8), present=np.zeros(count, bool))
    codes = model.vocabulary_codes(values, name)
    return model.vocabulary_column(name, np.maximum(codes, 0), present=codes >= 0)


def _blind_slots(record: Record) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """(hands,) int64 each: the slot that posted the small blind and the big blind, -1 for none."""
    found = []
    for action in (Action.POST_SMALL_BLIND, Action.POST_BIG_BLIND):
        slot = np.full(record.hands, -1, dtype=np.int64)
        rows = np.flatnonzero(record.action == CODE[action])[::-1]  # the first post of a hand wins
        slot[record.action_hand[rows]] = record.slot[rows]
        found.append(slot)
    return found[0], found[1]


def _button_blind(record: Record, small: NDArray[np.int64], big: NDArray[np.int64]) -> NDArray[np.bool_]:
    """(hands,) bool: the hands without a small or big blind whose button posts a live blind
    (short-deck's button blind: PokerStars' ``posts button blind``, PHH's last player's blind)."""
    live = np.isin(record.action, [CODE[Action.POST], CODE[Action.POST_STRADDLE]])
    by_button = live & (record.slot == record.button[record.action_hand])
    posted = np.zeros(record.hands, dtype=bool)
    posted[record.action_hand[by_button]] = True
    found: NDArray[np.bool_] = posted & (small < 0) & (big < 0)
    return found


def tables(record: Record, chips: Chips, ending: Ending, *, keys: NDArray[np.int64],
           source: pa.Array, inconsistent: NDArray[np.bool_] | None = None,
           got: NDArray[np.float64] | None = None) -> dict[str, pa.Table]:
    """The ``hands``, ``seats`` and ``actions`` tables of a group of hands.

    Parameters
    ----------
    record : Record
        The group as its format read it.
    chips : Chips
        Its :func:`~pipeline.hands.replay.replay`.
    ending : Ending
        Its :func:`outcomes`.
    keys : ndarray of shape (hands,), dtype int64
        The ``hand_key`` of each hand (:func:`~pipeline.hands.model.hand_key`).
    source : pyarrow.Array of hands strings
        The file of each hand, as the user named it.
    inconsistent : ndarray of shape (hands,), dtype bool, optional
        The hands whose record is no result (the audit's): a rake left over
        from what it pays is no rake.
    got : ndarray of shape (hands, SLOTS), dtype float64, optional
        What each player received (:func:`received`), where the caller has it
        already (the audit's): not worked out again.

    Returns
    -------
    dict of str to pyarrow.Table
        Of the schemas :data:`~pipeline.hands.model.TABLES`, hands in row order.
    """
    hands = record.hands
    kept = ending.kept
    got = received(record, chips) if got is None else got
    written = record.hand
    given = {name: _text_column(written.get(name), hands, model.HANDS.field(name).type)
             for name in ("hand_id", "table_key", "source", "site", "table", "time", "time_zone", "variant",
                          "currency", "small_blind", "big_blind", "ante", "tournament_id", "buy_in", "level",
                          "max_seats")}
    given["source"] = _text_column(source, hands, model.HANDS.field("source").type)
    button = record.button.astype(np.int64)
    on_table = (button >= 0) & (button < SLOTS)
    button_seat = np.where(on_table, record.seat[np.arange(hands), np.clip(button, 0, SLOTS - 1)], 0)
    if "button_seat" in written:
        button_seat = np.where(button_seat > 0, button_seat,
                               pc.fill_null(written["button_seat"], 0).to_numpy(zero_copy_only=False))
    recorded_rake = np.where(np.isnan(record.rake), chips.pot - np.nansum(np.where(
        record.dealt, got, 0.0), axis=1), record.rake)
    rake_known = ~np.isnan(record.rake) | (np.isfinite(got).any(axis=1)
                                           & (True if inconsistent is None else ~inconsistent))
    hand_columns = {
        "hand_key": pa.array(keys, pa.int64()),
        **{n: given[n] for n in ("hand_id", "table_key", "source", "site", "table", "time", "time_zone")},
        "game": _vocabulary("game", written.get("game"), hands),
        "betting": _vocabulary("betting", written.get("betting"), hands),
        **{n: given[n] for n in ("variant", "currency", "small_blind", "big_blind", "ante", "tournament_id",
                                 "buy_in", "level", "max_seats")},
        "players": pa.array(record.dealt.sum(axis=1).astype(np.int8), pa.int8()),
        "button_seat": masked(button_seat.astype(np.int8), pa.int8(), button_seat <= 0),
        "board": cards_text(record.board),
        "pot": chips_column(chips.pot, mask=~kept),
        "rake": chips_column(recorded_rake, mask=~kept | ~rake_known),
        "outcome": model.vocabulary_column("outcome", ending.outcome),
        "reason": pa.array(ending.reason.tolist(), pa.string()),
    }
    hands_table = pa.table(hand_columns, schema=model.HANDS)
    return {"hands": hands_table, "seats": _seats(record, chips, ending, got, keys, given["hand_id"]),
            "actions": _actions(record, chips, ending, keys, given["hand_id"])}


def _seats(record: Record, chips: Chips, ending: Ending, got: NDArray[np.float64], keys: NDArray[np.int64],
           hand_id: pa.Array) -> pa.Table:
    """The ``seats`` rows: the players dealt into each hand kept, hand by hand, in slot order."""
    # Each row's place in the flat (hands, SLOTS) arrays: one gather per column, several times
    # quicker than numpy's indexing by rows and slots, and one pass to find them.
    flat = np.flatnonzero(record.dealt & ending.kept[:, None])
    rows = flat // SLOTS

    def at(values: NDArray[Any]) -> NDArray[Any]:
        found: NDArray[Any] = values.reshape(-1)[flat]
        return found

    small, big = _blind_slots(record)
    codes = at(positions(record.dealt, record.button, small_blind=small, big_blind=big,
                         button_blind=_button_blind(record, small, big)))
    contributed = at(chips.contributed)
    got_here = at(got)
    near = tolerance(np.where(record.dealt, record.stack, 0.0))[rows]
    holes = slot_cards(record.holes, flat)
    stacks = at(record.stack)
    contesting = at(chips.contesting)

    def street(values: NDArray[np.int8]) -> pa.Array:
        return model.vocabulary_column("street", np.maximum(values, 0), present=values >= 0)

    columns = {
        "hand_key": pa.array(keys[rows], pa.int64()), "hand_id": hand_id.take(pa.array(rows)),
        "seat": pa.array(at(record.seat), pa.int8()),
        "player": player_names(record.player, flat),
        "position": model.vocabulary_column("position", np.maximum(codes, 0), present=codes >= 0),
        "starting_stack": chips_column(stacks, mask=~np.isfinite(stacks)),
        "contributed": chips_column(contributed),
        "received": chips_column(got_here, mask=np.isnan(got_here)),
        "net": chips_column(np.round(got_here, CHIP_DECIMALS) - np.round(contributed, CHIP_DECIMALS),
                            mask=np.isnan(got_here)),
        "hole_cards": cards_text(holes),
        "folded_street": street(at(chips.folded_street)),
        "all_in_street": street(at(chips.all_in_street)),
        "showed": pa.array(at(chips.showed)), "mucked": pa.array(at(chips.mucked)),
        "at_showdown": pa.array(at(chips.live) & chips.showdown[rows]),
        "won": masked(np.nan_to_num(got_here) > near, pa.bool_(), np.isnan(got_here) & ~contesting),
    }
    return pa.table(columns, schema=model.SEATS)


def _actions(record: Record, chips: Chips, ending: Ending, keys: NDArray[np.int64],
             hand_id: pa.Array) -> pa.Table:
    """The ``actions`` rows of the hands kept, in order, each numbered from 0 in its hand."""
    rows = np.flatnonzero(ending.kept[record.action_hand])
    hand = record.action_hand[rows]
    index = (np.arange(len(record.action_hand)) - segment_starts(record.action_hand))[rows]
    slot = record.slot[rows].astype(np.int64)
    # A total is what a bet or a raise says; the other actions' are read from the amounts.
    raising = np.isin(chips.action[rows], [CODE[Action.BET], CODE[Action.RAISE]])
    columns = {
        "hand_key": pa.array(keys[hand], pa.int64()), "hand_id": hand_id.take(pa.array(hand)),
        "index": pa.array(index.astype(np.int16), pa.int16()),
        "street": model.vocabulary_column("street", record.street[rows]),
        "seat": pa.array(record.seat.reshape(-1)[hand * SLOTS + slot], pa.int8()),
        "player": player_names(record.player, hand * SLOTS + slot),
        "action": model.vocabulary_column("action", chips.action[rows]),
        "amount": chips_column(chips.amount[rows]),
        "to": chips_column(chips.to[rows], mask=np.isnan(chips.to[rows]) | ~raising),
        "all_in": pa.array(chips.all_in[rows]),
        "pot_before": chips_column(chips.pot_before[rows]),
    }
    return pa.table(columns, schema=model.ACTIONS)
