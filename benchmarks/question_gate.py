"""Can the question alone tell that no media helps? (issue 9, the no-media target)

Issue 9 asks for no media on >= 90% of text-only questions on docs never seen.
The media selection decides per candidate, from the answer; the text-only
answers that still show something on the blind docsite sets draw on a section
whose picture or table the answer does describe, and their candidates score as
high as right picks do (``media_scorer.py``). A decision upstream, on the
*question* (does it ask to see something or to act in a UI, or for a command, a
setting, a fact?), would be the next lever. This benchmark measures how well
the question text alone separates the two, with no answer, index or cache:

- a bag-of-words logistic regression (scikit-learn, TF-IDF of words and word
  pairs, balanced classes), fit with one corpus held out at a time (``dev.jsonl``
  is one corpus, each docs site another), so every score comes from a model
  that never saw the question's documentation; ``--shared-vocab K`` keeps only
  words found in the questions of at least K training corpora (no product
  names), the form that could ship;
- ROC AUC per held-out corpus and pooled, and the operating points: the share
  of text-only questions a threshold catches while it loses at most 5%, 10% or
  20% of the questions that want media (whose right pictures are then lost);
- ``--llm bundled``: the bundled model asked "would a picture help?" per
  question, zero-shot and with four invented examples (not from any question
  file): how often it says "no" on each kind.

    python benchmarks/question_gate.py                      # seconds
    python benchmarks/question_gate.py --shared-vocab 4 --llm bundled   # + ~7 min of model calls

Labels come from the question files: ``kind == "text-only"`` against every
other kind (image, table, video, mixed).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "benchmarks"))

from docsites import questions_by_corpus

from murar.eval.media_metrics import GoldQuestion, load_gold
from murar.llm.base import ChatMessage, ChatModel

SHARED = REPO.parent / "shared"
INSTRUCTION = (
    "You sort questions about software documentation. Reply with one word: yes or no.\n"
    "yes: a picture from the docs would help the user: the question asks how to do something in a graphical "
    "user interface (where to click, which menu, screen, dialog, form or page), what something looks like, or "
    "how a system is built or flows (an architecture or flow diagram, a chart).\n"
    "no: the answer is text: a command, code, an API call, a configuration file or property, a concept, a fact, "
    "a limitation, a syntax, or a troubleshooting step.")
EXAMPLES = (("How do I add a new user from the admin console?", "yes"),
            ("Which environment variable sets the cache size?", "no"),
            ("How are requests routed between the gateway and the workers?", "yes"),
            ("Can I run the exporter without root privileges?", "no"))
_WORD = re.compile(r"[a-z][a-z']+")
LOSSES = (0.05, 0.1, 0.2)
"""Shares of the media questions a no-media threshold may lose (:func:`operating_points`)."""


def load_questions(dev: Path, files: list[Path]) -> list[tuple[str, GoldQuestion]]:
    """``(corpus, question)`` pairs of ``dev`` (corpus ``adobe``) and of docs-site question files.

    Raises:
        murar.eval.errors.EvalDataError: a file is missing or a line is malformed (:func:`load_gold`).
    """
    by_corpus = {"adobe": load_gold(dev), **questions_by_corpus(*files)}
    return [(corpus, g) for corpus, golds in by_corpus.items() for g in golds]


def shared_words(questions: list[str], corpora: list[str], k: int) -> list[str]:
    """Words found in the questions of at least ``k`` distinct corpora, sorted."""
    seen: dict[str, set[str]] = {}
    for q, c in zip(questions, corpora):
        for w in set(_WORD.findall(q.lower())):
            seen.setdefault(w, set()).add(c)
    return sorted(w for w, cs in seen.items() if len(cs) >= k)


def held_out_scores(text: list[str], corpus: np.ndarray, wants_media: np.ndarray, *,
                    shared_vocab: int | None, c: float) -> np.ndarray:
    """P(wants media) for every question of ``text`` (``corpus`` and the ``wants_media`` labels
    aligned with it), each from a model fit without the question's corpus."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    prob = np.zeros(len(text))
    for held in sorted(set(corpus)):
        train = np.flatnonzero(corpus != held)
        test = np.flatnonzero(corpus == held)
        if shared_vocab:
            vocab = shared_words([text[i] for i in train], list(corpus[train]), shared_vocab)
            vec = TfidfVectorizer(vocabulary=vocab, token_pattern=_WORD.pattern, sublinear_tf=True)
        else:
            vec = TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True)
        model = LogisticRegression(C=c, class_weight="balanced", max_iter=2000)
        model.fit(vec.fit_transform([text[i] for i in train]), wants_media[train])
        prob[test] = model.predict_proba(vec.transform([text[i] for i in test]))[:, 1]
    return prob


