"""The chips of recorded hands replayed from their actions: what each action added, and each player put in.

Layer: hands (:mod:`pipeline.hands`); imports :mod:`~pipeline.hands.record`,
:mod:`~pipeline.hands.model` and :mod:`pipeline.arrays`.

This module owns the rules of the chips, one set for every format
(:func:`replay`), over all the actions of a :class:`~pipeline.hands.record.Record`
at once:

- dead money (antes, dead posts) goes in first and never counts toward a
  bet on the street; each is capped by what the player has;
- on a street a player's total is set by its live posts (blinds,
  straddles, entry posts, which count toward its bet as a big blind does),
  its bets and raises (to their amount) and its checks and calls (to the
  largest total set before it on the street), each capped by what the
  player had left when the street began: a call for more is an all-in call;
- what a player adds with an action is its new total less its total before;
- the part of the largest bet that nobody matched goes back to its owner
  (:attr:`Chips.returned`);
- an action is named from the chips, whatever the format called it: a bet
  where nothing was bet on the street before, else a raise; a check where
  it adds nothing, else a call.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pyarrow as pa
from numpy.typing import NDArray

from pipeline.arrays import across, running_max, segment_cumsum
from pipeline.hands.model import Action
from pipeline.hands.record import CODE, SLOTS, Record
from pipeline.text import shown

DEAD = np.array([CODE[Action.POST_ANTE], CODE[Action.POST_DEAD]], dtype=np.int8)
LIVE_POSTS = np.array([CODE[a] for a in (Action.POST_SMALL_BLIND, Action.POST_BIG_BLIND,
                                          Action.POST_STRADDLE, Action.POST)], dtype=np.int8)
SETTING = np.array([CODE[Action.BET], CODE[Action.RAISE]], dtype=np.int8)
MATCHING = np.array([CODE[Action.CHECK], CODE[Action.CALL]], dtype=np.int8)
STREETS = 4
# What each action code does with chips, looked up for all actions at once (one gather, where
# an isin per kind is a pass over the actions each).
OTHER_KIND, DEAD_KIND, POST_KIND, SETTING_KIND, MATCHING_KIND = range(5)
_KIND = np.zeros(256, dtype=np.int8)
for _codes, _kind in ((DEAD, DEAD_KIND), (LIVE_POSTS, POST_KIND), (SETTING, SETTING_KIND),
                      (MATCHING, MATCHING_KIND)):
    _KIND[_codes] = _kind


def tolerance(stack: NDArray[np.float64]) -> NDArray[np.float64]:
    """(hands,) float64: differences of chips below this are rounding, not chips.

    >>> tolerance(np.array([[100., np.inf], [0., 0.]])).tolist()
    [1.01e-07, 1e-09]
    """
    finite = np.where(np.isfinite(stack), np.abs(stack), 0.0)  # an unknown (inf) stack sets no scale
    found: NDArray[np.float64] = 1e-9 * (1 + across(np.maximum, finite))
    return found


@dataclass
class Chips:
    """What the replay of a Record's actions finds.

    Per action, shape (actions,)
    ----------------------------
    amount : float64
        The chips the action adds (0 for a fold, a check, a show, a muck).
    to : float64
        The player's total on the street after a live post, a bet, a raise
        or a call; NaN for the others (and for dead money).
    pot_before : float64
        The chips in the pot before the action.
    all_in : bool
        The action puts the player's last chip in.
    action : int8
        The :data:`~pipeline.hands.record.CODE` of the action as the chips
        name it.
    beyond : bool
        A bet or raise to more than the player had when the street began.
    left : float64
        What the player had left when the street began (live actions; 0 for the others).

    Per slot, shape (hands, SLOTS)
    ------------------------------
    contributed : float64
        Every chip put in, dead money included, less the uncalled bet returned.
    dead : float64
        The dead money put in (antes, dead posts).
    returned : float64
        The uncalled bet that went back.
    folded_street, all_in_street : int8
        The street of the player's fold, of the action that put it all in;
        -1 for none.
    live, showed, mucked : bool
        Dealt in and not folded at the end; showed its cards; mucked them.

    Per hand, shape (hands,)
    ------------------------
    pot : float64
        The chips contributed.
    """

    amount: NDArray[np.float64]
    to: NDArray[np.float64]
    pot_before: NDArray[np.float64]
    all_in: NDArray[np.bool_]
    action: NDArray[np.int8]
    beyond: NDArray[np.bool_]
    left: NDArray[np.float64]
    contributed: NDArray[np.float64]
    dead: NDArray[np.float64]
    returned: NDArray[np.float64]
    folded_street: NDArray[np.int8]
    all_in_street: NDArray[np.int8]
    live: NDArray[np.bool_]
    showed: NDArray[np.bool_]
    mucked: NDArray[np.bool_]
    pot: NDArray[np.float64]

    # Both are read by every step after the replay (how hands end, the audit, the showdown rows,
    # the tables): worked out once, from arrays that no step changes.
    @cached_property
    def showdown(self) -> NDArray[np.bool_]:
        """(hands,) bool: two or more players were live at the end."""
        found: NDArray[np.bool_] = self.live.sum(axis=1) >= 2
        return found

    @cached_property
    def contesting(self) -> NDArray[np.bool_]:
        """(hands, SLOTS) bool: live at a showdown and not mucked: the players the pot goes to."""
        found: NDArray[np.bool_] = self.live & ~self.mucked & self.showdown[:, None]
        return found


def replay(record: Record) -> Chips:
    """Replay the chips of every hand of a Record at once (see the module's rules).

    Parameters
    ----------
    record : Record
        A group of hands as read.

    Returns
    -------
    Chips
    """
    hands, n = record.hands, len(record.action_hand)
    code = record.action.astype(np.int8)
    kind = _KIND[code.view(np.uint8)]
    hand = record.action_hand.astype(np.int64)
    flat = hand * SLOTS + record.slot.astype(np.int64)
    street = np.clip(record.street.astype(np.int64), 0, STREETS - 1)
    stack = np.where(record.dealt, record.stack, 0.0).reshape(-1)
    near = tolerance(np.where(record.dealt, record.stack, 0.0))
    money = _Money(amount=np.zeros(n), to=np.full(n, np.nan), level=np.full(n, -np.inf),
                   beyond=np.zeros(n, dtype=bool), left=np.zeros(n), spent=np.zeros(hands * SLOTS))
    dead = _dead_money(money, np.flatnonzero(kind == DEAD_KIND), flat, record.to, stack)
    # Live money a street at a time: what the earlier streets left caps it.
    live_rows = np.flatnonzero(kind >= POST_KIND)
    for s in range(STREETS):
        rows = live_rows[street[live_rows] == s]
        if len(rows):
            _street_money(money, rows, flat, hand, kind, record.to, stack, near)
    amount, spent = money.amount, money.spent

    # The uncalled part of the largest bet goes back (dead money is never matched nor returned).
    bets = (spent - dead).reshape(hands, SLOTS)
    ranked = np.sort(bets, axis=1)
    top = bets.argmax(axis=1)
    returned = np.zeros((hands, SLOTS))
    if SLOTS > 1:
        returned[np.arange(hands), top] = ranked[:, -1] - ranked[:, -2]
    contributed = spent.reshape(hands, SLOTS) - returned

    # Per action: the pot before it, and whether it put the player's last chip in.
    pot_before = segment_cumsum(amount, hand, inclusive=False)  # the actions come hand by hand
    order = np.argsort(flat, kind="stable")
    put_in = np.empty(n)
    put_in[order] = segment_cumsum(amount[order], flat[order])
    all_in = (amount > 0) & (put_in >= stack[flat] - near[hand]) & np.isfinite(stack[flat])

    named = code.copy()
    raising = kind == SETTING_KIND
    named[raising] = np.where(money.level[raising] > 0, CODE[Action.RAISE], CODE[Action.BET])
    matching = kind == MATCHING_KIND
    named[matching] = np.where(amount[matching] > near[hand[matching]], CODE[Action.CALL], CODE[Action.CHECK])

    folded_street = _first_street(flat, street, code == CODE[Action.FOLD], hands)
    all_in_street = _first_street(flat, street, all_in, hands)
    live = record.dealt & (folded_street < 0)
    showed, mucked = np.zeros(hands * SLOTS, dtype=bool), np.zeros(hands * SLOTS, dtype=bool)
    showed[flat[code == CODE[Action.SHOW]]] = True
    mucked[flat[code == CODE[Action.MUCK]]] = True
    return Chips(amount=amount, to=money.to, pot_before=pot_before, all_in=all_in, action=named,
                 beyond=money.beyond, left=money.left,
                 contributed=contributed, dead=dead.reshape(hands, SLOTS), returned=returned,
                 folded_street=folded_street, all_in_street=all_in_street, live=live,
                 showed=showed.reshape(hands, SLOTS), mucked=mucked.reshape(hands, SLOTS) & live,
                 pot=contributed.sum(axis=1))


@dataclass
class _Money:
    """The chips of a replay under way: per action (shape (actions,)) what it added (``amount``),
    the player's total on the street after it (``to``), the level it matched (``level``), whether
    it asked for more than the stack (``beyond``) and what the player had left before it
    (``left``); per flat slot (shape (hands * SLOTS,)) what each player has put in (``spent``)."""

    amount: NDArray[np.float64]
    to: NDArray[np.float64]
    level: NDArray[np.float64]
    beyond: NDArray[np.bool_]
    left: NDArray[np.float64]
    spent: NDArray[np.float64]


def _dead_money(money: _Money, rows: NDArray[np.int64], flat: NDArray[np.int64], asked: NDArray[np.float64],
                stack: NDArray[np.float64]) -> NDArray[np.float64]:
    """Put in the dead money (antes, dead posts) of the actions at ``rows``, each capped by what the
    player has left of it; return it per flat slot (shape (hands * SLOTS,))."""
    by_slot = rows[np.argsort(flat[rows], kind="stable")]
    wanted = np.nan_to_num(asked[by_slot])
    before = segment_cumsum(wanted, flat[by_slot], inclusive=False)
    money.amount[by_slot] = np.clip(np.minimum(wanted, stack[flat[by_slot]] - before), 0.0, None)
    np.add.at(money.spent, flat[rows], money.amount[rows])
    dead: NDArray[np.float64] = money.spent.copy()
    return dead


def _street_money(money: _Money, rows: NDArray[np.int64], flat: NDArray[np.int64], hand: NDArray[np.int64],
                  kind: NDArray[np.int8], asked: NDArray[np.float64], stack: NDArray[np.float64],
                  near: NDArray[np.float64]) -> None:
    """Put in the live money of one street's actions (``rows``, in order): posts add up, a bet or
    raise sets its total, a check or call matches the level set before it; each capped by what
    the earlier streets left."""
    # The street's actions: their slots, hands and kinds, gathered once for every step below.
    slot_of, hand_of, kind_of, to_of = flat[rows], hand[rows], kind[rows], asked[rows]
    cap = stack[slot_of] - money.spent[slot_of]
    money.left[rows] = cap
    posts, sets = kind_of == POST_KIND, kind_of == SETTING_KIND
    wanted = np.where(sets, to_of, 0.0)
    post_rows = np.flatnonzero(posts)
    by_slot = post_rows[np.argsort(slot_of[post_rows], kind="stable")]
    wanted[by_slot] = segment_cumsum(np.nan_to_num(to_of[by_slot]), slot_of[by_slot])
    money.beyond[rows] = sets & (wanted > cap + near[hand_of])
    # The level a check or call matches: the largest total set before it on the street.
    sets_level = posts | sets
    setting = np.flatnonzero(sets_level)
    through = running_max(np.minimum(wanted[setting], cap[setting]), hand_of[setting])
    last = np.cumsum(sets_level, dtype=np.int64) - sets_level.astype(np.int64) - 1  # the one before each
    at = np.flatnonzero(last >= 0)
    at = at[hand_of[setting[last[at]]] == hand_of[at]]
    street_level = np.full(len(rows), -np.inf)
    street_level[at] = through[last[at]]
    money.level[rows] = street_level
    matches = ~posts & ~sets
    wanted[matches] = np.maximum(street_level[matches], 0.0)
    # A player's total after each action: the largest it set so far on the street.
    order = np.argsort(slot_of, kind="stable")
    slots_in_order = slot_of[order]
    total = np.empty(len(rows))
    total[order] = running_max(np.minimum(wanted, cap)[order], slots_in_order)
    previous = np.zeros(len(rows))
    same = slots_in_order[1:] == slots_in_order[:-1]
    previous[order[1:][same]] = total[order[:-1][same]]
    total = np.maximum(total, previous)
    money.amount[rows] = total - previous
    money.to[rows] = total
    street_spent = np.zeros(len(money.spent))
    np.maximum.at(street_spent, slot_of, total)
    money.spent += street_spent


def reject_beyond(record: Record, chips: Chips) -> None:
    """Give the hands with a bet or raise beyond the player's stack (:attr:`Chips.beyond`) their reason.

    Such a hand cannot have been played as written.  The first such action
    of a hand names it, unless the hand is rejected already.
    """
    rows = np.flatnonzero(chips.beyond)
    rows = rows[record.problem[record.action_hand[rows]] == None]  # noqa: E711 (elementwise)
    hands, first = np.unique(record.action_hand[rows], return_index=True)
    texts = record.text.take(pa.array(rows[first], pa.int64())).to_pylist() if record.text is not None \
        else [None] * len(first)
    for hand, row, text in zip(hands.tolist(), rows[first].tolist(), texts):
        what = f"action {shown(text)}: " if text is not None else ""
        record.problem[hand] = (f"{what}bet {record.to[row]:g} beyond the stack "
                                f"(the player has {chips.left[row]:g})")
        record.excerpt[hand] = text


def _first_street(flat: NDArray[np.int64], street: NDArray[np.int64], which: NDArray[np.bool_],
                  hands: int) -> NDArray[np.int8]:
    """(hands, SLOTS) int8: the street of each slot's first action in ``which``, -1 for none."""
    first = np.full(hands * SLOTS, STREETS, dtype=np.int64)
    rows = np.flatnonzero(which)
    np.minimum.at(first, flat[rows], street[rows])
    found: NDArray[np.int8] = np.where(first < STREETS, first, -1).astype(np.int8).reshape(hands, SLOTS)
    return found
