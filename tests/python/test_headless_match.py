# SPDX-License-Identifier: MIT
"""The sample headless match, as a user runs it: three peers in one Python process over ENet on
loopback, 10% loss each way, bots driving; it must end the same bits on every peer."""
import subprocess
import sys


def test_three_peers_over_enet_at_10_percent_loss_end_with_the_same_bits(samples_dir):
    done = subprocess.run([sys.executable, str(samples_dir / "headless_match.py"), "--loss", "0.1", "--latency-ms", "20",
                           "--objects", "20", "--seconds", "4", "--settle-seconds", "4"],
                          capture_output=True, text=True, timeout=240, cwd=samples_dir)
    print(done.stdout, done.stderr)
    assert done.returncode == 0
    assert "network enet, 10% loss, 20 ms" in done.stdout
    assert "0 bodies differ in bits; 0 states lost; owners agree, all live" in done.stdout
    assert "CONSISTENT: the same bits on every peer, nothing lost" in done.stdout
