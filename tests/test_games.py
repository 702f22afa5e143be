"""The game interface: a new game is one module, and the whole pipeline serves it.

A toy third game is written here, registered, and run through `pokerpipe run`
end to end: detection from its columns, parsing with reasons, scoring,
statistics, the expected column, rejects and the summary.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest

from pipeline.cli import cli
from pipeline.errors import InputError
from pipeline.games import base, registry
from pipeline.games.tally import Tally
from pipeline.poker import cards

OUTCOMES = ("Card 1", "Card 2", "Tie")


class HighCard(base.Game):
    """One card each, the higher rank wins; a card of rank 9 or more is "High"."""

    name = "highcard"
    title = "High card duel"
    categories = ("Low", "High")
    expected_column = "Result"
    row_noun = "duels"
    hand_cards = 1
    exact_hand_sizes = (1,)
    required_columns = ("Card1", "Card2")
    columns_hint = "Card1,Card2"

    def known_columns(self) -> tuple[str, ...]:
        return ("Card1", "Card2", "Result")

    def input_columns(self, columns: Mapping[str, tuple[str, ...]]) -> tuple[str, ...]:
        for label, names in columns.items():
            if "Card2" not in names:
                raise InputError(f"{label}: missing column Card2")
        return ("Card1", "Card2")

    def score(self, table: pa.Table, columns: tuple[str, ...], *, best_five: bool = False) -> base.Scored:
        texts = [pc.utf8_trim_whitespace(table.column(name)).to_pylist() for name in columns]
        codes, reasons = np.zeros((2, table.num_rows), dtype=np.int64), np.full(table.num_rows, None, object)
        for seat, values in enumerate(texts):
            for row, text in enumerate(values):  # a toy: a Python loop is fine here
                try:
                    codes[seat, row] = cards.card_code(text or "")
                except InputError as error:
                    reasons[row] = reasons[row] or f"Card{seat + 1}: {error}"
        ok = reasons == None  # noqa: E711
        ranks = codes[:, ok] >> 2
        outcome = np.where(ranks[0] > ranks[1], 0, np.where(ranks[0] < ranks[1], 1, 2)).astype(np.int8)
        categories = (ranks >= 7).astype(np.int8)
        results = pa.table({"card1": table.column("Card1").filter(pa.array(ok)),
                            "card2": table.column("Card2").filter(pa.array(ok)),
                            "winner": base.category_column(outcome, OUTCOMES)})
        tally = Tally.of_deals(self.categories, categories, np.stack([outcome != 1, outcome != 0]))
        counts = np.bincount(outcome, minlength=3)
        return base.Scored(results, ok, reasons, tally, outcome, np.asarray(OUTCOMES, dtype=object),
                            dict(zip(OUTCOMES, counts.tolist())))

    def exact_counts(self, cards: int | None = None) -> dict[str, int]:
        return {"Low": 28, "High": 24}

    def deal_columns(self, players: int) -> tuple[str, ...]:
        return ("Card1", "Card2")

    def cards_per_row(self, players: int) -> int:
        return 2

    def text_width(self, players: int) -> int:
        return 2

    def dealt_batch(self, dealt: np.ndarray, schema: pa.Schema) -> pa.RecordBatch:
        return pa.RecordBatch.from_arrays([pa.array(cards.CARD_TEXT[row].tolist()) for row in dealt],
                                          schema=schema)


@pytest.fixture
def highcard():
    game = registry.register(HighCard())
    yield game
    registry.unregister(game.name)


def test_a_toy_game_runs_end_to_end(runner, tmp_path, highcard):
    path = tmp_path / "duels.csv"
    path.write_text("Card1,Card2,Result\nAh,2c,Card 1\n3d,Kd,Card 2\n7s,7h,Tie\nZz,2c,Card 1\n9c,Tc,Card 1\n")
    out = tmp_path / "out"
    result = runner.invoke(cli, ["run", str(path), "-o", str(out), "-q"])
    assert result.exit_code == 1, result.output  # one row disagrees with Result
    assert "1 of 4 rows disagree with the Result column" in result.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["game"] == "highcard"
    assert (summary["rows_read"], summary["rows_scored"], summary["rows_rejected"]) == (5, 4, 1)
    assert summary["outcomes"] == {"Card 1": 1, "Card 2": 2, "Tie": 1}
    winners = (out / "winners.csv").read_text().splitlines()
    assert winners[0] == "row,card1,card2,winner,expected"
    assert winners[1:] == ['1,"Ah","2c","Card 1","Card 1"', '2,"3d","Kd","Card 2","Card 2"',
                           '3,"7s","7h","Tie","Tie"', '5,"9c","Tc","Card 2","Card 1"']
    rejects = (out / "rejects.csv").read_text()
    assert "Card1: unknown card 'Zz'" in rejects and '"Zz,2c,Card 1"' in rejects
    categories = (out / "categories.csv").read_text()
    assert "all,hand,High,4," in categories and "all,hand,Low,4," in categories
    stats = runner.invoke(cli, ["stats", str(out), "--json"])
    assert stats.exit_code == 0, stats.output
    assert "highcard: first seat's hand (1 cards) against exact shares" in json.loads(stats.output)


def test_a_toy_game_is_generated_and_scored(runner, tmp_path, highcard):
    path = tmp_path / "duels.parquet"
    result = runner.invoke(cli, ["generate", "--game", "highcard", "--rows", "500", "-o", str(path)])
    assert result.exit_code == 0, result.output
    assert "500 duels" in result.output
    out = tmp_path / "out"
    assert runner.invoke(cli, ["run", str(path), "-o", str(out), "-q"]).exit_code == 0
    assert json.loads((out / "summary.json").read_text())["rows_scored"] == 500


def test_the_registry_knows_the_built_in_games():
    assert set(registry.names()) >= {"holdem", "larvis"}
    assert registry.detect("x.csv", ("Hand1", "Hand2")).name == "larvis"
    assert registry.detect("x.csv", ("board", "p1")).name == "holdem"
    with pytest.raises(InputError, match="x.csv: cannot tell the game"):
        registry.detect("x.csv", ("a", "b"))
