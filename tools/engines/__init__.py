"""Built-in engines, one module per family. Each module registers its engines on import
and imports its heavy libraries only inside `run`/`check_resources`."""
