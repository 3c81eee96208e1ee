"""The graphs `langgraph.json` names, for `langgraph dev` and LangGraph Server.

    langgraph dev --no-browser        # serves `hugginggpt` and `hugginggpt_approval`

Both run one agent on the embedded defaults (`HuggingGPT.from_preset()`: `$HUGGINGGPT_LLM`,
else the packaged local model, loaded on first use), with inputs and outputs in the
server's working folder. They are built when the server imports this module, before it
serves anything; the server adds its own checkpointer (threads) to them.
"""

from langchain_hugginggpt.agent.graph import build_graph
from langchain_hugginggpt.agent.hugginggpt import HuggingGPT

agent = HuggingGPT.from_preset()
graph = build_graph(agent)
approval_graph = build_graph(agent, approve_plan=True)
