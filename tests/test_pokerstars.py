"""PokerStars hand histories: the reader, what is scored, and the audit against the recorded pots.

The reference here reads each hand line by line in plain Python, matching
names with ``str.startswith`` against the seat list, and decides each
showdown with the brute-force rules of :mod:`tests.rules`.  The pipeline must
agree with it, and it must agree with the pots the site recorded.
"""

from __future__ import annotations

import gzip
import re
import shutil
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pytest

from pipeline.formats import histories
from pipeline.formats.sites import pokerstars
from pipeline.formats.sites.pokerstars import lines as ps_lines
from pipeline.formats.sites.pokerstars import record as ps_record
from pipeline.formats.sources import Source
from pipeline.hands import audit
from pipeline.runs.runner import Run
from pipeline.text import shown

from .conftest import DATA, RAW, deadline
from .rules import best_value

SESSIONS = RAW / "pokerstars"
HARD = DATA / "pokerstars"
PHH = RAW / "phh"


def seat_names(row) -> list[str]:
    """The names of a winners row's seats (``pN_player``), through the last seat taken."""
    found = [row[f"p{seat}_player"] if isinstance(row, dict) else getattr(row, f"p{seat}_player")
             for seat in range(1, 11)]
    while found and not found[-1]:
        found.pop()
    return found


def run(inputs, outdir: Path, **options) -> tuple[dict, pd.DataFrame, pd.DataFrame]:
    summary = Run([str(i) for i in inputs], outdir, **options).execute()
    winners = pd.read_csv(outdir / "winners.csv", dtype=str, keep_default_na=False)
    rejects = pd.read_csv(outdir / "rejects.csv", dtype=str, keep_default_na=False)
    return summary, winners, rejects


# --- a reference written plainly ---------------------------------------------------------------

HEADER = re.compile(r"PokerStars .*#(\d+): ")
SEAT = re.compile(r"Seat (\d+): (.+) \(\S+ in chips")


def reference_hands(path: Path) -> dict[str, dict]:
    """Each hand of a file by its id: seats, showdown, revealed cards, board, recorded winners."""
    text = path.read_bytes().decode("utf-8").replace("\r\n", "\n").replace("\r", "\n").replace("\ufeff", "")
    blocks: list[list[str]] = []
    for line in text.split("\n"):
        if HEADER.match(line) and " - 20" in line:
            blocks.append([])
        if blocks:
            blocks[-1].append(line.rstrip())
    hands = {}
    for block in blocks:
        hand_id = HEADER.match(block[0]).group(1)
        summary_at = block.index("*** SUMMARY ***") if "*** SUMMARY ***" in block else len(block)
        seats = {}
        for line in block[1:]:
            if line.startswith("*** "):
                break
            found = SEAT.match(line)
            if found:
                seats[found.group(2)] = int(found.group(1))
        revealed, mucked, live, recorded = {}, set(), set(), set()
        for line in block[:summary_at]:
            for name, seat in seats.items():
                if line.startswith(f"{name}: shows ["):
                    cards = line[len(name) + len(": shows ["):].split("]")[0].split()
                    if len(cards) == 2:
                        revealed[seat] = cards
                if line == f"{name}: mucks hand":
                    mucked.add(seat)
                if line.startswith(f"{name} collected ") and (line.endswith(" from pot")
                                                              or line.endswith(" from main pot")):
                    recorded.add(seat)
        board = []
        for line in block[summary_at:]:
            if line.startswith("Board ["):
                board = line[len("Board ["):-1].split()
            for name, seat in seats.items():
                head = f"Seat {seat}: {name} "
                if line.startswith(head):
                    fate = line[len(head):]
                    if "folded" not in fate:
                        live.add(seat)
                    if "mucked" in fate:
                        mucked.add(seat)
                    if fate.endswith("(pot not awarded as player cashed out)"):
                        recorded.add(seat)
        playing = {seat: cards for seat, cards in revealed.items() if seat in live and seat not in mucked}
        winners = None
        if "*** SHOW DOWN ***" in block and len(board) == 5 and playing:
            values = {seat: best_value(board + cards) for seat, cards in playing.items()}
            top = max(values.values())
            winners = " ".join(str(s) for s in sorted(values) if values[s] == top)
        hands[hand_id] = {"winners": winners, "recorded": " ".join(str(s) for s in sorted(recorded)),
                          "players": seats, "playing": playing}
    return hands


def reference(paths) -> dict[str, dict]:
    found: dict[str, dict] = {}
    for path in paths:
        found.update(reference_hands(path))
    return found


# --- the bundled sessions ----------------------------------------------------------------------

def test_sessions_give_the_reference_winners_and_agree_with_the_recorded_pots(tmp_path: Path) -> None:
    summary, winners, rejects = run([SESSIONS], tmp_path)
    hands = reference(sorted(SESSIONS.glob("*.txt")))
    showdowns = {key: hand for key, hand in hands.items() if hand["winners"] is not None}
    assert summary["rows_read"] == len(hands) == 125
    assert summary["rows_scored"] == len(showdowns) == 35
    assert summary["rows_without_showdown"] == 125 - 35
    assert summary["rows_unknown_cards"] == summary["rows_set_apart"] == summary["rows_rejected"] == 0
    assert rejects.empty
    assert sorted(winners["hand"]) == sorted(showdowns)
    for row in winners.itertuples():
        hand = showdowns[row.hand]
        assert row.winners == hand["winners"], row.hand
        assert row.expected == hand["recorded"] == hand["winners"], row.hand
    expected = summary["expected"]
    assert expected["checked"] == 35 and expected["mismatched"] == 0
    assert expected["not_checked_inconsistent_record"] == 0
    assert expected["by_venue"] == {"PokerStars": {
        "checked": 35, "mismatched": 0, **{f"not_checked_{name}": 0 for name in histories.NOT_CHECKED}}}


