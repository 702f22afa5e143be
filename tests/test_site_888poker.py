"""888poker logs: every sample file read, audited and placed as the site's record says."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from pipeline.formats.logs.grammar import NOT_UNDERSTOOD
from pipeline.formats.sites import detect, poker888
from pipeline.formats.sources import head_of

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

FILES = files_of("888poker")
#: Files of the folder that are no 888poker log: two of PartyPoker's (``***** Hand History for Game``,
#: no skin named; the first opens with ``#Game No : N`` as 888's may) and two holding a byte-order mark alone.
NOT_888 = {"PotLimitHoldem.txt", "WithSittingOut.txt", "4 Max.txt", "Full Ring (10 Handed).txt"}
#: The files the site reads.
READ = [path for path in FILES if path.name not in NOT_888]
#: The suite's hand to refuse: its flop deals two cards, and it stops before its summary.
INVALID = "InValidHand_1.txt"
#: The sample hands whose record does not add up: none (see test_the_chips_put_in_are_collected_or_raked).
UNBALANCED: set[tuple[str, int]] = set()


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> SiteRun:
    return run_files(READ, tmp_path_factory.mktemp("888poker") / "out")


def by_file(run: SiteRun) -> pd.DataFrame:
    """The hands table indexed by file name (a hand a file)."""
    return run.hands.assign(file=file_of(run)).drop_duplicates("file").set_index("file")


def seats_of(run: SiteRun, name: str) -> pd.DataFrame:
    """The seats of the hand of the file ``name``, by player."""
    return run.seats[run.seats.hand_key == by_file(run).loc[name].hand_key].set_index("player")


def actions_of(run: SiteRun, name: str) -> pd.DataFrame:
    return run.actions[run.actions.hand_key == by_file(run).loc[name].hand_key]


def test_every_888_sample_is_an_888poker_log() -> None:
    assert len(FILES) == 43 and len(READ) == 39
    assert all(detect(path) is poker888.SITE for path in READ)
    assert not any(detect(path) is poker888.SITE for path in FILES if path.name in NOT_888)
    # Cassava's file opens with "#Game No : 184089742", the hand's header after it.
    cassava = next(path for path in READ if path.name == "NoLimitOmaha.txt")
    head = head_of(cassava)
    assert head is not None and head.startswith(b"#Game No : ") and poker888.SITE.recognises(head)


def test_every_hand_ends_in_one_outcome(run: SiteRun) -> None:
    check_outcomes(run, {INVALID: "hand cut short: no collect line"})
    assert run.summary["rows_read"] == 39
    assert set(run.hands.site.astype(str)) == {"888poker"}
    # The folder holds three hands twice (GeneralHand and BasicHand, Table2 and Full Ring (9 Handed),
    # the suite's valid hand and its invalid copy): the second of each read is set apart.
    assert sorted(run.hands[run.hands.outcome == "set apart"].reason.astype(str)) == ["duplicate"] * 2


def test_showdowns_name_the_evaluators_winners(run: SiteRun) -> None:
    check_winners(run, at_least=13)


def test_net_is_minus_the_rake_where_the_record_adds_up(run: SiteRun) -> None:
    assert check_balances(run, UNBALANCED) == 36


def test_positions_follow_the_button(run: SiteRun) -> None:
    assert check_positions(run) >= 36


#: Hands replayed by hand: the chips put in (the uncalled bet back), and the rake (the pot less the
#: collections as written, less the blind nobody matched that they hold, see poker888.amend).
POTS = {
    # raises [$70], raises [$200] over the BB's 20 (220), calls [$150] (70 + 150); flop bets [$275],
    # raises [$1,275], raises [$1,524] (the rest of 2,019), calls [$524]: 10 + 220 + 220 + 1,799 * 2.
    "DealingCardsMissing2.txt": (4048.0, 4.0),
    # river bets [$6.55], raises [$101.66] (all of it), calls [$89.83] (all of it): 5.28 back.
    "AllInHandWithShowdown.txt": (201.5, 4.0),
    "3BetHand.txt": (36.10, 1.80),  # the river's bets [$36.10] back
    "WithShowdown.txt": (12.0, 0.60),  # raises [$2.50] over the SB's 0.50, calls [$2]: 3 each
    "PostingDead.txt": (6.0, 0.30),  # 1 + 2 + (1 dead + 2 live); collected 5.70
    "OmahaHiLo.txt": (2.0, 0.10),  # collected [ $0.95 ] twice: the high and the low half
    "Table1.txt": (0.10, 0.0),  # a walk: collected [ $0.15 ], the BB's 0.05 unmatched
    "NoHoleCards.txt": (1.0, 0.0),  # a walk: collected [ $1.50 ], the BB's 0.50 unmatched
    "Limit5.txt": (0.0, 0.0),  # a small blind alone: collected [ 25 $ ], its own
    "FoldedPreflop.txt": (2.5, 0.0),  # raises [$2], all fold: collected [ $2.50 ], the raise's 1 back
    "NoLimitOmaha.txt": (200.0, 0.0),  # raises [$2,091] (all of it), folds: 2,041 back
}


def test_the_chips_put_in_are_collected_or_raked(run: SiteRun) -> None:
    """888poker writes no total pot nor rake: the collections plus the uncalled bets are the chips put
    in less a rake of 0 to 5 % (none where no flop is dealt), hand by hand."""
    hands = by_file(run)
    for name, (pot, rake) in POTS.items():
        assert (hands.loc[name].pot, hands.loc[name].rake) == (pytest.approx(pot), pytest.approx(rake)), name
    kept = run.hands[run.hands.outcome != "rejected"]
    assert kept.rake.notna().all()
    assert ((kept.rake >= -1e-9) & (kept.rake <= 0.05 * kept.pot + 0.005)).all()
    no_flop = kept.board.fillna("").astype(str) == ""
    assert no_flop.sum() == 10 and (kept.rake[no_flop].abs() < 1e-9).all()
    seats = run.seats[run.seats.hand_key.isin(kept.hand_key)].groupby("hand_key")
    assert (seats.contributed.sum() - kept.set_index("hand_key").pot).abs().max() < 1e-9


def test_a_walk_wins_the_small_blind(run: SiteRun) -> None:
    seats = seats_of(run, "Table1.txt")
    big_blind = seats.loc["Raiseman13"]
    assert (big_blind.received, big_blind.net) == (pytest.approx(0.10), pytest.approx(0.05))
    assert seats.loc["Mikeloff"].net == pytest.approx(-0.05)
    alone = seats_of(run, "Limit5.txt")
    assert (alone.net == 0).all()


def test_a_collection_without_the_unmatched_blind_is_kept(tmp_path: Path) -> None:
    """Only a collection that holds the unmatched blind (more than the pot) loses it."""
    path = tmp_path / "walk.txt"
    text = sample("Table1.txt").replace("collected [ $0.15 ]", "collected [ $0.10 ]")
    path.write_text(text, encoding="utf-8")
    seats = run_files([path], tmp_path / "out").seats.set_index("player")
    assert (seats.loc["Raiseman13"].received, seats.loc["Raiseman13"].net) == (0.10, pytest.approx(0.05))


def test_raises_add_chips(run: SiteRun) -> None:
    """``raises [$2.50]`` over a posted $0.50 is a raise to $3; a re-raise over a bet adds to it."""
    actions = actions_of(run, "WithShowdown.txt")
    raised = actions[actions.action == "raise"].iloc[0]
    assert (raised.player, raised.amount, raised.to) == ("Akisto", 2.5, 3.0)
    flop = actions_of(run, "DealingCardsMissing2.txt")
    flop = flop[(flop.street == "flop") & (flop.action == "raise")]
    assert flop.to.tolist() == [1275.0, 1799.0] and bool(flop.all_in.iloc[-1])


def test_the_dead_blind_is_the_small_blind_dead_and_the_big_blind_live(run: SiteRun) -> None:
    actions = actions_of(run, "PostingDead.txt")
    posts = actions[actions.player == "GYAMEPRO"].iloc[:3]
    assert posts.action.astype(str).tolist() == ["post dead", "post", "check"]
    assert posts.amount.tolist() == [1.0, 2.0, 0.0]
    assert seats_of(run, "PostingDead.txt").loc["GYAMEPRO"].net == pytest.approx(5.70 - 3.0)


def test_entry_posts_and_a_blind_folding_for_nothing(run: SiteRun) -> None:
    """A second ``posts big blind`` is a post to enter; the big blind may fold with nothing to call."""
    actions = actions_of(run, "AllInHandWithShowdown.txt")
    assert actions[actions.player == "dynamoz6"].action.astype(str).iloc[0] == "post"
    seats = seats_of(run, "DealingCardsMissing.txt")
    assert seats.loc["Player2"].folded_street == "preflop" and seats.loc["Player1"].net == pytest.approx(4.0)


def test_hi_lo_halves_are_one_collection(run: SiteRun) -> None:
    assert seats_of(run, "OmahaHiLo.txt").loc["hank1967"].received == pytest.approx(1.90)


def test_cards_of_a_swedish_client(run: SiteRun) -> None:
    """``shows [ Ec, Knc, 3h, 3c ]``: an ace, a jack (``Kn``) and a queen (``D``), in Swedish."""
    seats = seats_of(run, "SpecialCards.txt")
    assert seats.loc["alexepro"].hole_cards == "Ac Jc 3h 3c"
    assert seats.loc["Mpodafone"].hole_cards == "Js Th 5c Qc"
    assert by_file(run).loc["SpecialCards.txt"].outcome == "scored"


def test_localised_stacks(run: SiteRun) -> None:
    """``1 192,48 $`` (a no-break space) and ``3Â 023,50 $`` (one read in the wrong encoding)."""
    assert seats_of(run, "SpecialCards.txt").loc["ilovepinot"].starting_stack == pytest.approx(1192.48)
    assert seats_of(run, "Limit5.txt").loc["FFSim2rich"].starting_stack == pytest.approx(3023.50)
    assert seats_of(run, "NoLimitOmaha.txt").loc["cuthroateddy"].starting_stack == pytest.approx(4744.48)


def test_games_and_their_betting(run: SiteRun) -> None:
    hands = by_file(run)
    expected = {"NoLimitHoldem.txt": ("holdem", "no-limit"),
                "FixedLimitHoldem.txt": ("holdem", "fixed-limit"),
                "PotLimitOmaha.txt": ("omaha", "pot-limit"), "NoLimitOmaha.txt": ("omaha", "no-limit"),
                "PotLimitOmahaHiLo.txt": ("omaha-hilo", "pot-limit"), "Table5.txt": ("holdem", "no-limit")}
    for name, (game, betting) in expected.items():
        assert (hands.loc[name].game, hands.loc[name].betting) == (game, betting), name
    assert hands.loc["PotLimitOmahaHiLo.txt"].variant == "Pot Limit OmahaHL"
    assert hands.loc["Table5.txt"].variant == "No Limit Holdem"  # "... Jackpot table": a table, no game
    assert set(run.hands.currency.astype(str)) == {"USD"}  # "$0.50/$1" and "2 $/4 $" alike


def test_the_header_and_the_table(run: SiteRun) -> None:
    hands = by_file(run)
    special = hands.loc["SpecialCards.txt"]
    assert (special.hand_id, special.table, special.max_seats) == ("531071379", "Caserta", 6)
    assert special.button_seat == 4
    assert (special.small_blind, special.big_blind) == (2.0, 4.0)
    cassava = hands.loc["NoLimitOmaha.txt"]  # "Table Goiania (Real Money)": no seats written
    assert (cassava.hand_id, cassava.table, pd.isna(cassava.max_seats)) == ("184089742", "Goiania", True)
    assert hands.loc["HeroName.txt"].hand_id == "5512058461"  # LuckyAcePoker.com, a skin of the network
    assert hands.loc["Table5.txt"].max_seats == 10


def test_no_zone_is_written_so_no_time(run: SiteRun) -> None:
    assert run.hands.time.isna().all()


def test_the_heros_cards(run: SiteRun) -> None:
    assert seats_of(run, "HeroName.txt").loc["PAC_Hero"].hole_cards == "3d Jc"


# Text written for the tests: the samples' hands, written otherwise.

def sample(name: str) -> str:
    """A sample file's text, its byte-order mark left out."""
    return next(path for path in READ if path.name == name).read_text(encoding="utf-8-sig")




