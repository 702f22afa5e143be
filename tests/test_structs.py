"""The frozen structs of a run: Tally merging, and the parts of a stats report."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

from pipeline.games.tally import MAX_SEATS, Tally
from pipeline.runs.report import ReportPart, goodness_of_fit, report_json
from pipeline.runs.scoring import Totals

CATEGORIES = ("Low", "Mid", "High")


def _random_deals(seed: int, n: int, seats: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """Seat-major categories (-1 empty) and winning seats: the seated seats of the best category."""
    rng = np.random.default_rng(seed)
    categories = rng.integers(0, len(CATEGORIES), size=(seats, n))
    categories[rng.random((seats, n)) < 0.3] = -1
    categories[0] = rng.integers(0, len(CATEGORIES), size=n)  # at least one player
    best = categories.max(axis=0)
    return categories, (categories == best) & (categories >= 0)


def _counted_by_hand(categories: np.ndarray, winning: np.ndarray) -> dict[str, np.ndarray]:
    """The tally's counts, one deal and one seat at a time, from their definitions."""
    cells = (MAX_SEATS + 1, len(CATEGORIES))
    counts = {name: np.zeros(cells, np.int64) for name in ("hands", "first_seat", "wins", "ties", "winning")}
    counts["deals"] = np.zeros(MAX_SEATS + 1, np.int64)
    counts["tied_deals"] = np.zeros(MAX_SEATS + 1, np.int64)
    for deal in range(categories.shape[1]):
        seated = [s for s in range(categories.shape[0]) if categories[s, deal] >= 0]
        winners = [s for s in seated if winning[s, deal]]
        players = len(seated)
        counts["deals"][players] += 1
        counts["tied_deals"][players] += len(winners) > 1
        counts["first_seat"][players, categories[seated[0], deal]] += 1
        counts["winning"][players, categories[winners[0], deal]] += 1
        for seat in seated:
            counts["hands"][players, categories[seat, deal]] += 1
            if seat in winners:
                counts["wins" if len(winners) == 1 else "ties"][players, categories[seat, deal]] += 1
    return counts


def test_tally_counts_match_a_deal_by_deal_count():
    categories, winning = _random_deals(1, 500)
    tally = Tally.of_deals(CATEGORIES, categories, winning)
    for name, expected in _counted_by_hand(categories, winning).items():
        np.testing.assert_array_equal(getattr(tally, name), expected, err_msg=name)


def test_merged_tallies_do_not_depend_on_the_split():
    categories, winning = _random_deals(2, 900)
    whole = Tally.of_deals(CATEGORIES, categories, winning)
    merged = Tally.zeros(CATEGORIES)
    for part in np.array_split(np.arange(900), 7):
        merged += Tally.of_deals(CATEGORIES, categories[:, part], winning[:, part])
    for field in dataclasses.fields(Tally):
        np.testing.assert_array_equal(getattr(merged, field.name), getattr(whole, field.name))
    assert merged.category_table().equals(whole.category_table())
    assert merged.tie_table().equals(whole.tie_table())


def test_a_tally_is_a_value():
    categories, winning = _random_deals(3, 50)
    one = Tally.of_deals(CATEGORIES, categories, winning)
    before = one.hands.copy()
    two = one + one
    np.testing.assert_array_equal(one.hands, before)  # adding made a new tally
    np.testing.assert_array_equal(two.hands, 2 * before)
    with pytest.raises(dataclasses.FrozenInstanceError):
        one.hands = before  # type: ignore[misc]  # the point: assigning a field is refused
    with pytest.raises(ValueError, match="different games"):
        one + Tally.zeros(("Low", "High"))


def test_totals_merge_rebinds_their_tally():
    categories, winning = _random_deals(4, 60)
    batch = Tally.of_deals(CATEGORIES, categories, winning)
    totals = Totals(Tally.zeros(CATEGORIES))
    empty = totals.tally
    totals += Totals(batch, read=60, scored=60)
    totals += Totals(batch, read=60, scored=60)
    np.testing.assert_array_equal(totals.tally.deals, 2 * batch.deals)
    assert not empty.deals.any() and totals.read == 120


def test_report_part_serializes_table_and_fit():
    fit = goodness_of_fit({"a": 30, "b": 70}, {"a": 0.25, "b": 0.75})
    tested = report_json(ReportPart(fit.table, fit))
    assert [row["observed"] for row in tested["table"]] == [30, 70]
    assert tested["dof"] == 1 and tested["bins"] == [["a"], ["b"]]
    plain = report_json(ReportPart(pd.DataFrame({"category": ["a"], "count": [3]})))
    assert plain == {"table": [{"category": "a", "count": 3}]}
