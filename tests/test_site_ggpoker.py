"""GGPoker logs: every sample file read, audited and placed as the site's record says."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.formats.logs.grammar import NOT_UNDERSTOOD
from pipeline.formats.sites import detect, ggpoker

from .sites import check_balances, check_outcomes, check_positions, check_winners, files_of, run_files

FILES = files_of("ggpoker")
#: The sample hands whose record does not add up, each checked by hand.
UNBALANCED = {
    # The chips put in make 14.30 (0.50 each before the flop, 1 and 3.10 each of three after);
    # the total pot written is 13.30.
    ("MultiplePosts.txt", 1),
}

#: The hands of an EV Cashout: the site's money is in the players' net.
SETTLED_BY_SITE = {"PaysCashoutFee.txt", "ReceivesCashout.txt", "UncalledBetAndPaysCashoutFee.txt"}


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory):
    return run_files(FILES, tmp_path_factory.mktemp("ggpoker") / "out")


def test_every_sample_is_a_ggpoker_log() -> None:
    assert len(FILES) == 16
    assert all(detect(path) is ggpoker.SITE for path in FILES)


def test_every_hand_ends_in_one_outcome(run) -> None:
    # "Bet & Muck" is no GGPoker action the site documents: the line is not read as one.
    check_outcomes(run, {"BetAndMuck.txt": NOT_UNDERSTOOD})
    assert run.summary["rows_read"] == 16
    assert set(run.hands.site.astype(str)) == {"GGPoker"}


def test_showdowns_name_the_evaluators_winners(run) -> None:
    check_winners(run, at_least=4)


def test_net_is_minus_the_rake_where_the_record_adds_up(run) -> None:
    assert check_balances(run, UNBALANCED, SETTLED_BY_SITE) == 6


def test_positions_follow_the_button(run) -> None:
    assert check_positions(run) >= 12


def test_the_fees_are_part_of_what_the_site_took(run) -> None:
    """Rake, Jackpot and Bingo are taken from the pot: the hands table's rake is all of them."""
    hands = run.hands.set_index(run.hands.source.astype(str).map(lambda text: Path(text).name))
    paid = hands.loc["PaysCashoutFee.txt"]
    assert paid.pot == pytest.approx(251.86) and paid.rake == pytest.approx(8.0)


def test_the_ev_cashout_is_the_sites_money(run) -> None:
    """The insured player receives the site's cash-out, the winner pays the risk: their net says so."""
    seats = run.seats.merge(run.hands[["hand_key", "source"]], on="hand_key")
    seats["file"] = seats.source.astype(str).map(lambda text: Path(text).name)
    receives = seats[(seats.file == "ReceivesCashout.txt") & (seats.player == "88989dfa")].iloc[0]
    assert receives.received == pytest.approx(9.98)
    pays = seats[(seats.file == "PaysCashoutFee.txt") & (seats.player == "oiesfcv1")].iloc[0]
    assert pays.received == pytest.approx(243.86 - 22.68)


def test_run_twice_and_three_times_are_set_apart(run) -> None:
    hands = run.hands.set_index(run.hands.source.astype(str).map(lambda text: Path(text).name))
    for name in ("RunTwice.txt", "RunThreeTimes.txt"):
        assert (hands.loc[name].outcome, hands.loc[name].reason) == ("set apart", "run twice")


def test_omaha_is_scored_as_omaha(run) -> None:
    hands = run.hands.set_index(run.hands.source.astype(str).map(lambda text: Path(text).name))
    omaha = hands.loc["PotLimitOmaha.txt"]
    assert (omaha.game, omaha.betting, omaha.outcome) == ("omaha", "pot-limit", "scored")


def test_the_straddle_and_the_missed_blind(run) -> None:
    actions = run.actions.merge(run.hands[["hand_key", "source"]], on="hand_key")
    files = actions.source.astype(str).map(lambda text: Path(text).name)
    assert "post straddle" in set(actions[files == "Straddle.txt"].action.astype(str))
    assert "post dead" in set(actions[files == "PostingDead.txt"].action.astype(str))
