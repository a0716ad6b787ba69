"""Align: where each section of a lazy snippet lands in the original.

The joint reading (lazy) chains unique anchors across all sections (anchors), then settles each
section's edges (edges, with adjacent, blank_edges, and the edge rules of edge_edits and
doubts); a section with no anchor floats (floating) and, among equal places, is settled by the
tie-breakers (ties: order, a changed line, open blocks, twins). The greedy reading (greedy, greedy_locate) places one section at a
time. Both return result.Merged or a refusal; neither checks the merged file (that is gate/).
Builds on text/ and snippet/.
"""
