"""PHH actions split into their words: actor, verb, player dealt to, argument, amount.

Layer: formats and I/O (:mod:`pipeline.formats`); imports the hold'em game's seats, pyarrow's
string kernels and the foundation modules, nothing else of the package.

This module owns the reading of the action words of the specification
(``d dh p1 AcKd``, ``p2 cbr 250``, ``p1 cc``, ``p3 f``, ``p1 sm AcKd``, ...):
the verb codes (:data:`DH` ... :data:`SM`, :data:`OTHER`), and
:func:`split_actions`, which splits the actions of a whole group at once
with numpy over their bytes into :class:`Actions`, one row per action.  It
says what each action is, never whether it may be played: that is for the
checks and the replay (:func:`pipeline.formats.phh.replay`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from pipeline.arrays import as_mask
from pipeline.games import deals
from pipeline.text import offsets_and_data

_SEATS = deals.MAX_PLAYERS

# Verbs, as codes.
DH, DB, CBR, CC, FOLD, SM, OTHER = range(7)
_VERBS = {"dh": DH, "db": DB, "cbr": CBR, "cc": CC, "f": FOLD, "sm": SM}


@dataclass
class Actions:
    """The actions of a group of hands split into their words; action i is row i, in hand order.

    Attributes
    ----------
    texts : pyarrow.Array of n strings
        The actions as written.
    hand : ndarray of shape (n,), dtype int64
        The row of the action's hand in its group (non-decreasing).
    understood : ndarray of shape (n,), dtype bool
        The action has the shape ``ACTOR VERB [pN] [ARG]``.
    actor, target : ndarray of shape (n,), dtype int8
        Player numbers from 1: the actor (0 for the dealer ``d``), the player
        dealt to by ``d dh pN`` (0 for none); -1 for a word that is no player.
    verb : ndarray of shape (n,), dtype int8
        A verb code, :data:`DH` ... :data:`SM`, or :data:`OTHER`.
    arg_start, arg_length : ndarray of shape (n,), dtype int64
        Where the argument (cards or an amount) lies in ``data``; length 0
        for none.
    amount : ndarray of shape (n,), dtype float64
        The amount of a ``cbr`` (NaN when it is not a number, and for every
        other verb).
    data : ndarray of shape (bytes,), dtype uint8
        The bytes of the texts that ``arg_start`` points into.
    counts : ndarray of shape (hands,), dtype int64
        Actions per hand, the no-op actions (empty, blank, a comment alone)
        left out.
    """

    texts: pa.Array
    hand: NDArray[np.int64]
    understood: NDArray[np.bool_]
    actor: NDArray[np.int8]
    verb: NDArray[np.int8]
    target: NDArray[np.int8]
    arg_start: NDArray[np.int64]
    arg_length: NDArray[np.int64]
    amount: NDArray[np.float64]
    data: NDArray[np.uint8]
    counts: NDArray[np.int64]
    _mine: tuple[NDArray[np.int64], NDArray[np.bool_]] | None = field(default=None, init=False, repr=False,
                                                                     compare=False)

    @property
    def shows_dealt(self) -> NDArray[np.bool_]:
        """(n,) bool: ``pN sm -``, showing the hole cards already dealt face up."""
        face_up: NDArray[np.bool_] = self.understood & (self.verb == SM) & (self.arg_length == 1)
        shows = np.flatnonzero(face_up)  # few: read their argument only
        face_up[shows] = self.data[self.arg_start[shows]] == ord("-")
        return face_up

    @property
    def mucks(self) -> NDArray[np.bool_]:
        """(n,) bool: ``pN sm`` without cards, giving the hand up at the showdown."""
        mucks: NDArray[np.bool_] = self.understood & (self.verb == SM) & (self.arg_length == 0)
        return mucks

    def by_player(self, players: NDArray[np.int64]) -> NDArray[np.bool_]:
        """(n,) bool: an understood action of a player seated in its hand (``players`` per hand).

        Worked out once for the same ``players`` (several steps ask): not to be modified.
        """
        if self._mine is None or self._mine[0] is not players:
            self._mine = (players, self.understood & (self.actor >= 1) & (self.actor <= players[self.hand]))
        return self._mine[1]

    @cached_property
    def seat(self) -> NDArray[np.int8]:
        """(n,) int8: the actor's seat from 0, clipped into the seats so that it can index them."""
        seat: NDArray[np.int8] = np.clip(self.actor - 1, 0, _SEATS - 1)
        return seat

    @cached_property
    def slot(self) -> NDArray[np.int64]:
        """(n,) int64: the actor's place in a flat (hands, seats) array, ``hand * seats + seat``."""
        slot: NDArray[np.int64] = self.hand * _SEATS + self.seat
        return slot


