"""Winamax logs: every sample file read, audited and placed as the site's record says."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pipeline.formats.logs.grammar import NOT_UNDERSTOOD, read
from pipeline.formats.logs.lines import LogLines
from pipeline.formats.sites import detect, winamax
from pipeline.formats.sources import UnknownFormatError

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

FILES = files_of("winamax")
#: The suite's hand to refuse: "Winaax Poker" (no hand starts), "*** ANTEBLINDS ***", "***" for the summary.
INVALID = "InValidHand_1.txt"
#: The files the site reads: every sample but the refused one, which no site claims.
READ = [path for path in FILES if path.name != INVALID]
#: The sample hands rejected: none (InValidHand_1 starts no hand: no site reads it).
REJECTED: dict[str, str] = {}
#: The sample hands whose record does not add up: none.  PostingDead's "calls 0.50€" should read
#: 1.00€ (0.50 live of the raise to 1.50 already in); the replay calls to the raise, and the total
#: pot (6.26 + 0.24 = 6.50 = 0.25 + 0.50 + 0.25 dead + 0.50 + 1.50 + 1.00 + 2.50) says so.
UNBALANCED: set[tuple[str, int]] = set()


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> SiteRun:
    return run_files(READ, tmp_path_factory.mktemp("winamax") / "out")


def by_file(run: SiteRun) -> pd.DataFrame:
    """The hands table indexed by file name (the first hand of a file of several)."""
    hands = run.hands.assign(file=file_of(run))
    return hands.drop_duplicates("file").set_index("file")


def seats_of(run: SiteRun, name: str, number: int = 1) -> pd.DataFrame:
    """The seats of hand ``number`` of the file ``name``, by player."""
    return run.seats[run.seats.hand_key == key_of(run, name, number)].set_index("player")


def actions_of(run: SiteRun, name: str, number: int = 1) -> pd.DataFrame:
    """The actions of hand ``number`` of the file ``name``, in order."""
    return run.actions[run.actions.hand_key == key_of(run, name, number)]


def key_of(run: SiteRun, name: str, number: int) -> int:
    """The hand key of hand ``number`` of the file ``name``."""
    hands = run.hands.assign(file=file_of(run), number=run.hands.hand_key & 0xFFFFFFFF)
    return int(hands[(hands.file == name) & (hands.number == number)].hand_key.iloc[0])


def test_every_sample_is_a_winamax_log_but_the_refused_one() -> None:
    assert len(FILES) == 36
    assert all(detect(path) is winamax.SITE for path in READ)
    assert detect(next(path for path in FILES if path.name == INVALID)) is None


def test_every_hand_ends_in_one_outcome(run: SiteRun) -> None:
    check_outcomes(run, REJECTED)
    assert run.summary["rows_read"] == 44
    assert set(run.hands.site.astype(str)) == {"Winamax"}
    # The samples that are copies of others (same hand id) are set apart, the first one read kept.
    assert run.summary["set_apart"] == {"duplicate": 7}


def test_showdowns_name_the_evaluators_winners(run: SiteRun) -> None:
    check_winners(run, at_least=6)


def test_net_is_minus_the_rake_where_the_record_adds_up(run: SiteRun) -> None:
    assert check_balances(run, UNBALANCED) == 37
    assert run.summary["expected"]["not_checked_inconsistent_record"] == 0


def test_positions_follow_the_button(run: SiteRun) -> None:
    assert check_positions(run) >= 30


def test_the_uncalled_bet_comes_out_of_the_collection_and_the_total_pot(run: SiteRun) -> None:
    """``morfrim collected 19.82€`` after his raise to 9.50 over a bet of 3.80 nobody called: 5.70
    of it was his own, and the pot is the 15.10 that stayed in; ``Total pot 19.82€ | Rake 0.98€``."""
    hands = by_file(run)
    assert hands.loc["NoLimitHoldem.txt"].pot == pytest.approx(15.10)
    assert hands.loc["NoLimitHoldem.txt"].rake == pytest.approx(0.98)
    seats = seats_of(run, "NoLimitHoldem.txt")
    assert seats.loc["morfrim"].received == pytest.approx(19.82 - 5.70)
    assert seats.loc["morfrim"].contributed == pytest.approx(2.50 + 3.80)
    # A walk: the blinds and the raise to 1.25 collected, the 0.75 nobody called taken back.
    assert seats_of(run, "FoldedPreflop.txt").loc["fanf4K UR0"].received == pytest.approx(2.00 - 0.75)
    # "No rake" is a rake of 0.
    assert hands.loc["FoldedPreflop.txt"].rake == 0.0


def test_a_table_numbered_from_0_is_numbered_from_1(run: SiteRun) -> None:
    """NoRake.txt seats its players 0 to 4, the button at ``Seat #0``: read as seats 1 to 5."""
    seats = seats_of(run, "NoRake.txt")
    assert seats.seat.to_dict() == {"mrotsim": 1, "BENJJJ111": 2, "kebab79": 3, "loveutou": 4, "1FlipMore": 5}
    assert seats.position.astype(str).to_dict() == {"mrotsim": "BTN", "BENJJJ111": "SB", "kebab79": "BB",
                                                    "loveutou": "HJ", "1FlipMore": "CO"}
    assert by_file(run).loc["NoRake.txt"].button_seat == 1
    # The big blind, posted first, collects the small one and its own blind back.
    assert seats.loc["kebab79"].received == pytest.approx(3.00 - 1.00)


