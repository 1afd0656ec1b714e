# SPDX-License-Identifier: MIT
"""The README's Python quickstart runs as written: its code block, word for word, in a fresh
interpreter of this build, and the two peers it makes meet and play."""
import re
import subprocess
import sys

from conftest import SOURCE_DIR


def quickstart() -> str:
    readme = (SOURCE_DIR / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", readme, flags=re.S)
    assert len(blocks) == 1, "the README should hold one python code block, the quickstart"
    return blocks[0]


def test_the_readme_quickstart_runs_as_written(tmp_path):
    code = quickstart()
    assert 12 <= len(code.strip().splitlines()) <= 22  # "about 15 lines"
    script = tmp_path / "quickstart.py"
    script.write_text(code)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 Event(joined_match, peer=0)" in done.stdout and "1 Event(joined_match, peer=1)" in done.stdout
    assert "0 Event(peer_joined, peer=1)" in done.stdout
    # The printed array: ball 1 and box 100, the box pushed away from where it began (x = 0).
    rows = re.findall(r"\(\s*(\d+), \[\s*([-\d.e+]+)", done.stdout)
    assert [int(i) for i, _ in rows] == [1, 100] and float(rows[1][1]) > 0.05, done.stdout
