"""What a user keeps between matches: settings, saved seats, themes, and the files they live in."""