def test_the_posts_out_of_position(run: SiteRun) -> None:
    """A player back at the table posts both blinds out of position: the small one dead, the big one live."""
    posts = actions_of(run, "PostingDead.txt")
    dbrz = posts[posts.player == "Dbrz34"]
    assert list(dbrz.action.astype(str))[:3] == ["post dead", "post", "check"]
    assert seats_of(run, "PostingDead.txt").loc["Dbrz34"].contributed == pytest.approx(0.25 + 1.50)
    wahil = actions_of(run, "Table3.txt")
    assert list(wahil[wahil.player == "WAHIL"].action.astype(str)) == ["post", "check", "fold"]


def test_a_player_who_does_not_act_is_not_dealt_in(run: SiteRun) -> None:
    """Winamax lists the players sitting out among the seats: ``()``, ``(0€)``, or a stack and no action."""
    assert "Player1" not in seats_of(run, "WithSittingOut.txt").index
    assert "Belle___Vue" not in seats_of(run, "10MultipleHands.txt", 3).index
    assert "anananas7" not in seats_of(run, "PotLimitFiveCardOmahaHiLo.txt").index
    assert by_file(run).loc["PotLimitFiveCardOmahaHiLo.txt"].outcome == "no showdown"


def test_the_summarys_mucked_is_a_loss_not_a_muck(run: SiteRun) -> None:
    """``Seat 1: Barthez91 (big blind) mucked`` follows his ``shows [8s Td]``: he showed and lost."""
    barthez = seats_of(run, "GeneralHand.txt").loc["Barthez91"]
    assert (barthez.showed, barthez.mucked, barthez.at_showdown, barthez.won) == (True, False, True, False)
    assert barthez.hole_cards == "8s Td"
    assert run.summary["mucked"] == 0


def test_games_and_their_betting(run: SiteRun) -> None:
    hands = by_file(run)
    expected = {"NoLimitHoldem.txt": ("holdem", "no-limit"), "PotLimitOmaha.txt": ("omaha", "pot-limit"),
                "UncalledBet.txt": ("omaha", "pot-limit"),
                "PotLimitFiveCardOmahaHiLo.txt": ("omaha-hilo", "pot-limit")}
    for name, (game, betting) in expected.items():
        assert (hands.loc[name].game, hands.loc[name].betting) == (game, betting), name
    assert hands.loc["UncalledBet.txt"].variant == "5 Card Omaha pot limit"
    assert seats_of(run, "WithSittingOut.txt").loc["HERO"].hole_cards == "Kc 8h Kd As"
    assert by_file(run).loc["PotLimitOmaha.txt"].outcome == "scored"