def test_the_suites_invalid_hand_is_refused_line_by_line(tmp_path: Path) -> None:
    """Given its summary, the suite's invalid hand is still refused: its flop deals two cards."""
    summary = "** Summary **\nKarwendel1 did not show his hand\nKarwendel1 collected [ $0.29 ]\n"
    text = sample(INVALID) + "\n" + summary
    path = tmp_path / "invalid.txt"
    path.write_text(text, encoding="utf-8")
    got = run_files([path], tmp_path / "out")
    assert (got.hands.outcome.iloc[0], got.hands.reason.iloc[0]) == ("rejected", NOT_UNDERSTOOD)


def test_a_hand_cut_after_its_summary_line_is_rejected(tmp_path: Path) -> None:
    text = sample("WithShowdown.txt").split("ManakaReg shows")[0]
    path = tmp_path / "short.txt"
    path.write_text(text, encoding="utf-8")
    got = run_files([path], tmp_path / "out")
    assert got.hands.reason.iloc[0] == "hand cut short: no collect line"


HOSTILE = {"ManakaReg": "Manaka: calls [$2]", "Akisto": "Aki [Ac, Tc] raises 2 to 4",
           "FCSM_1935": "x collected [ $5 ]", "silas_tomkyn": "Seat 3: ( $4 )", "PAC_Hero": "Dealt to me",
           "Player4": "p4 shows [ Ah, Kd ]", "Player1": "** Summary **", "Player2": "did not show his hand"}




