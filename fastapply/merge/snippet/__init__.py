"""Snippet: reading the snippet's form, and the mergers whose form says where every line goes.

Sections between markers, with `+`/`-`/`@@` lines inside a lazy snippet undone or read as hunks
(sections); SEARCH/REPLACE blocks and unified diffs (blocks); whole definitions, with or without
markers between them (definitions, marked_definitions); what a lazy snippet implies beyond its
lines (implied) and headers it renames (renames). Placing a lazy snippet's sections is align/'s
work; checking a result is gate/'s. Builds on text/ only (and result.Merged).
"""
