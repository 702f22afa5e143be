"""`pokerpipe stats` and `pokerpipe generate` from the command line."""

from __future__ import annotations

import json
import re

import pytest

from pipeline.cli import cli


def test_generate_run_stats(runner, tmp_path):
    archive = tmp_path / "deals.csv"
    result = runner.invoke(cli, ["generate", "--game", "holdem", "--rows", "20000", "--players", "3",
                                 "--seed", "4", "-o", str(archive)])
    assert result.exit_code == 0, result.output
    assert archive.read_text().count("\n") == 20001
    out = tmp_path / "out"
    assert runner.invoke(cli, ["run", str(archive), "-o", str(out), "-q"]).exit_code == 0
    result = runner.invoke(cli, ["stats", str(out), "--json", "--plot", str(tmp_path / "fit.png")])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    tested = report["holdem: first seat's hand (7 cards) against exact shares"]
    assert sum(row["observed"] for row in tested["table"]) == 20000
    assert tested["p_value"] > 0.001
    every = report["holdem: every hand, players = all"]
    assert sum(row["count"] for row in every["table"]) == 60000
    assert (tmp_path / "fit.png").stat().st_size > 1000
    text = runner.invoke(cli, ["stats", str(out)]).output
    assert "chi-square" in text and "winning hands" in text


TESTED = "holdem: first seat's hand (7 cards) against exact shares"


@pytest.mark.parametrize("inputs, origin", [
    (["phh"], "the deals come from hand histories (phh)"),
    (["pokerstars"], "the deals come from hand histories (pokerstars)"),
    (["phh", "pokerstars"], "the deals come from hand histories (phh, pokerstars)"),
    (["deals.csv", "phh"], "some deals come from hand histories (phh)"),
])
def test_no_chi_square_test_of_hands_from_hand_histories(runner, tmp_path, inputs, origin):
    from .conftest import RAW

    out = tmp_path / "out"
    result = runner.invoke(cli, ["run", *(str(RAW / name) for name in inputs), "-o", str(out), "-q"])
    assert result.exit_code == 0, result.output
    scored = json.loads((out / "summary.json").read_text())["rows_scored"]
    text = runner.invoke(cli, ["stats", str(out)])
    assert text.exit_code == 0, text.output
    tested = text.output.split(TESTED)[1].split("\n\n")[0].splitlines()
    verdict = [line for line in tested if line.startswith("chi-square")]
    assert verdict == [f"chi-square: does not apply: {origin}: a hand shown down is no random deal "
                       f"(players fold weak hands)"], text.output
    assert "degrees of freedom" not in text.output and "p =" not in text.output
    # The observed-vs-exact table is still there, one row per category.
    assert tested[1].split() == ["category", "observed", "observed_share", "exact_share", "expected",
                                 "residual"]
    reports = json.loads(runner.invoke(cli, ["stats", str(out), "--json"]).output)
    report = reports[TESTED]
    assert report["p_value"] is None and report["not_applicable"].startswith(origin)
    # Every hand scored is a first seat's hand of its game: hold'em's here, Omaha's and
    # short-deck's (real PHH hands of theirs) in their own parts.
    firsts = [part for title, part in reports.items() if "first seat's hand" in title]
    assert sum(row.get("observed", row.get("count", 0)) for part in firsts for row in part["table"]) == scored
    printed = sum(int(line.split()[-5]) for line in tested[2:-1])
    assert printed == sum(row["observed"] for row in report["table"])
    assert runner.invoke(cli, ["stats", str(out), "--plot", str(tmp_path / "fit.png")]).exit_code == 0
    assert (tmp_path / "fit.png").read_bytes().startswith(b"\x89PNG")


def test_the_chi_square_test_applies_to_generated_deals(runner, tmp_path):
    archive, out = tmp_path / "deals.parquet", tmp_path / "out"
    assert runner.invoke(cli, ["generate", "--game", "holdem", "--rows", "5000", "--players", "4",
                               "--seed", "11", "-o", str(archive)]).exit_code == 0
    assert runner.invoke(cli, ["run", str(archive), "-o", str(out), "-q"]).exit_code == 0
    text = runner.invoke(cli, ["stats", str(out)]).output
    assert re.search(r"^chi-square \d+\.\d\d on \d+ degrees of freedom, p = \S+$", text, re.MULTILINE), text
    assert "does not apply" not in text
    report = json.loads(runner.invoke(cli, ["stats", str(out), "--json"]).output)[TESTED]
    assert report["not_applicable"] is None and 0 < report["p_value"] <= 1


