"""The real URLs plus a /v1 view that crashes, to see what a bug looks like to a client."""

from django.http import HttpRequest, HttpResponse
from django.urls import path

from petstore.urls import urlpatterns as real_urlpatterns


def crash(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug")


urlpatterns = [path("v1/crash", crash), *real_urlpatterns]
