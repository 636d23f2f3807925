"""Re-execute the book's notebooks in place and store small, stable outputs.

nbval compares a fresh run against these stored outputs, so they must not
change between runs.  Before saving we drop what is large or unstable:
live widget views (random model ids) and the pre-rendered frames inside an
exploration's HTML (the build renders those afresh; they are never committed).

The kernels run with ROBONUM_STATIC=messages: each exploration's text/html
has its full markup and every frame's message (what nbval compares), but
its frames are not drawn at all (they would be stripped anyway); measured:
the book's three notebooks ran in 39 s instead of 81 s.

Usage: python tools/run_notebooks.py [NOTEBOOK ...]   (default: book/**/*.ipynb)
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
DATA_URI = re.compile(r"data:(image/(?:png|webp));base64,[A-Za-z0-9+/=]*")
# The build's record of each frame's drawing check: only a run that draws every frame has it.
FIGCHECK = re.compile(r' data-rn-figcheck="[^"]*"')
# Read by robonum.explore in the kernel (which inherits our environment).
STATIC_ENV = {"ROBONUM_STATIC": "messages"}


def strip_output(output: dict) -> None:
    data = output.get("data")
    if not data:
        return
    data.pop(WIDGET_VIEW, None)
    if "text/html" in data:
        html = (
            "".join(data["text/html"]) if isinstance(data["text/html"], list) else data["text/html"]
        )
        data["text/html"] = FIGCHECK.sub("", DATA_URI.sub(r"data:\1;base64,", html))


def run(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        timeout=600,
        kernel_name="python3",
        record_timing=False,
        store_widget_state=False,
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()
    for cell in nb.cells:
        if cell.cell_type == "code":
            for output in cell.outputs:
                strip_output(output)
    nb.metadata.pop("widgets", None)
    nbformat.write(nb, path)
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    print(f"executed and saved {shown}")


def main(argv: list[str]) -> int:
    os.environ.update(STATIC_ENV)
    paths = [Path(a).resolve() for a in argv] or sorted((ROOT / "book").rglob("*.ipynb"))
    for path in paths:
        if ".ipynb_checkpoints" not in path.parts:
            run(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
