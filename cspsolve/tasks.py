"""Solve, verify, compare and analyze a puzzle of any kind, through its declaration alone.

Every function takes the :class:`~cspsolve.kind.Kind`, the puzzle and a :class:`Request` (the
method, heuristic and kind options asked for; ``None`` lets the kind choose), so that the
command line and batch runs do the same for every kind. :func:`verify` runs the chosen method
and the kind's reference method, replays both answers through the kind's independent checker
and compares them by the rules of :func:`agreement`.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from cspsolve.errors import OptionError
from cspsolve.explanation import Explanation
from cspsolve.kind import Kind, Method
from cspsolve.limits import Limits
from cspsolve.results import Result, Stats, Status

__all__ = [
    "Request",
    "Verification",
    "agreement",
    "analyze",
    "check_names",
    "choose",
    "comparisons",
    "explain",
    "options_of",
    "prepare",
    "run_name",
    "solve",
    "verify",
]


@dataclass(frozen=True)
class Request:
    """What a user asks of a run beyond the puzzle.

    Attributes
    ----------
    method : str or None
        A method of the kind; ``None`` lets the kind choose for the puzzle.
    heuristic : str or None
        A heuristic of that method; ``None`` takes the method's first.
    options : mapping
        Values of the kind's options by field name; those left out keep their defaults.
    """

    method: str | None = None
    heuristic: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)


def options_of(kind: Kind, request: Request, *, also: Collection[str] = ()) -> Any:
    """The kind's options dataclass filled from ``request.options``.

    ``also``: the caller's own keywords (e.g. ``time_limit``), named beside the kind's
    options when one is unknown.

    Raises
    ------
    OptionError
        For an option the kind does not have (naming the closest one), or a value outside the
        field's ``metadata["choices"]`` (see :func:`cspsolve.kind.option`).
    """
    unknown = sorted(set(request.options) - set(kind.option_names))
    if unknown:
        return _refuse(kind, "option", unknown[0], [*also, *kind.option_names])
    for f in dataclasses.fields(kind.options):
        choices = f.metadata.get("choices", ())
        value = request.options.get(f.name)
        if choices and value is not None and value not in choices:
            _refuse(kind, f.name, str(value), choices)
    return kind.options(**request.options)


def _refuse(kind: Kind, what: str, name: str, known: Collection[str]) -> Any:
    choices = ", ".join(known) or ("none (it uses no heuristic)" if what == "heuristic" else "none")
    close = difflib.get_close_matches(name, list(known), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise OptionError(f"unknown {what} {name!r} for {kind.name}{hint}; choose from {choices}")


def check_names(kind: Kind, request: Request) -> None:
    """Check that the request's method and heuristic (when given) are the kind's.

    Raises
    ------
    OptionError
        Naming the unknown method or heuristic and the kind's choices.
    """
    for what, name, known in (
        ("method", request.method, kind.method_names),
        ("heuristic", request.heuristic, kind.heuristic_names),
    ):
        if name is not None and name not in known:
            _refuse(kind, what, name, known)


def prepare(kind: Kind, puzzle: Any, *, request: Request) -> Any:
    """The puzzle as the request's options shape it (the kind's ``prepare``, if any).

    Raises
    ------
    OptionError
        For options that do not fit the kind or the puzzle.
    """
    return _shaped(kind, puzzle, request)[1]


def _shaped(kind: Kind, puzzle: Any, request: Request) -> tuple[Any, Any]:
    """The kind's options of ``request``, and the puzzle they shape."""
    options = options_of(kind, request)
    return options, puzzle if kind.prepare is None else kind.prepare(puzzle, options)


