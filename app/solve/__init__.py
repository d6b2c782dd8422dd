"""Solvers and hints, on top of the rules engine only."""
