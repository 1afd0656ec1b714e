# SPDX-License-Identifier: MIT
"""What every test of the Python binding shares. CTest runs each file with build/bin/shoal-python
(this build's module; in the sanitizer build with the sanitizer runtime preloaded) and says
where the build's programs and the sources are in the environment."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

SOURCE_DIR = Path(os.environ.get("SHOAL_SOURCE_DIR", Path(__file__).resolve().parents[2]))
BIN_DIR = Path(os.environ.get("SHOAL_BIN_DIR", SOURCE_DIR / "build" / "bin"))
SAMPLES_DIR = SOURCE_DIR / "bindings" / "python" / "samples"
sys.path.insert(0, str(SAMPLES_DIR))  # the samples' shared module, lan_match_world


@pytest.fixture
def bin_dir() -> Path:
    return BIN_DIR


@pytest.fixture
def samples_dir() -> Path:
    return SAMPLES_DIR


@pytest.fixture
def source_dir() -> Path:
    return SOURCE_DIR
