"""Static figures that the README and pages embed, drawn from library code.

``python tools/make_figures.py OUTDIR`` writes every figure in FIGURES into
OUTDIR.  tests/book/test_figures.py regenerates them into a temporary folder
and compares with the committed ones, so a figure can never go stale.
"""

from __future__ import annotations

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
from matplotlib.figure import Figure  # noqa: E402

import robonum as rn  # noqa: E402

DPI = 80


def stability_regions() -> Figure:
    """Stability regions |R(z)| <= 1 of explicit RK methods, from their tableaux."""
    fig = Figure(figsize=(6.0, 4.6))
    ax = fig.subplots()
    colors = {"euler": "C0", "heun": "C1", "rk3": "C2", "rk4": "C3", "dopri5": "C4"}
    for key in ["dopri5", "rk4", "rk3", "heun", "euler"]:  # largest first, so all stay visible
        rn.plotting.plot_stability_region(
            key,
            ax=ax,
            xlim=(-4.5, 1.5),
            ylim=(-3.6, 3.6),
            n=301,
            color=colors[key],
            label=rn.methods.get(key).name,
        )
    ax.set_title("Stability regions of explicit Runge-Kutta methods (z = h lambda)")
    ax.legend(loc="upper left", fontsize=8)
    return fig


def error_vs_h() -> Figure:
    """Global error against step on the logistic equation: slopes 1 and 4."""
    problem = rn.problems.logistic(t_span=(0.0, 5.0))
    studies = [
        rn.convergence_study(problem, key, rn.halving(0.5, 7))
        for key in ["euler", "heun", "rk3", "rk4"]
    ]
    fig = Figure(figsize=(6.0, 4.0))
    ax = fig.subplots()
    rn.plotting.plot_convergence(
        studies, ax, labels=[f"{s.method} (slope {s.fitted_order():.2f})" for s in studies]
    )
    ax.set_xlabel("step h")
    ax.set_ylabel("error at t = 5")
    ax.set_title("Convergence on y' = y(1 - y), y(0) = 0.1")
    ax.legend(fontsize=8)
    return fig


FIGURES = {"stability_regions.png": stability_regions, "error_vs_h.png": error_vs_h}


def write_all(outdir: Path) -> list[Path]:
    outdir.mkdir(parents=True, exist_ok=True)
    rn.book.use_book_style(dpi=DPI)
    written = []
    for name, make in FIGURES.items():
        path = outdir / name
        make().savefig(path, dpi=DPI, metadata={"Software": None})
        written.append(path)
    return written


if __name__ == "__main__":
    for p in write_all(Path(sys.argv[1] if len(sys.argv) > 1 else "figures")):
        print(f"wrote {p}")
