"""Can the bundled model judge each shown picture? (issue 9, "a verifier", the no-media target)

The rules pick a picture when the answer describes its section's screen; on text-only
questions about GUI docs that still happens (``question_gate.py``, ``media_scorer.py``).
This study asks the generator itself, once per *shown* image of the cached answers: given
the question, the answer up to the sentence the picture follows, and the picture's own words
(caption or alt text, and the step before it, :func:`murar.answer.media.step_text`), does the
user need to see it? The score is the model's probability of "yes" against "no" on the first
token of its reply (no sampling), read from llama.cpp's logits.

Printed: ROC AUC of that score for right pictures (gold images of media questions) against
pictures shown on text-only questions; then, for each threshold t, how many text-only answers
would show no picture if pictures under t were dropped, and how many right pictures that loses
(on every set together and on ``dev.jsonl``). Labels come from the question files; nothing is
fit, so no fold is needed. No model answer is written: the answers come from the caches of
``quality.py`` / ``docsites.py --quality`` (run them first).

    python benchmarks/picture_verifier.py --docsites-questions benchmarks/docsites_heldout3.jsonl \\
        benchmarks/docsites_heldout4.jsonl    # ~3 s a picture on 2 idle cores
    python benchmarks/picture_verifier.py --extra <index> <answers.jsonl> benchmarks/unseen_glue_questions.jsonl

Measured (stop 58): 98 pictures shown on glue, taurus and heldout3-6, 19 text-only answers with one:
AUC 0.78; t = 0.85 clears 6 of 19 and loses 3 of 56 right pictures (and 2 of ``dev.jsonl``'s 31),
t = 0.86 clears 8 and loses 4 (4 on dev): no t clears a third while losing at most 5%, so it is not used.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "benchmarks"))

from docsites import questions_by_corpus
from quality import SHARED, NotCached, replay_pipeline

from murar.answer.generate import strip_citations
from murar.answer.media import step_text
from murar.eval.media_metrics import GoldQuestion, load_gold, score_media

SYSTEM = ("You check pictures picked from software documentation for a user's question. "
          "Reply with one word: yes if the user needs to see this picture to act on the answer "
          "(where to click, what a screen, dialog or diagram looks like), no if the answer's text is enough "
          "(a fact, a command, a setting, a reason, a limitation).")
THRESHOLDS = (0.75, 0.8, 0.82, 0.84, 0.85, 0.86, 0.88, 0.9)


@dataclass(frozen=True, slots=True)
class Shown:
    """One picture an answer showed: its set, question, whether that question is text-only,
    whether the picture is a gold one, and the model's P(yes)."""

    set: str
    question_id: str
    text_only: bool
    right: bool
    p_yes: float


def prompt(question: str, answer: str, picture: str) -> str:
    """The ChatML prompt (the bundled model's template) for one picture."""
    return (f"<|im_start|>system\n{SYSTEM}<|im_end|>\n<|im_start|>user\nQuestion: {question}\n"
            f"Answer: {answer}\nPicture: {picture}\nDoes the user need to see this picture?<|im_end|>\n"
            "<|im_start|>assistant\n")


def clearing(rows: Sequence[Shown], t: float) -> tuple[int, int, int, int]:
    """Dropping pictures with ``p_yes < t``: (text-only answers left with no picture, text-only
    answers that showed one, right pictures lost, right pictures)."""
    worst: dict[tuple[str, str], float] = {}
    for r in rows:
        if r.text_only:
            key = (r.set, r.question_id)
            worst[key] = max(worst.get(key, 0.0), r.p_yes)
    right = [r for r in rows if r.right]
    return (sum(1 for p in worst.values() if p < t), len(worst), sum(1 for r in right if r.p_yes < t), len(right))


class YesScorer:
    """P(first reply token is "yes") against "no" from the bundled model's logits."""

    def __init__(self) -> None:
        from murar.llm import load_chat_model

        model = load_chat_model("bundled")
        model.load()  # type: ignore[attr-defined]
        self.llm = model._model()  # type: ignore[attr-defined]  # the llama_cpp.Llama it wraps
        self.yes = [self._token(t) for t in ("yes", "Yes")]
        self.no = [self._token(t) for t in ("no", "No")]

    def _token(self, text: str) -> int:
        return int(self.llm.tokenize(text.encode(), add_bos=False, special=False)[0])

    def __call__(self, text: str) -> float:
        tokens = self.llm.tokenize(text.encode(), add_bos=False, special=True)
        self.llm.reset()
        self.llm.eval(tokens)
        logits = np.ctypeslib.as_array(self.llm._ctx.get_logits(), shape=(self.llm.n_vocab(),)).astype(np.float64)
        e = np.exp(logits - logits.max())
        y, n = float(e[self.yes].sum()), float(e[self.no].sum())
        return y / (y + n) if y + n > 0 else 0.5