_MAX_NUMBER = 24  # characters of an amount


def split_actions(texts: pa.Array, counts: NDArray[np.int64]) -> Actions:
    """Split every action into its words with numpy over the text bytes at once.

    An action is ``ACTOR VERB [pN] [ARG]``: the actor ``d`` or ``pN``, a
    lower-case verb, an optional player (``d dh pN``) and an optional
    argument (cards or an amount).  As the specification allows, words may
    be separated by several spaces, an action may have spaces around it and
    a ``#`` starts a comment; an action that is empty, blank or a comment
    alone is a no-op, left out.

    Parameters
    ----------
    texts : pyarrow.Array of n strings
        The actions of a group of hands, hand after hand.
    counts : ndarray of shape (hands,), dtype int64
        Actions per hand.

    Returns
    -------
    Actions
        Actor, verb, target, argument and amount of each action, with its
        hand and its text as written (comments kept, for the messages).

    Examples
    --------
    >>> actions = split_actions(pa.array(["d dh p1 AcKd", "p2 cbr 250", "p1 cc  # call", "p3 zz"]),
    ...                         np.array([3, 1]))
    >>> actions.hand.tolist(), actions.actor.tolist(), actions.target.tolist()
    ([0, 0, 0, 1], [0, 2, 1, 3], [1, 0, 0, 0])
    >>> actions.verb.tolist() == [DH, CBR, CC, OTHER], actions.amount[1], actions.understood.all()
    (True, np.float64(250.0), np.True_)
    >>> spaced = split_actions(pa.array([" p1  cbr   250 ", "", "# the flop", "p2 f # snap"]), np.array([4]))
    >>> spaced.counts.tolist(), spaced.actor.tolist(), spaced.amount[0], spaced.understood.all()
    ([2], [1, 2], np.float64(250.0), np.True_)
    """
    written = texts
    hand = np.repeat(np.arange(len(counts)), counts)
    if len(texts) and _untidy(texts):
        texts = pc.utf8_trim_whitespace(pc.replace_substring_regex(
            pc.replace_substring_regex(texts, r"#.*$", ""), r"\s+", " "))
        kept = pc.greater(pc.binary_length(texts), 0)
        if not pc.all(kept).as_py():
            written, texts = written.filter(kept), texts.filter(kept)
            hand = hand[as_mask(kept)]
            counts = np.bincount(hand, minlength=len(counts)).astype(np.int64)
    # From here words are parted by single spaces, and no action starts or ends with one.
    offsets, data, _ = offsets_and_data(texts)
    data = np.concatenate([data, np.zeros(_MAX_NUMBER + 4, dtype=np.uint8)])  # reads past an end stay in
    start, end = offsets[:-1].astype(np.int64), offsets[1:].astype(np.int64)
    cuts, words = _spaces(data, start, end)
    starts = [start, cuts[0] + 1, cuts[1] + 1, cuts[2] + 1]
    lengths = [cuts[0] - start, cuts[1] - starts[1], cuts[2] - starts[2], end - starts[3]]  # -1: no such word
    understood = (words <= 4) & (lengths[0] > 0) & (lengths[1] > 0)
    understood &= (lengths[2] != 0) & (lengths[3] != 0)  # no empty word: a double space
    dealer = (lengths[0] == 1) & (data[start] == ord("d"))
    player = _seat(data, starts[0], lengths[0])
    # Masks pick int8 by a product: np.where branches on each item of one byte, slow on mixed masks.
    actor = player * ~dealer
    understood &= dealer | (player > 0)
    verb, letters = _verbs(data, starts[1], lengths[1])
    understood &= letters
    # A third word pN is the player dealt to; the word after it, or else the third, the argument.
    third = _seat(data, starts[2], lengths[2])
    has_target = (lengths[2] > 0) & (data[starts[2]] == ord("p")) & ((lengths[3] > 0) | (verb == DH))
    target = third * has_target
    understood &= ~has_target | (third > 0)
    understood &= has_target | (words <= 3)
    arg_start = np.where(has_target, starts[3], starts[2])
    arg_length = np.maximum(np.where(has_target, lengths[3], lengths[2]), 0)
    amount = np.full(len(start), np.nan)
    bets = np.flatnonzero(verb == CBR)
    amount[bets] = _numbers(data, arg_start[bets], arg_length[bets])
    return Actions(texts=written, hand=hand, understood=understood, actor=actor, verb=verb, target=target,
                   arg_start=arg_start, arg_length=arg_length, amount=amount, data=data, counts=counts)


