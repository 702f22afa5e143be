"""The sites side by side: one hand written in three sites' formats, and a folder of every format."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from pipeline.runs.runner import Run

from .sites import DATA

# One hand: Alice raises on the button, Carol calls from the big blind, bets the river with a set
# and wins against ace high.  Chips: 0.50 + 3 + 3 before the flop, 8 on it, 20 on the river: 34.50,
# 1 raked.  Each site writes it its own way (GGPoker and PokerStars a total pot with the rake in
# it, Winamax the pot less the rake).
GGPOKER = """\
Poker Hand #HD1000001: Hold'em No Limit ($0.5/$1) - 2024/01/05 20:00:00
Table 'NLHGold1' 6-max Seat #1 is the button
Seat 1: Alice ($100 in chips)
Seat 2: Bob ($80 in chips)
Seat 3: Carol ($120 in chips)
Bob: posts small blind $0.5
Carol: posts big blind $1
*** HOLE CARDS ***
Dealt to Alice [Ah Kd]
Dealt to Bob
Dealt to Carol
Alice: raises $2 to $3
Bob: folds
Carol: calls $2
*** FLOP *** [2c 7d Ts]
Carol: checks
Alice: bets $4
Carol: calls $4
*** TURN *** [2c 7d Ts] [Jh]
Carol: checks
Alice: checks
*** RIVER *** [2c 7d Ts Jh] [3s]
Carol: bets $10
Alice: calls $10
Carol: shows [Tc Td] (Three of a kind, Tens)
Alice: shows [Ah Kd] (High card Ace)
*** SHOWDOWN ***
Carol collected $33.5 from pot
*** SUMMARY ***
Total pot $34.5 | Rake $1 | Jackpot $0 | Bingo $0
Board [2c 7d Ts Jh 3s]
Seat 1: Alice (button) showed [Ah Kd] and lost with High card Ace
Seat 2: Bob (small blind) folded before Flop
Seat 3: Carol (big blind) showed [Tc Td] and won ($33.5) with Three of a kind, Tens
"""
POKERSTARS = """\
PokerStars Hand #1000001: Hold'em No Limit ($0.50/$1.00 USD) - 2024/01/05 15:00:00 ET
Table 'Alpha' 6-max Seat #1 is the button
Seat 1: Alice ($100 in chips)
Seat 2: Bob ($80 in chips)
Seat 3: Carol ($120 in chips)
Bob: posts small blind $0.50
Carol: posts big blind $1
*** HOLE CARDS ***
Dealt to Alice [Ah Kd]
Alice: raises $2 to $3
Bob: folds
Carol: calls $2
*** FLOP *** [2c 7d Ts]
Carol: checks
Alice: bets $4
Carol: calls $4
*** TURN *** [2c 7d Ts] [Jh]
Carol: checks
Alice: checks
*** RIVER *** [2c 7d Ts Jh] [3s]
Carol: bets $10
Alice: calls $10
*** SHOW DOWN ***
Carol: shows [Tc Td] (three of a kind, Tens)
Alice: shows [Ah Kd] (high card Ace)
Carol collected $33.50 from pot
*** SUMMARY ***
Total pot $34.50 | Rake $1
Board [2c 7d Ts Jh 3s]
Seat 1: Alice (button) showed [Ah Kd] and lost with high card Ace
Seat 2: Bob (small blind) folded before Flop
Seat 3: Carol (big blind) showed [Tc Td] and won ($33.50) with three of a kind, Tens
"""
WINAMAX = """\
Winamax Poker - CashGame - HandId: #1000-1-1704484800 - Holdem no limit (0.50€/1€) - 2024/01/05 20:00:00 UTC
Table: 'Alpha' 6-max (real money) Seat #1 is the button
Seat 1: Alice (100€)
Seat 2: Bob (80€)
Seat 3: Carol (120€)
*** ANTE/BLINDS ***
Bob posts small blind 0.50€
Carol posts big blind 1€
Dealt to Alice [Ah Kd]
*** PRE-FLOP ***
Alice raises 2€ to 3€
Bob folds
Carol calls 2€
*** FLOP *** [2c 7d Ts]
Carol checks
Alice bets 4€
Carol calls 4€
*** TURN *** [2c 7d Ts] [Jh]
Carol checks
Alice checks
*** RIVER *** [2c 7d Ts Jh] [3s]
Carol bets 10€
Alice calls 10€
*** SHOW DOWN ***
Carol shows [Tc Td] (Three of a kind : Tens)
Alice shows [Ah Kd] (High card : Ace)
Carol collected 33.50€ from pot
*** SUMMARY ***
Total pot 33.50€ | Rake 1€
Board: [2c 7d Ts Jh 3s]
Seat 1: Alice (button) mucked
Seat 3: Carol (big blind) showed [Tc Td] and won 33.50€ with Three of a kind : Tens
"""
#: What each format writes its own way: the site, the hand's id, table, time, currency, game text.
OWN_FIELDS = {"hand_key", "hand_id", "source", "site", "table", "time", "time_zone", "variant", "currency"}


def tables_of(tmp_path: Path, name: str, text: str) -> dict[str, pd.DataFrame]:
    log = tmp_path / f"{name}.txt"
    log.write_text(text, encoding="utf-8")
    out = tmp_path / f"out_{name}"
    summary = Run([str(log)], out, output_format="parquet", threads=1).execute()
    assert summary["rows_scored"] == 1 and summary["expected"]["checked"] == 1
    assert summary["expected"]["mismatched"] == 0
    return {table: pd.read_parquet(out / f"{table}.parquet") for table in ("hands", "seats", "actions")}


def test_one_hand_in_three_sites_formats_gives_the_same_tables(tmp_path: Path) -> None:
    read = {name: tables_of(tmp_path, name, text)
            for name, text in (("ggpoker", GGPOKER), ("pokerstars", POKERSTARS), ("winamax", WINAMAX))}
    first = read["ggpoker"]
    for name, tables in read.items():
        for table, frame in tables.items():
            columns = [column for column in frame.columns if column not in OWN_FIELDS]
            pd.testing.assert_frame_equal(frame[columns].astype(str), first[table][columns].astype(str),
                                          obj=f"{name} {table}")
    hands = {name: tables["hands"].iloc[0] for name, tables in read.items()}
    assert {name: str(hand.site) for name, hand in hands.items()} == {
        "ggpoker": "GGPoker", "pokerstars": "PokerStars", "winamax": "Winamax"}
    assert {name: hand.currency for name, hand in hands.items()} == {
        "ggpoker": "USD", "pokerstars": "USD", "winamax": "EUR"}
    # The same moment: 15:00 in New York is 20:00 UTC; GGPoker writes no zone, so no time.
    assert str(hands["pokerstars"].time) == str(hands["winamax"].time) == "2024-01-05 20:00:00+00:00"
    assert pd.isna(hands["ggpoker"].time)
    seats = first["seats"].set_index("player")
    assert seats.loc["Carol"].net == pytest.approx(33.5 - 17.0)  # 3 before the flop, 4 on it, 10 on the river
    assert seats.net.sum() == pytest.approx(-1.0)


def test_a_folder_of_every_site_with_phh_pokerstars_and_csv(tmp_path: Path) -> None:
    """Every site's sample logs, PHH, PokerStars and a deal archive in one folder: each file read by
    its own format, every hand counted once, each site's audit counted under its name."""
    folder = tmp_path / "archive"
    for site in sorted(path for path in DATA.iterdir() if path.is_dir()):
        shutil.copytree(site, folder / "sites" / site.name)
    tests = Path(__file__).parent / "data"
    shutil.copytree(tests / "phh", folder / "phh")
    shutil.copytree(tests / "pokerstars", folder / "pokerstars")
    (folder / "deals.csv").write_text("board,p1,p2\nAh Kh Qh Jh Th,2c 3c,4d 5d\n")
    summary = Run([str(folder)], tmp_path / "out", output_format="parquet").execute()
    formats = {entry["format"] for entry in summary["inputs"]}
    assert {"csv", "phh", "pokerstars", "ggpoker", "888poker", "winamax", "partypoker", "winningpoker",
            "winningpoker-v2"} <= formats
    assert summary["rows_read"] == sum(entry["rows"] for entry in summary["inputs"])
    assert summary["rows_read"] == sum(summary[f"rows_{name}"] for name in (
        "scored", "without_showdown", "unknown_cards", "set_apart", "rejected"))
    venues = summary["expected"]["by_venue"]
    sites = {"GGPoker", "888poker", "Winamax", "PartyPoker", "Winning Poker Network", "PokerStars"}
    assert sites <= set(venues)
    assert summary["expected"]["mismatched"] == 0
    hands = pd.read_parquet(tmp_path / "out" / "hands.parquet")
    counted = hands.groupby(hands.site.astype(str)).size()
    assert all(counted[site] > 0 for site in sites)
    # No GGPoker hand is filed under PokerStars: each hand's site is the format that read it.
    by_format = {entry["path"]: entry["format"] for entry in summary["inputs"]}
    for source, site in zip(hands.source.astype(str), hands.site.astype(str)):
        if site == "GGPoker":
            assert by_format[source] == "ggpoker"
    json.dumps(summary)  # the summary is plain data


