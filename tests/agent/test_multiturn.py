"""A conversation over two turns with the offline planner and real engines: the second
request says "it" and means the file the first turn produced."""

from PIL import Image, ImageDraw

from langchain_hugginggpt.agent.hugginggpt import HuggingGPT
from langchain_hugginggpt.core.workspace import Workspace


def test_second_turn_refers_to_the_first_turns_output(tmp_path, monkeypatch):
    monkeypatch.setenv("HUGGINGGPT_HOME", str(tmp_path / "home"))
    img = Image.new("RGB", (96, 96), "white")
    ImageDraw.Draw(img).rectangle([24, 24, 72, 72], fill="black")
    img.save(tmp_path / "square.png")
    agent = HuggingGPT(llm=None, planner="retrieval", workspace=Workspace(tmp_path))

    first = agent.invoke("Give me the canny edge map of square.png")
    edges = first.results[0].files[0]
    assert first.results[0].ok and edges in first.answer

    history = [{"role": "user", "content": "Give me the canny edge map of square.png"},
               {"role": "assistant", "content": first.answer}]
    second = agent.invoke({"request": "Now extract the HED soft edges of it", "chat_history": history})
    assert [t.task for t in second.plan] == ["hed-control"]
    assert second.plan[0].args["image"] == edges  # "it" is the edge map from turn one
    assert second.results[0].ok and second.results[0].files[0] != edges


def test_read_that_aloud_speaks_the_earlier_answer(tmp_path, monkeypatch):
    """'Now read that aloud' means the last turn's answer, not the words of the request."""
    monkeypatch.setenv("HUGGINGGPT_HOME", str(tmp_path / "home"))
    agent = HuggingGPT(llm=None, planner="retrieval", workspace=Workspace(tmp_path))
    history = [{"role": "user", "content": "How many objects are in street.jpg?"},
               {"role": "assistant", "content": "2 cars, 1 person\n\nHow I did it:\n- Task 0, object-detection: ..."}]
    second = agent.invoke({"request": "now read that aloud", "chat_history": history})
    assert [(t.task, t.args["text"]) for t in second.plan] == [("text-to-speech", "2 cars, 1 person")]
    assert second.results[0].ok and second.results[0].files[0].endswith(".wav")

    # The earlier answer named a file by its path on this machine: what is spoken is the file's name.
    history[1]["content"] = f"Canny edge map written to {tmp_path}/outputs/canny-1a2b.png\n\nHow I did it: ..."
    third = agent.invoke({"request": "now read that aloud", "chat_history": history})
    assert third.plan[0].args["text"] == "Canny edge map written to canny-1a2b.png"

    alone = agent.invoke("Read 'good morning' aloud")  # a quote of its own still wins, with no history at all
    assert alone.plan[0].args["text"] == "good morning"
