"""The shared engine: cards, shuffles, histories and the protocol every game's rules follow.

Pure Python, no I/O, no web, no database, no clock. Each game's own rules live in its
package (:mod:`app.games`).
"""
