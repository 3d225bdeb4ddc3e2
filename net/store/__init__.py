"""Match storage: the journal a crashed host resumes from, finished journals, match records,
the history and the coach's cache. Files only: nothing here speaks to the network."""
