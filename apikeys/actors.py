"""Who acts in a request, as the trail names them, and from which address."""

from __future__ import annotations

from django.http import HttpRequest
from rest_framework.request import Request

from apikeys.admission.result import admission_of
from audit.services import Actor
from petstore.addresses import client_address


def actor_of(request: HttpRequest | Request) -> Actor:
    """``key:<prefix>`` for a request admitted with an API key, the username of a signed-in
    staff member, otherwise ``anonymous``; and the client's address."""
    address = client_address(request)
    admission = admission_of(request)
    if admission is not None and admission.key is not None:
        return Actor(f"key:{admission.key_prefix}", address)
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and getattr(user, "is_staff", False):
        return Actor(user.get_username(), address)
    return Actor("anonymous", address)
