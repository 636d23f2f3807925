"""MuJoCo's integrators as the book's one-step methods: amplification matrices and stable steps.

The test model is one slide joint with mass ``M`` (body mass plus armature), joint stiffness
``k`` and joint damping ``d``, no gravity: ``M q'' = -k q - d q'``.  Written as ``y' = A y`` with
``y = (q, q')``, its eigenvalues are ``λ = ω(-ζ ± sqrt(ζ² - 1))`` with ``ω = sqrt(k/M)`` and
``ζ = d / (2 sqrt(k M))``, so every amplification matrix below depends on ``ωh`` and ``ζ`` only.

What each integrator of MuJoCo 4.0 does to this model (checked against the simulator's own
one-step linearisation in ``tests/lib/test_simulator.py`` and on the chapter's page):

* ``Euler`` (default ``eulerdamp``), ``implicitfast``, ``implicit``: symplectic Euler, the
  velocity update implicit in the damping, explicit in the spring;
* ``Euler`` with ``eulerdamp`` disabled: symplectic Euler, everything explicit;
* ``RK4``: the classical Runge-Kutta method, ``G = R(hA)``;
* ``discrete``: backward Euler, implicit in spring and damping, ``G = (I - hA)^-1``.

``mujoco`` is imported inside the functions that need it: ``import robonum`` stays light and
the rest of the library works without the simulator installed.
"""

from __future__ import annotations

import contextlib
import math

import numpy as np

from .. import _validate as check

INTEGRATORS = ("Euler", "implicitfast", "implicit", "RK4", "discrete")
EULER_NO_DAMP = "Euler (eulerdamp off)"
METHODS = INTEGRATORS + (EULER_NO_DAMP,)
MAXVAL = 1e10  # mjMAXVAL: MuJoCo resets the state when |qpos|, |qvel| or |qacc| exceeds it
GROWTH = 1e3  # a run "blows up" when |y_N| > GROWTH |y_0| (scaled state, see _norm)

_XML = """<mujoco>
  <option timestep="{h!r}" integrator="{integrator}" gravity="0 0 0">
    <flag eulerdamp="{eulerdamp}"/>
  </option>
  <worldbody>
    <body>
      <joint name="q" type="slide" axis="1 0 0" stiffness="{k!r}" damping="{d!r}" armature="{a!r}"/>
      <geom type="sphere" size="0.05" mass="{mass!r}"/>
    </body>
  </worldbody>
</mujoco>"""


def _params(k, d, mass, armature):
    return (
        check.positive("k", k),  # the joint stiffness; ω and ζ need k > 0
        check.real("d", d, lo=0.0),
        check.positive("mass", mass),
        check.real("armature", armature, lo=0.0),
    )


def _method(method):
    check.one_of("method", method, METHODS)
    return method


def joint_xml(method, h, k, d, *, mass=1.0, armature=0.0) -> str:
    """The test model as an MJCF string (``method`` is one of :data:`METHODS`)."""
    _method(method)
    h = check.positive("h", h)
    k, d, mass, armature = _params(k, d, mass, armature)
    off = method == EULER_NO_DAMP
    return _XML.format(
        h=h,
        integrator="Euler" if off else method,
        eulerdamp="disable" if off else "enable",
        k=k,
        d=d,
        a=armature,
        mass=mass,
    )


def joint_model(method, h, k, d, *, mass=1.0, armature=0.0):
    """(MjModel, MjData) of the test model."""
    import mujoco

    model = mujoco.MjModel.from_xml_string(joint_xml(method, h, k, d, mass=mass, armature=armature))
    return model, mujoco.MjData(model)


def system_matrix(k, d, M) -> np.ndarray:
    """``A`` of ``y' = A y``, ``y = (q, q')``."""
    k, d, M, _ = _params(k, d, M, 0.0)
    return np.array([[0.0, 1.0], [-k / M, -d / M]])