def test_cash_games_are_in_euros_and_tournaments_in_chips(run: SiteRun) -> None:
    hands = run.hands.assign(file=file_of(run))
    cash = hands[hands.tournament_id.isna()]
    assert set(cash.currency.astype(str)) == {"EUR"}
    assert hands[hands.tournament_id.notna()].currency.isna().all()
    general = by_file(run).loc["Table1.txt"]
    assert (general.small_blind, general.big_blind, general.max_seats) == (0.05, 0.10, 9)
    assert general.table == "Istanbul"


def test_tournaments(run: SiteRun) -> None:
    """``Tournament "BOOSTER" buyIn: €4.50 + €4.50 + €1 level: 4`` at ``BOOSTER(153100000)#052``."""
    hands = run.hands.assign(file=file_of(run))
    mtt = hands[hands.hand_id == "657563431500000000-1-1459000000"].iloc[0]
    assert (mtt.tournament_id, mtt.buy_in, mtt.level, mtt.ante) == ("153100000", 10.0, 4, 25.0)
    assert (mtt.small_blind, mtt.big_blind, mtt.table) == (150.0, 300.0, "BOOSTER(153100000)#052")
    sng = hands[hands.hand_id == "619672044606324737-7-1452193258"].iloc[0]
    # "buyIn: Ticket only": no amount written.
    assert (sng.tournament_id, sng.level, sng.game, sng.outcome) == ("144278641", 3, "omaha", "scored")
    assert pd.isna(sng.buy_in)


def test_times_are_utc(run: SiteRun) -> None:
    general = by_file(run).loc["GeneralHand.txt"]
    assert general.time == pd.Timestamp("2013-10-24 03:51:47", tz="UTC")
    assert general.time_zone == "UTC"


def test_the_older_clients_windows_1252_is_read(run: SiteRun, tmp_path: Path) -> None:
    """NoLimitHoldem.txt writes the euro as the byte 0x80: read as its UTF-8 copy is."""
    source = next(path for path in FILES if path.name == "NoLimitHoldem.txt")
    raw = source.read_bytes()
    assert b"\x80" in raw and not raw.startswith(b"\xef\xbb\xbf")
    copy = tmp_path / "utf8.txt"
    copy.write_bytes(raw.decode("cp1252").encode("utf-8"))
    read = kept_rows(run_files([copy], tmp_path / "utf8"))
    assert read == kept_rows(run_files([source], tmp_path / "cp1252"))


def test_the_suites_invalid_hand_is_refused_line_by_line(tmp_path: Path) -> None:
    """InValidHand_1 starts no hand ("Winaax Poker"): no site's file.  With its first line put right,
    it is a hand with lines no rule reads ("*** ANTEBLINDS ***", "***" for the summary)."""
    invalid = next(path for path in FILES if path.name == INVALID)
    with pytest.raises(UnknownFormatError, match="not a contest file or a hand history of"):
        run_files([invalid], tmp_path / "invalid")
    raw = invalid.read_bytes().replace(b"Winaax", b"Winamax", 1)
    summary = raw.replace(b"\n***\n", b"\n*** SUMMARY ***\n")
    for name, text, reason in (("header.txt", raw, "hand cut short: no summary line"),
                               ("summary.txt", summary, NOT_UNDERSTOOD)):
        fixed = tmp_path / name
        fixed.write_bytes(text)
        assert detect(fixed) is winamax.SITE
        got = run_files([fixed], tmp_path / name.removesuffix(".txt"))
        assert list(got.hands.outcome) == ["rejected"]
        assert reason in got.hands.reason.iloc[0]
    assert got.rejects.raw.iloc[0] == "*** ANTEBLINDS ***"


def test_a_hand_cut_short_is_rejected(tmp_path: Path) -> None:
    text = sample("GeneralHand.txt", "CashGame").split("*** SUMMARY ***")[0]
    short = tmp_path / "short.txt"
    short.write_text(text, encoding="utf-8")
    got = run_files([short], tmp_path / "out")
    assert list(got.hands.outcome) == ["rejected"]
    assert "cut short" in got.hands.reason.iloc[0]


