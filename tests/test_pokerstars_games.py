"""PokerStars hands of the other games: Omaha, Omaha hi/lo, five- and six-card Omaha, 6+ Hold'em.

Every Omaha hand of the real samples, and hands written after the site's own
format where no sample holds the game, must be read (not rejected): the game
and betting of the header, every hole card written, the board, and per player
what was put in and taken out, as a reading of the text written plainly here
(regular expressions over the file's own lines) says, with each hand's chips
balancing against its ``Total pot ... | Rake``.  A game pokerpipe does not
score is rejected with its reason.  Who wins a showdown is not looked at here:
the hand tables and the Record are.

The hands written here follow the site's format as public hand-history test
files write it: fpdb's PokerStars regression files
(``jejellyroll-fr/fpdb-3``, ``regression-test-files/cash/Stars/Flop/``:
``6+Holdem-6max-USD-5.00-5.00-201901.txt`` and the other ``6+Holdem-*`` files
for 6+ Hold'em, with its ``(Button Blind $5 - Ante $5 USD)`` stakes, ``posts
button blind $5`` and ``(button blind)`` in the summary;
``6-Card-PLO-6max-USD-0.25-0.50-202004.txt`` for six-card Omaha;
``HH20251130...5.Card.Omaha.Hi-Lo.txt`` for five-card Omaha hi/lo).
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from pipeline.formats import histories
from pipeline.formats.sites import pokerstars
from pipeline.formats.sources import Source
from pipeline.hands.audit import settle
from pipeline.hands.model import Action
from pipeline.hands.record import NO_CARD, SLOTS, UNKNOWN_CARD, Record
from pipeline.text import shown

from .conftest import ROOT
from .test_pokerstars import HARD, hand, run, write

# The real samples: the shared copy where there is one, else the project's copy of its hhsmithy files.
SHARED = ROOT.parent / "shared" / "samples" / "pokerstars"
SAMPLES = SHARED if SHARED.is_dir() else HARD
HHSMITHY = SHARED / "hhsmithy" if SHARED.is_dir() else HARD
NAMED = ("CashGame_GameTypeTests_PotLimitOmaha.txt", "CashGame_GameTypeTests_PotLimitOmahaHiLo.txt",
         "CashGame_GameTypeTests_NoLimitOmahaHiLo.txt", "CashGame_GameTypeTests_PotLimitFiveCardOmaha.txt")
START = re.compile(r"^\ufeff?PokerStars [^#]*#[0-9]+: .* - [0-9]{4}/[0-9]{1,2}/[0-9]{1,2} ")
HEADER = re.compile(r"^\ufeff?PokerStars (?:Zoom )?(?:Hand|Game) #([0-9]+): +(.+?) "
                    r"(No Limit|Pot Limit|Limit) \(")


def omaha_files() -> list[Path]:
    """Every sample file holding an Omaha hand: a header line naming Omaha."""
    found = []
    for path in sorted(SAMPLES.rglob("*.txt")):
        text = path.read_bytes().decode("utf-8", "replace")
        if any(START.match(line) and " Omaha " in line for line in text.splitlines()):
            found.append(path)
    return found


OMAHA_FILES = omaha_files()

# --- the text read plainly ------------------------------------------------------------------------

AMOUNT = r"[$€£¥]?([0-9][0-9,]*(?:\.[0-9]+)?)"
# The games a header names, by the words before its betting: the hands table's game and the cards
# each player is dealt; the betting words and what the hands table calls them.
GAMES = {"Hold'em": ("holdem", 2), "Omaha": ("omaha", 4), "Omaha Hi/Lo": ("omaha-hilo", 4),
         "5 Card Omaha": ("omaha", 5), "5 Card Omaha Hi/Lo": ("omaha-hilo", 5), "6 Card Omaha": ("omaha", 6),
         "6 Card Omaha Hi/Lo": ("omaha-hilo", 6), "6+ Hold'em": ("shortdeck", 2)}
BETTING = {"No Limit": "no-limit", "Pot Limit": "pot-limit", "Limit": "fixed-limit"}
STREET = re.compile(r"^\*\*\* (?:FIRST |SECOND )?(?:FLOP|TURN|RIVER) \*\*\*")
RANKS, SUITS = "23456789TJQKA", "cdhs"


def codes(text: str) -> list[int]:
    """The card codes of cards as written (``4 * rank + suit``, the deuce and clubs first)."""
    return [4 * RANKS.index(card[0]) + SUITS.index(card[1]) for card in text.split()]


def chips(text: str) -> float:
    return float(text.replace(",", ""))


def hands_of(path: Path) -> list[list[str]]:
    """The lines of each hand of a file."""
    text = path.read_bytes().decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    blocks: list[list[str]] = []
    for line in text.split("\n"):
        line = line.lstrip("\ufeff").rstrip()
        if START.match(line):
            blocks.append([])
        if blocks:
            blocks[-1].append(line)
    return blocks


def read_hand(lines: list[str]) -> dict:
    """What one hand's text says: its id, game, betting, board, total pot and rake, and per seat the
    player, the cards last written for them, the chips put in (dead antes, each street's total, less
    the uncalled bet returned) and the chips collected."""
    header = HEADER.match(lines[0])
    assert header, lines[0]
    game, dealt = GAMES[header[2]]
    summary_at = lines.index("*** SUMMARY ***")
    seats = {}
    for line in lines[1:]:
        if line.startswith("*** "):
            break
        found = re.match(r"^Seat ([0-9]+): (.+) \(" + AMOUNT + r" in chips", line)
        if found:
            seats[found[2]] = int(found[1])
    names = sorted(seats, key=len, reverse=True)  # a line starts with the longest name it can

    def named(line: str, after: str) -> str | None:
        return next((name for name in names if line.startswith(name + after)), None)

    dead = dict.fromkeys(seats, 0.0)
    street = dict.fromkeys(seats, 0.0)
    put = dict.fromkeys(seats, 0.0)
    collected = dict.fromkeys(seats, 0.0)
    cards: dict[str, list[str]] = {}
    for line in lines[1:summary_at]:
        if STREET.match(line):
            for name in seats:
                put[name] += street[name]
            street = dict.fromkeys(seats, 0.0)
            continue
        found = re.match(r"^Uncalled bet \(" + AMOUNT + r"\) returned to (.+)$", line)
        if found:
            put[found[2]] -= chips(found[1])
            continue
        found = re.match(r"^Dealt to (.+) \[([^\]]*)\]$", line)
        if found:
            cards[found[1]] = found[2].split()
            continue
        name = named(line, " collected ")
        if name:
            collected[name] += chips(re.match(" collected " + AMOUNT, line[len(name):])[1])
            continue
        name = named(line, ": ")
        if not name:
            continue
        words = line[len(name) + 2:]
        if found := re.match(r"^posts the ante " + AMOUNT, words):
            dead[name] += chips(found[1])
        elif found := re.match(r"^(?:posts (?:small|big|button) blind|calls|bets) " + AMOUNT, words):
            street[name] += chips(found[1])
        elif found := re.match(r"^raises " + AMOUNT + " to " + AMOUNT, words):
            street[name] = chips(found[2])
        elif found := re.match(r"^shows \[([^\]]*)\]", words):
            cards[name] = found[1].split()
    for name in seats:
        put[name] += street[name] + dead[name]
    pot = rake = board = None
    for line in lines[summary_at + 1:]:
        if (found := re.match(r"^Total pot " + AMOUNT + r".* \| Rake " + AMOUNT, line)) and pot is None:
            pot, rake = chips(found[1]), chips(found[2])
        if line.startswith("Board [") and board is None:
            board = line[len("Board ["):-1]
        for name, seat in seats.items():
            found = re.match(rf"^Seat {seat}: {re.escape(name)} (?:\([a-z ]+\) )*"
                             r"(?:showed|mucked) \[([^\]]*)\]", line)
            if found:
                cards[name] = found[1].split()
    holes = {}
    for name in seats:  # the cards written, first; the others unknown
        seen = cards.get(name, [])
        holes[name] = " ".join(seen + ["??"] * (dealt - len(seen)))
    return {"id": header[1], "game": game, "betting": BETTING[header[3]],
            "variant": f"{header[2]} {header[3]}", "dealt": dealt, "seats": seats, "put": put,
            "collected": collected, "holes": holes, "pot": pot, "rake": rake, "board": board,
            "cashed_out": any(" cashed out the hand for " in line for line in lines),
            "cancelled": "Hand cancelled" in lines}


def check_tables(hands: pd.DataFrame, seats: pd.DataFrame, path: Path) -> int:
    """Every hand of a file in the hands and seats tables, as its text says; return the hands checked."""
    texts = [read_hand(lines) for lines in hands_of(path)]
    assert len(hands) == len(texts), path.name
    for number, (row, text) in enumerate(zip(hands.itertuples(), texts), start=1):
        where = (path.name, number)
        assert row.hand_id == text["id"], where
        assert row.outcome != "rejected", (where, row.reason)
        assert (row.game, row.betting, row.variant) == (text["game"], text["betting"], text["variant"]), where
        assert (row.board or None) == text["board"], where
        mine = seats[seats.hand_key == row.hand_key].set_index("player")
        assert dict(zip(mine.index, mine.seat)) == text["seats"], where
        for name in text["seats"]:
            assert mine.at[name, "hole_cards"] == text["holes"][name], (where, name)
        if text["pot"] is None or text["cancelled"]:  # nothing to balance against
            continue
        assert (row.pot, row.rake) == pytest.approx((text["pot"], text["rake"])), where
        for name in text["seats"]:
            got = mine.loc[name]
            assert got.contributed == pytest.approx(text["put"][name], abs=1e-9), (where, name)
            assert got.received == pytest.approx(text["collected"][name], abs=1e-9), (where, name)
            net = text["collected"][name] - text["put"][name]
            assert got.net == pytest.approx(net, abs=1e-9), (where, name)
        # The chips balance: what went in is the total pot, what came out the pot less the rake.
        assert mine.contributed.sum() == pytest.approx(text["pot"], abs=1e-9), where
        if not text["cashed_out"]:
            assert mine.received.sum() + text["rake"] == pytest.approx(text["pot"], abs=1e-9), where
            assert mine.net.sum() == pytest.approx(-text["rake"], abs=1e-9), where
    return len(texts)


NUMBERS = ("hand_key", "seat", "index", "starting_stack", "contributed", "received", "net", "pot", "rake",
           "amount", "to", "pot_before", "small_blind", "big_blind", "ante")


def frames(tables: list[pd.DataFrame]) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The hands, seats and actions tables as text, "" for none, but their numbers."""
    found = []
    for table in tables:
        for column in table.columns:
            if column in NUMBERS:
                table[column] = pd.to_numeric(table[column].replace("", math.nan))
            else:
                table[column] = table[column].astype(object).where(table[column].notna(), "").astype(str)
        found.append(table)
    return found[0], found[1], found[2]


