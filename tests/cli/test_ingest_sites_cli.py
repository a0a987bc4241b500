"""`murar ingest` on documentation sites: generator in the summary, --site-type, never silent."""

from __future__ import annotations

import json
from pathlib import Path

from sample_png import PNG_64PX as PNG
from typer.testing import CliRunner

from murar.cli.main import app

runner = CliRunner()


def _site(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    (root / "docs").mkdir(parents=True)
    (root / "static" / "img").mkdir(parents=True)
    (root / "static" / "img" / "canvas.png").write_bytes(PNG)
    (root / "docusaurus.config.js").write_text("const B = '/docs';\nmodule.exports = { baseUrl: `${B}/` };\n")
    (root / "docs" / "guide.md").write_text(
        "# Guide\n\nOpen the canvas.\n\n![Canvas](/img/canvas.png)\n\n![Gone](/img/gone.png)\n\n"
        "<img src={useBaseUrl('img/canvas.png')} />\n"
    )
    return root


def test_summary_names_the_generator_and_the_resolution_rate(tmp_path: Path) -> None:
    r = runner.invoke(app, ["ingest", str(_site(tmp_path)), "--index", str(tmp_path / "i"), "--embedder", "hashing",
                            "--quiet"])
    assert r.exit_code == 0, r.output
    assert "docusaurus (docusaurus.config.js)" in r.output and "base_url=/docs/" in r.output
    assert "resolution rate 100.0% (2/2)" in r.output
    assert "No existing dataset" not in r.output


def test_json_lists_every_unresolved_reference_and_site_type_override(tmp_path: Path) -> None:
    site = _site(tmp_path)
    r = runner.invoke(app, ["ingest", str(site), "--index", str(tmp_path / "i"), "--embedder", "hashing",
                            "--format", "json"])
    assert r.exit_code == 0, r.output
    report = json.loads(r.output)["report"]
    assert report["site"]["generator"] == "docusaurus"
    unresolved = report["assets"]["unresolved"]
    assert [(u["link"], u["status"]) for u in unresolved] == [("/img/gone.png", "missing")]
    assert unresolved[0]["path"] == "static/img/gone.png"
    # forced plain rules: the useBaseUrl expression is unsupported syntax, reported with its reason
    r = runner.invoke(app, ["ingest", str(site), "--index", str(tmp_path / "j"), "--embedder", "hashing",
                            "--format", "json", "--site-type", "plain"])
    assert r.exit_code == 0, r.output
    report = json.loads(r.output)["report"]
    assert report["site"]["generator"] == "plain"
    assert {u["status"] for u in report["assets"]["unresolved"]} >= {"missing"}
    r = runner.invoke(app, ["ingest", str(site), "--index", str(tmp_path / "k"), "--embedder", "hashing",
                            "--site-type", "gatsby"])
    assert r.exit_code == 1 and "known:" in r.output


def test_zero_pages_exits_non_zero_with_what_was_found(tmp_path: Path) -> None:
    corpus = tmp_path / "c"
    corpus.mkdir()
    for i in range(3):
        (corpus / f"p{i}.tex").write_text("= T\n")
    r = runner.invoke(app, ["ingest", str(corpus), "--index", str(tmp_path / "i"), "--embedder", "hashing"])
    assert r.exit_code == 1
    assert "no pages ingested" in r.output and "3 .tex" in r.output and "--site-type" in r.output


def _bilingual(tmp_path: Path) -> Path:
    root = tmp_path / "bi"
    files = {
        "docusaurus.config.js": "module.exports = { i18n: { defaultLocale: 'en', locales: ['en', 'fr'] } };\n",
        "versions.json": '["1.0"]',
        "docs/guide.md": "# Guide\n\nOpen the canvas.\n",
        "docs/setup.md": "# Setup\n\nInstall it.\n",
        "versioned_docs/version-1.0/guide.md": "# Guide 1.0\n\nOpen the old canvas.\n",
        "i18n/fr/docusaurus-plugin-content-docs/current/guide.md": "# Guide\n\nOuvrez le canevas.\n",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_language_and_docs_version_options_choose_what_is_read(tmp_path: Path) -> None:
    site = _bilingual(tmp_path)
    base = ["ingest", str(site), "--embedder", "hashing", "--format", "json"]
    r = runner.invoke(app, [*base, "--index", str(tmp_path / "i"), "--language", "fr", "--docs-version", "current"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert (out["report"]["site"]["language"], out["report"]["site"]["docs_version"]) == ("fr", "current")
    skipped = {s["path"]: s["error"] for s in out["report"]["skipped"]}
    assert "read from its translation" in skipped["docs/guide.md"]
    assert "docs/setup.md" not in skipped and out["report"]["pages"] == 2  # French guide + English setup
    # text summary names them; a value the site lacks fails, listing the site's own
    r = runner.invoke(app, ["ingest", str(site), "--index", str(tmp_path / "j"), "--embedder", "hashing", "--quiet",
                            "--docs-version", "1.0"])
    assert r.exit_code == 0, r.output
    assert "language=en" in r.output and "docs_version=1.0" in r.output
    r = runner.invoke(app, [*base, "--index", str(tmp_path / "k"), "--language", "de"])
    assert r.exit_code == 1 and "it has en, fr" in r.output