def test_each_row_carries_its_hand(tmp_path: Path) -> None:
    summary, winners, _ = run([SESSIONS], tmp_path)
    hands = reference(sorted(SESSIONS.glob("*.txt")))
    assert list(winners.columns[-17:]) == ["hand_key", "file", "hand", "variant", "table", "stakes", "time",
                                           *(f"p{seat}_player" for seat in range(1, 11))]
    for row in winners.itertuples():
        seats = hands[row.hand]["players"]
        names = seat_names(row)
        assert len(names) == max(seats.values())
        assert {name: seat for seat, name in enumerate(names, start=1) if name} == seats
        text = Path(row.file).read_text(encoding="utf-8-sig")
        header = next(line for line in text.splitlines() if f"#{row.hand}:" in line)
        assert f"{row.variant} ({row.stakes}) - {row.time}" in header
        assert f"Table '{row.table}' " in text
    assert set(winners["variant"]) == {"Hold'em No Limit"}
    # The hand's number in its file, and the line where it starts.
    first = winners.iloc[0]
    lines = Path(first.file).read_text(encoding="utf-8-sig").splitlines()
    starts = [i + 1 for i, line in enumerate(lines) if line.startswith("PokerStars ")]
    assert int(first.row) == 1 + starts.index(
        next(i + 1 for i, line in enumerate(lines) if f"#{first.hand}:" in line))


# --- the hard cases ------------------------------------------------------------------------------