def operating_points(prob: np.ndarray, wants_media: np.ndarray,
                     losses: tuple[float, ...] = LOSSES) -> list[tuple[float, float, float]]:
    """For each allowed loss: (threshold, share of text-only questions scored below it, share of
    media questions scored below it). The threshold is the highest score that keeps the media
    questions lost at or under the allowed share; questions below it would get no media."""
    media = np.sort(prob[wants_media])
    out = []
    for loss in losses:
        n_lost = int(np.floor(loss * len(media)))
        thr = float(media[n_lost]) if n_lost < len(media) else float("inf")
        out.append((thr, float(np.mean(prob[~wants_media] < thr)), float(np.mean(prob[wants_media] < thr))))
    return out


def ask_model(questions: list[str], model: ChatModel, *, examples: bool) -> list[bool]:
    """True where ``model`` answers "no" (no picture would help); greedy, one call per question."""

    def turn(q: str) -> ChatMessage:
        return ChatMessage("user", f"Question: {q}\nWould a picture help? yes or no:")

    shots = [m for q, a in EXAMPLES for m in (turn(q), ChatMessage("assistant", a))] if examples else []
    out = []
    for q in questions:
        reply = model.complete([ChatMessage("system", INSTRUCTION), *shots, turn(q)], max_tokens=2)
        out.append(reply.strip().lower().startswith("no"))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dev", type=Path, default=SHARED / "eval" / "dev.jsonl")
    ap.add_argument("--questions", type=Path, nargs="+",
                    default=sorted((REPO / "benchmarks").glob("docsites_*.jsonl")))
    ap.add_argument("--shared-vocab", type=int, default=None, metavar="K",
                    help="only words of questions of >= K training corpora")
    ap.add_argument("--C", type=float, default=3.0, help="inverse regularisation of the logistic regression")
    ap.add_argument("--llm", default=None, help="also ask this chat model kind (bundled, bundled-small)")
    args = ap.parse_args()
    from sklearn.metrics import roc_auc_score

    print(f"load average at start: {os.getloadavg()}", flush=True)
    rows = load_questions(args.dev, args.questions)
    text = [g.question for _, g in rows]
    wants = np.array([g.kind != "text-only" for _, g in rows])
    corpus = np.array([c for c, _ in rows])
    print(f"{len(rows)} questions, {int((~wants).sum())} text-only, {len(set(corpus))} corpora "
          f"({', '.join(p.name for p in [args.dev, *args.questions])})")
    prob = held_out_scores(text, corpus, wants, shared_vocab=args.shared_vocab, c=args.C)
    vocab = f"shared by >= {args.shared_vocab} corpora" if args.shared_vocab else "all words and pairs"
    print(f"\nquestion-text classifier (one corpus held out at a time; vocabulary: {vocab})")
    print(f"{'held-out corpus':42} {'n':>4} {'text-only':>9} {'AUC':>6}")
    for held in sorted(set(corpus)):
        m = corpus == held
        auc = roc_auc_score(wants[m], prob[m]) if len(set(wants[m])) == 2 else float("nan")
        print(f"{held:42} {int(m.sum()):4d} {int((~wants[m]).sum()):9d} {auc:6.3f}")
    print(f"{'pooled':42} {len(rows):4d} {int((~wants).sum()):9d} {roc_auc_score(wants, prob):6.3f}")
    print("\nmedia questions lost | threshold | text-only caught")
    for (thr, caught, lost), loss in zip(operating_points(prob, wants), LOSSES):
        print(f"  <= {loss:.0%} (lost {lost:.1%}) | {thr:.3f} | {caught:.1%}")
    if args.llm:
        from murar.llm import load_chat_model

        model = load_chat_model(args.llm)
        for examples in (False, True):
            t0 = time.perf_counter()
            says_no = np.array(ask_model(text, model, examples=examples))
            print(f"\n{args.llm} asked{' with 4 invented examples' if examples else ' zero-shot'} "
                  f"({time.perf_counter() - t0:.0f} s): says no on {int(says_no[~wants].sum())} of "
                  f"{int((~wants).sum())} text-only, {int(says_no[wants].sum())} of {int(wants.sum())} media questions")


if __name__ == "__main__":
    main()
