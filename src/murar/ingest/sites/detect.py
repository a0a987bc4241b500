"""Which documentation generator built a folder, from its configuration file.

:data:`GENERATORS` is the registry: one :class:`GeneratorSpec` line per
generator, naming the config files that mark it (at the corpus root, in a
folder above it, or in a subfolder a few levels down) and the ``module:callable``
that builds its :class:`~murar.ingest.sites.base.Site`. The callable receives
``(root, config_file)``: ``root`` is the ingest root (every path murar records
is relative to it) and ``config_file`` the marker found, posix and relative to
``root`` (``None`` when ``--site-type`` forces a generator whose config is
absent). A generator whose rules are not written yet has ``factory=None``:
detection still names it and murar falls back to :class:`PlainSite` with a
warning.

Detection order (first match wins): the given folder, then its ancestors up to
the repository root (the first folder holding ``.git``) or :data:`MAX_UP`
levels, then its subfolders breadth-first down to :data:`MAX_DOWN` levels.
Within one folder the registry order decides (specific markers before generic
ones such as Sphinx ``conf.py`` or Hugo ``config.toml``). A folder whose Sphinx
Makefile or make.bat builds ``SOURCEDIR = src`` is marked by ``src/conf.py``, so a
sibling ``api/conf.py`` that sorts first is not taken for the project.

Generator documentation the markers come from: Docusaurus "Configuration",
MkDocs "Configuration" (``mkdocs.yml``, or a ``mkdocs*.yml`` given with ``-f``
when there is none), Sphinx "Configuration" (conf.py), Jekyll
"Configuration" (``_config.yml``/``.yaml``/``.toml``, or files given with
``--config``: ``_config_base.yml``, confirmed by Jekyll's folders), Jupyter Book "Configuration" (``_config.yml``
+ ``_toc.yml``; Jupyter Book 2 / MyST ``myst.yml``), Hugo "Configure Hugo"
(``hugo.toml``, ``config.toml``, ``config/_default/``), DocFX "docfx.json",
Antora "Component version descriptor" (``antora.yml``) and playbook, mdBook
``book.toml``, VitePress ``.vitepress/config.*``, Quarto ``_quarto.yml``,
Mintlify ``mint.json``/``docs.json``.
"""

from __future__ import annotations

import importlib
import json
import logging
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from murar.errors import ConfigError
from murar.ingest.sites.base import PlainSite, Site, SiteVariant

log = logging.getLogger(__name__)

MAX_UP = 4
MAX_DOWN = 3
_SKIP_DIRS = {"node_modules", "_build", "build", "site", "public", "dist", "_site", "__pycache__", "venv"}

SiteFactory = Callable[[Path, "str | None"], Site]


def _yaml_keys(path: Path) -> set[str]:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")[:200_000]
    except OSError:
        return set()
    return set(re.findall(r"(?m)^([A-Za-z_][\w-]*)\s*:", text))


def _is_jupyter_book(path: Path) -> bool:
    """A ``_config.yml`` of Jupyter Book (a ``_toc.yml`` beside it, or book-only keys)."""
    if (path.parent / "_toc.yml").is_file() or (path.parent / "_toc.yaml").is_file():
        return True
    return bool(_yaml_keys(path) & {"execute", "sphinx", "launch_buttons", "only_build_toc_files", "parse", "bibtex_bibfiles"})


def _via(target: str) -> Callable[[Path], bool]:
    """A confirm/probe function that lives in a generator module, imported on first use."""

    def call(path: Path) -> bool:
        module_name, _, attr = target.partition(":")
        try:
            fn = getattr(importlib.import_module(module_name), attr)
        except (ImportError, AttributeError):
            return False
        return bool(fn(path))

    return call


def _is_jekyll(path: Path) -> bool:
    return _via("murar.ingest.sites.jekyll:looks_like_jekyll")(path)


def _is_hugo_marker(path: Path) -> bool:
    folder = path.parent.parent if path.name == "_default" else path.parent
    return _via("murar.ingest.sites.hugo:is_hugo_root")(folder)


def _is_built_site(folder: Path) -> bool:
    module = importlib.import_module("murar.ingest.sites.built")
    return module.built_generator(folder) is not None


