"""Align: where each section of a lazy snippet lands in the original, read jointly (lazy) and
greedily (greedy). Returns result.Merged or a refusal; checking the merged file is gate/'s work.
Builds on text/ and snippet/ (the README's package map has a line per module).
"""
