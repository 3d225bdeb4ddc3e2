import sys

from capicu.tui.cli import run

# Guarded: computer players may think in worker processes started with "spawn",
# which import the main module again.
if __name__ == "__main__":
    sys.exit(run())