# Per file, from reading it: hands, scored, without showdown, unknown cards, set apart, rejected,
# and what the reason of a rejected hand says.  Omaha, Omaha hi/lo and five-card Omaha hands are
# read as hold'em ones are; their showdowns are scored as their games.
HARD_CASES = {
    "CashGame_ExtraHands_DateIssue1.txt": (1, 0, 1, 0, 0, 0, None),
    "CashGame_ExtraHands_DateIssue2.txt": (1, 0, 1, 0, 0, 0, None),  # cap no-limit
    "CashGame_ExtraHands_MucksHand.txt": (1, 1, 0, 0, 0, 0, None),
    "CashGame_ExtraHands_PlayerNameWithSlashesAndSquareBrackets.txt": (1, 1, 0, 0, 0, 0, None),
    "CashGame_ExtraHands_PlayerWithColon.txt": (1, 1, 0, 0, 0, 0, None),
    "CashGame_ExtraHands_ShowsDownSingleCard.txt": (1, 1, 0, 0, 0, 0, None),
    "CashGame_ExtraHands_SidePot.txt": (1, 1, 0, 0, 0, 0, None),  # euro, two side pots
    "CashGame_ExtraHands_TableNameWithDash.txt": (1, 0, 1, 0, 0, 0, None),
    "CashGame_ExtraHands_ZoomHand.txt": (1, 1, 0, 0, 0, 0, None),
    "CashGame_GameTypeTests_CapNoLimitHoldem.txt": (1, 0, 1, 0, 0, 0, None),
    "CashGame_GameTypeTests_FixedLimitHoldem.txt": (1, 0, 1, 0, 0, 0, None),
    "CashGame_GameTypeTests_NoLimitHoldem.txt": (1, 0, 1, 0, 0, 0, None),
    "CashGame_GameTypeTests_NoLimitOmahaHiLo.txt": (1, 1, 0, 0, 0, 0, None),
    "CashGame_GameTypeTests_PotLimitFiveCardOmaha.txt": (1, 0, 1, 0, 0, 0, None),
    "CashGame_GameTypeTests_PotLimitHoldem.txt": (1, 0, 1, 0, 0, 0, None),
    "CashGame_GameTypeTests_PotLimitOmaha.txt": (1, 0, 1, 0, 0, 0, None),
    "CashGame_GameTypeTests_PotLimitOmahaHiLo.txt": (1, 1, 0, 0, 0, 0, None),
    "CashGame_GeneralHands_GeneralHand.txt": (1, 0, 1, 0, 0, 0, None),
    "CashGame_GeneralHands_HeroName.txt": (1, 1, 0, 0, 0, 0, None),
    "CashGame_GeneralHands_SidePot.txt": (1, 1, 0, 0, 0, 0, None),
    "CashGame_GeneralHands_ZoomHand.txt": (1, 0, 1, 0, 0, 0, None),
    "CashGame_HandActionTests_3BetHand.txt": (1, 0, 1, 0, 0, 0, None),
    "CashGame_HandActionTests_AllInHandWithShowdown.txt": (1, 1, 0, 0, 0, 0, None),
    "CashGame_HandActionTests_BasicHand.txt": (1, 1, 0, 0, 0, 0, None),
    "CashGame_HandActionTests_BigBlindOptionRaisesOption.txt": (1, 0, 1, 0, 0, 0, None),
    "CashGame_HandActionTests_FoldedPreflop.txt": (1, 0, 1, 0, 0, 0, None),
    "CashGame_HandActionTests_LeavesTableMidHand.txt": (1, 0, 1, 0, 0, 0, None),
    "CashGame_HandActionTests_NeedsRaiseAdjusting.txt": (1, 1, 0, 0, 0, 0, None),
    "CashGame_HandActionTests_OmahaHiLo.txt": (1, 1, 0, 0, 0, 0, None),
    "CashGame_HandActionTests_StrangePlayerNames.txt": (1, 0, 1, 0, 0, 0, None),
    "CashGame_HandActionTests_UncalledBet.txt": (1, 0, 1, 0, 0, 0, None),
    "CashGame_Limits_AnteTable.txt": (1, 0, 1, 0, 0, 0, None),
    "CashGame_Limits_EuroTable.txt": (1, 0, 1, 0, 0, 0, None),
    "CashGame_Limits_GbpTable.txt": (1, 0, 1, 0, 0, 0, None),  # CR line ends
    "CashGame_Limits_Limit1.txt": (1, 1, 0, 0, 0, 0, None),
    "CashGame_Limits_Limit2.txt": (1, 1, 0, 0, 0, 0, None),
    "CashGame_Limits_Limit3.txt": (1, 0, 1, 0, 0, 0, None),
    "CashGame_Limits_Limit4.txt": (1, 1, 0, 0, 0, 0, None),
    "CashGame_Limits_Limit5.txt": (1, 1, 0, 0, 0, 0, None),
    "CashGame_Limits_Limit6.txt": (1, 0, 1, 0, 0, 0, None),
    "CashGame_Limits_YuanTable.txt": (1, 0, 1, 0, 0, 0, None),
    "CashGame_MultipleHandsTests_10MultipleHands.txt": (10, 2, 8, 0, 0, 0, None),
    # Ten hands written again and again (58 in all): each but its first reading is a duplicate.
    "CashGame_MultipleHandsTests_NoNewLinesMultipleHands.txt": (58, 2, 8, 0, 48, 0, None),
    "CashGame_PlayerTests_FiveCardOmaha.txt": (1, 1, 0, 0, 0, 0, None),
    "CashGame_PlayerTests_NoHoleCards.txt": (1, 0, 1, 0, 0, 0, None),
    "CashGame_PlayerTests_OmahaHiLoShowdown.txt": (1, 1, 0, 0, 0, 0, None),
    "CashGame_PlayerTests_OmahaShowdown.txt": (1, 1, 0, 0, 0, 0, None),
    # Omaha run twice: set apart.
    "CashGame_PlayerTests_RunItTwice.txt": (1, 0, 0, 0, 1, 0, None),
    "CashGame_PlayerTests_ShowWithoutShowdown.txt": (1, 0, 1, 0, 0, 0, None),
    "CashGame_PlayerTests_WithShowdown.txt": (1, 1, 0, 0, 0, 0, None),
    # The seat lines spell 'Blahdi:42eblah', the actions 'Blahdieblah': never guessed.
    "CashGame_PlayerTests_WithSittingOut.txt": (1, 0, 0, 0, 0, 1, "'Blahdieblah', who is not seated"),
    "CashGame_RunItTwiceTests_RunItTwice1.txt": (1, 0, 0, 0, 1, 0, None),
    "CashGame_RunItTwiceTests_RunItTwice2.txt": (1, 0, 0, 0, 1, 0, None),
    "CashGame_Seats_6_Max.txt": (1, 1, 0, 0, 0, 0, None),
    "CashGame_Seats_Full_Ring_(10_Handed).txt": (1, 0, 1, 0, 0, 0, None),
    "CashGame_Seats_Full_Ring_(9_Handed).txt": (1, 0, 1, 0, 0, 0, None),
    "CashGame_Seats_HeadsUp.txt": (1, 0, 1, 0, 0, 0, None),
    "CashGame_StreetTests_Flop.txt": (1, 0, 1, 0, 0, 0, None),
    "CashGame_StreetTests_Preflop.txt": (1, 0, 1, 0, 0, 0, None),
    # An edited test hand: Fishmax3 shows 5d, which is on the board too.
    "CashGame_StreetTests_River.txt": (1, 0, 0, 0, 0, 1, "5d is dealt twice"),
    "CashGame_StreetTests_Turn.txt": (1, 0, 1, 0, 0, 0, None),
    "CashGame_Tables_Table1.txt": (1, 0, 1, 0, 0, 0, None),
    "CashGame_Tables_Table2.txt": (1, 0, 1, 0, 0, 0, None),
    "CashGame_Tables_Table3.txt": (1, 1, 0, 0, 0, 0, None),
    "CashGame_Tables_Table4.txt": (1, 0, 1, 0, 0, 0, None),
    "CashGame_Tables_Table5.txt": (1, 0, 1, 0, 0, 0, None),
    "CashGame_Tables_Table6.txt": (1, 1, 0, 0, 0, 0, None),
    "CashGame_ValidHandTests_CancelledHand.txt": (1, 0, 0, 0, 1, 0, None),
    "CashGame_ValidHandTests_InValidHand.txt": (1, 0, 0, 0, 0, 1, "cut short"),
    "CashGame_ValidHandTests_ValidHand.txt": (1, 0, 1, 0, 0, 0, None),
    "MultiTableTournament_GameTypeTests_NoLimitHoldem.txt": (1, 1, 0, 0, 0, 0, None),
    "MultiTableTournament_Limits_Limit1.txt": (1, 1, 0, 0, 0, 0, None),
    "MultiTableTournament_Limits_Limit2.txt": (1, 0, 1, 0, 0, 0, None),
}
NOT_HAND_HISTORIES = ("CashGame_BlindActionTests_Ante.txt", "CashGame_BlindActionTests_Ignore.txt",
                      "CashGame_Seats_4_Max.txt", "CashGame_ShowDownActionTests_AllinFlop.txt",
                      "CashGame_ShowDownActionTests_Ignore.txt",
                      "CashGame_ShowDownActionTests_RunItTwice.txt", "CashGame_ShowDownActionTests_Wins.txt")


