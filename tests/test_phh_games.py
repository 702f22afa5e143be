"""PHH hands of the games beyond Texas hold'em: pot-limit Omaha (``PO``), fixed-limit Omaha
eight-or-better (``FO/8``) and no-limit short-deck (``NS``).

Every bundled hand of those variants (``data/raw/phh``: Antonius-Blom, Xuan-Phua and the WSOP
mixed-game final table) is read, not rejected, and its fields are checked where the Record and
the hand tables put them against an independent reading of the file with :mod:`tomllib`: the game
and the betting, every player's hole cards (four a player in Omaha), the board, the seats table's
``hole_cards`` text; and the chips each player put in and received, against the record's own
finishing stacks and against pokerkit's state machine, on the bundled hands and on random legal
hands pokerkit plays (side pots, split pots, antes and a short-deck button blind).  The other
variants (stud, razz, draw, badugi) stay rejected; hands written here show the reasons for cards
that do not fit their game.

The showdowns are not checked here: the winners are the scoring's business.
"""

from __future__ import annotations

import random
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from pokerkit import (
    Deck,
    FixedLimitOmahaHoldemHighLowSplitEightOrBetter,
    HandHistory,
    Mode,
    NoLimitShortDeckHoldem,
    PotLimitOmahaHoldem,
)
from pokerkit.state import State

from pipeline.formats import phh
from pipeline.formats.phh.variants import VARIANTS, unread_variant
from pipeline.formats.readers import open_source
from pipeline.hands import model
from pipeline.hands.record import MAX_HOLE, NO_CARD, UNKNOWN_CARD, Record
from pipeline.poker import cards
from pipeline.runs.api import run

from .conftest import RAW
from .test_phh_reference import AUTOMATIONS, Chips, chips_of, play_randomly, pokerkit_chips

PHH = RAW / "phh"
GAMES = {"PO": ("omaha", "pot-limit", 4), "FO/8": ("omaha-hilo", "fixed-limit", 4),
         "NS": ("shortdeck", "no-limit", 2)}
#: The bundled hands of each variant read here: Antonius-Blom and 7 of the final table, 14 of
#: it, Xuan-Phua.
BUNDLED = {"PO": 8, "FO/8": 14, "NS": 1}
NOT_READ = ("F7S", "F7S/8", "FR", "N2L1D", "F2L3D", "FB")


def split_cards(text: str) -> list[str]:
    return [text[i:i + 2] for i in range(0, len(text), 2)]


def bundled() -> list[tuple[Path, int, dict[str, Any]]]:
    """Every bundled hand: its file, its number in the file (from 1) and its fields as tomllib reads them."""
    found = []
    for path in sorted(p for p in PHH.rglob("*") if p.suffix in (".phh", ".phhs")):
        document = tomllib.loads(path.read_text())
        tables = list(document.values()) if path.suffix == ".phhs" else [document]
        found += [(path, number, table) for number, table in enumerate(tables, start=1)]
    return found


def of_games() -> list[tuple[Path, int, dict[str, Any]]]:
    return [hand for hand in bundled() if hand[2]["variant"] in GAMES]


class Read:
    """One file read by the reader, its hands replayed: the Record, the replay and the hand tables."""

    def __init__(self, path: Path) -> None:
        (hands,) = list(phh.read_hands(open_source(path)))
        self.replayed = phh.replay(hands)
        self.record: Record = self.replayed.settled.record
        batch = phh.to_batch(hands, self.replayed, str(path))
        assert batch.hand_tables is not None
        self.tables = {name: table.to_pandas() for name, table in batch.hand_tables.items()}


Reads = dict[Path, Read]


@pytest.fixture(scope="module")
def read() -> Reads:
    return {path: Read(path) for path in sorted({path for path, _, _ in of_games()})}


def dealt_and_shown(table: dict[str, Any]) -> tuple[dict[int, str], str]:
    """Each player's hole cards as the actions deal them (a show replacing those dealt unknown), the board."""
    holes: dict[int, str] = {}
    board = ""
    for action in table["actions"]:
        words = action.split("#")[0].split()
        if words[:2] == ["d", "dh"]:
            holes[int(words[2][1:]) - 1] = words[3]
        elif words[:2] == ["d", "db"]:
            board += words[2]
        elif words[1] == "sm" and len(words) > 2 and "?" not in words[2]:
            holes[int(words[0][1:]) - 1] = words[2]
    return holes, board


