"""A viewset of the tests' own that declares the hooks of ``ConditionalViewSet`` and answers
as DRF's own views do: a ``Response``, rendered on the way out, that varies with a header of its
own. Routed by ``tests/petstore/conditional_urls.py``, which a test names (``pytest.mark.urls``)
rather than imports: the URLs call ``conditional()``, which the mutation run must see called
after the fork (docs/mutation.md)."""

from __future__ import annotations

from dataclasses import dataclass

from rest_framework.request import Request
from rest_framework.response import Response

from petstore.callers import Caller
from petstore.scopes import Scope
from petstore.viewsets import ConditionalViewSet, Validators

NOTICE_VERSION = "tests:notice"


@dataclass
class Notice:
    text: str = "Open on Saturday"
    built: int = 0  # how many times its answer was made


notice = Notice()


class NoticeViewSet(ConditionalViewSet):
    required_scopes = {"list": Scope.PETS_READ}

    @staticmethod
    def versions(action: str, caller: Caller) -> Validators:
        return Validators((NOTICE_VERSION,))

    def list(self, request: Request) -> Response:
        notice.built += 1
        return Response({"notice": notice.text}, headers={"Vary": "Accept-Language"})