def test_the_hard_cases_are_all_listed() -> None:
    assert sorted([*HARD_CASES, *NOT_HAND_HISTORIES]) == sorted(p.name for p in HARD.glob("*.txt"))
    assert len(HARD_CASES) + len(NOT_HAND_HISTORIES) == 80


@pytest.mark.parametrize("name", sorted(HARD_CASES))
def test_hard_case(name: str, tmp_path: Path) -> None:
    hands, scored, without, unknown, apart, rejected, reason = HARD_CASES[name]
    summary, winners, rejects = run([HARD / name], tmp_path)
    assert summary["inputs"][0]["format"] == "pokerstars"
    got = tuple(summary[f"rows_{key}"] for key in ("read", "scored", "without_showdown", "unknown_cards",
                                                   "set_apart", "rejected"))
    assert got == (hands, scored, without, unknown, apart, rejected)
    assert len(rejects) == rejected
    if reason:
        assert reason in rejects["reason"].iloc[0]
        assert rejects["line"].iloc[0] != ""
    if apart:
        why = ("duplicate" if "MultipleHands" in name else "cancelled" if "Cancelled" in name
               else "run twice")
        assert summary["set_apart"] == {why: apart}
    reference_winners = reference_hands(HARD / name)
    for row in winners.itertuples():  # scored: the recorded winners; a hold'em hand's, the reference's
        assert row.expected == reference_winners[row.hand]["recorded"], row.hand
        if row.variant.startswith("Hold'em "):  # the reference scores hold'em only
            assert row.winners == reference_winners[row.hand]["winners"] == row.expected
    assert summary["expected"]["mismatched"] == 0


def test_a_folder_of_the_hard_cases_skips_what_is_not_a_hand_history(tmp_path: Path) -> None:
    notices: list[str] = []
    summary = Run([str(HARD)], tmp_path / "out", on_notice=notices.append).execute()
    skipped = sorted(Path(entry["file"]).name for entry in summary["skipped_inputs"])
    assert skipped == sorted(NOT_HAND_HISTORIES)
    assert len(notices) == len(NOT_HAND_HISTORIES) and all(line.endswith(": skipped") for line in notices)
    assert summary["rows_read"] == sum(case[0] for case in HARD_CASES.values())
    assert summary["rows_read"] == (summary["rows_scored"] + summary["rows_without_showdown"]
                                    + summary["rows_unknown_cards"] + summary["rows_set_apart"]
                                    + summary["rows_rejected"])
    assert {i["format"] for i in summary["inputs"]} == {"pokerstars"}


def test_a_mucked_seat_forfeits_and_one_seat_left_is_scored_alone(tmp_path: Path) -> None:
    _, winners, _ = run([HARD / "CashGame_ExtraHands_ShowsDownSingleCard.txt"], tmp_path)
    (row,) = winners.itertuples()
    assert row.p6_category == ""  # Zaza5573 showed one card, then mucked
    assert row.p5_category != "" and row.winners == "5" and row.expected == "5"
    _, winners, _ = run([HARD / "CashGame_ExtraHands_PlayerWithColon.txt"], tmp_path / "colon")
    (row,) = winners.itertuples()
    assert row.p5_category == ""  # TomiStars09: mucks hand
    assert row.winners == row.expected == "2"
    assert seat_names(row)[1] == "wo_olly :D"


# --- hand-written hands: hostile text, amounts, set apart, inconsistent records -----------------

def hand(*, names=("alice", "bob", "carol"), number=1, body: str = "", total="$6", rake="$0.10",
         collected="$5.90", game="Hold'em No Limit", cancel=False, extra_summary="") -> str:
    """One no-limit hand of three seats: bob (Ah Ad) beats carol (Kh Kd) at the showdown; $3 each
    put in, a rake of $0.10."""
    a, b, c = names
    if cancel:
        return (f"PokerStars Hand #{number}:  {game} ($1/$2 USD) - 2020/01/01 10:00:00 ET\n"
                f"Table 'T' 6-max Seat #1 is the button\nSeat 1: {a} ($100 in chips)\n"
                f"Seat 2: {b} ($100 in chips)\n{a}: posts small blind $1\nHand cancelled\n"
                f"*** SUMMARY ***\nSeat 1: {a} (button) collected ($0)\n\n")
    return f"""PokerStars Hand #{number}:  {game} ($1/$2 USD) - 2020/01/01 10:00:00 ET
Table 'T' 6-max Seat #1 is the button
Seat 1: {a} ($100 in chips)
Seat 2: {b} ($1,500 in chips)
Seat 4: {c} ($100 in chips)
{b}: posts small blind $1
{c}: posts big blind $2
*** HOLE CARDS ***
{a}: folds
{b}: calls $1
{c}: checks
{body}*** FLOP *** [2c 7d 9h]
{b}: bets $1
{c}: calls $1
*** TURN *** [2c 7d 9h] [Js]
{b}: checks
{c}: checks
*** RIVER *** [2c 7d 9h Js] [3s]
{b}: checks
{c}: checks
*** SHOW DOWN ***
{b}: shows [Ah Ad] (a pair of Aces)
{c}: shows [Kh Kd] (a pair of Kings)
{b} collected {collected} from pot
*** SUMMARY ***
Total pot {total} | Rake {rake}
Board [2c 7d 9h Js 3s]
Seat 1: {a} (button) folded before Flop (didn't bet)
Seat 2: {b} (small blind) showed [Ah Ad] and won ({collected}) with a pair of Aces{extra_summary}
Seat 4: {c} (big blind) showed [Kh Kd] and lost with a pair of Kings


"""


