"""The solver: exact search, fair and all-seeing hints, winnable deals, winnability statistics."""

from .solution import Solution, solve

__all__ = ["Solution", "solve"]
