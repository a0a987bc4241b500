"""Videos: local files, sidecar cue times, speech recognition cache, links with moments."""

from __future__ import annotations

from pathlib import Path

from murar.answer.moments import best_moment, format_timestamp, with_fragment
from murar.answer.render import file_media_url, render_markdown, to_blocks
from murar.ingest.asr import FakeRecognizer, TranscriptCache, transcribe_videos
from murar.ingest.html import convert_html
from murar.ingest.markdown import convert_markdown
from murar.schema import (
    Answer,
    ImageItem,
    MediaSelection,
    Trace,
    TranscriptCue,
    VideoItem,
    media_from_dict,
    to_jsonable,
)
from murar.store.base import is_displayable

VTT = """WEBVTT

00:00:00.000 --> 00:00:04.000
Welcome to the routing demo.

00:01:23.000 --> 00:01:27.500
Now open the settings tab and press save.
"""


def _videos(doc: object) -> list[VideoItem]:
    return [m for m in doc.media if isinstance(m, VideoItem)]  # type: ignore[attr-defined]


def test_one_line_video_in_markdown_is_a_local_video_with_sidecar_cues(tmp_path: Path) -> None:
    (tmp_path / "static").mkdir()
    (tmp_path / "static" / "demo.mp4").write_bytes(b"\x00\x00\x00\x18ftypmp42")
    (tmp_path / "static" / "demo.vtt").write_text(VTT, encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text("# Routing\n\nWatch it: <video src=\"static/demo.mp4\" controls></video> then go on.\n\n"
                    "<video src=\"static/demo.mp4\"></video>\n", encoding="utf-8")
    doc = convert_markdown(page, root=tmp_path)
    vids = _videos(doc)
    assert len(vids) == 2
    v = vids[0]
    assert v.path == "static/demo.mp4" and v.exists
    assert [c.start for c in v.cues] == [0.0, 83.0]
    assert v.transcript_source == "sidecar:demo.vtt"
    assert "settings tab" in v.transcript
    assert is_displayable(v)


def test_missing_local_video_is_reported_and_never_displayable(tmp_path: Path) -> None:
    page = tmp_path / "p.md"
    page.write_text("# T\n\n<video src=\"gone.mp4\"></video>\n", encoding="utf-8")
    doc = convert_markdown(page, root=tmp_path)
    (v,) = _videos(doc)
    assert v.path == "gone.mp4" and not v.exists
    assert any("gone.mp4" in w and "not found" in w for w in doc.warnings)
    assert not is_displayable(v)


def test_html_video_reads_track_sidecar_and_stem_sidecar(tmp_path: Path) -> None:
    (tmp_path / "subs").mkdir()
    (tmp_path / "subs" / "captions.vtt").write_text(VTT, encoding="utf-8")
    (tmp_path / "a.mp4").write_bytes(b"x")
    (tmp_path / "b.mp4").write_bytes(b"x")
    (tmp_path / "b.srt").write_text("1\n00:00:05,000 --> 00:00:07,000\nHello there\n", encoding="utf-8")
    page = tmp_path / "p.html"
    page.write_text("<html><body><main><h1>Demo</h1><p>Intro.</p>"
                    "<video controls src='a.mp4'><track kind='captions' src='subs/captions.vtt'></video>"
                    "<p>More.</p><video src='b.mp4'></video></main></body></html>", encoding="utf-8")
    doc = convert_html(page, root=tmp_path)
    a, b = _videos(doc)
    assert a.path == "a.mp4" and a.cues[1].start == 83.0 and a.transcript_source == "sidecar:captions.vtt"
    assert b.cues == [TranscriptCue(start=5.0, end=7.0, text="Hello there")]


def test_cues_survive_the_index_payload_round_trip() -> None:
    v = VideoItem(id="v", section_id="s", source_path="p.md", page_title="P", heading_path=("P",), anchor=None,
                  position=0, url="x.mp4", path="x.mp4", cues=[TranscriptCue(start=1.5, end=2.0, text="hi")])
    back = media_from_dict(to_jsonable(v))
    assert isinstance(back, VideoItem) and back.cues == v.cues and back.path == "x.mp4"


class _CountingRecognizer(FakeRecognizer):
    def __init__(self) -> None:
        super().__init__({"demo.mp4": ["Open the settings tab.", "Press save to keep the route."]})
        self.calls = 0

    def transcribe(self, path: Path) -> list[TranscriptCue]:
        self.calls += 1
        return super().transcribe(path)


def test_transcription_is_cached_by_content_across_runs_and_copies(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    root.mkdir()
    (root / "demo.mp4").write_bytes(b"same bytes")
    (root / "copy.mp4").write_bytes(b"same bytes")
    page = root / "p.md"
    page.write_text("# T\n\n<video src=\"demo.mp4\"></video>\n\n<video src=\"copy.mp4\"></video>\n", encoding="utf-8")
    cache = TranscriptCache(tmp_path / "cache")
    rec = _CountingRecognizer()
    docs = [convert_markdown(page, root=root)]
    stats = transcribe_videos(docs, root=root, recognizer=rec, cache=cache)
    assert rec.calls == 1 and stats.transcribed == 1
    first, second = _videos(docs[0])
    assert first.cues == second.cues and first.cues[1].start == 10.0
    assert first.transcript_source == "asr:fake-asr"
    # a re-ingest: nothing transcribed again
    docs2 = [convert_markdown(page, root=root)]
    stats2 = transcribe_videos(docs2, root=root, recognizer=rec, cache=cache)
    assert rec.calls == 1 and stats2.from_cache == 1 and stats2.transcribed == 0


def test_undecodable_video_is_a_warning_not_a_crash(tmp_path: Path) -> None:
    class Broken(FakeRecognizer):
        def transcribe(self, path: Path) -> list[TranscriptCue]:
            from murar.errors import IngestError

            raise IngestError(f"{path.name}: cannot transcribe")

    (tmp_path / "v.mp4").write_bytes(b"junk")
    page = tmp_path / "p.md"
    page.write_text("# T\n\n<video src=\"v.mp4\"></video>\n", encoding="utf-8")
    docs = [convert_markdown(page, root=tmp_path)]
    stats = transcribe_videos(docs, root=tmp_path, recognizer=Broken(), cache=TranscriptCache(tmp_path / "c"))
    assert stats.failed == 1 and any("cannot transcribe" in w for w in docs[0].warnings)


def test_best_moment_points_at_the_cue_of_the_step() -> None:
    cues = [TranscriptCue(start=0, end=4, text="Welcome to the demo."),
            TranscriptCue(start=41, end=45, text="Create a new project from the dashboard."),
            TranscriptCue(start=83, end=88, text="Open the settings tab and press save.")]
    assert best_moment("Open the Settings tab, then press Save [2].", cues) == 83.0
    assert best_moment("Unrelated words entirely.", cues) is None
    assert with_fragment("v/demo.mp4#old", 83.0) == "v/demo.mp4#t=83"
    assert format_timestamp(83.4) == "1:23" and format_timestamp(3725) == "1:02:05"


def _video_answer(item: VideoItem) -> Answer:
    sel = MediaSelection(item=item, snippet_id=None, sentence_index=0, score=0.9, strategy="section",
                         placeholder="[VIDEO 1]")
    text = "Open the settings tab and press save [1]. [VIDEO 1]"
    return Answer(question="q", blocks=to_blocks(text, [sel]), sources=[], trace=Trace(), found=True)


def test_local_video_link_is_relative_to_the_answer_and_starts_at_the_moment(tmp_path: Path) -> None:
    root = tmp_path / "corpus"
    v = VideoItem(id="v", section_id="s", source_path="p.md", page_title="P", heading_path=("P",), anchor=None,
                  position=0, url="{useBaseUrl('video/demo.mp4')}", path="static/video/demo.mp4",
                  title="Routing demo",
                  cues=[TranscriptCue(start=0, end=3, text="Hi."),
                        TranscriptCue(start=83, end=88, text="Open the settings tab and press save.")])
    md = render_markdown(_video_answer(v), media_url=file_media_url(root, None, tmp_path / "answers"))
    assert "(<../corpus/static/video/demo.mp4#t=83>)" in md
    assert "(from 1:23)" in md


def test_remote_images_are_hidden_unless_shown(tmp_path: Path) -> None:
    img = ImageItem(id="i", section_id="s", source_path="p.md", page_title="P", heading_path=("P",), anchor=None,
                    position=0, url="https://cdn.example.com/shot.png", path=None, alt="shot")
    assert not is_displayable(img)
    assert is_displayable(img, remote_images=True)
    assert file_media_url(tmp_path, None, tmp_path)(img) is None
    assert file_media_url(tmp_path, None, tmp_path, remote_images=True)(img) == "https://cdn.example.com/shot.png"
