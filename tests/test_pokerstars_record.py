"""PokerStars Records: every hand of every sample read into :class:`pipeline.hands.record.Record`.

The reference here reads each hand line by line in plain Python, from the
format's rules: seat lines, the actions after ``NAME: ``, the collections,
cash-outs and uncalled bets, the summary.  The Record must say what it says,
and its chips must add up to the pots the site wrote.  Expectations come from
the text (and a few times worked out by hand), never from pokerpipe's output.
"""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from pipeline.formats import histories
from pipeline.formats.sites import pokerstars
from pipeline.formats.sources import Source
from pipeline.hands.model import HANDS, Action
from pipeline.hands.record import NO_CARD, SLOTS, UNKNOWN_CARD, Record

from .test_pokerstars import HARD, SESSIONS, write

FILES = [path for path in sorted([*HARD.glob("*.txt"), *SESSIONS.glob("*.txt")])
         if pokerstars.is_pokerstars(path)]
ACTIONS = list(Action)

# --- a reference written plainly -------------------------------------------------------------

START = re.compile(r"^PokerStars [^#]*#[0-9]+: .* - [0-9]{4}/[0-9]{1,2}/[0-9]{1,2} ")
AMOUNT = r"[$€£¥]?[0-9][0-9,]*(?:\.[0-9]+)?"
SEAT = re.compile(rf"^Seat ([0-9]+): (.+) \(({AMOUNT}) in chips[^()]*\)(.*)$")
TABLE = re.compile(r"^Table '(.*)' ([0-9]+)-max Seat #([0-9]+) is the button")
WORDS = re.compile(rf"^(posts small & big blinds|posts small blind|posts big blind|posts the ante"
                   rf"|posts straddle|calls|bets|raises {AMOUNT} to|folds|checks|shows|mucks hand"
                   rf"|doesn't show hand|discards|stands pat)(?: ({AMOUNT}))?(.*)$")
KINDS = {"posts small blind": Action.POST_SMALL_BLIND, "posts big blind": Action.POST_BIG_BLIND,
         "posts the ante": Action.POST_ANTE, "posts straddle": Action.POST_STRADDLE, "calls": Action.CALL,
         "bets": Action.BET, "folds": Action.FOLD, "checks": Action.CHECK, "shows": Action.SHOW,
         "mucks hand": Action.MUCK}
STREETS = {"FLOP": 1, "TURN": 2, "RIVER": 3}
RANKS, SUITS = "23456789TJQKA", "cdhs"


def chips(text: str) -> float:
    return float(text.lstrip("$€£¥").replace(",", ""))


def card(text: str) -> int:
    return 4 * RANKS.index(text[0]) + SUITS.index(text[1])


# The hole cards each game of a header deals a player, by its name.
HOLE_CARDS = {"Hold'em": 2, "6+ Hold'em": 2, "Omaha": 4, "Omaha Hi/Lo": 4, "5 Card Omaha": 5,
              "5 Card Omaha Hi/Lo": 5, "6 Card Omaha": 6, "6 Card Omaha Hi/Lo": 6}


def dealt_cards(header: str) -> int:
    """The hole cards the game a header names deals a player (the longest name written in it)."""
    return next((HOLE_CARDS[name] for name in sorted(HOLE_CARDS, key=len, reverse=True)
                 if f" {name} " in header), 2)


def hole_cards(text: str, dealt: int = 2) -> list[int]:
    """The cards a text shows of a hand dealing ``dealt``: those seen first, the rest unknown; none
    for more cards than are dealt."""
    cards = text.split()
    if not 1 <= len(cards) <= dealt:
        return []
    return [card(text) for text in cards] + [UNKNOWN_CARD] * (dealt - len(cards))


def blocks_of(path: Path) -> list[tuple[int, list[str]]]:
    """Each hand of a file: the line it starts at and its lines."""
    text = path.read_bytes().decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    blocks: list[tuple[int, list[str]]] = []
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.lstrip("\ufeff")
        if START.match(line):
            blocks.append((number, []))
        if blocks:
            blocks[-1][1].append(line.rstrip("\n"))
    return blocks