def _untidy(texts: pa.Array) -> bool:
    """Whether any action needs tidying: a comment, a blank other than one inner space, a no-op.

    Checked on the bytes of all actions at once, so that archives written
    tidily (the common case) skip the regular expressions.
    """
    offsets, data, _ = offsets_and_data(texts)
    body = data[offsets[0]:offsets[-1]]
    lengths = np.diff(offsets)
    if (lengths == 0).any() or (body == ord("#")).any() or (body < ord(" ")).any():
        return True
    space = body == ord(" ")
    if (space[1:] & space[:-1]).any():
        return True
    starts = (offsets[:-1] - offsets[0]).astype(np.int64)
    return bool(space[starts].any() or space[starts + lengths - 1].any())


def _spaces(data: np.ndarray, start: np.ndarray, end: np.ndarray) -> tuple[list[np.ndarray], np.ndarray]:
    """The first three spaces of every action (at its end where it has fewer), and its words.

    No action starts with a space; an action may be empty.  The spaces and
    the starts of all actions are found in one pass over the bytes: an
    action's spaces are the positions listed after its start.

    Parameters
    ----------
    data : ndarray of shape (bytes,), dtype uint8
        The bytes of the actions, then at least four bytes that are not spaces.
    start, end : ndarray of shape (n,), dtype int64
        Where each action begins and ends in ``data``.

    Returns
    -------
    cuts : list of three ndarrays of shape (n,), dtype int64
        Positions in ``data``.
    words : ndarray of shape (n,), dtype int64
        The spaces of each action plus one (0 for an empty action but the last).

    Examples
    --------
    >>> data = np.frombuffer(b"p1 ccd db AcKdp2 f\\0\\0\\0\\0", dtype=np.uint8)
    >>> cuts, words = _spaces(data, np.array([0, 5, 5, 14]), np.array([5, 5, 14, 18]))
    >>> [cut.tolist() for cut in cuts], words.tolist()
    ([[2, 5, 6, 16], [5, 5, 9, 18], [5, 5, 14, 18]], [2, 0, 3, 2])
    """
    n = len(start)
    if not n:
        return [np.zeros(0, dtype=np.int64)] * 3, np.zeros(0, dtype=np.int64)
    first, last = int(start[0]), int(end[-1])
    # Three starts past the last action, so that every action is followed by three listed positions.
    marked = data[first:last + 4] == ord(" ")
    marked[start - first] = True
    marked[-3:] = True
    at = np.flatnonzero(marked)
    at += first
    entry = np.flatnonzero(data[at] != ord(" "))  # the starts, in order
    if len(entry) < n + 3:  # an empty action starts where the next one does
        entry = np.concatenate([entry[np.concatenate([[0], np.cumsum(start[1:] != start[:-1])])], entry[-3:]])
    words = np.diff(entry[:n + 1])
    # A position listed after the action's spaces is the start of a later action: at or past its end.
    return [np.minimum(at[entry[:n] + k], end) for k in range(1, 4)], words