def chips_by_the_rules(table: dict[str, Any]) -> list[float]:
    """What each player put in, replayed here action by action from tomllib's reading of the hand.

    Antes are dead money, posted first; the blinds (a negative one posted as its size) are the
    street's first bets, listed in the order the actions' seats are, but reversed heads-up (the
    button, the second player, posts the first), as pokerkit posts them; ``cc`` matches the
    street's largest bet and ``cbr`` bets to its amount, each capped by the stack; at the end of
    each street the part of its largest bet nobody matched goes back.
    """
    n = len(table["starting_stacks"])
    stacks = list(table["starting_stacks"])
    antes = list(table["antes"])
    blinds = [abs(b) for b in table.get("blinds_or_straddles", [0] * n)]
    if n == 2:
        antes.reverse()
        blinds.reverse()
    contributed = [0.0] * n
    for p, ante in enumerate(antes):
        paid = min(ante, stacks[p])
        stacks[p] -= paid
        contributed[p] += paid
    street = [0.0] * n

    def close() -> None:
        top = max(range(n), key=lambda p: street[p])
        uncalled = street[top] - max(street[p] for p in range(n) if p != top)
        contributed[top] -= uncalled
        stacks[top] += uncalled

    for p, blind in enumerate(blinds):
        street[p] = min(blind, stacks[p])
        stacks[p] -= street[p]
        contributed[p] += street[p]
    for action in table["actions"]:
        words = action.split("#")[0].split()
        if words[:2] == ["d", "db"]:
            close()
            street = [0.0] * n
        elif words[1] in ("cc", "cbr"):
            p = int(words[0][1:]) - 1
            target = max(street) if words[1] == "cc" else float(words[2])
            pay = min(target - street[p], stacks[p])
            stacks[p] -= pay
            street[p] += pay
            contributed[p] += pay
    close()
    return contributed


def card_texts(codes: np.ndarray) -> list[str]:
    return ["??" if code == UNKNOWN_CARD else str(cards.CARD_TEXT[code]) for code in codes if code != NO_CARD]


def test_the_bundle_holds_the_hands_counted_here() -> None:
    variants = Counter(table["variant"] for _, _, table in bundled())
    assert {variant: variants[variant] for variant in GAMES} == BUNDLED
    assert all(variants[variant] for variant in NOT_READ)


def test_each_variant_read_names_a_game_and_a_betting_of_the_hand_tables() -> None:
    assert set(GAMES) | {"NT", "FT"} == set(VARIANTS)
    for code, variant in VARIANTS.items():
        assert variant.name in model.VOCABULARIES["game"]
        assert str(variant.betting) in model.VOCABULARIES["betting"]
        if code in GAMES:
            assert (variant.name, str(variant.betting)) == GAMES[code][:2]


def test_every_bundled_hand_of_the_games_is_read_with_its_game_cards_and_board(read: Reads) -> None:
    for path, _, table in of_games():
        got = read[path]
        record, hands, seats = got.record, got.tables["hands"], got.tables["seats"]
        game, betting, hole_count = GAMES[table["variant"]]
        assert record.problem.tolist() == [None], (path, record.problem)
        assert hands.loc[0, "outcome"] != "rejected"
        assert (hands.loc[0, "game"], hands.loc[0, "betting"], hands.loc[0, "variant"]) == \
            (game, betting, table["variant"])
        players = len(table["starting_stacks"])
        assert hands.loc[0, "players"] == players
        holes, board = dealt_and_shown(table)
        assert record.holes.shape == (1, 10, hole_count)
        assert card_texts(record.board[0]) == split_cards(board)
        assert (hands.loc[0, "board"] if board else None) == (" ".join(split_cards(board)) or None)
        for slot in range(players):
            assert card_texts(record.holes[0, slot]) == split_cards(holes[slot]), (path, slot)
            assert len(holes[slot]) == 2 * hole_count
        assert (record.holes[0, players:] == NO_CARD).all()
        assert seats["hole_cards"].tolist() == [" ".join(split_cards(holes[s])) for s in range(players)]
        assert seats["player"].tolist() == table.get("players", seats["player"].tolist())


