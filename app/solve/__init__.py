"""What every game's solver shares: a memory of recent answers and searches.

Each game's solver and hints live in its package (:mod:`app.games`); the process pool that
runs them apart from the request path is the service's (:mod:`app.service.solvers`).
"""