def csv_tables(outdir: Path) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The hands, seats and actions tables a run wrote."""
    return frames([pd.read_csv(outdir / f"{name}.csv", dtype=str, keep_default_na=False)
                   for name in ("hands", "seats", "actions")])


def batch_tables(path: Path) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The hands, seats and actions tables the reader's batches of a file hold (those a run writes)."""
    batches = list(pokerstars.read_batches(Source(path, "pokerstars", histories.COLUMNS), batch_rows=100))
    return frames([pa.concat_tables([batch.hand_tables[name] for batch in batches]).to_pandas()
                   for name in ("hands", "seats", "actions")])


def records_of(path: Path) -> Record:
    (record,) = pokerstars.read_records(Source(path, "pokerstars", histories.COLUMNS), batch_rows=1000)
    record.check()
    return record


# --- the real samples -----------------------------------------------------------------------------

def test_the_samples_hold_the_named_files_and_other_omaha_hands() -> None:
    names = {path.name for path in OMAHA_FILES}
    assert set(NAMED) <= names and len(names) > len(NAMED)


@pytest.mark.parametrize("path", OMAHA_FILES, ids=[path.name for path in OMAHA_FILES])
def test_an_omaha_sample_is_read_as_its_text_says(path: Path, tmp_path: Path) -> None:
    # The tables the run writes (their hands read, none rejected: how a showdown scores aside).
    summary = run([path], tmp_path)[0]
    assert summary["rows_read"] == len(hands_of(path))
    # The audit finds each record a result: its chips balance against its totals.
    assert settle(records_of(path)).audit.reason.tolist() == [None] * summary["rows_read"]
    hands, seats, _ = csv_tables(tmp_path)
    assert check_tables(hands, seats, path) == summary["rows_read"]


