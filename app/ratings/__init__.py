"""Ratings: the Glicko-2 system, pure (no I/O, no clock), used by :mod:`app.service.ratings`."""
