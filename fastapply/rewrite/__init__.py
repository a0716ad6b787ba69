"""The model path's text layer: the prompt and answer format, drafts as text, and text assembly
from token runs. Knows no HTTP and no merging rules.
"""
