"""The journal every game keeps: ``chain.py`` (the digest chain, replay and undo, pure) and
``files.py`` (the same journal written to disk line by line, and read back)."""
