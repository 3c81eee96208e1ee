"""HuggingGPT and the Model Context Protocol: `hugginggpt mcp` serves the experts and the whole pipeline as MCP
tools (server.py), and tools of other MCP servers run as experts (experts.py)."""