# Hostile text: the same hands, written otherwise, read into the same rows.

def kept_rows(got: SiteRun, names: dict[str, str] | None = None) -> list[list[list[str]]]:
    """:func:`table_rows` of a run none of whose hands is rejected."""
    assert not (got.hands.outcome == "rejected").any(), got.hands.reason.tolist()
    return table_rows(got, names)


def sample(name: str, under: str = "") -> str:
    """A sample file's text, its byte-order mark left out."""
    path = next(path for path in FILES if path.name == name and under in str(path))
    return path.read_text(encoding="utf-8-sig")




HOSTILE = {"Barthez91": "Bart: calls 2€", "titi63000": "titi [8d Jd] raises 2€ to 4€",
           "Opponent1": "x collected 5€ from pot", "WM_Hero": "Seat 3: (4€)",
           "Player1": "Dealt to me", "Player2": "p2 shows [Ah]", "Player3": "Total pot 3 | No rake",
           "BENJJJ111": "Seat 0: (1€) folds", "kebab79": "*** SUMMARY ***"}




@pytest.mark.parametrize("name, under", [("GeneralHand.txt", "CashGame"), ("HeroName.txt", ""),
                                         ("GeneralHand.txt", "MultiTable"), ("NoRake.txt", "")])
def test_hostile_names_read_as_plain_ones(tmp_path: Path, name: str, under: str) -> None:
    text = sample(name, under)
    names = {old: new for old, new in HOSTILE.items() if old in text}
    assert names
    plain, hostile = tmp_path / "plain.txt", tmp_path / "hostile.txt"
    plain.write_text(text, encoding="utf-8")
    hostile.write_text(renamed(text, names), encoding="utf-8")
    read = kept_rows(run_files([hostile], tmp_path / "h"), names)
    assert read == kept_rows(run_files([plain], tmp_path / "p"))


def localised(text: str) -> str:
    """Decimal commas for the euros (``0,50€``) and spaces for the thousands (``20 000``, ``1 143,50€``),
    the header and the table's lines (ids, times, names) left as they are."""
    lines = []
    for line in text.split("\n"):
        if not line.startswith(("Winamax Poker", "Table: ")):
            line = re.sub(r"([0-9]+)\.([0-9]+)€", r"\1,\2€", line)
            line = re.sub(r"(?<=[ (])([0-9]{1,3})([0-9]{3})(?=,[0-9]+€|€|[ )]|$)", r"\1 \2", line)
        lines.append(line)
    return "\n".join(lines)


@pytest.mark.parametrize("name, under", [("GeneralHand.txt", "CashGame"), ("GeneralHand.txt", "MultiTable"),
                                         ("Limit3.txt", "CashGame")])
def test_localised_amounts_read_as_plain_ones(tmp_path: Path, name: str, under: str) -> None:
    text = sample(name, under)
    other = localised(text)
    assert other != text
    plain, written = tmp_path / "plain.txt", tmp_path / "localised.txt"
    plain.write_text(text, encoding="utf-8")
    written.write_text(other, encoding="utf-8")
    assert kept_rows(run_files([written], tmp_path / "l")) == kept_rows(run_files([plain], tmp_path / "p"))


def test_the_localised_amounts_are_those_meant() -> None:
    text = "Seat 1: Player1 (20000)\nPlayer1 collected 1175 from pot\nTotal pot 14.02€ | Rake 0.98€"
    assert localised(text) == ("Seat 1: Player1 (20 000)\nPlayer1 collected 1 175 from pot\n"
                               "Total pot 14,02€ | Rake 0,98€")


@pytest.mark.parametrize("end", ["\r\n", "\r"])
def test_line_ends_and_byte_order_marks(tmp_path: Path, end: str) -> None:
    """Two hands pasted together, each with its mark, with CR LF or CR line ends."""
    text = sample("10MultipleHands.txt")
    plain, other = tmp_path / "plain.txt", tmp_path / "other.txt"
    plain.write_text(text, encoding="utf-8")
    marked = "\ufeff" + text.replace("\n\n\n\n\nWinamax Poker", "\n\n\ufeffWinamax Poker")
    other.write_bytes(marked.replace("\n", end).encode("utf-8"))
    assert kept_rows(run_files([other], tmp_path / "o")) == kept_rows(run_files([plain], tmp_path / "p"))


