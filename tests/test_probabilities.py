"""Exact category counts and the goodness-of-fit built on them.

The only numbers written here are the published category counts of five-
and seven-card poker, which are the specification; everything else is
checked against the scoring modules or against itself.
"""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np
import pytest

from pipeline.games import registry
from pipeline.poker import holdem, larvis
from pipeline.runs.report import (
    exact_counts,
    exact_shares,
    goodness_of_fit,
    plot_fit,
    pooled_bins,
)

# Published counts (e.g. Wikipedia, "Poker probability"), weakest first.
HOLDEM_5 = {
    "High Card": 1_302_540, "Pair": 1_098_240, "Two Pair": 123_552, "Three of a Kind": 54_912,
    "Straight": 10_200, "Flush": 5_108, "Full House": 3_744, "Four of a Kind": 624,
    "Straight Flush": 40,
}
HOLDEM_7 = {
    "High Card": 23_294_460, "Pair": 58_627_800, "Two Pair": 31_433_400,
    "Three of a Kind": 6_461_620, "Straight": 6_180_020, "Flush": 4_047_644,
    "Full House": 3_473_184, "Four of a Kind": 224_848, "Straight Flush": 41_584,
}
LARVIS_5 = {
    "High card": 1_317_888, "A pair": 1_098_240, "Two pairs": 123_552, "Triple": 54_912,
    "Full house": 3_744, "Four of a kind": 624,
}

#: (game, cards) pairs with exact counts, from the registry.
SUPPORTED = [(name, k) for name in registry.names() for k in registry.get(name).exact_hand_sizes]


@pytest.fixture(scope="module")
def every_five_cards() -> np.ndarray:
    """All C(52, 5) five-card hands as card codes, shape (2598960, 5), uint8."""
    return np.fromiter(combinations(range(52), 5), dtype=np.dtype((np.uint8, 5)),
                       count=comb(52, 5))


@pytest.mark.parametrize(("game", "cards"), SUPPORTED)
def test_counts_cover_every_deal_once(game, cards):
    counts = exact_counts(game, cards=cards)
    played = registry.get(game)
    assert sum(counts.values()) == comb(len(played.deck()), cards)
    assert list(counts) == list(played.categories)
    assert all(type(v) is int and v > 0 for v in counts.values())


@pytest.mark.parametrize(("game", "cards", "published"), [
    ("holdem", 5, HOLDEM_5), ("holdem", 7, HOLDEM_7), ("larvis", 5, LARVIS_5)])
def test_counts_match_published_tables(game, cards, published):
    assert exact_counts(game, cards=cards) == published


def test_larvis_is_holdem_without_straights_and_flushes():
    h = exact_counts("holdem", cards=5)
    folded = [h["High Card"] + h["Straight"] + h["Flush"] + h["Straight Flush"],
              h["Pair"], h["Two Pair"], h["Three of a Kind"], h["Full House"],
              h["Four of a Kind"]]
    assert list(exact_counts("larvis", cards=5).values()) == folded


def test_holdem_five_counts_agree_with_hand_keys(every_five_cards):
    codes = holdem.key_categories(holdem.hand_keys(every_five_cards))
    scored = np.bincount(codes, minlength=len(holdem.CATEGORIES))
    assert list(exact_counts("holdem", cards=5).values()) == scored.tolist()


def test_larvis_counts_agree_with_hand_keys(every_five_cards):
    codes = larvis.key_categories(larvis.hand_keys(every_five_cards >> 2))
    scored = np.bincount(codes, minlength=len(larvis.CATEGORIES))
    assert list(exact_counts("larvis", cards=5).values()) == scored.tolist()


def test_holdem_seven_shares_fit_hand_keys_on_random_deals():
    rng = np.random.default_rng(20240607)
    decks = rng.permuted(np.tile(np.arange(52, dtype=np.uint8), (100_000, 1)), axis=1)
    codes = holdem.key_categories(holdem.hand_keys(decks[:, :7]))
    observed = dict(zip((c.value for c in holdem.CATEGORIES),
                        np.bincount(codes, minlength=len(holdem.CATEGORIES)).tolist()))
    fit = goodness_of_fit(observed, exact_shares("holdem", cards=7))
    assert fit.p_value > 0.001, fit.table


@pytest.mark.parametrize(("game", "cards", "message"), [
    ("holdem", 6, "game='holdem' with cards=6"), ("holdem", 4, "game='holdem' with cards=4"),
    ("larvis", 7, "game='larvis' with cards=7"), ("holdem", 5.0, "game='holdem' with cards=5.0"),
    ("omaha", 9, "game='omaha' with cards=9: known are $"),
    ("stud", 5, "unknown game 'stud': expected holdem or larvis or omaha")])
def test_unsupported_games_are_refused(game, cards, message):
    with pytest.raises(ValueError, match=message):
        exact_counts(game, cards=cards)


