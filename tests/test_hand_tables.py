"""The three hand tables built from a Record: one row per hand, per player dealt in, per action."""

from __future__ import annotations

import pyarrow as pa
import pytest

from pipeline.formats import histories
from pipeline.hands import model
from pipeline.hands.audit import settle
from pipeline.hands.model import Action
from pipeline.hands.replay import replay
from pipeline.hands.tables import outcomes, tables

from .hand_records import Hand, record_of

A = Action


def build(hands: list[Hand]) -> dict[str, pa.Table]:
    record = record_of(hands)
    chips = replay(record)
    ending = outcomes(record, chips)
    keys = model.hand_key(0, record.number)
    return tables(record, chips, ending, keys=keys, source=pa.array(["f.txt"] * record.hands))


SHOWDOWN = Hand([100, 100, 100, 100], [(0, A.POST_SMALL_BLIND, 0, 1), (1, A.POST_BIG_BLIND, 0, 2),
                                       (2, A.FOLD, 0, None), (3, A.CALL, 0, None), (0, A.CALL, 0, None),
                                       (1, A.CHECK, 0, None), (0, A.BET, 3, 10), (1, A.FOLD, 3, None),
                                       (3, A.CALL, 3, None), (0, A.SHOW, 3, None), (3, A.MUCK, 3, None)],
                button=3, board="Ah Kh Qh Jh 2c", holes={0: "Th 3c", 3: "??  ??"},
                received={0: 26.0})
FOLDED = Hand([50, 60], [(0, A.POST_SMALL_BLIND, 0, 1), (1, A.POST_BIG_BLIND, 0, 2), (0, A.FOLD, 0, None)],
              button=0, received={1: 2.0})
REJECTED = Hand([50, 60], [(0, A.FOLD, 0, None)], problem="a player who is not seated acts")


def test_the_tables_have_the_model_schemas_and_a_row_for_each_thing():
    got = build([SHOWDOWN, FOLDED, REJECTED])
    for name, table in got.items():
        assert table.schema == model.TABLES[name], name
    hands = got["hands"].to_pylist()
    assert [h["outcome"] for h in hands] == ["scored", "no showdown", "rejected"]
    assert [h["reason"] for h in hands] == [None, None, "a player who is not seated acts"]
    assert [h["pot"] for h in hands] == [26.0, 2.0, None]  # the big blind's 1 uncalled went back
    assert [h["players"] for h in hands] == [4, 2, 2]
    assert [h["button_seat"] for h in hands] == [4, 1, None]
    assert hands[0]["board"] == "Ah Kh Qh Jh 2c" and hands[0]["rake"] == 0.0
    # The rejected hand has no seats and no actions.
    seats = got["seats"].to_pandas()
    assert seats.groupby("hand_id").size().to_dict() == {"1": 4, "2": 2}
    first = seats[seats.hand_id == "1"]
    assert first.position.tolist() == ["SB", "BB", "CO", "BTN"]
    assert first.contributed.tolist() == [12.0, 2.0, 0.0, 12.0]
    assert first.net.tolist() == [14.0, -2.0, 0.0, -12.0]
    assert first.net.sum() == 0.0
    assert first.folded_street.tolist()[1:3] == ["river", "preflop"]
    assert first.folded_street.isna().tolist() == [True, False, False, True]
    assert first.at_showdown.tolist() == [True, False, False, True]
    assert first.showed.tolist() == [True, False, False, False]
    assert first.mucked.tolist() == [False, False, False, True]
    assert first.won.tolist() == [True, False, False, False]
    assert first.hole_cards.tolist()[0] == "Th 3c"
    heads_up = seats[seats.hand_id == "2"]
    assert heads_up.position.tolist() == ["BTN", "BB"]
    assert heads_up.net.tolist() == [-1.0, 1.0]
    actions = got["actions"].to_pandas()
    assert len(actions) == 11 + 3
    one = actions[actions.hand_id == "1"]
    assert one["index"].tolist() == list(range(11))
    assert one.action.tolist() == ["post small blind", "post big blind", "fold", "call", "call", "check",
                                   "bet", "fold", "call", "show", "muck"]
    assert one.amount.tolist() == [1, 2, 0, 2, 1, 0, 10, 0, 10, 0, 0]
    assert one.pot_before.tolist() == [0, 1, 3, 3, 5, 6, 6, 16, 16, 26, 26]
    assert one.street.tolist()[-5:] == ["river"] * 5
    assert one.to.isna().tolist() == [True] * 6 + [False] + [True] * 4  # the bet's total only
    assert one.to.tolist()[6] == 10


# An EV cashout (GGPoker): both all in before the flop, the pot awarded as usual; the player who
# chose it pays the site its risk when it wins, and receives its cashout when it loses.
ALL_IN = [(0, A.POST_SMALL_BLIND, 0, 1), (1, A.POST_BIG_BLIND, 0, 2), (0, A.RAISE, 0, 100),
          (1, A.CALL, 0, None), (0, A.SHOW, 0, None), (1, A.SHOW, 0, None)]
CARDS = {"board": "2c 7d 9h Js 3s", "holes": {0: "Ah Ad", 1: "Kh Kd"}}


@pytest.mark.parametrize("names_main", [True, False])
def test_an_ev_cashout_balances_with_the_site_and_is_counted_apart(names_main: bool) -> None:
    won_and_paid_risk = Hand([100, 100], ALL_IN, button=0, received={0: 200.0}, cashed_out={0: -30.0},
                             main_pot=[0] if names_main else None, **CARDS)
    lost_and_received = Hand([100, 100], ALL_IN, button=0, received={0: 200.0}, cashed_out={1: 55.5},
                             main_pot=[0] if names_main else None, **CARDS)
    settled = settle(record_of([won_and_paid_risk, lost_and_received]))
    record, chips, ending = settled.record, settled.chips, settled.ending
    seats = tables(record, chips, ending, keys=model.hand_key(0, record.number),
                   source=pa.array(["f.txt"] * 2))["seats"].to_pydict()
    # received: the pot's chips and the site's; net = received - contributed, no longer -rake in sum.
    assert seats["received"] == [170.0, 0.0, 200.0, 55.5]
    assert seats["net"] == [70.0, -100.0, 100.0, -44.5]
    assert settled.audit.reason.tolist() == [None, None]  # the record is consistent, the site's part apart
    counts = histories.ending_counts(record, chips, ending, settled.audit, venues=False)
    assert counts[histories.SETTLED_BY_SITE] == 2
    # The pot was awarded as usual: where the record names its winner, the showdown is checked.
    assert settled.audit.checked(settled.ending).tolist() == [names_main, names_main]
    assert counts["cashed_out"] == (0 if names_main else 2)