#: A sample of each site, and its game's words in the header replaced by a stud game's as the site
#: would write it.
STUD = [
    ("ggpoker/CashGame/GeneralHands/Straddle.txt", "Hold'em No Limit", "Seven Card Stud Limit"),
    ("winamax/CashGame/GeneralHands/GeneralHand.txt", "Holdem no limit", "Stud hi limit"),
    ("888poker/CashGame/GeneralHands/GeneralHand.txt", "Blinds No Limit Holdem",
     "Blinds Fix Limit 7 Card Stud"),
    ("partypoker/CashGame/GeneralHands/GeneralHand.txt", "NL Texas Hold'em", "FL Seven Card Stud"),
    ("winningpoker-v2/CashGame/GeneralHands/GeneralHand.txt", "Omaha(Pot Limit)", "Stud(Fixed Limit)"),
    ("winningpoker/CashGame/GeneralHands/GeneralHand.txt", "(Hold'em)", "(Stud)"),
]


@pytest.mark.parametrize(("sample", "game", "stud"), STUD,
                         ids=[sample.split("/")[0] for sample, *_ in STUD])
def test_a_game_not_scored_rejects_its_hands_with_the_reason(tmp_path: Path, sample: str, game: str,
                                                             stud: str) -> None:
    text = (DATA / sample).read_text(encoding="utf-8-sig")
    assert game in text
    log = tmp_path / "stud.txt"
    log.write_text(text.replace(game, stud), encoding="utf-8")
    summary = Run([str(log)], tmp_path / "out").execute()
    assert summary["rows_rejected"] == summary["rows_read"] > 0
    rejects = pd.read_csv(tmp_path / "out" / "rejects.csv")
    assert all(reason.startswith("game ") and "is not one pokerpipe scores" in reason
               for reason in rejects.reason)
