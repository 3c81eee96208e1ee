"""Tools of other MCP servers as experts: a YAML file named by HUGGINGGPT_MCP_EXPERTS lists the servers
(connections.py) and which of their tools run which task (experts.py)."""
