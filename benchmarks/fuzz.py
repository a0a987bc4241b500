"""Long fuzz run over every registered converter (issue 11).

Cases (see :mod:`murar.testing.fuzz`): for each text markup, pages built from
hostile fragments and random text, and byte mutations of real pages from
``../shared/corpora`` (Markdown, HTML, MDX, reST, MyST, notebooks of the
docs-site corpora); for PDFs, byte mutations of the real PDFs in
``../shared/corpora/pdf``. Each case runs in a forked worker with a time limit
(``--seconds``); the worker is restarted every ``--restart`` cases and its peak
RSS (``VmHWM``) recorded, with the parent's.

    python benchmarks/fuzz.py [--text-cases 100000] [--pdf-cases 1000] [--minutes M] [--seconds 10]

Prints cases run per markup, outcomes (ok / rejected with a typed error /
unhandled / hang), cases per second, peak RSS, and the first failures in full.
A case over ``--seconds`` is re-run alone at the end with ``--recheck-seconds``:
it counts as a hang only if it fails again (on a busy machine a slow case can
hit the first limit), else as slow. ``--minutes`` stops early (the figures say
how many cases ran).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from murar.testing.fuzz import (
    FuzzTarget,
    build_document,
    fragments_for,
    markups,
    mutate,
    notebook_document,
)

SHARED = REPO.parent / "shared" / "corpora"
_SEED_GLOBS = {"markdown": ["*.md"], "pymdown": ["*.md"], "myst": ["*.md"], "mdx": ["*.mdx"], "html": ["*.html"],
               "rst": ["*.rst"], "notebook": ["*.ipynb"], "asciidoc": ["*.adoc"]}


def seeds(markup: str, rng: random.Random, limit: int = 40) -> list[bytes]:
    """Up to ``limit`` real pages of ``markup`` from the shared corpora (smaller than 200 kB)."""
    found: list[Path] = []
    for pattern in _SEED_GLOBS.get(markup, []):
        found.extend(p for p in SHARED.rglob(pattern) if p.is_file() and p.stat().st_size < 200_000)
    rng.shuffle(found)
    return [p.read_bytes() for p in found[:limit]]


def vm_hwm_mb(pid: int | None) -> float:
    """Peak resident set of process ``pid`` in MB (``VmHWM``), 0 when unknown."""
    if pid is None:
        return 0.0
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def text_case(markup: str, rng: random.Random, pool: list[bytes]) -> bytes:
    if pool and rng.random() < 0.5:
        return mutate(rng.choice(pool), rng)
    frags = fragments_for(markup)
    parts: list[str | bytes] = []
    for _ in range(rng.randint(1, 10)):
        r = rng.random()
        if r < 0.6:
            parts.append(rng.choice(frags))
        elif r < 0.85:
            parts.append("".join(chr(rng.randint(32, 0x2FF)) for _ in range(rng.randint(0, 80))))
        else:
            parts.append(bytes(rng.randrange(256) for _ in range(rng.randint(0, 24))))
    if markup == "notebook" and rng.random() < 0.3:
        return mutate(notebook_document([p if isinstance(p, str) else p.decode("latin-1") for p in parts]), rng)
    return build_document(markup, parts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--text-cases", type=int, default=100_000)
    ap.add_argument("--pdf-cases", type=int, default=1_000)
    ap.add_argument("--minutes", type=float, default=0, help="stop after this many minutes (0: no limit)")
    ap.add_argument("--seconds", type=float, default=10.0, help="time limit per case")
    ap.add_argument("--restart", type=int, default=2_000, help="restart the worker every N cases")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--recheck-seconds", type=float, default=60.0,
                    help="re-run every case that hit --seconds alone with this limit: a hang is a case that "
                         "also fails the re-run (on a shared machine a slow case can hit the first limit)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    text_markups = [m for m in markups() if m != "pdf"]
    pools = {m: seeds(m, rng) for m in text_markups}
    pdfs = sorted(p for p in (SHARED / "pdf").rglob("*.pdf") if p.stat().st_size < 3_000_000)
    pdf_pool = [p.read_bytes() for p in pdfs]
    deadline = time.monotonic() + args.minutes * 60 if args.minutes else float("inf")
    per_markup: Counter[str] = Counter()
    outcomes: Counter[tuple[str, str]] = Counter()
    worker_peak = 0.0
    t0 = time.perf_counter()
    plan = [("text", i) for i in range(args.text_cases)] + [("pdf", i) for i in range(args.pdf_cases)]
    rng.shuffle(plan)
    first_failures = []
    timed_out: list[tuple[str, bytes]] = []
    stopped_early = False
    with FuzzTarget(seconds=args.seconds) as target:
        for n, (kind, _i) in enumerate(plan, 1):
            if time.monotonic() > deadline:
                stopped_early = True
                break
            if kind == "pdf":
                if not pdf_pool:
                    continue
                markup, data = "pdf", mutate(rng.choice(pdf_pool), rng, n=rng.randint(1, 16))
            else:
                markup = text_markups[n % len(text_markups)]
                data = text_case(markup, rng, pools[markup])
            result = target.run(markup, data)
            per_markup[markup] += 1
            if result.outcome == "hang":
                timed_out.append((markup, data))
                outcomes[(markup, "timeout")] += 1
                continue
            outcomes[(markup, result.outcome)] += 1
            if result.outcome == "unhandled" and len(first_failures) < 10:
                first_failures.append((markup, result.outcome, result.detail[-1500:], data[:300]))
            if n % args.restart == 0:
                worker_peak = max(worker_peak, vm_hwm_mb(target.worker_pid()))
                target.restart()
            if n % 1000 == 0:
                el = time.perf_counter() - t0
                print(f"  {n} cases, {el:.0f} s, {n / el:.1f} cases/s, unhandled "
                      f"{sum(v for (m, o), v in outcomes.items() if o == 'unhandled')}, timeouts "
                      f"{len(timed_out)}", flush=True)
        worker_peak = max(worker_peak, vm_hwm_mb(target.worker_pid()))
    elapsed = time.perf_counter() - t0
    # a case over --seconds is re-run alone with --recheck-seconds: only a second failure is a hang
    if timed_out:
        with FuzzTarget(seconds=args.recheck_seconds) as target:
            for markup, data in timed_out:
                result = target.run(markup, data)
                outcome = result.outcome if result.outcome != "ok" else "slow"
                outcomes[(markup, outcome)] += 1
                if outcome in ("unhandled", "hang") and len(first_failures) < 10:
                    first_failures.append((markup, outcome, result.detail[-1500:], data[:300]))
                target.restart()
    parent_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children_peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    total = sum(per_markup.values())
    text_total = total - per_markup["pdf"]
    load = os.getloadavg()
    print(f"\nfuzz run: {total} cases ({text_total} text, {per_markup['pdf']} PDF) in {elapsed:.0f} s "
          f"({total / max(elapsed, 1e-9):.1f} cases/s){' - stopped at --minutes' if stopped_early else ''}")
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (shared 2-core machine)")
    print(f"{'markup':<10} {'cases':>7} {'ok':>7} {'rejected':>9} {'unhandled':>10} {'timeout':>8} "
          f"{'slow':>5} {'hang':>5}")
    for m in sorted(per_markup):
        row = [outcomes[(m, o)] for o in ("ok", "rejected", "unhandled", "timeout", "slow", "hang")]
        print(f"{m:<10} {per_markup[m]:>7} {row[0]:>7} {row[1]:>9} {row[2]:>10} {row[3]:>8} {row[4]:>5} {row[5]:>5}")
    print(f"timeout: over {args.seconds:g} s in the run; slow: finished when re-run alone within "
          f"{args.recheck_seconds:g} s; hang: failed the re-run too")
    unhandled = sum(v for (m, o), v in outcomes.items() if o == "unhandled")
    hangs = sum(v for (m, o), v in outcomes.items() if o == "hang")
    print(f"unhandled {unhandled}, hangs {hangs}; peak RSS: worker {max(worker_peak, children_peak):.0f} MB, "
          f"parent {parent_peak:.0f} MB")
    for markup, outcome, detail, head in first_failures:
        print(f"\n--- {markup} {outcome}: input starts {head!r}\n{detail}")


if __name__ == "__main__":
    main()
