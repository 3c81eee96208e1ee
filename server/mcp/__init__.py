"""`hugginggpt mcp`: the experts and the whole pipeline served as MCP tools (server.py), files and
outputs returned as MCP content (content.py)."""