def reference_hand(lines: list[str]) -> dict[str, Any]:
    """What one hand's text says, as the Record should hold it."""
    first_marker = next((i for i, line in enumerate(lines) if line.startswith("*** ")), len(lines))
    summary_at = lines.index("*** SUMMARY ***") if "*** SUMMARY ***" in lines else len(lines)
    hand: dict[str, Any] = {"seats": {}, "marked": set(), "table": None, "max_seats": None, "button": None}
    for line in lines[1:first_marker]:
        found = SEAT.match(line)
        if found:
            hand["seats"][int(found[1])] = (found[2], chips(found[3]))
            if "is sitting out" in found[4] or "out of hand" in found[4]:
                hand["marked"].add(int(found[1]))
        found = TABLE.match(line)
        if found and hand["table"] is None:
            hand["table"], hand["max_seats"], hand["button"] = found[1], int(found[2]), int(found[3])
    seat_of = {name: seat for seat, (name, _) in hand["seats"].items()}
    hand["hole_cards"] = dealt = dealt_cards(lines[0])
    small_blind = re.search(rf"\(?(?:Level [^ ]+ \()?(?:[^(),]+, )?({AMOUNT})/({AMOUNT})", lines[0])
    blind = chips(small_blind[1]) if small_blind else math.nan

    def actor(line: str) -> tuple[str | None, str]:
        # The name is before the line's last ": ", the halves a hi-lo hand shows left aside
        # ("shows [..] (HI: two pair, Nines and Sixes; LO: 8,6,4,3,2)").
        name, _, words = re.sub(r" \(HI: [^()]*\)$", "", line).rpartition(": ")
        words = line[len(name) + 2:] if name else words
        return (name, words.rstrip()) if name in seat_of else (None, "")

    actions, acting, street = [], set(), 0
    received: dict[int, float] = {}
    cashed: dict[int, float] = {}
    returned: dict[int, float] = {}
    holes: dict[int, list[int]] = {}
    posted = set()
    for line in lines[1:summary_at]:
        if line.startswith("*** "):
            for name, number in STREETS.items():
                if re.match(rf"^\*\*\* (?:FIRST |SECOND )?{name} \*\*\*", line):
                    street = number
            continue
        name, words = actor(line)
        found = WORDS.match(words) if name else None
        if name and found:
            seat, kind = seat_of[name], found[1]
            acting.add(seat)
            amount = chips(found[2]) if found[2] else math.nan
            all_in = " and is all-in" in found[3]
            if kind.startswith("raises"):
                actions.append((seat - 1, Action.RAISE, street, amount, math.nan, all_in, line))
            elif kind == "posts small & big blinds":
                actions.append((seat - 1, Action.POST_DEAD, street, blind, blind, False, line))
                actions.append((seat - 1, Action.POST, street, amount - blind, amount - blind, all_in, line))
            elif kind in KINDS:
                action = KINDS[kind]
                if kind in ("posts small blind", "posts big blind"):
                    if kind in posted:  # not the hand's blind: a player's post to enter
                        action = Action.POST_DEAD if kind == "posts small blind" else Action.POST
                    posted.add(kind)
                to = amount if kind.startswith("posts") or kind == "bets" else math.nan
                written = amount if kind.startswith("posts") or kind in ("bets", "calls") else math.nan
                actions.append((seat - 1, action, street, to, written, all_in, line))
            if kind == "shows":
                holes[seat] = hole_cards(words[len("shows ["):].split("]")[0], dealt)
            continue
        found = re.match(rf"^(.+) collected ({AMOUNT}) from (?:pot|main pot|side pot(?:-[0-9]+)?) *$", line)
        if found and found[1] in seat_of:
            seat = seat_of[found[1]]
            received[seat] = received.get(seat, 0) + chips(found[2])
            acting.add(seat)
        found = re.match(rf"^(.+) cashed out the hand for ({AMOUNT})", line)
        if found and found[1] in seat_of:
            cashed[seat_of[found[1]]] = chips(found[2])
        found = re.match(rf"^Uncalled bet \(({AMOUNT})\) returned to (.+?) *$", line)
        if found and found[2] in seat_of:
            returned[seat_of[found[2]]] = chips(found[1])
        found = re.match(r"^Dealt to (.+) \[([^\]]*)\] *$", line)
        if found and found[1] in seat_of:
            holes[seat_of[found[1]]] = hole_cards(found[2], dealt)
    hand["dealt"] = {seat for seat in hand["seats"] if seat not in hand["marked"] or seat in acting}
    hand.update(actions=actions, received=received, cashed=cashed, returned=returned, pot=math.nan,
                rake=math.nan, board=[], won={}, not_awarded={})
    for line in lines[summary_at + 1:]:
        found = re.match(rf"^Total pot ({AMOUNT}).* \| Rake ({AMOUNT})", line)
        if found and math.isnan(hand["pot"]):
            hand["pot"], hand["rake"] = chips(found[1]), chips(found[2])
        if line.startswith("Board [") and not hand["board"]:
            hand["board"] = [card(text) for text in line[len("Board ["):].split("]")[0].split()]
        for seat, (name, _) in hand["seats"].items():
            if line.startswith(f"Seat {seat}: {name} "):
                fate = line[len(f"Seat {seat}: {name} "):]
                won = sum(chips(amount) for amount in re.findall(rf"(?:won|collected) \(({AMOUNT})\)", fate))
                if "(pot not awarded as player cashed out)" in fate:
                    hand["not_awarded"][seat] = won
                else:
                    hand["won"][seat] = won
                shown = re.match(r"^(?:\([a-z ]+\) )*(?:showed|mucked) \[([^\]]*)\]", fate)
                # A muck at the showdown that only the summary writes is a muck all the same.
                if "*** SHOW DOWN ***" in lines and re.match(r"^(?:\([a-z ]+\) )*mucked", fate) and not any(
                        row[0] == seat - 1 and row[1] == Action.MUCK for row in actions):
                    actions.append((seat - 1, Action.MUCK, street, math.nan, math.nan, False, line))
                if shown:
                    holes[seat] = hole_cards(shown[1], dealt)
    hand["holes"] = {seat: cards for seat, cards in holes.items() if cards and seat in hand["dealt"]}
    return hand


