"""Decide: which reading of a snippet is written, when the mergers' readings differ or refuse.

two_readings (a lazy snippet read jointly and greedily: which reading is written, or a refusal, and
which differences between the two readings the snippet settles),
settled (readings neither merger wrote that the snippet still settles, under every guard: the
change reading of a doubt, a new definition laid over the end of the one above it relanded),
excerpt (a marker-free excerpt's reading is written only when its loose ends are settled),
opinion (the scored aligner's second opinion on a merged file; off unless FASTAPPLY_SECOND_OPINION=1).
instant.py calls them; they build on text/, snippet/, align/ and gate/.
"""