def test_the_named_samples_record_their_games_and_cards() -> None:
    games = {}
    for name in NAMED:
        record = records_of(HHSMITHY / name)
        assert record.problem.tolist() == [None]
        games[name] = (record.hand["game"][0].as_py(), record.hand["betting"][0].as_py(), record.holes.shape)
    assert games == {
        "CashGame_GameTypeTests_PotLimitOmaha.txt": ("omaha", "pot-limit", (1, SLOTS, 4)),
        "CashGame_GameTypeTests_PotLimitOmahaHiLo.txt": ("omaha-hilo", "pot-limit", (1, SLOTS, 4)),
        "CashGame_GameTypeTests_NoLimitOmahaHiLo.txt": ("omaha-hilo", "no-limit", (1, SLOTS, 4)),
        "CashGame_GameTypeTests_PotLimitFiveCardOmaha.txt": ("omaha", "pot-limit", (1, SLOTS, 5))}


def test_the_halves_of_a_hi_lo_hand_are_collected_as_written() -> None:
    # "(HI: ..; LO: ..)" after the cards shown: the lines are shows of their players all the same.
    record = records_of(HHSMITHY / NAMED[2])
    shows = [(int(record.slot[row]) + 1, record.text[row].as_py()) for row in range(len(record.action))
             if record.action[row] == list(Action).index(Action.SHOW)]
    assert shows == [(6, "Mindster: shows [Ad 3s 9c 5c] (HI: a flush, King high; LO: 7,6,5,3,A)"),
                     (3, "Aphily8: shows [4s As 4d 3h] (HI: a straight, Three to Seven; LO: 7,6,5,3,A)")]
    # Mindster: $9.55 of the high half and $4.77 of the low one; Aphily8 the other $4.78 of it (the
    # odd chip as the site gave it): $19.10 of a $20 pot, $0.90 raked.
    assert record.received[0, [2, 5]].tolist() == pytest.approx([4.78, 14.32])
    assert float(np.nansum(record.received[0])) + record.rake[0] == pytest.approx(record.pot[0]) == 20
    assert record.holes[0, 5].tolist() == codes("Ad 3s 9c 5c")
    assert record.holes[0, 2].tolist() == codes("4s As 4d 3h")


