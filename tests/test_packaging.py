"""Packaging facts: one version, read by the installed metadata and the CLI."""

import subprocess
import sys
from importlib.metadata import version

import mjfast


def test_one_version_everywhere():
    assert version("mjfast") == mjfast.__version__
    out = subprocess.run([sys.executable, "-m", "mjfast", "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == f"mjfast {mjfast.__version__}"
