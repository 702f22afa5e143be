"""`pokerpipe compare`: one Larvis game, as the original tool takes it."""

from __future__ import annotations

import re
from importlib.metadata import version

import pytest

from pipeline.cli import cli


def test_spec_table_positional_and_flags(runner, spec_games):
    for game in spec_games:
        positional = runner.invoke(cli, ["compare", game["Hand1"], game["Hand2"]])
        flags = runner.invoke(cli, ["compare", "--hand1", game["Hand1"], "--hand2", game["Hand2"]])
        assert positional.exit_code == flags.exit_code == 0
        assert positional.output == flags.output == game["Winner"] + "\n"


@pytest.mark.parametrize("hand1, hand2, message", [
    ("AAAQ", "QQAAA", "hand1 'AAAQ': 4 symbols, expected 5"),
    ("AAAQQ", "QQAA1", "hand2 'QQAA1': unknown symbol '1'"),
    ("KKKKK", "QQAAA", "hand1 'KKKKK': 'K' appears 5 times, at most 4"),
])
def test_a_bad_hand_exits_2_naming_hand_and_reason(runner, hand1, hand2, message):
    result = runner.invoke(cli, ["compare", hand1, hand2])
    assert result.exit_code == 2
    assert message in result.output


def test_two_hands_are_needed(runner):
    result = runner.invoke(cli, ["compare", "AAAQQ"])
    assert result.exit_code == 2 and "give two hands" in result.output


def test_version_and_help(runner):
    assert runner.invoke(cli, ["--version"]).output == f"pokerpipe, version {version('pokerpipe')}\n"
    help_text = runner.invoke(cli, ["-h"]).output
    listed = re.findall(r"^  (\S+)  ", help_text.split("\nCommands:\n", 1)[1], re.M)
    assert sorted(listed) == ["compare", "contest", "equity", "generate", "players", "run", "stats"]