def records_of(path: Path, batch_rows: int = 1000) -> list[Record]:
    return list(pokerstars.read_records(Source(path, "pokerstars", histories.COLUMNS), batch_rows=batch_rows))


def hands_of(record: Record, hand: int) -> range:
    rows = np.flatnonzero(record.action_hand == hand)
    return range(rows[0], rows[-1] + 1) if len(rows) else range(0)


def chips_put_in(record: Record, hand: int) -> float:
    """What the Record's actions put in the pot, less the bets returned: posts and calls as written,
    a bet or raise its total less what the player had in on the street; dead money counts toward
    no one's bet."""
    total, street, put = 0.0, -1, {}
    for row in hands_of(record, hand):
        if record.street[row] != street:
            street, put = record.street[row], {}
        action, slot = ACTIONS[record.action[row]], record.slot[row]
        if action in (Action.POST_DEAD, Action.POST_ANTE):
            total += record.written[row]
        elif action in (Action.POST_SMALL_BLIND, Action.POST_BIG_BLIND, Action.POST, Action.POST_STRADDLE,
                        Action.CALL):
            total += record.written[row]
            put[slot] = put.get(slot, 0.0) + record.written[row]
        elif action in (Action.BET, Action.RAISE):
            total += record.to[row] - put.get(slot, 0.0)
            put[slot] = record.to[row]
    return total - float(np.nansum(record.returned[hand]))


# The hands whose text does not add up, from reading them: what went in is not the total pot written.
UNBALANCED = {
    # Antes of 6 x $0.05, blinds $0.10 and $0.25, a raise to $0.50 of which $0.25 is returned:
    # $0.90 went in, the summary says "Total pot $0.50".
    ("CashGame_Limits_AnteTable.txt", 1),
    # Blinds $0.50 and $1, a raise to $3.50 that no one calls and no line returns: $5 went in, the
    # total pot is $2.50 (the $2.50 uncalled left out).
    ("CashGame_ExtraHands_DateIssue1.txt", 1),
    # Blinds $1 and $2, a raise to $4, a raise to $40 that no one calls and no line returns: $45
    # went in, the total pot is $9.
    ("CashGame_ExtraHands_DateIssue2.txt", 1),
}