def choose(kind: Kind, puzzle: Any, *, request: Request) -> tuple[Method, str | None]:
    """The method and heuristic to run: the request's, the kind's defaults filled in.

    Without a method, the first method of the table that is the default for the puzzle and
    takes the heuristic asked for; without a heuristic, the method's first.

    Raises
    ------
    OptionError
        For an unknown method or heuristic, a heuristic the method does not take, or a method
        that refuses the puzzle.
    """
    check_names(kind, request)
    wanted = request.heuristic
    if request.method is not None:
        method = kind.method(request.method)
    else:
        defaults = [
            m
            for m in kind.methods
            if m.is_default(puzzle) and (wanted is None or wanted in m.heuristics)
        ]
        if not defaults:
            raise OptionError(f"no default method of {kind.name} takes {wanted!r}; name one")
        method = defaults[0]
    reason = method.refuses(puzzle)
    if reason is not None:
        raise OptionError(f"{method.name}: {reason}")
    if wanted is None:
        return method, method.heuristics[0] if method.heuristics else None
    if not method.heuristics:
        raise OptionError(f"{method.name} is uninformed: it takes no heuristic")
    if wanted not in method.heuristics:
        raise OptionError(f"{method.name} takes {', '.join(method.heuristics)}, not {wanted!r}")
    return method, wanted


def _run(
    kind: Kind,
    puzzle: Any,
    method: Method,
    heuristic: str | None,
    options: Any,
    limits: Limits | None,
) -> Result[Any]:
    """Run ``method``, unless a time limit of 0 stops it before it starts (status ``limit``,
    whatever the method) or the kind settles ``puzzle`` at sight (:attr:`Kind.presolve`); the
    result names the method and can draw its solution on ``puzzle``."""
    if limits is not None and limits.time_limit == 0:
        result: Result[Any] | None = Result(Status.LIMIT)
    else:
        result = kind.presolve(puzzle) if kind.presolve is not None else None
    if result is None:
        result = method.run(puzzle, heuristic=heuristic, options=options, limits=limits)
    result.method, result.heuristic = method.name, heuristic
    if result.status.has_solution:
        result.picture = functools.partial(kind.scenes, puzzle, result.solution)
    return result


def solve(
    kind: Kind, puzzle: Any, *, request: Request | None = None, limits: Limits | None = None
) -> Result[Any]:
    """Solve ``puzzle`` by the method the request names (or the kind's default).

    Parameters
    ----------
    kind : Kind
        The puzzle's kind.
    puzzle : object
        A puzzle of that kind.
    request : Request, optional
        Method, heuristic and options; the kind's defaults when omitted.
    limits : Limits, optional
        Time and node limits, cancellation and progress.

    Returns
    -------
    Result
        Its ``method`` and ``heuristic`` name what ran.

    Raises
    ------
    OptionError
        When the request does not fit the kind or the puzzle (see :func:`choose`).
    """
    request = request or Request()
    options, puzzle = _shaped(kind, puzzle, request)
    method, heuristic = choose(kind, puzzle, request=request)
    return _run(kind, puzzle, method, heuristic, options, limits)


@dataclass
class Verification:
    """What :func:`verify` found.

    Attributes
    ----------
    search, reference : Result
        The chosen method's result and the reference method's.
    agree : bool or None
        Whether they agree; ``None`` when a limit left it unsettled.
    problems : list of str
        Each disagreement or failed check, one line each.
    """

    search: Result[Any]
    reference: Result[Any]
    agree: bool | None
    problems: list[str]

    def words(self) -> list[str]:
        """What the cross-check proved, in sentences for people.

        Examples
        --------
        >>> from cspsolve.results import Result, Stats, Status
        >>> found = Result(Status.OPTIMAL, "plan", Stats(cost=5), "astar")
        >>> bound = Result(Status.OPTIMAL, "plan", Stats(cost=5), "cpsat", proof={"lower_bound": 5})
        >>> Verification(found, bound, True, []).words()[1]
        'cpsat proves that no solution costs less than 5, the cost astar found: it is optimal.'
        """
        search = run_name(self.search.method, self.search.heuristic)
        reference = run_name(self.reference.method, self.reference.heuristic)
        if self.agree is None:
            return [f"{p[:1].upper()}{p[1:]}." for p in self.problems] + self._bound_words(search)
        if self.agree is False:
            return [f"The answers disagree: {p}." for p in self.problems]
        if self.search.status is Status.UNSOLVABLE:
            return [f"{search} and {reference} each prove that no solution exists."]
        words = [f"Both answers pass the kind's own checker ({search}, {reference})."]
        bound = self.reference.proof.get("lower_bound")
        if bound is None and self.reference.status is Status.OPTIMAL and self.search.stats.cost:
            bound = self.reference.stats.cost
        if bound is not None:
            words.append(
                f"{reference} proves that no solution costs less than {bound:g}, "
                f"the cost {search} found: it is optimal."
            )
        unique = self.search.proof.get("unique")
        if unique is True:
            words.append(
                f"{reference} finds the same solution and proves there is no second "
                "one: the solution is unique."
            )
        elif unique is False:
            words.append("Both find a second solution: the solution is not unique.")
        return words

    def _bound_words(self, search: str) -> list[str]:
        """What an unsettled reference proved of a solution the search (named ``search``)
        found: its lower bound, which the solution's cost does not pass (else they would
        disagree)."""
        bound = self.reference.proof.get("lower_bound")
        if bound is None or not self.search.status.has_solution:
            return []
        return [
            f"{self.reference.method} proves that no solution costs less than {bound:g}; "
            f"{search} found one of {self.search.stats.cost:g}, not yet confirmed optimal."
        ]


