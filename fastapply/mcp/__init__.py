"""`fastapply mcp`: a Model Context Protocol server exposing an `edit_file` tool for coding agents.

roots.py (which files may be touched), tool.py (read, apply, write, diff; no MCP), server.py (the
MCP SDK wiring and the tool description), cli.py (the subcommand). The SDK is imported only when the
server is built, so `fastapply --help` stays instant.
"""
