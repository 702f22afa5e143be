"""GGPoker logs: every sample file read, audited and placed as the site's record says, and never
fooled by the text: hostile names, lines the site never writes, localised amounts, line ends."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest

from pipeline.formats.logs.grammar import NOT_UNDERSTOOD
from pipeline.formats.sites import detect, ggpoker

from .sites import (
    SiteRun,
    check_balances,
    check_outcomes,
    check_positions,
    check_rejected_alone,
    check_winners,
    files_of,
    renamed,
    rows_but,
    run_files,
    run_text,
    table_rows,
)

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


# Hostile text: the samples' hands, written otherwise, read into the same rows.  The samples are
# GGPoker's own files; the texts written otherwise are written by the tests after the site's format
# (no sample holds a thousand, a localised amount or a hostile name: opponents are anonymised).

def sample(name: str) -> str:
    """A sample file's text, its byte-order mark and the blank lines at its ends left out."""
    return next(path for path in FILES if path.name == name).read_text(encoding="utf-8-sig").strip("\n")


#: A hand of every kind the samples hold, each once (four files hold the same hand): blinds posted
#: twice, a straddle, a missed blind, uncalled bets, all-ins and the EV Cashout both ways, boards run
#: two and three times, Omaha, and every fee of the summary.
PASTED = ["BasicHand.txt", "RushAndCash.txt", "RunTwice.txt", "RunThreeTimes.txt", "Straddle.txt",
          "MultiplePosts.txt", "PostingDead.txt", "UncalledBetAndPaysCashoutFee.txt", "PaysCashoutFee.txt",
          "ReceivesCashout.txt", "PotLimitOmaha.txt", "Limit1.txt"]
#: Those hands pasted together, a blank line apart, as the site exports them.
BASE = "\n\n".join(sample(name) for name in PASTED) + "\n"


def amounts_at(text: str, factor: int) -> str:
    """``text`` with every amount ``factor`` times as large, written as GGPoker writes one: the sign
    before, commas for the thousands, no zero after the last digit of the cents (``$1,730.4``)."""
    def written(found: re.Match[str]) -> str:
        value = Decimal(found.group(1).replace(",", "")) * factor
        value = value.quantize(Decimal(1)) if value == value.to_integral_value() else value.normalize()
        return f"${value:,}"

    return re.sub(r"\$([0-9][0-9,]*(?:\.[0-9]+)?)", written, text)


#: The same hands at stakes ten times higher: stacks and pots in the thousands.
TENFOLD = amounts_at(BASE, 10)


def localised(text: str, space: str = "\u00a0") -> str:
    """Amounts as a European client writes them: the sign after, a decimal comma, ``space`` between
    the thousands (a no-break space, or a plain one): ``$1,730.4`` is ``1 730,4 $``."""
    def written(found: re.Match[str]) -> str:
        whole, cents = found.group(1).replace(",", ""), found.group(2)
        grouped = re.sub(r"(?<=[0-9])(?=(?:[0-9]{3})+$)", space, whole)
        return f"{grouped},{cents} $" if cents else f"{grouped} $"

    return re.sub(r"\$([0-9][0-9,]*)(?:\.([0-9]+))?", written, text)


def marked(text: str, end: str) -> bytes:
    """``text`` with a byte-order mark before each hand and ``end`` for its line ends, in UTF-8."""
    return re.sub(r"(?m)^(?=Poker Hand #)", "\ufeff", text).replace("\n", end).encode("utf-8")


