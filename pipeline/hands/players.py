"""Player statistics: what each player did in each hand, from the hand tables, and their sums.

Layer: hands (:mod:`pipeline.hands`); imports :mod:`~pipeline.hands.model`,
:mod:`~pipeline.hands.positions`, :mod:`~pipeline.hands.tables`, :mod:`~pipeline.hands.allin` and
the foundation modules.

This module owns the definitions of the statistics poker trackers show
(VPIP, PFR, 3-bet, fold to 3-bet, AF, AFq, WTSD, W$SD, WWSF, c-bet, fold to
c-bet, steal; PokerTracker 4's readings) as counts over the three hand
tables (:data:`pipeline.hands.model.TABLES`), whatever format wrote them.

:func:`seat_counts` gives one row per player dealt into a hand: for each
statistic, whether the player had the chance (``*_opportunities``, 0 or 1)
and took it (``*_count``), the postflop actions counted, and the chips won.
Counts add up: :func:`player_counts` sums them by player and group, and
sums of sums are the sums of the whole, so batches, files and cluster
partitions merge by adding.  :func:`with_rates` divides, once, at the end.

Every statistic is worked out over whole arrays of actions, never a loop
over hands.  The actions of a hand are taken in their ``index`` order:

* *preflop*: a **voluntary** action is a call, bet or raise (a post never
  is); an **aggressive** one a bet or raise; a player **faces** the raises
  made before his action in the hand;
* a **walk** is the big blind's hand where no one acted voluntarily
  before the flop: it is no chance of VPIP or PFR;
* the **opener** made the hand's first preflop raise, the **aggressor** its
  last.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from pipeline.arrays import first_per, segment_cumsum
from pipeline.hands import allin, model
from pipeline.hands.model import Action, Street
from pipeline.hands.positions import Position
from pipeline.hands.tables import CHIP_DECIMALS

#: What each statistic counts, its chances, and what the docs call it: (rate column, count
#: column, chances column).  Every count column is an integer column of the results.
RATES = (
    ("vpip", "vpip_count", "vpip_opportunities"),
    ("pfr", "pfr_count", "vpip_opportunities"),
    ("three_bet", "three_bet_count", "three_bet_opportunities"),
    ("fold_to_three_bet", "fold_to_three_bet_count", "fold_to_three_bet_opportunities"),
    ("af", "postflop_bets_raises", "postflop_calls"),
    ("afq", "postflop_bets_raises", "postflop_actions"),
    ("wtsd", "wtsd_count", "saw_flop"),
    ("wsd", "wsd_count", "showdowns"),
    ("wwsf", "wwsf_count", "saw_flop"),
    ("cbet", "cbet_count", "cbet_opportunities"),
    ("fold_to_cbet", "fold_to_cbet_count", "fold_to_cbet_opportunities"),
    ("steal", "steal_count", "steal_opportunities"),
)
#: The integer columns of :func:`seat_counts`, each summed by :func:`player_counts`.
COUNTS = ("hands", "vpip_count", "vpip_opportunities", "pfr_count", "three_bet_count",
          "three_bet_opportunities", "fold_to_three_bet_count", "fold_to_three_bet_opportunities",
          "postflop_bets_raises", "postflop_calls", "postflop_folds", "postflop_actions", "saw_flop",
          "wtsd_count", "showdowns", "wsd_count", "wwsf_count", "cbet_count", "cbet_opportunities",
          "fold_to_cbet_count", "fold_to_cbet_opportunities", "steal_count", "steal_opportunities",
          "bb_hands", "allin_hands", "allin_unknown")
#: The chips columns, summed too: ``net`` in chips, ``net_bb`` in big blinds over ``bb_hands``,
#: ``allin_ev_net`` in chips and ``allin_ev_bb`` in big blinds (:mod:`pipeline.hands.allin`), and the
#: variance of its sampling.
CHIPS = ("net", "net_bb", "allin_ev_net", "allin_ev_bb", "allin_ev_variance")
#: The columns a seat row carries from its hand and seat, by which rows may be grouped.
GROUPS = ("player", "currency", "tournament", "position", "site", "small_blind", "big_blind", "game",
          "betting")
#: The hand outcomes whose seats count: hands played and accounted for (not rejected, not set apart).
#: The unit each chips column is summed in, exactly: chips and big blinds are kept to the tables'
#: decimals, a variance (chips squared, large) to 4.
_UNITS = {**dict.fromkeys(("net", "net_bb", "allin_ev_net", "allin_ev_bb"), 10.0 ** CHIP_DECIMALS),
          "allin_ev_variance": 1e4}
COUNTED = (model.Outcome.SCORED, model.Outcome.NO_SHOWDOWN, model.Outcome.UNKNOWN_CARDS)
_STEALS = (Position.CO, Position.BTN, Position.SB)


def _any_per(rows: NDArray[np.int64], flags: NDArray[np.bool_], count: int) -> NDArray[np.int64]:
    """(count,) int64: 1 where any flagged member falls in the row, else 0."""
    return (np.bincount(rows[flags], minlength=count) > 0).astype(np.int64)


def rows_of(keys: NDArray[np.int64], wanted: NDArray[np.int64]) -> NDArray[np.int64]:
    """For each of ``wanted``, the row of ``keys`` holding it, -1 where none does."""
    order = np.argsort(keys, kind="stable")
    if not len(order):
        return np.full(len(wanted), -1, np.int64)
    place = np.searchsorted(keys[order], wanted).clip(0, len(order) - 1)
    return np.where(keys[order][place] == wanted, order[place], -1).astype(np.int64)


def _seat_key(hand_keys: NDArray[np.int64], seats: NDArray[np.integer]) -> NDArray[np.int64]:
    """One integer per (hand, seat): a hand key leaves room for eight bits of seat."""
    key: NDArray[np.int64] = hand_keys * 256 + seats.astype(np.int64)
    return key


@dataclass
class _Played:
    """The decisions and posts of the counted seats, in hand and index order, with what the
    statistics ask of each: its seat's row, its hand (0 ..) and what it faced."""

    row: NDArray[np.int64]  # the seat's row in the seat table
    hand: NDArray[np.int64]
    seat: NDArray[np.int64]
    street: NDArray[np.int64]
    action: NDArray[np.int64]
    hands: int  # hands among the actions

    @classmethod
    def of(cls, actions: pa.Table, seat_keys: NDArray[np.int64]) -> _Played:
        keys = actions.column("hand_key").to_numpy()
        index = actions.column("index").to_numpy()
        street = model.vocabulary_codes(actions.column("street"), "street")
        action = model.vocabulary_codes(actions.column("action"), "action")
        seat = actions.column("seat").to_numpy().astype(np.int64)
        same = keys[1:] == keys[:-1]
        if not ((keys[1:] >= keys[:-1]).all() and (index[1:][same] > index[:-1][same]).all()):
            order = np.lexsort((index, keys))  # the tables as a run writes them need no sort
            keys, street, action, seat = keys[order], street[order], action[order], seat[order]
        row = rows_of(seat_keys, _seat_key(keys, seat))
        mine = row >= 0  # the actions of seats not counted go
        if not mine.all():
            keys, street, action, seat, row = keys[mine], street[mine], action[mine], seat[mine], row[mine]
        first = np.ones(len(keys), bool)
        first[1:] = keys[1:] != keys[:-1]
        hand = np.cumsum(first) - 1
        return cls(row, hand, seat, street, action, int(hand[-1]) + 1 if len(hand) else 0)

    def _is(self, *actions: Action) -> NDArray[np.bool_]:
        return np.isin(self.action, [model.VOCABULARIES["action"].index(str(name)) for name in actions])

    @functools.cached_property
    def decision(self) -> NDArray[np.bool_]:
        return self._is(Action.FOLD, Action.CHECK, Action.CALL, Action.BET, Action.RAISE)

    @functools.cached_property
    def aggressive(self) -> NDArray[np.bool_]:
        return self._is(Action.BET, Action.RAISE)

    @functools.cached_property
    def voluntary(self) -> NDArray[np.bool_]:
        return self._is(Action.CALL, Action.BET, Action.RAISE)

    @functools.cached_property
    def fold(self) -> NDArray[np.bool_]:
        return self._is(Action.FOLD)

    @functools.cached_property
    def call(self) -> NDArray[np.bool_]:
        return self._is(Action.CALL)

    def on(self, street: Street) -> NDArray[np.bool_]:
        flags: NDArray[np.bool_] = self.street == model.VOCABULARIES["street"].index(str(street))
        return flags

    def before(self, flags: NDArray[np.bool_]) -> NDArray[np.int64]:
        """For each action, how many actions of its hand before it are flagged."""
        return segment_cumsum(flags.astype(np.float64), self.hand, inclusive=False).astype(np.int64)

    def first_in_hand(self, flags: NDArray[np.bool_]) -> NDArray[np.bool_]:
        """The first flagged action of each hand."""
        at = first_per(self.hand[flags], self.hands, np.flatnonzero(flags))
        chosen = np.zeros(len(self.hand), bool)
        chosen[at[at >= 0]] = True
        return chosen

    def per_seat(self, flags: NDArray[np.bool_], seats: int) -> NDArray[np.int64]:
        """(seats,) int64: 1 where a flagged action is the seat's, else 0."""
        return _any_per(self.row, flags, seats)


