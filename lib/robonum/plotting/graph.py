"""A computational graph drawn from a recorded tape (:func:`robonum.autodiff.graph.trace`).

Nodes are primitives, placed in columns by their depth (longest path from an
input) and, inside a column, near the mean height of their parents.  Each
node shows its symbol (or a given name) and its value; an edge can carry a
number -- the tangent that flows forward along it, ``(∂v/∂p) ṗ``, or the
adjoint that flows back, ``v̄ ∂v/∂p`` (``Graph.tangent_flows`` /
``Graph.adjoint_flows``).  Labels are plain text; the book adds titles.

Reference: Griewank & Walther, *Evaluating Derivatives* (2nd ed., SIAM 2008),
sec. 2.2 (the computational graph of an evaluation procedure).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _validate as check
from ..autodiff.graph import Graph
from .regions import _axes

MAX_DRAWN = 60  # nodes; a bigger picture is unreadable (and slow to lay out)
_ACTIVE, _DONE, _PLAIN = "#c0392b", "#fbe3d6", "#eef2f7"


@dataclass
class GraphPlot:
    """What :func:`plot_graph` drew: the axes, node centres and the edge labels (texts)."""

    ax: object
    positions: dict
    edge_labels: dict


def layout(graph: Graph, sweeps: int = 4) -> dict:
    """``{node: (x, y)}``: x = depth; y = rank in its column.

    Columns are ordered by the barycentre heuristic (Sugiyama et al. 1981):
    by the mean height of the parents, then alternately of the children and of all
    neighbours for ``sweeps`` passes, which removes most edge crossings.
    """
    if not isinstance(graph, Graph):
        raise TypeError(f"graph must be a robonum.autodiff.graph.Graph, got {type(graph).__name__}")
    sweeps = check.integer("sweeps", sweeps, lo=0, hi=20)
    depth = graph.depths()
    for node in reversed(graph.nodes):  # as late as possible: next to the first child
        kids = [
            c for c in range(node.index + 1, len(graph)) if node.index in graph.nodes[c].parents
        ]
        if node.parents and kids:
            depth[node.index] = min(depth[c] for c in kids) - 1
    columns = [
        [n.index for n in graph.nodes if depth[n.index] == c] for c in range(int(depth.max()) + 1)
    ]
    children = {n.index: [] for n in graph.nodes}
    for n in graph.nodes:
        for p in n.parents:
            children[p].append(n.index)
    parents = {n.index: list(n.parents) for n in graph.nodes}
    y = {}

    half = (max(len(c) for c in columns) - 1) / 2.0  # every column spans the same height

    def place(col):
        step = 2.0 * half / (len(col) - 1) if len(col) > 1 else 0.0
        for rank, k in enumerate(col):
            y[k] = half - rank * step if len(col) > 1 else 0.0

    def reorder(col, neighbours):
        col.sort(
            key=lambda k: (
                -np.mean([y[j] for j in neighbours[k]]) if neighbours[k] else -y[k],
                -y[k],
                k,
            )
        )
        place(col)

    both = {k: parents[k] + children[k] for k in parents}
    edges = [(p, n.index) for n in graph.nodes for p in set(n.parents)]
    place(columns[0])
    for col in columns[1:]:
        place(col)
        reorder(col, parents)
    best = (_crossings(edges, depth, y), dict(y))
    for _ in range(sweeps):
        for cols, neighbours in ((reversed(columns[:-1]), children), (columns[1:], both)):
            for col in cols:
                reorder(col, neighbours)
            best = min(best, (_crossings(edges, depth, y), dict(y)), key=lambda b: b[0])
    y = best[1]
    return {k: (float(depth[k]), y[k]) for k in y}


def _crossings(edges, x, y) -> int:
    """Number of pairs of edges (straight segments) that cross; shared end points do not count."""

    def orient(a, b, c):
        v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
        return (v > 1e-12) - (v < -1e-12)

    seg = [((float(x[p]), y[p]), (float(x[c]), y[c]), {p, c}) for p, c in edges]
    count = 0
    for i, (a, b, ends) in enumerate(seg):
        for c, d, other in seg[i + 1 :]:
            if ends & other:
                continue
            if orient(a, b, c) * orient(a, b, d) < 0 and orient(c, d, a) * orient(c, d, b) < 0:
                count += 1
    return count


def plot_graph(
    graph: Graph,
    ax=None,
    *,
    names=None,
    edge_values=None,
    notes=None,
    active=None,
    done=(),
    value_fmt: str = ".3g",
    fontsize: float = 10.0,
) -> GraphPlot:
    """Draw ``graph``: boxes for nodes (symbol and value), arrows parent -> child.

    ``names`` maps node indices to labels (``{0: "q1"}``); ``edge_values`` maps
    ``(parent, child)`` to the number written on that edge (edges without one
    are drawn pale); ``notes`` maps node indices to a third line of text (an
    adjoint, say); ``active`` is a node drawn with a red frame (the one a
    sweep is working on) and ``done`` nodes are shaded.
    """
    pos = layout(graph)
    if len(graph) > MAX_DRAWN:
        raise ValueError(f"graph has {len(graph)} nodes; plot_graph draws at most {MAX_DRAWN}")
    names = _mapping("names", names, graph)
    notes = _mapping("notes", notes, graph)
    edge_values = _mapping("edge_values", edge_values, graph, edges=True)
    if active is not None:
        active = check.integer("active", active, lo=0, hi=len(graph) - 1)
    done = {check.integer("done entry", k, lo=0, hi=len(graph) - 1) for k in done}
    try:
        format(1.0, check.text("value_fmt", value_fmt))
    except ValueError:
        raise ValueError(
            f"value_fmt must be a format spec for floats such as '.3g', got {value_fmt!r}"
        ) from None
    fontsize = check.positive("fontsize", fontsize, hi=40.0)
    ax = _axes(ax)
    labels = {}
    for node in graph.nodes:
        x1, y1 = pos[node.index]
        for p in sorted(set(node.parents)):
            x0, y0 = pos[p]
            has = (p, node.index) in edge_values
            ax.annotate(
                "",
                xy=(x1, y1),
                xytext=(x0, y0),
                arrowprops=dict(
                    arrowstyle="-|>",
                    lw=1.3 if has else 0.8,
                    shrinkA=15,
                    shrinkB=15,
                    color="#333333" if has else "#b8b8b8",
                ),
            )
            if has:
                text = format(float(edge_values[(p, node.index)]), value_fmt)
                labels[(p, node.index)] = ax.text(  # above the boxes (zorder): never hidden
                    0.5 * (x0 + x1),
                    0.5 * (y0 + y1),
                    text,
                    ha="center",
                    va="center",
                    zorder=4,
                    fontsize=fontsize,
                    color="#1f4e99",
                    bbox=dict(boxstyle="round,pad=0.1", fc="white", ec="none", alpha=0.85),
                )
    for node in graph.nodes:
        x, y = pos[node.index]
        face = _DONE if node.index in done else _PLAIN
        edge = _ACTIVE if node.index == active else "#555555"
        label = f"{names.get(node.index, node.symbol)}\n{format(node.value, value_fmt)}"
        if node.index in notes:
            label += f"\n{notes[node.index]}"
        ax.text(
            x,
            y,
            label,
            ha="center",
            va="center",
            fontsize=fontsize,
            linespacing=1.05,
            zorder=3,
            bbox=dict(
                boxstyle="round,pad=0.2", fc=face, ec=edge, lw=2.2 if node.index == active else 1.0
            ),
        )
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    ax.set_xlim(min(xs) - 0.45, max(xs) + 0.45)
    ax.set_ylim(min(ys) - 0.6, max(ys) + 0.6)
    ax.axis("off")
    return GraphPlot(ax, pos, labels)


def _mapping(name: str, value, graph: Graph, edges: bool = False) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise TypeError(f"{name} must be a dict, got {type(value).__name__}")
    known = (
        {(p, n.index) for n in graph.nodes for p in n.parents} if edges else set(range(len(graph)))
    )
    for key, v in value.items():
        if key not in known:
            what = "an edge (parent, child) of the graph" if edges else "a node index of the graph"
            raise ValueError(f"{name} key {key!r} is not {what}")
        if edges:
            check.real(f"{name}[{key}]", v)
        else:
            check.text(f"{name}[{key}]", v)
    return value