def test_stats_needs_a_run_folder(runner, tmp_path):
    result = runner.invoke(cli, ["stats", str(tmp_path)])
    assert result.exit_code == 1 and "summary.json" in result.output


def test_generate_refuses_a_contest_file_for_larvis(runner, tmp_path):
    result = runner.invoke(cli, ["generate", "--game", "larvis", "--rows", "5", "-o", str(tmp_path / "x.in")])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"{tmp_path / 'x.in'}: contest files" in result.output and "game 'larvis' needs" in result.output
    assert list(tmp_path.iterdir()) == []


def test_a_million_seven_card_hands_fit_the_exact_shares(runner, tmp_path):
    # One player per deal: a million independent seven-card hands.
    archive = tmp_path / "hands.parquet"
    assert runner.invoke(cli, ["generate", "--game", "holdem", "--rows", "1000000", "--players", "1",
                               "--seed", "2012", "-o", str(archive)]).exit_code == 0
    out = tmp_path / "out"
    result = runner.invoke(cli, ["run", str(archive), "-o", str(out), "-q", "--format", "parquet"])
    assert result.exit_code == 0, result.output
    report = json.loads(runner.invoke(cli, ["stats", str(out), "--json"]).output)
    tested = report["holdem: first seat's hand (7 cards) against exact shares"]
    assert sum(row["observed"] for row in tested["table"]) == 1_000_000
    assert tested["p_value"] > 0.001
    # Each category on its own: within 4 standard deviations of its exact count
    # (two-sided 6e-5 per category, 6e-4 for the nine together).
    assert all(abs(row["residual"]) < 4 for row in tested["table"]), tested["table"]


def test_progress_line_shows_rows_and_rate_only_when_enabled(capsys):
    from pipeline.cli import _Progress

    shown, quiet = _Progress(enabled=True), _Progress(enabled=False)
    shown(1_234_567, 987_654.3)
    quiet(1_234_567, 987_654.3)
    shown.close()
    quiet.close()
    line = "1,234,567 rows  987,654 rows/s"
    assert capsys.readouterr().err == f"\r{line}\r{' ' * len(line)}\r"  # shown, then cleared


def test_no_progress_line_when_stderr_is_not_a_terminal(runner, tmp_path):
    from .conftest import RAW

    result = runner.invoke(cli, ["run", str(RAW / "deals.csv"), "-o", str(tmp_path)])
    assert result.exit_code == 0 and "rows/s" not in result.stderr


@pytest.fixture
def small_run(runner, tmp_path):
    archive = tmp_path / "deals.csv"
    assert runner.invoke(cli, ["generate", "--game", "holdem", "--rows", "3", "--players", "2",
                               "-o", str(archive)]).exit_code == 0
    out = tmp_path / "out"
    assert runner.invoke(cli, ["run", str(archive), "-o", str(out), "-q"]).exit_code == 0
    return out


def test_counts_print_as_integers_and_few_deals_say_so(runner, small_run):
    result = runner.invoke(cli, ["stats", str(small_run)])
    assert result.exit_code == 0, result.output
    assert "too few deals for a test" in result.output and "nan" not in result.output.lower()
    assert not re.search(r"\b\d+\.0+\b", result.output.split("every hand")[1]), result.output
    document = json.loads(runner.invoke(cli, ["stats", str(small_run), "--json"]).output)
    tested = next(part for title, part in document.items() if "first seat" in title)
    assert tested["p_value"] is None


@pytest.mark.parametrize("name, text, named", [
    ("categories.csv", "game,players,scope\nholdem,all,hand\n", "missing column category"),
    ("categories.csv", "\0\0\0binary", "categories.csv"),
    ("categories.csv",
     "game,players,scope,category,count,share,wins,ties\nholdem,all,hand,Pair,lots,0.1,1,2\n",
     "a count is not a number"),
    ("summary.json", "{not json", "summary.json: not a readable summary"),
    ("summary.json", "[]", "summary.json: no \"game\" entry"),
])
def test_a_corrupt_run_folder_is_named_in_one_line(runner, small_run, name, text, named):
    (small_run / name).write_text(text)
    result = runner.invoke(cli, ["stats", str(small_run)])
    assert result.exit_code == 1, result.output
    assert result.output.count("\n") == 1 and named in result.output and "Traceback" not in result.output


