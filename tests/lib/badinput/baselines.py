"""A valid call of every public function: the suite changes one argument at a time.

``NAMED`` gives a valid value by parameter name (the library's vocabulary: ``problem``,
``method``, ``h``, ``t_span``, ``y0``, ``alpha``, ...), so a new function whose parameters
follow it is covered with no edit here.  ``CALLS`` overrides it per function where a name
means something else (``f`` of ``finite_diff`` takes ``x``, ``method`` of ``lie`` is ``"exp"``).
``NOT_GENERATED`` lists, with the reason, the public callables the suite does not attack;
``test_every_public_function_is_covered_or_listed`` fails on any other one without a valid call.
Every value is a factory: each call gets fresh objects (a tape, a stateful problem).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

import robonum as rn
from robonum import autodiff as ad


class Fresh:
    """A value made anew for each call (a problem, a tape, a stateful callable)."""

    def __init__(self, make):
        self.make = make


def resolve(v):
    return v.make() if isinstance(v, Fresh) else v


SOLVER_F = lambda t, y: -y  # noqa: E731  (y' = -y: its answer at t = 1 is exp(-1))

NAMED = {
    "problem": lambda: rn.problems.logistic(t_span=(0.0, 1.0)),
    "method": lambda: "rk4",
    "h": lambda: 0.1,
    "h0": lambda: 0.1,
    "hs": lambda: [0.1, 0.05, 0.025],
    "errors": lambda: [1e-2, 2.5e-3, 6.25e-4],
    "y0": lambda: [1.0],
    "t_span": lambda: (0.0, 1.0),
    "fun": lambda: SOLVER_F,
    "f": lambda: SOLVER_F,
    "tableau": lambda: rn.methods.get("rk4"),
    "tab": lambda: rn.methods.get("rk4"),
    "alpha": lambda: [1.0, -1.0],
    "beta": lambda: [0.0, 1.0],
    "z": lambda: np.array([-1.0, -0.5 + 0.5j]),
    "k": lambda: 2,
    "s": lambda: 2,
    "n": lambda: 3,
    "p": lambda: 3,
    "q": lambda: 5,
    "t": lambda: [1.0, 2.0, 3.0],
    "err": lambda: [1.0, 2.0, 3.0],
    "E": lambda: [1.0, 1.1],
    "R": lambda: np.eye(3),
    "R0": lambda: np.eye(3),
    "R_ref": lambda: np.eye(3),
    "M": lambda: np.eye(3) + 0.01,
    "omega": lambda: [0.3, -0.5, 0.8],
    "w": lambda: [0.1, 0.2, 0.3],
    "u": lambda: [0.1, 0.2, 0.3],
    "v": lambda: [0.3, 0.2, 0.1],
    "theta": lambda: 0.5,
    "x": lambda: 0.5,
    "y": lambda: [1.0, 0.0],
    "dtype": lambda: "float64",
    "scheme": lambda: "central",
    "key": lambda: "x",
    "name": lambda: "x",
    "nodes": lambda: [0.5],
}

_PENDULUM = lambda: rn.problems.pendulum(t_span=(0.0, 1.0))  # noqa: E731
_VEC_F = lambda x: np.array([x[0] * x[1], np.sin(x[0])])  # noqa: E731
_SCALAR_F = lambda x: x * x  # noqa: E731 (works on floats, Duals and Vars)

CALLS = {
    "robonum.IVPSolver": dict(fun=SOLVER_F, t0=0.0, y0=[1.0], t_bound=1.0),
    "robonum.ConvergenceStudy": None,
    "robonum.HamiltonianProblem": dict(grad_V=np.sin, q0=[1.0], p0=[0.0], t_span=(0.0, 1.0)),
    "robonum.ButcherTableau": dict(name="t", A=[[0, 0], [1, 0]], b=[0.5, 0.5], order=2),
    "robonum.ODEProblem": dict(
        f=SOLVER_F, y0=[1.0], t_span=(0.0, 1.0), jac=lambda t, y: -np.eye(1)
    ),
    "robonum.solve_ivp": dict(
        fun=SOLVER_F, t_span=(0.0, 1.0), y0=[1.0], method="radau5", jac=lambda t, y: -np.eye(1)
    ),
    "robonum.fast.solve_ivp": dict(
        fun=SOLVER_F, t_span=(0.0, 1.0), y0=[1.0], jac=lambda t, y: -np.eye(1)
    ),
    "robonum.Work": dict(problem=Fresh(lambda: rn.problems.logistic(t_span=(0.0, 1.0)))),
    "robonum.ExplicitRK": dict(method="rk4"),
    "robonum.ImplicitRK": dict(method="radau3"),
    "robonum.Multistep": dict(method="bdf2"),
    "robonum.Symplectic": dict(method="verlet"),
    "robonum.steppers.RadauIIA": dict(stages=5),
    "robonum.integrate": dict(problem=Fresh(NAMED["problem"]), method="rk4", h=0.1),
    "robonum.convergence_study": dict(
        problem=Fresh(NAMED["problem"]), method="rk4", hs=[0.1, 0.05]
    ),
    "robonum.analysis.backward_error.modified_energy": dict(
        problem=Fresh(_PENDULUM), y=np.array([[1.0, 0.0], [0.9, -0.1]]), h=0.1
    ),
    "robonum.analysis.energy.growth_exponent": dict(T_a=1.5, T_b=3.0),
    "robonum.analysis.energy.max_error_in_log_windows": dict(n_windows=2),
    "robonum.analysis.energy.max_error_in_windows": dict(n_windows=2),
    "robonum.analysis.energy.max_error_up_to": dict(T=[2.0]),
    "robonum.analysis.energy.separable_energy": dict(
        V=lambda q: -np.cos(q[0]), q=[[0.1], [0.2]], p=[[0.0], [0.1]]
    ),
    "robonum.analysis.multistep.error_constants": dict(q_max=3),
    "robonum.analysis.multistep.lmm_is_stable": dict(z=[-0.5, -1.0]),
    "robonum.analysis.multistep.max_root_modulus": dict(z=[-0.5, -1.0]),
    "robonum.analysis.multistep.boundary_locus": dict(theta=[0.0, 1.0, 2.0]),
    "robonum.analysis.order_conditions.check_tree": dict(t=((),)),
    "robonum.analysis.order_conditions.density": dict(t=((),)),
    "robonum.analysis.order_conditions.elementary_weight": dict(
        t=((),), A=[[0, 0], [1, 0]], b=[0.5, 0.5]
    ),
    "robonum.analysis.order_conditions.order_of_tree": dict(t=((),)),
    "robonum.analysis.order_conditions.symmetry": dict(t=((),)),
    "robonum.analysis.order_conditions.tree_string": dict(t=((),)),
    "robonum.arm.sin_chain": dict(x=[0.3, 0.5]),
    "robonum.arm.sin_chain_grad": dict(x=[0.3, 0.5]),
    "robonum.arm.arm_fk": dict(q=[0.3, 0.5]),
    "robonum.arm.arm_jacobian": dict(q=[0.3, 0.5]),
    "robonum.arm.planar_fk": dict(q=[0.3, 0.5, -0.2]),
    "robonum.arm.planar_jacobian": dict(q=[0.3, 0.5, -0.2]),
    "robonum.record.run_record": dict(
        sol=Fresh(lambda: rn.integrate(NAMED["problem"](), "rk4", h=0.1)),
    ),
    "robonum.autodiff.Dual": dict(v=0.5, d=1.0),
    "robonum.autodiff.ad_cost": dict(f=_VEC_F, x=[0.3, 0.5]),
    "robonum.autodiff.checkpoint_counts": dict(n_steps=10, every=3),
    "robonum.autodiff.derivative": dict(f=_SCALAR_F, x=0.5),
    "robonum.autodiff.grad": dict(f=lambda x: x[0] * x[1], x=[0.3, 0.5]),
    "robonum.autodiff.jacobian_forward": dict(f=_VEC_F, x=[0.3, 0.5]),
    "robonum.autodiff.jacobian_reverse": dict(f=_VEC_F, x=[0.3, 0.5]),
    "robonum.autodiff.trace": dict(f=_VEC_F, x=[0.3, 0.5]),
    "robonum.autodiff.rk4_step": dict(f=lambda y: -y, h=0.1),
    "robonum.autodiff.grad_through_steps": dict(
        step=Fresh(lambda: ad.rk4_step(lambda y: [-v for v in y], 0.1)),
        y0=[1.0],
        n_steps=4,
        weights=[1.0],
    ),
    "robonum.finite_diff.derivative_fd": dict(f=np.sin, x=0.5),
    "robonum.finite_diff.gradient_fd": dict(f=lambda x: x[0] * x[1], x=[0.3, 0.5]),
    "robonum.finite_diff.jacobian_fd": dict(f=_VEC_F, x=[0.3, 0.5]),
    "robonum.finite_diff.error_model": dict(f=np.sin, x=0.5, hs=[1e-2, 1e-3]),
    "robonum.finite_diff.error_vs_h": dict(f=np.sin, x=0.5, reference=[np.cos(0.5)]),
    "robonum.finite_diff.optimal_h": dict(scheme="central"),
    "robonum.finite_diff.usable_steps": dict(x=0.5, hs=[1e-2, 1e-3], scheme="central"),
    "robonum.floating.clock": dict(h=0.1, n=100, samples=10),
    "robonum.floating.compensated_sum": dict(values=[0.1, 0.2, 0.3]),
    "robonum.floating.representation_error": dict(text="0.1"),
    "robonum.floating.round_to": dict(value=Fresh(lambda: Fraction(1, 10))),
    "robonum.lie.AttitudeProblem": dict(omega=[0.3, -0.5, 0.8], R0=np.eye(3), t_span=(0.0, 1.0)),
    "robonum.lie.exact_rotation": dict(t=0.5),
    "robonum.lie.euler_orthogonality_prediction": dict(h=0.01, n=100),
    "robonum.lie.rk_orthogonality_prediction": dict(method="rk4", h=0.01, n=100),
    "robonum.lie.imag_axis_gain": dict(method="rk4"),
    "robonum.lie.integrate_attitude": dict(
        problem=Fresh(lambda: rn.lie.coning()), method="exp", h=0.1
    ),
    "robonum.lie.integrate_rotation": dict(t_span=(0.0, 1.0), h=0.1, method="exp"),
    "robonum.lie.stepper": dict(method="exp"),
    "robonum.lie.quaternion.exp": dict(w=[0.1, 0.2, 0.3]),
    "robonum.lie.quaternion.integrate_quaternion": dict(q0=[1.0, 0, 0, 0], h=0.1),
    "robonum.lie.quaternion.multiply": dict(p=[1.0, 0, 0, 0], q=[0.0, 1, 0, 0]),
    "robonum.lie.quaternion.norm_errors": dict(Q=np.array([[1.0], [0], [0], [0]])),
    "robonum.lie.quaternion.norm_prediction": dict(method="rk4", h=0.01, n=100),
    "robonum.lie.quaternion.to_matrix": dict(q=[1.0, 0, 0, 0]),
    "robonum.lie.so3.vee": dict(W=[[0, -3.0, 2], [3, 0, -1], [-2, 1, 0]]),
    "robonum.lie.se3.se3_hat": dict(xi=[0.3, -0.5, 0.8, 1.0, 2.0, 3.0]),
    "robonum.lie.se3.se3_exp": dict(xi=[0.3, -0.5, 0.8, 1.0, 2.0, 3.0]),
    "robonum.lie.se3.se3_log": dict(T=np.eye(4)),
    "robonum.loop.bound_of": dict(blowup=1e8),
    "robonum.methods.LinearMultistep": dict(name="ab1", alpha=[1.0, -1.0], beta=[0.0, 1.0]),
    "robonum.methods.SplittingMethod": dict(name="v", order=2, gammas=[1.0]),
    "robonum.methods.collocation": dict(nodes=[0.5], name="c"),
    "robonum.methods.implicit.quadrature_order": dict(b=[0.5, 0.5], c=[0.0, 1.0]),
    "robonum.methods.get": dict(method="rk4"),
    "robonum.problems.harmonic_energy": dict(y=[[1.0, 0.0], [0.0, 1.0]]),
    "robonum.problems.pendulum_energy": dict(y=[[1.0, 0.0], [0.0, 1.0]]),
    "robonum.problems.reference_solution": dict(t_eval=[0.5, 1.0]),
    "robonum.problems.testset.digits": dict(y_end=[1.0, 2.0], reference=[1.0, 2.001]),
    "robonum.problems.testset.testset_problem": dict(name="hires"),
    "robonum.StepController": dict(q=5),
    "robonum.analysis.multistep.alpha_angle": dict(alpha=[1.0, -4 / 3, 1 / 3], beta=[2 / 3, 0, 0]),
    "robonum.book.Tol": dict(rtol=1e-9, why="rounding differs between BLAS builds"),
    "robonum.book.latex.stability_function": dict(method=Fresh(lambda: rn.methods.get("rk4"))),
    "robonum.fast.integrate": dict(
        problem=Fresh(lambda: rn.fast.pendulum(t_span=(0.0, 1.0))), method="verlet", h=0.1
    ),
    "robonum.lie.angle_errors": dict(R=np.stack([np.eye(3)] * 2), R_ref=np.stack([np.eye(3)] * 2)),
    "robonum.lie.orthogonality_errors": dict(R=np.stack([np.eye(3)] * 2)),
}

_RUN = dict(nfev=100, digits=3.0, ok=True)
_STUDY = lambda: rn.convergence_study(NAMED["problem"](), "rk4", [0.1, 0.05])  # noqa: E731
CALLS.update(
    {
        "robonum.book.Exercise": dict(key="ex", question="q", answer=1.5, hint="h", solution="s"),
        "robonum.book.Table": dict(rows=[[1.0, 2.0]], columns=["a", "b"]),
        "robonum.book.bench.better_work_at": dict(
            codes=[[dict(_RUN), dict(_RUN, nfev=200, digits=5.0)]], target=4.0
        ),
        "robonum.book.bench.cost_ratio": dict(
            runs=[dict(_RUN)], others=[dict(_RUN), dict(_RUN, nfev=200, digits=5.0)]
        ),
        "robonum.book.bench.run": dict(
            problem=Fresh(lambda: rn.problems.testset.rober()),
            solver=Fresh(lambda: rn.solve_ivp),
            method="radau5",
            rtol=1e-3,
            atol=1e-6,
        ),
        "robonum.book.bench.work_at": dict(digit_list=[2.0, 4.0], work_list=[10, 20], target=3.0),
        "robonum.book.bench.work_front": dict(digit_list=[2.0, 4.0], work_list=[10, 20]),
        "robonum.book.ko.input_message": dict(exc=Fresh(lambda: ValueError("h must be > 0"))),
        "robonum.book.ko.run_message": dict(
            sol=Fresh(lambda: rn.integrate(NAMED["problem"](), "rk4", h=0.1))
        ),
        "robonum.book.latex.polynomial": dict(coeffs=[1.0, 0.5]),
        "robonum.book.latex.rational": dict(P=[1.0, 0.5], Q=[1.0, -0.5]),
        "robonum.book.matches_printed": dict(x=0.1234, printed="0.123"),
        "robonum.book.pct": dict(fraction=0.25),
        "robonum.book.pow10": dict(x=2.5e-3),
        "robonum.explore.Exploration": dict(
            func=Fresh(lambda: lambda x: None),
            params=Fresh(lambda: [rn.explore.Param.grid("x", 0, 1, 3)]),
        ),
        "robonum.explore.Param": dict(name="x", values=(0.0, 1.0), default=0.0),
        "robonum.explore.message_figure": dict(text="t"),
        "robonum.fast.hamiltonian_rhs": dict(grad_V=Fresh(lambda: rn.fast.pendulum_grad_V), d=1),
        "robonum.loop.run": dict(
            stepper=Fresh(lambda: rn.make_stepper("rk4")),
            policy=Fresh(lambda: rn.policy.EqualSteps(n=10, h=0.1)),
        ),
        "robonum.plotting.plot_convergence": dict(studies=Fresh(lambda: [_STUDY()])),
        "robonum.plotting.plot_work_precision": dict(studies=Fresh(lambda: [_STUDY()])),
        "robonum.plotting.plot_error_vs_h": dict(
            sweep=Fresh(lambda: {"h": [1e-2, 1e-3], "central": [1e-5, 1e-7]})
        ),
        "robonum.policy.StepRule": dict(rule=Fresh(lambda: lambda n, t, y: 0.1)),
    }
)

NOT_GENERATED = {
    # result records: built by the library from checked values, never by a reader
    "robonum.ConvergenceStudy": "result record returned by convergence_study",
    "robonum.Solution": "result record returned by the step loop",
    "robonum.analysis.zero_stability.ZeroStability": "result record of zero_stability",
    "robonum.analysis.order_conditions.OrderCondition": "result record of order_conditions",
    "robonum.autodiff.ADCost": "result record of ad_cost",
    "robonum.autodiff.Graph": "result record of trace",
    "robonum.autodiff.Node": "result record of trace",
    "robonum.autodiff.StepsGradient": "result record of grad_through_steps",
    "robonum.floating.ClockRun": "result record of clock",
    "robonum.plotting.RegionPlot": "result record of plot_stability_region",
    "robonum.book.CheckResult": "result record of Exercise.check",
    "robonum.loop.Record": "the step loop's internal accumulator, built by loop.run",
    "robonum.record.RunRecord": "result record of run_record",
    # abstract or argument-free
    "robonum.Stepper": "abstract base class (no constructor arguments)",
    "robonum.autodiff.Tape": "no arguments",
    "robonum.record.versions": "no arguments (reads the installed versions)",
    "robonum.lie.ExpMidpoint": "no arguments",
    "robonum.explore.static_mode": "no arguments (reads ROBONUM_STATIC)",
    "robonum.problems.testset.hires": "no arguments",
    "robonum.problems.testset.rober": "no arguments",
    "robonum.problems.testset.vdpol": "no arguments",
    "robonum.problems.testset.orego": "no arguments",
    "robonum.problems.testset.e5": "no arguments",
    "robonum.fast.pendulum_grad_V": "numba kernel of fast.pendulum; typed by numba, not a door",
    # internal helpers the loop and the analysis pass checked values to
    "robonum.autodiff.Var": "made by Tape.var; its constructor takes the tape's internals",
    "robonum.loop.march": "the loop's generator over a checked problem/stepper/policy (loop.run)",
    "robonum.loop.first_negative": "called by the loop with its own state",
    "robonum.loop.negative_message": "called by the loop with its own state",
    "robonum.policy.Controlled": "built by integrate from checked rtol/atol",
    "robonum.policy.EqualSteps": "built by policy.equal_steps from checked t_span/h",
    "robonum.analysis.stability.first_crossing": "bisection helper of the stability analysis",
    "robonum.analysis.stability.effective_degree": "helper of stability_polynomials",
    "robonum.analysis.stability.trimmed_roots": "helper of stability_polynomials",
    "robonum.book.ko.sentences": "joins str parts (*parts); no parameter to attack by name",
    "robonum.explore.combine": "joins Message parts (*parts) -- explore is another owner's",
    "robonum.explore.note": "joins message parts (*parts)",
    "robonum.explore.success": "joins message parts (*parts)",
    "robonum.explore.warning": "joins message parts (*parts)",
    "robonum.explore.may_leave": "marks matplotlib artists (*artists)",
    "robonum.book.glue": "writes into the notebook's glue store (side effect on the build)",
    "robonum.book.glue_math": "writes into the notebook's glue store (side effect on the build)",
}
