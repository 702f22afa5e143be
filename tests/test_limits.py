"""The machine's limits and the user's signals: never a hang, never a traceback, nothing lost.

Every fault is made real: a real ``pokerpipe`` process receives a real
signal (``os.kill``), runs under a real address-space limit
(``setrlimit`` in the child), or talks to a real server on 127.0.0.1 that
is not a dask scheduler.  Every process runs under a timeout, so a hang
fails the test instead of stalling the suite.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

TIMEOUT = 120  # seconds for any one process; each takes a few


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