def test_the_chips_of_every_bundled_hand_of_the_games_are_what_the_record_says(read: Reads) -> None:
    checked = 0
    for path, _, table in of_games():
        got = read[path]
        seats, hands = got.tables["seats"], got.tables["hands"]
        players = len(table["starting_stacks"])
        by_rules = chips_by_the_rules(table)
        assert seats["contributed"].tolist() == pytest.approx(by_rules), path
        assert got.replayed.contributed[0, :players].tolist() == pytest.approx(by_rules)
        assert hands.loc[0, "pot"] == pytest.approx(sum(by_rules))
        if "finishing_stacks" in table:
            # The record's own totals: each player ends with its stack less what it put in plus
            # what it received, and the pot goes to the players whole (no rake in these records).
            finishing = table["finishing_stacks"]
            starting = table["starting_stacks"]
            received = [f - s + c for f, s, c in zip(finishing, starting, by_rules, strict=True)]
            assert seats["received"].tolist() == pytest.approx(received), path
            assert (seats["starting_stack"] + seats["net"]).tolist() == pytest.approx(finishing)
            assert seats["net"].sum() == pytest.approx(0)
            assert sum(received) == pytest.approx(hands.loc[0, "pot"])
            assert bool(got.replayed.recorded[0])
            checked += 1
        else:
            assert seats["received"].isna().all()
    assert checked == sum(BUNDLED.values()) - 2  # Antonius-Blom and Xuan-Phua record no result


def test_every_bundled_hand_of_the_games_contributes_and_receives_as_pokerkit_says(read: Reads) -> None:
    compared = 0
    for path, _, table in of_games():
        got = read[path]
        theirs = pokerkit_chips(HandHistory.loads(path.read_text(), parse_value=float))  # chips not whole
        players = len(table["starting_stacks"])
        assert got.replayed.contributed[0, :players].tolist() == theirs.contributed, path
        if "finishing_stacks" in table:
            assert got.replayed.received[0, :players].tolist() == theirs.received, path
        compared += 1
    assert compared == sum(BUNDLED.values())


def test_the_forced_bets_of_short_deck_are_antes_and_a_button_blind(read: Reads) -> None:
    # Xuan-Phua: every player antes 3,000 and the button (p6, the last) posts a blind of 3,000,
    # the level the others call before the flop, as pokerkit posts {-1: 3000}.
    path = PHH / "phua-xuan-2019.phh"
    actions = read[path].tables["actions"]
    posts = actions[actions["action"].str.startswith("post")]
    assert posts[["seat", "action", "amount"]].values.tolist() == [
        *[[seat, "post ante", 3000.0] for seat in range(1, 7)], [6, "post straddle", 3000.0]]
    first = actions[~actions["action"].str.startswith("post")].iloc[0]
    assert (first["seat"], first["action"], first["amount"]) == (1, "call", 3000.0)
    hands = read[path].tables["hands"]
    # The button blind is the hand's big blind, as PokerStars' 6+ stakes give it; no small blind.
    assert hands.loc[0, "ante"] == 3000 and hands.loc[0, "big_blind"] == 3000
    assert np.isnan(hands.loc[0, "small_blind"])
    # No SB or BB: the button (the last player) and the others in their order of play.
    seats = read[path].tables["seats"]
    assert seats["position"].tolist()[-1] == "BTN" and not {"SB", "BB"} & set(seats["position"])


def test_the_other_variants_are_rejected_with_the_variants_read(tmp_path: Path) -> None:
    for path, _, table in bundled():
        if table["variant"] not in NOT_READ:
            continue
        (hands,) = list(phh.read_hands(open_source(path)))
        problem = phh.replay(hands).rejections.problem[0]
        assert problem == f"variant '{table['variant']}' is not a game pokerpipe scores " \
                          f"(NT, FT, NS, PO or FO/8)"
        assert problem == unread_variant(table["variant"])