# --- every hand of every sample ----------------------------------------------------------------

@pytest.mark.parametrize("path", FILES, ids=[path.name for path in FILES])
def test_every_hand_reads_as_its_text_says(path: Path) -> None:
    records = records_of(path, batch_rows=3)  # several batches: each its own Record
    blocks = blocks_of(path)
    assert sum(record.hands for record in records) == len(blocks) > 0
    batches = list(pokerstars.read_batches(Source(path, "pokerstars", histories.COLUMNS), batch_rows=3))
    rejected = {row: reason for batch in batches for row, _, _, reason in batch.unreadable}
    # The hole cards of every slot: as many as the most any hand of the file (one chunk) deals.
    width = max(2, *(dealt_cards(lines[0]) for _, lines in blocks))
    number = 0
    for record in records:
        record.check()
        assert record.holes.shape[2] == width
        assert set(record.hand) == set(HANDS.names) - {"hand_key", "table_key", "source", "players",
                                                       "button_seat", "board", "pot", "rake", "outcome",
                                                       "reason"}
        for hand in range(record.hands):
            line, lines = blocks[number]
            number += 1
            # A rejected hand's line is that of its fault, in the hand.
            assert record.number[hand] == number
            assert record.line[hand] == line if record.problem[hand] is None else \
                line <= record.line[hand] < line + len(lines)
            assert record.problem[hand] == rejected.get(number)
            assert (record.excerpt[hand] is None) == (record.problem[hand] is None)
            check_hand(record, hand, reference_hand(lines), (path.name, number))


def check_hand(record: Record, hand: int, reference: dict[str, Any], where: tuple[str, int]) -> None:
    """One hand of a Record against the reference's reading of its text."""
    seats, dealt = reference["seats"], reference["dealt"]
    assert record.seat[hand].tolist() == [slot + 1 if slot + 1 in dealt else 0
                                          for slot in range(SLOTS)], where
    assert record.player.slice(hand * SLOTS, SLOTS).to_pylist() == [
        seats[slot + 1][0] if slot + 1 in dealt else None for slot in range(SLOTS)], where
    stacks = [seats[slot + 1][1] if slot + 1 in dealt else math.nan for slot in range(SLOTS)]
    np.testing.assert_array_equal(record.stack[hand], stacks, err_msg=str(where))
    assert record.button[hand] == (reference["button"] - 1 if reference["button"] else -1), where
    assert record.hand["table"][hand].as_py() == reference["table"], where
    assert record.hand["max_seats"][hand].as_py() == reference["max_seats"], where
    board = reference["board"] + [NO_CARD] * (5 - len(reference["board"]))
    assert record.board[hand].tolist() == board, where
    # A slot's cards first, unknown where not seen, none past its last (an Omaha hand of four in a
    # group whose most is five).
    width, count = record.holes.shape[2], reference["hole_cards"]
    holes = [reference["holes"].get(slot + 1, [UNKNOWN_CARD] * count) + [NO_CARD] * (width - count)
             if slot + 1 in dealt else [NO_CARD] * width for slot in range(SLOTS)]
    assert record.holes[hand].tolist() == holes, where
    rows = hands_of(record, hand)
    assert record.text is not None
    got = [(record.slot[row], ACTIONS[record.action[row]], record.street[row], record.to[row],
            record.written[row], record.all_in[row], text)
           for row, text in zip(rows, record.text.slice(rows.start, len(rows)).to_pylist())]
    assert len(got) == len(reference["actions"]), where
    for mine, theirs in zip(got, reference["actions"]):
        assert mine[:3] == theirs[:3] and mine[5:] == theirs[5:], (where, mine, theirs)
        np.testing.assert_allclose(mine[3:5], theirs[3:5], atol=1e-9, err_msg=str((where, mine, theirs)))
    for name, by_seat, empty in (("received", reference["received"], math.nan),
                                 ("returned", reference["returned"], math.nan),
                                 ("cashed_out", reference["cashed"], 0.0)):
        expected = [by_seat.get(slot + 1, 0.0) if slot + 1 in dealt else empty for slot in range(SLOTS)]
        np.testing.assert_allclose(getattr(record, name)[hand], expected, atol=1e-9,
                                   err_msg=f"{where} {name}")
    np.testing.assert_array_equal([record.pot[hand], record.rake[hand]],
                                  [reference["pot"], reference["rake"]], err_msg=str(where))
    if record.problem[hand] is not None or record.apart[hand] is not None:
        return
    # The chips: what went in, less what came back, is the pot written; the pot less the rake is
    # what the players received, or got instead from the site.
    if where not in UNBALANCED:
        assert chips_put_in(record, hand) == pytest.approx(record.pot[hand], abs=1e-9), where
    paid = float(np.nansum(record.received[hand])) + sum(reference["not_awarded"].values())
    assert paid + record.rake[hand] == pytest.approx(record.pot[hand], abs=1e-9), where
    for seat, won in reference["won"].items():  # each seat's summary line says what it received
        assert record.received[hand, seat - 1] == pytest.approx(won, abs=1e-9), (where, seat)
    for seat in reference["not_awarded"]:
        assert record.received[hand, seat - 1] == 0, (where, seat)


