"""The constraint engine: domains, constraints, the constraint graph, GAC, MAC and GAC + A*.

Adapters hand explicit CSPs to other solvers: :mod:`cspsolve.csp.python_constraint`
(python-constraint2) and :mod:`cspsolve.csp.cpsat` (OR-Tools CP-SAT); they import those
libraries only when called.
"""

from cspsolve.csp.domains import Domain, ExplicitDomain, log_size
from cspsolve.csp.gac import propagate
from cspsolve.csp.model import CSP, Constraint, Domains, Relation
from cspsolve.csp.search import Assignment, gac_astar, mac, select_variable

__all__ = [
    "CSP",
    "Assignment",
    "Constraint",
    "Domain",
    "Domains",
    "ExplicitDomain",
    "Relation",
    "gac_astar",
    "log_size",
    "mac",
    "propagate",
    "select_variable",
]
