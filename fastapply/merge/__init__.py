"""The instant path: deterministic, lines-in-lines-out merging of a snippet into the original.

Knows no tokens and no models. Entry point: `instant_merge` (instant.py).
"""
