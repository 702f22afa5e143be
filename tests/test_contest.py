"""`pokerpipe contest`: byte for byte the judges' output, and broken instances."""

from __future__ import annotations

import csv
import json

import pytest

from pipeline.cli import cli

from .conftest import DATA, RAW


@pytest.mark.parametrize("name", [DATA / "holdem_contest_sample", RAW / "contest"])
def test_samples_byte_for_byte(runner, name):
    expected = name.with_suffix(".out").read_text()
    from_file = runner.invoke(cli, ["contest", str(name.with_suffix(".in"))])
    from_stdin = runner.invoke(cli, ["contest"], input=name.with_suffix(".in").read_text())
    assert from_file.exit_code == from_stdin.exit_code == 0
    assert from_file.output == from_stdin.output == expected


@pytest.mark.parametrize("text, message", [
    ("1\nAh Kd 2c 3s Xh\nAs Ad\n11\n", "line 4: 11 players, expected 1 to 10"),
    ("1\nAh Kd 2c 3s Xh\nAs Ad\n0\n", "line 4: 0 players, expected 1 to 10"),
    ("1\nAh Kd 2c 3s Xh\nAs Ad\nx\n", "line 4: expected the number of players"),
    ("1\nAh Kd 2c 3s Xh\nAs Ad\n2\nAh Kd 2c 3s Xh\nAs Ad\n", "line 7: file ends where player 2's cards"),
    ("1\nAh Kd 2c 3s Xh\nAs Ad\n1\nAh Kd 2c 3s\nAs Ad\n", "line 5: board 'Ah Kd 2c 3s': 4 cards"),
    ("1\nAh Kd 2c 3s Xh\nAs Ad\n2\nAh Kd 2c 3s Xh\nAs Qd\nQd 2d\n",
     "line 7: p2 'Qd 2d': card Qd is dealt twice"),
    ("1\nAh Kd 2c 3s Xh\nAs Ad\n1\nAh Kd 2c 3s Xh\nAs 1d\n", "line 6: p1 'As 1d': unknown card '1d'"),
])
def test_a_broken_instance_stops_after_the_valid_output(runner, text, message):
    result = runner.invoke(cli, ["contest"], input=text)
    assert result.exit_code == 1
    assert result.stdout.startswith("1\n")
    assert message in result.output


def test_blank_lines_between_instances_are_allowed(runner):
    text = "1\nAh Kd 2c 3s Xh\nAs Ad\n\n2\nAh Kd 2c 3s Xh\n9s 9d\nQs Qd\n"
    result = runner.invoke(cli, ["contest"], input=text)
    assert result.exit_code == 0 and result.output == "1\n2\n"


def test_bom_crlf_and_blank_lines_in_a_contest_file(runner, tmp_path):
    path = tmp_path / "bom.in"
    path.write_bytes("\ufeff2\r\nAh Kd 2c 3s 4h\r\nAs Ad\r\nQc Qd\r\n\r\n\r\n"
                     "1\r\nAh Kd 2c 3s 4h\r\n2s 7d\r\n\n".encode())
    result = runner.invoke(cli, ["contest", str(path)])
    assert result.exit_code == 0, result.output
    assert result.stdout == "1\n1\n"
    out = tmp_path / "out"
    result = runner.invoke(cli, ["run", str(path), "-o", str(out), "-q"])
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["inputs"][0]["blank_lines"] == 3 and summary["rows_scored"] == 2


def test_a_bad_card_is_named_on_its_own_line_with_the_instance_as_raw(runner, tmp_path):
    text = "1\nAh Kd 2c 3s 4h\nAs Ad\n3\nAh Kd 2c 3s 4h\nQc Qd\n2s 7d\nZz 9c\n"
    path = tmp_path / "bad.in"
    path.write_text(text)
    out = tmp_path / "out"
    result = runner.invoke(cli, ["run", str(path), "-o", str(out), "-q"])
    assert result.exit_code == 0, result.output
    [reject] = list(csv.DictReader(open(out / "rejects.csv")))
    assert reject["line"] == "8" and reject["source_row"] == "2"
    assert reject["raw"] == "3\nAh Kd 2c 3s 4h\nQc Qd\n2s 7d\nZz 9c"
    result = runner.invoke(cli, ["contest", str(path)])
    assert result.exit_code == 1 and "line 8: " in result.stderr
