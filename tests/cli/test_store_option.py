"""``--store`` / ``MURAR_STORE``: the same commands on a PostgreSQL store."""

from __future__ import annotations

import json
from pathlib import Path

from sample_png import PNG_64PX as PNG
from typer.testing import CliRunner

from murar.cli.main import app

runner = CliRunner()


def test_ingest_and_ask_on_postgres(tmp_path: Path, pg_url: str) -> None:
    docs = tmp_path / "docs"
    (docs / "assets").mkdir(parents=True)
    (docs / "assets" / "canvas.png").write_bytes(PNG)
    (docs / "guide.md").write_text(
        "# Journeys\n\n## Custom events\n\nTo add a custom event open the journey canvas and drag the custom "
        "event onto the journey canvas.\n\n![Journey canvas custom event](assets/canvas.png)\n"
    )
    r = runner.invoke(app, ["ingest", str(docs), "--store", pg_url, "--embedder", "hashing", "--format", "json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["report"]["changes"] == {"added": 1, "changed": 0, "removed": 0, "unchanged": 0}
    r = runner.invoke(app, ["ingest", str(docs), "--embedder", "hashing", "-q"], env={"MURAR_STORE": pg_url})
    assert r.exit_code == 0, r.output
    assert "0/0/0/1" in r.output  # added/changed/removed/unchanged
    r = runner.invoke(app, ["ask", "How do I add a custom event in the journey canvas?", "--llm", "extractive",
                            "--format", "json", "-q"], env={"MURAR_STORE": pg_url})
    assert r.exit_code == 0, r.output
    blocks = json.loads(r.output)["blocks"]
    assert any(b["type"] == "image" and b["item"]["path"].endswith("canvas.png") for b in blocks)


def test_store_must_be_a_database_url(tmp_path: Path) -> None:
    r = runner.invoke(app, ["ask", "anything", "--store", str(tmp_path), "--llm", "extractive"])
    assert r.exit_code == 1 and "postgresql://" in r.output
