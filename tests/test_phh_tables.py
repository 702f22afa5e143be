"""PHH hands as rows of the hand tables: the fields of each hand where the tables put them, read
independently here with tomllib, and the chips against the record's own totals."""

from __future__ import annotations

import datetime as dt
import math
import tomllib
from pathlib import Path
from zoneinfo import ZoneInfo

import pandas as pd
import pytest

from pipeline.runs.runner import Run

from .conftest import DATA

HANDHQ = DATA / "phh" / "handhq_30.phhs"
#: The zones of the sample's hands, from their definitions: Eastern time with its summer time,
#: Eastern Daylight Time and Central European Summer Time.
ZONES = {"ET": ZoneInfo("America/New_York"), "EDT": dt.timezone(dt.timedelta(hours=-4)),
         "CEST": dt.timezone(dt.timedelta(hours=2))}


@pytest.fixture(scope="module")
def handhq(tmp_path_factory) -> dict[str, pd.DataFrame]:
    out = tmp_path_factory.mktemp("handhq") / "out"
    Run([str(HANDHQ)], out, output_format="parquet", threads=1).execute()
    names = ("hands", "seats", "actions", "winners")
    return {name: pd.read_parquet(out / f"{name}.parquet") for name in names}


def test_each_hand_keeps_its_ids_table_time_and_seats(handhq):
    tables = tomllib.loads(HANDHQ.read_text())
    hands = handhq["hands"].set_index("table_key")
    assert sorted(hands.index) == sorted(tables)
    for key, table in tables.items():
        row = hands.loc[key]
        assert row.hand_id == str(table["hand"])
        assert row.site == table["venue"] and row.table == table["table"]
        assert row.players == len(table["starting_stacks"])
        zone = table.get("time_zone_abbreviation")
        if zone in ZONES and "time" in table:
            local = dt.datetime.combine(dt.date(table["year"], table["month"], table["day"]), table["time"],
                                        ZONES[zone])
            assert row.time == pd.Timestamp(local).tz_convert("UTC")
            assert row.time_zone == zone
        else:  # no zone, or one that names no offset we know (GMT-0910): no moment is made up
            assert pd.isna(row.time)
        if table.get("currency_symbol") == "$":
            assert row.currency == "USD"
    seats = handhq["seats"]
    for key, table in tables.items():
        hand = seats[seats.hand_key == hands.loc[key].hand_key]
        if hands.loc[key].outcome == "rejected":
            assert hand.empty
            continue
        # Seats as the table numbers them, each with its own player and stack.
        numbers = table.get("seats", list(range(1, len(table["starting_stacks"]) + 1)))
        assert hand.seat.tolist() == numbers
        assert hand.player.tolist() == table["players"]
        known = [stack if math.isfinite(stack) else None for stack in table["starting_stacks"]]
        assert hand.starting_stack.astype(object).where(hand.starting_stack.notna(), None).tolist() == known


def test_the_chips_add_up_to_what_the_record_says(handhq):
    tables = tomllib.loads(HANDHQ.read_text())
    hands, seats = handhq["hands"].set_index("hand_key"), handhq["seats"]
    checked = 0
    for key, hand in seats.groupby("hand_key"):
        record = tables[hands.loc[key].table_key]
        # What was put in is the pot; what the record pays, plus the rake, is the pot too.
        assert hand.contributed.sum() == pytest.approx(hands.loc[key].pot)
        if "winnings" in record and any(record["winnings"]):
            assert hand.received.tolist() == pytest.approx(record["winnings"])
            pot, paid = hands.loc[key].pot, sum(record["winnings"])
            if 0.9 * pot - 1e-9 <= paid <= pot + 1e-9:  # what a record with a rake of 0 to 10 % pays
                assert hand.net.sum() == pytest.approx(-hands.loc[key].rake)
                checked += 1
            else:  # no result (PartyPoker's winnings count the uncalled bet): no rake is made up
                assert pd.isna(hands.loc[key].rake)
    assert checked >= 10