#: Lines Winamax never writes: its logs hold no chat (no sample holds any, and neither the public C#
#: parser's Winamax grammar nor fpdb's reads one), so a player's words are never read, even shaped as
#: an action.  Each is TORINOFA's, who posts, calls a raise, bets and collects in the third hand of
#: 10MultipleHands.
NEVER_WRITTEN = ["TORINOFA: gl", 'TORINOFA said, "raises 6€ to 12€"', "TORINOFA: raises 6€ to 12€ lol"]
#: The id of the third hand of 10MultipleHands.
THIRD = "5334642-853-1383822121"


def written_in(line: str, after: str) -> str:
    """10MultipleHands with ``line`` in its third hand, after that hand's line ``after``."""
    text = sample("10MultipleHands.txt")
    hand = re.split(r"(?m)^(?=Winamax Poker - )", text)[3]
    assert f"HandId: #{THIRD} " in hand and text.count(hand) == 1
    return text.replace(hand, inserted(hand, line, after))


@pytest.fixture(scope="module")
def several(tmp_path_factory: pytest.TempPathFactory) -> SiteRun:
    return run_text(tmp_path_factory.mktemp("several"), sample("10MultipleHands.txt"))


# The body's first line after the blinds, and the summary's first.
@pytest.mark.parametrize("after", ["*** PRE-FLOP ***", "*** SUMMARY ***"])
@pytest.mark.parametrize("line", NEVER_WRITTEN)
def test_a_line_the_site_never_writes_rejects_its_hand_alone(several: SiteRun, tmp_path: Path, line: str,
                                                            after: str) -> None:
    """A line the site never writes, in a hand's body or its summary, is not understood: that hand
    is rejected for it, every other hand reads as it did."""
    got = run_text(tmp_path, written_in(line, after))
    check_rejected_alone(got, several, THIRD, line, NOT_UNDERSTOOD, "TORINOFA")


def test_words_that_are_an_action_are_no_action_of_the_speaker(several: SiteRun, tmp_path: Path) -> None:
    """``TORINOFA: raises 6€ to 12€`` in the body is a raise of a player named ``TORINOFA:`` (a name may
    hold ": "), whom the hand does not seat: the hand is rejected for it, never read as TORINOFA's."""
    line = "TORINOFA: raises 6€ to 12€"
    got = run_text(tmp_path, written_in(line, "*** PRE-FLOP ***"))
    check_rejected_alone(got, several, THIRD, line, "an action names a player who is not seated", "TORINOFA")


def test_a_cet_time_is_read_in_utc(tmp_path: Path) -> None:
    text = sample("GeneralHand.txt", "CashGame").replace("03:51:47 UTC", "05:51:47 CEST")
    path = tmp_path / "cest.txt"
    path.write_text(text, encoding="utf-8")
    got = run_files([path], tmp_path / "out").hands.iloc[0]
    assert (got.time, got.time_zone) == (pd.Timestamp("2013-10-24 03:51:47", tz="UTC"), "CEST")


def test_the_uncalled_bet_is_left_where_the_record_does_not_hold_it() -> None:
    """A collection that does not hold the uncalled bet (the record adding up without it) is kept."""
    text = sample("FoldedPreflop.txt").replace("collected 2€", "collected 1.25€").replace(
        "Total pot 2€", "Total pot 1.25€").encode()
    newlines = np.flatnonzero(np.frombuffer(text, np.uint8) == ord("\n"))
    record, _ = read(winamax.Winamax, LogLines(text, newlines, winamax.Winamax.hand_start),
                     np.zeros(0, np.int64), 1, 0)
    assert np.nansum(record.received) == pytest.approx(1.25)
    assert record.pot.tolist() == [1.25]
