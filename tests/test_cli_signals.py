"""A table run with -o stopped by SIGTERM or SIGINT (Ctrl-C) leaves no
partial output: neither the temporary .pctcodec-*.part file it writes to nor
a half-written OUT; a file OUT already held stays as it was. The exit status
is the shell's for the signal (128 + its number)."""
import signal
import subprocess
import sys
import time

import pytest

from _child import child_env

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def _wait_for(predicate, proc, timeout=60.0):
    end = time.monotonic() + timeout
    while not predicate():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_signal_during_output_leaves_no_part_file(tmp_path, signum):
    out = tmp_path / "out.csv"
    out.write_bytes(b"kept\n")
    # The input comes from a pipe kept open: the run is in the middle of its
    # table, its temporary output file made, when the signal comes.
    proc = subprocess.Popen([sys.executable, "-m", "pctcodec", "quote", "--column", "url", "-",
                             "-o", str(out)], cwd=str(tmp_path), env=child_env(),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        proc.stdin.write(b"url\na b\n" * 1000)
        proc.stdin.flush()
        _wait_for(lambda: list(tmp_path.glob(".pctcodec-*.part")), proc)
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 128 + signum, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.csv"]
    assert out.read_bytes() == b"kept\n"


@pytest.mark.parametrize("interrupt", [KeyboardInterrupt, "Terminated"])
def test_signal_inside_fdopen_is_not_replaced_by_ebadf(tmp_path, monkeypatch, interrupt):
    # The signal can land inside os.fdopen after the file object took the
    # descriptor and was dropped (closing it): the run must still unwind
    # with the signal, not with EBADF from closing the descriptor again.
    import os

    from pctcodec.cli import _streams

    if interrupt == "Terminated":
        interrupt = _streams.Terminated

    def fdopen(handle, mode):
        os.close(handle)
        raise interrupt

    monkeypatch.setattr(_streams.os, "fdopen", fdopen)
    with pytest.raises(interrupt):
        _streams.Output(str(tmp_path / "out.csv"))
    assert list(tmp_path.iterdir()) == []
