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
import threading
import time
from pathlib import Path

import pytest

from pipeline.games import registry
from pipeline.runs.runner import Run

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


#: ``python -m pipeline --help`` with a stop signal sent while numpy is being imported.
DURING_IMPORTS = """\
import os, runpy, signal, sys
stop = signal.Signals[sys.argv[1]]
class SignalAtNumpy:  # an import finder that finds nothing: it only sends the signal
    def find_spec(self, name, path, target=None):
        if name == "numpy":
            os.kill(os.getpid(), stop)
sys.meta_path.insert(0, SignalAtNumpy())
sys.argv = ["pokerpipe", "--help"]
runpy.run_module("pipeline", run_name="__main__")
"""


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_stop_signal_while_the_libraries_load_prints_the_same_one_line(stop):
    # Before the command line's own handlers: a KeyboardInterrupt traceback, or no word at all.
    done = subprocess.run([sys.executable, "-c", DURING_IMPORTS, stop.name], capture_output=True, text=True,
                          timeout=TIMEOUT)
    assert done.returncode == 128 + stop
    assert done.stderr.strip() == f"pokerpipe: stopped by {stop.name}; nothing half-written was published"
    assert done.stdout == ""  # stopped before the help was printed


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
    # The progress line is cleared (written over with spaces), then the stop line starts the line.
    progress, _, said = last[0].rpartition("\r")
    assert progress.endswith("\r" + " " * len(progress.rsplit("\r", 2)[-2])), shown[-500:]
    assert [said, last[1]] == ["pokerpipe: stopped by SIGINT; nothing half-written was published", ""], \
        shown[-500:]


# --- memory and threads running out -------------------------------------------------

#: Environment of a limited child: numpy's BLAS threads (unused here) would take a share of
#: the limit that depends on the machine's cores.
LIMITED_ENV = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}


def imported_size() -> int:
    """Address space of a process that has imported the command line, in MiB: the floor of any limit."""
    done = subprocess.run([sys.executable, "-c", "import pipeline.cli, pipeline.runs.runner; "
                           "print(open('/proc/self/statm').read().split()[0])"],
                          capture_output=True, text=True, timeout=TIMEOUT, env=LIMITED_ENV, check=True)
    return int(done.stdout) * os.sysconf("SC_PAGE_SIZE") // MIB


def limits(address_space: int, stack: int | None = None):
    """A preexec_fn setting the child's address space (and thread stacks) in MiB, as ulimit -v, -s."""
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (address_space * MIB, address_space * MIB))
        if stack is not None:
            resource.setrlimit(resource.RLIMIT_STACK, (stack * MIB, stack * MIB))
    return apply


def run_limited(preexec, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pipeline", *args], capture_output=True, text=True,
                          timeout=TIMEOUT, env=LIMITED_ENV, preexec_fn=preexec)


@pytest.fixture(scope="module")
def many_deals(tmp_path_factory) -> Path:
    from pipeline.runs.generate import generate

    path = tmp_path_factory.mktemp("deals") / "deals.csv"
    generate(path, game="holdem", rows=1_200_000, players=6, seed=8)
    return path


@pytest.mark.parametrize("command", ["run", "equity"])
def test_running_out_of_memory_is_one_line_naming_the_limit(games, many_deals, tmp_path, command):
    # Room for the program and for small batches, not for 1.2 million rows read at once.
    limit = imported_size() + 256
    preexec = limits(limit)
    out = tmp_path / "out"
    small = run_limited(preexec, "run", str(games), "-o", str(out), "-q")
    assert small.returncode == 0, small.stderr  # the limit leaves room for a run
    before = contents(out)
    done = run_limited(preexec, command, str(many_deals), "-o", str(out), "-q", "--batch-rows", "2000000")
    assert done.returncode == 1
    line = one_line(done.stderr)
    assert line.startswith(f"Error: out of memory under the address-space limit of {limit:,} MiB "
                           f"(ulimit -v): raise the limit, or lower --batch-rows ("), line
    assert contents(out) == before  # the previous set, whole
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.csv", "out"]  # no staging folder left


def test_a_thread_that_cannot_start_is_one_line_naming_the_limit(games, tmp_path):
    # Stacks of 512 MiB in an address space with room for one: the run's threads cannot all start.
    limit = imported_size() + 700
    out = tmp_path / "out"
    done = run_limited(limits(limit, stack=512), "run", str(games), "-o", str(out), "-q", "--threads", "8",
                       "--batch-rows", "1")
    assert done.returncode == 1
    line = one_line(done.stderr)
    assert line.startswith(f"Error: cannot start a thread under the address-space limit of {limit:,} MiB "
                           f"(ulimit -v) with stacks of 512 MiB (ulimit -s): raise the limit, or lower "
                           f"--threads ("), line
    assert not out.exists()


def test_memory_errors_flow_through_the_output_set_as_one_line_errors(tmp_path):
    import pyarrow as pa

    from pipeline.errors import ResourceError
    from pipeline.formats.publish import OutputSet

    out = tmp_path / "out"
    with OutputSet(out) as first:
        (first.path / "summary.json").write_text("{}")
    for error in (MemoryError(), pa.ArrowMemoryError("malloc of size 904640 failed"),
                  RuntimeError("can't start new thread"),
                  pa.ArrowException("Unknown error: Failed to launch worker thread: Resource temporarily "
                                    "unavailable")):
        with pytest.raises(ResourceError) as raised, OutputSet(out) as staged:
            (staged.path / "summary.json").write_text('{"half": true}')
            raise error
        assert raised.value.__cause__ is error and "\n" not in str(raised.value)
        assert (out / "summary.json").read_text() == "{}"  # the previous set, whole
        assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
    with pytest.raises(RuntimeError, match="a bug"), OutputSet(out):  # anything else stays itself
        raise RuntimeError("a bug")


def test_tables_short_of_memory_ahead_of_the_run_are_built_by_the_run(tmp_path, monkeypatch):
    """The thread that builds a game's tables ahead of the first batch, short of memory, ends
    without a traceback: the batches build the tables, and the run's outputs are the same."""
    deals = Path(__file__).resolve().parent.parent / "data" / "raw" / "deals.csv"
    Run([str(deals)], tmp_path / "before", threads=2).execute()
    game = type(registry.get("holdem"))

    def short_of_memory(self) -> None:
        raise MemoryError("Unable to allocate 4.30 MiB")

    monkeypatch.setattr(game, "prepare", short_of_memory)
    failed: list[threading.ExceptHookArgs] = []
    monkeypatch.setattr(threading, "excepthook", failed.append)
    Run([str(deals)], tmp_path / "after", threads=2).execute()
    assert failed == []
    for name in ("winners.csv", "categories.csv", "rejects.csv"):
        assert (tmp_path / "after" / name).read_bytes() == (tmp_path / "before" / name).read_bytes()
