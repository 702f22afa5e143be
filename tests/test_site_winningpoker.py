"""Winning Poker Network logs, both layouts: every sample read, audited and placed as its record says."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from pipeline.formats.logs.grammar import NOT_UNDERSTOOD
from pipeline.formats.sites import detect, winningpoker, winningpoker_v2

from .sites import (
    SiteRun,
    check_balances,
    check_outcomes,
    check_positions,
    check_rejected_alone,
    check_winners,
    file_of,
    files_of,
    inserted,
    renamed,
    run_files,
    run_text,
    table_rows,
)

OLD = files_of("winningpoker")
NEW = files_of("winningpoker-v2")
#: The suite's two refused hands, byte for byte the same: Table2.txt cut after the second of its five
#: summary lines, without the winner's collection and without "Game ended at:".
REJECTED = {"InValidHand_1.txt": "hand cut short", "InValidHand_2.txt": "hand cut short"}
#: The older layout's hands whose record does not add up: at the jackpot tables of 2014 (``(JP)``,
#: ``( Beast )`` in the table's name) a hand that saw a flop with four players or more dealt in gave
#: 0.25 more than the pot collected and the rake written, and no line says so (from 2016 on the
#: summary writes it: ``Pot: 639. Rake 0.96. JP fee 0.04``).  Each: the chips put in, the pot
#: written (what the winners collected), the rake written.
UNWRITTEN_FEE = {
    ("GeneralHand.txt", 1): (8.39, 7.73, 0.41), ("BasicHand.txt", 1): (48.0, 45.75, 2.0),
    ("Post.txt", 1): (1.35, 1.04, 0.06), ("Straddle.txt", 1): (1.10, 0.80, 0.05),
    ("StrangePlayerNames.txt", 1): (42.0, 39.75, 2.0), ("Limit1.txt", 1): (514.0, 510.75, 3.0),
    ("10MultipleHands.txt", 3): (40.0, 37.75, 2.0), ("10MultipleHands.txt", 5): (18.0, 16.85, 0.90),
    ("10MultipleHands.txt", 6): (28.0, 26.35, 1.40), ("10MultipleHands.txt", 8): (18.0, 16.85, 0.90),
    ("10MultipleHands.txt", 10): (16.0, 14.95, 0.80), ("Flop.txt", 1): (16.0, 14.95, 0.80),
    ("River.txt", 1): (72.0, 69.75, 2.0), ("Table2.txt", 1): (52.0, 49.75, 2.0),
    ("ValidHand_2.txt", 1): (0.48, 0.21, 0.02),
}


@pytest.fixture(scope="module")
def old(tmp_path_factory: pytest.TempPathFactory) -> SiteRun:
    return run_files(OLD, tmp_path_factory.mktemp("winningpoker") / "out")


@pytest.fixture(scope="module")
def new(tmp_path_factory: pytest.TempPathFactory) -> SiteRun:
    return run_files(NEW, tmp_path_factory.mktemp("winningpoker-v2") / "out")


def numbered(run: SiteRun) -> pd.DataFrame:
    """The hands table with each hand's file name and number in its file."""
    return run.hands.assign(file=file_of(run), number=run.hands.hand_key & 0xFFFFFFFF)


def by_file(run: SiteRun) -> pd.DataFrame:
    """The hands table indexed by file name (the first hand of a file of several)."""
    return numbered(run).drop_duplicates("file").set_index("file")


def key_of(run: SiteRun, name: str, number: int = 1) -> int:
    hands = numbered(run)
    return int(hands[(hands.file == name) & (hands.number == number)].hand_key.iloc[0])


def seats_of(run: SiteRun, name: str, number: int = 1) -> pd.DataFrame:
    """The seats of hand ``number`` of the file ``name``, by player."""
    return run.seats[run.seats.hand_key == key_of(run, name, number)].set_index("player")


def actions_of(run: SiteRun, name: str, number: int = 1) -> pd.DataFrame:
    return run.actions[run.actions.hand_key == key_of(run, name, number)]


def test_every_sample_is_a_log_of_its_layout() -> None:
    assert (len(OLD), len(NEW)) == (45, 13)
    assert all(detect(path) is winningpoker.SITE for path in OLD)
    assert all(detect(path) is winningpoker_v2.SITE for path in NEW)


