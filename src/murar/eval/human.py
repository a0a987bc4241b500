"""The MuRAR human-evaluation workflow (seed 000, section 5 and appendix A.2).

1. :func:`export_packets` writes, for each question, the text-only and the
   multimodal answer with the rubric -- usefulness, readability, relevance on
   1-5 Likert scales and a preference (multimodal / text-only / same) -- as a
   self-contained HTML form (images inlined as data URIs; a button saves the
   filled form as CSV) and as a CSV sheet with the same columns.
2. :func:`load_ratings` reads filled sheets (validated; errors name file, row, column).
3. :func:`summarise_ratings` reports per-model means and standard deviations,
   a per-annotator table, the preference rate, Krippendorff's alpha over all
   annotators (the ``krippendorff`` package) and Cohen's kappa between the two
   most active annotators (scikit-learn); :func:`plot_distribution` draws the
   score distribution (MuRAR Figure 3) with matplotlib.
"""

from __future__ import annotations

import base64
import csv
import html
import io
import mimetypes
import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from murar.eval.errors import RatingsError
from murar.schema import Answer, ImageItem, MediaBlock, TableItem, TextBlock, VideoItem

__all__ = ["METRICS", "PREFERENCES", "HumanSummary", "Packet", "Rating", "export_packets",
           "load_ratings", "plot_distribution", "summarise_ratings"]

METRICS: tuple[str, ...] = ("usefulness", "readability", "relevance")
PREFERENCES: tuple[str, ...] = ("multimodal", "text-only", "same")
CSV_COLUMNS = ("annotator", "question_id", "model", "question", *METRICS, "preference", "comment")

RUBRIC: dict[str, list[str]] = {
    "usefulness": ["no added understanding, or confusing", "minimal enhancement",
                   "some added clarity", "significantly enhances understanding",
                   "crucial for full comprehension"],
    "readability": ["poorly placed, disrupts reading", "not well integrated, minor disruption",
                    "neutral", "well placed, smooth reading", "perfectly integrated"],
    "relevance": ["no connection to the text", "tenuous connection", "related but not on point",
                  "clearly supports the text", "essential illustration or data"],
}


@dataclass(slots=True, kw_only=True)
class Packet:
    """One question to rate: both answers from ``model``."""

    question_id: str
    question: str
    model: str
    text_answer: str
    multimodal_answer: Answer


@dataclass(frozen=True, slots=True, kw_only=True)
class Rating:
    """One annotator's filled row. Scores are 1-5; ``preference`` one of :data:`PREFERENCES`."""

    annotator: str
    question_id: str
    model: str
    usefulness: int
    readability: int
    relevance: int
    preference: str


# ------------------------------------------------------------------- export


def _image_src(item: ImageItem, corpus_root: Path | None) -> str | None:
    if item.path and corpus_root is not None:
        f = (corpus_root / item.path).resolve()
        if f.is_file() and f.is_relative_to(corpus_root.resolve()):
            mime = mimetypes.guess_type(f.name)[0] or "image/png"
            return f"data:{mime};base64,{base64.b64encode(f.read_bytes()).decode()}"
    return None


def _media_html(block: MediaBlock, corpus_root: Path | None) -> str:
    item = block.item
    cap = html.escape(block.caption or item.label)
    if isinstance(item, ImageItem):
        src = _image_src(item, corpus_root)
        body = (f'<img src="{src}" alt="{cap}">' if src
                else f'<div class="missing">[image not available: {html.escape(item.path or item.url or "")}]</div>')
    elif isinstance(item, TableItem):
        head = "".join(f"<th>{html.escape(h)}</th>" for h in item.headers)
        rows = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>"
                       for r in item.rows)
        body = f"<table>{'<tr>' + head + '</tr>' if head else ''}{rows}</table>"
    elif isinstance(item, VideoItem):
        body = f'<a href="{html.escape(item.url)}">video: {html.escape(item.title or item.url)}</a>'
    else:  # pragma: no cover - exhaustive over AnyMedia
        body = ""
    return f"<figure>{body}<figcaption>{cap}</figcaption></figure>"


def _answer_html(answer: Answer, corpus_root: Path | None) -> str:
    parts = []
    for b in answer.blocks:
        if isinstance(b, TextBlock):
            parts.append("<p>" + html.escape(b.text).replace("\n", "<br>") + "</p>")
        else:
            parts.append(_media_html(b, corpus_root))
    return "\n".join(parts)


