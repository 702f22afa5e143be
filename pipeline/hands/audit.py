"""The audit of recorded hands: the record's own result checked against the replay of its chips.

Layer: hands (:mod:`pipeline.hands`); imports the other hands modules and
:mod:`pipeline.arrays`.

This module owns, for every format alike, when a record's result is a
result (:func:`audit`) and the reason texts of a record that is not
(:data:`REASONS`).  Records converted from other formats can be wrong:
winnings of 0 for everybody, finishing stacks that do not add up, a total
pot that is not the chips put in.  Such a record cannot check the
evaluator: a mismatch must only ever mean that a consistent record and the
evaluator disagree.  The checks, the first that fails naming the record:

- the winnings sum to 0 while chips went into the pot (:data:`ZERO_WINNINGS`);
- what the players received and the rake are not the chips put in: the
  rake written, or (where none is) the chips left over, is negative or
  more than :data:`MAX_RAKE` of the pot (:data:`NOT_CONSERVED`);
- the record's two accounts (finishing stacks, winnings) disagree
  (:data:`DISAGREE`);
- the total pot written is not the chips the replay put in (:data:`POT_DIFFERS`);
- a player who mucked received chips (:data:`MUCK_PAID`);
- no player at the showdown received chips (:data:`NOBODY_PAID`).

A showdown is then checked against its record when the record is
consistent, every stack is known, and the pot is one pot (a side pot's
chips do not name the main pot's winners) or the record names the main
pot's winners itself (:attr:`~pipeline.hands.record.Record.main_pot`).
A hand where a player took chips from the site instead of the pot (a
cash-out, insurance) balances only with them: its winners are checked only
where the record names them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from pipeline.arrays import across
from pipeline.hands.record import Record
from pipeline.hands.replay import Chips, reject_beyond, replay, tolerance
from pipeline.hands.tables import Ending, outcomes, received

ZERO_WINNINGS = "winnings sum to 0 while chips went into the pot"
NOT_CONSERVED = ("the chips received (finishing stacks, winnings, collections) and the rake are not the pot "
                 "(a rake of 0 to 10 % of it)")
DISAGREE = "winnings and finishing stacks disagree"
POT_DIFFERS = "the total pot written is not the chips put in"
MUCK_PAID = "a player who mucked received chips"
NOBODY_PAID = "no player at the showdown received chips"
#: Every reason a record is not a result, in the order they are checked.
REASONS = (ZERO_WINNINGS, NOT_CONSERVED, DISAGREE, POT_DIFFERS, MUCK_PAID, NOBODY_PAID)
#: The rake a record may take from a pot, as a share of it.
MAX_RAKE = 0.10


@dataclass
class Audit:
    """The record of every hand against its replay; hand i is row i.

    Attributes
    ----------
    received : ndarray of shape (hands, SLOTS), dtype float64
        What each player received as the record says (:func:`~pipeline.hands.tables.received`).
    recorded : ndarray of shape (hands,), dtype bool
        The record gives a result (finishing stacks, winnings, collections).
    reason : ndarray of shape (hands,), dtype object
        Why a recorded result is not a result (one of :data:`REASONS`), None elsewhere.
    unknown_stacks : ndarray of shape (hands,), dtype bool
        The result cannot be checked: a stack is unknown and nothing else says who got what.
    side_pot : ndarray of shape (hands,), dtype bool
        The live players put in different amounts and the record does not name the main pot's winners.
    cashed_out : ndarray of shape (hands,), dtype bool
        A player took chips from the site instead of the pot, or paid it: the
        chips balance only with the site's part.
    names_main : ndarray of shape (hands,), dtype bool
        The record names the main pot's winners itself.
    winners : ndarray of shape (hands, SLOTS), dtype bool
        The recorded winners of the main pot: the contesting players it paid,
        or those it names.
    """

    received: NDArray[np.float64]
    recorded: NDArray[np.bool_]
    reason: NDArray[np.object_]
    unknown_stacks: NDArray[np.bool_]
    side_pot: NDArray[np.bool_]
    cashed_out: NDArray[np.bool_]
    names_main: NDArray[np.bool_]
    winners: NDArray[np.bool_]

    @property
    def unpaid(self) -> NDArray[np.bool_]:
        """(hands,) bool: a cash-out whose winners the record does not name: the chips cannot say."""
        found: NDArray[np.bool_] = self.cashed_out & ~self.names_main
        return found

    def checked(self, ending: Ending) -> NDArray[np.bool_]:
        """(hands,) bool: the scored showdowns whose record names their winners."""
        found: NDArray[np.bool_] = (ending.scored & self.recorded & (self.reason == None)  # noqa: E711
                                    & ~self.unknown_stacks & ~self.side_pot & ~self.unpaid)
        return found


def audit(record: Record, chips: Chips, ending: Ending) -> Audit:
    """Check every hand's recorded result against the replay (see the module's checks)."""
    dealt = record.dealt
    stack = np.where(dealt, record.stack, 0.0)
    near = tolerance(stack)
    got = received(record, chips)
    paid_in = chips.pot
    chips_in = paid_in > near
    finishing = record.finishing if record.finishing is not None else np.full(dealt.shape, np.nan)
    has_finishing = across(np.logical_or, np.isfinite(finishing) & dealt)
    has_received = across(np.logical_or, np.isfinite(record.received) & dealt)
    known_stacks = across(np.logical_and, np.isfinite(stack))
    recorded = (has_finishing & known_stacks) | has_received
    cashed_out = across(np.logical_or, (record.cashed_out != 0) & dealt)
    total = np.where(dealt & np.isfinite(got), got, 0.0).sum(axis=1)
    rake = np.where(np.isnan(record.rake), paid_in - total, record.rake)
    # Conservation is of the chips put in; a total pot written otherwise is a fault of its own.
    pot = paid_in
    paid = np.where(np.isfinite(got), got, 0.0) > near[:, None]
    contesting = chips.contesting
    both = has_finishing & known_stacks & has_received
    from_finishing = finishing - stack + chips.contributed
    checks = (
        (ZERO_WINNINGS, has_received & ~has_finishing & chips_in & ~cashed_out
         & (np.abs(np.where(dealt, np.nan_to_num(record.received), 0.0)).sum(axis=1) <= near)),
        (NOT_CONSERVED, recorded & ~cashed_out & ((rake < -near) | (rake > MAX_RAKE * pot + near)
                                                  | (np.abs(total + rake - pot) > near))),
        (DISAGREE, both & (dealt & (np.abs(from_finishing - record.received) > near[:, None])).any(axis=1)),
        (POT_DIFFERS, ~np.isnan(record.pot) & (np.abs(record.pot - paid_in) > near)),
        (MUCK_PAID, recorded & across(np.logical_or, paid & chips.mucked)),
        (NOBODY_PAID, recorded & chips_in & ending.scored & ~cashed_out
         & ~across(np.logical_or, paid & contesting)),
    )
    reason = np.full(record.hands, None, dtype=object)
    for text, found in reversed(checks):  # the first check that fails names the record
        reason[found] = text
    # The live players' bets (dead money apart) differ: a side pot, unless the record names the
    # main pot's winners.
    bets = chips.contributed - chips.dead
    live = chips.live
    spread = (across(np.maximum, np.where(live, bets, -np.inf))
              - across(np.minimum, np.where(live, bets, np.inf)))
    main_pot = record.main_pot if record.main_pot is not None else np.zeros(dealt.shape, dtype=bool)
    names_main = across(np.logical_or, main_pot & dealt)
    side_pot = (spread > near) & ~names_main
    winners = contesting & np.where(names_main[:, None], main_pot, paid)
    unknown_stacks = has_finishing & ~known_stacks & ~has_received
    return Audit(received=got, recorded=recorded | unknown_stacks, reason=reason,
                 unknown_stacks=unknown_stacks, side_pot=side_pot, cashed_out=cashed_out,
                 names_main=names_main, winners=winners)


@dataclass
class Settled:
    """A group of hands worked out: the Record as read, its chips, how each hand ends, its audit."""

    record: Record
    chips: Chips
    ending: Ending
    audit: Audit


def set_apart(settled: Settled, hands: NDArray[np.bool_], reason: str) -> Settled:
    """``settled`` with ``hands`` ((hands,) bool) set apart for ``reason`` where not rejected: how
    they end and the audit worked out again (the chips do not change)."""
    record = settled.record
    record.apart[hands & (record.problem == None)] = reason  # noqa: E711 (elementwise)
    ending = outcomes(record, settled.chips)
    return Settled(record, settled.chips, ending, audit(record, settled.chips, ending))


def settle(record: Record) -> Settled:
    """Everything that follows from a Record, in order: the replay of the chips (a bet beyond the
    stack rejects its hand), how each hand ends, the audit of the record."""
    chips = replay(record)
    reject_beyond(record, chips)
    ending = outcomes(record, chips)
    return Settled(record, chips, ending, audit(record, chips, ending))
