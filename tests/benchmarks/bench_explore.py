"""Explorations: live latency, time to the first frame, frame size per format.

Run:  python tests/benchmarks/bench_explore.py  (prints tables; no asserts).

The frame is the chapter's two-panel one (logistic equation: solution with a
legend on the left, error on a log axis on the right).  A live move sets a
control's ``value`` exactly as the ipywidgets frontend does, which runs the
widget's observer synchronously; it is timed with time.perf_counter (wall)
and time.process_time (CPU: the work, robust to a busy machine).
"Uncached" visits each live value for the first time, "cached" revisits
them.  "First frame" is a notebook cell's display in an interactive kernel
(``_repr_mimebundle_`` with ROBONUM_STATIC unset): the widget plus a
one-frame preview.  Numbers vary from run to run and machine to machine.
"""

from __future__ import annotations

import io
import os
import statistics
import time

import numpy as np
from PIL import Image

import robonum as rn
from robonum import problems
from robonum.analysis.stability import stability_function
from robonum.explore import Exploration, Param, new_figure
from robonum.explore import exploration as exploration_module
from robonum.explore.render import encode, render_frame

PROBLEM = problems.logistic(y0=0.1, r=1.0, K=1.0, t_span=(0.0, 5.0))
METHODS = {"euler": "전진 오일러", "rk4": "RK4", "backward_euler": "후진 오일러"}
T_FINE = np.linspace(*PROBLEM.t_span, 400)
R = {key: stability_function(rn.methods.get(key)) for key in METHODS}


def draw_run(h, method):
    """The chapter's frame, as the notebook draws it (7.2 x 3.0 in, legend at 8 pt)."""
    sol = rn.integrate(PROBLEM, method, h)
    growth = abs(complex(R[method](-h)))
    fig = new_figure(7.2, 3.0)
    left, right = fig.subplots(1, 2)
    left.plot(T_FINE, PROBLEM.exact(T_FINE)[0], "k", lw=1, label="정확한 해")
    left.plot(sol.t, sol.y[0], "o-", ms=3, label=METHODS[method])
    left.set_ylim(-0.2, 1.6)
    left.set_xlabel("시간 $t$")
    left.set_title(f"{METHODS[method]}, $h$ = {h:g}")
    left.legend(loc="lower right", fontsize=8)
    err = np.abs(sol.y[0] - PROBLEM.exact(sol.t)[0])
    right.semilogy(sol.t[1:], np.maximum(err[1:], 1e-17), ".-", ms=3)
    right.set_ylim(1e-12, 1e1)
    right.set_xlabel("시간 $t$")
    right.set_title(f"오차, nfev = {sol.nfev}")
    return fig, (f"불안정: |R(z)| = {growth:.3g} > 1" if growth > 1 else "")


def exploration(**kw):
    return Exploration(
        draw_run,
        [
            Param.geomgrid("h", 0.05, 3.0, 9, default=0.5, label="간격 h", n_live=40),
            Param.choice("method", METHODS, label="방법"),
        ],
        title="간격과 방법을 바꾸며 수치해 보기",
        **kw,
    )


class Clock:
    """Wall and CPU seconds of a block (CPU time shows the work when the machine is busy)."""

    def __enter__(self):
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc):
        self.wall, self.cpu = time.perf_counter() - self.wall, time.process_time() - self.cpu


def stats_row(label, clocks):
    ms = 1e3 * np.array([c.wall for c in clocks])
    cpu = 1e3 * np.array([c.cpu for c in clocks])
    print(
        f"{label:<40s}{len(ms):>5d}{np.median(ms):>9.1f}{np.percentile(ms, 95):>9.1f}"
        f"{ms.max():>9.1f}{np.percentile(cpu, 95):>9.1f}"
    )


def first_frame(repeats=5):
    """Clocks from displaying a fresh exploration in a kernel to its first frame."""
    exploration_module.in_kernel = lambda: True
    os.environ.pop("ROBONUM_STATIC", None)
    clocks = []
    for _ in range(repeats):
        ex = exploration()
        with Clock() as clock:
            bundle = ex._repr_mimebundle_()
        clocks.append(clock)
        assert "application/vnd.jupyter.widget-view+json" in bundle
    return clocks