_CSS = """body{font-family:sans-serif;max-width:1100px;margin:auto;padding:1em}
.q{border:1px solid #ccc;border-radius:6px;padding:1em;margin:1.5em 0}
.cols{display:flex;gap:1em}.cols>div{flex:1;border:1px solid #eee;padding:.5em}
img{max-width:100%}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 4px}
fieldset{margin:.4em 0}.missing{color:#a00}figcaption{font-size:.85em;color:#555}"""

_JS = """function saveCsv(){const who=document.getElementById('annotator').value.trim();
if(!who){alert('Enter your annotator name first');return;}
const cols=%s;const esc=v=>'"'+String(v).replace(/"/g,'""')+'"';
let out=[cols.join(',')];document.querySelectorAll('.q').forEach(q=>{
const get=n=>{const c=q.querySelector('input[name="'+q.id+'-'+n+'"]:checked');return c?c.value:''};
const row={annotator:who,question_id:q.dataset.qid,model:q.dataset.model,question:q.dataset.question,
comment:q.querySelector('textarea').value};%s
out.push(cols.map(c=>esc(row[c]??'')).join(','));});
const a=document.createElement('a');a.href=URL.createObjectURL(new Blob([out.join('\\n')],{type:'text/csv'}));
a.download='ratings_'+who+'.csv';a.click();}"""