@pytest.mark.parametrize("name", ["WithShowdown.txt", "GeneralHand.txt", "HeroName.txt"])
def test_hostile_names_read_as_plain_ones(tmp_path: Path, name: str) -> None:
    text = sample(name)
    names = {old: new for old, new in HOSTILE.items() if old in text}
    assert names
    plain, hostile = tmp_path / "plain.txt", tmp_path / "hostile.txt"
    plain.write_text(text, encoding="utf-8")
    hostile.write_text(renamed(text, names), encoding="utf-8")
    read = table_rows(run_files([hostile], tmp_path / "h"), names)
    assert read == table_rows(run_files([plain], tmp_path / "p"))


def localised(text: str) -> str:
    """Amounts as a European client writes them: the sign after, a decimal comma, spaces (no-break
    ones) for the thousands: ``$1,524`` is ``1 524 $``, ``$0.50`` ``0,50 $``; ids and times as they are."""
    def written(found: re.Match[str]) -> str:
        whole, cents = found.group(1).replace(",", ""), found.group(2)
        grouped = re.sub(r"(?<=[0-9])(?=(?:[0-9]{3})+$)", "\u00a0", whole)
        return f"{grouped},{cents} $" if cents else f"{grouped} $"

    return re.sub(r"\$([0-9][0-9,]*)(?:\.([0-9]+))?", written, text)


