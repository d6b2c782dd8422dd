"""schemathesis reads the app's OpenAPI schema and throws generated requests at every
route: none may answer with a server error."""

from __future__ import annotations

import schemathesis
from fastapi import FastAPI
from hypothesis import HealthCheck, given, settings


def test_no_route_answers_with_a_server_error(app: FastAPI) -> None:
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 10

    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(
            max_examples=25,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def call(case: schemathesis.Case) -> None:
            response = case.call()
            assert response.status_code < 500, (
                case.method,
                case.formatted_path,
                response.text[:300],
            )

        call()