def _is_sphinx_conf(path: Path) -> bool:
    """A Python ``conf.py`` that sets Sphinx options (not any file of that name)."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")[:200_000]
    except OSError:
        return False
    return bool(re.search(r"(?m)^\s*(extensions|master_doc|root_doc|html_theme|project|source_suffix)\s*=", text))


# sphinx-quickstart's Makefile (``SOURCEDIR     = source``) and make.bat (``set SOURCEDIR=source``)
_MAKE_SOURCEDIR = re.compile(r"(?mi)^[ \t]*(?:SOURCEDIR[ \t]*[:?]?=|set[ \t]+SOURCEDIR=)[ \t]*([\w./-]{1,200})[ \t]*$")


def _sphinx_make_source(folder: Path) -> list[str]:
    """The ``conf.py`` of the source directory that ``folder``'s Makefile or make.bat
    builds (``SOURCEDIR``, as sphinx-quickstart writes them: sphinx/templates/quickstart/
    Makefile.new_t and make.bat.new_t), relative to ``folder``: a Sphinx project whose
    folder holds several sources (``doc/api``, ``doc/src``) is the one its build
    builds; ``[]`` when neither names one inside ``folder``."""
    found: list[str] = []
    for name in ("Makefile", "make.bat"):
        try:
            text = (folder / name).read_text(encoding="utf-8", errors="replace")[:100_000]
        except OSError:
            continue
        for src in _MAKE_SOURCEDIR.findall(text):
            rel = Path(src.strip("/")) / "conf.py"
            if ".." not in rel.parts and rel.as_posix() != "conf.py" and rel.as_posix() not in found:
                found.append(rel.as_posix())
    return found


def _is_mintlify(path: Path) -> bool:
    try:
        data = json.loads(path.read_text(encoding="utf-8", errors="replace"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and ("navigation" in data or "mintlify" in str(data.get("$schema", "")))


@dataclass(frozen=True, slots=True, kw_only=True)
class GeneratorSpec:
    """One generator in the registry.

    ``name`` is what ``--site-type`` takes; ``markers`` are paths relative to a
    candidate folder (a trailing ``/`` means a folder); ``confirm`` rejects a
    marker that is not really this generator's (``conf.py``, ``_config.yml``);
    ``factory`` is ``"module:attr[.attr]"`` of a callable ``(root, config_file) -> Site``
    (``None``: no rules yet, :class:`PlainSite` is used); ``probe`` recognises
    the given folder itself when the generator has no config file (a built HTML
    site); it is tried before any marker. ``content_probe`` recognises the given
    folder as the generator's content when no generator's config is found in, above
    or below it (content whose site is built elsewhere). ``aliases`` are other names
    ``--site-type`` accepts. ``variants`` names what of a :class:`SiteVariant`
    the generator can choose (``"language"``, ``"docs_version"``); its factory
    then takes a ``variant`` keyword (only when one is asked for).
    ``subfolder_config``: the factory reads a config found in a subfolder of the
    ingest root (its paths prefixed); ``False`` when it reads a project at its root
    only (Hugo builds the folder of its config, ``hugo --source <dir>``): such a
    config found below the given folder makes its folder the ingest root.
    ``build_markers``: more markers a candidate folder's own build files name, tried
    after ``markers`` (Sphinx: the source directory its Makefile builds), so that of
    several configs below a folder the one its build uses is found first.
    """

    name: str
    title: str
    markers: tuple[str, ...] = ()
    factory: str | None = None
    confirm: Callable[[Path], bool] | None = None
    probe: Callable[[Path], bool] | None = None
    content_probe: Callable[[Path], bool] | None = None
    aliases: tuple[str, ...] = ()
    variants: tuple[str, ...] = ()
    subfolder_config: bool = True
    build_markers: Callable[[Path], list[str]] | None = None


# Registration: one line per generator. Order matters within a folder (specific first).
GENERATORS: tuple[GeneratorSpec, ...] = (
    GeneratorSpec(name="html", title="built HTML site", probe=_is_built_site, factory="murar.ingest.sites.built:load", aliases=("built",)),
    GeneratorSpec(name="docusaurus", title="Docusaurus", markers=tuple(f"docusaurus.config.{e}" for e in ("js", "ts", "mjs", "cjs", "mts")), factory="murar.ingest.sites.docusaurus:DocusaurusSite.load", variants=("language", "docs_version")),
    GeneratorSpec(name="mkdocs", title="MkDocs", markers=("zensical.toml", "properdocs.yml", "properdocs.yaml", "mkdocs.yml", "mkdocs.yaml", "mkdocs*.yml", "mkdocs*.yaml"), confirm=_via("murar.ingest.sites.mkdocs:looks_like_mkdocs_config"), factory="murar.ingest.sites.mkdocs:load", aliases=("zensical", "properdocs"), variants=("language",)),
    GeneratorSpec(name="vitepress", title="VitePress", markers=tuple(f".vitepress/config.{e}" for e in ("js", "ts", "mjs", "mts", "cjs"))),
    GeneratorSpec(name="quarto", title="Quarto", markers=("_quarto.yml", "_quarto.yaml")),
    GeneratorSpec(name="mintlify", title="Mintlify", markers=("mint.json", "docs.json"), confirm=_is_mintlify),
    GeneratorSpec(name="docfx", title="DocFX", markers=("docfx.json", ".openpublishing.publish.config.json"), factory="murar.ingest.sites.docfx:load"),
    GeneratorSpec(name="antora", title="Antora", markers=("antora-playbook.yml", "antora.yml"), factory="murar.ingest.sites.antora:AntoraSite.load", variants=("docs_version",)),
    GeneratorSpec(name="mdbook", title="mdBook", markers=("book.toml",)),
    GeneratorSpec(name="jupyterbook", title="Jupyter Book", markers=("myst.yml", "_config.yml", "_config.yaml"), confirm=lambda p: p.name == "myst.yml" or _is_jupyter_book(p), factory="murar.ingest.sites.jupyterbook:JupyterBookSite.load"),
    GeneratorSpec(name="jekyll", title="Jekyll", markers=("_config.yml", "_config.yaml", "_config.toml", "_config*.yml", "_config*.yaml", "_config*.toml"), confirm=_is_jekyll, factory="murar.ingest.sites.jekyll:load"),
    GeneratorSpec(name="hugo", title="Hugo", markers=("hugo.toml", "hugo.yaml", "hugo.yml", "hugo.json", "config/_default/", "config.toml", "config.yaml", "config.yml", "config.json"), confirm=_is_hugo_marker, content_probe=_via("murar.ingest.sites.hugo:looks_like_hugo_content"), factory="murar.ingest.sites.hugo:load", variants=("language",), subfolder_config=False),
    GeneratorSpec(name="sphinx", title="Sphinx", markers=("conf.py", "source/conf.py", "docs/conf.py"), confirm=_is_sphinx_conf, factory="murar.ingest.sites.sphinx:SphinxSite.load", build_markers=_sphinx_make_source),
)


def site_types() -> list[str]:
    """Names accepted by ``--site-type`` (``auto`` and ``plain`` included)."""
    return ["auto", "plain", *(g.name for g in GENERATORS)]


def spec_for(name: str) -> GeneratorSpec:
    """The registry entry named ``name``.

    Raises:
        ConfigError: unknown generator (the message lists the known ones).
    """
    for spec in GENERATORS:
        if spec.name == name or name in spec.aliases:
            return spec
    raise ConfigError(f"unknown site type {name!r}; known: {', '.join(site_types())}")


@dataclass(frozen=True, slots=True, kw_only=True)
class Detection:
    """A generator found for a folder: its spec and the config ``path`` found."""

    spec: GeneratorSpec
    path: Path


def _marker_paths(folder: Path, marker: str) -> list[Path]:
    """The files (a trailing ``/``: folders) in ``folder`` a marker names; a ``*`` in
    the marker matches within one name (``_config*.yml``), sorted, at most 50."""
    if "*" in marker:
        try:
            return sorted(p for p in folder.glob(marker) if p.is_file())[:50]
        except OSError:
            return []
    cand = folder / marker.rstrip("/")
    return [cand] if (cand.is_dir() if marker.endswith("/") else cand.is_file()) else []


def _markers_in(folder: Path) -> Iterator[Detection]:
    for spec in GENERATORS:
        markers = spec.markers if spec.build_markers is None else (*spec.markers, *spec.build_markers(folder))
        for marker in markers:
            for cand in _marker_paths(folder, marker):
                try:
                    if spec.confirm is not None and not spec.confirm(cand):
                        continue
                except OSError:
                    continue
                yield Detection(spec=spec, path=cand)


def _ancestors(folder: Path) -> Iterator[Path]:
    cur = folder
    for _ in range(MAX_UP):
        if (cur / ".git").exists() or cur.parent == cur:
            return
        cur = cur.parent
        yield cur


def _descendants(folder: Path) -> Iterator[Path]:
    level = [folder]
    for _ in range(MAX_DOWN):
        nxt: list[Path] = []
        for d in level:
            try:
                subs = sorted(p for p in d.iterdir() if p.is_dir() and not p.name.startswith(".")
                              and p.name not in _SKIP_DIRS)
            except OSError:
                continue
            nxt.extend(subs)
        yield from nxt
        level = nxt


def detect(folder: Path) -> Detection | None:
    """The generator whose config marks ``folder`` (see the module doc for the order), or ``None``.

    A generator with a ``probe`` (a built HTML site) is recognised from ``folder``
    itself first; its ``path`` is then ``folder``. When no config is found, a
    generator's ``content_probe`` may still recognise ``folder`` as its content
    (Hugo pages using shortcodes); ``path`` is then ``folder`` too.
    """
    folder = folder.resolve()
    for spec in GENERATORS:
        try:
            if spec.probe is not None and spec.probe(folder):
                return Detection(spec=spec, path=folder)
        except (OSError, ImportError):
            continue
    for candidate in (folder, *_ancestors(folder)):
        found = next(_markers_in(candidate), None)
        if found is not None:
            return found
    for candidate in _descendants(folder):
        found = next(_markers_in(candidate), None)
        if found is not None:
            return found
    for spec in GENERATORS:
        try:
            if spec.content_probe is not None and spec.content_probe(folder):
                return Detection(spec=spec, path=folder)
        except (OSError, ImportError):
            continue
    return None


def _load_factory(spec: GeneratorSpec) -> SiteFactory | None:
    if spec.factory is None:
        return None
    module_name, _, attr = spec.factory.partition(":")
    try:
        obj: object = importlib.import_module(module_name)
    except ImportError as err:
        log.warning("site rules for %s unavailable (%s); using plain rules", spec.name, err)
        return None
    for part in attr.split("."):
        obj = getattr(obj, part)
    if not callable(obj):
        raise ConfigError(f"site factory {spec.factory} is not callable")
    return obj


@dataclass(frozen=True, slots=True, kw_only=True)
class SiteSelection:
    """What :func:`open_site` chose: the ``site``, the folder to ``walk`` (the
    given folder, which is below ``site.config.root`` when the config sits
    above it; the root itself when a language or docs version was chosen) and
    ``notes`` for the ingest summary (fallbacks, forced type, options that do
    not apply)."""

    site: Site
    walk: Path
    notes: tuple[str, ...] = ()


def open_site(folder: Path, *, site_type: str = "auto", variant: SiteVariant | None = None) -> SiteSelection:
    """Detect (or force with ``site_type``) the generator of ``folder`` and build its Site.

    The ingest root is the folder holding the config when that is ``folder`` or
    one of its ancestors (so root-relative links and static dirs resolve), else
    ``folder`` itself (a config in a subfolder: its paths are prefixed), or for a
    generator that builds only the folder of its config (Hugo) that subfolder,
    which is then the folder walked.

    ``variant`` chooses the language and docs version of a multilingual or
    versioned site (``None``: the generator's default); a choice the generator
    has no notion of (a Sphinx site's version, a plain folder's language) is
    not applied and says so in ``notes``.

    Raises:
        ConfigError: ``site_type`` is unknown, the generator's config cannot be
            read, or the site has no such language or docs version (the message
            lists the ones it has).
    """
    folder = folder.resolve()
    if site_type == "plain":
        return SiteSelection(site=PlainSite(folder), walk=folder, notes=(
            "site type forced: plain", *_not_applicable(variant, (), "a plain folder (no generator)")))
    notes: list[str] = []
    config_path: Path | None
    if site_type == "auto":
        found = detect(folder)
        if found is None:
            return SiteSelection(site=PlainSite(folder), walk=folder,
                                 notes=_not_applicable(variant, (), "a plain folder (no generator)"))
        spec, config_path = found.spec, found.path
    else:
        spec = spec_for(site_type)
        notes.append(f"site type forced: {spec.name}")
        found = detect(folder)
        config_path = found.path if found is not None and found.spec.name == spec.name else None
        if found is not None and found.spec.name != spec.name:
            # a forced type still uses its own marker when one is present
            for cand in (folder, *_ancestors(folder), *_descendants(folder)):
                hit = next((d for d in _markers_in(cand) if d.spec.name == spec.name), None)
                if hit is not None:
                    config_path = hit.path
                    break
    root = folder
    if config_path is not None:
        # a marker in a subfolder (config/_default/, source/conf.py) describes the folder above it
        cdir = config_path if config_path == folder and (spec.probe is not None or spec.content_probe is not None) \
            else _marker_root(config_path, spec)
        if cdir == folder or cdir in folder.parents:
            root = cdir
        elif not spec.subfolder_config and folder in cdir.parents:
            root = folder = cdir
            notes.append(f"{spec.title} project found in {cdir}: that folder is read (the site {spec.title} builds)")
    config_rel = (os.path.relpath(config_path, root).replace(os.sep, "/")
                  if config_path is not None and config_path != root else None)
    factory = _load_factory(spec)
    if factory is None:
        notes.append(f"no resolution rules for {spec.title} yet; plain rules used")
        notes.extend(_not_applicable(variant, (), f"{spec.title} (plain rules)"))
        return SiteSelection(site=PlainSite(root, generator=spec.name, config_file=config_rel), walk=folder,
                             notes=tuple(notes))
    notes.extend(_not_applicable(variant, spec.variants, spec.title))
    chosen = _supported(variant, spec.variants)
    site = factory(root, config_rel) if chosen is None else factory(root, config_rel, variant=chosen)  # type: ignore[call-arg]
    walk = folder
    if chosen is not None and folder != root:
        # another language or version lives beside the folder given (i18n/, versioned_docs/, content/fr)
        walk = root
        notes.append(f"the whole site at {root} is walked, not only {folder}: the chosen language or "
                     "docs version has its files elsewhere in the site")
    return SiteSelection(site=site, walk=walk, notes=(*notes, *site.config.notes))


_VARIANT_NOUNS = {"language": "languages", "docs_version": "docs versions"}


def _not_applicable(variant: SiteVariant | None, supported: tuple[str, ...], what: str) -> tuple[str, ...]:
    """Notes for the parts of ``variant`` a generator cannot choose (it has no such notion)."""
    if variant is None:
        return ()
    out = []
    for key, noun in _VARIANT_NOUNS.items():
        value = getattr(variant, key)
        if value is not None and key not in supported:
            out.append(f"{key.replace('_', ' ')} {value!r} not applicable: {what} has no {noun} to choose "
                       "from; the site is read as it is")
    return tuple(out)


def _supported(variant: SiteVariant | None, supported: tuple[str, ...]) -> SiteVariant | None:
    """The part of ``variant`` a generator can choose, ``None`` when nothing is asked of it."""
    if variant is None:
        return None
    kept = {key: getattr(variant, key) if key in supported else None for key in _VARIANT_NOUNS}
    return SiteVariant(**kept) if any(v is not None for v in kept.values()) else None


def _marker_root(config_path: Path, spec: GeneratorSpec) -> Path:
    """The folder a marker describes (``config/_default/`` and ``source/conf.py``
    describe the folder above them)."""
    for marker in spec.markers:
        parts = marker.rstrip("/").split("/")
        if len(parts) > 1 and config_path.as_posix().endswith(marker.rstrip("/")):
            base = config_path
            for _ in parts:
                base = base.parent
            return base
    return config_path.parent


def site_summary(selection: SiteSelection) -> dict[str, object]:
    """The generator and the settings that change resolution, for the ingest summary
    and ``manifest.json`` (JSON-ready: strings, lists and a flat dict)."""
    cfg = selection.site.config
    out: dict[str, object] = {"generator": cfg.generator, "config_file": cfg.config_file, "root": str(cfg.root)}
    if selection.walk != cfg.root:
        out["walked"] = str(selection.walk)
    if cfg.content_dirs != (".",):
        out["content_dirs"] = list(cfg.content_dirs)
    for key in ("static_dirs", "include_dirs", "exclude"):
        value = getattr(cfg, key)
        if value:
            out[key] = list(value)
    if cfg.base_url != "/":
        out["base_url"] = cfg.base_url
    if cfg.language:
        out["language"] = cfg.language
    if cfg.docs_version:
        out["docs_version"] = cfg.docs_version
    if cfg.settings:
        out["settings"] = dict(cfg.settings)
    if selection.notes:
        out["notes"] = list(selection.notes)
    return out