def amplification(method, h, k, d, M) -> np.ndarray:
    """The matrix ``G`` of one step, ``y_{n+1} = G y_n``, derived for each integrator."""
    _method(method)
    h = check.positive("h", h)
    A = system_matrix(k, d, M)
    k, d = -A[1, 0] * M, -A[1, 1] * M
    if method == "RK4":  # R(hA) with R(z) = 1 + z + z²/2 + z³/6 + z⁴/24
        Z, term, G = h * A, np.eye(2), np.eye(2)
        for j in range(1, 5):
            term = term @ Z / j
            G = G + term
        return G
    if method == "discrete":  # backward Euler
        return np.linalg.inv(np.eye(2) - h * A)
    # symplectic Euler: v1 = v + h a, q1 = q + h v1; damping implicit unless eulerdamp is off
    if method == EULER_NO_DAMP:
        V = np.array([-h * k / M, 1.0 - h * d / M])
    else:
        V = np.array([-h * k, M]) / (M + h * d)
    return np.array([[1.0, 0.0], [0.0, 0.0]]) + np.outer([h, 1.0], V)


def spectral_radius(G) -> float:
    return float(np.max(np.abs(np.linalg.eigvals(np.asarray(G, dtype=float)))))


def _norm(y, k, M):
    """Scaled state (q, q'/ω): for an undamped spring it is the amplitude."""
    return math.hypot(y[0], y[1] * math.sqrt(M / k))


def _first_bad(is_bad, h_lo, h_hi, rtol, n_scan=16):
    """Smallest h in [h_lo, h_hi] with is_bad(h), to relative ``rtol`` (inf if none).

    A geometric scan finds the first bad point (so a region that is not an interval in h
    cannot fool the bisection), then bisection in log h closes the bracket.
    """
    grid = np.geomspace(h_lo, h_hi, n_scan)
    bad = [is_bad(h) for h in grid]
    if not any(bad):
        return math.inf
    i = bad.index(True)
    if i == 0:
        raise ValueError(f"h_lo = {h_lo:g} is already unstable; choose a smaller h_lo")
    lo, hi = grid[i - 1], grid[i]
    while hi / lo - 1.0 > rtol:
        mid = math.sqrt(lo * hi)
        lo, hi = (lo, mid) if is_bad(mid) else (mid, hi)
    return float(hi)


def _bracket(k, M, h_lo, h_hi):
    omega = math.sqrt(k / M)
    return (1e-3 / omega if h_lo is None else h_lo), (1e3 / omega if h_hi is None else h_hi)


def predicted_step(method, k, d, M, *, nstep=None, growth=GROWTH, h_lo=None, h_hi=None, rtol=1e-6):
    """Largest stable h from the amplification matrix.

    ``nstep=None``: the spectral radius reaches 1.  With ``nstep``: the finite-horizon
    criterion the simulator is measured with (:func:`measured_step`), run on ``G`` from
    ``y_0 = (1, 0)``: some ``|q_n|, |q'_n|, |q''_n| > MAXVAL`` for ``n < N`` (MuJoCo's reset)
    or ``|y_N| > growth |y_0|``.  ``inf`` if nothing in the bracket (``[1e-3, 1e3]/ω``) fails.
    """
    k, d, M, _ = _params(k, d, M, 0.0)
    lo, hi = _bracket(k, M, h_lo, h_hi)
    if nstep is None:
        return _first_bad(
            lambda h: spectral_radius(amplification(method, h, k, d, M)) > 1 + 1e-9, lo, hi, rtol
        )
    nstep = check.integer("nstep", nstep, 1)

    def fails(h):
        with np.errstate(all="ignore"):
            Y = orbit(amplification(method, h, k, d, M), [1.0, 0.0], nstep)
            acc = (k * Y[0] + d * Y[1]) / M
            early = np.abs(np.vstack([Y, acc])[:, :-1])
        return not (early.max() <= MAXVAL and _norm(Y[:, -1], k, M) <= growth)

    return _first_bad(fails, lo, hi, rtol)


def orbit(G, y0, nstep) -> np.ndarray:
    """``[y_0, G y_0, ..., G^N y_0]`` as columns, by doubling (log N matrix products)."""
    G = np.asarray(G, dtype=float)
    Y, P = np.asarray(y0, dtype=float).reshape(2, 1), G
    while Y.shape[1] <= nstep:
        Y = np.hstack([Y, P @ Y])
        P = P @ P
    return Y[:, : nstep + 1]