def test_the_localised_amounts_are_those_meant() -> None:
    assert localised("Seat 1: P ( $2,964.25 )\nP raises [$1,275]\nP collected [ $0.38 ]") == \
        "Seat 1: P ( 2\u00a0964,25 $ )\nP raises [1\u00a0275 $]\nP collected [ 0,38 $ ]"


@pytest.mark.parametrize("name", ["WithShowdown.txt", "DealingCardsMissing2.txt", "PostingDead.txt"])
def test_localised_amounts_read_as_plain_ones(tmp_path: Path, name: str) -> None:
    text = sample(name)
    other = localised(text)
    assert other != text
    plain, written = tmp_path / "plain.txt", tmp_path / "localised.txt"
    plain.write_text(text, encoding="utf-8")
    written.write_text(other, encoding="utf-8")
    assert table_rows(run_files([written], tmp_path / "l")) == table_rows(run_files([plain], tmp_path / "p"))


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"])
def test_hands_pasted_together_with_their_game_numbers_and_marks(tmp_path: Path, end: str) -> None:
    """Three hands in one file, as the client saves them (``#Game No : N`` before each, a blank line
    after), each with its byte-order mark, with LF, CR LF or CR line ends: the hands of three files."""
    texts = [one_hand(name) for name in SEVERAL]
    singles = []
    for index, text in enumerate(texts):
        singles.append(tmp_path / f"single{index}.txt")
        singles[-1].write_text(text + "\n", encoding="utf-8")
    pasted = "\ufeff" + saved(SEVERAL).replace("\n\n#Game No", "\n\n\ufeff#Game No")
    other = tmp_path / "pasted.txt"
    other.write_bytes(pasted.replace("\n", end).encode("utf-8"))
    got = run_files([other], tmp_path / "o")
    apart = [run_files([path], tmp_path / path.stem) for path in singles]
    assert len(got.hands) == 3 and (got.hands.outcome != "rejected").all()
    for part, (table, single) in enumerate(zip(table_rows(got), zip(*(table_rows(one) for one in apart)))):
        keyless = [row[1:] for row in table]
        assert keyless == [row[1:] for rows_of in single for row in rows_of], part


