"""lib/README.md is executable: every ```python block runs, every `# → value` is checked.

A value is compared number by number, each to the precision it is written
with (``0.333`` means +-0.0005), so the page cannot drift from the library.
A round-off-level value is written as a bound, ``# → < bound``: the page
and the test then hold on every machine (BLAS and SVD paths differ in the
last bits).
"""

import ast
import re
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[2] / "lib" / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)
NUMBER = re.compile(r"(?<![A-Za-z_\d.])[-+]?(?:inf|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)")
ARROW = re.compile(r"#\s*→\s*(.*)$")


def _half_ulp_of_text(token: str) -> float:
    """Half a unit in the last written digit of ``token``."""
    m = re.match(r"[-+]?\d*\.?(\d*)(?:[eE]([-+]?\d+))?", token)
    return 0.5 * 10.0 ** (int(m.group(2) or 0) - len(m.group(1))) * 1.0001


def _matches(expected: str, got: str) -> bool:
    if expected.startswith("<"):  # a bound: every number in got is below it
        bound = float(expected[1:].strip())
        g = NUMBER.findall(got)
        return bool(g) and all(abs(float(x)) < bound for x in g)
    e, g = NUMBER.findall(expected), NUMBER.findall(got)
    if not e:  # text, e.g. a name or a message
        squash = lambda s: "".join(s.split()).strip("'\"")
        return squash(expected) == squash(got)
    return len(e) == len(g) and all(
        float(a) == float(b) if "inf" in a else abs(float(a) - float(b)) <= _half_ulp_of_text(a)
        for a, b in zip(e, g)
    )


def test_the_page_has_examples():
    assert len(BLOCKS) >= 10


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_block(index):
    src = BLOCKS[index]
    lines, body = src.splitlines(), ast.parse(src).body
    ns = {}
    exec("import numpy as np\nimport robonum as rn\n", ns)
    checked = 0
    for j, node in enumerate(body):
        arrow = ARROW.search(lines[node.end_lineno - 1])
        ends_line = j + 1 == len(body) or body[j + 1].lineno != node.end_lineno
        if arrow and isinstance(node, ast.Expr) and ends_line:
            got = repr(eval(compile(ast.Expression(node.value), "<api page>", "eval"), ns))
            assert _matches(arrow.group(1).strip(), got), (
                f"{ast.get_source_segment(src, node)}\n  page says: {arrow.group(1)}\n  code gives: {got}"
            )
            checked += 1
        else:
            exec(compile(ast.Module([node], []), "<api page>", "exec"), ns)
    assert checked > 0, "a block with no checked value documents nothing testable"
