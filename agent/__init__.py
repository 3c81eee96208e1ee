"""The HuggingGPT agent: planning, model selection, execution and response as LangChain Runnables."""
