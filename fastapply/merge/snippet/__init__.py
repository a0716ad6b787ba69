"""Snippet: reading the snippet's form, and the mergers whose form says where every line goes.
Placing a lazy snippet's sections is align/'s work; checking a result is gate/'s. Builds on text/
only (and result.Merged; the README's package map has a line per module).
"""
