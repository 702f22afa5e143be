"""PartyPoker logs: every sample file read, audited and placed as the site's record says."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from pipeline.formats.sites import detect, partypoker
from pipeline.formats.sources import head_of

from .sites import DATA, check_balances, check_outcomes, check_positions, check_winners, files_of, run_files

FILES = files_of("partypoker")
#: Two files of the suite hold a byte-order mark and nothing else: no hand, no site.
EMPTY = {"4 Max.txt", "Full Ring (10 Handed).txt"}
READ = [path for path in FILES if path.name not in EMPTY]
#: The hands refused, each for its reason.
REJECTED = {
    # The suite's invalid hand is its valid one without the last line: nobody wins.
    "InValidHand_1.txt": "hand cut short: no collect line",
    # It ends at "agaviriat does not show cards.": cut short the same way.
    "Limit6.txt": "hand cut short: no collect line",
    # "WolfgangCutler raises [$5 USD]": an actor with no seat line.
    "WithAnonomous.txt": "an action names a player who is not seated",
}
#: The two PartyPoker hands the suite keeps among 888poker's.
IN_888_FOLDER = ("CashGame/GameTypeTests/PotLimitHoldem.txt", "CashGame/PlayerTests/WithSittingOut.txt")


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory):
    return run_files(READ, tmp_path_factory.mktemp("partypoker") / "out")


def hands_of(run) -> pd.DataFrame:
    """The hands table with each hand's file and its number there."""
    return run.hands.assign(file=run.hands.source.astype(str).map(lambda text: Path(text).name),
                            number=run.hands.hand_key & 0xFFFFFFFF)


def hand_of(run, name: str, number: int = 1) -> pd.Series:
    """The hand ``number`` of the file ``name`` (the first of the files so named)."""
    hands = hands_of(run)
    return hands[(hands.file == name) & (hands.number == number)].iloc[0]


def seats_of(run, name: str, number: int = 1) -> pd.DataFrame:
    return run.seats[run.seats.hand_key == hand_of(run, name, number).hand_key].set_index("player")


def actions_of(run, name: str, number: int = 1) -> pd.DataFrame:
    return run.actions[run.actions.hand_key == hand_of(run, name, number).hand_key]


def test_every_sample_is_a_partypoker_log() -> None:
    assert len(FILES) == 47 and len(READ) == 45
    assert all(detect(path) is partypoker.SITE for path in READ)
    # "#Game No : N" and "Game #N starts." may come before the first hand.
    assert {path.name for path in READ if not head_of(path).startswith(b"*****")} == {
        "PotLimitHoldem.txt", "5MultipleHands.txt"}
    assert all(detect(path) is None for path in FILES if path.name in EMPTY)


def test_partypoker_hands_among_888pokers_are_recognised_and_888pokers_are_not() -> None:
    folder = DATA / "888poker"
    for name in IN_888_FOLDER:
        assert partypoker.SITE.recognises(head_of(folder / name))
    others = [path for path in files_of("888poker")
              if path.relative_to(folder).as_posix() not in IN_888_FOLDER]
    assert others and not any(partypoker.SITE.recognises(head_of(path) or b"") for path in others)


def test_every_hand_ends_in_one_outcome(run) -> None:
    check_outcomes(run, REJECTED)
    assert run.summary["rows_read"] == 58
    assert set(run.hands.site.astype(str)) == {"PartyPoker"}
    # Hand ids written twice: 1458965856 four times in 5MultipleHands.txt, HeadsUp.txt is
    # OmahaShowdown.txt, and the two tournament files are one hand.
    assert run.summary["set_apart"] == {"duplicate": 5}


def test_showdowns_name_the_evaluators_winners(run) -> None:
    check_winners(run, at_least=17)


def test_net_is_minus_the_rake_where_the_record_adds_up(run) -> None:
    assert check_balances(run) == 50