# The older layout.

def test_every_older_hand_ends_in_one_outcome(old: SiteRun) -> None:
    check_outcomes(old, REJECTED)
    assert old.summary["rows_read"] == 54
    assert set(old.hands.site.astype(str)) == {"Winning Poker Network"}
    # Limit2 = Table1, Limit3 = HandActionTests/UncalledBet, PlayerTests/OmahaShowdown =
    # HandActionTests/AllInHandWithShowdown; two hands cancelled before the deal.
    assert old.summary["set_apart"] == {"duplicate": 3, "cancelled": 2}


def test_older_showdowns_name_the_evaluators_winners(old: SiteRun) -> None:
    # A ten is written "10", a winner's cards only on his collection's line, the hero's a card a line.
    check_winners(old, at_least=6)


def test_older_net_is_minus_the_rake_where_the_record_adds_up(old: SiteRun) -> None:
    assert check_balances(old, set(UNWRITTEN_FEE)) == 32


def test_the_unwritten_jackpot_fee_is_a_quarter(old: SiteRun) -> None:
    hands = numbered(old).set_index(["file", "number"])
    received = old.seats.groupby("hand_key").received.sum()
    for (name, number), (put_in, pot, rake) in UNWRITTEN_FEE.items():
        hand = hands.loc[(name, number)]
        assert (hand.pot, received[hand.hand_key], hand.rake) == pytest.approx((put_in, pot, rake)), name
        assert put_in - pot - rake == pytest.approx(0.25)
    # Their showdowns are counted apart as records that do not add up, never as mismatches.
    scored = sum(hands.loc[key].outcome == "scored" for key in UNWRITTEN_FEE)
    assert scored > 0 and old.summary["expected"]["not_checked_inconsistent_record"] == scored


def test_older_positions_follow_the_button(old: SiteRun) -> None:
    assert check_positions(old) >= 45


def test_every_amount_is_the_chips_the_action_adds(old: SiteRun) -> None:
    """3BetHand: ``raises (6)`` from the small blind of 2 makes 8, ``raises (20)`` from the big blind
    of 4 makes 24, ``calls (16)``: the summary's ``Bets: 24`` each."""
    raises = actions_of(old, "3BetHand.txt")
    raises = raises[raises.action.astype(str) == "raise"]
    assert list(raises.to) == [8.0, 24.0]
    assert set(seats_of(old, "3BetHand.txt").contributed) == {24.0}
    # "allin (64.07)" on the river is the rest of a stack of 110.40, then "calls (2.63)".
    assert set(seats_of(old, "WithShowdown.txt").contributed) == {110.40}


def test_an_all_in_is_what_its_chips_make_it(old: SiteRun) -> None:
    """``Player pkrbabe22 allin (14.40)`` facing 31.34 puts his last chips in; the 15.67 of the raise
    nobody matched went back to 10speed."""
    seats = seats_of(old, "Table5.txt")
    assert seats.loc["pkrbabe22"].contributed == pytest.approx(22.40)
    assert seats.loc["10speed"].contributed == pytest.approx(23.67)
    assert seats.loc["10speed"].received == pytest.approx(75.74)
    all_in = actions_of(old, "Table5.txt")
    assert all_in[all_in.player == "pkrbabe22"].all_in.iloc[-1]


def test_the_dead_post_and_the_straddle(old: SiteRun) -> None:
    posts = actions_of(old, "PostingDead.txt")
    kunttzz = posts[posts.player == "TheKunttzz"]
    assert list(kunttzz.action.astype(str)) == ["post dead", "post", "check", "fold"]
    assert seats_of(old, "PostingDead.txt").loc["TheKunttzz"].contributed == pytest.approx(0.75)
    straddle = actions_of(old, "Straddle.txt")
    assert list(straddle[straddle.player == "D3SISION"].action.astype(str))[:2] == ["post straddle", "check"]
    assert seats_of(old, "Straddle.txt").loc["rds44sdr"].contributed == pytest.approx(0.50)


