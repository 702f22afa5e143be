"""One set or nothing: how `pokerpipe run` publishes OUTDIR, with real faults.

Full and read-only file systems are small tmpfs mounts; signals are sent to
a real `pokerpipe run` process.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline.cli import cli
from pipeline.formats.publish import OUTPUT_NAMES, OutputSet
from pipeline.runs.generate import generate

LOCAL_SET = {"winners.csv", "rejects.csv", "summary.json", "categories.csv", "ties.csv"}
#: Seconds a mount or umount may take.
MOUNT_TIMEOUT = 60
#: Seconds a `pokerpipe run` process may take to start writing, or to exit once signalled.
PROCESS_TIMEOUT = 120


def contents(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by relative path, with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def leftovers(outdir: Path) -> list[str]:
    """Temporary or staging entries in OUTDIR or beside it."""
    beside = [p.name for p in outdir.parent.iterdir() if p.name.startswith(f".{outdir.name}.")]
    inside = [p.name for p in outdir.iterdir() if p.name.startswith(".")] if outdir.is_dir() else []
    return beside + inside


@pytest.fixture
def deals(tmp_path) -> Path:
    path = tmp_path / "deals.csv"
    generate(path, game="holdem", rows=2_000, players=4, seed=3)
    return path


@pytest.fixture
def tmpfs(tmp_path):
    """Mount a small tmpfs; yields a function (size, read_only) -> mount point."""
    mounted: list[Path] = []

    def mount(size: str, *, read_only: bool = False) -> Path:
        point = tmp_path / f"mnt{len(mounted)}"
        point.mkdir()
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(point)],
                              capture_output=True, text=True, timeout=MOUNT_TIMEOUT)
        if done.returncode:
            pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
        mounted.append(point)
        return point

    yield mount
    for point in reversed(mounted):
        subprocess.run(["umount", "-l", str(point)], check=False, timeout=MOUNT_TIMEOUT)


def run_cli(runner, *args: str):
    return runner.invoke(cli, ["run", *args, "-q"])


def test_new_set_replaces_every_earlier_output(runner, deals, tmp_path):
    out = tmp_path / "out"
    assert run_cli(runner, str(deals), "-o", str(out)).exit_code == 0
    assert {p.name for p in out.iterdir()} == LOCAL_SET
    result = run_cli(runner, str(deals), "-o", str(out), "--format", "parquet")
    assert result.exit_code == 0, result.output
    assert {p.name for p in out.iterdir()} == LOCAL_SET - {"winners.csv"} | {"winners.parquet"}
    assert leftovers(out) == []


def test_parts_of_a_cluster_run_go_with_the_old_set(runner, deals, tmp_path):
    out = tmp_path / "out"
    assert run_cli(runner, str(deals), "-o", str(out)).exit_code == 0
    # What a dask run leaves: winners/part-*.
    (out / "winners").mkdir()
    (out / "winners" / "part-00000.csv").write_text("row\n")
    (out / "winners.csv").unlink()
    assert run_cli(runner, str(deals), "-o", str(out)).exit_code == 0
    assert {p.name for p in out.iterdir()} == LOCAL_SET


def test_a_folder_holding_other_files_is_refused_and_kept(runner, deals, tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me")
    result = run_cli(runner, str(deals), "-o", str(out))
    assert result.exit_code == 2
    assert "notes.txt" in result.output and "pokerpipe did not write" in result.output
    assert contents(out) == {"notes.txt": b"keep me"}


def test_outdir_below_a_regular_file_is_one_line(runner, deals, tmp_path):
    (tmp_path / "plain").write_text("x")
    result = run_cli(runner, str(deals), "-o", str(tmp_path / "plain" / "out"))
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [f"Error: {tmp_path / 'plain' / 'out'}: "
                                                  f"{tmp_path / 'plain'} is a file, not a folder"]


def test_a_failed_run_creates_no_outdir_nor_its_parents(runner, tmp_path, write_csv):
    bad = write_csv("bad.csv", "nothing,known\n1,2\n")
    result = run_cli(runner, str(bad), "-o", str(tmp_path / "a" / "b" / "out"))
    assert result.exit_code == 1
    assert not (tmp_path / "a").exists()


def test_bad_input_found_late_keeps_the_previous_set(runner, tmp_path, deals):
    out = tmp_path / "out"
    assert run_cli(runner, str(deals), "-o", str(out)).exit_code == 0
    before = contents(out)
    # A gzip archive cut short: readable for thousands of lines, then broken.
    whole = gzip.compress(deals.read_bytes() * 20)
    truncated = tmp_path / "cut.csv.gz"
    truncated.write_bytes(whole[: len(whole) * 3 // 4])
    result = run_cli(runner, str(deals), str(truncated), "-o", str(out))
    assert result.exit_code == 1
    assert "cut.csv.gz" in result.output
    assert contents(out) == before
    assert leftovers(out) == []


def test_full_disk_keeps_the_previous_set(runner, tmpfs, tmp_path):
    disk = tmpfs("300k")
    out = disk / "out"
    small = tmp_path / "small.csv"
    generate(small, game="holdem", rows=100, players=2, seed=1)
    assert run_cli(runner, str(small), "-o", str(out)).exit_code == 0
    before = contents(out)
    large = tmp_path / "large.csv"
    generate(large, game="holdem", rows=20_000, players=6, seed=2)
    result = run_cli(runner, str(large), "-o", str(out))
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "No space left on device" in lines[0] and str(disk) in lines[0]
    assert contents(out) == before
    assert leftovers(out) == []


def test_full_disk_on_an_empty_outdir_publishes_nothing(runner, tmpfs, tmp_path):
    disk = tmpfs("200k")
    large = tmp_path / "large.csv"
    generate(large, game="holdem", rows=20_000, players=6, seed=2)
    result = run_cli(runner, str(large), "-o", str(disk / "out"))
    assert result.exit_code == 1 and "No space left on device" in result.output
    assert list(disk.iterdir()) == []


def test_read_only_file_system_is_one_line(runner, tmpfs, deals):
    disk = tmpfs("1m")
    subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True, timeout=MOUNT_TIMEOUT)
    result = run_cli(runner, str(deals), "-o", str(disk / "out"))
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Read-only file system" in lines[0], result.output
    generated = runner.invoke(cli, ["generate", "--game", "holdem", "--rows", "10",
                                    "-o", str(disk / "d.csv")])
    assert generated.exit_code == 1 and "Read-only file system" in generated.output
    assert "Traceback" not in generated.output


def test_a_mount_point_outdir_is_refused(runner, tmpfs, deals):
    disk = tmpfs("1m")
    result = run_cli(runner, str(deals), "-o", str(disk))
    assert result.exit_code == 2 and "mount point" in result.output


@contextlib.contextmanager
def _running(source: Path, out: Path) -> Iterator[subprocess.Popen]:
    """A `pokerpipe run` process, killed on the way out if it is still running."""
    # Small batches on one thread: a run of several seconds, so the signal
    # lands mid-run, well before the outputs are published.
    process = subprocess.Popen([sys.executable, "-m", "pipeline", "run", str(source), "-o", str(out), "-q",
                                "--batch-rows", "200", "--threads", "1"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate(timeout=PROCESS_TIMEOUT)  # reaps it and closes its pipes


def _wait_for_staging(out: Path, process: subprocess.Popen) -> None:
    deadline = time.monotonic() + PROCESS_TIMEOUT
    while time.monotonic() < deadline:
        staged = list(out.parent.glob(f".{out.name}.pokerpipe-*.new"))
        if staged and any(list(s.glob(".winners.csv.*.part")) for s in staged):
            return
        assert process.poll() is None, process.communicate(timeout=PROCESS_TIMEOUT)
        time.sleep(0.02)
    raise AssertionError("the run never started writing")


@pytest.fixture(scope="module")
def big(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("big") / "big.csv"
    generate(path, game="holdem", rows=1_000_000, players=6, seed=5)
    return path


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_stop_signal_cleans_up_and_keeps_the_previous_set(runner, deals, big, tmp_path, stop):
    out = tmp_path / "out"
    assert run_cli(runner, str(deals), "-o", str(out)).exit_code == 0
    before = contents(out)
    with _running(big, out) as process:
        _wait_for_staging(out, process)
        process.send_signal(stop)
        _, stderr = process.communicate(timeout=PROCESS_TIMEOUT)
    assert process.returncode == 128 + stop, stderr  # 130 for Ctrl-C, 143 for SIGTERM
    assert stderr.strip() == f"pokerpipe: stopped by {stop.name}; nothing half-written was published"
    assert contents(out) == before
    assert leftovers(out) == []


def test_sigkill_leaves_the_previous_set_and_the_next_run_clears_its_staging(runner, deals, big, tmp_path):
    out = tmp_path / "out"
    assert run_cli(runner, str(deals), "-o", str(out)).exit_code == 0
    before = contents(out)
    with _running(big, out) as process:
        _wait_for_staging(out, process)
        process.kill()
        process.wait(timeout=PROCESS_TIMEOUT)
    assert contents(out) == before
    assert leftovers(out)  # the dead run's staging folder is still there...
    result = run_cli(runner, str(deals), "-o", str(out), "--format", "parquet")
    assert result.exit_code == 0
    assert leftovers(out) == []  # ...until the next run starts
    assert "winners.parquet" in contents(out)


def test_a_live_runs_staging_is_left_alone(tmp_path):
    out = tmp_path / "out"
    with OutputSet(out) as first:
        (first.path / "summary.json").write_text("{}")
        with OutputSet(out) as second:  # another run into the same OUTDIR meanwhile
            assert first.path.exists() and second.path != first.path
            (second.path / "summary.json").write_text('{"second": 1}')
        assert json.loads((out / "summary.json").read_text()) == {"second": 1}
    assert json.loads((out / "summary.json").read_text()) == {}
    assert leftovers(out) == []


def test_an_exception_inside_discards_the_staging_folder(tmp_path):
    out = tmp_path / "out"
    with contextlib.suppress(KeyError), OutputSet(out) as staged:
        (staged.path / "winners.csv").write_text("row\n")
        raise KeyError("bug")
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_output_names_cover_every_file_a_run_writes(runner, deals, tmp_path):
    out = tmp_path / "out"
    assert run_cli(runner, str(deals), "-o", str(out)).exit_code == 0
    assert {p.name for p in out.iterdir()} <= OUTPUT_NAMES
    summary = json.loads((out / "summary.json").read_text())
    assert set(summary["outputs"].values()) <= OUTPUT_NAMES


def test_generate_clears_what_a_killed_generate_left(tmp_path):
    target = tmp_path / "deals.csv"
    stale = tmp_path / ".deals.csv.abc123.part"
    stale.write_text("half")
    generate(target, game="holdem", rows=10, players=2, seed=0)
    assert not stale.exists() and target.exists()
    assert os.listdir(tmp_path) == ["deals.csv"]


# --- nothing of the user's is ever deleted ------------------------------------------------------

RUN_TIMEOUT = 120  # seconds: a run of this file's inputs takes a few; a hang fails, it never blocks


def kept_sets(outdir: Path) -> list[Path]:
    """The new sets a refused publish kept beside OUTDIR."""
    return sorted(outdir.parent.glob(f"{outdir.name}.unpublished-*"))


@pytest.fixture(scope="module")
def slow(tmp_path_factory) -> Path:
    """An archive that a run with --batch-rows 100 on one thread takes seconds to score."""
    path = tmp_path_factory.mktemp("slow") / "slow.csv"
    generate(path, game="holdem", rows=60_000, players=6, seed=8)
    return path


def _start_slow_run(source: Path, out: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "pipeline", "run", str(source), "-o", str(out), "-q",
                             "--batch-rows", "100", "--threads", "1"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_a_file_written_into_outdir_during_the_run_stops_the_publish(runner, deals, slow, tmp_path):
    out = tmp_path / "out"
    assert run_cli(runner, str(deals), "-o", str(out)).exit_code == 0
    before = contents(out)
    process = _start_slow_run(slow, out)
    try:
        _wait_for_staging(out, process)
        # Frozen while the note is written, so the note surely lands before the publish.
        process.send_signal(signal.SIGSTOP)
        (out / "note.txt").write_text("my own notes")
        process.send_signal(signal.SIGCONT)
        _, stderr = process.communicate(timeout=RUN_TIMEOUT)
    finally:
        process.kill()
    assert process.returncode == 1
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and "note.txt" in lines[0] and "Traceback" not in stderr, stderr
    assert contents(out) == {**before, "note.txt": b"my own notes"}  # the previous set, whole
    [kept] = kept_sets(out)
    assert str(kept) in lines[0]
    assert {p.name for p in kept.iterdir()} == LOCAL_SET
    assert json.loads((kept / "summary.json").read_text())["rows_read"] == 60_000
    assert leftovers(out) == []
    # A later run (the note moved away) publishes, and leaves the kept set alone.
    (out / "note.txt").unlink()
    assert run_cli(runner, str(deals), "-o", str(out)).exit_code == 0
    assert kept_sets(out) == [kept] and {p.name for p in kept.iterdir()} == LOCAL_SET


def test_a_writer_appending_in_outdir_through_the_run_loses_nothing(deals, slow, tmp_path):
    out = tmp_path / "out"
    first = subprocess.run([sys.executable, "-m", "pipeline", "run", str(deals), "-o", str(out), "-q"],
                           capture_output=True, text=True, timeout=RUN_TIMEOUT)
    assert first.returncode == 0, first.stderr
    process = _start_slow_run(slow, out)
    written = 0
    try:
        _wait_for_staging(out, process)
        with open(out / "log.txt", "a") as log:  # another tool's output, written as the run goes
            while process.poll() is None:
                log.write(f"line {written}\n")
                log.flush()
                written += 1
                time.sleep(0.002)
            for _ in range(10):  # and on after the run, into the same open file
                log.write(f"line {written}\n")
                written += 1
        _, stderr = process.communicate(timeout=RUN_TIMEOUT)
    finally:
        process.kill()
    assert process.returncode == 1 and "log.txt" in stderr
    assert (out / "log.txt").read_text().splitlines() == [f"line {i}" for i in range(written)]
    assert len(kept_sets(out)) == 1


def _appear_at_the_swap(monkeypatch, name: str, *, exchange: bool = True) -> list[Path]:
    """Make a file appear in OUTDIR after the publish's last look, just before the swap.

    With ``exchange=False`` the system is taken to lack renameat2 (the two-rename path).
    """
    from pipeline.formats import publish

    real = publish._exchange
    seen: list[Path] = []

    def late_writer(first: Path, second: Path) -> bool:
        (second / name).write_text("written at the last moment")
        seen.append(second)
        return real(first, second) if exchange else False

    monkeypatch.setattr(publish, "_exchange", late_writer)
    return seen


@pytest.mark.parametrize("exchange", [True, False], ids=["renameat2", "two renames"])
def test_a_file_that_appears_just_before_the_swap_is_moved_back(runner, deals, tmp_path, monkeypatch,
                                                                exchange):
    out = tmp_path / "out"
    assert run_cli(runner, str(deals), "-o", str(out)).exit_code == 0
    seen = _appear_at_the_swap(monkeypatch, "late.txt", exchange=exchange)
    result = run_cli(runner, str(deals), "-o", str(out), "--format", "parquet")
    assert result.exit_code == 0, result.output
    assert seen == [out]
    assert {p.name for p in out.iterdir()} == LOCAL_SET - {"winners.csv"} | {"winners.parquet", "late.txt"}
    assert (out / "late.txt").read_text() == "written at the last moment"
    assert leftovers(out) == [] and kept_sets(out) == []


def test_a_file_kept_open_across_the_swap_keeps_every_write(deals, tmp_path, monkeypatch):
    out = tmp_path / "out"
    with OutputSet(out) as staged:
        (staged.path / "summary.json").write_text("{}")
    from pipeline.formats import publish

    real = publish._exchange
    handles = []

    def open_writer(first: Path, second: Path) -> bool:
        handle = open(second / "live.log", "w")
        handle.write("before the swap\n")
        handle.flush()
        handles.append(handle)
        return real(first, second)

    monkeypatch.setattr(publish, "_exchange", open_writer)
    with OutputSet(out) as staged:
        (staged.path / "summary.json").write_text('{"new": 1}')
    [handle] = handles
    with handle:
        handle.write("after the swap\n")  # the same open file, now back in OUTDIR
    assert (out / "live.log").read_text() == "before the swap\nafter the swap\n"
    assert json.loads((out / "summary.json").read_text()) == {"new": 1}


def test_outdir_as_a_link_publishes_into_its_target(runner, deals, tmp_path):
    target = tmp_path / "real"
    target.mkdir()
    link = tmp_path / "link"
    link.symlink_to(target, target_is_directory=True)
    for output_format in ("csv", "parquet"):  # a first set, then one replacing it
        result = run_cli(runner, str(deals), "-o", str(link), "--format", output_format)
        assert result.exit_code == 0, result.output
        assert link.is_symlink() and os.readlink(link) == str(target)
        written = LOCAL_SET - {"winners.csv"} | {f"winners.{output_format}"}
        assert {p.name for p in target.iterdir()} == written
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deals.csv", "link", "real"]


def test_outdir_as_a_link_to_a_missing_folder_creates_the_target(runner, deals, tmp_path):
    link = tmp_path / "link"
    link.symlink_to(tmp_path / "later")
    assert run_cli(runner, str(deals), "-o", str(link)).exit_code == 0
    assert link.is_symlink() and {p.name for p in (tmp_path / "later").iterdir()} == LOCAL_SET
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deals.csv", "later", "link"]


def test_outdir_as_a_loop_of_links_is_one_line(runner, deals, tmp_path):
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    result = run_cli(runner, str(deals), "-o", str(tmp_path / "a"))
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1
    assert "loop" in result.output
    assert (tmp_path / "a").is_symlink() and (tmp_path / "b").is_symlink()


@pytest.mark.parametrize("given", [".", "..", "./", "../work"])
def test_an_outdir_that_is_or_holds_the_working_folder_is_refused(runner, deals, tmp_path, monkeypatch,
                                                                  given):
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    result = run_cli(runner, str(deals), "-o", given)
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1
    assert "working folder" in result.output
    assert work.is_dir() and sorted(p.name for p in tmp_path.iterdir()) == ["deals.csv", "work"]