# --- hands written after the site's format ---------------------------------------------------------

SIX_PLUS_WALK = """PokerStars Hand #300000000001:  6+ Hold'em No Limit (Button Blind $2 - Ante $2  USD) - \
2019/04/13 18:36:55 CET [2019/04/13 12:36:55 ET]
Table 'Made Six' 6-max Seat #1 is the button
Seat 1: ann ($100 in chips)
Seat 2: bob ($80 in chips)
Seat 3: cy ($60 in chips)
ann: posts the ante $2
bob: posts the ante $2
cy: posts the ante $2
ann: posts button blind $2
*** HOLE CARDS ***
Dealt to ann [8d Kc]
bob: folds
cy: folds
Uncalled bet ($2) returned to ann
ann collected $6 from pot
ann: doesn't show hand
*** SUMMARY ***
Total pot $6 | Rake $0
Seat 1: ann (button blind) collected ($6)
Seat 2: bob folded before Flop (didn't bet)
Seat 3: cy folded before Flop (didn't bet)



"""
# The button blind posted before the antes, as the site sometimes writes it.
SIX_PLUS_SHOWDOWN = """PokerStars Hand #300000000002:  6+ Hold'em No Limit (Button Blind $1 - Ante $1 USD) - \
2020/05/05 16:31:20 CET [2020/05/05 10:31:20 ET]
Table 'Made Six' 6-max Seat #2 is the button
Seat 1: ann ($100 in chips)
Seat 2: bob ($80 in chips)
Seat 3: cy ($60 in chips)
Seat 5: dee ($40.50 in chips)
bob: posts button blind $1
ann: posts the ante $1
bob: posts the ante $1
cy: posts the ante $1
dee: posts the ante $1
*** HOLE CARDS ***
Dealt to ann [Ah Kh]
cy: raises $2 to $3
dee: calls $3
ann: calls $3
bob: calls $2
*** FLOP *** [Kd 9s 6c]
ann: checks
bob: bets $6
cy: folds
dee: raises $12 to $18
ann: folds
bob: calls $12
*** TURN *** [Kd 9s 6c] [7h]
bob: checks
dee: bets $18.50 and is all-in
bob: calls $18.50
*** RIVER *** [Kd 9s 6c 7h] [8d]
*** SHOW DOWN ***
dee: shows [Kc Ks] (three of a kind, Kings)
bob: shows [9d 9h] (three of a kind, Nines)
dee collected $87 from pot
*** SUMMARY ***
Total pot $89 | Rake $2
Board [Kd 9s 6c 7h 8d]
Seat 1: ann folded on the Flop
Seat 2: bob (button blind) showed [9d 9h] and lost with three of a kind, Nines
Seat 3: cy folded on the Flop
Seat 5: dee showed [Kc Ks] and won ($87) with three of a kind, Kings



"""
SIX_CARD_OMAHA = """PokerStars Hand #300000000011:  6 Card Omaha Pot Limit ($0.25/$0.50 USD) - \
2020/04/12 13:14:23 ET
Table 'Made Omaha' 6-max Seat #3 is the button
Seat 2: ann ($50.75 in chips)
Seat 3: bob ($24.01 in chips)
Seat 5: cy ($103.95 in chips)
Seat 6: dee ($50 in chips)
cy: posts small blind $0.25
dee: posts big blind $0.50
*** HOLE CARDS ***
Dealt to dee [3s 7s 6d Qd Jc 2d]
ann: folds
bob: raises $1 to $1.50
cy: calls $1.25
dee: calls $1
*** FLOP *** [4c Kh 2s]
cy: checks
dee: bets $4.50
bob: calls $4.50
cy: folds
*** TURN *** [4c Kh 2s] [9h]
dee: checks
bob: checks
*** RIVER *** [4c Kh 2s 9h] [Td]
dee: bets $10
bob: calls $10
*** SHOW DOWN ***
dee: shows [3s 7s 6d Qd Jc 2d] (a straight, Nine to King)
bob: shows [Ks Kd 8c 8h 5c 5d] (three of a kind, Kings)
dee collected $32 from pot
*** SUMMARY ***
Total pot $33.50 | Rake $1.50
Board [4c Kh 2s 9h Td]
Seat 2: ann folded before Flop (didn't bet)
Seat 3: bob (button) showed [Ks Kd 8c 8h 5c 5d] and lost with three of a kind, Kings
Seat 5: cy (small blind) folded on the Flop
Seat 6: dee (big blind) showed [3s 7s 6d Qd Jc 2d] and won ($32) with a straight, Nine to King



"""
FIVE_CARD_HI_LO = """PokerStars Hand #300000000012:  5 Card Omaha Hi/Lo Pot Limit ($0.10/$0.25 USD) - \
2025/11/30 15:42:16 PT [2025/11/30 18:42:16 ET]
Table 'Made Lo' 6-max Seat #3 is the button
Seat 1: ann ($24.02 in chips)
Seat 2: bob ($17.93 in chips)
Seat 3: cy ($25 in chips)
ann: posts small blind $0.10
bob: posts big blind $0.25
*** HOLE CARDS ***
Dealt to cy [8s Qs 3s 2c Qc]
cy: raises $0.60 to $0.85
ann: folds
bob: calls $0.60
*** FLOP *** [Td Qd 5s]
bob: checks
cy: bets $1.68
bob: folds
Uncalled bet ($1.68) returned to cy
cy collected $1.75 from pot
cy: doesn't show hand
*** SUMMARY ***
Total pot $1.80 | Rake $0.05
Board [Td Qd 5s]
Seat 1: ann (small blind) folded before Flop
Seat 2: bob (big blind) folded on the Flop
Seat 3: cy (button) collected ($1.75)



"""
# A name holding ": " and the halves a hi-lo hand shows: the name is before the ": " of the words.
HI_LO_COLON = """PokerStars Hand #300000000021:  Omaha Hi/Lo Pot Limit ($0.05/$0.10 USD) - \
2014/01/06 4:56:52 ET
Table 'Made Lo' 6-max Seat #1 is the button
Seat 1: wo: olly ($10 in chips)
Seat 2: bea ($10 in chips)
Seat 3: cal ($10 in chips)
bea: posts small blind $0.05
cal: posts big blind $0.10
*** HOLE CARDS ***
wo: olly: calls $0.10
bea: calls $0.05
cal: checks
*** FLOP *** [Kd 2c 9h]
bea: checks
cal: checks
wo: olly: bets $0.30
bea: calls $0.30
cal: calls $0.30
*** TURN *** [Kd 2c 9h] [6c]
bea: checks
cal: checks
wo: olly: checks
*** RIVER *** [Kd 2c 9h 6c] [8s]
bea: checks
cal: checks
wo: olly: checks
*** SHOW DOWN ***
bea: shows [4s 3s 8d Ad] (HI: a pair of Eights; LO: 8,6,3,2,A)
wo: olly: shows [Ks Kh Qd Jd] (HI: three of a kind, Kings)
cal: mucks hand
wo: olly collected $0.58 from pot
bea collected $0.57 from pot
*** SUMMARY ***
Total pot $1.20 | Rake $0.05
Board [Kd 2c 9h 6c 8s]
Seat 1: wo: olly (button) showed [Ks Kh Qd Jd] and won ($0.58) with HI: three of a kind, Kings
Seat 2: bea (small blind) showed [4s 3s 8d Ad] and won ($0.57) with HI: a pair of Eights; LO: 8,6,3,2,A
Seat 3: cal (big blind) mucked [5h 7d Tc Th]



"""
WRITTEN = {"six_plus.txt": SIX_PLUS_WALK + SIX_PLUS_SHOWDOWN, "six_card_omaha.txt": SIX_CARD_OMAHA,
           "five_card_hi_lo.txt": FIVE_CARD_HI_LO, "hi_lo_colon.txt": HI_LO_COLON}


