"""Can a learned scorer over candidate features beat the media-selection rules? (issue 9)

Issue 9 invites "a verifier or a learned scorer over candidate features", with
cross-validated folds when it is fit on gold questions. This benchmark is that
study, over the model answers the other benchmarks cached (no model call: run
``quality.py --llm bundled`` and ``docsites.py --quality --llm bundled`` first):

- every image *candidate* of every answer (the screenshots of the sections the
  answer is attributed to, :attr:`murar.schema.Trace.media_candidates`) gets
  the features below and the label "is a gold image";
- each feature's ROC AUC alone is printed, then a logistic regression and a
  gradient-boosted tree ensemble (scikit-learn) fit with one corpus held out
  at a time (dev.jsonl is one corpus, each docs site another), so every
  probability comes from a model that never saw the question's corpus;
- image micro P/R/F1 of keeping the candidates scored at or above each
  threshold, beside the current rules (``selected``) and all candidates
  (the recall ceiling of any re-ranking of them).

Features (cosines of the index's embedder unless said): ``selected`` (the rules
picked it), ``score`` (item to its snippet), ``sentence`` (item to the answer
sentence it would follow), ``step`` (its step text to the closest answer
sentence), ``question`` (item to the question), ``question_gap`` (the best
candidate's ``question`` minus its own), ``section_gap`` (best retrieved snippet
score minus its section's), ``share`` (answer sentences attributed to its
section / all), ``rank`` (candidates of its section scored above it),
``n_candidates`` (image candidates of its section), ``n_selected`` (images the
rules picked in this answer), ``alt`` (its alt text and caption to the closest
answer sentence; 0 without either), ``alt_gap`` / ``step_gap`` (the best
``alt`` / ``step`` among its section's candidates minus its own), ``after`` (the
first sentence after it in the page to the closest answer sentence).
Indexes are those of the product's default embedder (mpnet when prepared).

    python benchmarks/media_scorer.py [--llm bundled]
    python benchmarks/media_scorer.py --docsites-questions benchmarks/docsites_questions.jsonl \
        benchmarks/docsites_heldout.jsonl     # every cached question set; one fold per site
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "benchmarks"))

from docsites import questions_by_corpus
from quality import SHARED, NotCached, replay_pipeline

from murar.answer.media import step_text
from murar.eval.media_metrics import GoldQuestion, load_gold, normalise_path
from murar.eval.mirage import f1_score
from murar.ingest.chunking import first_sentence

FEATURES = ("selected", "score", "sentence", "step", "question", "question_gap", "section_gap", "share",
            "rank", "n_candidates", "n_selected", "alt", "alt_gap", "after", "step_gap")


def candidate_rows(index: Path, cache: Path, golds: list[GoldQuestion], corpus: str, llm: str) -> dict[str, Any]:
    """Features and labels of every image candidate of the cached answers to ``golds`` over ``index``.

    Returns ``{"X": (n, len(FEATURES)) array, "y": (n,) 0/1, "n_gold": int, "misses": int}``;
    ``misses`` counts questions whose answer was not in ``cache`` (they are skipped)."""
    p = replay_pipeline(index, cache, llm)
    emb, store = p.embedder, p.store
    xs: list[list[float]] = []
    ys: list[int] = []
    n_gold = misses = 0
    for g in golds:
        try:
            t = p.answer(g.question).trace
        except NotCached:
            misses += 1
            continue
        gold = {normalise_path(x) for x in g.gold_images}
        n_gold += len(gold)
        best: dict[str, Any] = {}
        for c in t.media_candidates:
            if c.item.kind == "image" and (c.item.id not in best or best[c.item.id].score < c.score):
                best[c.item.id] = c
        if not best:
            continue
        vecs = emb.embed([g.question] + [a.sentence for a in t.attributions])
        qv, sv = vecs[0], vecs[1:]
        row_of = {a.sentence_index: r for r, a in enumerate(t.attributions)}
        section_of = {s.snippet.id: s.snippet.section_id for s in t.retrieved}
        section_score: dict[str, float] = {}
        for s in t.retrieved:
            section_score[s.snippet.section_id] = max(section_score.get(s.snippet.section_id, -1.0), s.score)
        top = max((s.score for s in t.retrieved), default=0.0)
        selected = {m.item.id for m in t.media_selected}
        n_selected = sum(1 for m in t.media_selected if m.item.kind == "image")
        mvecs = {i: store.media_vector(i) for i in best}
        qsim = {i: float(v @ qv) if v is not None else 0.0 for i, v in mvecs.items()}
        steps = emb.embed([step_text(c.item) for c in best.values()])
        alts = emb.embed([own_words(c.item) for c in best.values()])
        afters = emb.embed([first_sentence(c.item.context_after, 300) or "" for c in best.values()])
        alt_sim = {i: float((sv @ a).max()) if len(sv) and own_words(c.item) else 0.0
                   for (i, c), a in zip(best.items(), alts)}
        step_sim = {i: float((sv @ st).max()) if len(sv) else 0.0 for i, st in zip(best, steps)}
        for (item_id, c), step, after in zip(best.items(), steps, afters):
            sec = c.item.section_id
            same = [o.score for o in best.values() if o.item.section_id == sec]
            mv = mvecs[item_id]
            xs.append([
                float(item_id in selected), c.score,
                float(mv @ sv[row_of[c.sentence_index]]) if mv is not None and c.sentence_index in row_of else 0.0,
                float((sv @ step).max()) if len(sv) else 0.0,
                qsim[item_id], max(qsim.values()) - qsim[item_id],
                top - section_score.get(sec, 0.0),
                sum(1 for a in t.attributions if a.snippet_id and section_of.get(a.snippet_id) == sec)
                / max(len(t.attributions), 1),
                float(sum(1 for s in same if s > c.score)), float(len(same)), float(n_selected),
                alt_sim[item_id],
                max(alt_sim[o] for o, oc in best.items() if oc.item.section_id == sec) - alt_sim[item_id],
                float((sv @ after).max()) if len(sv) and c.item.context_after else 0.0,
                max(step_sim[o] for o, oc in best.items() if oc.item.section_id == sec) - step_sim[item_id]])
            ys.append(int(normalise_path(str(getattr(c.item, "path", "") or "")) in gold))
    print(f"  {corpus}: {len(ys)} candidates, {sum(ys)} gold, {n_gold} gold images, {misses} answers not cached",
          flush=True)
    return {"X": np.array(xs, dtype=float).reshape(-1, len(FEATURES)), "y": np.array(ys, dtype=int),
            "n_gold": n_gold, "misses": misses}


def own_words(item: Any) -> str:
    """The words an image carries itself: its alt text and caption (``""`` when it has none)."""
    return " ".join(x for x in (getattr(item, "alt", "") or "", getattr(item, "caption", "") or "") if x).strip()


def micro(y: np.ndarray, keep: np.ndarray, n_gold: int) -> tuple[float, float, float]:
    """Image micro (precision, recall, F1) of keeping the candidates ``keep`` (bool mask)."""
    tp, pred = int(y[keep].sum()), int(keep.sum())
    p_ = tp / pred if pred else 0.0
    r_ = tp / n_gold if n_gold else 0.0
    return p_, r_, f1_score(p_, r_) or 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--llm", default="bundled")
    ap.add_argument("--index", type=Path, default=None,
                    help="Adobe index (default benchmarks/out/adobe-<embedder>, the product's default embedder)")
    ap.add_argument("--cache", type=Path, default=REPO / "benchmarks" / "out" / "answers")
    ap.add_argument("--docsites-questions", type=Path, nargs="+",
                    default=[REPO / "benchmarks" / "docsites_questions.jsonl"],
                    help="docs-site question files (several: each file's questions of one site are one more fold)")
    ap.add_argument("--index-root", type=Path, default=REPO / "benchmarks" / "out" / "docsites-idx")
    ap.add_argument("--docsites-cache", type=Path, default=REPO / "benchmarks" / "out" / "docsites-answers")
    args = ap.parse_args()
    from sklearn.ensemble import GradientBoostingClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import roc_auc_score
    from sklearn.preprocessing import StandardScaler

    from murar.cli.common import auto_embedder_kind

    kind = auto_embedder_kind()  # the indexes quality.py and docsites.py --quality build by default
    index = args.index or REPO / "benchmarks" / "out" / f"adobe-{kind}"
    print(f"load average at start: {os.getloadavg()}", flush=True)
    parts = {"dev": candidate_rows(index, args.cache / f"{args.llm}.jsonl",
                                   load_gold(SHARED / "eval" / "dev.jsonl"), "dev", args.llm)}
    for qfile in args.docsites_questions:
        for corpus, qs in sorted(questions_by_corpus(qfile).items()):
            site_index = args.index_root / f"{corpus}-{kind}"
            if site_index.exists():
                # one fold per site: a site's questions of every file are held out together
                got = candidate_rows(site_index, args.docsites_cache / f"{args.llm}.jsonl", qs,
                                     f"{corpus} ({qfile.stem})", args.llm)
                if corpus in parts:
                    old = parts[corpus]
                    got = {"X": np.vstack([old["X"], got["X"]]), "y": np.concatenate([old["y"], got["y"]]),
                           "n_gold": old["n_gold"] + got["n_gold"], "misses": old["misses"] + got["misses"]}
                parts[corpus] = got
    X = np.vstack([v["X"] for v in parts.values()])
    y = np.concatenate([v["y"] for v in parts.values()])
    groups = np.concatenate([[k] * len(v["y"]) for k, v in parts.items()])
    n_gold = sum(v["n_gold"] for v in parts.values())
    if len(set(y)) < 2:
        raise SystemExit("need gold and non-gold candidates: run quality.py and docsites.py --quality first")
    print(f"\n{len(y)} image candidates, {int(y.sum())} of them gold, {n_gold} gold images, "
          f"{len(parts)} corpora")
    print("feature AUC alone: " + ", ".join(f"{n} {roc_auc_score(y, X[:, i]):.3f}" for i, n in enumerate(FEATURES)))
    rows = [("current rules (selected)", *micro(y, X[:, 0] > 0, n_gold)),
            ("every candidate (ceiling)", *micro(y, np.ones(len(y), bool), n_gold))]
    models: dict[str, Callable[[], Any]] = {"logistic regression": lambda: LogisticRegression(C=0.5, max_iter=2000),
              "gradient boosting": lambda: GradientBoostingClassifier(n_estimators=60, max_depth=2, random_state=0)}
    for name, make in models.items():
        prob = np.zeros(len(y))
        for g in sorted(set(groups)):  # leave one corpus out
            train = groups != g
            if len(set(y[train])) < 2:
                prob[~train] = y[train].mean()
                continue
            scale = StandardScaler().fit(X[train])
            model = make().fit(scale.transform(X[train]), y[train])
            prob[~train] = model.predict_proba(scale.transform(X[~train]))[:, 1]
        print(f"{name}: held-out-corpus AUC {roc_auc_score(y, prob):.3f}")
        rows += [(f"{name} p >= {t}", *micro(y, prob >= t, n_gold)) for t in (0.3, 0.4, 0.5, 0.6)]
    print(f"\n{'selection':34} {'P':>6} {'R':>6} {'F1':>6}")
    for name, p_, r_, f1 in rows:
        print(f"{name:34} {p_:6.3f} {r_:6.3f} {f1:6.3f}")
    print(f"\nload average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
