"""A viewset of the tests' own that declares the hooks of ``ConditionalViewSet`` and answers
as DRF's own views do: a ``Response``, rendered on the way out, that varies with a header of its
own. Routed by ``tests/petstore/conditional_urls.py``, which a test names (``pytest.mark.urls``)
rather than imports: the URLs call ``conditional()``, which the mutation run must see called
after the fork (docs/mutation.md)."""

from __future__ import annotations

from dataclasses import dataclass, field

from rest_framework.request import Request
from rest_framework.response import Response

from petstore.callers import Caller, caller
from petstore.scopes import Scope
from petstore.viewsets import ConditionalViewSet, Validators

NOTICE_VERSION = "tests:notice"


@dataclass
class Notice:
    text: str = "Open on Saturday"
    # An account's own notice, in place of the text: an answer that differs by account under
    # versions every account shares.
    own: dict[int, str] = field(default_factory=dict)
    built: int = 0  # how many times its answer was made


notice = Notice()


class NoticeViewSet(ConditionalViewSet):
    required_scopes = {"list": Scope.PETS_READ}

    @staticmethod
    def versions(action: str, caller: Caller) -> Validators:
        return Validators((NOTICE_VERSION,))

    def list(self, request: Request) -> Response:
        notice.built += 1
        text = notice.own.get(caller(request).account_id, notice.text)
        return Response({"notice": text}, headers={"Vary": "Accept-Language"})