def test_a_run_writes_the_omaha_hands_with_their_games_and_cards(tmp_path: Path) -> None:
    # The hand tables of ``pokerpipe run`` over the final table and Antonius-Blom: each Omaha hand
    # with its game, betting and four cards a player, whatever its showdown is scored as.
    inputs = [PHH / "wsop" / "2023-43-day5", PHH / "antonius-blom-2009.phh"]
    summary = run([str(path) for path in inputs], tmp_path / "out", output_format="parquet")
    hands = pd.read_parquet(tmp_path / "out" / "hands.parquet")
    seats = pd.read_parquet(tmp_path / "out" / "seats.parquet")
    by_source = {(Path(source), int(key) & 0xFFFFFFFF): key
                 for source, key in zip(hands["source"], hands["hand_key"], strict=True)}
    assert summary["rows_read"] == len(hands)
    omaha = [(path, number, table) for path, number, table in of_games() if table["variant"] != "NS"]
    assert len(omaha) == BUNDLED["PO"] + BUNDLED["FO/8"]
    checked = without_showdown = 0
    for path, number, table in omaha:
        key = by_source[(path, number)]
        row = hands[hands["hand_key"] == key].iloc[0]
        game, betting, _ = GAMES[table["variant"]]
        assert (row["game"], row["betting"], row["variant"]) == (game, betting, table["variant"])
        assert "variant" not in str(row["reason"])
        if row["outcome"] == "rejected":  # a showdown its game does not score yet: no seats rows
            continue
        holes, _ = dealt_and_shown(table)
        mine = seats[seats["hand_key"] == key].sort_values("seat")
        assert mine["hole_cards"].tolist() == [" ".join(split_cards(holes[s])) for s in sorted(holes)]
        checked += 1
        without_showdown += row["outcome"] == "no showdown"
    assert checked >= without_showdown > 0
    rejected = hands[hands["reason"].fillna("").str.contains("is not a game pokerpipe scores")]
    assert sorted(rejected["variant"].unique()) == sorted(NOT_READ[:-1])  # badugi is not at the table


# --- hands written here ---------------------------------------------------------------------------

OMAHA = """variant = 'PO'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = [{actions}]
finishing_stacks = [104, 98, 98]
"""
OMAHA_ACTIONS = ["d dh p1 {p1}", "d dh p2 {p2}", "d dh p3 {p3}", "p3 cc", "p1 cc", "p2 cc",
                 "d db 2c3d4h", "p1 cc", "p2 cc", "p3 cc", "d db 8s", "p1 cc", "p2 cc", "p3 cc",
                 "d db 9s", "p1 cc", "p2 cc", "p3 cc", "p1 sm {p1}", "p2 sm {show}", "p3 sm {p3}"]
SHORT_DECK = """variant = 'NS'
antes = [1, 1, 1]
blinds_or_straddles = [0, 0, 2]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = ['d dh p1 {p1}', 'd dh p2 AsKs', 'd dh p3 QhQd', 'p1 cc', 'p2 cc', 'p3 cc', 'd db {board}', \
'p1 cc', 'p2 cc', 'p3 cc', 'd db Ts', 'p1 cc', 'p2 cc', 'p3 cc', 'd db Js', 'p1 cc', 'p2 cc', 'p3 cc', \
'p1 sm {p1}', 'p2 sm AsKs', 'p3 sm QhQd']
"""


def problem_of(tmp_path: Path, text: str) -> str | None:
    path = tmp_path / "hand.phh"
    path.write_text(text)
    (hands,) = list(phh.read_hands(open_source(path)))
    problem: str | None = phh.replay(hands).rejections.problem[0]
    return problem


def omaha(p1: str = "AhAdKhKd", p2: str = "QcQsJcJs", p3: str = "TdTh7c7d", show: str | None = None) -> str:
    actions = [a.format(p1=p1, p2=p2, p3=p3, show=p2 if show is None else show) for a in OMAHA_ACTIONS]
    return OMAHA.format(actions=", ".join(f"'{a}'" for a in actions))


def test_an_omaha_hand_written_here_is_read_and_checked_by_pokerkit(tmp_path: Path) -> None:
    text = omaha()
    assert problem_of(tmp_path, text) is None
    theirs = pokerkit_chips(HandHistory.loads(text))
    assert theirs.contributed == [2, 2, 2] and theirs.received == [6, 0, 0]  # a pair of aces, two of p1's


@pytest.mark.parametrize("p1, p2, p3, show, reason", [
    # One player dealt three cards: not an Omaha deal.
    ("AhAdKhKd", "QcQsJc", "TdTh7c7d", None,
     "action 'd dh p2 QcQsJc': 3 hole cards, expected 4, 5 or 6 (PO)"),
    ("AhAdKhKdQdJdTd", "QcQsJcJs", "TdTh7c7d", None, "7 hole cards, expected 4, 5 or 6 (PO)"),
    ("AhAd", "QcQsJcJs", "TdTh7c7d", None, "2 hole cards, expected 4, 5 or 6 (PO)"),
    # Five cards are an Omaha deal, but not beside four.
    ("AhAdKhKd", "QcQsJcJs5h", "TdTh7c7d", None,
     "action 'd dh p2 QcQsJcJs5h': 5 hole cards, where the hand's first are 4 (every player holds as many)"),
    # A show of other cards than those dealt, in another order or not.
    ("AhAdKhKd", "QcQsJcJs", "TdTh7c7d", "QcQsJcJh", "p2 shows QcQsJcJh, dealt QcQsJcJs"),
    ("AhAdKhKd", "QcQsJcJs", "TdTh7c7d", "QcQsJc", "3 hole cards, expected 4, 5 or 6 (PO)"),
    ("AhAdKhKd", "QcQsJcAh", "TdTh7c7d", None, "card Ah is dealt twice"),
    ("AhAdKhKd", "QcQsJc2c", "TdTh7c7d", None, "card 2c is dealt twice"),  # a hole card on the board
])
def test_an_omaha_hand_whose_hole_cards_do_not_fit_is_rejected(p1: str, p2: str, p3: str, show: str | None,
                                                               reason: str, tmp_path: Path) -> None:
    problem = problem_of(tmp_path, omaha(p1, p2, p3, show))
    assert problem is not None and reason in problem, problem


