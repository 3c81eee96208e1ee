"""The `hugginggpt` command: the top layer, which reaches every other. main.py holds the agent's own
commands (run, chat, tasks, logs, replay); each other group is a module here with `add_commands`
(models, eval, serve, experts, mcp) or the trainer's (`train`)."""