#: Names holding GGPoker's own words and punctuation, each given to a player whose lines say much:
#: Hero is dealt cards, posts, shows and collects; the others raise, go all in, show, take the EV
#: Cashout, pay its risk, post a missed blind or a straddle, get an uncalled bet back.
HOSTILE = {"Hero": "Hero: calls $2", "oiesfcv1": "o [Ah Kd] collected $5 from pot",
           "tyx36123": "Seat 3: t (button)", "fma3fca1": "f: raises $2 to $4", "vda35fd1": "*** SUMMARY ***",
           "15yfdsaa": "m shows [Ah Kd] (", "8dc10ffk": "u: Uncalled bet ($5) returned to v",
           "88989dfa": "r: Receives Cashout ($9.98)", "fdfa4dax": "a calls $2 and is all-in",
           "62dfdfaf": "y: straddle $2", "xnvdam1": "x (button)", "52jj36aa": "*** FIRST SHOWDOWN ***",
           "7d288c5d": "w: shows [8c Kc 8h 9h] (Pair of Nines)", "c1d29c12": "c: checks",
           "123dca2d": "k raises $2 to $4", "ac12334d": "p Dealt to q",
           "xca591ab": "Total pot $2 | Rake $0", "2734abdf": "Seat 1: s ($14.67 in chips)"}

#: Each text written otherwise, and the plain text it must read as.
PLAIN = {"plain": BASE.encode("utf-8"), "tenfold": TENFOLD.encode("utf-8")}
VARIANTS = {
    "bom_lf": (marked(BASE, "\n"), "plain"),
    "bom_crlf": (marked(BASE, "\r\n"), "plain"),
    "bom_cr": (marked(BASE, "\r"), "plain"),
    "names": (renamed(BASE, HOSTILE).encode("utf-8"), "plain"),
    "localised": (localised(BASE).encode("utf-8"), "plain"),
    "tenfold_localised": (localised(TENFOLD).encode("utf-8"), "tenfold"),
    "tenfold_localised_spaces": (localised(TENFOLD, " ").encode("utf-8"), "tenfold"),
    "tenfold_no_separators": (re.sub(r"(?<=[0-9]),(?=[0-9]{3})", "", TENFOLD).encode("utf-8"), "tenfold"),
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, SiteRun]:
    texts = {**PLAIN, **{name: data for name, (data, _) in VARIANTS.items()}}
    return {name: run_text(tmp_path_factory.mktemp(name), data) for name, data in texts.items()}


def test_the_texts_written_otherwise_are_those_meant() -> None:
    # The helpers write the samples' amounts as the site does, and change what they are meant to.
    assert amounts_at(BASE, 1) == BASE
    assert amounts_at("($0.5/$1) ($173.04 in chips) raises $118.33 to $122.73", 10) == \
        "($5/$10) ($1,730.4 in chips) raises $1,183.3 to $1,227.3"
    assert localised("Seat 1: P ($1,524.5 in chips)\nP: raises $2.5 to $1,000\nRake $0.04") == \
        "Seat 1: P (1\u00a0524,5 $ in chips)\nP: raises 2,5 $ to 1\u00a0000 $\nRake 0,04 $"
    assert localised("$1,524.5", " ") == "1 524,5 $"
    assert all(data != PLAIN[plain] for data, plain in VARIANTS.values())


def test_the_plain_hands_are_the_samples(runs: dict[str, SiteRun]) -> None:
    """Every hand pasted is read, in order, none rejected: what the variants are held against."""
    ids = [re.match(r"Poker Hand #(\w+):", sample(name)).group(1) for name in PASTED]  # type: ignore[union-attr]
    for name in PLAIN:
        hands = runs[name].hands
        assert hands.hand_id.tolist() == ids and (hands.outcome != "rejected").all(), name


def test_every_hostile_name_is_seated_as_written(runs: dict[str, SiteRun]) -> None:
    """Each name replaced is a player of the hands, and each hostile name is read whole."""
    assert set(HOSTILE) <= set(runs["plain"].seats.player.astype(str))
    assert set(HOSTILE.values()) <= set(runs["names"].seats.player.astype(str))


@pytest.mark.parametrize("name", list(VARIANTS))
def test_text_written_otherwise_reads_as_the_plain_hands(runs: dict[str, SiteRun], name: str) -> None:
    """Byte-order marks before each hand with LF, CR LF or CR line ends; hostile names, mapped back;
    localised amounts and amounts without their thousands' commas: the same rows, table by table."""
    plain = VARIANTS[name][1]
    got = table_rows(runs[name], HOSTILE if name == "names" else None)
    for table, read, expected in zip(("hands", "seats", "actions"), got, table_rows(runs[plain])):
        assert read == expected, table