def test_a_player_who_does_not_act_is_not_dealt_in(old: SiteRun) -> None:
    """``Player xx45809 sitting out``, ``Player JonM. wait BB``; NoNameSitoutLine's seat 1 is on no
    other line at all, and its ``Player  sitting out`` names nobody."""
    assert {"xx45809", "megadouche"}.isdisjoint(seats_of(old, "WithSittingOut.txt").index)
    dealt = {"Hunt3rGath3r3r", "Leatherass9", "AintNoLimit"}
    assert set(seats_of(old, "NoNameSitoutLine.txt").index) == dealt
    assert "JonM." not in seats_of(old, "WaitBB.txt").index
    assert "WizoWizo" not in seats_of(old, "Turn.txt").index
    hands = by_file(old)
    assert (hands.loc["WithSittingOut.txt"].players, hands.loc["SitOut.txt"].players) == (4, 3)


def test_a_hand_cancelled_before_the_deal_is_set_apart(old: SiteRun) -> None:
    hands = numbered(old)
    cancelled = hands[hands.reason == "cancelled"]
    assert sorted(cancelled.file) == ["CancelledHand.txt", "UncalledBet.txt"]
    assert set(cancelled.outcome) == {"set apart"}


def test_the_jackpot_fee_written_is_part_of_the_rake(old: SiteRun) -> None:
    hands = by_file(old)
    assert hands.loc["SitOut.txt"].rake == pytest.approx(2.17 + 0.08)
    assert hands.loc["OmahaHoleCards.txt"].rake == pytest.approx(1.76 + 0.24)


def test_older_games_stakes_and_times(old: SiteRun) -> None:
    """The older layout names the game but never its betting, a currency or a time zone."""
    hands = by_file(old)
    holdem, omaha = hands.loc["NoLimitHoldem.txt"], hands.loc["PotLimitOmaha.txt"]
    assert (holdem.game, holdem.variant) == ("holdem", "Hold'em")
    assert (holdem.small_blind, holdem.big_blind) == (0.25, 0.50)
    assert (omaha.game, omaha.variant, omaha.table) == ("omaha", "Omaha", "Alforsite")
    assert hands.loc["NoLimitHoldem.txt"].table == "Maghemite  (Fast)"
    assert hands.loc["SitOut.txt"].table == "(PRR) Topielec"
    assert hands.betting.isna().all() and hands.currency.isna().all()
    assert hands.time.isna().all() and hands.time_zone.isna().all()
    assert seats_of(old, "BasicHand.txt").hole_cards.str.split().map(len).eq(4).all()


def test_a_ten_is_read(old: SiteRun) -> None:
    assert by_file(old).loc["BasicHand.txt"].board == "Qd 4d 7d Jc Td"


def test_the_winners_cards_are_read_from_his_collection(old: SiteRun) -> None:
    assert seats_of(old, "GeneralHand.txt").loc["johna52801"].hole_cards == "Jd Js"


def test_the_heros_cards_come_a_card_a_line(old: SiteRun) -> None:
    assert seats_of(old, "HeroName.txt").loc["WP_Hero"].hole_cards == "6d Ks"


# The current layout.

def test_every_current_hand_ends_in_one_outcome(new: SiteRun) -> None:
    check_outcomes(new, {})
    assert new.summary["rows_read"] == 13
    assert set(new.hands.site.astype(str)) == {"Winning Poker Network"}
    # The suite's files reuse a few hand ids (#55280000 six times): all but the first read are set apart.
    assert new.summary["set_apart"] == {"duplicate": 8}


def test_current_showdowns_name_the_evaluators_winners(new: SiteRun, tmp_path: Path) -> None:
    check_winners(new, at_least=1)
    # GeneralHand's id is PotLimitOmaha's: read alone, its showdown is checked too.
    alone = run_files([next(path for path in NEW if path.name == "GeneralHand.txt")], tmp_path / "alone")
    check_winners(alone, at_least=1)
    assert list(alone.hands.outcome) == ["scored"]


def test_current_net_is_minus_the_rake_where_the_record_adds_up(new: SiteRun) -> None:
    assert check_balances(new) == 5


def test_current_positions_follow_the_button(new: SiteRun) -> None:
    assert check_positions(new) >= 12


