"""The build's execution cache is dropped exactly when the library or the pins change."""

import importlib.util
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("build_book", ROOT / "tools" / "build_book.py")
build_book = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build_book)


def _copy(tmp_path):
    shutil.copytree(ROOT / "lib", tmp_path / "lib", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("requirements.txt", "_toc.yml", "_config.yml"):
        shutil.copy(ROOT / name, tmp_path / name)
    return tmp_path


def test_hash_is_stable_and_tracks_lib_and_pins(tmp_path):
    root = _copy(tmp_path)
    first = build_book.inputs_hash(root)
    assert build_book.inputs_hash(root) == first  # nothing changed: cache kept
    (root / "lib" / "robonum" / "README.md").write_text("docs only")
    assert build_book.inputs_hash(root) == first  # non-code file: cache kept
    stepper = root / "lib" / "robonum" / "steppers" / "explicit.py"
    stepper.write_text(stepper.read_text() + "\n# changed\n")
    second = build_book.inputs_hash(root)
    assert second != first  # library edit: re-execute
    (root / "requirements.txt").write_text("numpy==0.0\n")
    third = build_book.inputs_hash(root)
    assert third != second  # new pins: re-execute
    (root / "_toc.yml").write_text("format: jb-book\nroot: book/index\n")
    assert build_book.inputs_hash(root) != third  # a page left the book: rebuild html


def test_extension_and_config_reread_pages_without_re_executing(tmp_path):
    root = _copy(tmp_path)
    pages, outputs = build_book.inputs_hash(root), build_book.outputs_hash(root)
    ext = root / "lib" / "robonum_sphinx" / "__init__.py"
    ext.write_text(ext.read_text() + "\n# changed\n")
    assert build_book.outputs_hash(root) == outputs  # notebooks do not import it
    assert build_book.inputs_hash(root) != pages  # but every page is read again
    (root / "_config.yml").write_text("title: x\n")
    assert build_book.outputs_hash(root) == outputs
    lib = root / "lib" / "robonum" / "loop.py"
    lib.write_text(lib.read_text() + "\n# changed\n")
    assert build_book.outputs_hash(root) != outputs  # the library: re-execute


def test_blas_kernel_and_static_mode_re_execute(tmp_path, monkeypatch):
    """make test judges the build's run of the notebooks (tests/nbval_replay.py): a build under
    another OpenBLAS kernel (OPENBLAS_CORETYPE=Haswell) or thread count, or with NumPy's or numba's
    vector instructions limited, must run them again."""
    root = _copy(tmp_path)
    for name in build_book.OUTPUT_ENV:
        monkeypatch.delenv(name, raising=False)
    plain = build_book.outputs_hash(root)
    seen = {plain}
    for name, value in (
        ("OPENBLAS_CORETYPE", "Haswell"),
        ("OPENBLAS_NUM_THREADS", "1"),
        ("ROBONUM_STATIC", "1"),
        ("NPY_DISABLE_CPU_FEATURES", "X86_V4"),
        ("NUMBA_CPU_NAME", "generic"),
    ):
        monkeypatch.setenv(name, value)
        now = build_book.outputs_hash(root)
        assert now not in seen, name
        seen.add(now)
        monkeypatch.delenv(name)
    assert build_book.outputs_hash(root) == plain
