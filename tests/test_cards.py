"""Card codes, sorting networks and the rank-multiset index."""

from __future__ import annotations

import itertools
from math import comb

import numpy as np
import pyarrow as pa
import pytest

from pipeline.poker import cards
from pipeline.text import text_matrix


@pytest.mark.parametrize("width", sorted(cards.SORTING_NETWORKS))
def test_sorting_network_sorts_every_zero_one_input(width):
    # The 0-1 principle: a network that sorts every 0/1 input sorts everything.
    inputs = np.array(list(itertools.product([0, 1], repeat=width)), dtype=np.uint8)
    columns = cards.sorted_columns(inputs)
    assert np.array_equal(np.column_stack(columns), np.sort(inputs, axis=1))


@pytest.mark.parametrize("k", [2, 5, 6, 7])
def test_multiset_index_is_a_bijection_onto_its_range(k):
    rows = np.array(list(itertools.combinations_with_replacement(range(13), k)), dtype=np.uint8)
    index = cards.multiset_index(list(rows.T))
    assert len(rows) == cards.multiset_count(k) == comb(13 + k - 1, k)
    assert sorted(index.tolist()) == list(range(len(rows)))
    assert np.array_equal(cards.all_multisets(k), rows[np.argsort(index)])


def test_index_ignores_the_order_of_cards():
    rng = np.random.default_rng(3)
    ranks = rng.integers(0, 13, size=(1000, 7)).astype(np.uint8)
    shuffled = rng.permuted(ranks, axis=1)
    assert np.array_equal(cards.multiset_index(cards.sorted_columns(ranks)),
                          cards.multiset_index(cards.sorted_columns(shuffled)))


def test_card_codes_round_trip_through_text():
    for code, text in enumerate(cards.CARD_TEXT):
        assert cards.card_code(text) == code
    assert cards.card_code("Xh") == cards.card_code("Th")


@pytest.mark.parametrize("text", ["", "A", "Ahh", "1h", "Ax", "ah", "AH", "10h"])
def test_unknown_cards_are_refused(text):
    with pytest.raises(ValueError, match="unknown card"):
        cards.card_code(text)


def test_text_matrix_reads_fixed_width_values_and_flags_the_rest():
    strings = pa.array(["AKQJT", None, "AK", "23456", "", "2345678"])
    matrix, fits = text_matrix(strings, 5)
    assert fits.tolist() == [True, False, False, True, False, False]
    assert bytes(matrix[0]) == b"AKQJT" and bytes(matrix[3]) == b"23456"
    assert not matrix[~fits].any()


def test_text_matrix_respects_slices():
    strings = pa.array(["xxxxx", "AKQJT", "23456"]).slice(1)
    matrix, fits = text_matrix(strings, 5)
    assert fits.all() and bytes(matrix[0]) == b"AKQJT"