def test_the_rake_is_what_partypoker_takes(run) -> None:
    """The site writes no rake: what the pot keeps of the chips put in, once the uncalled bets are
    out of what the players win, is 0 to 5 % of the pot, at most $3, and nothing without a flop."""
    hands = hands_of(run)
    kept = hands[~hands.outcome.isin(["rejected", "set apart"])]
    assert len(kept) == 50
    assert ((kept.rake >= 0) & (kept.rake <= 0.05 * kept.pot + 0.005) & (kept.rake <= 3)).all()
    no_flop = kept[kept.board.isna() | (kept.board.astype(str) == "")]
    assert len(no_flop) == 12 and (no_flop.rake == 0).all(), no_flop[["file", "rake"]]


def test_what_a_player_wins_holds_its_uncalled_bet(run) -> None:
    """``wins $5.18 USD`` is the pot less the rake (3.04) and the raise nobody called (2.14)."""
    three_bet = seats_of(run, "3BetHand.txt")
    assert three_bet.loc["Kelevra_91", "received"] == pytest.approx(3.04)
    assert hand_of(run, "3BetHand.txt").rake == pytest.approx(0.16)
    # The big blind's "wins $0.15 USD" when the small blind folds: 0.05 of it was its own.
    folded = seats_of(run, "FoldedPreflop.txt")
    assert (folded.loc["udob57", "received"], folded.loc["udob57", "net"]) == (pytest.approx(0.10),
                                                                               pytest.approx(0.05))
    # "wins $1.87 USD from the side pot 1": the part of the all-in that nobody could call.
    all_in = seats_of(run, "AllInHandWithShowdown.txt")
    assert all_in.loc["dr. spaz", "received"] == pytest.approx(20.66)
    assert all_in.loc["dr. spaz", "contributed"] == pytest.approx(8.13)


def test_positions_follow_the_button(run) -> None:
    assert check_positions(run) >= 54


@pytest.mark.parametrize(("name", "game", "betting", "small", "big"), [
    ("FixedLimitHoldem.txt", "holdem", "fixed-limit", None, 0.05),
    ("Limit4.txt", "holdem", "fixed-limit", None, 30.0),
    ("PotLimitHoldem.txt", "holdem", "pot-limit", None, None),
    ("PotLimitOmaha.txt", "omaha", "pot-limit", None, None),
    ("PotLimitOmahaHiLo.txt", "omaha-hilo", "pot-limit", None, None),
    ("Posting.txt", "holdem", "no-limit", 1.0, 2.0),
])
def test_games_and_their_stakes(run, name, game, betting, small, big) -> None:
    """A limit table's stakes are its bets (the big blind is the first); one amount is the table's
    buy-in cap: no blinds."""
    hand = hand_of(run, name)
    assert (hand.game, hand.betting, hand.currency) == (game, betting, "USD")
    for value, expected in ((hand.small_blind, small), (hand.big_blind, big)):
        assert pd.isna(value) if expected is None else value == pytest.approx(expected)


def test_omaha_hands_deal_four_cards_and_hi_lo_splits(run) -> None:
    hand = hand_of(run, "OmahaHiLo.txt")
    assert (hand.game, hand.outcome) == ("omaha-hilo", "scored")
    seats = seats_of(run, "OmahaHiLo.txt")
    assert seats.loc["robertp10", "hole_cards"] == "Kh Kd 4c Ac"
    # "wins Lo ($28.75 USD) from the main pot"; the high hand's 29.75 held a raise of 1 not called.
    assert seats.loc["fistfock123", "received"] == pytest.approx(28.75)
    assert seats.loc["robertp10", "received"] == pytest.approx(28.75)
    assert hand_of(run, "OmahaHiLoShowdown.txt").outcome == "scored"
    assert partypoker.PartyPoker.game_of("FL 7 Card Stud") is None