def test_the_unbalanced_hands_are_the_ones_listed() -> None:
    # A hand listed as one whose text does not add up must be one.
    for name, number in UNBALANCED:
        (record,) = records_of(HARD / name)
        assert chips_put_in(record, number - 1) != pytest.approx(record.pot[number - 1], abs=1e-9)


def test_the_samples_hold_the_cases_the_record_must_tell() -> None:
    # The rules above are exercised: entry posts, dead money, antes, cash-outs, returns, sit-outs.
    actions = {ACTIONS[code] for path in FILES for record in records_of(path) for code in record.action}
    assert actions >= {Action.POST_SMALL_BLIND, Action.POST_BIG_BLIND, Action.POST_ANTE, Action.POST,
                       Action.POST_DEAD, Action.FOLD, Action.CHECK, Action.CALL, Action.BET, Action.RAISE,
                       Action.SHOW, Action.MUCK}
    cashed = sum(int((record.cashed_out > 0).sum()) for path in FILES for record in records_of(path))
    assert cashed == 3  # titoneopren twice, partizan_vlg once


# --- the header: times, tournaments, stakes ----------------------------------------------------

def utc(*fields: int) -> datetime:
    return datetime(*fields, tzinfo=UTC)


# Worked out by hand: ET is UTC-5 in winter and UTC-4 in summer; CET UTC+1 and, in summer, UTC+2;
# WET UTC+0 in winter; PT UTC-7 in summer.
TIMES = [("CashGame_ExtraHands_SidePot.txt", 1, "ET", utc(2012, 9, 10, 23, 43, 58)),  # 19:43:58 EDT
         # 1:53:51 EST
         ("CashGame_MultipleHandsTests_10MultipleHands.txt", 3, "ET", utc(2014, 1, 6, 6, 53, 51)),
         ("MultiTableTournament_Limits_Limit1.txt", 1, "CET", utc(2015, 3, 31, 19, 6, 11)),  # 21:06:11 CEST
         ("CashGame_RunItTwiceTests_RunItTwice1.txt", 1, "WET", utc(2014, 11, 8, 0, 40, 18)),  # 0:40:18 WET
         ("CashGame_ExtraHands_DateIssue2.txt", 1, "PT", utc(2011, 5, 10, 11, 27, 21)),  # 4:27:21 PDT
         ("CashGame_GeneralHands_HeroName.txt", 1, "CET", utc(2013, 3, 8, 17, 14, 22))]  # 18:14:22 CET


@pytest.mark.parametrize("name, number, zone, expected", TIMES, ids=[f"{t[0]}-{t[1]}" for t in TIMES])
def test_times_are_utc_by_the_zone_written(name: str, number: int, zone: str, expected: datetime) -> None:
    (record,) = records_of(HARD / name)
    assert record.hand["time_zone"][number - 1].as_py() == zone
    assert record.hand["time"][number - 1].as_py() == expected
    assert record.hand["time"].type == HANDS.field("time").type


