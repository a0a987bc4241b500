"""Microsoft Learn monikers: which versioned content a reader of the default view sees.

A Learn page can hold content for several versions of a product: ``::: moniker
range="<expression>"`` ... ``::: moniker-end`` zones (Learn contributor guide,
"Versioned content"; DocFX v3 "conceptual versioning" design), and a page as a
whole has a range (front matter ``monikerRange``, ``docfx.json``
``fileMetadata.monikerRange`` globs, or the ``moniker_range`` of its content
``group``). A range is alternatives joined by ``||``, each a space-separated list
of comparisons (``>=``, ``<=``, ``>``, ``<``, ``=`` or none) with a moniker such as
``vs-2022`` or ``aspnetcore-8.0``; comparisons are made within a product, in the
order of its versions.

The order of monikers lives in Learn's moniker service, not in the repository.
A page opened without ``?view=`` shows the newest version the page exists in, so
murar reads a page as that view: the product of a moniker is its name up to its
trailing version number (``vs-`` 2022, ``aspnetcore-`` 8.0), versions compare as
numbers, and the newest version is the highest one the page and its config name
(or one above it when a range says ``> highest``), kept within the page's own
range. A zone is shown when that default moniker of one of its products satisfies
its range. Where the order cannot be known (a moniker without a trailing number,
``azure-sqldw-latest``; a product mixing years and small version numbers,
``iotedge-2020-11`` and ``iotedge-1.4``) the zone is kept, as before: more text
is better than losing the current version's. One exception: a moniker without a
number that a range bounds from above (``< azure-devops``, ``<= azure-devops``) and
none from below (``> azure-devops``) is the newest of its line (the cloud service
over its server releases, as the Azure DevOps docs pair ``range="azure-devops"`` with
``range="< azure-devops"``): the default view is that moniker, or, on a page whose
own range leaves it out, the version just below it. Such a view is then the one view
of the page, and as Learn compares a range along the docset's whole list of monikers,
it lies above every other moniker of that list, of another line too (``tfs-2018``, the
older name of Azure DevOps Server): a zone is shown when its range holds that moniker
(``>= tfs-2017`` does, ``<= tfs-2018`` and ``tfs-2018 || azure-devops-2019`` do not).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: a range longer than this, or with more comparisons, is not evaluated (its zone is kept)
MAX_RANGE_CHARS = 500
MAX_TERMS = 40

_TERM = re.compile(r"(>=|<=|>|<|=)?\s*([A-Za-z0-9][\w.\-]*)")
_VERSIONED = re.compile(r"(.*?[A-Za-z_\-])(\d{1,9}(?:[._\-]\d{1,9}){0,5})")

Version = tuple[int, ...]
Range = list[list[tuple[str, str]]]  # alternatives (||) of comparisons (op, moniker) that must all hold
#: a version above every one named (a range ``> highest`` names no newer moniker)
ABOVE: Version = (10**10,)
#: the version of a moniker without a number that is the newest of its line (see the module doc); above
#: every version, and not :data:`ABOVE`, so that a default view at it is known as such
TOP: Version = (ABOVE[0], 1)
#: a version just below :data:`TOP` (the default view of a page whose range leaves the newest out)
BELOW_TOP: Version = (ABOVE[0] - 1,)


def split_moniker(name: str) -> tuple[str, Version | None]:
    """``(product, version)`` of a moniker: ``vs-2022`` -> ``("vs-", (2022,))``,
    ``aspnetcore-8.0`` -> ``("aspnetcore-", (8, 0))``; a moniker without a trailing
    number has no version (``("azure-sqldw-latest", None)``)."""
    low = name.strip().lower()
    m = _VERSIONED.fullmatch(low)
    if not m:
        return low, None
    return m.group(1), tuple(int(x) for x in re.split(r"[._\-]", m.group(2)))


def parse_range(text: str) -> Range | None:
    """The alternatives of a moniker range expression, each a list of ``(op, moniker)``
    (``op`` ``""`` means equal); ``None`` when the text is not a range murar can read."""
    text = text.strip()
    if not text or len(text) > MAX_RANGE_CHARS:
        return None
    out: Range = []
    terms = 0
    for part in text.split("||"):
        part = part.strip()
        if not part:
            continue
        alt: list[tuple[str, str]] = []
        pos = 0
        while pos < len(part):
            if part[pos].isspace():
                pos += 1
                continue
            m = _TERM.match(part, pos)
            if not m:
                return None
            alt.append((m.group(1) or "", m.group(2)))
            pos = m.end()
            terms += 1
            if terms > MAX_TERMS:
                return None
        if alt:
            out.append(alt)
    return out or None


def _holds(op: str, have: Version, bound: Version) -> bool:
    if op in ("", "="):
        return have == bound
    if op == ">=":
        return have >= bound
    if op == "<=":
        return have <= bound
    if op == ">":
        return have > bound
    return have < bound


def satisfies(rng: Range, product: str, version: Version) -> bool:
    """True when the moniker ``product`` at ``version`` is in ``rng`` (a comparison with
    another product's moniker never holds for it)."""
    for alt in rng:
        ok = True
        for op, name in alt:
            prod, ver = split_moniker(name)
            if prod != product and _one_line(prod, product):
                # the newest of a line (azure-devops) and a numbered release of it (azure-devops-2022):
                # the releases lie below it, whatever their numbers
                below = ver is None  # the range names the newest; the moniker asked about is a release
                if op not in (("<", "<=") if below else (">", ">=")):
                    ok = False
                    break
                continue
            if ver is None and version in (TOP, BELOW_TOP):
                ver = TOP  # the newest of its line (only such a moniker is given TOP/BELOW_TOP)
            if prod != product or ver is None or not _holds(op, version, ver):
                ok = False
                break
        if ok:
            return True
    return False


def _one_line(a: str, b: str) -> bool:
    """True when one product is a numberless moniker and the other its numbered releases
    (``azure-devops`` and ``azure-devops-``, as :func:`split_moniker` splits them)."""
    return a != b and (a.rstrip("-_.") == b or b.rstrip("-_.") == a)


def _line_top(product: str, defaults: dict[str, Version]) -> str | None:
    """The numberless newest moniker whose numbered releases ``product`` names, when the
    default view is that newest one (``azure-devops-`` -> ``azure-devops``)."""
    top = product.rstrip("-_.")
    return top if top != product and defaults.get(top) == TOP else None


def numberless_bounds(range_text: str) -> tuple[set[str], set[str]]:
    """The monikers without a version number that ``range_text`` bounds from above (``< azure-devops``,
    ``<= azure-devops``) and from below (``> azure-devops``), lowercased."""
    above: set[str] = set()
    below: set[str] = set()
    for alt in parse_range(range_text) or []:
        for op, name in alt:
            prod, ver = split_moniker(name)
            if ver is None and op in ("<", "<="):
                above.add(prod)
            elif ver is None and op == ">":
                below.add(prod)
    return above, below


def implied_top(ranges: Iterable[str]) -> str | None:
    """The numberless moniker that a docset's ``ranges`` (every range its files write) put above a
    numbered line without writing ``< name``: a range ``<= newest`` (the highest version of the line
    any range names, ``<= vs-2022``) leaves out only monikers that lie above that version in the
    docset's list, and when the docset names exactly one moniker without a number (``visualstudio``,
    Visual Studio 2026's moniker, written as ``range="visualstudio"`` beside ``range="<= vs-2022"``),
    that one is it: the newest, the default view of every page. ``None`` when the docset names no
    such moniker or several (SQL docs: ``azuresqldb-current``, ``azure-sqldw-latest``, products of
    their own), when no line or more than one is capped at its newest, when a range bounds the
    moniker from below (``> name``), or when a range joins it by ``||`` to a lower bound of the
    capped line (``>= vs-2019 || name`` would not need the second term if it lay above)."""
    newest: dict[str, Version] = {}
    capped: dict[str, set[Version]] = {}  # product -> versions some range bounds it by from above (<=)
    numberless: set[str] = set()
    joined: set[tuple[str, str]] = set()  # (numberless moniker, product) one range joins by ||
    for text in ranges:
        rng = parse_range(text)
        if not rng:
            continue
        names: set[str] = set()
        lows: set[str] = set()
        for alt in rng:
            for op, name in alt:
                prod, ver = split_moniker(name)
                if ver is None:
                    if op == ">":
                        return None
                    numberless.add(prod)
                    names.add(prod)
                    continue
                newest[prod] = max(newest.get(prod, ver), ver)
                if op == "<=":
                    capped.setdefault(prod, set()).add(ver)
                elif op in (">", ">="):
                    lows.add(prod)
        if len(rng) > 1:
            joined |= {(n, p) for n in names for p in lows}
    if len(numberless) != 1:
        return None
    top = next(iter(numberless))
    lines = [p for p, versions in capped.items() if newest[p] in versions and not _one_line(p, top)]
    if len(lines) != 1 or (top, lines[0]) in joined:
        return None
    return top


def _products(rng: Range) -> set[str]:
    return {split_moniker(name)[0] for alt in rng for _, name in alt}


def default_view(ranges: Iterable[str], page_range: str | None = None) -> dict[str, Version]:
    """product -> the version a reader of the default view sees, for each product the
    ``ranges`` (every range of the page and its config) name in a known order. The
    newest named version (or :data:`ABOVE` when a range says ``> newest``) that lies in
    ``page_range`` (when it names the product)."""
    named: dict[str, set[Version]] = {}
    above: set[str] = set()
    unordered: set[str] = set()
    bounded_above: set[str] = set()  # numberless monikers some range puts others below
    bounded_below: set[str] = set()
    parsed = [r for r in (parse_range(t) for t in ranges) if r]
    for rng in parsed:
        for alt in rng:
            for op, name in alt:
                prod, ver = split_moniker(name)
                if ver is None:
                    unordered.add(prod)
                    if op in ("<", "<="):
                        bounded_above.add(prod)
                    elif op == ">":
                        bounded_below.add(prod)
                else:
                    named.setdefault(prod, set()).add(ver)
    for prod in bounded_above - bounded_below - set(named):
        unordered.discard(prod)
        named[prod] = {TOP, BELOW_TOP}
    newest = {prod: max(versions) for prod, versions in named.items()}  # once: many ranges name many versions
    for rng in parsed:
        for alt in rng:
            for op, name in alt:
                prod, ver = split_moniker(name)
                if op == ">" and ver is not None and ver == newest[prod]:
                    above.add(prod)
    page = parse_range(page_range) if page_range else None
    out: dict[str, Version] = {}
    for prod, versions in named.items():
        if prod in unordered or (any(v[0] >= 1000 for v in versions) and any(v[0] < 100 for v in versions)):
            continue  # years (or yymm builds) mixed with small version numbers: order unknown
        candidates = sorted(versions | ({ABOVE} if prod in above else set()), reverse=True)
        if page is not None and prod in _products(page):
            candidates = [v for v in candidates if satisfies(page, prod, v)] or candidates
        out[prod] = candidates[0]
    return out


def _top_satisfies(rng: Range, top: str) -> bool:
    """True when the numberless newest moniker ``top`` (the default view) is in ``rng``. A page
    shows one view, and Learn compares a range along the docset's whole list of monikers, in which
    ``top`` (``azure-devops``, that ``< azure-devops`` puts above the others) lies above every other
    one, another line's too (``tfs-2018``, the server's older name): ``>= tfs-2017`` holds for it,
    ``<= tfs-2018`` and ``tfs-2018`` do not."""
    for alt in rng:
        ok = True
        for op, name in alt:
            prod, _ver = split_moniker(name)
            if not (op in ("", "=", ">=", "<=") if prod == top else op in (">", ">=")):
                ok = False
                break
        if ok:
            return True
    return False


def holds_top(range_text: str, top: str) -> bool:
    """True when the range ``range_text`` holds the docset's numberless newest moniker ``top``
    (as :func:`zone_shown` reads a zone at that view: ``>= vs-2019`` and ``visualstudio`` hold
    ``visualstudio``, ``vs-2022`` and ``<= vs-2022`` do not); a range murar cannot read holds it."""
    rng = parse_range(range_text)
    return rng is None or _top_satisfies(rng, top)


def zone_shown(range_text: str, defaults: dict[str, Version]) -> bool:
    """True when a ``::: moniker range="range_text"`` zone shows in the default view
    (``defaults`` from :func:`default_view`); a range murar cannot order is shown."""
    rng = parse_range(range_text)
    if rng is None:
        return True
    products = _products(rng)
    if any(p not in defaults for p in products):
        return True
    tops = [p for p, v in defaults.items() if v == TOP]
    if len(tops) == 1:
        return _top_satisfies(rng, tops[0])
    # when the view is a line's numberless newest moniker, its numbered releases are not the view
    views = {(top, TOP) if (top := _line_top(p, defaults)) else (p, defaults[p]) for p in products}
    return any(satisfies(rng, p, v) for p, v in views)