def _preflop_counts(played: _Played, position: NDArray[np.int64], walk: NDArray[np.bool_]
                    ) -> dict[str, NDArray[np.int64]]:
    """VPIP, PFR, 3-bet, fold to 3-bet and steal of each seat (``position``: the seats' codes)."""
    n = len(position)
    pre = played.on(Street.PREFLOP)
    decision, aggressive = pre & played.decision, pre & played.aggressive
    raises_before = played.before(aggressive)
    facing_one = decision & (raises_before == 1)
    # The opener's next decision after the open, when it faces the second raise of the hand.
    opener = np.full(played.hands, -1, np.int64)
    opens = np.flatnonzero(played.first_in_hand(aggressive))
    opener[played.hand[opens]] = played.seat[opens]
    opened_before = played.before(played.first_in_hand(aggressive)) > 0
    reply = played.first_in_hand(decision & opened_before & (played.seat == opener[played.hand]))
    facing_three_bet = reply & (raises_before == 2)
    folded_to = decision & (played.before(pre & played.voluntary) == 0)
    stealer = np.isin(position, [list(Position).index(p) for p in _STEALS])[played.row]
    return {
        "vpip_count": played.per_seat(pre & played.voluntary, n),
        "vpip_opportunities": (~walk).astype(np.int64),
        "pfr_count": played.per_seat(aggressive, n),
        "three_bet_opportunities": played.per_seat(facing_one, n),
        "three_bet_count": played.per_seat(facing_one & aggressive, n),
        "fold_to_three_bet_opportunities": played.per_seat(facing_three_bet, n),
        "fold_to_three_bet_count": played.per_seat(facing_three_bet & played.fold, n),
        "steal_opportunities": played.per_seat(folded_to & stealer, n),
        "steal_count": played.per_seat(folded_to & stealer & aggressive, n),
    }


