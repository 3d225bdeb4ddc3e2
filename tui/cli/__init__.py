"""The command line: `capicu` and its commands, their options, and the outputs that are plain text."""

from __future__ import annotations

import gc


def run() -> int:
    """The ``capicu`` command (and ``python -m capicu.tui``): its command line, loaded with the GC paused.

    Loading the command line (and with it the games, the network and the words) makes objects that
    live as long as the program and hardly any garbage: the garbage collector would only walk them over
    and over (about 15 ms of ``capicu play``'s start). Once the arguments are read, `main` freezes what
    was loaded (never walked again) and turns the collector back on; a command that opens the interface
    pauses it again while its first screen loads (`commands.run_app`).
    """
    gc.disable()
    from .main import main

    return main()