def test_a_time_in_an_unknown_zone_is_null(tmp_path: Path) -> None:
    text = (HARD / "CashGame_ExtraHands_SidePot.txt").read_text(encoding="utf-8-sig")
    text = text.replace(" ET\n", " XYZT\n")
    (record,) = records_of(write(tmp_path, text))
    assert record.hand["time"][0].as_py() is None and record.hand["time_zone"][0].as_py() == "XYZT"


TOURNAMENTS = [("MultiTableTournament_GameTypeTests_NoLimitHoldem.txt", "937193984", 1.0, 5, 40, 80, 8),
               ("MultiTableTournament_Limits_Limit1.txt", "11866000000", 15.0, 4, 40, 80, 10),
               ("MultiTableTournament_Limits_Limit2.txt", "910930978", 0.0, 1, 10, 20, None)]


@pytest.mark.parametrize("name, tournament, buy_in, level, small, big, ante", TOURNAMENTS)
def test_a_tournament_hand(name: str, tournament: str, buy_in: float, level: int, small: float, big: float,
                           ante: float | None) -> None:
    (record,) = records_of(HARD / name)
    got = {column: record.hand[column][0].as_py() for column in record.hand}
    assert got["tournament_id"] == tournament and got["buy_in"] == pytest.approx(buy_in)
    assert got["level"] == level and got["small_blind"] == small and got["big_blind"] == big
    assert got["ante"] == ante and got["currency"] is None  # tournament chips
    assert got["game"] == "holdem" and got["betting"] == "no-limit" and got["site"] == "PokerStars"


STAKES = [(HARD / "CashGame_Limits_EuroTable.txt", "EUR", "no-limit", 0.5, 1.0),
          (HARD / "CashGame_Limits_GbpTable.txt", "GBP", "no-limit", 0.1, 0.25),
          (HARD / "CashGame_Limits_YuanTable.txt", "CNY", "pot-limit", 25, 50),
          (HARD / "CashGame_GameTypeTests_FixedLimitHoldem.txt", "USD", "fixed-limit", 0.5, 1.0),
          (HARD / "CashGame_GameTypeTests_PotLimitHoldem.txt", "USD", "pot-limit", 0.5, 1.0),
          # "($0.01/$0.02)": no code written, the sign's.
          (SESSIONS / "HH20200419 McNaught - $0,01-$0,02 - USD No Limit Hold'em.txt", "USD", "no-limit",
           0.01, 0.02)]


@pytest.mark.parametrize("path, currency, betting, small, big", STAKES, ids=[s[0].name for s in STAKES])
def test_stakes_and_currencies(path: Path, currency: str, betting: str, small: float, big: float) -> None:
    record = records_of(path)[0]
    header = path.read_bytes().decode("utf-8-sig").replace("\r", "\n").splitlines()[0]
    got = {column: record.hand[column][0].as_py() for column in record.hand}
    assert got["currency"] == currency and got["betting"] == betting
    assert (got["small_blind"], got["big_blind"]) == (small, big)
    assert f"#{got['hand_id']}: " in header and f" {got['variant']} (" in header
    assert (got["game"] == "holdem") == got["variant"].startswith("Hold'em")


# --- a hand written for the rules: entry posts, dead money, antes, a cash-out, an uncalled bet ----