def _postflop_counts(played: _Played, n: int) -> dict[str, NDArray[np.int64]]:
    """The postflop bets and raises, calls and folds of each seat; c-bets made and faced."""
    after = (played.street > 0) & played.decision
    kinds = (("postflop_bets_raises", played.aggressive), ("postflop_calls", played.call),
             ("postflop_folds", played.fold))
    counts = {name: np.bincount(played.row[after & flags], minlength=n).astype(np.int64)
              for name, flags in kinds}
    counts["postflop_actions"] = counts["postflop_bets_raises"] + counts["postflop_calls"] + \
        counts["postflop_folds"]
    # The preflop aggressor's first flop decision with no bet before it; those who face that bet.
    last_raise = np.flatnonzero(played.on(Street.PREFLOP) & played.aggressive)
    aggressor = np.full(played.hands, -1, np.int64)
    aggressor[played.hand[last_raise]] = played.seat[last_raise]  # the later raises overwrite
    flop = played.on(Street.FLOP) & played.decision
    bets_before = played.before(flop & played.aggressive)
    chance = played.first_in_hand(flop & (bets_before == 0) & (played.seat == aggressor[played.hand]))
    made = chance & played.aggressive
    faced = flop & (played.before(made) > 0) & (bets_before == 1)
    counts |= {"cbet_opportunities": played.per_seat(chance, n), "cbet_count": played.per_seat(made, n),
               "fold_to_cbet_opportunities": played.per_seat(faced, n),
               "fold_to_cbet_count": played.per_seat(faced & played.fold, n)}
    return counts


