"""The hand tables' contract: the columns users join and query, their types, the vocabularies and
the key that joins the three tables."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from pipeline.hands import model

#: The columns the contract names for each table (more may follow; these must be there, typed).
CONTRACT = {
    "hands": ["hand_key", "hand_id", "table_key", "source", "site", "table", "time", "game", "betting",
              "variant", "currency", "small_blind", "big_blind", "ante", "tournament_id", "buy_in",
              "level", "max_seats", "players", "button_seat", "board", "pot", "rake", "outcome", "reason"],
    "seats": ["hand_key", "hand_id", "seat", "player", "position", "starting_stack", "contributed",
              "received", "net", "hole_cards", "folded_street", "all_in_street", "showed", "mucked",
              "at_showdown", "won"],
    "actions": ["hand_key", "hand_id", "index", "street", "seat", "player", "action", "amount", "to",
                "all_in", "pot_before"],
}
ACTIONS = ["post ante", "post small blind", "post big blind", "post straddle", "post", "post dead",
           "fold", "check", "call", "bet", "raise", "show", "muck"]


@pytest.mark.parametrize("name", sorted(CONTRACT))
def test_every_contract_column_is_there_in_order(name):
    names = model.TABLES[name].names
    assert [column for column in names if column in CONTRACT[name]] == CONTRACT[name]
    assert names[0] == "hand_key" and model.TABLES[name].field("hand_key").type == pa.int64()


def test_the_types_are_what_users_read():
    for schema in model.TABLES.values():
        for field in schema:
            if field.name in model.VOCABULARIES:  # small closed vocabularies, in their order
                assert field.type == pa.dictionary(pa.int8(), pa.string(), ordered=True), field
            if field.name in ("seat", "players", "max_seats", "button_seat"):
                assert field.type == pa.int8(), field
            if field.name in ("player", "site", "source", "table"):
                assert pa.types.is_dictionary(field.type) and not field.type.ordered, field
    chips = ["small_blind", "big_blind", "ante", "pot", "rake", "buy_in"]
    assert all(model.HANDS.field(name).type == pa.float64() for name in chips)
    assert model.HANDS.field("time").type == pa.timestamp("us", tz="UTC")


def test_the_vocabularies():
    assert list(model.VOCABULARIES["action"]) == ACTIONS
    assert list(model.VOCABULARIES["street"]) == ["preflop", "flop", "turn", "river"]
    assert list(model.VOCABULARIES["outcome"]) == ["scored", "no showdown", "unknown cards", "set apart",
                                                    "rejected"]
    assert list(model.VOCABULARIES["betting"]) == ["no-limit", "pot-limit", "fixed-limit"]
    column = model.vocabulary_column("action", np.array([6, 12]), present=np.array([True, False]))
    assert column.to_pylist() == ["fold", None] and column.type.ordered


def test_hand_keys_are_unique_and_in_input_order():
    sources = np.repeat(np.arange(5), 1000)
    numbers = np.tile(np.arange(1, 1001), 5)
    keys = model.hand_key(sources, numbers)
    assert len(np.unique(keys)) == len(keys) and (np.diff(keys) > 0).all()
    assert model.hand_key(3, 2**32 - 1) < model.hand_key(4, 1)
    with pytest.raises(ValueError):
        model.hand_key(0, 0)
    with pytest.raises(ValueError):
        model.hand_key(0, 2**32)