def test_a_winners_row_joins_its_seats_by_hand_key_and_seat(handhq):
    winners, seats = handhq["winners"], handhq["seats"].set_index(["hand_key", "seat"])
    assert len(winners) > 0
    for row in winners.itertuples():
        for seat in range(1, 11):
            name = getattr(row, f"p{seat}_player")
            if pd.isna(name):
                assert (row.hand_key, seat) not in seats.index
            else:
                assert seats.loc[(row.hand_key, seat), "player"] == name


def test_a_name_holding_a_comma_stays_whole_and_a_bad_seats_field_rejects_its_hand(tmp_path: Path):
    text = HANDHQ.read_text().split("\n[2]\n")[0]
    first = tomllib.loads(text)["1"]
    named = text.replace(f"'{first['players'][0]}'", "'Smith, John'")
    (tmp_path / "named.phhs").write_text(named)
    bad = text.replace("seats = [3, 4, 5, 6, 1, 2]", "seats = [3, 4, 5, 6, 1, 1]")
    assert bad != text
    (tmp_path / "bad.phhs").write_text(bad)
    out = tmp_path / "out"
    Run([str(tmp_path / "named.phhs"), str(tmp_path / "bad.phhs")], out, output_format="parquet").execute()
    seats = pd.read_parquet(out / "seats.parquet")
    assert seats.player.tolist()[0] == "Smith, John" and len(seats) == len(first["players"])
    hands = pd.read_parquet(out / "hands.parquet")
    assert hands.outcome.tolist() == ["no showdown", "rejected"]
    assert "seats" in hands.reason.tolist()[1]


def test_a_board_run_twice_is_set_apart_with_its_reason(tmp_path: Path):
    tables = tomllib.loads(HANDHQ.read_text())
    key = next(k for k, table in tables.items() if sum(a.startswith("d db") for a in table["actions"]) == 3)
    text = HANDHQ.read_text().split(f"[{key}]\n", 1)[1].split("\n[", 1)[0]
    actions = [*tables[key]["actions"], "d db 2s", "d db 3s"]  # a second turn and river
    text = "\n".join(f"actions = {actions!r}" if line.startswith("actions = ") else line
                     for line in text.splitlines())
    (tmp_path / "twice.phhs").write_text(f"[1]\n{text}\n")
    assert len(tomllib.loads((tmp_path / "twice.phhs").read_text())["1"]["actions"]) == len(actions)
    out = tmp_path / "out"
    summary = Run([str(tmp_path / "twice.phhs")], out, output_format="parquet").execute()
    assert summary["rows_set_apart"] == 1 and summary["set_apart"] == {"run twice": 1}
    assert summary["rows_rejected"] == 0
    hands = pd.read_parquet(out / "hands.parquet")
    assert hands.outcome.tolist() == ["set apart"] and hands.reason.tolist() == ["run twice"]


def test_the_stakes_are_the_listed_blinds_and_the_ante_all_pay(tmp_path: Path):
    # Read here with tomllib: the blinds are the first two entries of blinds_or_straddles, the ante
    # one that every player pays.
    raw = DATA.parent.parent / "data" / "raw" / "phh"
    files = [raw / "dwan-ivey-2009.phh", raw / "pluribus-31.phhs", HANDHQ]
    Run([str(path) for path in files], tmp_path / "out", output_format="parquet", threads=1).execute()
    hands = pd.read_parquet(tmp_path / "out" / "hands.parquet")
    expected = []
    for path in files:
        text = tomllib.loads(path.read_text()) if path.suffix == ".phh" else None
        for hand in [text] if text else _tables(path):
            blinds, antes = hand["blinds_or_straddles"][:2], hand["antes"]
            posted = [value for value in blinds if value > 0]
            expected.append((min(posted) if len(posted) == 2 else None, max(posted) if posted else None,
                             antes[0] if antes[0] > 0 and len(set(antes)) == 1 else None))
    got = [tuple(None if pd.isna(value) else value for value in row)
           for row in hands[["small_blind", "big_blind", "ante"]].itertuples(index=False)]
    assert got == expected
    assert expected[0] == (1000, 2000, 500) and expected[1] == (50, 100, None)


def _tables(path: Path) -> list[dict]:
    """The hands of a .phhs file, in order (its tables [1], [2], ...)."""
    tables = tomllib.loads(path.read_text())
    return [tables[key] for key in sorted(tables, key=int)]