def one_hand(name: str) -> str:
    """A sample file's hand, without what follows it nor the blank lines at its ends."""
    return sample(name).split("\n#Game No")[0].strip("\n")


def game_of(text: str) -> str:
    """The number of the game (the hand id) of a hand's text."""
    found = re.search(r"Hand History for Game ([0-9]+)", text)
    assert found is not None
    return found.group(1)


def saved(names: list[str]) -> str:
    """The hands of the sample files ``names`` in one file, as the client saves them: ``#Game No : N``
    before each, a blank line after."""
    return "".join(f"#Game No : {game_of(text)}\n{text}\n\n" for text in map(one_hand, names))


#: Three hands in one file, the one written to in the middle: PostingDead's, where GYAMEPRO posts a
#: dead blind, checks on every street, shows and collects.
SEVERAL = ["WithShowdown.txt", "PostingDead.txt", "SpecialCards.txt"]
#: Lines 888poker never writes: its logs hold no chat (no sample holds any, and neither the public C#
#: parser's 888 grammar nor fpdb's reads one), so a player's words are never read, even shaped as an
#: action.  Each is GYAMEPRO's, as misleading as can be.
NEVER_WRITTEN = ["GYAMEPRO: gl", 'GYAMEPRO said, "raises [$2]"', "GYAMEPRO: calls [$2] lol"]


@pytest.fixture(scope="module")
def several(tmp_path_factory: pytest.TempPathFactory) -> SiteRun:
    return run_text(tmp_path_factory.mktemp("several"), saved(SEVERAL))


def written_in(line: str, after: str) -> str:
    """The file of :data:`SEVERAL` with ``line`` in PostingDead's hand, after its line ``after``."""
    hand, text = one_hand("PostingDead.txt"), saved(SEVERAL)
    assert text.count(hand) == 1
    return text.replace(hand, inserted(hand, line, after))


# The body's first line after the hole cards are dealt, and the summary's first.
@pytest.mark.parametrize("after", ["** Dealing down cards **", "** Summary **"])
@pytest.mark.parametrize("line", NEVER_WRITTEN)
def test_a_line_the_site_never_writes_rejects_its_hand_alone(several: SiteRun, tmp_path: Path, line: str,
                                                            after: str) -> None:
    """A line the site never writes, in a hand's body or its summary, is not understood: that hand
    is rejected for it, every other hand reads as it did."""
    got = run_text(tmp_path, written_in(line, after))
    check_rejected_alone(got, several, game_of(one_hand("PostingDead.txt")), line, NOT_UNDERSTOOD, "GYAMEPRO")


def test_words_that_are_an_action_are_no_action_of_the_speaker(several: SiteRun, tmp_path: Path) -> None:
    """``GYAMEPRO: raises [$2]`` in the body is a raise of a player named ``GYAMEPRO:`` (a name may hold
    ": "), whom the hand does not seat: the hand is rejected for it, never read as GYAMEPRO's raise."""
    line = "GYAMEPRO: raises [$2]"
    got = run_text(tmp_path, written_in(line, "** Dealing down cards **"))
    check_rejected_alone(got, several, game_of(one_hand("PostingDead.txt")), line,
                         "an action names a player who is not seated", "GYAMEPRO")


def test_a_tournament_hand(tmp_path: Path) -> None:
    """A tournament's third line (the public parsers' layout: no sample holds one): its id and buy-in,
    its chips no currency."""
    text = sample("WithShowdown.txt").replace("$0.50/$1 Blinds", "50/100 Blinds")
    text = re.sub(r"\$([0-9.]+)", lambda found: f"{round(float(found.group(1)) * 100):,}", text)
    text = text.replace("Table Acapulco 6 Max (Real Money)",
                        "Tournament #289763590 $1 + $0.10 - Table #3 6 Max (Real Money)")
    path = tmp_path / "tournament.txt"
    path.write_text(text, encoding="utf-8")
    hand = run_files([path], tmp_path / "out").hands.iloc[0]
    assert (hand.tournament_id, hand.buy_in, hand.table, hand.max_seats) == ("289763590", 1.10, "3", 6)
    assert pd.isna(hand.currency) and (hand.small_blind, hand.big_blind) == (50.0, 100.0)
    assert hand.outcome == "scored" and hand.rake == pytest.approx(60.0)