def write(tmp_path: Path, text: str, name: str = "session.txt") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


HOSTILE = [
    ("a: b", "c: shows [Kh Kd]", "d collected $5.90 from pot"),
    ("x [Ah Kh]", "Seat 1: y", "z: mucks hand"),
    ("bob shows [As Ad]", "/\\ntiHer[]", 'eve said, "hi'),
    ("p: folds", "q: folds: folds", "PokerStars Hand #9"),
]


@pytest.mark.parametrize("names", HOSTILE, ids=[" | ".join(n) for n in HOSTILE])
def test_hostile_names_and_chat_are_never_read_as_actions(names, tmp_path: Path) -> None:
    a, b, c = names
    chat = (f'{a} said, "{c}: folds"\n{b} said, "{a} collected $100 from pot"\n'
            f'nobody said, "{b}: shows [2h 2d]"\n{c} said, "x: raises $5 to $7"\n')
    summary, winners, rejects = run([write(tmp_path, hand(names=names, body=chat))], tmp_path / "out")
    assert rejects.empty, rejects["reason"].tolist()
    (row,) = winners.itertuples()
    assert row.winners == row.expected == "2"
    assert seat_names(row) == [a, b, "", c]
    assert row.p2_category == "Pair" and row.p4_category == "Pair"
    assert summary["expected"]["checked"] == 1 and summary["expected"]["mismatched"] == 0


def test_an_action_of_a_player_who_is_not_seated_rejects_the_hand(tmp_path: Path) -> None:
    body = "dave: calls $2\n"
    summary, winners, rejects = run([write(tmp_path, hand(body=body) + hand(number=2))], tmp_path / "out")
    assert summary["rows_rejected"] == 1 and summary["rows_scored"] == 1
    assert rejects["reason"].tolist() == ["action of 'dave', who is not seated"]
    assert rejects["line"].tolist() == ["12"]  # the line of the action itself
    assert rejects["source_row"].tolist() == ["1"] and winners["row"].tolist() == ["2"]


@pytest.mark.parametrize("seat", ["0", "11", "100", "9223372036854775808", "9" * 30])
def test_a_seat_number_out_of_range_rejects_its_hand_however_long(seat: str, tmp_path: Path) -> None:
    text = hand().replace("Seat 4: carol (", f"Seat {seat}: carol (", 1) + hand(number=2)
    summary, winners, rejects = run([write(tmp_path, text)], tmp_path / "out")
    assert rejects["reason"].tolist() == ["seats are numbered 1 to 10"]
    assert rejects["source_row"].tolist() == ["1"] and winners["row"].tolist() == ["2"]


def test_a_name_that_only_prefixes_a_seated_one_is_not_matched(tmp_path: Path) -> None:
    # 'bo' is not 'bob': a collection by 'bo' names nobody seated.
    text = hand().replace("bob collected $5.90 from pot", "bo collected $5.90 from pot")
    _, _, rejects = run([write(tmp_path, text)], tmp_path / "out")
    assert rejects["reason"].tolist() == ["'bo' collects, but is not seated"]


# Names around the reader's 8-byte words (1, 8, 9, 16, 17, 24, 25 and more bytes, and not ASCII):
# each one is matched in full, never by its first bytes.
NAME_LENGTHS = [("a", "b" * 8, "c" * 9), ("d" * 16, "e" * 17, "f" * 24),
                ("g" * 25, "Jos\u00e9 " + "\u00e9" * 10, "h" * 40)]


@pytest.mark.parametrize("names", NAME_LENGTHS, ids=["-".join(map(str, map(len, n))) for n in NAME_LENGTHS])
def test_names_of_every_length_are_matched_in_full(names, tmp_path: Path) -> None:
    summary, winners, rejects = run([write(tmp_path, hand(names=names))], tmp_path / "out")
    assert rejects.empty, rejects["reason"].tolist()
    (row,) = winners.itertuples()
    assert row.winners == row.expected == "2" and seat_names(row) == [names[0], names[1], "", names[2]]
    # A name one byte shorter or longer than a seated one, at the end of its words, is not that player.
    for other in (names[1][:-1], names[1] + "x"):
        text = hand(names=names).replace(f"{names[1]} collected", f"{other} collected")
        _, _, rejects = run([write(tmp_path, text, "other.txt")], tmp_path / "other")
        assert rejects["reason"].tolist() == [f"{shown(other)} collects, but is not seated"]
        text = hand(names=names).replace(f"{names[2]}: checks\n*** SHOW", f"{other}: checks\n*** SHOW")
        _, _, rejects = run([write(tmp_path, text, "other.txt")], tmp_path / "other")
        assert rejects["reason"].tolist() == [f"action of {shown(other)}, who is not seated"]
    # A summary line must start with its seat's name: one byte short of it is not.
    text = hand(names=names).replace(f"Seat 2: {names[1]} (small", f"Seat 2: {names[1][:-1]} (small")
    _, _, rejects = run([write(tmp_path, text, "other.txt")], tmp_path / "other")
    assert rejects["reason"].tolist() == ["summary line of seat 2 does not name its player"]


def test_a_name_seated_in_another_hand_only_is_not_seated(tmp_path: Path) -> None:
    # Names are matched by hand: alice sits in hand 1, and her action in hand 2 is no one's.
    text = hand(number=1) + hand(number=2, names=("dan", "bob", "carol"), body="alice: calls $2\n")
    summary, winners, rejects = run([write(tmp_path, text)], tmp_path / "out")
    assert rejects["reason"].tolist() == ["action of 'alice', who is not seated"]
    assert rejects["source_row"].tolist() == ["2"] and winners["row"].tolist() == ["1"]


