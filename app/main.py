"""The ASGI application: ``uvicorn app.main:app`` (``solitaire serve`` runs it).

The serving process tunes Python's garbage collector once its code is loaded
(:func:`app.serving.tune_collector`); the tests and the command line keep Python's defaults.
"""

from app.serving import tune_collector
from app.web import create_app

app = create_app()
tune_collector()