def _showdown_counts(hands: pa.Table, seats: pa.Table, seat_hand: NDArray[np.int64]
                     ) -> dict[str, NDArray[np.int64]]:
    """Saw the flop (one was dealt, and the seat had not folded), went to showdown, won chips."""
    flop_dealt = model.board_card_count(hands.column("board")) >= 3
    folded = model.vocabulary_codes(seats.column("folded_street"), "folded_street")
    saw = flop_dealt[seat_hand] & ((folded < 0) | (folded > 0))
    at_showdown = np.asarray(seats.column("at_showdown").fill_null(False).to_numpy(zero_copy_only=False))
    won = np.nan_to_num(seats.column("received").to_numpy(zero_copy_only=False).astype(np.float64)) > 0
    return {"saw_flop": saw.astype(np.int64), "wtsd_count": (saw & at_showdown).astype(np.int64),
            "showdowns": at_showdown.astype(np.int64), "wsd_count": (at_showdown & won).astype(np.int64),
            "wwsf_count": (saw & won).astype(np.int64)}


def seat_counts(hands: pa.Table, seats: pa.Table, actions: pa.Table, *, samples: int = allin.DEFAULT_SAMPLES,
                seed: int = 0, exact: bool = False) -> pa.Table:
    """One row per player dealt into a counted hand: the statistics' counts and the chips won.

    Parameters
    ----------
    hands, seats, actions : pyarrow.Table
        The hand tables of the same hands (:data:`pipeline.hands.model.TABLES`), as a run writes
        them; the seats and actions of hands not :data:`COUNTED` are left out.
    samples, seed, exact : how a preflop all-in is run out (:func:`pipeline.hands.allin.allin_ev`)

    Returns
    -------
    pyarrow.Table
        ``hand_key``, the :data:`GROUPS` columns, the :data:`COUNTS` (int64, each 0 or 1 but the
        postflop actions) and the :data:`CHIPS` (float64; ``net_bb`` is 0 where the hand has no
        big blind, and ``bb_hands`` 0 with it).
    """
    counted_codes = [model.VOCABULARIES["outcome"].index(str(name)) for name in COUNTED]
    counted = np.isin(model.vocabulary_codes(hands.column("outcome"), "outcome"), counted_codes)
    seat_hand = rows_of(hands.column("hand_key").to_numpy(), seats.column("hand_key").to_numpy())
    kept = (seat_hand >= 0) & (counted[np.maximum(seat_hand, 0)] if len(counted) else False)
    seats = seats.select(["hand_key", "seat", "player", "position", "folded_street", "all_in_street",
                          "at_showdown", "contributed", "received", "net", "hole_cards"])
    if not kept.all():
        seats = seats.filter(pa.array(kept))
    seat_hand = seat_hand[kept]
    seat_keys = _seat_key(seats.column("hand_key").to_numpy(), seats.column("seat").to_numpy())
    played = _Played.of(actions, seat_keys)
    position = model.vocabulary_codes(seats.column("position"), "position")
    # A walk: the big blind's hand where no one called or raised before the flop.
    voluntary_hand = np.zeros(hands.num_rows, bool)
    voluntary_hand[seat_hand[played.row[played.on(Street.PREFLOP) & played.voluntary]]] = True
    walk = (position == list(Position).index(Position.BB)) & ~voluntary_hand[seat_hand]
    out = {"hands": np.ones(seats.num_rows, np.int64), **_preflop_counts(played, position, walk),
           **_postflop_counts(played, seats.num_rows), **_showdown_counts(hands, seats, seat_hand)}
    big_blind = hands.column("big_blind").to_numpy(zero_copy_only=False).astype(np.float64)[seat_hand]
    has_bb = np.isfinite(big_blind) & (big_blind > 0)
    net = np.nan_to_num(seats.column("net").to_numpy(zero_copy_only=False).astype(np.float64))
    out["bb_hands"] = has_bb.astype(np.int64)
    last_street = np.full(hands.num_rows, -1, np.int64)
    np.maximum.at(last_street, seat_hand[played.row[played.decision]], played.street[played.decision])
    rake = hands.column("rake").to_numpy(zero_copy_only=False).astype(np.float64)
    ev = allin.allin_ev(hand_of_seat=seat_hand, last_street=last_street, board=hands.column("board"),
                        game=hands.column("game"),
                        rake=rake, seats=seats, samples=samples, seed=seed, exact=exact)
    out["allin_hands"] = ev.adjusted.astype(np.int64)
    out["allin_unknown"] = ev.unknown_seats.astype(np.int64)
    taken = pa.array(seat_hand)
    blind = np.where(has_bb, big_blind, 1.0)  # a hand without a big blind counts 0 in big blinds
    return pa.table({
        "hand_key": seats.column("hand_key"),
        "player": seats.column("player"),
        "currency": hands.column("currency").take(taken),
        "tournament": pc.is_valid(hands.column("tournament_id").take(taken)),
        "position": seats.column("position"),
        **{name: hands.column(name).take(taken) for name in ("site", "small_blind", "big_blind", "game",
                                                             "betting")},
        **{name: pa.array(out[name], pa.int64()) for name in COUNTS},
        "net": pa.array(net),
        "net_bb": pa.array(np.round(np.where(has_bb, net / blind, 0.0), CHIP_DECIMALS)),
        "allin_ev_net": pa.array(np.round(ev.ev, CHIP_DECIMALS)),
        "allin_ev_bb": pa.array(np.round(np.where(has_bb, ev.ev / blind, 0.0), CHIP_DECIMALS)),
        "allin_ev_variance": pa.array(np.round(ev.variance, 4)),
    })


