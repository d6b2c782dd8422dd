"""The ASGI application: ``uvicorn app.main:app``."""

from app.web import create_app

app = create_app()