MADE = """PokerStars Hand #77:  Hold'em No Limit ($1/$2 USD) - 2021/07/01 12:00:00 ET
Table 'Made' 6-max Seat #1 is the button
Seat 1: ann ($100 in chips)
Seat 2: bob ($46 in chips)
Seat 3: cy ($80 in chips)
Seat 4: dee ($60 in chips) is sitting out
Seat 5: eve ($70 in chips)
Seat 6: fay ($90 in chips)
ann: posts the ante $0.50
bob: posts the ante $0.50
cy: posts the ante $0.50
eve: posts the ante $0.50
fay: posts the ante $0.50
bob: posts small blind $1
cy: posts big blind $2
eve: posts small & big blinds $3
fay: posts big blind $2
*** HOLE CARDS ***
Dealt to ann [Ah Kd]
eve: checks
fay: checks
ann: raises $4 to $6
bob: calls $5
cy: calls $4
eve: calls $4
fay: folds
*** FLOP *** [2c 7d 9h]
bob: bets $10
cy: raises $20 to $30
eve: folds
ann: folds
bob: calls $20
*** TURN *** [2c 7d 9h] [Js]
bob: checks
cy: bets $20
bob: calls $9.50 and is all-in
Uncalled bet ($10.50) returned to cy
*** RIVER *** [2c 7d 9h Js] [3s]
*** SHOW DOWN ***
bob: shows [Qh Qd] (a pair of Queens)
cy: shows [8s 8d] (a pair of Eights)
bob cashed out the hand for $70 | Cash Out Fee $0.70
*** SUMMARY ***
Total pot $108.50 | Rake $2.50
Board [2c 7d 9h Js 3s]
Seat 1: ann (button) folded on the Flop
Seat 2: bob showed [Qh Qd] and won ($106) with a pair of Queens (pot not awarded as player cashed out)
Seat 3: cy (big blind) showed [8s 8d] and lost with a pair of Eights
Seat 5: eve folded on the Flop
Seat 6: fay folded before Flop


"""


def test_a_hand_made_for_the_rules(tmp_path: Path) -> None:
    (record,) = records_of(write(tmp_path, MADE))
    record.check()
    assert record.problem.tolist() == [None] and record.apart.tolist() == [None]
    # dee sits out and plays no part: not dealt in; the others are, in their seats' slots.
    assert record.seat[0].tolist() == [1, 2, 3, 0, 5, 6, 0, 0, 0, 0]
    assert record.player.slice(0, 6).to_pylist() == ["ann", "bob", "cy", None, "eve", "fay"]
    assert record.button[0] == 0 and record.hand["ante"][0].as_py() == 0.5
    got = [(int(record.slot[row]), ACTIONS[record.action[row]].name, int(record.street[row]),
            float(record.to[row]), float(record.written[row]), bool(record.all_in[row]))
           for row in range(len(record.action))]
    nan = math.nan
    expected = [(0, "POST_ANTE", 0, 0.5, 0.5, False), (1, "POST_ANTE", 0, 0.5, 0.5, False),
                (2, "POST_ANTE", 0, 0.5, 0.5, False), (4, "POST_ANTE", 0, 0.5, 0.5, False),
                (5, "POST_ANTE", 0, 0.5, 0.5, False),
                (1, "POST_SMALL_BLIND", 0, 1, 1, False), (2, "POST_BIG_BLIND", 0, 2, 2, False),
                # eve: the small blind dead, the big blind live; fay: a big blind to enter, live.
                (4, "POST_DEAD", 0, 1, 1, False), (4, "POST", 0, 2, 2, False), (5, "POST", 0, 2, 2, False),
                (4, "CHECK", 0, nan, nan, False), (5, "CHECK", 0, nan, nan, False),
                (0, "RAISE", 0, 6, nan, False), (1, "CALL", 0, nan, 5, False), (2, "CALL", 0, nan, 4, False),
                (4, "CALL", 0, nan, 4, False), (5, "FOLD", 0, nan, nan, False),
                (1, "BET", 1, 10, 10, False), (2, "RAISE", 1, 30, nan, False),
                (4, "FOLD", 1, nan, nan, False),
                (0, "FOLD", 1, nan, nan, False), (1, "CALL", 1, nan, 20, False),
                (1, "CHECK", 2, nan, nan, False), (2, "BET", 2, 20, 20, False),
                (1, "CALL", 2, nan, 9.5, True),
                (1, "SHOW", 3, nan, nan, False), (2, "SHOW", 3, nan, nan, False)]
    assert len(got) == len(expected)
    for mine, theirs in zip(got, expected):
        assert mine[:3] == theirs[:3] and mine[5] == theirs[5], (mine, theirs)
        np.testing.assert_allclose(mine[3:5], theirs[3:5], atol=1e-9, err_msg=str((mine, theirs)))
    # 2.50 of antes, 1 + 2 + 3 + 2 of blinds, a raise to 6 and calls of 5, 4 and 4 (eve's $2 live
    # count, her $1 dead does not), 30 + 30 on the flop, 20 + 9.50 on the turn of which 10.50 is
    # returned: 108.50.
    assert chips_put_in(record, 0) == pytest.approx(108.5) == record.pot[0]
    assert record.returned[0, [0, 1, 2, 4, 5]].tolist() == [0, 0, 10.5, 0, 0]
    assert math.isnan(record.returned[0, 3])
    assert record.cashed_out[0].tolist() == [0, 70, 0, 0, 0, 0, 0, 0, 0, 0]
    assert record.received[0, [0, 1, 2, 4, 5]].tolist() == [0] * 5 and math.isnan(record.received[0, 3])
    assert record.rake[0] == 2.5
    assert record.holes[0, :3].tolist() == [[50, 45], [42, 41], [27, 25]]
    assert record.holes[0, 3].tolist() == [NO_CARD, NO_CARD]
    assert record.holes[0, 4].tolist() == [UNKNOWN_CARD] * 2
    assert record.hand["time"][0].as_py() == utc(2021, 7, 1, 16, 0, 0)  # noon EDT