def test_a_show_in_another_order_and_five_or_six_cards_a_player_are_read(tmp_path: Path) -> None:
    assert problem_of(tmp_path, omaha(show="JsJcQsQc")) is None
    for p1, p2, p3 in (("AhAdKhKd5c", "QcQsJcJs5d", "TdTh7c7d6c"),
                       ("AhAdKhKd5c5s", "QcQsJcJs5d5h", "TdTh7c7d6c6d")):
        path = tmp_path / "hand.phh"
        path.write_text(omaha(p1, p2, p3))
        (hands,) = list(phh.read_hands(open_source(path)))
        record = phh.replay(hands).settled.record
        assert record.problem.tolist() == [None]
        assert record.holes.shape == (1, 10, len(p1) // 2)
        assert card_texts(record.holes[0, 1]) == split_cards(p2)


def test_hold_em_hole_cards_are_two(tmp_path: Path) -> None:
    text = omaha().replace("variant = 'PO'", "variant = 'NT'")
    assert problem_of(tmp_path, text) == "action 'd dh p1 AhAdKhKd': 4 hole cards, expected 2 (NT)"


@pytest.mark.parametrize("p1, board, card", [
    ("5h6h", "9h8h7h", "5h"), ("AhAd", "2c9h8h", "2c"), ("Ah4d", "9h8h7h", "4d"),
])
def test_a_short_deck_hand_with_a_card_below_the_six_is_rejected(p1: str, board: str, card: str,
                                                                  tmp_path: Path) -> None:
    problem = problem_of(tmp_path, SHORT_DECK.format(p1=p1, board=board))
    assert problem is not None and f"card {card} is not in the 36-card deck, 6 to A" in problem, problem
    # The same cards are a hold'em hand.
    assert problem_of(tmp_path, SHORT_DECK.format(p1=p1, board=board).replace("'NS'", "'NT'")) is None


def test_a_short_deck_hand_of_the_short_deck_is_read_as_pokerkit_plays_it(tmp_path: Path) -> None:
    text = SHORT_DECK.format(p1="6h6d", board="9h8h7h")
    assert problem_of(tmp_path, text) is None
    path = tmp_path / "hand.phh"
    (hands,) = list(phh.read_hands(open_source(path)))
    theirs = pokerkit_chips(HandHistory.loads(text))
    assert phh.replay(hands).contributed[0, :3].tolist() == theirs.contributed == [3, 3, 3]


def test_a_group_of_several_games_reads_each_hand_with_its_own_cards(tmp_path: Path) -> None:
    # Hold'em, Omaha and short-deck hands in one .phhs: the hole cards are as wide as Omaha's, a
    # hold'em hand's two cards first; each hand reads as it does alone.
    files = [PHH / "dwan-ivey-2009.phh", PHH / "antonius-blom-2009.phh", PHH / "phua-xuan-2019.phh",
             PHH / "pluribus" / "30" / "0.phh"]
    path = tmp_path / "mixed.phhs"
    path.write_text("".join(f"[{n}]\n{file.read_text()}\n" for n, file in enumerate(files, start=1)))
    (hands,) = list(phh.read_hands(open_source(path)))
    together = phh.replay(hands).settled.record
    assert together.holes.shape == (4, 10, 4)
    assert together.problem.tolist() == [None] * 4
    assert together.hand["game"].to_pylist() == ["holdem", "omaha", "shortdeck", "holdem"]
    assert together.hand["betting"].to_pylist() == ["no-limit", "pot-limit", "no-limit", "no-limit"]
    for row, file in enumerate(files):
        alone = Read(file).record
        width = alone.holes.shape[2]
        assert (together.holes[row, :, :width] == alone.holes[0]).all(), file
        assert (together.holes[row, :, width:] == NO_CARD).all()
        assert (together.board[row] == alone.board[0]).all()
    assert MAX_HOLE == 6


# --- random legal hands, played by pokerkit -------------------------------------------------------

RANDOM_HANDS = 60
FULL_DECK = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]
SHORT = [repr(card) for card in Deck.SHORT_DECK_HOLDEM]


