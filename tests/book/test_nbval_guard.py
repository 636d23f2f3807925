"""nbval really compares what the chapters state: a tampered stored output must fail.

Runs nbval in a subprocess on a copy of a notebook whose stored outputs were
altered in two places an exploration cell and a printed number live.
"""
import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "book" / "intro" / "how_to_use.ipynb"


def _nbval(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pytest", str(path), "--nbval", "--nbval-current-env",
         "--nbval-sanitize-with", str(ROOT / "tests" / "nbval_sanitize.cfg"),
         "-p", "no:cacheprovider", "-q"],
        cwd=path.parent, capture_output=True, text=True, timeout=600)


def test_tampered_outputs_fail_nbval(tmp_path):
    nb = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    html_cells = [c for c in nb["cells"] if c["cell_type"] == "code"
                  and any("text/html" in o.get("data", {}) for o in c["outputs"])]
    text_cells = [c for c in nb["cells"] if c["cell_type"] == "code"
                  and any(o.get("name") == "stdout" for o in c["outputs"])]
    assert html_cells and text_cells, "the notebook no longer has the outputs this test guards"
    for out in html_cells[0]["outputs"]:
        if "text/html" in out.get("data", {}):
            html = "".join(out["data"]["text/html"])
            out["data"]["text/html"] = html.replace("간격 h", "간격 H", 1)
    for out in text_cells[0]["outputs"]:
        if out.get("name") == "stdout":
            out["text"] = "".join(out["text"]).replace("장", "개", 1)
    shutil.copytree(ROOT / "book", tmp_path / "book")
    tampered = tmp_path / NOTEBOOK.relative_to(ROOT)
    tampered.write_text(json.dumps(nb, ensure_ascii=False), encoding="utf-8")
    result = _nbval(tampered)
    assert result.returncode != 0, result.stdout[-2000:]
    assert "2 failed" in result.stdout, result.stdout[-2000:]