def test_a_raise_is_written_to_its_total(new: SiteRun) -> None:
    """``Player4 posts $0.25`` then ``raises $0.60 to $0.85``; ``raises $11.11 to $11.11 and is all-in``
    over a bet of 6.15, called by ``calls $3.45 and is all-in``: 1.51 goes back."""
    seats = seats_of(new, "OmahaShowdown.txt")
    assert seats.contributed.loc[["Player4", "Player6"]].tolist() == pytest.approx([12.50, 12.50])
    assert seats.loc["Player6"].received == pytest.approx(24.09)
    raises = actions_of(new, "OmahaShowdown.txt")
    assert list(raises[raises.action.astype(str) == "raise"].to) == [0.85, 11.11]


def test_the_summarys_won_is_every_pot_of_the_winner(new: SiteRun) -> None:
    """SplitPot's winner collected $280.76 from the main pot and $836.62 from side pot-1: ``won $1117.38``."""
    assert seats_of(new, "SplitPot.txt").loc["Player1"].received == pytest.approx(1117.38)
    # The uncontested winner collects only in the summary ("did not show and won $0.20").
    assert seats_of(new, "NoLimitHoldem.txt").loc["Player4"].received == pytest.approx(0.20)


def test_posts_dead_is_both_blinds(new: SiteRun) -> None:
    """``Player2 posts dead $0.03`` at $0.01/$0.02, then checks: 0.01 dead, 0.02 live.  The file is
    FoldedPreflop.txt with that one line changed (its total pot of $0.20 kept): what it does not
    say it paid out of the 0.21 put in is read as a rake."""
    posts = actions_of(new, "PostingDead.txt")
    player2 = posts[posts.player == "Player2"]
    assert list(player2.action.astype(str)) == ["post dead", "post", "check", "fold"]
    assert list(player2.amount)[:2] == pytest.approx([0.01, 0.02])
    hand = by_file(new).loc["PostingDead.txt"]
    assert (hand.pot, hand.rake) == pytest.approx((0.21, 0.01))


def test_sitting_out_on_the_seat_line_or_a_line_of_its_own(new: SiteRun) -> None:
    """``Seat 4: sever4523 ($0.00) is sitting out``, ``!? sits out``, ``GreatShannon waits for big blind``."""
    assert set(seats_of(new, "WithSittingOut.txt").index) == {"pandabear44", "Swedish Fish", "EMUDGE"}
    assert "Player6" not in seats_of(new, "NoLimitHoldem.txt").index


def test_current_games_stakes_and_times(new: SiteRun) -> None:
    hands = by_file(new)
    holdem, omaha = hands.loc["NoLimitHoldem.txt"], hands.loc["PotLimitOmaha.txt"]
    assert (holdem.game, holdem.betting, holdem.variant) == ("holdem", "no-limit", "Holdem(No Limit)")
    assert (omaha.game, omaha.betting, omaha.small_blind, omaha.big_blind) == ("omaha", "pot-limit", 0.5, 1.0)
    assert (omaha.table, omaha.max_seats, omaha.button_seat) == ("Forreston", 2, 1)
    assert hands.loc["ActionShowedCards.txt"].table == "7 Day No Rathole 50/100 PLO"
    assert set(hands.currency) == {"USD"}
    assert holdem.time == pd.Timestamp("2019-09-10 12:02:11", tz="UTC") and holdem.time_zone == "UTC"
    assert hands.loc["PotLimitOmaha.txt"].rake == pytest.approx(0.21 + 0.04)
    assert seats_of(new, "OmahaShowdown.txt").loc["Hero"].hole_cards == "Ad 3s Ts 4s"


def test_a_tournament_hand(tmp_path: Path) -> None:
    """The tournament header fpdb documents: no samples have one."""
    text = sample(NEW, "PotLimitOmaha.txt").replace(
        "Hand #55280000 - Omaha(Pot Limit) - $0.50/$1.00 - 2019/02/26 16:57:50 UTC",
        "Game Hand #80586589 - Tournament #11182752 - Omaha H/L(Pot Limit) - Level 15 (0.50/1.00)- "
        "2019/07/21 17:44:50 UTC").replace("Forreston", "Table '1'").replace("$", "")
    path = tmp_path / "tournament.txt"
    path.write_text(text, encoding="utf-8")
    hand = run_files([path], tmp_path / "out").hands.iloc[0]
    assert (hand.hand_id, hand.tournament_id, hand.level) == ("80586589", "11182752", 15)
    assert hand.game == "omaha-hilo"
    assert (hand.table, hand.big_blind, hand.outcome) == ("Table '1'", 1.0, "no showdown")
    assert pd.isna(hand.currency)


