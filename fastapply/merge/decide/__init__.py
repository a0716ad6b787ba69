"""Decide: which reading of a snippet is written when the mergers' readings differ or refuse.
instant.py calls it; it builds on text/, snippet/, align/ and gate/ (the README's package map has a
line per module).
"""