def play(state: State, rng: random.Random, deck: list[str], *, fold: float, raise_to: float) -> None:
    """Play a pokerkit state to its end with cards of ``deck``, as the hold'em reference plays it."""
    play_randomly(state, rng, fold=fold, raise_to=raise_to, cards=deck)


def random_hand(rng: random.Random, variant: str) -> tuple[str, Chips]:
    """A legal hand of ``variant`` that pokerkit plays, as PHH with its finishing stacks, and its chips.

    Two to nine players (heads-up: the blinds reversed) with stacks from one chip to 200 big
    blinds (all-ins, side pots, blinds posted short); Omaha with two blinds, short-deck with equal
    antes and either a button blind (the last player's, as the bundled hand) or two blinds.
    """
    players = rng.randint(2, 9)
    stacks = [rng.choice([rng.randint(1, 300), rng.randint(300, 3000), rng.randint(3000, 20000)])
              for _ in range(players)]
    blinds = [50, 100] + [0] * (players - 2)
    deck = FULL_DECK
    if variant == "PO":
        game: Any = PotLimitOmahaHoldem(AUTOMATIONS, False, [0] * players, blinds, 100, mode=Mode.CASH_GAME)
    elif variant == "FO/8":
        game = FixedLimitOmahaHoldemHighLowSplitEightOrBetter(AUTOMATIONS, False, [0] * players, blinds, 100,
                                                              200, mode=Mode.CASH_GAME)
    else:
        deck = SHORT
        antes = [rng.choice([10, 50])] * players
        if rng.random() < 0.5:
            blinds = [0] * (players - 1) + [100]  # the button blind
        game = NoLimitShortDeckHoldem(AUTOMATIONS, True, antes, blinds, 100, mode=Mode.CASH_GAME)
    state = game(stacks, players)
    play(state, rng, deck, fold=0.35, raise_to=0.6)
    history = HandHistory.from_game_state(game, state)
    history.finishing_stacks = list(state.stacks)
    text: str = history.dumps()
    return text, chips_of(state)


@pytest.mark.parametrize("variant", list(GAMES))
def test_random_legal_hands_contribute_and_receive_as_pokerkit_says(variant: str, tmp_path: Path) -> None:
    rng = random.Random(f"20240611 {variant}")
    played = [random_hand(rng, variant) for _ in range(RANDOM_HANDS)]
    path = tmp_path / "random.phhs"
    path.write_text("".join(f"[{number}]\n{text}\n\n" for number, (text, _) in enumerate(played, start=1)))
    kinds: Counter[str] = Counter()
    disagreements = []
    for hands in phh.read_hands(open_source(path)):
        replayed = phh.replay(hands)
        record = replayed.settled.record
        assert record.hand["game"].to_pylist() == [GAMES[variant][0]] * len(hands.ordinal)
        assert record.holes.shape[2] == GAMES[variant][2]
        for row, number in enumerate(hands.ordinal.tolist()):
            text, theirs = played[number - 1]
            assert replayed.rejections.problem[row] is None, (number, replayed.rejections.problem[row], text)
            players = len(theirs.contributed)
            got = (replayed.contributed[row, :players].tolist(), replayed.received[row, :players].tolist())
            if got != (theirs.contributed, theirs.received):
                disagreements.append((number, got, (theirs.contributed, theirs.received), text))
            kinds["side pots won apart"] += theirs.pots > 1
            kinds["won by folds"] += theirs.won_by_folds
            kinds["split"] += sum(amount > 0 for amount in theirs.received) > 1
            button_blind = f"blinds_or_straddles = [{', '.join(['0'] * (players - 1))}, 100]"
            kinds["button blind"] += button_blind in text
    assert not disagreements, "\n".join(map(str, disagreements[:5]))
    least = min(kinds["won by folds"], kinds["split"], kinds["side pots won apart"])
    assert least >= RANDOM_HANDS // 10, kinds
    if variant == "NS":
        assert kinds["button blind"] >= RANDOM_HANDS // 5, kinds