def test_a_current_hand_cut_short_is_rejected(tmp_path: Path) -> None:
    short = tmp_path / "short.txt"
    short.write_text(sample(NEW, "GeneralHand.txt").split("*** SUMMARY ***")[0], encoding="utf-8")
    got = run_files([short], tmp_path / "out")
    assert list(got.hands.outcome) == ["rejected"]
    assert "cut short" in got.hands.reason.iloc[0]


# Hostile text: the same hands, written otherwise, read into the same rows.

def sample(files: list[Path], name: str) -> str:
    """A sample file's text, its byte-order mark left out."""
    return next(path for path in files if path.name == name).read_text(encoding="utf-8-sig")




def same_rows(tmp_path: Path, text: str, other: str, names: dict[str, str] | None = None) -> bool:
    plain, written = tmp_path / "plain.txt", tmp_path / "other.txt"
    plain.write_text(text, encoding="utf-8")
    written.write_bytes(other.encode("utf-8"))
    read = table_rows(run_files([written], tmp_path / "o"), names)
    return read == table_rows(run_files([plain], tmp_path / "p"))




HOSTILE_OLD = {"johna52801": "j: calls (2)", "LadyStack": "[9s 9c] raises (1)",
               "Shipologist": "Seat 1: x (5).", "FetusMunch": "f received a card.",
               "borjilius79": "b mucks cards", "xXxAudiA5xXx": "Pot: 1. Rake 0",
               "Daviciko": "Uncalled bet (1) returned to d", "STOPCRYINGB79": "s has big blind (4)",
               "digbick30": "*Player d shows: x [Ah Kd]. Bets: 1. Collects: 0. Loses: 1."}
HOSTILE_NEW = {"Player 1": "p1: calls $2", "Player 2": "[Ah] raises $2 to $4",
               "Player4": "x collected $5 from main pot", "Player6": "Seat 3: y ($1)", "Hero": "Dealt to me",
               "Player1": "Total pot $3 | Rake $1"}


@pytest.mark.parametrize("name", ["GeneralHand.txt", "UncalledBet.txt", "3BetHand.txt"])
def test_older_hostile_names_read_as_plain_ones(tmp_path: Path, name: str) -> None:
    text = sample(OLD, name)
    names = {old_name: new_name for old_name, new_name in HOSTILE_OLD.items() if old_name in text}
    assert names
    assert same_rows(tmp_path, text, renamed(text, names), names)


@pytest.mark.parametrize("name", ["GeneralHand.txt", "OmahaShowdown.txt"])
def test_current_hostile_names_read_as_plain_ones(tmp_path: Path, name: str) -> None:
    text = sample(NEW, name)
    names = {old_name: new_name for old_name, new_name in HOSTILE_NEW.items()
             if re.search(rf"(?<![\w]){re.escape(old_name)}(?![\w])", text)}
    assert names
    assert same_rows(tmp_path, text, renamed(text, names), names)


def localised_old(text: str) -> str:
    """Decimal commas and spaces for the thousands in the amounts (``(1 148,25)``, ``Pot: 7,73.``),
    the first two lines of each hand (ids, times, stakes) left as they are."""
    def amount(text: str) -> str:
        whole, _, cents = text.partition(".")
        whole = re.sub(r"(?<=[0-9])(?=(?:[0-9]{3})+$)", " ", whole)
        return whole + ("," + cents if cents else "")

    lines = []
    for line in text.split("\n"):
        if not line.startswith("Game "):
            line = re.sub(r"(?<=\()[0-9]+(?:\.[0-9]+)?(?=\))", lambda found: amount(found.group(0)), line)
            line = re.sub(r"((?:Pot|Bets|Collects|Wins|Loses): |Rake |fee )([0-9]+(?:\.[0-9]+)?)(?=\.|$)",
                          lambda found: found.group(1) + amount(found.group(2)), line)
        lines.append(line)
    return "\n".join(lines)