def test_a_summary_seat_is_written_as_its_seat_line_is(tmp_path: Path) -> None:
    text = hand().replace("Seat 2: bob (small blind)", "Seat 02: bob (small blind)")
    _, _, rejects = run([write(tmp_path, text)], tmp_path / "out")
    assert rejects["reason"].tolist() == ["summary line of seat 2 does not name its player"]


@pytest.mark.parametrize("ending", ["from pot  ", "from main pot", "from side pot-12"])
def test_collection_lines_end_as_the_site_writes_them(ending: str, tmp_path: Path) -> None:
    # Each is a collection (else nobody is paid and the record is not checked).  Bob and carol put in
    # the same: one pot, whatever the line calls it, and who collected it won it.
    text = hand().replace("bob collected $5.90 from pot\n", f"bob collected $5.90 {ending}\n")
    summary, winners, rejects = run([write(tmp_path, text)], tmp_path / "out")
    assert rejects.empty and summary["expected"]["checked"] == 1
    assert winners["expected"].tolist() == ["2"]


def test_amounts_with_currency_signs_and_thousands_separators(tmp_path: Path) -> None:
    # The flop's bet and call of $1,000 put $2,004 in.
    thousands = hand(number=1, total="$2,004", rake="$0.10", collected="$2,003.90").replace(
        "bob: bets $1\ncarol: calls $1\n", "bob: bets $1,000\ncarol: calls $1,000\n").replace(
        "carol ($100 in chips)", "carol ($2,500.50 in chips)")
    texts = [thousands, hand(number=2).replace("$", "€"), hand(number=3).replace("$", "£"),
             hand(number=4, total="¥6,000", rake="¥0", collected="¥6,000").replace("$1", "¥1,000").replace(
                 "$2", "¥2,000"),
             hand(number=5, total="6", rake="0", collected="6").replace("$", "")]
    summary, winners, _ = run([write(tmp_path, "".join(texts))], tmp_path / "out")
    assert summary["rows_scored"] == 5
    assert summary["expected"]["checked"] == 5
    assert summary["expected"]["not_checked_inconsistent_record"] == 0


def test_a_record_that_does_not_add_up_is_scored_but_not_checked(tmp_path: Path) -> None:
    text = hand(number=1, total="$7.10") + hand(number=2)
    summary, winners, rejects = run([write(tmp_path, text)], tmp_path / "out")
    assert summary["rows_scored"] == 2 and rejects.empty
    expected = summary["expected"]
    assert expected["checked"] == 1 and expected["mismatched"] == 0
    assert expected["not_checked_inconsistent_record"] == 1
    assert expected["inconsistent_reasons"] == {audit.POT_DIFFERS: 1}
    assert expected["by_venue"]["PokerStars"]["not_checked_inconsistent_record"] == 1
    assert winners["expected"].tolist() == ["", "2"]


def test_a_cashed_out_winner_is_the_recorded_winner(tmp_path: Path) -> None:
    text = hand().replace("bob collected $6 from pot\n",
                          "bob cashed out the hand for $5 | Cash Out Fee $0.05\n")
    text = text.replace("won ($6) with a pair of Aces", "won ($6) with a pair of Aces "
                                                        "(pot not awarded as player cashed out)")
    summary, winners, _ = run([write(tmp_path, text)], tmp_path / "out")
    assert winners["expected"].tolist() == ["2"]
    assert summary["expected"]["checked"] == 1


def test_cancelled_and_run_twice_hands_are_set_apart(tmp_path: Path) -> None:
    text = hand(number=1, cancel=True) + hand(number=2)
    shutil.copy(HARD / "CashGame_RunItTwiceTests_RunItTwice2.txt", tmp_path / "twice.txt")
    summary, winners, _ = run([write(tmp_path, text), tmp_path / "twice.txt"], tmp_path / "out")
    assert summary["rows_read"] == 3 and summary["rows_scored"] == 1 and summary["rows_set_apart"] == 2
    assert summary["set_apart"] == {"cancelled": 1, "run twice": 1}
    assert summary["rows_read"] == (summary["rows_scored"] + summary["rows_without_showdown"]
                                    + summary["rows_unknown_cards"] + summary["rows_set_apart"]
                                    + summary["rows_rejected"])


def test_other_games_are_rejected_before_any_other_rule(tmp_path: Path) -> None:
    text = hand(number=1, game="Razz Limit", body="dave: calls $2\n") + \
        hand(number=2, game="Courchevel Pot Limit").replace("*** SUMMARY ***", "")
    _, _, rejects = run([write(tmp_path, text)], tmp_path / "out")
    assert rejects["reason"].tolist() == [histories.unknown_game("'Razz Limit'"),
                                          histories.unknown_game("'Courchevel Pot Limit'")]


def test_a_showdown_with_a_hidden_hand_is_unknown_cards(tmp_path: Path) -> None:
    text = hand().replace("carol: shows [Kh Kd] (a pair of Kings)\n", "").replace(
        "showed [Kh Kd] and lost with a pair of Kings", "lost")
    summary, winners, _ = run([write(tmp_path, text)], tmp_path / "out")
    assert summary["rows_unknown_cards"] == 1 and summary["rows_scored"] == 0 and winners.empty