def run_name(method: str, heuristic: str | None) -> str:
    """A method with its heuristic, as tables and plots name a run: ``"astar/blocking"``."""
    return f"{method}/{heuristic}" if heuristic else method


def verify(
    kind: Kind, puzzle: Any, *, request: Request | None = None, limits: Limits | None = None
) -> Verification:
    """Solve by the chosen method and by the kind's reference method, and compare.

    Both runs get the kind's ``verify_options``; together they keep within ``limits`` (the
    reference gets the time the first run left). The reference proves its answer afresh: by
    solving, or by its ``confirm`` (e.g. proving the first answer's cost a bound).

    Raises
    ------
    OptionError
        When the request does not fit, or names the reference method itself.
    """
    request = request or Request()
    request = dataclasses.replace(request, options={**request.options, **kind.verify_options})
    options, puzzle = _shaped(kind, puzzle, request)
    method, heuristic = choose(kind, puzzle, request=request)
    name = kind.reference
    if method.name == name:
        raise OptionError(f"verify checks a method against {name}; pick another --method")
    budget = (limits or Limits()).start(Stats())
    search = _run(kind, puzzle, method, heuristic, options, limits)
    reference = kind.method(name)
    if reference.confirm is not None:
        second = reference.confirm(puzzle, search, options=options, limits=budget.rest())
        second.method, second.heuristic = reference.name, None
    else:
        second = _run(kind, puzzle, reference, None, options, budget.rest())
    agree, problems = agreement(kind, puzzle, search, second)
    return Verification(search, second, agree, problems)


def _unproven(kind: Kind, result: Result[Any]) -> bool:
    """A method that proves optimality stopped (by a limit) before it did."""
    return result.status is Status.SOLVED and kind.method(result.method).optimal is True


def agreement(
    kind: Kind, puzzle: Any, first: Result[Any], second: Result[Any]
) -> tuple[bool | None, list[str]]:
    """Whether two results for one puzzle agree, and every problem found.

    The rules, in order: every solution must pass the kind's ``check``, and no solution may
    cost less than a lower bound the other run proves (``proof["lower_bound"]``), else they
    disagree; a run that ended without settling (a limit, an optimal method's unproven answer,
    an unsettled ``proof["unique"]``) leaves agreement unknown; one finding a solution and the
    other proving none disagree; optimal costs must be equal, and no solution may cost less
    than a proven optimum; two claims of a unique solution must name the same one, and the
    uniqueness verdicts must match.

    Returns
    -------
    tuple of (bool or None, list of str)
    """
    pair = (first, second)
    problems = [
        f"{r.method}: {p}"
        for r in pair
        if r.solution is not None
        for p in kind.check(puzzle, r.solution)
    ]
    problems += _below(first, second.proof.get("lower_bound"), second.method)
    problems += _below(second, first.proof.get("lower_bound"), first.method)
    if problems:
        return False, problems
    unsettled = [
        f"{r.method}" + (f" ({r.message})" if r.message else "")
        for r in pair
        if not (r.status.has_solution or r.status is Status.UNSOLVABLE)
        or _unproven(kind, r)
        or ("unique" in r.proof and r.proof["unique"] is None)
    ]
    if unsettled:
        return None, [f"not settled within the limits: {', '.join(unsettled)}"]
    if first.status.has_solution != second.status.has_solution:
        return False, [f"status differs: {first.status} vs {second.status}"]
    problems = _costs(first, second) + _costs(second, first) + _uniqueness(first, second)
    return not problems, problems


