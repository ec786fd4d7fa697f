"""The API's URLs plus the tests' own conditional viewset (``tests/petstore/notice.py``)."""

from __future__ import annotations

from django.urls import include, path

from petstore.conditional import conditional
from tests.petstore.notice import NoticeViewSet

urlpatterns = [
    path("v1/notice", conditional(NoticeViewSet, {"get": "list"})),
    path("", include("petstore.urls")),
]
