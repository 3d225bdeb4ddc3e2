"""Lets the interface tests import the helper modules that sit next to them."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