def test_the_tournament(run) -> None:
    hands = hands_of(run)
    hand = hands[(hands.file == "NoLimitHoldem.txt") & hands.tournament_id.notna()].iloc[0]
    assert (hand.tournament_id, hand.buy_in, hand.level, hand.ante) == ("125049467", 22.0, 12, 400.0)
    assert pd.isna(hand.currency) and pd.isna(hand.big_blind)
    assert hand.table == "Powerfest #081. $10,000 Gtd 6-Max Turbo. (125049467) Table #41"
    seats = run.seats[run.seats.hand_key == hand.hand_key].set_index("player")
    # "wins 6,000 chips": six antes, the blinds, and 1,200 of the big blind nobody called.
    assert seats.loc["smultrontutten", "received"] == pytest.approx(4800)
    assert seats.loc["smultrontutten", "starting_stack"] == pytest.approx(47455)
    assert seats.loc["smultrontutten", "hole_cards"] == "4h 4s"


def test_times_are_utc_by_the_zone_written(run) -> None:
    for name, utc, zone in (("GeneralHand.txt", "2014-01-06 09:15:12", "EST"),
                            ("HeroName.txt", "2013-06-01 22:19:22", "EDT"),
                            ("PlayerLeavingTable.txt", "2013-11-01 07:40:12", "CET"),
                            ("WithAnonomous.txt", "2015-10-11 23:01:01", "CEST")):
        hand = hand_of(run, name)
        assert (hand.time, hand.time_zone) == (pd.Timestamp(utc, tz="UTC"), zone), name


def test_a_seat_is_dealt_in_when_its_player_acts(run) -> None:
    """Players sitting out are seated, mostly without a word: those who never act are not dealt in."""
    assert "miccetta1" not in seats_of(run, "FixedLimitHoldem.txt").index
    assert hand_of(run, "FixedLimitHoldem.txt").players == 6
    assert "Mirrion" not in seats_of(run, "WithSittingOut.txt").index  # "Mirrion is sitting out"
    assert "KASMAR33" not in seats_of(run, "PotLimitOmaha.txt").index  # ( $0 USD ), has left
    assert {"V0LK", "thieme81"}.isdisjoint(seats_of(run, "Table4.txt").index)


def test_posts(run) -> None:
    """``posts big blind + dead [$3]``: the small blind dead, the big blind live; a small blind
    posted after the hand's own is live, its poster calling the rest of the big blind."""
    posting = actions_of(run, "Posting.txt")
    peacli = posting[posting.player == "Peacli"]
    assert list(zip(peacli.action.astype(str), peacli.amount))[:3] == [("post dead", 1.0), ("post", 2.0),
                                                                        ("raise", 2.0)]
    table2 = actions_of(run, "Table2.txt")
    hugo = table2[table2.player == "hugomarcia"]
    assert list(zip(hugo.action.astype(str), hugo.amount))[:2] == [("post", 0.05), ("call", 0.05)]
    assert hand_of(run, "Table2.txt").pot == pytest.approx(0.5)


def test_all_in_is_a_bet_a_raise_or_a_call(run) -> None:
    actions = actions_of(run, "AllInHandWithShowdown.txt")
    all_in = actions[actions.all_in]
    assert list(zip(all_in.player, all_in.action.astype(str), all_in.amount)) == [
        ("dr. spaz", "bet", 4.90), ("TYRANNOMAN1", "call", 3.03)]
    omaha = actions_of(run, "OmahaHiLo.txt")
    assert list(omaha[omaha.all_in].action.astype(str)) == ["call"]


def test_hole_cards_of_the_hero(run) -> None:
    assert seats_of(run, "HeroName.txt").loc["PP_Hero", "hole_cards"] == "Jc Kd"


# --- Hostile text: each variant of the same hands must read as they do. -------------------------

def _sample(*parts: str) -> str:
    return (DATA / "partypoker" / Path(*parts)).read_text(encoding="utf-8-sig")