@contextlib.contextmanager
def quiet():
    """Collect MuJoCo's printed warnings in a list instead of the process's output."""
    import mujoco

    seen, old = [], mujoco.get_mju_user_warning()
    mujoco.set_mju_user_warning(seen.append)
    try:
        yield seen
    finally:
        mujoco.set_mju_user_warning(old)


def resets(data) -> int:
    """How often MuJoCo found a bad qacc, qpos or qvel (and reset the state to the model's)."""
    import mujoco

    W = mujoco.mjtWarning
    return sum(
        int(data.warning[w].number) for w in (W.mjWARN_BADQACC, W.mjWARN_BADQPOS, W.mjWARN_BADQVEL)
    )


def simulate(model, data, h, nstep, q0=1.0):
    """Run ``nstep`` steps of size h from (q0, 0): (final state, number of resets)."""
    import mujoco

    model.opt.timestep = check.positive("h", h)
    mujoco.mj_resetData(model, data)
    data.qpos[0] = check.real("q0", q0)
    with quiet():
        mujoco.mj_step(model, data, nstep=check.integer("nstep", nstep, 1))
    return np.array([data.qpos[0], data.qvel[0]]), resets(data)


def trace(model, data, h, nstep, q0=1.0):
    """q after each of ``nstep`` steps from (q0, 0), and the first step at which MuJoCo reset
    the state (``None`` if it never did): the samples from there on are the reset state."""
    import mujoco

    model.opt.timestep = check.positive("h", h)
    mujoco.mj_resetData(model, data)
    data.qpos[0] = check.real("q0", q0)
    q, first = np.empty(check.integer("nstep", nstep, 1)), None
    with quiet():
        for n in range(nstep):
            mujoco.mj_step(model, data)
            q[n] = data.qpos[0]
            if first is None and resets(data):
                first = n + 1
    return q, first


def measured_step(
    method,
    k,
    d,
    *,
    mass=1.0,
    armature=0.0,
    nstep=1000,
    growth=GROWTH,
    h_lo=None,
    h_hi=None,
    rtol=1e-4,
):
    """Largest h the simulator survives for ``nstep`` steps; blow-up = growth or any reset.

    Returns ``(h, counts)``; ``counts`` says how many runs of the search blew up by growth
    and how many only by a reset (those ended at rest: a plot would have shown them calm).
    """
    k, d, mass, armature = _params(k, d, mass, armature)
    M = mass + armature
    lo, hi = _bracket(k, M, h_lo, h_hi)
    model, data = joint_model(method, lo, k, d, mass=mass, armature=armature)
    counts = {"runs": 0, "growth": 0, "reset_only": 0}

    def bad(h):
        y, n_reset = simulate(model, data, h, nstep)
        grew = not _norm(y, k, M) <= growth
        counts["runs"] += 1
        counts["growth"] += grew
        counts["reset_only"] += bool(n_reset) and not grew
        return grew or n_reset > 0

    return _first_bad(bad, lo, hi, rtol), counts


def transition(model, data, eps=1e-6) -> np.ndarray:
    """One step's Jacobian d y_{n+1} / d y_n by central differences (works for RK4 too)."""
    import mujoco

    y0 = np.array([data.qpos[0], data.qvel[0]])
    J = np.zeros((2, 2))
    for j in range(2):
        ends = []
        for sign in (1.0, -1.0):
            mujoco.mj_resetData(model, data)
            y = y0.copy()
            y[j] += sign * eps
            data.qpos[0], data.qvel[0] = y
            mujoco.mj_step(model, data)
            ends.append(np.array([data.qpos[0], data.qvel[0]]))
        J[:, j] = (ends[0] - ends[1]) / (2 * eps)
    mujoco.mj_resetData(model, data)
    data.qpos[0], data.qvel[0] = y0
    return J


def transition_mujoco(model, data, eps=1e-6) -> np.ndarray:
    """MuJoCo's own ``mjd_transitionFD`` (centred); raises what MuJoCo raises (RK4 in 4.0)."""
    import mujoco

    mujoco.mj_forward(model, data)
    A = np.zeros((2 * model.nv + model.na, 2 * model.nv + model.na))
    mujoco.mjd_transitionFD(model, data, eps, True, A, None, None, None)
    return A
