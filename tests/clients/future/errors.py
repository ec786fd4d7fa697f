"""An error code added as a later 1.x may add one: a refused order for an animal someone else
holds says so more precisely than ``conflict``, at the same status."""

from __future__ import annotations

from typing import Any

from rest_framework.response import Response

from petstore import errors
from petstore.exceptions import Conflict
from store.views import OrderViewSet
from tests.clients.future.settings import ADDED_CODE


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
    response = errors.exception_handler(exc, context)
    if isinstance(exc, Conflict) and isinstance(context.get("view"), OrderViewSet):
        response.data = {**response.data, "code": ADDED_CODE}
    return response