def player_counts(counts: pa.Table, *, by: tuple[str, ...] = ()) -> pa.Table:
    """The sums of :func:`seat_counts` rows (or of earlier sums) by player and group.

    A player's chips of different currencies, and cash against tournament chips, are never
    added up: ``currency`` and ``tournament`` always group.  ``by`` adds any of the other
    :data:`GROUPS`.  The sums of sums are the sums of the whole: batches merge by adding.
    """
    keys = ["player", "currency", "tournament", *(name for name in GROUPS if name in by and name not in
                                                   ("player", "currency", "tournament"))]
    # Chips are summed as whole units of their precision in the tables (CHIP_DECIMALS), so that a sum is
    # exact whatever the order the rows came in: batches, files and parts give the same sums.
    for name in CHIPS:
        units = pc.cast(pc.round(pc.multiply(counts.column(name), _UNITS[name])), pa.int64())
        counts = counts.set_column(counts.schema.get_field_index(name), name, units)
    # Batches read apart hold dictionaries of their own: one dictionary per column to group by.
    summed = counts.unify_dictionaries().group_by(keys, use_threads=False).aggregate(
        [(name, "sum") for name in (*COUNTS, *CHIPS)])
    summed = summed.rename_columns([name.removesuffix("_sum") for name in summed.column_names])
    summed = summed.select([*keys, *COUNTS, *CHIPS])
    for name in CHIPS:
        summed = summed.set_column(summed.schema.get_field_index(name), name,
                                   pc.divide(pc.cast(summed.column(name), pa.float64()), _UNITS[name]))
    # In the order of the keys' values (a dictionary column sorts by its text).
    plain = pa.table({name: pc.cast(summed.column(name), summed.schema.field(name).type.value_type)
                      if pa.types.is_dictionary(summed.schema.field(name).type) else summed.column(name)
                      for name in keys})
    return summed.take(pc.sort_indices(plain, sort_keys=[(name, "ascending", "at_end") for name in keys]))


