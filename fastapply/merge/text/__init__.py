"""Text: what the instant merge knows about lines before it reads a snippet's form. Nothing here
knows sections, placements or guards; every other part of merge/ builds on it (the README's package
map has a line per module).
"""