@pytest.mark.parametrize(("game", "cards"), SUPPORTED)
def test_shares_are_counts_over_total(game, cards):
    counts = exact_counts(game, cards=cards)
    shares = exact_shares(game, cards=cards)
    assert list(shares) == list(counts)
    assert sum(shares.values()) == pytest.approx(1.0, abs=1e-12)
    for name, count in counts.items():
        assert shares[name] == count / comb(len(registry.get(game).deck()), cards)


@pytest.mark.parametrize(("game", "cards"), SUPPORTED)
def test_counts_in_exact_proportion_fit_perfectly(game, cards):
    fit = goodness_of_fit(exact_counts(game, cards=cards), exact_shares(game, cards=cards))
    assert fit.chi2 == pytest.approx(0.0, abs=1e-6)
    assert fit.p_value == pytest.approx(1.0)
    assert fit.dof == len(exact_counts(game, cards=cards)) - 1  # nothing sparse at this size
    assert np.allclose(fit.table["residual"], 0.0, atol=1e-6)
    assert list(fit.table.columns) == ["category", "observed", "observed_share", "exact_share",
                                       "expected", "residual"]


@pytest.mark.parametrize(("game", "cards"), SUPPORTED)
def test_distorted_counts_are_rejected(game, cards):
    shares = exact_shares(game, cards=cards)
    observed = {name: round(100_000 * share) for name, share in shares.items()}
    names = list(observed)
    # Swap the two commonest categories: a gross error any scorer could make.
    observed[names[0]], observed[names[1]] = observed[names[1]], observed[names[0]]
    fit = goodness_of_fit(observed, shares)
    assert fit.p_value < 1e-6


@pytest.mark.parametrize(("game", "cards"), SUPPORTED)
def test_multinomial_sample_passes(game, cards):
    shares = exact_shares(game, cards=cards)
    rng = np.random.default_rng(12345)
    draws = rng.multinomial(100_000, list(shares.values()))
    fit = goodness_of_fit(dict(zip(shares, draws.tolist())), shares)
    assert fit.p_value > 0.001, fit.table
    assert fit.table["observed"].sum() == 100_000
    # Every bin of the test expects enough observations for chi-square.
    expected = dict(zip(fit.table["category"], fit.table["expected"]))
    assert all(sum(expected[c] for c in b) >= 5 for b in fit.bins)
    assert [c for b in fit.bins for c in b] == list(shares)


def test_sparse_categories_are_pooled_with_weaker_neighbours():
    shares = exact_shares("holdem", cards=5)
    fit = goodness_of_fit({"High Card": 1000}, shares)
    assert fit.bins[-1][-1] == "Straight Flush"
    assert len(fit.bins[-1]) > 1
    assert fit.dof == len(fit.bins) - 1
    assert pooled_bins({"a": 1.0, "b": 1.0}) == (("a", "b"),)


def test_impossible_category_observed_refutes_shares():
    shares = {"a": 0.5, "b": 0.5, "c": 0.0}
    fit = goodness_of_fit({"a": 50, "b": 50, "c": 1}, shares)
    assert fit.p_value == 0.0 and fit.chi2 == float("inf")
    unobserved = goodness_of_fit({"a": 50, "b": 50}, shares)
    assert unobserved.p_value == pytest.approx(1.0) and unobserved.dof == 1
    assert np.isnan(unobserved.table["residual"].iloc[2])


@pytest.mark.parametrize(("observed", "shares", "message"), [
    ({"z": 1}, {"a": 1.0}, "no expected share"),
    ({"a": -1, "b": 3}, {"a": 0.5, "b": 0.5}, "non-negative integers"),
    ({"a": 1.5}, {"a": 1.0}, "non-negative integers"),
    ({"a": 0}, {"a": 1.0}, "no observations"),
    ({"a": 1}, {"a": 0.5, "b": 0.2}, "sum to 1"),
])
def test_bad_inputs_are_refused(observed, shares, message):
    with pytest.raises(ValueError, match=message):
        goodness_of_fit(observed, shares)


def test_plot_fit_writes_png(tmp_path):
    fits = {}
    for game, cards in SUPPORTED:
        shares = exact_shares(game, cards=cards)
        draws = np.random.default_rng(7).multinomial(10_000, list(shares.values()))
        fits[f"{game}, {cards} cards"] = goodness_of_fit(dict(zip(shares, draws.tolist())), shares)
    path = tmp_path / "out" / "fit.png"
    path.parent.mkdir()  # a plot creates no folder
    plot_fit(fits, path)
    data = path.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 1000
    assert [p.name for p in path.parent.iterdir()] == ["fit.png"]  # no temporary left behind
    with pytest.raises(ValueError):
        plot_fit({}, tmp_path / "empty.png")