def test_amounts_in_the_thousands_are_read(runs: dict[str, SiteRun]) -> None:
    """At ten times the stakes (``$1,730.4``), every chip count is ten times the sample's, and
    nothing else changes."""
    tables = ((run.hands, run.seats, run.actions) for run in (runs["plain"], runs["tenfold"]))
    for plain, tenfold in zip(*tables):
        chips = list(plain.select_dtypes("float64").columns)
        # Chips are the float columns: a table without them would check nothing.
        assert chips and chips == list(tenfold.select_dtypes("float64").columns)
        np.testing.assert_allclose(tenfold[chips].to_numpy(), 10 * plain[chips].to_numpy(), rtol=1e-12)
        others = [column for column in plain.columns if column not in chips and column != "source"]
        assert tenfold[others].astype(str).values.tolist() == plain[others].astype(str).values.tolist()


#: Lines GGPoker never writes: its logs hold no chat (neither the samples nor the public parsers'
#: GGPoker grammars know of any), so a player's words are never read, even shaped as an action.
NEVER_WRITTEN = ["Hero: gl hf", 'Hero said, "raises $2 to $4"', "Hero: calls $2 lol"]


@pytest.mark.parametrize("before", ["*** FLOP ***", "Board ["])
@pytest.mark.parametrize("line", NEVER_WRITTEN)
def test_a_line_the_site_never_writes_rejects_its_hand_alone(runs: dict[str, SiteRun], tmp_path: Path,
                                                            line: str, before: str) -> None:
    """A line the site never writes, in a hand's body or its summary, is not understood: that hand
    is rejected for it, every other hand reads as it did."""
    hand = sample("PaysCashoutFee.txt")
    chatty = hand.replace(before, f"{line}\n{before}", 1)
    assert chatty != hand
    got = run_text(tmp_path, BASE.replace(hand, chatty))
    hand_id = re.match(r"Poker Hand #(\w+):", hand).group(1)  # type: ignore[union-attr]
    check_rejected_alone(got, runs["plain"], hand_id, line, NOT_UNDERSTOOD, "Hero")


#: Names that open with the words of a line that ends with a name, or that end as a dealt line's
#: cards: ``Dealt to b: calls $1`` is ``Dealt to b`` calling, or ``b: calls $1`` dealt cards not shown;
#: ``Dealt to p [Ks]`` is ``p`` dealt the king, or ``p [Ks]`` dealt cards not shown.  The text alone
#: cannot say which, so the hand is rejected, never read one way by guess.
AMBIGUOUS = ["Dealt to b", "Uncalled bet ($5) returned to b", "p [Ks]"]


@pytest.mark.parametrize("name", AMBIGUOUS)
def test_a_name_the_text_cannot_tell_from_another_line_rejects_its_hand(runs: dict[str, SiteRun],
                                                                         tmp_path: Path, name: str) -> None:
    hand = sample("PostingDead.txt")
    named = renamed(hand, {"b4mnx231": name})
    assert named != hand and BASE.count(hand) == 1
    got = run_text(tmp_path, BASE.replace(hand, named))
    hand_id = re.match(r"Poker Hand #(\w+):", hand).group(1)  # type: ignore[union-attr]
    rejected = got.hands[got.hands.outcome == "rejected"]
    assert rejected.hand_id.tolist() == [hand_id]
    assert rejected.reason.iloc[0].endswith("names a player who is not seated")
    # The line rejected is one of the player's, read as another kind of line.
    [line] = got.rejects.raw.tolist()
    assert line in named.splitlines() and name.split(" [")[0] in line
    assert rows_but(got, hand_id) == rows_but(runs["plain"], hand_id)