def with_rates(summed: pa.Table) -> pa.Table:
    """``summed`` (:func:`player_counts`) with each rate of :data:`RATES` (null where it has no
    chances) and the results: per 100 hands ``net_per_100``, ``bb_per_100`` (null without a big
    blind), ``allin_ev_per_100`` and ``allin_ev_bb_per_100``; ``allin_ev_se``, the standard error
    of the sampled all-in EV; ``luck`` = ``net`` - ``allin_ev_net``, ``luck_per_100`` and
    ``luck_bb_per_100``."""
    table = summed
    for rate, count, chances in RATES:
        top = np.asarray(summed.column(count).to_numpy(), dtype=np.float64)
        bottom = np.asarray(summed.column(chances).to_numpy(), dtype=np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            table = table.append_column(rate, pa.array(top / bottom, mask=bottom == 0))
    hands = np.asarray(summed.column("hands").to_numpy(), dtype=np.float64)
    bb_hands = np.asarray(summed.column("bb_hands").to_numpy(), dtype=np.float64)
    net = np.asarray(summed.column("net").to_numpy(), dtype=np.float64)
    ev = np.asarray(summed.column("allin_ev_net").to_numpy(), dtype=np.float64)
    # The luck: what the cards dealt after the chips went in gave, beyond their equity.
    results = {"luck": net - ev,
               "allin_ev_se": np.sqrt(np.asarray(summed.column("allin_ev_variance").to_numpy(), np.float64))}
    with np.errstate(divide="ignore", invalid="ignore"):
        results |= {"net_per_100": 100 * net / hands, "allin_ev_per_100": 100 * ev / hands,
                    "luck_per_100": 100 * (net - ev) / hands}
        per_bb = {"bb_per_100": 100 * summed.column("net_bb").to_numpy() / bb_hands,
                  "allin_ev_bb_per_100": 100 * summed.column("allin_ev_bb").to_numpy() / bb_hands}
        per_bb["luck_bb_per_100"] = per_bb["bb_per_100"] - per_bb["allin_ev_bb_per_100"]
    for name, values in results.items():
        table = table.append_column(name, pa.array(values))
    for name, values in per_bb.items():  # none where no hand names its big blind
        table = table.append_column(name, pa.array(values, mask=bb_hands == 0))
    # Each rate beside its count and its chances, the groups first and the results last.
    order = [name for name in summed.column_names if name not in (*COUNTS, *CHIPS)] + ["hands"]
    for columns in RATES:
        order += [name for name in columns if name not in order]
    order += [name for name in (*COUNTS, "net", "net_per_100", "net_bb", "bb_per_100", "allin_ev_net",
                                "allin_ev_per_100", "allin_ev_bb", "allin_ev_bb_per_100", "allin_ev_se",
                                "allin_ev_variance", "luck", "luck_per_100", "luck_bb_per_100")
              if name not in order]
    return table.select(order)
