"""Rows of several games in one batch: each scored by its own game, back in row order.

What a run over hand histories does with hold'em, Omaha, hi-lo and short-deck hands side by side
(:func:`pipeline.runs.scoring.score_by_game`), checked against each game scoring its rows alone.
"""

from __future__ import annotations

import pyarrow as pa

from pipeline.games import registry
from pipeline.games.tally import Tallies
from pipeline.runs.scoring import GAME_COLUMN, score_by_game, union_template

GAMES = ("holdem", "omaha", "omaha-hilo", "shortdeck", "shortdeck-trips")
ROWS = [  # game, board, p1, p2
    ("holdem", "As Ks Qs 2d 7c", "Js Ts", "Ah Ad"),
    ("omaha", "As Ks Qs 2d 7c", "Ah Ad Ac Js", "Th Td 9c 8c"),
    ("shortdeck", "Ad 9h Qc 6s As", "Th 9d", "7h 9s"),
    ("omaha-hilo", "2s 3d 8h Kc 7d", "As 4c Qh 2d", "Ks Kd Jh Td"),
    (None, "2c 3d 4h 5s 9c", "Ac Ad", "Kc Kd"),  # a deal archive's row: the run's own game
    ("omaha", "As Ks Qs 2d 7c", "Ah Ad Ac", "Th Td 9c 8c"),  # three cards: rejected by Omaha
    ("shortdeck-trips", "Tc 8d 6h Kc Ks", "6c As", "Kh 7d"),
    ("holdem", "2c 3d 4h 5s 9c", "Ac 2d", "7h 8h"),
]
COLUMNS = ("board", "p1", "p2")


def table(rows=ROWS) -> pa.Table:
    games, boards, p1, p2 = zip(*rows)
    return pa.table({"board": list(boards), "p1": list(p1), "p2": list(p2), GAME_COLUMN: list(games)})


def test_each_row_is_scored_as_its_game_alone_scores_it():
    template = union_template(GAMES, best_five=True)
    scored = score_by_game(table(), COLUMNS, default="holdem", best_five=True, template=template)
    assert scored.ok.tolist() == [True, True, True, True, True, False, True, True]
    assert scored.reasons[5] == "p1 'Ah Ad Ac': 3 cards, expected 4, 5 or 6"
    assert scored.results.column_names == template.column_names
    got = scored.results.to_pylist()
    kept = [row for row, ok in zip(ROWS, scored.ok) if ok]
    for at, (game, board, p1, p2) in enumerate(kept):
        alone = registry.get(game or "holdem").score(pa.table({"board": [board], "p1": [p1], "p2": [p2]}),
                                                     COLUMNS, best_five=True)
        for name, values in alone.results.to_pydict().items():
            assert got[at][name] == values[0], (game, name)
        # The columns another game adds are empty here.
        assert all(got[at][name] is None for name in template.column_names
                   if name not in alone.results.column_names)
        assert scored.outcomes()[at] == alone.outcomes()[0]


def test_the_tally_is_each_games_and_the_categories_read_as_one_dictionary():
    template = union_template(GAMES, best_five=False)
    scored = score_by_game(table(), COLUMNS, default="holdem", best_five=False, template=template)
    assert isinstance(scored.tally, Tallies)
    assert [game for game, _ in scored.tally.by_game] == sorted(set(GAMES))
    deals = {game: int(tally.deals.sum()) for game, tally in scored.tally.by_game}
    assert deals == {"holdem": 3, "omaha": 1, "omaha-hilo": 1, "shortdeck": 1, "shortdeck-trips": 1}
    category = scored.results.column("winning_category")
    assert category.num_chunks == 1 and category.type.ordered
    assert category.chunk(0).dictionary.equals(template.column("winning_category").chunk(0).dictionary)
    # Short-deck's own order (a flush above a full house) is read back by name, not by code.
    assert category.to_pylist()[2] == registry.get("shortdeck").score(
        pa.table({"board": [ROWS[2][1]], "p1": [ROWS[2][2]], "p2": [ROWS[2][3]]}), COLUMNS
    ).results.column("winning_category").to_pylist()[0]
    tables = scored.tally.category_table()
    assert tables.column_names[0] == "game" and set(tables.column("game").to_pylist()) == set(GAMES)


def test_a_batch_of_one_game_is_that_games_scoring():
    rows = [row for row in ROWS if row[0] == "holdem"]
    template = union_template(GAMES, best_five=False)
    scored = score_by_game(table(rows), COLUMNS, default="holdem", best_five=False, template=template)
    alone = registry.get("holdem").score(table(rows), COLUMNS)
    assert scored.outcomes().tolist() == alone.outcomes().tolist()
    assert [game for game, _ in scored.tally.by_game] == ["holdem"]
    assert scored.results.column("winners_low").null_count == len(rows)


def test_the_union_keeps_each_games_order():
    names = union_template(GAMES, best_five=False).column_names
    assert names[:5] == ["winners", "winners_high", "winners_low", "winner_count", "winning_category"]
    assert names[names.index("p1_key") + 1] == "p1_low_key"
    holdem = [name for name in names if name in union_template(("holdem",), best_five=False).column_names]
    assert holdem == union_template(("holdem",), best_five=False).column_names


def test_a_run_of_hand_histories_of_several_games(tmp_path):
    """Real hold'em, Omaha and hi-lo hands in one run: each scored by its game and checked against
    the pots the records paid; the statistics are per game, and ``stats`` reports each."""
    import pyarrow.csv as pacsv

    from pipeline.runs.api import run
    from pipeline.runs.report import run_report

    from .conftest import DATA

    summary = run([DATA / "pokerstars"], tmp_path / "out")  # the hhsmithy files: every game of the site
    assert summary["game"] == "mixed" and set(summary["games"]) >= {"holdem", "omaha", "omaha-hilo"}
    assert sum(summary["games"].values()) == summary["rows_scored"]
    assert summary["expected"]["checked"] > 0 and summary["expected"]["mismatched"] == 0
    winners = pacsv.read_csv(tmp_path / "out" / "winners.csv").to_pydict()
    assert {game: winners["game"].count(game) for game in summary["games"]} == summary["games"]
    # A hi-lo hand's winners are every seat paid; the halves say which.
    hilo = [row for row, game in enumerate(winners["game"]) if game == "omaha-hilo"]
    assert any(winners["winners_low"][row] is not None for row in hilo)
    for row in hilo:
        paid = {*str(winners["winners_high"][row]).split(), *str(winners["winners_low"][row] or "").split()}
        assert set(str(winners["winners"][row]).split()) == paid
    categories = pacsv.read_csv(tmp_path / "out" / "categories.csv").to_pydict()
    assert set(categories["game"]) == set(summary["games"])
    report = run_report(tmp_path / "out")
    assert {title.split(":")[0] for title in report} == set(summary["games"])


def test_a_game_whose_categories_are_in_another_order_keeps_its_empty_seats_empty():
    rows = [("shortdeck", "Ad 9h Qc 6s As", "Th 9d", None), ("shortdeck", "Tc 8d 6h Kc Ks", None, "Kh 7d")]
    template = union_template(GAMES, best_five=False)
    scored = score_by_game(table(rows), COLUMNS, default="holdem", best_five=False, template=template)
    assert scored.results.column("p2_category").to_pylist()[0] is None
    assert scored.results.column("p1_category").to_pylist()[1] is None
    assert scored.results.column("p2_category").to_pylist()[1] == "Three of a Kind"  # the kings
