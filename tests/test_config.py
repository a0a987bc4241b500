"""Configuration in one place: files found upward, MURAR_* overrides, flags win, `murar config show`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from murar.cli.main import app
from murar.config import load_config
from murar.errors import ConfigError

runner = CliRunner()


@pytest.fixture(autouse=True)
def _no_murar_env(monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    for name in list(os.environ):
        if name.startswith("MURAR_") and name != "MURAR_CACHE_DIR":
            monkeypatch.delenv(name)


def test_file_found_upward_with_paths_relative_to_it(tmp_path: Path) -> None:
    (tmp_path / "murar.toml").write_text('[index]\npath = "idx"\n[llm]\nkind = "extractive"\n'
                                         '[answer]\ntop_k = 3\nrefine = false\n')
    sub = tmp_path / "a" / "b"
    sub.mkdir(parents=True)
    cfg = load_config(start=sub, env={})
    assert cfg.file == tmp_path / "murar.toml"
    assert cfg.index.path == (tmp_path / "idx").resolve() and cfg.index.target == cfg.index.path
    assert (cfg.llm.kind, cfg.answer.top_k, cfg.answer.refine) == ("extractive", 3, False)
    assert cfg.origin("answer.top_k") == str(tmp_path / "murar.toml") and cfg.origin("llm.model") == "default"


def test_pyproject_tool_table_and_precedence_in_one_folder(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n[tool.murar.llm]\nkind = "openai"\n')
    assert load_config(start=tmp_path, env={}).llm.kind == "openai"
    (tmp_path / "murar.toml").write_text('[llm]\nkind = "bundled-small"\n')
    assert load_config(start=tmp_path, env={}).llm.kind == "bundled-small"
    assert load_config(start=tmp_path, env={}, use_file=False).llm.kind == "bundled"


def test_environment_overrides_the_file(tmp_path: Path) -> None:
    (tmp_path / "murar.toml").write_text('[llm]\nkind = "extractive"\n[answer]\ntop_k = 3\n')
    env = {"MURAR_LLM": "fake", "MURAR_ANSWER_TOP_K": "8", "MURAR_ANSWER_REFINE": "no",
           "MURAR_STORE": "postgresql://u:secret@127.0.0.1:5432/db", "MURAR_CACHE_DIR": "/tmp/x"}
    cfg = load_config(start=tmp_path, env=env)
    assert (cfg.llm.kind, cfg.answer.top_k, cfg.answer.refine) == ("fake", 8, False)
    assert cfg.origin("llm.kind") == "env MURAR_LLM" and cfg.index.target == env["MURAR_STORE"]
    shown = {k: v for k, v, _ in cfg.items()}
    assert shown["index.store"] == "postgresql://u:***@127.0.0.1:5432/db"


@pytest.mark.parametrize(("text", "env", "message"), [
    ('[llm]\nknd = "x"\n', {}, "unknown key 'knd' in [llm]"),
    ('[answers]\ntop_k = 1\n', {}, "unknown section [answers]"),
    ('[answer]\ntop_k = "many"\n', {}, "answer.top_k must be int"),
    ('[answer\n', {}, "cannot read"),
    ("", {"MURAR_SERVE_PORT": "http"}, "MURAR_SERVE_PORT must be int"),
])
def test_bad_configuration_names_the_place_and_key(tmp_path: Path, text: str, env: dict[str, str],
                                                    message: str) -> None:
    (tmp_path / "murar.toml").write_text(text)
    with pytest.raises(ConfigError, match=message.replace("[", r"\[").replace("]", r"\]")):
        load_config(start=tmp_path, env=env)


def test_explicit_config_file(tmp_path: Path) -> None:
    other = tmp_path / "conf" / "team.toml"
    other.parent.mkdir()
    other.write_text('[serve]\nport = 9000\n')
    assert load_config(start=tmp_path, env={"MURAR_CONFIG": str(other)}).serve.port == 9000
    with pytest.raises(ConfigError, match="not a file"):
        load_config(start=tmp_path, env={"MURAR_CONFIG": str(tmp_path / "nope.toml")})


def _cli_corpus(tmp_path: Path) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "guide.md").write_text("# Journeys\n\n## Custom events\n\nTo add a custom event open the journey canvas "
                                   "and drag the custom event onto the journey canvas.\n")
    return docs


def test_every_command_reads_the_file_env_and_flags_win(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    docs = _cli_corpus(tmp_path)
    (tmp_path / "murar.toml").write_text('[index]\npath = "team-idx"\n[embedder]\nkind = "hashing"\n'
                                         '[llm]\nkind = "extractive"\n')
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, ["ingest", str(docs), "--format", "json", "--quiet"])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "team-idx" / "CURRENT").is_file()  # index path and embedder from murar.toml
    question = "How do I add a custom event in the journey canvas?"
    r = runner.invoke(app, ["ask", question, "--format", "json", "--quiet"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["trace"]["models"]["generator"].startswith("extractive")
    monkeypatch.setenv("MURAR_LLM", "fake")
    r = runner.invoke(app, ["ask", question, "--format", "json", "--quiet"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["trace"]["models"]["generator"] != json.loads(
        runner.invoke(app, ["ask", question, "--format", "json", "--quiet", "--llm", "extractive"]).output
    )["trace"]["models"]["generator"]
    r = runner.invoke(app, ["config", "show", "--format", "json"])
    data = json.loads(r.output)
    assert data["file"] == str(tmp_path / "murar.toml") and data["values"]["llm"]["kind"] == "fake"
    assert data["origins"]["llm.kind"] == "env MURAR_LLM" and data["origins"]["embedder.kind"].endswith("murar.toml")
    r = runner.invoke(app, ["config", "show"])
    assert r.exit_code == 0 and "index.path" in r.output


def test_a_broken_file_stops_commands_with_a_readable_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "murar.toml").write_text('[llm]\nkind = 3\n')
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, ["ask", "anything"])
    assert r.exit_code == 2 and "llm.kind must be str" in r.output
    r = runner.invoke(app, ["config", "show"])
    assert r.exit_code == 1 and "llm.kind must be str" in r.output


def test_python_assistant_from_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import murar

    docs = _cli_corpus(tmp_path)
    murar.build_index(docs, tmp_path / "idx", embedder="hashing")
    (tmp_path / "murar.toml").write_text('[index]\npath = "idx"\n[llm]\nkind = "fake"\n[answer]\ntop_k = 2\n')
    monkeypatch.chdir(tmp_path)
    assistant = murar.Assistant.from_config(llm="extractive")  # an argument wins over the file
    assert assistant.index == (tmp_path / "idx").resolve() and assistant.llm == "extractive"
    answer = assistant.ask("How do I add a custom event in the journey canvas?")
    assert answer.found and len(answer.sources) == 1
    assert assistant.pipeline.config.top_k == 2


def test_defaults_reach_nested_and_per_command_options(tmp_path: Path) -> None:
    import typer

    (tmp_path / "murar.toml").write_text('[index]\npath = "/srv/idx"\n[serve]\nport = 9000\n[mcp]\nport = 9100\n'
                                         'llm = "bundled"\n[llm]\nkind = "openai"\n[answer]\nrefine = false\n')
    from murar.config import cli_defaults

    defaults = cli_defaults(load_config(start=tmp_path, env={}), typer.main.get_command(app))
    assert defaults["serve"]["port"] == 9000 and defaults["serve"]["no_refine"] is True
    assert defaults["mcp"]["port"] == 9100 and defaults["mcp"]["llm"] == "bundled"
    assert defaults["ask"]["llm"] == "openai" and defaults["ask"]["index"] == Path("/srv/idx")
    assert defaults["eval"]["run"]["index"] == Path("/srv/idx")  # nested group
    assert "port" not in defaults.get("ingest", {})


def test_retriever_from_file_env_and_flag_is_recorded_in_the_trace(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    docs = _cli_corpus(tmp_path)
    (tmp_path / "murar.toml").write_text('[embedder]\nkind = "hashing"\n[llm]\nkind = "extractive"\n'
                                         '[answer]\nretriever = "lexical"\n')
    monkeypatch.chdir(tmp_path)
    assert runner.invoke(app, ["ingest", str(docs), "--quiet"]).exit_code == 0
    question = "How do I add a custom event in the journey canvas?"

    def retriever(*flags: str) -> str:
        r = runner.invoke(app, ["ask", question, "--format", "json", "--quiet", *flags])
        assert r.exit_code == 0, r.output
        return str(json.loads(r.output)["trace"]["models"]["retriever"])

    assert retriever() == "lexical"
    monkeypatch.setenv("MURAR_ANSWER_RETRIEVER", "dense")
    assert retriever() == "dense"
    assert retriever("--retriever", "hybrid") == "hybrid-minmax"
    r = runner.invoke(app, ["ask", question, "--quiet", "--retriever", "sparse"])
    assert r.exit_code != 0 and "retriever must be one of" in r.output


def test_every_entry_point_defaults_to_the_one_default_retriever() -> None:
    """``murar ask``, ``serve`` (CLI and app factory), ``mcp``, ``[answer] retriever`` and the
    pipeline's :class:`RetrieverOptions` take their default from ``murar.config.DEFAULT_RETRIEVER``,
    so a measured change of the default is one line (it was a literal in five places)."""
    import inspect

    from murar.cli.ask_cmd import ask
    from murar.cli.mcp_cmd import mcp
    from murar.cli.serve_cmd import build_app, serve
    from murar.config import DEFAULT_RETRIEVER, AnswerSettings
    from murar.store.hybrid import RetrieverOptions

    defaults = {fn.__name__: inspect.signature(fn).parameters["retriever"].default
                for fn in (ask, serve, build_app, mcp)}
    assert defaults == dict.fromkeys(defaults, DEFAULT_RETRIEVER)
    assert AnswerSettings().retriever == RetrieverOptions().kind == DEFAULT_RETRIEVER