def slider_moves():
    """(uncached, cached) clocks per move of the h slider, every live value, two methods."""
    ex = exploration()
    box = ex.widget()
    h = box.controls["h"]
    path = [v for _, v in h.options if v != h.value]
    uncached, cached = [], []
    for method in ("euler", "rk4"):
        box.controls["method"].value = method
        for record in (uncached, cached):  # first visit draws, second visit is a cache hit
            for v in path:
                with Clock() as clock:
                    h.value = v  # what a frontend's value change does
                record.append(clock)
    return uncached, cached


def _old_png(fig, fmt, dpi):
    """How frames were encoded before (savefig PNG at the figure's own size)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, metadata={"Software": None})
    return buf.getvalue()


def frame_formats():
    """Bytes, pixels and CPU time (draw + encode) of one frame (h = 0.5, euler), old and new."""
    ex = exploration()
    fig, _ = draw_run(0.5, "euler")
    rows = [("before: PNG 1x, 7.2x3.0 in, 72 dpi", fig, "png", 72, _old_png)]
    for fmt in ("png", "webp"):
        fig, _ = draw_run(0.5, "euler")
        fig.set_size_inches(ex.size)
        rows.append(
            (f"now: {fmt.upper()} 2x, 5.0x3.0 in, {ex.dpi:.0f} dpi", fig, fmt, ex.dpi, encode)
        )
    out = []
    for label, fig, fmt, dpi, write in rows:
        write(fig, fmt, dpi)  # warm (layout, font cache)
        tic = time.process_time()  # CPU time: robust to a busy machine
        data = write(fig, fmt, dpi)
        out.append((label, len(data), Image.open(io.BytesIO(data)).size, time.process_time() - tic))
    return out


def static_views():
    """Seconds for the full static HTML and for the messages-only HTML, and its size."""
    full_ex, cheap_ex = exploration(), exploration()
    with Clock() as full:
        html = full_ex.to_html()
    with Clock() as cheap:
        cheap_ex.to_html(encode=False)
    sizes = [len(img) for img, _ in full_ex.frames().values()]
    return len(full_ex.keys()), full, cheap, len(html.encode()), sizes


def main():
    print(__doc__.split("\n\n")[1].replace("\n", " "), "\n")
    rn.book.use_book_style()
    render_frame(
        draw_run, {"h": 0.5, "method": "euler"}, 100, (5.0, 3.0)
    )  # warm-up: fonts, first layout
    print(
        f"{'live view (ms; wall, and CPU p95)':<40s}{'n':>5s}{'median':>9s}{'p95':>9s}{'max':>9s}"
        f"{'CPU p95':>9s}"
    )
    print("-" * 76)
    stats_row("first frame of a fresh exploration", first_frame())
    uncached, cached = slider_moves()
    stats_row("slider move, value not seen before", uncached)
    stats_row("slider move, value seen before (cache)", cached)

    print(f"\n{'one frame (h = 0.5, euler)':<44s}{'KB':>8s}{'pixels':>12s}{'CPU ms':>11s}")
    print("-" * 76)
    for label, n, (w, hgt), secs in frame_formats():
        print(f"{label:<44s}{n / 1024:>8.1f}{f'{w}x{hgt}':>12s}{1e3 * secs:>11.1f}")

    n, full, cheap, size, sizes = static_views()
    print(
        f"\nstatic view, {n} frames (CPU): full {full.cpu:.2f} s, messages only {cheap.cpu:.2f} s "
        f"({full.cpu / cheap.cpu:.1f}x faster); HTML {size / 1024:.0f} KB, frames "
        f"{statistics.mean(sizes) / 1024:.1f} KB mean / {max(sizes) / 1024:.1f} KB max"
    )


if __name__ == "__main__":
    main()