def test_bytes_that_are_not_text_reject_their_hand_only(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_bytes(hand(number=1).encode() + hand(number=2, body="bob said, \"\xff\"\n").encode("latin-1")
                     + hand(number=3).encode())
    summary, winners, rejects = run([path], tmp_path / "out")
    assert summary["rows_read"] == 3 and summary["rows_scored"] == 2
    assert rejects["reason"].tolist() == ["bytes that are not UTF-8 text"]
    assert rejects["source_row"].tolist() == ["2"]


@pytest.mark.parametrize("line, block", [(pokerstars.HAND_START, pokerstars._HAND_STARTS),
                                         (ps_record._PLAIN_SEAT, ps_record._PLAIN_SEATS),
                                         (ps_record._COLLECT, ps_record._COLLECTS),
                                         (ps_record._HEADER_HOLDEM, ps_record._HEADERS_HOLDEM)])
def test_lines_matched_at_once_are_matched_as_one_by_one(line: str, block: str) -> None:
    # Every line of the bundled files, and each with a byte added, dropped or changed: a set of them
    # is matched at once when all match, and otherwise line by line, with the same answers.
    texts = [path.read_text(encoding="utf-8-sig") for path in sorted([*SESSIONS.glob("*.txt"),
                                                                      *HARD.glob("*.txt")])]
    lines = sorted({text_line + "\n" for text in texts for text_line in text.splitlines()})
    variants = [variant for text_line in lines[::7] for variant in (
        text_line[:5] + "(" + text_line[5:], text_line[:-3] + "\n", text_line.replace(" ", "  ", 1),
        text_line.replace("$", "", 1), "x" + text_line)]
    every = lines + variants
    one_by_one = pa.array(every, pa.large_string())
    expected = pc.match_substring_regex(one_by_one, line).to_numpy(zero_copy_only=False)
    for start in range(0, len(every), 50):
        for part in (slice(start, start + 50), slice(start, start + 3)):
            group = pa.array(every[part], pa.large_string())
            got = ps_lines.matching(group, line, block)
            assert got.tolist() == expected[part].tolist()
            matching = [text_line for text_line, ok in zip(every[part], expected[part]) if ok]
            if matching:  # all of them, and the last without its line end
                matching[-1] = matching[-1].rstrip("\n")
                assert ps_lines.matching(pa.array(matching, pa.large_string()), line, block).all()


# --- line ends, compression, chunks and batches ------------------------------------------------

def test_line_ends_compression_and_chunks_do_not_change_the_result(tmp_path: Path, monkeypatch) -> None:
    source = SESSIONS / "HH20200416 Aksnes II - $0,01-$0,02 - USD No Limit Hold'em.txt"
    _, plain, _ = run([source], tmp_path / "plain")
    data = source.read_bytes()
    (tmp_path / "crlf.txt").write_bytes(data.replace(b"\n", b"\r\n"))
    (tmp_path / "cr.txt").write_bytes(data.replace(b"\n", b"\r"))
    (tmp_path / "gz.txt.gz").write_bytes(gzip.compress(data))
    columns = [c for c in plain.columns if c != "file"]
    for name in ("crlf.txt", "cr.txt", "gz.txt.gz"):
        _, got, _ = run([tmp_path / name], tmp_path / f"out-{name}")
        pd.testing.assert_frame_equal(got[columns], plain[columns])
    monkeypatch.setattr(pokerstars, "CHUNK_BYTES", 700)  # a hand is larger: chunks grow to whole hands
    for name in ("crlf.txt", "cr.txt"):
        summary, got, _ = run([tmp_path / name], tmp_path / f"small-{name}", batch_rows=3)
        pd.testing.assert_frame_equal(got[columns], plain[columns])
        assert summary["rows_read"] == 32


@pytest.mark.parametrize("name", ["empty.txt", "mark.txt", "empty.txt.gz"])
def test_a_file_without_text_holds_no_hand(name: str, tmp_path: Path) -> None:
    # A log found as PokerStars and emptied before it is read (a client rewriting its session)
    # reads as no hand: the reader ends, where it read the empty text again for ever.
    path = tmp_path / name
    texts = {"empty.txt": b"", "mark.txt": b"\xef\xbb\xbf", "empty.txt.gz": gzip.compress(b"")}
    path.write_bytes(texts[name])
    compression = "gzip" if name.endswith(".gz") else None
    source = Source(path, "pokerstars", histories.COLUMNS, compression=compression)
    with deadline(20, f"reading {name}"):
        assert list(pokerstars.read_batches(source, batch_rows=10)) == []


def test_a_txt_named_on_the_command_line_keeps_its_meaning(tmp_path: Path) -> None:
    contest = tmp_path / "contest.txt"
    contest.write_text("2\nAh Kh Qh Jh Th\n2c 3c\n4d 5d\n")
    summary, _, _ = run([contest], tmp_path / "out")
    assert summary["inputs"][0]["format"] == "contest"


def test_a_folder_mixing_pokerstars_phh_and_csv(tmp_path: Path) -> None:
    folder = tmp_path / "archive"
    (folder / "site" / "2020").mkdir(parents=True)
    for path in sorted(SESSIONS.glob("*.txt"))[:2]:
        shutil.copy(path, folder / "site" / "2020" / path.name)
    shutil.copy(PHH / "pluribus-31.phhs", folder / "pluribus-31.phhs")
    (folder / "deals.csv").write_text("board,p1,p2\nAh Kh Qh Jh Th,2c 3c,4d 5d\n")
    (folder / "notes.txt").write_text("what I learned today\n")
    notices: list[str] = []
    summary = Run([str(folder)], tmp_path / "out", on_notice=notices.append).execute()
    formats = [i["format"] for i in summary["inputs"]]
    assert sorted(formats) == ["csv", "phh", "pokerstars", "pokerstars"]
    assert [entry["file"] for entry in summary["skipped_inputs"]] == [str(folder / "notes.txt")]
    reason = summary["skipped_inputs"][0]["reason"]
    assert "not a contest file or a hand history of " in reason and "PokerStars" in reason
    assert len(notices) == 1 and notices[0].startswith(str(folder / "notes.txt"))
    assert summary["rows_read"] == 1 + 73 + 32 + 10
    assert summary["rows_read"] == (summary["rows_scored"] + summary["rows_without_showdown"]
                                    + summary["rows_unknown_cards"] + summary["rows_set_apart"]
                                    + summary["rows_rejected"])
    winners = pd.read_csv(tmp_path / "out" / "winners.csv", dtype=str, keep_default_na=False)
    stars = winners[winners["file"].str.endswith(".txt")]
    assert (stars["table"] != "").all()
    assert (winners[winners["file"].str.endswith(".phhs")]["table"] == "").all()
    assert summary["expected"]["by_venue"]["PokerStars"]["checked"] == len(stars)


# --- the same hand as PokerStars text and as PHH -------------------------------------------------

SAME_HAND_PHH = """variant = 'NT'
antes = [0, 0, 0, 0]
blinds_or_straddles = [0.25, 0.5, 0, 0]
min_bet = 0.5
starting_stacks = [10, 40.02, 14.38, 21.09]
actions = ['d dh p1 ????', 'd dh p2 4s6s', 'd dh p3 ????', 'd dh p4 9c9h', 'p3 cc', 'p4 cc', 'p1 f', 'p2 cc',
  'd db Qc8c8d', 'p2 cbr 1', 'p3 f', 'p4 cc', 'd db 8h', 'p2 cbr 1.5', 'p4 cc', 'd db 5h', 'p2 cc', 'p4 cc',
  'p2 sm 4s6s', 'p4 sm 9c9h']
players = ['vitinja', '/\\ntiHer[]', 'Catharina111', 'Willo2319']
finishing_stacks = [9.75, 37.02, 13.88, 24.54]
hand = 86015904171
"""


def test_the_same_hand_as_pokerstars_text_and_as_phh(tmp_path: Path) -> None:
    phh = tmp_path / "same.phh"
    phh.write_text(SAME_HAND_PHH)
    text = HARD / "CashGame_ExtraHands_PlayerNameWithSlashesAndSquareBrackets.txt"
    _, stars, _ = run([text], tmp_path / "a")
    summary, hand_phh, _ = run([phh], tmp_path / "b")
    assert summary["expected"]["checked"] == 1
    (s,), (p,) = stars.to_dict("records"), hand_phh.to_dict("records")
    stars_names, phh_names = seat_names(s), seat_names(p)

    assert [stars_names[int(w) - 1] for w in s["winners"].split()] == \
        [phh_names[int(w) - 1] for w in p["winners"].split()] == ["Willo2319"]
    assert [stars_names[int(w) - 1] for w in s["expected"].split()] == \
        [phh_names[int(w) - 1] for w in p["expected"].split()]
    for name in ("Willo2319", "/\\ntiHer[]"):
        stars_seat, phh_seat = stars_names.index(name) + 1, phh_names.index(name) + 1
        assert s[f"p{stars_seat}_key"] == p[f"p{phh_seat}_key"] != ""
        assert s[f"p{stars_seat}_category"] == p[f"p{phh_seat}_category"]
    assert s["winning_key"] == p["winning_key"]


def test_the_same_hand_as_pokerstars_text_and_as_phh_gives_the_same_tables(tmp_path: Path) -> None:
    """One hand, two formats: the same players in the same positions, the same chips put in and
    won, the same actions with the same chips; only each format's own fields differ (seat numbers,
    ids, the site's time and stakes)."""
    phh = tmp_path / "same.phh"
    phh.write_text(SAME_HAND_PHH)
    text = HARD / "CashGame_ExtraHands_PlayerNameWithSlashesAndSquareBrackets.txt"
    Run([str(text)], tmp_path / "a", output_format="parquet").execute()
    Run([str(phh)], tmp_path / "b", output_format="parquet").execute()
    seats = [pd.read_parquet(tmp_path / out / "seats.parquet") for out in ("a", "b")]
    actions = [pd.read_parquet(tmp_path / out / "actions.parquet") for out in ("a", "b")]
    hands = [pd.read_parquet(tmp_path / out / "hands.parquet") for out in ("a", "b")]
    by_player = ["player", "position", "starting_stack", "contributed", "received", "net", "folded_street",
                 "all_in_street", "showed", "mucked", "at_showdown", "won"]
    stars, held = (frame.astype({"player": str}).set_index("player").sort_index() for frame in seats)
    pd.testing.assert_frame_equal(stars[by_player[1:]].astype(str), held[by_player[1:]].astype(str))
    # The cards each knows: the site shows the hero's and the shown ones; the PHH hand the same.
    assert stars.hole_cards.fillna("?? ??").tolist() == held.hole_cards.fillna("?? ??").tolist()
    steps = ["street", "player", "action", "amount", "to", "all_in", "pot_before"]
    pd.testing.assert_frame_equal(actions[0][steps].astype(str), actions[1][steps].astype(str))
    for name in ("pot", "players", "board", "outcome", "game", "betting"):
        assert hands[0][name].astype(str).tolist() == hands[1][name].astype(str).tolist(), name