@pytest.mark.parametrize("name", sorted(WRITTEN))
def test_a_hand_written_after_the_site_is_read_as_its_text_says(name: str, tmp_path: Path) -> None:
    path = write(tmp_path, WRITTEN[name], name)
    hands, seats, _ = batch_tables(path)
    assert check_tables(hands, seats, path) == WRITTEN[name].count("PokerStars Hand #")
    assert settle(records_of(path)).audit.reason.tolist() == [None] * len(hands)


def test_six_plus_holdem_posts_antes_and_a_button_blind(tmp_path: Path) -> None:
    path = write(tmp_path, SIX_PLUS_WALK + SIX_PLUS_SHOWDOWN, "six_plus.txt")
    record = records_of(path)
    assert record.problem.tolist() == [None, None]
    got = {column: record.hand[column].to_pylist() for column in ("game", "betting", "small_blind",
                                                                   "big_blind", "ante", "currency")}
    # The one blind, the button's, is the hand's big blind; there is no small blind.
    assert got == {"game": ["shortdeck"] * 2, "betting": ["no-limit"] * 2, "small_blind": [None, None],
                   "big_blind": [2.0, 1.0], "ante": [2.0, 1.0], "currency": ["USD", "USD"]}
    assert record.holes.shape == (2, SLOTS, 2) and record.holes[1, 4].tolist() == codes("Kc Ks")
    actions = list(Action)
    posts = [(int(record.action_hand[row]), int(record.slot[row]) + 1, actions[record.action[row]],
              float(record.to[row]), float(record.written[row]))
             for row in range(len(record.action)) if actions[record.action[row]].name.startswith("POST")]
    # The antes are dead money; the button blind is live: it counts toward its poster's bet.
    assert posts == [(0, 1, Action.POST_ANTE, 2, 2), (0, 2, Action.POST_ANTE, 2, 2),
                     (0, 3, Action.POST_ANTE, 2, 2), (0, 1, Action.POST, 2, 2),
                     (1, 2, Action.POST, 1, 1), (1, 1, Action.POST_ANTE, 1, 1),
                     (1, 2, Action.POST_ANTE, 1, 1), (1, 3, Action.POST_ANTE, 1, 1),
                     (1, 5, Action.POST_ANTE, 1, 1)]
    hands, seats, table = batch_tables(path)
    # bob calls $2 more to $3 over his $1 button blind; on the walk, ann's is returned.
    walk = seats[seats.hand_id == "300000000001"].set_index("player")
    assert walk.contributed.tolist() == [2, 2, 2] and walk.received.tolist() == [6, 0, 0]
    bob = table[(table.hand_id == "300000000002") & (table.player == "bob")]
    assert bob.action.tolist()[:3] == ["post", "post ante", "call"] and bob.amount.tolist()[:3] == [1, 1, 2]
    assert hands.outcome.tolist() == ["no showdown", "scored"]
    # No small or big blind: the button is BTN, the others named in their order of play after it.
    named = {hand: dict(zip(rows.player, rows.position)) for hand, rows in seats.groupby("hand_id")}
    assert named == {"300000000001": {"ann": "BTN", "bob": "HJ", "cy": "CO"},
                     "300000000002": {"bob": "BTN", "cy": "UTG", "dee": "HJ", "ann": "CO"}}


