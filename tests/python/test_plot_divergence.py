# SPDX-License-Identifier: MIT
"""The divergence sample: recordings of a match replayed from Python, one object's divergence
between the peers plotted with matplotlib (skipped where python3-matplotlib is not installed)."""
import subprocess
import sys

import pytest

from headless_match import Match, parse_arguments, play


def test_the_plot_shows_one_objects_divergence_from_recordings(samples_dir, tmp_path):
    pytest.importorskip("matplotlib")
    match = Match(parse_arguments(["--network", "memory", "--objects", "12", "--seconds", "3", "--settle-seconds", "3",
                                   "--record", str(tmp_path)]))
    try:
        assert play(match).consistent
    finally:
        match.close()
    recordings = sorted(str(p) for p in tmp_path.glob("peer-*.shoalrec"))
    png = tmp_path / "divergence.png"
    done = subprocess.run([sys.executable, str(samples_dir / "plot_divergence.py"), *recordings, "--object", "1",
                           "--out", str(png)], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    first = [line for line in done.stdout.splitlines() if line.startswith("first simulated:")]
    assert len(first) == 2  # peers 1 and 2 against peer 0
    # Predictions of ball 1 (peer 0's) drifted on the others before corrections, then agreed.
    assert all("at the end 0.000 mm" in line for line in first)
    assert any(float(line.split("largest divergence ")[1].split(" mm")[0]) > 0 for line in first)
