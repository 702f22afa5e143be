"""Exhaustive enumerations: every six- and seven-card hand (`make test-all`)."""

from __future__ import annotations

import importlib.util
from math import comb

import numpy as np
import pytest

from pipeline.poker import holdem

from .conftest import ROOT

pytestmark = pytest.mark.exhaustive

_spec = importlib.util.spec_from_file_location("bench_keys", ROOT / "bench" / "bench_keys.py")
bench_keys = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_keys)

# Known category counts (High Card ... Straight Flush) of all k-card hands.
KNOWN = {
    6: [6_612_900, 9_730_740, 2_532_816, 732_160, 361_620, 205_792, 165_984, 14_664, 1_844],
    7: [23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644, 3_473_184,
        224_848, 41_584],
}


@pytest.mark.parametrize("k", [6, 7])
def test_every_hand_of_k_cards(k):
    counts = np.zeros(9, dtype=np.int64)
    seen = np.zeros(7463, dtype=bool)
    total = 0
    for chunk in bench_keys.all_hands_chunks(k):
        keys = holdem.hand_keys(chunk)
        counts += np.bincount(holdem.key_categories(keys), minlength=9)
        seen[keys] = True
        total += len(chunk)
    assert total == comb(52, k)
    assert counts.tolist() == KNOWN[k]
    if k == 7:
        assert seen.sum() == 4824
