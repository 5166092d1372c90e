"""Puzzle models for cspsolve, one package per puzzle kind (installed as ``cspsolve.models``)."""
