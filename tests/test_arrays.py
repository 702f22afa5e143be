"""The foundation's array helpers (:mod:`pipeline.arrays`), against plain Python over the same values."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from hypothesis import given
from hypothesis import strategies as st

from pipeline.arrays import as_mask, first_per

FLAGS = st.lists(st.lists(st.sampled_from([True, False, None]), max_size=6), max_size=5)


@given(FLAGS)
def test_a_mask_is_each_flag_a_null_read_as_false(chunks: list[list[bool | None]]) -> None:
    flat = [flag is True for chunk in chunks for flag in chunk]
    for flags in (pa.chunked_array(chunks, pa.bool_()), pa.array(sum(chunks, []), pa.bool_())):
        mask = as_mask(flags)
        assert mask.dtype == np.bool_ and mask.shape == (len(flat),)
        assert mask.tolist() == flat


def test_a_mask_of_a_match_on_missing_text_selects_nothing() -> None:
    matched = pc.match_substring_regex(pa.array(["ab", None, "b", "a"]), "^a")
    assert matched.null_count == 1
    assert as_mask(matched).tolist() == [True, False, False, True]


@given(st.lists(st.integers(0, 5), max_size=30), st.integers(-3, 3))
def test_the_first_per_group_is_the_value_of_its_first_member(groups: list[int], fill: int) -> None:
    groups.sort()
    values = np.arange(100, 100 + len(groups))
    first: dict[int, int] = {}
    for group, value in zip(groups, values.tolist()):
        first.setdefault(group, value)
    got = first_per(np.array(groups, dtype=np.int64), 6, values, fill=fill)
    assert got.dtype == np.int64 and got.tolist() == [first.get(group, fill) for group in range(6)]
