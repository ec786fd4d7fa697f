"""The event an endpoint's disabling writes, by one function here, in the change's transaction
(``events.services.event_record``): the account's own, seen by its secret keys with
``webhooks:read`` and sent to its other endpoints that list it."""

from __future__ import annotations

from events.models import Event
from events.services import event_record
from events.types import EventType
from webhooks.models import Endpoint
from webhooks.serializers import EndpointSerializer


def endpoint_disabled(endpoint: Endpoint) -> Event:
    return event_record(
        EventType.WEBHOOK_ENDPOINT_DISABLED,
        dict(EndpointSerializer(endpoint).data),
        account_id=endpoint.account_id,
    )