def _below(result: Result[Any], bound: float | None, prover: str) -> list[str]:
    """The problem of ``result``'s solution costing less than a ``bound`` that ``prover``
    proves (none when it has no solution or no bound is known)."""
    if bound is None or not result.status.has_solution or result.stats.cost >= bound:
        return []
    cost = result.stats.cost
    return [f"{result.method} found cost {cost:g}, below the bound {bound:g} {prover} proves"]


def _costs(result: Result[Any], other: Result[Any]) -> list[str]:
    """Problems of ``other``'s cost against the optimum ``result`` proves."""
    if result.status is not Status.OPTIMAL or not other.status.has_solution:
        return []
    if other.status is Status.OPTIMAL and other.stats.cost != result.stats.cost:
        return [f"optimal costs differ: {result.stats.cost:g} by {result.method}, "
                f"{other.stats.cost:g} by {other.method}"]  # fmt: skip
    return _below(other, result.stats.cost, result.method)


def _uniqueness(first: Result[Any], second: Result[Any]) -> list[str]:
    if "unique" not in first.proof or "unique" not in second.proof:
        return []
    if first.proof["unique"] != second.proof["unique"]:
        return [f"uniqueness differs: {first.proof['unique']} vs {second.proof['unique']}"]
    if first.proof["unique"] and first.solution != second.solution:
        return ["both claim a unique solution, but the solutions differ"]
    return []


def comparisons(
    kind: Kind,
    puzzle: Any,
    *,
    methods: Collection[str] | None = None,
    heuristics: Collection[str] | None = None,
) -> list[tuple[str, str | None]]:
    """The (method, heuristic) pairs ``cspsolve compare`` runs on ``puzzle``.

    Every method's :meth:`~cspsolve.kind.Method.comparisons`, kept to ``methods`` and
    ``heuristics`` when given (an uninformed method passes any heuristic filter).

    Raises
    ------
    OptionError
        For a name the kind does not have.
    """
    for what, wanted, known in (
        ("method", methods, kind.method_names),
        ("heuristic", heuristics, kind.heuristic_names),
    ):
        for name in sorted(set(wanted or ()) - set(known)):
            _refuse(kind, what, name, known)
    return [
        (m.name, h)
        for m in kind.methods
        if methods is None or m.name in methods
        for h in m.comparisons(puzzle)
        if heuristics is None or h is None or h in heuristics
    ]


def analyze(
    kind: Kind, puzzle: Any, *, request: Request | None = None, limits: Limits | None = None
) -> dict[str, Any]:
    """Difficulty and structure of ``puzzle`` (the keys of the kind's ``analysis``).

    Raises
    ------
    OptionError
        When the request does not fit the kind or the puzzle.
    """
    request = request or Request()
    options, puzzle = _shaped(kind, puzzle, request)
    return kind.analyze(
        puzzle,
        method=request.method,
        heuristic=request.heuristic,
        options=options,
        limits=limits,
    )


def explain(
    kind: Kind, puzzle: Any, *, request: Request | None = None, limits: Limits | None = None
) -> Explanation:
    """Why the answer to ``puzzle`` holds, step by step (the kind's ``explain``).

    The explanation's result names the method that ran and can draw its solution, as
    :func:`solve`'s does. A run that a limit stopped (or that was cancelled) has no grade:
    ``summary["grade"]`` is ``None``, whatever the kind's explain said.

    Raises
    ------
    OptionError
        When the request does not fit the kind or the puzzle, or the kind explains nothing.
    """
    if kind.explain is None:
        raise OptionError(f"{kind.name} puzzles cannot be explained yet")
    request = request or Request()
    check_names(kind, request)
    options, puzzle = _shaped(kind, puzzle, request)
    explanation = kind.explain(
        puzzle,
        method=request.method,
        heuristic=request.heuristic,
        options=options,
        limits=limits,
    )
    result = explanation.result
    if result.status in (Status.LIMIT, Status.CANCELLED) and "grade" in explanation.summary:
        explanation.summary["grade"] = None  # a stopped run says nothing of the puzzle
    if result.status.has_solution and result.picture is None:
        result.picture = functools.partial(kind.scenes, puzzle, result.solution)
    return explanation
