"""Asset references: resolving an image/video link through the Site, and counting them.

Every converter resolves the image and video links it finds with
:func:`resolve_reference`, which asks the :class:`~murar.ingest.sites.base.Site`
where the link points and records the outcome as an
:class:`~murar.schema.AssetRef` (issue 8, "never silent": every reference is
resolved, missing with the path tried, remote, unsupported syntax, or outside
the root). A web URL of a file of a GitHub or GitLab repository whose copy is
in the corpus (``https://raw.githubusercontent.com/OWNER/REPO/main/docs/img/a.png``,
which a README shared with the docs writes so that PyPI and GitHub show its
pictures) resolves to that local copy (:func:`repository_copy`).
:func:`asset_stats` turns the references of a corpus into the
resolution rate printed by ``murar ingest``: resolved references divided by the
references whose target exists in the corpus (a local reference to a file that
is nowhere in the corpus is broken upstream, not a resolution failure).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

from murar.ingest.paths import (
    MAX_LINK_CHARS,
    MAX_LINK_DEPTH,
    inside_root,
    is_remote,
    is_web_url,
    link_path_problem,
)
from murar.ingest.sites.base import Site
from murar.schema import AssetRef

# template / JSX / Liquid syntax left in a link: the generator evaluates it, murar could not
_UNEVALUATED = re.compile(r"[{}]|\$\(|<%|\)\s*$|^\w+\(")
_FILE_NAME = re.compile(r"[\w.@%+-]+\.[A-Za-z0-9]{2,5}")


def resolve_reference(site: Site, link: str, *, page_rel: str, kind: str = "image",
                      written_in: str | None = None) -> AssetRef:
    """Resolve ``link`` (as written in ``page_rel``) through ``site`` and say what became of it.

    ``written_in`` is the file the link is written in when it differs from the
    page it resolves against (an include inlined into a page resolves against
    the include's own folder: pass the include as ``page_rel`` and the page as
    ``written_in`` only if the generator resolves against the page). Never
    raises; never returns a path outside the site root.
    """
    raw = link.strip()
    source = written_in or page_rel
    if not raw:
        return AssetRef(source_path=source, link=link, kind=kind, status="unsupported", reason="empty link")
    if raw.lower().startswith("data:"):
        return AssetRef(source_path=source, link=_short(raw), kind=kind, status="inline",
                        reason="inline data URI, not stored")
    # the limits of murar.ingest.paths hold for every site: checked here, once, before any Site code
    if not is_remote(raw):
        too_long = link_path_problem(_link_path(raw))
        if too_long:
            return AssetRef(source_path=source, link=_short(raw), kind=kind, status="unsupported", reason=too_long)
    try:
        res = site.resolve_asset(raw, page_rel=page_rel)
        if res.rel_path is not None and res.url is None:
            # a site's candidate it found no file for (its lookup refuses a symlink out of the root)
            # is never read through such a symlink here either
            inside = inside_root(site.config.root / res.rel_path, site.config.root)
            if inside.problem and "escapes" in inside.problem:
                return AssetRef(source_path=source, link=raw, kind=kind, status="escapes_root", reason=inside.problem)
        found = res.rel_path is not None and (site.config.root / res.rel_path).is_file()
    except (OSError, ValueError) as err:  # a hostile name the file system refuses
        return AssetRef(source_path=source, link=_short(raw), kind=kind, status="unsupported",
                        reason=f"cannot resolve ({type(err).__name__})")
    if res.url is not None:
        local = repository_copy(res.url, site.config.root) if is_web_url(res.url) else None
        if local is not None:
            return AssetRef(source_path=source, link=raw, kind=kind, status="resolved", path=local,
                            reason="repository file URL: the copy in the corpus")
        if not is_web_url(res.url):
            scheme = res.url.split(":", 1)[0].lower()
            return AssetRef(source_path=source, link=_short(raw), kind=kind, status="unsupported",
                            reason=f"unsupported URL scheme {scheme!r}: not read, not kept")
        return AssetRef(source_path=source, link=raw, kind=kind, status="remote", reason="remote URL, not fetched")
    if res.rel_path is not None:
        if found:
            return AssetRef(source_path=source, link=raw, kind=kind, status="resolved", path=res.rel_path)
        if _UNEVALUATED.search(raw):
            return AssetRef(source_path=source, link=raw, kind=kind, status="unsupported", path=res.rel_path,
                            reason=f"unsupported syntax (not evaluated); tried {res.rel_path}")
        return AssetRef(source_path=source, link=raw, kind=kind, status="missing", path=res.rel_path,
                        reason=res.problem if res.problem and "not found" in res.problem
                        else f"file not found: {res.rel_path}")
    problem = res.problem or "not resolved"
    if "escapes" in problem or "outside" in problem:
        return AssetRef(source_path=source, link=raw, kind=kind, status="escapes_root", reason=problem)
    if "data uri" in problem.lower():
        return AssetRef(source_path=source, link=_short(raw), kind=kind, status="inline", reason=problem)
    return AssetRef(source_path=source, link=raw, kind=kind, status="unsupported", reason=problem)


# where a repository's file path starts in a raw-file URL: after OWNER/REPO/REF on
# raw.githubusercontent.com, after OWNER/REPO/raw|blob/REF on github.com, after
# GROUP.../REPO/-/raw|blob/REF on GitLab; REF may be refs/heads/NAME or refs/tags/NAME
_GITHUB_RAW_HOST = "raw.githubusercontent.com"
_GITHUB_HOSTS = frozenset({"github.com", "www.github.com"})
_GITLAB_MARK = ("-", "raw"), ("-", "blob")


def repository_copy(url: str, root: Path) -> str | None:
    """The file under ``root`` (posix, relative to it) that the repository-file
    ``url`` points at, or ``None``.

    ``url``: a raw or blob URL of a file in a GitHub repository
    (``raw.githubusercontent.com/OWNER/REPO/REF/PATH``,
    ``github.com/OWNER/REPO/raw/REF/PATH``, ``github.com/OWNER/REPO/blob/REF/PATH?raw=true``)
    or a GitLab one (``gitlab.example.org/GROUP/REPO/-/raw/REF/PATH``). The copy is the
    longest tail of the URL's path after OWNER/REPO that names a file under ``root``:
    ``docs/img/a.png`` when the corpus is the repository, ``img/a.png`` when it is
    its ``docs`` folder, whatever REF is (a branch name may hold a slash). Python
    projects write their README's pictures this way so that PyPI shows them, and
    include that README in their docs. The owner and repository are not checked:
    a file of the same path in the corpus is taken as the same picture.
    ``root`` must be resolved. Never raises; never returns a path outside ``root``.
    """
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    host = (parts.hostname or "").lower()
    segments = [unquote(s) for s in parts.path.split("/") if s]
    if host == _GITHUB_RAW_HOST:
        tail = segments[3:]  # OWNER/REPO/REF (or refs/heads/NAME: its tails are tried too)
    elif host in _GITHUB_HOSTS and len(segments) > 3 and segments[2] in ("raw", "blob"):
        tail = segments[4:]
    else:
        marks = [i for i in range(len(segments) - 1) if (segments[i], segments[i + 1]) in _GITLAB_MARK]
        if not marks or "gitlab" not in host:
            return None
        tail = segments[marks[0] + 3:]
    if not tail or any(s in (".", "..") or "\\" in s or "\x00" in s for s in tail):
        return None
    # the longest tail link_path_problem can pass starts where the last MAX_LINK_DEPTH
    # segments, MAX_LINK_CHARS characters, begin: a longer one is refused before any
    # look-up, and joining and checking each of 20,000 tails was 2 s for one URL
    first, chars = len(tail), -1
    while first > 0 and len(tail) - first < MAX_LINK_DEPTH and chars + 1 + len(tail[first - 1]) <= MAX_LINK_CHARS:
        first -= 1
        chars += 1 + len(tail[first])
    for start in range(first, len(tail)):
        rel = "/".join(tail[start:])
        if link_path_problem(rel):
            continue
        found = inside_root(root / rel, root)
        if found.rel_path is not None and (root / found.rel_path).is_file():
            return found.rel_path
    return None


def _link_path(link: str) -> str:
    try:
        return unquote(urlsplit(link).path)
    except ValueError:
        return link


def _short(link: str) -> str:
    return link if len(link) <= 60 else link[:57] + "..."


@dataclass(slots=True, kw_only=True)
class AssetStats:
    """Counts over the asset references of a corpus.

    ``by_status`` counts references per :data:`~murar.schema.AssetStatus`;
    ``missing_in_corpus`` counts ``missing`` references whose file name exists
    somewhere in the corpus (a resolution failure), ``missing_absent`` the others
    (broken upstream). ``resolvable`` = resolved + missing_in_corpus + unsupported
    whose file name exists (or cannot be told), the denominator of
    :attr:`resolution_rate`.
    """

    references: int = 0
    by_status: dict[str, int] = field(default_factory=dict)
    missing_in_corpus: int = 0
    missing_absent: int = 0
    unsupported_resolvable: int = 0

    @property
    def resolved(self) -> int:
        return self.by_status.get("resolved", 0)

    @property
    def resolvable(self) -> int:
        return self.resolved + self.missing_in_corpus + self.unsupported_resolvable

    @property
    def resolution_rate(self) -> float | None:
        """resolved / resolvable in [0, 1]; ``None`` when no reference targets a corpus file."""
        return self.resolved / self.resolvable if self.resolvable else None


def asset_stats(refs: Iterable[AssetRef], corpus_file_names: set[str]) -> AssetStats:
    """Count ``refs``; ``corpus_file_names`` holds the lower-cased names of every
    file under the root (to tell a resolution failure from a file that is absent)."""
    stats = AssetStats()
    counts: Counter[str] = Counter()
    for ref in refs:
        stats.references += 1
        counts[ref.status] += 1
        if ref.status == "missing":
            name = PurePosixPath(ref.path or ref.link).name.lower()
            if name in corpus_file_names:
                stats.missing_in_corpus += 1
            else:
                stats.missing_absent += 1
        elif ref.status == "unsupported":
            names = [n.lower() for n in _FILE_NAME.findall(ref.link)]
            if not names or any(n in corpus_file_names for n in names):
                stats.unsupported_resolvable += 1
    stats.by_status = dict(sorted(counts.items()))
    return stats


def is_unresolved(ref: AssetRef) -> bool:
    """True for a reference that is not a resolved local file and not a remote URL."""
    return ref.status not in ("resolved", "remote")