def shown_pictures(name: str, index: Path, cache: Path, golds: Iterable[GoldQuestion],
                   score: YesScorer) -> list[Shown]:
    """Every image the cached answers to ``golds`` show over ``index``, scored by the model."""
    p = replay_pipeline(index, cache)
    out: list[Shown] = []
    for g in golds:
        try:
            a = p.answer(g.question)
        except NotCached:
            continue
        wrong = set(score_media(a, g, p.corpus_root).unmatched)
        sentences = [strip_citations(x.sentence) for x in a.trace.attributions]
        for m in a.trace.media_selected:
            if m.item.kind != "image":
                continue
            it = m.item
            words = getattr(it, "caption", "") or getattr(it, "alt", "") or ""
            picture = "; ".join(x for x in (words, "shown after: " + step_text(it, 200)) if x)[:400]
            answer = " ".join(sentences[: m.sentence_index + 1])[-600:]
            name_of = str(getattr(it, "path", "") or it.id).rsplit("/", 1)[-1]
            right = g.kind != "text-only" and not any(u.startswith("image:") and u.endswith(name_of) for u in wrong)
            out.append(Shown(name, g.id, g.kind == "text-only", right, score(prompt(g.question, answer, picture))))
    print(f"  {name}: {len(out)} pictures", flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--index", type=Path, default=None, help="Adobe index (default benchmarks/out/adobe-<embedder>)")
    ap.add_argument("--cache", type=Path, default=REPO / "benchmarks" / "out" / "answers")
    ap.add_argument("--docsites-questions", type=Path, nargs="*", default=[])
    ap.add_argument("--index-root", type=Path, default=REPO / "benchmarks" / "out" / "docsites-idx")
    ap.add_argument("--docsites-cache", type=Path, default=REPO / "benchmarks" / "out" / "docsites-answers")
    ap.add_argument("--extra", nargs=3, action="append", default=[], metavar=("INDEX", "ANSWERS", "QUESTIONS"),
                    help="one more set: its index, its answer cache file and its question file")
    args = ap.parse_args()
    from sklearn.metrics import roc_auc_score

    from murar.cli.common import auto_embedder_kind

    kind = auto_embedder_kind()
    print(f"load average at start: {os.getloadavg()}", flush=True)
    score = YesScorer()
    dev = shown_pictures("dev", args.index or REPO / "benchmarks" / "out" / f"adobe-{kind}",
                         args.cache / "bundled.jsonl", load_gold(SHARED / "eval" / "dev.jsonl"), score)
    rows: list[Shown] = []
    for qfile in args.docsites_questions:
        for corpus, qs in sorted(questions_by_corpus(qfile).items()):
            rows += shown_pictures(f"{corpus} ({qfile.stem})", args.index_root / f"{corpus}-{kind}",
                                   args.docsites_cache / "bundled.jsonl", qs, score)
    for index, answers, questions in args.extra:
        rows += shown_pictures(Path(questions).stem, Path(index), Path(answers), load_gold(questions), score)
    judged = [r for r in rows if r.text_only or r.right]
    if {r.right for r in judged} == {True, False}:
        print(f"\nAUC right pictures vs pictures on text-only questions: "
              f"{roc_auc_score([r.right for r in judged], [r.p_yes for r in judged]):.3f}")
    print(f"\n{'t':>5} {'text-only cleared':>18} {'right lost':>12} {'dev right lost':>15}")
    for t in THRESHOLDS:
        cleared, n_text, lost, n_right = clearing(rows, t)
        _, _, dev_lost, dev_right = clearing(dev, t)
        print(f"{t:5.2f} {cleared:>8} of {n_text:<7} {lost:>4} of {n_right:<5} {dev_lost:>5} of {dev_right}")
    print(f"\nload average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
