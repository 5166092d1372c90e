"""Domains of CSP variables: the :class:`Domain` protocol and :class:`ExplicitDomain`.

A domain is immutable. Propagation replaces a variable's domain by a smaller one; search
branches by *domain splitting* (Poole & Mackworth, *Artificial Intelligence: Foundations of
Computational Agents*, 3rd ed., §4.6): a domain of two or more values is cut into parts that
together hold every value.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Iterator, Sequence
from typing import Any, Protocol, runtime_checkable

__all__ = ["Domain", "ExplicitDomain", "log_size"]


@runtime_checkable
class Domain(Protocol):
    """What the engine needs of a domain; explicit (a list of values) or implicit."""

    def __contains__(self, value: object) -> bool:
        """True when ``value`` is in the domain."""
        ...

    def is_empty(self) -> bool:
        """True when no value is left (a *wipe-out*)."""
        ...

    def size(self) -> int:
        """Number of values (may be astronomically large for implicit domains)."""
        ...

    def split(self) -> Sequence[Domain]:
        """Cut a domain of two or more values into non-empty parts, in the order to try them."""
        ...

    def value(self) -> Any:
        """The single value of a domain of size one.

        Raises
        ------
        ValueError
            If the domain does not hold exactly one value.
        """
        ...


def log_size(domain: Domain) -> float:
    """Return ``log2(domain.size())``: the bits of uncertainty left in a domain (0 when fixed)."""
    n = domain.size()
    return math.log2(n) if n > 1 else 0.0


class ExplicitDomain:
    """A finite domain listed value by value, in the order search tries them.

    Parameters
    ----------
    values : iterable of hashable
        The values; duplicates are dropped, the first occurrence keeps its place.
    """

    __slots__ = ("_set", "values")

    def __init__(self, values: Iterable[Hashable]) -> None:
        self.values: tuple[Hashable, ...] = tuple(dict.fromkeys(values))
        self._set = frozenset(self.values)

    def __contains__(self, value: object) -> bool:
        return value in self._set

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self.values)

    def __len__(self) -> int:
        return len(self.values)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ExplicitDomain) and self._set == other._set

    def __hash__(self) -> int:
        return hash(self._set)

    def __repr__(self) -> str:
        return f"ExplicitDomain({list(self.values)!r})"

    def is_empty(self) -> bool:
        """True when no value is left."""
        return not self.values

    def size(self) -> int:
        """Number of values."""
        return len(self.values)

    def split(self) -> list[ExplicitDomain]:
        """One part per value (d-way branching), in the domain's order."""
        return [ExplicitDomain((v,)) for v in self.values]

    def value(self) -> Hashable:
        """The single value.

        Raises
        ------
        ValueError
            If the domain does not hold exactly one value.
        """
        if len(self.values) != 1:
            raise ValueError(f"domain has {len(self.values)} values, not 1")
        return self.values[0]

    def keep(self, values: Iterable[Hashable]) -> ExplicitDomain:
        """Return the domain restricted to ``values`` (``self`` when nothing is removed)."""
        allowed = set(values)
        kept = [v for v in self.values if v in allowed]
        return self if len(kept) == len(self.values) else ExplicitDomain(kept)
