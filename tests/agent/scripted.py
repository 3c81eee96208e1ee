"""A chat model that answers each pipeline stage from a script, keyed by the stage's
system prompt. It lets agent tests pin what 'the LLM said' (including malformed
output) while every other component runs for real."""

from typing import Any, Callable

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult

STAGES = {"#1 Task planning": "plan", "#2 Model selection": "select", "#4 Response": "respond"}


class ScriptedChat(BaseChatModel):
    replies: dict[str, Any]  # stage -> str, or callable(messages) -> str
    calls: list = []

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        first = messages[0].text
        stage = next((name for marker, name in STAGES.items() if first.startswith(marker)), "chat")
        self.calls.append((stage, [m.text for m in messages]))
        reply = self.replies.get(stage, "")
        if isinstance(reply, Exception):
            raise reply
        text = reply(messages) if isinstance(reply, Callable) else reply
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])