def test_each_slot_holds_its_games_cards_in_a_group_of_games(tmp_path: Path) -> None:
    text = hand(number=1) + (HHSMITHY / NAMED[0]).read_text(encoding="utf-8-sig") + "\n\n" + SIX_CARD_OMAHA
    record = records_of(write(tmp_path, text))
    assert record.problem.tolist() == [None, None, None]
    assert record.hand["game"].to_pylist() == ["holdem", "omaha", "omaha"]
    # Six cards a slot, the most any hand of the group deals: a slot's own first, none past them.
    assert record.holes.shape == (3, SLOTS, 6)
    no, unknown = [NO_CARD], [UNKNOWN_CARD]
    assert record.holes[0, 1].tolist() == codes("Ah Ad") + no * 4  # hold'em: bob shows his two
    assert record.holes[0, 0].tolist() == unknown * 2 + no * 4  # alice folds unseen
    assert record.holes[1, 4].tolist() == unknown * 4 + no * 2  # Omaha: pendle45 shows nothing
    assert record.holes[2, 5].tolist() == codes("3s 7s 6d Qd Jc 2d")  # six-card Omaha: dee
    assert record.holes[2, 1].tolist() == unknown * 6  # ann folds unseen
    assert record.holes[2, 3].tolist() == no * 6  # no one at seat 4
    hands, seats, _ = batch_tables(write(tmp_path, text, "again.txt"))
    assert seats[seats.hand_key == hands.hand_key[1]].hole_cards.tolist() == ["?? ?? ?? ??"] * 2