def localised_new(text: str) -> str:
    """Dollars after the amount, with a decimal comma and spaces for the thousands: ``1 117,38 $``."""
    def amount(found: re.Match[str]) -> str:
        whole, _, cents = found.group(1).partition(".")
        return re.sub(r"(?<=[0-9])(?=(?:[0-9]{3})+$)", " ", whole) + ("," + cents if cents else "") + " $"

    return re.sub(r"\$([0-9]+(?:\.[0-9]+)?)", amount, text)


def test_the_localised_amounts_are_those_meant() -> None:
    assert localised_old("Seat 4: AfroBlue (1148.25).\nPot: 7.73. Rake 0.41\n*Player j shows: x [Jd Js]. "
                         "Bets: 4.07. Collects: 1007.73. Wins: 3.66.") == \
        ("Seat 4: AfroBlue (1 148,25).\nPot: 7,73. Rake 0,41\n*Player j shows: x [Jd Js]. "
         "Bets: 4,07. Collects: 1 007,73. Wins: 3,66.")
    assert localised_new("Total pot $1117.38 | Rake $2.76") == "Total pot 1 117,38 $ | Rake 2,76 $"


@pytest.mark.parametrize("name", ["GeneralHand.txt", "Table4.txt", "SitOut.txt"])
def test_older_localised_amounts_read_as_plain_ones(tmp_path: Path, name: str) -> None:
    text = sample(OLD, name)
    assert localised_old(text) != text
    assert same_rows(tmp_path, text, localised_old(text))


@pytest.mark.parametrize("name", ["SplitPot.txt", "ActionShowedCards.txt", "OmahaShowdown.txt"])
def test_current_localised_amounts_read_as_plain_ones(tmp_path: Path, name: str) -> None:
    text = sample(NEW, name)
    assert localised_new(text) != text
    assert same_rows(tmp_path, text, localised_new(text))


@pytest.mark.parametrize("end", ["\r\n", "\r"])
def test_older_line_ends_and_byte_order_marks(tmp_path: Path, end: str) -> None:
    """Ten hands pasted together, each with its mark, with CR LF or CR line ends."""
    text = sample(OLD, "10MultipleHands.txt")
    marked = "\ufeff" + text.replace("\n\nGame started at: ", "\n\n\ufeffGame started at: ")
    assert same_rows(tmp_path, text, marked.replace("\n", end))


@pytest.mark.parametrize("end", ["\r\n", "\r"])
def test_current_line_ends_and_byte_order_marks(tmp_path: Path, end: str) -> None:
    """Two files' hands pasted together, each with its mark."""
    text = sample(NEW, "OmahaShowdown.txt") + "\n\n" + sample(NEW, "SplitPot.txt")
    marked = "\ufeff" + text.replace("\n\nHand #", "\n\n\ufeffHand #")
    assert same_rows(tmp_path, text, marked.replace("\n", end))


# Lines the network never writes: its logs, of either layout, hold no chat (no sample holds any, and
# neither the public C# parsers' grammars of the two layouts nor fpdb's reads one), so a player's
# words are never read, even shaped as an action.

#: The older layout's lines, each KiWiKaKi's, who raises, checks and folds in the third hand of
#: 10MultipleHands: after the layout's own wording (``Player KiWiKaKi raises (12)``).
OLD_NEVER_WRITTEN = ["Player KiWiKaKi: gl", 'Player KiWiKaKi said, "raises (12)"',
                     "Player KiWiKaKi: raises (12) lol"]
#: The id of the third hand of 10MultipleHands.
OLD_THIRD = "261441841"
#: The current layout has no file of several hands: four files' hands (their ids all different),
#: pasted together as the site writes them, a blank line apart.  The lines are written in
#: OmahaShowdown's hand, Player4's, who posts, raises, bets, calls all in and shows there.
NEW_SEVERAL = ["NoLimitHoldem.txt", "OmahaShowdown.txt", "SplitPot.txt", "ActionShowedCards.txt"]
NEW_NEVER_WRITTEN = ["Player4: gl", 'Player4 said, "bets $2.05"', "Player4: bets $2.05 lol"]
#: The id of OmahaShowdown's hand.
NEW_HAND = "54760000"


