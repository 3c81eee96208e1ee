"""The text-to-video stand-in (narrated slideshow) and what the registry says about the
video tasks. The MP4 is opened with PyAV and its narration read back by Whisper."""

import av
import numpy as np
import pytest
from langchain_hugginggpt.tools import ExpertError, ExpertTool
from langchain_hugginggpt.tools.registry import engines_for, resolve_engine, task_status

STORY = "A small red boat sails across the quiet lake. Then the wind rises and the boat returns to the harbour."


def run(task: str, workspace, **args) -> dict:
    return ExpertTool.for_task(task, workspace=workspace).run_expert(args).model_dump()


@pytest.fixture(scope="module")
def slideshow(av_workspace) -> dict:
    return run("text-to-video", av_workspace, text=STORY)


def test_text_to_video_is_a_labelled_stand_in(slideshow):
    assert slideshow["model"] == "narrated-slideshow"
    assert slideshow["stand_in"] is True and "not a generated video" in slideshow["note"]
    assert slideshow["text"].startswith("stand-in")
    assert slideshow["video"] in slideshow["files"] and slideshow["video"].endswith(".mp4")
    status = task_status("text-to-video")
    assert "narrated-slideshow" in status["stand_ins"] and "narrated-slideshow" not in status["models"]
    assert status["available"] is False  # a stand-in never counts as the task's model


def test_the_mp4_plays_with_video_and_narration(slideshow):
    with av.open(slideshow["video"]) as container:
        (video,) = container.streams.video
        (sound,) = container.streams.audio
        assert video.codec_context.name == "h264" and (video.width, video.height) == (640, 360)
        assert sound.codec_context.name == "aac"
        frames = [f.to_ndarray(format="rgb24") for f in container.decode(video=0)]
    seconds = slideshow["result"]["duration_seconds"]
    assert len(frames) == pytest.approx(seconds * 10, abs=2)  # 10 frames per second
    # One slide per sentence: the first and last frames show different text.
    assert np.abs(frames[0].astype(int) - frames[-1].astype(int)).mean() > 0.5
    assert slideshow["result"]["slides"] == [
        "A small red boat sails across the quiet lake.",
        "Then the wind rises and the boat returns to the harbour.",
    ]


@pytest.mark.slow
def test_the_narration_reads_the_text(av_workspace, slideshow, word_error_rate):
    # Whisper reads the MP4's audio track (decoded with PyAV like any audio input).
    out = ExpertTool.for_task("automatic-speech-recognition", workspace=av_workspace,
                              model="openai/whisper-tiny.en").run_expert({"audio": slideshow["video"]}).model_dump()
    assert word_error_rate(STORY, out["text"]) < 0.3, out["text"]


def test_text_to_video_rejects_empty_text(av_workspace):
    with pytest.raises(ExpertError, match="text-to-video with narrated-slideshow: no input text given"):
        run("text-to-video", av_workspace, text="   ")


def test_slideshow_needs_a_synthesizer(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(ExpertError, match="narration needs flite or espeak-ng"):
        resolve_engine("text-to-video", "narrated-slideshow")


def test_video_classification_has_no_local_engine():
    local = [cls for cls in engines_for("video-classification") if cls.__module__.endswith("engines.video")]
    assert local == []
