"""The machine's limits and the user's signals: never a hang, never a traceback, nothing lost.

Every fault is made real: a real ``pokerpipe`` process receives a real
signal (``os.kill``), runs under a real address-space limit
(``setrlimit`` in the child), or talks to a real server on 127.0.0.1 that
is not a dask scheduler.  Every process runs under a timeout, so a hang
fails the test instead of stalling the suite.
"""

from __future__ import annotations

import os
import re
import resource
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

TIMEOUT = 120  # seconds for any one process; each takes a few
MIB = 1 << 20


def pokerpipe(*args: str, **options) -> subprocess.Popen:
    """Start ``python -m pipeline ARGS`` with pipes on its standard streams."""
    return subprocess.Popen([sys.executable, "-m", "pipeline", *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **options)


def caught_signals(pid: int) -> int:
    """The mask of signals a process has handlers for (``SigCgt`` in /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigCgt:"):
            return int(line.split()[1], 16)
    raise AssertionError(f"no SigCgt line for process {pid}")


def wait_until_handling(process: subprocess.Popen, signum: int) -> None:
    """Wait until the command line has installed its handler for ``signum``: it is under way."""
    deadline = time.monotonic() + TIMEOUT
    while not caught_signals(process.pid) & (1 << (signum - 1)):
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the handler was never installed"
        time.sleep(0.02)


# --- signals ---------------------------------------------------------------------


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_stop_signal_exits_with_128_plus_the_signal_and_one_line(stop):
    # contest waits on its standard input: the signal lands while the command runs.
    process = pokerpipe("contest")
    wait_until_handling(process, signal.SIGHUP)  # installed last
    os.kill(process.pid, stop)
    stdout, stderr = process.communicate(timeout=TIMEOUT)
    assert process.returncode == 128 + stop  # 130 for Ctrl-C, 143 for SIGTERM
    assert stderr.strip() == f"pokerpipe: stopped by {stop.name}; nothing half-written was published"
    assert stdout == ""


def test_a_signal_ignored_at_start_stays_ignored():
    # As under nohup: a hangup does not stop the command, which then finishes its work.
    process = pokerpipe("contest", preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN))
    wait_until_handling(process, signal.SIGTERM)
    os.kill(process.pid, signal.SIGHUP)
    stdout, stderr = process.communicate("1\nAh Kd 2c 3s Xh\nAs Ad\n", timeout=TIMEOUT)
    assert process.returncode == 0, stderr
    assert stdout == "1\n"


# --- a scheduler address that is not a dask scheduler ---------------------------------


@pytest.fixture
def games(tmp_path) -> Path:
    path = tmp_path / "games.csv"
    path.write_text("Hand1,Hand2\nAAAQQ,QQAAA\n88822,QQ777\n")
    return path


@pytest.fixture
def previous(games, tmp_path) -> tuple[Path, dict[str, bytes]]:
    """An OUTDIR holding a complete earlier run, and its files."""
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "pipeline", "run", str(games), "-o", str(out), "-q"],
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, done.stderr
    return out, contents(out)


def contents(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def run_dask(games: Path, out: Path, scheduler: str,
             *extra: str) -> tuple[subprocess.CompletedProcess, float]:
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "pipeline", "run", str(games), "-o", str(out), "-q",
                           "--engine", "dask", "--scheduler", scheduler, *extra],
                          capture_output=True, text=True, timeout=TIMEOUT)
    return done, time.monotonic() - started


def one_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    return lines[0]


@pytest.fixture
def http_server():
    """A real HTTP server on 127.0.0.1: it accepts a connection and waits for a request."""
    import http.server
    import threading

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"tcp://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_a_server_that_is_not_a_dask_scheduler_fails_within_the_connect_timeout(games, previous, http_server):
    out, before = previous
    done, elapsed = run_dask(games, out, http_server, "--connect-timeout", "2")
    assert done.returncode == 1
    assert one_line(done.stderr) == (f"Error: {http_server} accepts connections but did not answer as a dask "
                                     f"scheduler within 2 s (--connect-timeout): is it a dask scheduler's "
                                     f"address?")
    assert elapsed < 30  # start-up and the 2 s, not dask's wait without end
    assert contents(out) == before


def test_a_port_where_nothing_listens_fails_at_once(games, previous):
    import socket

    with socket.socket() as probe:  # a port that was free a moment ago, and closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    out, before = previous
    done, _ = run_dask(games, out, f"tcp://127.0.0.1:{port}")
    assert done.returncode == 1
    assert one_line(done.stderr) == f"Error: cannot reach the dask scheduler at tcp://127.0.0.1:{port}: " \
                                    f"Connection refused"
    assert contents(out) == before


@pytest.mark.parametrize("address", ["not a url", "tcp://host", "http://127.0.0.1:8786", "tcp://host:99999"])
def test_a_malformed_scheduler_address_is_a_usage_error(games, previous, address):
    out, before = previous
    done, _ = run_dask(games, out, address)
    assert done.returncode == 2
    assert f"Invalid value for '--scheduler': scheduler address {address!r}: expected one like " \
           f"tcp://HOST:8786" in done.stderr
    assert "Traceback" not in done.stderr
    assert contents(out) == before


def test_a_scheduler_without_workers_fails_within_the_connect_timeout(games, previous):
    from distributed import LocalCluster

    out, before = previous
    # dashboard_address ":0": None still serves HTTP on 8787, and warns when another run holds it.
    with LocalCluster(n_workers=0, processes=False, protocol="tcp", host="127.0.0.1",
                      dashboard_address=":0") as empty:
        address = empty.scheduler_address
        done, elapsed = run_dask(games, out, address, "--connect-timeout", "2")
    assert done.returncode == 1
    assert one_line(done.stderr) == (f"Error: the dask scheduler at {address} has no worker after 2 s "
                                     f"(--connect-timeout): start one with dask worker {address}")
    assert elapsed < 30
    assert contents(out) == before


# --- equity: memory flat in --samples ------------------------------------------------


def limited(megabytes: int):
    """A preexec_fn that caps the child's address space, as ``ulimit -v`` does."""
    return lambda: resource.setrlimit(resource.RLIMIT_AS, (megabytes * MIB, megabytes * MIB))


def test_a_billion_samples_run_in_flat_memory_with_progress_until_ctrl_c():
    # Held at once, a billion run-outs take gigabytes (one array of the old draw alone was 2 GB):
    # drawn chunk by chunk they run under 800 MB, show their progress on a terminal, and stop at Ctrl-C.
    terminal, stderr = os.openpty()
    command = [sys.executable, "-m", "pipeline", "equity", "--hand", "AhAs", "--hand", "KdKc",
               "--samples", "1000000000"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr, preexec_fn=limited(800))
    os.close(stderr)
    shown, done = b"", 0
    deadline = time.monotonic() + TIMEOUT
    try:
        while done < 3_000_000:  # a dozen chunks: well past what one chunk holds
            assert process.poll() is None, shown.decode(errors="replace")[-2000:]
            assert time.monotonic() < deadline, shown[-2000:]
            if select.select([terminal], [], [], 0.5)[0]:
                shown += os.read(terminal, 1 << 16)
                counts = re.findall(rb"([0-9,]+) of 1,000,000,000 run-outs", shown)
                done = int(counts[-1].replace(b",", b"")) if counts else 0
        os.kill(process.pid, signal.SIGINT)
        stdout, _ = process.communicate(timeout=TIMEOUT)
        while True:  # the rest of what it wrote on its terminal, up to its end
            try:
                chunk = os.read(terminal, 1 << 16)
            except OSError:  # EIO: nothing left, the process has gone
                break
            if not chunk:
                break
            shown += chunk
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=TIMEOUT)
        os.close(terminal)
    assert process.returncode == 130
    assert stdout == b""
    last = shown.decode().replace("\r\n", "\n").split("\n")[-2:]
    assert last == ["pokerpipe: stopped by SIGINT; nothing half-written was published", ""], shown[-500:]