def export_packets(packets: Sequence[Packet], out_dir: str | Path, *,
                   corpus_root: str | Path | None = None, title: str = "murar answer rating") -> tuple[Path, Path]:
    """Write ``packets.html`` (self-contained form) and ``ratings_template.csv``
    into ``out_dir``; returns both paths. Local images under ``corpus_root``
    are inlined; others are shown as "not available"."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    root = Path(corpus_root) if corpus_root is not None else None
    fill = "".join(f"row.{m}=get('{m}');" for m in METRICS) + "row.preference=get('preference');"
    sections = []
    for n, p in enumerate(packets):
        qid = f"q{n}"
        fields = []
        for m in METRICS:
            opts = " ".join(
                f'<label title="{html.escape(RUBRIC[m][v - 1])}"><input type="radio" '
                f'name="{qid}-{m}" value="{v}">{v}</label>' for v in range(1, 6))
            fields.append(f"<fieldset><legend>{m} (1-5)</legend>{opts}</fieldset>")
        prefs = " ".join(f'<label><input type="radio" name="{qid}-preference" value="{v}">{v}</label>'
                         for v in PREFERENCES)
        fields.append(f"<fieldset><legend>preference</legend>{prefs}</fieldset>")
        sections.append(
            f'<div class="q" id="{qid}" data-qid="{html.escape(p.question_id)}" '
            f'data-model="{html.escape(p.model)}" data-question="{html.escape(p.question)}">'
            f"<h3>{html.escape(p.question_id)}: {html.escape(p.question)}</h3>"
            f'<div class="cols"><div><h4>Text-only answer</h4><p>{html.escape(p.text_answer)}</p></div>'
            f"<div><h4>Multimodal answer</h4>{_answer_html(p.multimodal_answer, root)}</div></div>"
            + "".join(fields) + "<textarea placeholder='comment (optional)'></textarea></div>")
    rubric = "".join(
        f"<li><b>{m}</b>: " + "; ".join(f"{i}: {html.escape(t)}" for i, t in enumerate(RUBRIC[m], 1))
        + "</li>" for m in METRICS)
    js = _JS % (list(CSV_COLUMNS).__repr__(), fill)
    page = (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{_CSS}</style><script>{js}</script></head><body><h1>{html.escape(title)}</h1>"
            "<p>Rate the multimodal elements (images, tables, videos) of each multimodal answer, "
            "not the text itself; then say which version you prefer.</p>"
            f"<ul>{rubric}</ul><p>Annotator: <input id='annotator'> "
            "<button onclick='saveCsv()'>Save ratings as CSV</button></p>"
            + "\n".join(sections) + "</body></html>")
    html_path = out / "packets.html"
    html_path.write_text(page, encoding="utf-8")
    csv_path = out / "ratings_template.csv"
    with csv_path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(CSV_COLUMNS)
        for p in packets:
            w.writerow(["", p.question_id, p.model, p.question, "", "", "", "", ""])
    return html_path, csv_path


# ------------------------------------------------------------------- import


def _sheet_text(p: Path) -> str:
    """The text of a ratings file as a spreadsheet saved it: UTF-8, with or without
    the byte-order mark Excel's "CSV UTF-8" writes, or UTF-16 with its mark (Excel's
    "Unicode Text").

    Raises:
        RatingsError: unreadable, or in another encoding (the message says how to save it).
    """
    try:
        data = p.read_bytes()
    except OSError as err:
        raise RatingsError(f"cannot read ratings file {p}: {err.strerror or err}") from err
    try:
        if data.startswith((b"\xff\xfe", b"\xfe\xff")):
            return data.decode("utf-16")
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise RatingsError(f"{p} is not UTF-8 text (byte {err.start}); save it as 'CSV UTF-8'") from err


def load_ratings(paths: Sequence[str | Path]) -> list[Rating]:
    """Read filled rating CSVs (columns :data:`CSV_COLUMNS`; ``question``
    and ``comment`` optional). Rows with every score blank are skipped.

    Files are read as spreadsheets save them (:func:`_sheet_text`: UTF-8 with or
    without a byte-order mark, UTF-16); the delimiter, comma, semicolon (Excel in
    locales with a decimal comma) or tab, is found from the header line by
    :class:`csv.Sniffer`.

    Raises:
        RatingsError: a file is missing, unreadable or not UTF-8/UTF-16 text, a
            column is absent, or a value is invalid (names file, row and column).
    """
    out: list[Rating] = []
    for path in paths:
        p = Path(path)
        if not p.exists():
            raise RatingsError(f"ratings file not found: {p}")
        text = _sheet_text(p)
        try:  # only the delimiter: the rest of Excel's dialect (quotes doubled) stays
            delimiter = csv.Sniffer().sniff(text.split("\n", 1)[0], delimiters=",;\t").delimiter
        except csv.Error:
            delimiter = ","
        reader = csv.DictReader(io.StringIO(text, newline=""), dialect=csv.excel, delimiter=delimiter)
        need = {"annotator", "question_id", "model", *METRICS, "preference"}
        missing = need - set(reader.fieldnames or [])
        if missing:
            raise RatingsError(f"{p}: missing columns {sorted(missing)}")
        for n, row in enumerate(reader, 2):
            vals = [(row.get(m) or "").strip() for m in METRICS]
            if not any(vals) and not (row.get("preference") or "").strip():
                continue
            scores: dict[str, int] = {}
            for m, v in zip(METRICS, vals, strict=True):
                if v not in {"1", "2", "3", "4", "5"}:
                    raise RatingsError(f"{p} row {n} column {m}: {v!r} is not an integer 1-5")
                scores[m] = int(v)
            pref = (row.get("preference") or "").strip().lower().replace("_", "-")
            pref = {"text": "text-only", "text only": "text-only", "multi-modal": "multimodal"}.get(pref, pref)
            if pref not in PREFERENCES:
                raise RatingsError(f"{p} row {n} column preference: {row.get('preference')!r} "
                                   f"is not one of {', '.join(PREFERENCES)}")
            who = (row.get("annotator") or "").strip()
            if not who:
                raise RatingsError(f"{p} row {n} column annotator: empty")
            out.append(Rating(annotator=who, question_id=row["question_id"].strip(),
                              model=row["model"].strip(), preference=pref, **scores))
    return out


# ------------------------------------------------------------------- report


@dataclass(slots=True, kw_only=True)
class HumanSummary:
    """Statistics of a set of ratings (MuRAR Tables 2-5).

    ``per_model[model][metric]`` = {mean, sd, n}; ``preference[model]`` = shares
    of each preference and ``rate`` (= share preferring multimodal);
    ``per_annotator[name]`` = {n, share, mean, sd, preference_rate};
    ``alpha[metric]`` Krippendorff's alpha (ordinal and interval) over all
    annotators, units = (question, model); ``kappa`` Cohen's kappa
    (unweighted and quadratic-weighted) between ``top_annotators`` on the
    units both rated. SDs are sample standard deviations (n-1).
    """

    per_model: dict[str, dict[str, dict[str, float]]]
    preference: dict[str, dict[str, float]]
    per_annotator: dict[str, dict[str, float]]
    alpha: dict[str, dict[str, float | None]]
    kappa: dict[str, dict[str, float | None]]
    top_annotators: list[str]
    n_ratings: int
    notes: list[str] = field(default_factory=list)


def _msd(v: list[float]) -> dict[str, float]:
    return {"mean": statistics.fmean(v), "sd": statistics.stdev(v) if len(v) > 1 else 0.0,
            "n": float(len(v))}


def summarise_ratings(ratings: Sequence[Rating]) -> HumanSummary:
    """Compute :class:`HumanSummary` (libraries: ``krippendorff``, scikit-learn).

    Raises:
        RatingsError: no ratings.
    """
    import krippendorff
    import numpy as np
    from sklearn.metrics import cohen_kappa_score

    if not ratings:
        raise RatingsError("no ratings to summarise")
    models = sorted({r.model for r in ratings})
    groups: dict[str, list[Rating]] = {m: [r for r in ratings if r.model == m] for m in models}
    if len(models) > 1:
        groups["all"] = list(ratings)
    per_model = {g: {m: _msd([float(getattr(r, m)) for r in rs]) for m in METRICS}
                 for g, rs in groups.items()}
    preference: dict[str, dict[str, float]] = {}
    for g, rs in groups.items():
        c = Counter(r.preference for r in rs)
        preference[g] = {p: c[p] / len(rs) for p in PREFERENCES} | {"rate": c["multimodal"] / len(rs)}
    per_annotator: dict[str, dict[str, float]] = {}
    for who in sorted({r.annotator for r in ratings}):
        rs = [r for r in ratings if r.annotator == who]
        allscores = [float(getattr(r, m)) for r in rs for m in METRICS]
        per_annotator[who] = {"n": float(len(rs)), "share": len(rs) / len(ratings),
                              **{k: v for k, v in _msd(allscores).items() if k != "n"},
                              **{m: statistics.fmean(float(getattr(r, m)) for r in rs) for m in METRICS},
                              "preference_rate": sum(r.preference == "multimodal" for r in rs) / len(rs)}
    annotators = sorted(per_annotator, key=lambda a: (-per_annotator[a]["n"], a))
    units = sorted({(r.question_id, r.model) for r in ratings})
    uidx = {u: i for i, u in enumerate(units)}
    aidx = {a: i for i, a in enumerate(annotators)}
    notes: list[str] = []
    alpha: dict[str, dict[str, float | None]] = {}
    kappa: dict[str, dict[str, float | None]] = {}
    top = annotators[:2]
    for metric in (*METRICS, "overall"):
        names = METRICS if metric == "overall" else (metric,)
        mat = np.full((len(annotators), len(units) * len(names)), np.nan)
        for r in ratings:
            for j, m in enumerate(names):
                mat[aidx[r.annotator], uidx[(r.question_id, r.model)] * len(names) + j] = getattr(r, m)
        pairable = int((np.sum(~np.isnan(mat), axis=0) >= 2).sum())
        if pairable == 0 or len(np.unique(mat[~np.isnan(mat)])) < 2:
            alpha[metric] = {"ordinal": None, "interval": None}
        else:
            alpha[metric] = {lvl: float(krippendorff.alpha(reliability_data=mat, level_of_measurement=lvl))
                             for lvl in ("ordinal", "interval")}
        if len(top) == 2:
            a, b = mat[aidx[top[0]]], mat[aidx[top[1]]]
            ok = ~np.isnan(a) & ~np.isnan(b)
            if ok.sum() >= 2 and len(set(a[ok]) | set(b[ok])) > 1:
                kappa[metric] = {"unweighted": float(cohen_kappa_score(a[ok], b[ok])),
                                 "quadratic": float(cohen_kappa_score(a[ok], b[ok], weights="quadratic")),
                                 "n": float(ok.sum())}
            else:
                kappa[metric] = {"unweighted": None, "quadratic": None, "n": float(ok.sum())}
    if len(top) < 2:
        notes.append("Cohen's kappa needs two annotators; only one rated")
    return HumanSummary(per_model=per_model, preference=preference, per_annotator=per_annotator,
                        alpha=alpha, kappa=kappa, top_annotators=top, n_ratings=len(ratings),
                        notes=notes)


def plot_distribution(ratings: Sequence[Rating], path: str | Path) -> Path:
    """Bar chart of score counts (1-5) per metric, one panel per model plus
    all models (MuRAR Figure 3); PNG written to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    models = sorted({r.model for r in ratings})
    panels = [*models, "all"] if len(models) > 1 else models
    fig, axes = plt.subplots(1, len(panels), figsize=(4.5 * len(panels), 3.4), squeeze=False)
    for ax, panel in zip(axes[0], panels, strict=True):
        rs = [r for r in ratings if panel == "all" or r.model == panel]
        counts: dict[str, Any] = defaultdict(lambda: [0] * 5)
        for r in rs:
            for m in METRICS:
                counts[m][getattr(r, m) - 1] += 1
        for k, m in enumerate(METRICS):
            ax.bar([x + (k - 1) * 0.27 for x in range(1, 6)], counts[m], width=0.27, label=m)
        ax.set_title(panel)
        ax.set_xlabel("score")
        ax.set_xticks(range(1, 6))
    axes[0][0].set_ylabel("count")
    axes[0][-1].legend(fontsize=8)
    fig.tight_layout()
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out
