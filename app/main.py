"""The ASGI application: ``uvicorn app.main:app`` (``solitaire serve`` runs it).

The serving process is tuned once its code is loaded (its garbage collector and log records:
:func:`app.serving.tune_for_serving`); the tests and the command line keep Python's defaults.
"""

from app.serving import tune_for_serving
from app.web import create_app

app = create_app()
tune_for_serving()
