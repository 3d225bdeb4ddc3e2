import sys

from capicu.tui.cli import main

sys.exit(main())