def edited(text: str, change: str) -> str:
    """categories.csv of a run changed as a careless hand or a full disk would."""
    lines = text.splitlines(keepends=True)
    if change == "cut":
        return text[:len(text) // 2]
    if change == "last row gone":
        return "".join(lines[:-1])
    if change == "a count changed":
        fields = lines[3].split(",")
        fields[4] = str(int(fields[4]) + 7)  # game, players, scope, category, count
        return "".join(lines[:3] + [",".join(fields)] + lines[4:])
    raise ValueError(change)


@pytest.mark.parametrize("change", ["cut", "last row gone", "a count changed"])
def test_a_table_that_is_not_the_runs_is_refused_by_the_summarys_copy(runner, small_run, change):
    path = small_run / "categories.csv"
    path.write_text(edited(path.read_text(), change))
    result = runner.invoke(cli, ["stats", str(small_run)])
    assert result.exit_code == 1 and result.output.count("\n") == 1, result.output
    assert "categories.csv" in result.output and "summary.json" in result.output


HEADER = "game,players,scope,category,count,share,wins,ties\n"


@pytest.mark.parametrize("rows, named", [
    ("holdem,all,first_seat,pair,5,1,,\n", "line 2: a category the game does not have"),
    ("holdem,all,first_seat,,5,1,,\n", "line 2: a category the game does not have"),
    ("holdem,all,hand,Pair,5,1,0,0\nomaha,all,hand,Flush,5,1,0,0\nomaha,all,hand,Pairs,5,1,0,0\n",
     "line 4: a category the game does not have"),
    ("stud,all,hand,Pair,5,1,0,0\n", "line 2: unknown game 'stud'"),
    (",all,hand,Pair,5,1,0,0\n", "line 2: a game is empty"),
    ("holdem,all,hand,Pair,-5,1,0,0\n", "line 2: a count is negative"),
    ("holdem,all,hand,Pair,5,1,0,-3\n", "line 2: a count is negative"),
    ("holdem,all,hand,Pair,,1,0,0\n", "line 2: a count is empty"),
    ("holdem,all,hand,Pair,inf,1,0,0\n", "a count is not a number"),
    ("holdem,all,hand,Pair,99999999999999999999999,1,0,0\n", "a count is not a number"),
    ("holdem,all,hand,Pair,5,-0.5,0,0\n", "line 2: a share is not from 0 to 1"),
    ("holdem,all,hand,Pair,5,1,0,0\nholdem,all,hand,Pair,5,1,0,0\n", "line 3: a category listed twice"),
    ("", "no rows"),
])
def test_a_table_no_run_writes_is_refused_without_the_summarys_copy(runner, small_run, rows, named):
    (small_run / "summary.json").write_text('{"game": "holdem"}')  # no statistics to compare with
    (small_run / "categories.csv").write_text(HEADER + rows)
    result = runner.invoke(cli, ["stats", str(small_run)])
    assert result.exit_code == 1 and result.output.count("\n") == 1, result.output
    assert named in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("summary, named", [('{"game": ["holdem"]}', "unknown game"),
                                            ("[" * 100_000, "not a readable summary"),
                                            ('{"game": "holdem", "inputs": {"format": "csv"}}',
                                             '"inputs" is not a list of inputs'),
                                            ('{"game": "holdem", "inputs": [{"path": "deals.csv"}]}',
                                             '"inputs" is not a list of inputs')])
def test_a_summary_no_run_writes_is_one_line(runner, small_run, summary, named):
    (small_run / "summary.json").write_text(summary)
    result = runner.invoke(cli, ["stats", str(small_run)])
    assert result.exit_code == 1 and result.output.count("\n") == 1 and named in result.output


def test_plot_on_a_folder_below_a_file_is_one_line(runner, small_run, tmp_path):
    (tmp_path / "file").write_text("x")
    result = runner.invoke(cli, ["stats", str(small_run), "--plot", str(tmp_path / "file" / "fit.png")])
    assert result.exit_code == 1 and result.output.count("\n") == 1
    assert str(tmp_path / "file") in result.output


# --- nothing overwritten without being asked ---------------------------------------------------

def test_plot_refuses_an_existing_file_unless_forced(runner, small_run, tmp_path):
    notes = tmp_path / "fit.png"
    notes.write_text("my notes")
    result = runner.invoke(cli, ["stats", str(small_run), "--plot", str(notes)])
    assert result.exit_code == 2 and result.output.count("\n") == 1
    assert "already exists; pass --force" in result.output and notes.read_text() == "my notes"
    result = runner.invoke(cli, ["stats", str(small_run), "--plot", str(notes), "--force"])
    assert result.exit_code == 0, result.output
    assert notes.read_bytes().startswith(b"\x89PNG")


def test_generate_refuses_an_existing_file_unless_forced(runner, tmp_path):
    thesis = tmp_path / "thesis.txt"
    thesis.write_text("three years of work")
    result = runner.invoke(cli, ["generate", "--game", "holdem", "--rows", "5", "-o", str(thesis)])
    assert result.exit_code == 2 and result.output.count("\n") == 1
    assert "already exists" in result.output and "--force" in result.output
    assert thesis.read_text() == "three years of work"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["thesis.txt"]  # no temporary file left
    result = runner.invoke(cli, ["generate", "--game", "holdem", "--rows", "5", "--players", "2",
                                 "-o", str(thesis), "--force"])
    assert result.exit_code == 0, result.output
    assert thesis.read_text().splitlines()[0].strip() == "2"  # a contest file: N of the first instance


@pytest.mark.parametrize("name", ["deals.csv", "deals.csv.gz", "deals.parquet", "deals.in"])
def test_a_file_that_appears_while_generate_writes_is_left_alone(tmp_path, monkeypatch, name):
    from pipeline.errors import OutputError
    from pipeline.formats import writers
    from pipeline.runs.generate import generate

    target = tmp_path / name
    real = writers.rename_new

    def someone_else_first(source, destination):
        destination.write_text("someone else's")  # written between the check and the rename
        return real(source, destination)

    monkeypatch.setattr(writers, "rename_new", someone_else_first)
    with pytest.raises(OutputError, match="appeared while it was written"):
        generate(target, game="holdem", rows=10, players=2)
    assert target.read_text() == "someone else's"
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


@pytest.mark.parametrize("suffix, magic", [(".png", b"\x89PNG"), (".svg", b"<svg"), (".pdf", b"%PDF"),
                                           (".PDF", b"%PDF")])
def test_plot_writes_the_format_its_suffix_names(runner, small_run, tmp_path, suffix, magic):
    picture = tmp_path / f"fit{suffix}"
    result = runner.invoke(cli, ["stats", str(small_run), "--plot", str(picture)])
    assert result.exit_code == 0, result.output
    head = picture.read_bytes()[:400]
    assert magic in head
    assert (b"\x89PNG" in head) == (magic == b"\x89PNG")


@pytest.mark.parametrize("name, named", [("fit.jpg", "'.jpg'"), ("fit", "without a suffix"),
                                         ("", "needs a file name")])
def test_plot_refuses_a_name_of_no_known_format(runner, small_run, tmp_path, name, named):
    before = sorted(tmp_path.rglob("*"))
    result = runner.invoke(cli, ["stats", str(small_run), "--plot", str(tmp_path / name) if name else ""])
    assert result.exit_code == 2 and result.output.count("\n") == 1, result.output
    assert named in result.output and ".png, .svg, .pdf" in result.output
    assert sorted(tmp_path.rglob("*")) == before


@pytest.mark.parametrize("as_json", [False, True], ids=["tables", "json"])
def test_plot_without_matplotlib_prints_the_tables_then_names_what_to_install(runner, small_run, tmp_path,
                                                                              as_json):
    from .conftest import run_hiding

    options = ["--json"] if as_json else []
    alone = runner.invoke(cli, ["stats", str(small_run), *options])
    assert alone.exit_code == 0 and TESTED in alone.stdout, alone.output
    picture = tmp_path / "fit.png"
    done = run_hiding(["matplotlib"], "-m", "pipeline", "stats", small_run, *options, "--plot", picture)
    # The tables (or their JSON) as without --plot, then one line, and the plot asked for is not there.
    assert done.stdout == alone.stdout
    assert done.stderr == ("Error: --plot needs matplotlib (No module named 'matplotlib'): "
                           "pip install matplotlib\n")
    assert done.returncode == 1
    assert sorted(path.name for path in tmp_path.iterdir()) == ["deals.csv", "out"]  # nor a temporary file


def test_plot_never_creates_folders(runner, small_run, tmp_path):
    missing = tmp_path / "nonexistent" / "deeper"
    result = runner.invoke(cli, ["stats", str(small_run), "--plot", str(missing / "x.png")])
    assert result.exit_code == 1 and result.output.count("\n") == 1
    assert f"{missing} does not exist" in result.output
    assert not (tmp_path / "nonexistent").exists()
