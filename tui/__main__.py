import sys

from capicu.tui.cli.main import main

# Guarded: computer players may think in worker processes started with "spawn",
# which import the main module again.
if __name__ == "__main__":
    sys.exit(main())
