"""The ASGI application: ``uvicorn app.main:app`` (``solitaire serve`` runs it).

The serving process tunes Python's garbage collector once its code is loaded: everything
made at start-up (modules, routes, templates, catalogues) is frozen out of the collector's
scans, and the young generation is collected every 20,000 allocations instead of 700, so a
full collection comes rarely and walks only what requests made. Under load the moves' p99
went from 66 ms to 43 ms (bench/load.py, README). Only the served process does this: the
tests and the command line keep Python's defaults.
"""

import gc
from typing import Final

from app.web import create_app

GC_THRESHOLDS: Final = (20_000, 50, 100)

app = create_app()

gc.collect()
gc.freeze()
gc.set_threshold(*GC_THRESHOLDS)
