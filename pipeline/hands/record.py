"""What a hand-history format hands over: a group of hands as its text wrote them, nothing worked out.

Layer: hands (:mod:`pipeline.hands`); imports :mod:`~pipeline.hands.model`,
:mod:`pipeline.ranges`, numpy and pyarrow.

This module owns the one interface between every hand-history format and
the rest of the package, :class:`Record`: the facts a format reads from
its text (who sat where with what, the forced bets and the actions in
order, the cards, what the record says each player received) as whole
arrays over a group of hands.  A format fills a Record and nothing more;
the replay of the chips, the positions, the audit and the three tables
(:mod:`pipeline.hands.model`) are worked out from it once, for every
format.

Seats are *slots*: ten columns per hand in the table's order (the slot
after slot s, clockwise, is s + 1, the first after the last), so that
positions follow from the button's slot.  A site's logs use slot = seat
number - 1; PHH the player's order (``p1`` is slot 0), in which the button
is the last player.
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
from numpy.typing import NDArray

from pipeline.hands.model import Action
from pipeline.ranges import ranges

#: Slots per hand: the most players a hand of any format seats.
SLOTS = 10
#: Card codes beyond the deck's 0..51: a card written but unseen (``??``, ``[-- --]``), and none.
UNKNOWN_CARD = 254
NO_CARD = 255
#: The most hole cards a player is dealt (six-card Omaha).
MAX_HOLE = 6
#: The codes of the :class:`~pipeline.hands.model.Action` vocabulary, as :attr:`Record.action` holds them.
CODE = {action: code for code, action in enumerate(Action)}


@dataclass
class Record:
    """A group of hands as one format read them: hand i is row i of every per-hand array.

    Per hand, shape (hands,)
    ------------------------
    number : int64
        The hand's number in its input, from 1, every hand counted: with the
        input's place in the run, its ``hand_key``.
    line : int64
        The line of the input where the hand starts; for a hand the format
        rejects, the line of the fault where it knows it.
    problem : object
        Why the format rejects the hand as it reads it (str), None for none.
    excerpt : list of str or None
        The text shown with the problem.
    apart : object
        Why the text sets the hand apart (an :class:`~pipeline.hands.model.Apart`
        reason: run twice, cancelled), None for none.
    hand : dict of str to pyarrow.Array
        Columns of :data:`~pipeline.hands.model.HANDS` the text writes, each of
        ``hands`` values (null where a hand does not say): ``hand_id``,
        ``table_key``, ``site``, ``table``, ``time``, ``time_zone``,
        ``variant``, ``game``, ``betting``, ``currency``, ``small_blind``,
        ``big_blind``, ``ante``, ``tournament_id``, ``buy_in``, ``level``,
        ``max_seats``.  The others (``button_seat``, ``players``, ``board``,
        ``pot``, ``rake``, ``outcome``, ``reason``) are worked out.
    button : int8
        The slot the record names as the button, -1 where it names none; a
        slot no one was dealt into is a dead button.

    Per slot, shape (hands, SLOTS)
    ------------------------------
    seat : int8
        The seat number the record gives the slot's player, 0 where no one
        is dealt in.
    player : pyarrow.Array of hands * SLOTS strings, or a dictionary of them
        Row-major (hand, slot): the player's name, null where no one is dealt in.
    stack : float64
        The starting stack (inf where the record does not know it).
    holes : uint8, shape (hands, SLOTS, K)
        Hole cards as codes 0..51, :data:`UNKNOWN_CARD` for a card nobody
        saw, :data:`NO_CARD` past a slot's last card; K (2 to
        :data:`MAX_HOLE`) the most cards a hand of the group deals a player
        (2 for hold'em, 4 to 6 for Omaha).
    board : uint8, shape (hands, 5)
        The board as dealt, :data:`NO_CARD` past its last card.

    Per action, shape (actions,), hand after hand, each hand's in order
    -----------------------------------------------------------------
    action_hand : int64
        The row of the action's hand.
    slot : int8
        The actor's slot.
    action : int8
        The :data:`CODE` of what it does.  A format that does not tell a bet
        from a raise, or a check from a call (PHH's ``cbr``, ``cc``) may give
        either: the replay names it from the chips.
    street : int8
        0 before the flop, 1 the flop, 2 the turn, 3 the river.
    to : float64
        A bet or raise: the player's total on the street after it; a post:
        its amount; NaN for the others.
    written : float64
        The chips the text says the action adds (a call's amount), NaN where
        it does not say.
    all_in : bool
        The text says the action puts the player all in.
    text : pyarrow.Array of actions strings, optional
        The action as written, shown when the hand is rejected.

    What the record says of the result
    ----------------------------------
    received : float64, shape (hands, SLOTS)
        What each player received from the pot, as the record says (PHH:
        finishing stacks or winnings; a site: its collections), NaN where
        it does not say.
    cashed_out : float64, shape (hands, SLOTS)
        Chips a player received from the site instead of the pot (an all-in
        cash-out) or paid to it (negative: insurance, GGPoker's cashout
        risk), 0 for none.
    returned : float64, shape (hands, SLOTS)
        The uncalled bet the record says went back to each player, NaN
        where the record does not say.
    pot, rake : float64, shape (hands,)
        The total pot and the rake as written, NaN where not written.
    main_pot : bool, shape (hands, SLOTS), optional
        The players the record names as winners of the main pot, where it
        tells the pots apart (a site's ``collected ... from pot`` or ``from
        main pot``): the main pot's winners are then known whatever the side
        pots.  A hand without any is one whose record does not tell them.
    finishing : float64, shape (hands, SLOTS), optional
        Finishing stacks where the record gives them (PHH), NaN elsewhere:
        what each player received is then worked out from the chips it put in.
    """

    number: NDArray[np.int64]
    line: NDArray[np.int64]
    problem: NDArray[np.object_]
    excerpt: list[str | None]
    apart: NDArray[np.object_]
    hand: dict[str, pa.Array]
    button: NDArray[np.int8]
    seat: NDArray[np.int8]
    player: pa.Array
    stack: NDArray[np.float64]
    holes: NDArray[np.uint8]
    board: NDArray[np.uint8]
    action_hand: NDArray[np.int64]
    slot: NDArray[np.int8]
    action: NDArray[np.int8]
    street: NDArray[np.int8]
    to: NDArray[np.float64]
    written: NDArray[np.float64]
    all_in: NDArray[np.bool_]
    received: NDArray[np.float64]
    cashed_out: NDArray[np.float64]
    returned: NDArray[np.float64]
    pot: NDArray[np.float64]
    rake: NDArray[np.float64]
    main_pot: NDArray[np.bool_] | None = None
    finishing: NDArray[np.float64] | None = None
    text: pa.Array | None = None

    @property
    def hands(self) -> int:
        """The number of hands."""
        return len(self.number)

    @property
    def dealt(self) -> NDArray[np.bool_]:
        """(hands, SLOTS) bool: a player is dealt in at the slot."""
        dealt: NDArray[np.bool_] = self.seat > 0
        return dealt

    def take(self, rows: NDArray[np.integer]) -> Record:
        """The hands at ``rows`` (in that order), each with its actions, as a Record of their own."""
        picked: NDArray[np.int64] = np.asarray(rows, dtype=np.int64)
        first = np.searchsorted(self.action_hand, picked)
        counts = np.searchsorted(self.action_hand, picked, side="right") - first
        return self._select(picked, ranges(first.astype(np.int64), counts.astype(np.int64)),
                            np.repeat(np.arange(len(picked), dtype=np.int64), counts))

    def slice(self, begin: int, stop: int) -> Record:
        """Hands ``begin`` to ``stop`` (rows of this Record) as a Record of their own: a format's
        batch.  Its arrays are views of this Record's (no copy but ``action_hand``, counted from
        the first hand), so that cutting a chunk into batches costs nothing."""
        first, last = (int(at) for at in np.searchsorted(self.action_hand, [begin, stop]))
        return self._select(slice(begin, stop), slice(first, last), self.action_hand[first:last] - begin)

    # (builtins.slice: in the class, ``slice`` is the method.)
    def _select(self, hands: builtins.slice | NDArray[np.int64], acts: builtins.slice | NDArray[np.int64],
                action_hand: NDArray[np.int64]) -> Record:
        """The Record of the hands and actions ``hands`` and ``acts`` pick (both slices, or both
        indexes), whose actions are of the hands ``action_hand`` counts in it."""

        def per_hand(values: NDArray[Any] | None) -> NDArray[Any] | None:
            return None if values is None else values[hands]

        if isinstance(hands, builtins.slice):
            excerpt = self.excerpt[hands]
        else:
            excerpt = [self.excerpt[row] for row in hands.tolist()]
        return Record(
            number=self.number[hands], line=self.line[hands], problem=self.problem[hands], excerpt=excerpt,
            apart=self.apart[hands], hand={name: _rows(column, hands) for name, column in self.hand.items()},
            button=self.button[hands], seat=self.seat[hands], player=_rows(self.player, hands, SLOTS),
            stack=self.stack[hands], holes=self.holes[hands], board=self.board[hands],
            action_hand=action_hand, slot=self.slot[acts], action=self.action[acts],
            street=self.street[acts], to=self.to[acts], written=self.written[acts], all_in=self.all_in[acts],
            received=self.received[hands], cashed_out=self.cashed_out[hands], returned=self.returned[hands],
            pot=self.pot[hands], rake=self.rake[hands], main_pot=per_hand(self.main_pot),
            finishing=per_hand(self.finishing),
            text=None if self.text is None else _rows(self.text, acts))

    def check(self) -> None:
        """Raise ValueError naming the first array whose shape does not fit the others (a format's bug)."""
        hands, actions = self.hands, len(self.action_hand)
        width = np.shape(self.holes)[2] if np.ndim(self.holes) == 3 else 0
        shapes = {"line": (hands,), "problem": (hands,), "apart": (hands,), "button": (hands,),
                  "seat": (hands, SLOTS), "stack": (hands, SLOTS),
                  "holes": (hands, SLOTS, min(max(width, 2), MAX_HOLE)),
                  "board": (hands, 5), "slot": (actions,), "action": (actions,), "street": (actions,),
                  "to": (actions,), "written": (actions,), "all_in": (actions,),
                  "received": (hands, SLOTS), "cashed_out": (hands, SLOTS), "returned": (hands, SLOTS),
                  "pot": (hands,), "rake": (hands,)}
        for name, shape in shapes.items():
            if np.shape(getattr(self, name)) != shape:
                raise ValueError(f"Record.{name} has shape {np.shape(getattr(self, name))}, not {shape}")
        if len(self.player) != hands * SLOTS or len(self.excerpt) != hands:
            raise ValueError("Record.player holds hands * SLOTS names and Record.excerpt hands texts")
        for name, column in self.hand.items():
            if len(column) != hands:
                raise ValueError(f"Record.hand[{name!r}] has {len(column)} values for {hands} hands")
        if actions and (np.diff(self.action_hand) < 0).any():
            raise ValueError("Record.action_hand is not in hand order")


def _rows(array: pa.Array, index: slice | NDArray[np.int64], width: int = 1) -> pa.Array:
    """The values of the rows ``index`` picks of ``array``, whose rows are ``width`` values each: a
    slice of it (no copy), or the values taken."""
    if isinstance(index, slice):
        start = index.start or 0
        return array.slice(start * width, ((index.stop or 0) - start) * width)
    return array.take(pa.array((index[:, None] * width + np.arange(width)).reshape(-1)))
