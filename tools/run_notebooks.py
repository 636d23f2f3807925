"""Re-execute the book's notebooks in place and store small, stable outputs.

nbval compares a fresh run against these stored outputs, so they must not
change between runs.  Before saving we drop what is large or unstable:
live widget views (random model ids) and the pre-rendered frames inside an
exploration's HTML (the build renders those afresh; they are never committed).

Usage: python tools/run_notebooks.py [NOTEBOOK ...]   (default: book/**/*.ipynb)
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
DATA_URI = re.compile(r"data:image/png;base64,[A-Za-z0-9+/=]*")


def strip_output(output: dict) -> None:
    data = output.get("data")
    if not data:
        return
    data.pop(WIDGET_VIEW, None)
    if "text/html" in data:
        html = "".join(data["text/html"]) if isinstance(data["text/html"], list) else data["text/html"]
        data["text/html"] = DATA_URI.sub("data:image/png;base64,", html)


def run(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=600, kernel_name="python3", record_timing=False,
                            store_widget_state=False, resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    for cell in nb.cells:
        if cell.cell_type == "code":
            for output in cell.outputs:
                strip_output(output)
    nb.metadata.pop("widgets", None)
    nbformat.write(nb, path)
    print(f"executed and saved {path.relative_to(ROOT)}")


def main(argv: list[str]) -> int:
    paths = [Path(a).resolve() for a in argv] or sorted((ROOT / "book").rglob("*.ipynb"))
    for path in paths:
        if ".ipynb_checkpoints" not in path.parts:
            run(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