def _seat(data: np.ndarray, start: np.ndarray, length: np.ndarray) -> np.ndarray:
    """'pN' (N of one or two digits) -> N, anything else -> -1, as int8.

    >>> data = np.frombuffer(b"p3 p12 p0 px p123 d\\0\\0", dtype=np.uint8)
    >>> _seat(data, np.array([0, 3, 7, 10, 13, 18]), np.array([2, 3, 2, 2, 4, 1])).tolist()
    [3, 12, -1, -1, -1, -1]
    """
    first = data[start + 1] - ord("0")  # uint8: a byte below '0' wraps past 9
    second = data[start + 2] - ord("0")
    two = length == 2
    fine = (data[start] == ord("p")) & (first <= 9) & (two | ((length == 3) & (second <= 9)))
    # Picked by products, not np.where nor a mask: those branch on each byte, slow on mixed masks.
    seat = (first + (first * 9 + second) * ~two).view(np.int8)  # <= 99 if fine
    bad = ~fine | (seat == 0)
    picked: NDArray[np.int8] = seat * ~bad - bad
    return picked


def _verbs(data: np.ndarray, start: np.ndarray, length: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The verb code of every word (:data:`OTHER` for none), and whether it is 1 to 3 lower-case letters.

    >>> data = np.frombuffer(b"cbr cc f Cc sm\\0\\0\\0", dtype=np.uint8)
    >>> verb, letters = _verbs(data, np.array([0, 4, 7, 9, 12]), np.array([3, 2, 1, 2, 2]))
    >>> verb.tolist() == [CBR, CC, FOLD, OTHER, SM], letters.tolist()
    (True, [True, True, True, False, True])
    """
    letters = (length > 0) & (length <= 3)
    key = np.zeros(len(start), dtype=np.int32)
    for i in range(3):
        inside = length > i
        byte = data[start + i]
        letters &= ~inside | (byte - ord("a") <= ord("z") - ord("a"))  # uint8: below 'a' wraps
        key |= (byte * inside).astype(np.int32) << (8 * i)
    verb = np.full(len(start), OTHER, dtype=np.int8)
    for name, code in _VERBS.items():  # the keys differ: at most one term is not 0
        verb += (key == int.from_bytes(name.encode(), "little")) * np.int8(code - OTHER)
    return verb, letters


#: The most digits of a whole amount read as an integer: below 2 ** 53, exact in float64.
_EXACT_DIGITS = 15


def _numbers(data: np.ndarray, start: np.ndarray, length: np.ndarray) -> np.ndarray:
    """Words of digits with at most one inner '.' read as float64; NaN for anything else.

    The words are checked a column (a character) at a time.  A whole number
    of up to 15 digits is read digit by digit, exact; any other as the sum
    of its digits times powers of ten over a matrix as wide as the longest
    word (the order of that sum follows the width).

    >>> text = np.frombuffer(b"225 12.5 1e3 .5 7", dtype=np.uint8)
    >>> _numbers(np.append(text, np.zeros(32, np.uint8)), np.array([0, 4, 9, 13, 16]),
    ...          np.array([3, 4, 3, 2, 1])).tolist()
    [225.0, 12.5, nan, nan, 7.0]
    """
    n = len(start)
    width = int(min(length.max(initial=0), _MAX_NUMBER))
    values = np.full(n, np.nan)
    if not n or not width:
        return values
    fine = (length > 0) & (length <= _MAX_NUMBER)
    dots = np.zeros(n, dtype=np.int8)
    point = length.copy()  # where the first dot is, the length without one
    whole = np.zeros(n)
    for column in range(width):
        byte = data[start + column]
        inside = column < length
        dot = (byte == ord(".")) & inside
        digit = byte - ord("0")  # uint8: a byte below '0' wraps past 9
        fine &= ~inside | dot | (digit <= 9)
        point[dot & (dots == 0)] = column
        dots += dot
        whole = np.where(inside, whole * 10 + digit, whole)
    fine &= (dots <= 1) & (point > 0) & ~((dots > 0) & (point >= length - 1))
    exact = fine & (dots == 0) & (length <= _EXACT_DIGITS)
    values[exact] = whole[exact]
    other = np.flatnonzero(fine & ~exact)
    if len(other):
        columns = np.arange(width)
        matrix = data[start[other, None] + columns].astype(np.int64)
        digits = np.where((matrix >= ord("0")) & (matrix <= ord("9")) & (columns < length[other, None]),
                          matrix - ord("0"), 0)
        at = point[other, None]
        power = np.where(columns < at, at - 1 - columns, at - columns)
        values[other] = (digits * 10.0 ** power).sum(axis=1)
    return values
