"""The command line: `capicu` and its commands, their options, and the outputs that are plain text."""
