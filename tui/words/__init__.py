"""Every sentence a person reads, in the reader's language: the catalogue and the wording of codes."""
