"""Text: what the instant merge knows about lines before it reads a snippet's form.

Line endings and indentation (conventions), marker lines (markers), what one line says
(lines: generic, distinctive, an opener and its name, bracket balance), two versions of a file
compared line by line (compare), import lines (imports), languages and parse checks (syntax).
Nothing here knows sections, placements or guards; every other part of merge/ builds on it.
"""
