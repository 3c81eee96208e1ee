"""Local video engines. No text-to-video or video-classification model ships its weights
in a package reachable here, so this module only holds a labelled stand-in:

- text-to-video: a narrated slideshow of the text (Pillow slides, flite or espeak-ng
  narration, H.264 + AAC MP4 written with PyAV). It illustrates nothing: it is not a
  generated video and never counts as the task's model.

video-classification has no local engine (the Hugging Face backends register models for it).
"""

from __future__ import annotations

import re
import shutil
import textwrap
from fractions import Fraction
from pathlib import Path
from typing import Any, ClassVar

from langchain_hugginggpt.core.workspace import Workspace
from langchain_hugginggpt.tools.base import Engine, ExpertOutput
from langchain_hugginggpt.tools.engines._audio_io import espeak_wav, flite_wav, load_audio
from langchain_hugginggpt.tools.engines._image_io import fail
from langchain_hugginggpt.tools.engines._lang import guess_language, require_text
from langchain_hugginggpt.tools.registration import register

FONT_PATHS = ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",)  # Debian fonts-dejavu-core


def _slides(text: str, max_words: int = 14) -> list[str]:
    """Sentences, with long ones cut into pieces of at most `max_words` words."""
    slides = []
    for sentence in re.split(r"(?<=[.!?])\s+", text.strip()):
        words = sentence.split()
        for i in range(0, len(words), max_words):
            slides.append(" ".join(words[i:i + max_words]))
    return [s for s in slides if s]


def _font(size: int) -> Any:
    from PIL import ImageFont

    for path in FONT_PATHS:
        if Path(path).is_file():
            return ImageFont.truetype(path, size)
    return ImageFont.load_default(size=size)


def _render(slide: str, size: tuple[int, int], label: str) -> Any:
    """One slide as an RGB numpy frame: the text centred, the stand-in label at the bottom."""
    import numpy as np
    from PIL import Image, ImageDraw

    width, height = size
    image = Image.new("RGB", size, (24, 32, 48))
    draw = ImageDraw.Draw(image)
    font, small = _font(height // 14), _font(height // 30)
    lines = textwrap.wrap(slide, width=30)
    line_height = round(height / 14 * 1.35)
    top = (height - line_height * len(lines)) // 2
    for i, line in enumerate(lines):
        draw.text((width / 2, top + i * line_height), line, font=font, fill=(240, 240, 240), anchor="ma")
    draw.text((width / 2, height - height // 18), label, font=small, fill=(150, 160, 180), anchor="ms")
    return np.asarray(image)


@register
class NarratedSlideshow(Engine):
    """Stand-in for text-to-video: no text-to-video model can run here."""

    task = "text-to-video"
    model_id = "narrated-slideshow"
    backend = "stand-in"
    stand_in = True
    description = ("Stand-in, not a video generation model: an MP4 slideshow that shows the text on slides and reads "
                   "it aloud (flite or espeak-ng). It draws no pictures of what the text describes.")
    requires = ("av", "PIL", "numpy")
    extra = "audio"
    license = "MIT"
    size: ClassVar[tuple[int, int]] = (640, 360)
    fps: ClassVar[int] = 10
    label: ClassVar[str] = "stand-in: text slides + synthetic narration, not a generated video"

    def check_resources(self) -> str | None:
        if shutil.which("flite") is None and shutil.which("espeak-ng") is None:
            return "narration needs flite or espeak-ng: apt-get install flite espeak-ng (Debian)"
        return None

    def run(self, inputs: dict[str, Any], workspace: Workspace) -> ExpertOutput:
        text = require_text(self, inputs)
        slides = _slides(text)
        if not slides:
            raise fail(self, "the text has no words to show")
        speech = workspace.new_output(".wav", stem="narration")
        language = guess_language(text)
        try:
            if language == "en" and shutil.which("flite"):
                flite_wav(text, speech)
            else:
                espeak_wav(text, speech, language)
        except (RuntimeError, OSError) as exc:
            raise fail(self, f"narration failed: {exc}") from None
        video = workspace.new_output(".mp4", stem="slideshow")
        seconds = self._write_mp4(video, slides, speech)
        result = {"video": str(video), "duration_seconds": round(seconds, 2), "slides": slides}
        return ExpertOutput(model=self.model_id, result=result, video=str(video), audio=str(speech), stand_in=True,
                            text=f"stand-in slideshow video ({len(slides)} slides, {seconds:.1f} s) written to {video.name}",
                            note="stand-in: no text-to-video model is available here; this is a narrated slideshow "
                                 "of the text, not a generated video")

    def _write_mp4(self, path: Path, slides: list[str], speech: Path) -> float:
        """Slides timed in proportion to their words over the narration; H.264 + AAC."""
        import av
        import numpy as np

        rate = 22050
        audio = load_audio(self, speech, rate)
        seconds = max(len(audio) / rate, 1.5 * len(slides))
        words = [len(s.split()) for s in slides]
        bounds = np.cumsum([0, *words]) / sum(words) * seconds
        with av.open(str(path), "w") as container:
            stream = container.add_stream("libx264", rate=self.fps)
            stream.width, stream.height = self.size
            stream.pix_fmt = "yuv420p"
            stream.options = {"crf": "28", "preset": "veryfast"}
            sound = container.add_stream("aac", rate=rate, layout="mono")
            frames = [_render(s, self.size, self.label) for s in slides]
            for index in range(round(seconds * self.fps)):
                slide = min(int(np.searchsorted(bounds, index / self.fps, side="right")) - 1, len(slides) - 1)
                frame = av.VideoFrame.from_ndarray(frames[slide], format="rgb24")
                container.mux(stream.encode(frame))
            container.mux(stream.encode())
            pcm = (np.clip(audio, -1, 1) * 32767).astype(np.int16)
            for start in range(0, len(pcm), rate):  # one second per frame; the encoder re-chunks it
                chunk = av.AudioFrame.from_ndarray(pcm[None, start:start + rate], format="s16", layout="mono")
                chunk.sample_rate = rate
                chunk.pts, chunk.time_base = start, Fraction(1, rate)
                container.mux(sound.encode(chunk))
            container.mux(sound.encode())
        return seconds
