"""Work-precision of robonum's Radau5 and BDF against SciPy's Radau, BDF and LSODA, side by side.

Run:  python tests/benchmarks/bench_ivp.py  (prints tables; no asserts).

Problems: HIRES, ROBER (to t = 1e11) and VDPOL (eps = 1e-6) of the IVP test
set (Mazzia & Magherini 2008) with their published reference values, and the
book's three robot problems (reference: SciPy Radau at rtol 1e-12).
Accuracy: digits = -log10(max relative error at t_end).  For rtol = 1e-3 ...
1e-8 (atol = rtol * scale of the problem) each code gives (digits, nfev, CPU
seconds, the best of 3 runs of time.process_time).

Equal accuracy: SciPy's runs use a wider tolerance range (1e-3 ... 1e-10);
its work at the digits one of our runs reached is interpolated linearly in
(digits, log work) between its two neighbouring runs (never extrapolated:
"--" when SciPy's runs do not bracket those digits).  The ratio columns are
ours / SciPy's better of Radau and BDF at the same digits, and ours / LSODA.
The last table treats both sides alike: at every half digit that both reach,
the interpolated work of our better code over SciPy's better code (a run of
ours is discrete too, and one rtol decade can jump two digits).
Times vary from run to run and machine to machine; nfev is deterministic.
"""
from __future__ import annotations

import numpy as np

import robonum as rn
from robonum.problems import testset as ts

OURS = ("radau5", "bdf")
SCIPY = ("Radau", "BDF", "LSODA")
RTOLS = [1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8]
RTOLS_SCIPY = [10.0 ** -k for k in np.arange(3, 10.51, 0.5)]
REPEATS = 3


def problems():
    """(name, problem, atol/rtol, reference, floor)."""
    out = []
    for name, scale in (("hires", 1e-4), ("rober", 1e-6), ("vdpol", 1.0)):
        p = ts.testset_problem(name)
        out.append((p.name, p, scale, p.params["reference"], 0.0))
    P = rn.problems
    for p, scale in ((P.flexible_joint(), 1e-3), (P.penalty_contact(), 1e-3), (P.dc_motor(), 1e-3)):
        ref = P.reference_solution(p, [p.t_span[1]])[:, -1]
        out.append((p.name, p, scale, ref, 1e-6 * np.abs(ref).max()))
    return out


def curve(p, solver, method, rtols, scale, ref, floor):
    return [ts.run(p, solver, method, r, r * scale, ref, floor, REPEATS) for r in rtols]


def at(curve_, digits, key):
    pts = [(c["digits"], c[key]) for c in curve_ if c["ok"]]
    if len(pts) < 2:
        return None
    d, w = zip(*pts)
    return ts.work_at(d, w, digits)


def fmt(x, spec=".2f"):
    return "--" if x is None else format(x, spec)


def main():
    curves = {}
    for name, p, scale, ref, floor in problems():
        sc = {m: curve(p, "scipy", m, RTOLS_SCIPY, scale, ref, floor) for m in SCIPY}
        print(f"\n== {name}  (atol = {scale:g} rtol)")
        print(f"{'code':8s} {'rtol':>6s} {'digits':>6s} {'nfev':>7s} {'cpu ms':>8s} | "
              f"{'nfev/best':>9s} {'cpu/best':>8s} {'nfev/LSODA':>10s} {'cpu/LSODA':>9s}")
        ours = {m: curve(p, "robonum", m, RTOLS, scale, ref, floor) for m in OURS}
        curves[name] = (ours, sc)
        for m in OURS:
            for r, c in zip(RTOLS, ours[m]):
                d = c["digits"]
                best_n = [x for x in (at(sc["Radau"], d, "nfev"), at(sc["BDF"], d, "nfev")) if x]
                best_t = [x for x in (at(sc["Radau"], d, "cpu"), at(sc["BDF"], d, "cpu")) if x]
                rn_ = c["nfev"] / min(best_n) if best_n else None
                rt_ = c["cpu"] / min(best_t) if best_t else None
                ls_n, ls_t = at(sc["LSODA"], d, "nfev"), at(sc["LSODA"], d, "cpu")
                ln_ = c["nfev"] / ls_n if ls_n else None
                lt_ = c["cpu"] / ls_t if ls_t else None
                print(f"{m:8s} {r:6.0e} {d:6.2f} {c['nfev']:7d} {1e3 * c['cpu']:8.1f} | "
                      f"{fmt(rn_):>9s} {fmt(rt_):>8s} {fmt(ln_):>10s} {fmt(lt_):>9s}")
        for m in SCIPY:
            row = " ".join(f"{c['digits']:.1f}/{c['nfev']}" for c in sc[m][::2])
            print(f"   scipy {m:6s} digits/nfev at rtol 1e-3,1e-4,...: {row}")
    print("\n== equal accuracy, both sides interpolated: at each half digit both reach, the work of")
    print("   ours (better of radau5, bdf) / SciPy's (better of Radau, BDF), and / LSODA's")
    print(f"{'problem':28s} {'digits':>6s} {'nfev':>6s} {'cpu':>6s} {'nfev/LSODA':>10s} {'cpu/LSODA':>9s}")
    for name, (ours, sc) in curves.items():
        reached = [c["digits"] for c in sum(ours.values(), []) if c["ok"]]
        theirs = [c["digits"] for m in ("Radau", "BDF") for c in sc[m] if c["ok"]]
        lo, hi = max(min(reached), min(theirs)), min(max(reached), max(theirs))
        for d in np.arange(np.ceil(2 * lo) / 2, hi + 1e-9, 0.5):
            row = []
            for key in ("nfev", "cpu"):
                mine = [x for x in (at(ours[m], d, key) for m in OURS) if x]
                best = [x for x in (at(sc[m], d, key) for m in ("Radau", "BDF")) if x]
                ls = at(sc["LSODA"], d, key)
                row.append((min(mine) / min(best) if mine and best else None,
                            min(mine) / ls if mine and ls else None))
            print(f"{name:28s} {d:6.1f} {fmt(row[0][0]):>6s} {fmt(row[1][0]):>6s} "
                  f"{fmt(row[0][1]):>10s} {fmt(row[1][1]):>9s}")

if __name__ == "__main__":
    main()