# --- games pokerpipe does not score --------------------------------------------------------------------

UNKNOWN = ("Razz Limit", "7 Card Stud Limit", "7 Card Stud Hi/Lo Limit", "5 Card Draw No Limit",
           "Badugi Limit", "Triple Draw 2-7 Lowball Limit", "Single Draw 2-7 Lowball No Limit",
           "Courchevel Pot Limit", "Courchevel Hi/Lo Pot Limit")


def test_a_game_pokerpipe_does_not_score_is_rejected_with_the_reason(tmp_path: Path) -> None:
    text = "".join(hand(number=number, game=game) for number, game in enumerate(UNKNOWN, start=1))
    # A mixed game names the game of its hand inside the stakes.
    text += hand(number=20).replace("Hold'em No Limit ($1/$2 USD)", "HORSE (Razz Limit, $1/$2 USD)")
    text += hand(number=21)
    summary, _, rejects = run([write(tmp_path, text)], tmp_path / "out")
    assert summary["rows_read"] == len(UNKNOWN) + 2 and summary["rows_rejected"] == len(UNKNOWN) + 1
    assert rejects["reason"].tolist() == [histories.unknown_game(shown(game))
                                          for game in (*UNKNOWN, "Razz Limit")]
    headers = [i + 1 for i, line in enumerate(text.splitlines()) if line.startswith("PokerStars Hand #")]
    assert rejects["line"].astype(int).tolist() == headers[:-1]  # the header says it
    hands, _, _ = csv_tables(tmp_path / "out")
    assert hands.game.tolist() == [""] * (len(UNKNOWN) + 1) + ["holdem"]
    assert not math.isnan(hands.pot.iloc[-1])