#: Hands with an all-in and side pots, a dead post, hi-lo, thousands, a late small blind, a tournament.
BASE = "\n\n".join(_sample(*name.split("/")).strip() for name in (
    "CashGame/HandActionTests/AllInHandWithShowdown.txt", "CashGame/HandActionTests/Posting.txt",
    "CashGame/HandActionTests/OmahaHiLo.txt", "CashGame/GameTypeTests/PotLimitOmaha.txt",
    "CashGame/Tables/Table2.txt", "MultiTableTournament/GeneralHands/GeneralHand.txt")) + "\n"
#: Names with colons, brackets and the site's own words.
HOSTILE = {"dr. spaz": "a: b [c]", "TYRANNOMAN1": "x calls [$1 USD] wins $2 USD", "Peacli": "raises 2 to 4",
           "peace_da_ball": "Seat 9: folds", "robertp10": "Dealt to (me)", "neohacks": "y shows [ Ah, Kh ]",
           "smultrontutten": "z: is all-In  [400]"}


def _renamed(text: str) -> str:
    for plain, hostile in HOSTILE.items():
        name = re.escape(plain)
        text = re.sub(rf"(?m)(?<=^Seat \d: ){name}(?= \()|(?<=^Seat \d\d: ){name}(?= \()|^{name}(?= )"
                      rf"|(?<=^Dealt to ){name}(?= \[)", hostile, text)
    return text


def _chatty(text: str) -> str:
    return re.sub(r"(?m)^(\*\* Dealing .*)$", r"\1\ndr. spaz: gl: hf\nTYRANNOMAN1: wow [really]?", text)


def _amounts(text: str, pattern: str, written) -> str:
    """The amounts of every line but the table's (a name, whose text is kept) written anew."""
    return "".join(line if line.startswith("Table ") else re.sub(pattern, written, line)
                   for line in text.splitlines(keepends=True))


def _localised(text: str) -> str:
    """``$1,658.38 USD`` as ``1 658,38 $ USD``."""
    def amount(match: re.Match[str]) -> str:
        whole, cents = match.group(1).replace(",", " "), match.group(2)
        return f"{whole},{cents} $" if cents else f"{whole} $"
    return _amounts(text, r"\$([0-9][0-9,]*)(?:\.([0-9]+))?", amount)


VARIANTS = {
    "plain": BASE.encode(),
    "bom_crlf": b"\xef\xbb\xbf" + BASE.replace("\n", "\r\n").encode(),
    "cr": BASE.replace("\n", "\r").encode(),
    "names": _renamed(BASE).encode(),
    "chat": _chatty(BASE).encode(),
    "no_separators": _amounts(BASE, r"(?<=[0-9]),(?=[0-9]{3})", "").encode(),
    "localised": _localised(BASE).encode(),
}


@pytest.fixture(scope="module")
def variants(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[pd.DataFrame, ...]]:
    found = {}
    for name, data in VARIANTS.items():
        folder = tmp_path_factory.mktemp(name)
        path = folder / f"{name}.txt"
        path.write_bytes(data)
        read = run_files([path], folder / "out")
        back = {hostile: plain for plain, hostile in HOSTILE.items()} if name == "names" else {}
        tables = []
        for table in (read.hands.drop(columns=["source"]), read.seats, read.actions):
            table = table.copy()
            if "player" in table:
                table["player"] = table.player.astype(str).replace(back)
            tables.append(table.reset_index(drop=True))
        found[name] = tuple(tables)
    return found


def test_the_plain_variant_reads_every_hand(variants) -> None:
    hands = variants["plain"][0]
    assert len(hands) == 6 and set(hands.outcome) <= {"scored", "no showdown"}


@pytest.mark.parametrize("name", [name for name in VARIANTS if name != "plain"])
def test_hostile_text_reads_as_the_plain_hands(variants, name) -> None:
    for got, plain in zip(variants[name], variants["plain"]):
        pd.testing.assert_frame_equal(got.astype(str), plain.astype(str))
