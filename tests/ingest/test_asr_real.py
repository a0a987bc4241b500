"""Speech recognition with the real bundled whisper model on a real spoken video.

The speech is synthesised by espeak-ng (Debian package, installed by
scripts/setup.sh) and muxed with a video track into an .mp4 by PyAV, as docs'
demo videos are; the test then ingests a page embedding it.
"""

from __future__ import annotations

import shutil
import subprocess
import wave
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.slow

SAY_1 = "Welcome to the routing demo."
SAY_2 = "Now open the settings tab and press save."


def _speak(text: str, path: Path) -> tuple[np.ndarray, int]:
    subprocess.run(["espeak-ng", "-w", str(path), text], check=True, capture_output=True)
    with wave.open(str(path)) as w:
        rate = w.getframerate()
        pcm = np.frombuffer(w.readframes(w.getnframes()), dtype=np.int16)
    return pcm, rate


def _spoken_mp4(tmp: Path, out: Path, gap_s: float = 20.0) -> None:
    import av

    a, rate = _speak(SAY_1, tmp / "a.wav")
    b, _ = _speak(SAY_2, tmp / "b.wav")
    pcm = np.concatenate([a, np.zeros(int(rate * gap_s), dtype=np.int16), b])
    with av.open(str(out), "w") as container:
        vs = container.add_stream("mpeg4", rate=1)
        vs.width, vs.height, vs.pix_fmt = 64, 48, "yuv420p"
        aus = container.add_stream("aac", rate=rate)
        aus.layout = "mono"
        seconds = int(len(pcm) / rate) + 1
        for i in range(seconds):
            frame = av.VideoFrame.from_ndarray(np.zeros((48, 64, 3), dtype=np.uint8), format="rgb24")
            frame.pts = i
            frame.time_base = Fraction(1, 1)
            for packet in vs.encode(frame):
                container.mux(packet)
        for packet in vs.encode():
            container.mux(packet)
        step = 1024
        for i in range(0, len(pcm), step):
            chunk = pcm[i : i + step]
            frame = av.AudioFrame.from_ndarray(chunk.reshape(1, -1), format="s16", layout="mono")
            frame.sample_rate = rate
            frame.pts = i
            for packet in aus.encode(frame):
                container.mux(packet)
        for packet in aus.encode():
            container.mux(packet)


@pytest.fixture(scope="module")
def spoken_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng not installed (scripts/setup.sh installs it when run as root)")
    pytest.importorskip("faster_whisper")
    root = tmp_path_factory.mktemp("asr-corpus")
    (root / "video").mkdir()
    _spoken_mp4(root, root / "video" / "routing-demo.mp4")
    (root / "guide.md").write_text(
        "# Routing\n\nThe demo shows linear routing.\n\n<video src=\"video/routing-demo.mp4\" controls></video>\n",
        encoding="utf-8")
    return root


def test_whisper_transcribes_a_local_video_with_cue_times_and_caches_it(spoken_corpus: Path, tmp_path: Path) -> None:
    from murar.embed.fake import HashingEmbedder
    from murar.ingest.asr import WhisperRecognizer
    from murar.ingest.index import build_index, open_index

    cache = tmp_path / "transcripts"
    _, report = build_index(spoken_corpus, tmp_path / "idx", embedder=HashingEmbedder(),
                            recognizer=WhisperRecognizer(), transcript_cache=cache)
    assert report.transcripts["transcribed"] == 1
    store = open_index(tmp_path / "idx").store
    (video,) = [m for m in store.all_media() if m.kind == "video"]
    text = video.transcript.lower()  # type: ignore[union-attr]
    assert "settings" in text and "save" in text
    late = [c for c in video.cues if "settings" in c.text.lower()]  # type: ignore[union-attr]
    assert late and late[0].start >= 15.0  # the second sentence is spoken after the 20 s gap
    _, again = build_index(spoken_corpus, tmp_path / "idx", embedder=HashingEmbedder(),
                           recognizer=WhisperRecognizer(), transcript_cache=cache)
    assert again.transcripts == {"transcribed": 0, "from_cache": 1, "failed": 0, "had_sidecar": 0}
