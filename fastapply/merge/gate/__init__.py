"""Gate: checks on a merged file (the instant merge's or a model's) that turn it into a refusal;
guards.py runs them. Builds on text/ and snippet/; it does not place sections (the README's package
map has a line per module).
"""