def test_records_are_the_batches_hands_however_cut(tmp_path: Path, monkeypatch) -> None:
    path = SESSIONS / "HH20200416 Aksnes II - $0,01-$0,02 - USD No Limit Hold'em.txt"
    whole = records_of(path)
    monkeypatch.setattr(pokerstars, "CHUNK_BYTES", 700)  # a chunk per hand or two
    cut = records_of(path, batch_rows=2)
    assert [record.hands for record in whole] == [32] and len(cut) > 10
    assert np.concatenate([record.number for record in cut]).tolist() == whole[0].number.tolist()
    joined = np.concatenate([record.action_hand + sum(r.hands for r in cut[:i])
                             for i, record in enumerate(cut)])
    assert joined.tolist() == whole[0].action_hand.tolist()
    for name in ("holes", "received", "to", "street"):
        np.testing.assert_array_equal(np.concatenate([getattr(record, name) for record in cut]),
                                      getattr(whole[0], name))
    assert pa.concat_arrays([record.player for record in cut]).equals(whole[0].player)


# --- the hand tables against the log's own summary ----------------------------------------------

@pytest.mark.parametrize("path", FILES, ids=[path.name for path in FILES])
def test_the_seats_table_balances_as_the_summary_says(path: Path, tmp_path: Path) -> None:
    """In every hand kept without a cash-out: Σ contributed is the total pot written, each seat
    received what it collected, and Σ net is minus the rake; the replay, not the log, says what
    each put in."""
    from pipeline.runs.runner import Run

    out = tmp_path / "out"
    Run([str(path)], out, output_format="parquet", threads=1).execute()
    hands = pd.read_parquet(out / "hands.parquet").set_index("hand_key")
    seats = pd.read_parquet(out / "seats.parquet")
    references = {number: reference_hand(lines) for number, (_, lines) in enumerate(blocks_of(path), start=1)}
    balanced = 0
    for key, hand in seats.groupby("hand_key"):
        row = hands.loc[key]
        number = int(key) & 0xFFFFFFFF
        reference = references[number]
        if (path.name, number) in UNBALANCED or reference["cashed"] or row.outcome == "set apart":
            continue
        assert hand.contributed.sum() == pytest.approx(reference["pot"]), (path.name, number)
        assert row.pot == pytest.approx(reference["pot"]) and row.rake == pytest.approx(reference["rake"])
        by_seat = dict(zip(hand.seat, hand.received))
        for seat, amount in reference["received"].items():
            assert by_seat[seat] == pytest.approx(amount), (path.name, number, seat)
        assert hand.net.sum() == pytest.approx(-reference["rake"]), (path.name, number)
        balanced += 1
    assert balanced == sum(1 for number, ref in references.items()
                           if hands.loc[hands.index[hands.index & 0xFFFFFFFF == number][0]].outcome
                           not in ("rejected", "set apart")
                           and not ref["cashed"] and (path.name, number) not in UNBALANCED)
