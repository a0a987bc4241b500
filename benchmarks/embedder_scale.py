"""Do the selection's cosine thresholds carry over to another embedder? (issue 9)

The attribution and media thresholds (``AttributionOptions``, ``MediaOptions``) were
set on MiniLM cosines. This script reads two indexes of the same corpus built with two
embedders (same snippets, other vectors: ``murar ingest --embedder ...`` twice, or
``benchmarks/embedders.py``'s re-embedded copies) and compares the cosines each gives
to the same snippet pairs: for a sample of snippets, their 15 nearest neighbours under
the first index plus 15 random snippets. It prints the correlation, the two
embedders' quantiles side by side, and each threshold of the first embedder mapped to
the second by equal quantile (equipercentile mapping) — the value to try with
``quality.py --media`` / ``--attribution`` if the scales differ.

    python benchmarks/embedder_scale.py benchmarks/out/adobe-minilm benchmarks/out/adobe-mpnet

Nothing is embedded; it takes seconds.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from murar.ingest.index import open_index

THRESHOLDS = (0.05, 0.1, 0.25, 0.35, 0.4, 0.45, 0.5, 0.6)
"""MiniLM-scale values the selection uses (cosines, and the 0.05/0.1 focus margins as levels)."""


def _vectors(index: Path) -> tuple[list[str], np.ndarray, str]:
    opened = open_index(index)
    store = opened.store
    ids = [s.id for s in store.all_snippets()]  # type: ignore[attr-defined]
    return ids, np.asarray(store.snippet_vectors(ids), dtype=np.float32), opened.manifest.embedder


def pair_cosines(a: np.ndarray, b: np.ndarray, *, sample: int, neighbours: int,
                 seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Cosines of the same snippet pairs under two embedders; rows of ``a`` and ``b`` are the
    same snippets, unit vectors. Returns two 1-d float arrays of equal length."""
    rng = np.random.default_rng(seed)
    n = len(a)
    xs: list[float] = []
    ys: list[float] = []
    for i in rng.choice(n, size=min(n, sample), replace=False):
        sims = a @ a[i]
        sims[i] = -np.inf
        others = np.concatenate([np.argsort(-sims)[:neighbours], rng.choice(n, neighbours)])
        for j in others[others != i]:
            xs.append(float(a[i] @ a[j]))
            ys.append(float(b[i] @ b[j]))
    return np.array(xs), np.array(ys)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("first", type=Path, help="index built with the embedder the thresholds were set on")
    ap.add_argument("second", type=Path, help="index of the same corpus built with the other embedder")
    ap.add_argument("--sample", type=int, default=800, help="snippets whose pairs are taken")
    ap.add_argument("--neighbours", type=int, default=15)
    args = ap.parse_args()
    ids_a, va, name_a = _vectors(args.first)
    ids_b, vb, name_b = _vectors(args.second)
    pos_b = {s: i for i, s in enumerate(ids_b)}
    common = [i for i, s in enumerate(ids_a) if s in pos_b]
    if len(common) < 2:
        raise SystemExit("the two indexes share fewer than 2 snippets: not the same corpus and chunking")
    a = va[common]
    b = vb[[pos_b[ids_a[i]] for i in common]]
    x, y = pair_cosines(a, b, sample=args.sample, neighbours=args.neighbours)
    print(f"{name_a} vs {name_b}: {len(common)} shared snippets, {len(x)} pairs, "
          f"correlation {np.corrcoef(x, y)[0, 1]:.3f}")
    print(f"{'quantile':>8} {'first':>7} {'second':>7}")
    for q in np.linspace(0.05, 0.95, 10):
        print(f"{q:8.2f} {np.quantile(x, q):7.3f} {np.quantile(y, q):7.3f}")
    print("threshold on the first -> same quantile on the second")
    for t in THRESHOLDS:
        print(f"{t:8.2f} -> {np.quantile(y, float((x < t).mean())):.3f}")


if __name__ == "__main__":
    main()
