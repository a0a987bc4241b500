"""Evaluation reports: Markdown, HTML (plots inlined) and JSON.

:func:`write_run_report` writes an :class:`~murar.eval.run.EvalRun`;
:func:`write_human_report` a :class:`~murar.eval.human.HumanSummary`. Every
report starts with the reproducibility block (models, prompt versions, seed).
"""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from murar.eval.human import METRICS, HumanSummary, Rating, plot_distribution
from murar.eval.mirage import MacroPRF
from murar.eval.run import EvalRun
from murar.schema import to_jsonable

__all__ = ["markdown_to_html", "write_human_report", "write_run_report"]


def _f(x: float | None, nd: int = 3) -> str:
    return "–" if x is None else f"{x:.{nd}f}"


def _cell(value: Any) -> str:
    """A table cell: a number as :func:`_f` writes it, text on one line with its pipes
    escaped (an annotator, model or question id from a user's file)."""
    if isinstance(value, float) or value is None:
        return _f(value)
    return " ".join(str(value).split()).replace("\\", "\\\\").replace("|", "\\|")


def _table(head: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(_cell(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def markdown_to_html(md: str, title: str, images: dict[str, Path] | None = None) -> str:
    """Render ``md`` to a standalone HTML page; ``images`` maps names used as
    ``![](name)`` to PNG files that get inlined as data URIs."""
    from markdown_it import MarkdownIt

    # raw HTML off: names and ids from the user's files ('<img src=x onerror=...>' as an
    # annotator) are text, never markup of the page
    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(md)
    for name, path in (images or {}).items():
        data = base64.b64encode(Path(path).read_bytes()).decode()
        body = body.replace(f'src="{name}"', f'src="data:image/png;base64,{data}"')
    css = ("body{font-family:sans-serif;max-width:1000px;margin:auto;padding:1em}"
           "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 6px}img{max-width:100%}")
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{css}</style></head><body>{body}</body></html>")


def _prf_rows(rows: Sequence[tuple[str, MacroPRF | None]]) -> list[list[Any]]:
    return [[name, m.precision, m.recall, m.f1, m.micro_precision, m.micro_recall, m.n_answers]
            for name, m in rows if m is not None]


def _meta_md(meta: dict[str, Any]) -> str:
    lines = ["## Reproducibility", ""]
    lines += [f"- **{k}**: `{json.dumps(v) if isinstance(v, (dict, list)) else v}`" for k, v in meta.items()]
    return "\n".join(lines)


def write_run_report(run: EvalRun, out_dir: str | Path) -> dict[str, Path]:
    """Write ``report.md``, ``report.html``, ``report.json`` and ``answers.jsonl``
    (one JSON answer per question, for ``murar eval human export``) into ``out_dir``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    md = ["# murar evaluation report", "", _meta_md(run.meta), ""]
    md += ["## MiRAGE (InfoP/R/F1, CiteP/R/F1)", "",
           ("Macro averages over answers (each answer weighs the same); micro pools subclaims. "
            "Reference mode: gold answer points are the reference subclaims. Collection mode: "
            "any single retrieved snippet or chosen media item supporting a subclaim counts."), ""]
    md.append(_table(["metric", "P", "R", "F1", "micro P", "micro R", "answers"],
                     _prf_rows([("Info (reference)", run.info_reference),
                                ("Cite (reference)", run.cite_reference),
                                ("Info (collection)", run.info_collection),
                                ("Cite (collection)", run.cite_collection)])))
    md += [""] + [f"- {n}" for n in run.notes] + [""]
    if run.media is not None:
        md += ["## Media selection against gold", ""]
        md.append(_table(["kind", "P (micro)", "R (micro)", "F1 (micro)", "P (macro)", "R (macro)",
                          "F1 (macro)", "selected", "gold"],
                         [[k, v["precision"], v["recall"], v["f1"], run.media.macro[k]["precision"],
                           run.media.macro[k]["recall"], run.media.macro[k]["f1"],
                           int(v["n_pred"] or 0), int(v["n_gold"] or 0)]
                          for k, v in run.media.micro.items()]))
        md += ["", (f"- ordering agreement (same-kind pairs): {_f(run.media.ordering)} "
                    f"over {run.media.n_ordering} questions"),
               (f"- placement correct (after a sentence attributed to the item's section): "
                f"{_f(run.media.placement)} over {run.media.n_placement} answers"),
               (f"- no media on text-only questions: {_f(run.media.no_media_rate)} "
                f"over {run.media.n_text_only} questions"), ""]
    if run.retrieval is not None:
        md += ["## Snippet retrieval", ""]
        md.append(_table(["metric", "value"],
                         [[f"recall@{k}", v] for k, v in run.retrieval.recall_at.items()]
                         + [["MRR", run.retrieval.mrr]]))
        md.append("")
    md += ["## Per question", ""]
    rows = []
    for r in run.results:
        rows.append([r.question.id, r.question.kind,
                     r.media.by_kind["all"].f1 if r.media else None,
                     r.retrieval.reciprocal_rank if r.retrieval else None,
                     r.mirage_reference.info.f1 if r.mirage_reference else None,
                     r.mirage_collection.info.precision if r.mirage_collection else None,
                     f"{r.seconds:.1f}", r.error or ""])
    md.append(_table(["id", "kind", "media F1", "RR", "InfoF1 (ref)", "InfoP (coll)", "s", "error"], rows))
    text = "\n".join(md) + "\n"
    paths = {"markdown": out / "report.md", "html": out / "report.html", "json": out / "report.json",
             "answers": out / "answers.jsonl"}
    paths["markdown"].write_text(text, encoding="utf-8")
    paths["html"].write_text(markdown_to_html(text, "murar evaluation"), encoding="utf-8")
    data = {"meta": run.meta, "mirage": {k: to_jsonable(getattr(run, k)) for k in
                                         ("info_reference", "cite_reference", "info_collection", "cite_collection")},
            "media": to_jsonable(run.media), "retrieval": to_jsonable(run.retrieval), "notes": run.notes,
            "questions": [to_jsonable({"id": r.question.id, "media": r.media, "retrieval": r.retrieval,
                                       "mirage_reference": r.mirage_reference,
                                       "mirage_collection": r.mirage_collection,
                                       "seconds": r.seconds, "error": r.error}) for r in run.results]}
    paths["json"].write_text(json.dumps(data, indent=2), encoding="utf-8")
    with paths["answers"].open("w", encoding="utf-8") as fh:
        for r in run.results:
            if r.answer is not None:
                fh.write(json.dumps({"id": r.question.id, "question": r.question.question,
                                     "answer": to_jsonable(r.answer)}) + "\n")
    return paths


def write_human_report(summary: HumanSummary, ratings: Sequence[Rating], out_dir: str | Path) -> dict[str, Path]:
    """Write the human-evaluation report (MuRAR Tables 2-5, Figure 3) as
    ``human_report.md``/``.html``/``.json`` plus ``score_distribution.png``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    plot = plot_distribution(ratings, out / "score_distribution.png")
    md = ["# Human evaluation (MuRAR section 5)", "", f"{summary.n_ratings} ratings.", "",
          "## Scores per model (mean ± sample SD)", ""]
    md.append(_table(["model", *METRICS, "preference rate", "multimodal / text-only / same"],
                     [[g, *[f"{d[m]['mean']:.2f} ± {d[m]['sd']:.2f}" for m in METRICS],
                       summary.preference[g]["rate"],
                       " / ".join(f"{summary.preference[g][p]:.2f}" for p in ("multimodal", "text-only", "same"))]
                      for g, d in summary.per_model.items()]))
    md += ["", "## Per annotator", ""]
    md.append(_table(["annotator", "ratings", "share", "mean", "SD", *METRICS, "preference rate"],
                     [[a, int(d["n"]), d["share"], d["mean"], d["sd"], *[d[m] for m in METRICS],
                       d["preference_rate"]] for a, d in summary.per_annotator.items()]))
    md += ["", "## Agreement", "",
           (f"Krippendorff's alpha over all annotators (`krippendorff` package); Cohen's kappa "
            f"(scikit-learn) between the two most active annotators: {', '.join(summary.top_annotators)}."), ""]
    md.append(_table(["metric", "alpha (ordinal)", "alpha (interval)", "kappa", "kappa (quadratic)", "kappa n"],
                     [[m, summary.alpha[m]["ordinal"], summary.alpha[m]["interval"],
                       summary.kappa.get(m, {}).get("unweighted"), summary.kappa.get(m, {}).get("quadratic"),
                       int(summary.kappa.get(m, {}).get("n") or 0)] for m in summary.alpha]))
    md += ["", "## Score distribution", "", "![score distribution](score_distribution.png)", ""]
    md += [f"- {n}" for n in summary.notes]
    text = "\n".join(md) + "\n"
    paths = {"markdown": out / "human_report.md", "html": out / "human_report.html",
             "json": out / "human_report.json", "plot": plot}
    paths["markdown"].write_text(text, encoding="utf-8")
    paths["html"].write_text(markdown_to_html(text, "murar human evaluation",
                                              {"score_distribution.png": plot}), encoding="utf-8")
    paths["json"].write_text(json.dumps(to_jsonable(summary), indent=2), encoding="utf-8")
    return paths