def old_written_in(line: str, after: str) -> str:
    """10MultipleHands with ``line`` in its third hand, after that hand's line ``after``."""
    text = sample(OLD, "10MultipleHands.txt")
    hand = re.split(r"(?m)^(?=Game started at: )", text)[3]
    assert f"Game ID: {OLD_THIRD} " in hand and text.count(hand) == 1
    return text.replace(hand, inserted(hand, line, after))


def new_text() -> str:
    """The hands of :data:`NEW_SEVERAL` in one file."""
    return "\n\n".join(sample(NEW, name).strip("\n") for name in NEW_SEVERAL) + "\n"


def new_written_in(line: str, after: str) -> str:
    """The hands of :data:`NEW_SEVERAL` with ``line`` in OmahaShowdown's, after its line ``after``."""
    text, hand = new_text(), sample(NEW, "OmahaShowdown.txt").strip("\n")
    assert hand.startswith(f"Hand #{NEW_HAND} ") and text.count(hand) == 1
    return text.replace(hand, inserted(hand, line, after))


@pytest.fixture(scope="module")
def old_several(tmp_path_factory: pytest.TempPathFactory) -> SiteRun:
    return run_text(tmp_path_factory.mktemp("old_several"), sample(OLD, "10MultipleHands.txt"))


@pytest.fixture(scope="module")
def new_several(tmp_path_factory: pytest.TempPathFactory) -> SiteRun:
    return run_text(tmp_path_factory.mktemp("new_several"), new_text())


# The flop's first line, and the summary's first.
@pytest.mark.parametrize("after", ["*** FLOP ***", "------ Summary ------"])
@pytest.mark.parametrize("line", OLD_NEVER_WRITTEN)
def test_a_line_the_older_layout_never_writes_rejects_its_hand_alone(old_several: SiteRun, tmp_path: Path,
                                                                     line: str, after: str) -> None:
    """A line the site never writes, in a hand's betting or its summary, is not understood: that hand
    is rejected for it, every other hand reads as it did."""
    got = run_text(tmp_path, old_written_in(line, after))
    check_rejected_alone(got, old_several, OLD_THIRD, line, NOT_UNDERSTOOD, "KiWiKaKi")


# The body's first line after the blinds, and the summary's first.
@pytest.mark.parametrize("after", ["*** HOLE CARDS ***", "*** SUMMARY ***"])
@pytest.mark.parametrize("line", NEW_NEVER_WRITTEN)
def test_a_line_the_current_layout_never_writes_rejects_its_hand_alone(new_several: SiteRun, tmp_path: Path,
                                                                       line: str, after: str) -> None:
    """A line the site never writes, in a hand's body or its summary, is not understood: that hand
    is rejected for it, every other hand reads as it did."""
    got = run_text(tmp_path, new_written_in(line, after))
    check_rejected_alone(got, new_several, NEW_HAND, line, NOT_UNDERSTOOD, "Player4")


def test_words_that_are_an_action_are_no_action_of_the_speaker(old_several: SiteRun, new_several: SiteRun,
                                                                 tmp_path: Path) -> None:
    """``Player KiWiKaKi: raises (12)`` and ``Player4: bets $2.05`` in the body are actions of players
    named ``KiWiKaKi:`` and ``Player4:`` (a name may hold ": "), whom the hands do not seat: each hand
    is rejected for it, never read as the speaker's action."""
    reason = "an action names a player who is not seated"
    line = "Player KiWiKaKi: raises (12)"
    got = run_text(tmp_path / "old", old_written_in(line, "*** FLOP ***"))
    check_rejected_alone(got, old_several, OLD_THIRD, line, reason, "KiWiKaKi")
    line = "Player4: bets $2.05"
    got = run_text(tmp_path / "new", new_written_in(line, "*** HOLE CARDS ***"))
    check_rejected_alone(got, new_several, NEW_HAND, line, reason, "Player4")
