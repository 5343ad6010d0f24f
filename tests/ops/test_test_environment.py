"""The test command leaves no process behind (issue 13 item 9): a pytest run that started
the bundled redis-server stops it before removing its run directory."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

PROBE = """
import os
from pathlib import Path

def test_bundled_redis_runs():
    run_dir = Path(os.environ["MEMSYNC_DATA_DIR"]).parent
    pid = (run_dir / "redis" / "redis.pid").read_text().strip()
    Path(os.environ["PROBE_OUT"]).write_text(f"{pid} {run_dir}")
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie still answers signal 0 until its parent reaps it; it no longer runs.
    stat = Path(f"/proc/{pid}/stat")
    return stat.exists() and stat.read_text().split()[2] != "Z"


def test_a_test_run_stops_its_bundled_redis(tmp_path: Path) -> None:
    (tmp_path / "test_probe.py").write_text(PROBE)
    out = tmp_path / "probe.out"
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    env["PROBE_OUT"] = str(out)
    env["PYTHONPATH"] = str(REPO)
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "tests.environment", "-o", "addopts=",
         "--rootdir", str(tmp_path), "-p", "no:cacheprovider", str(tmp_path / "test_probe.py")],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    pid_text, run_dir = out.read_text().split()
    pid = int(pid_text)
    deadline = time.monotonic() + 5
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(pid), f"redis-server {pid} outlived the test run"
    assert not Path(run_dir).exists(), "the run directory was left behind"
