"""The foundation's array helpers (:mod:`pipeline.arrays`), against plain Python over the same values."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from hypothesis import given
from hypothesis import strategies as st

from pipeline.arrays import as_mask

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
