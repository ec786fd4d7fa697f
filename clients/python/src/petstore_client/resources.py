"""The API as resources and methods (``petstore.pets.list()``, ``petstore.orders.place()``), over
the generated calls: each returns its answer's model, and every error answer raises."""

from __future__ import annotations

import builtins
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from typing import Any, TypeVar

from .calls import (
    Event,
    LatestLimit,
    Pages,
    events,
    first,
    given,
    ids,
    model,
    models,
    nothing,
    operation,
)
from .generated import AuthenticatedClient
from .generated.api.animals import create_pet, list_pets
from .generated.api.categories import create_category, get_category, list_categories
from .generated.api.events import list_events
from .generated.api.orders import cancel_order, get_order, list_orders, place_order
from .generated.api.rate_limits import get_rate_limit
from .generated.api.usage import get_usage
from .generated.api.webhooks import (
    create_webhook_endpoint,
    delete_webhook_endpoint,
    get_webhook_endpoint,
    list_webhook_deliveries,
    list_webhook_endpoints,
    recover_webhook_endpoint,
    retry_webhook_delivery,
    rotate_webhook_endpoint_secret,
    test_webhook_endpoint,
    update_webhook_endpoint,
)
from .generated.models import (
    Category,
    CreatedEndpoint,
    Delivery,
    Endpoint,
    EventType,
    ListOrdersStatus,
    ListPetsStatus,
    ListWebhookDeliveriesState,
    NewCategory,
    NewEndpoint,
    NewOrder,
    NewPet,
    Order,
    PatchedEndpointChanges,
    Pet,
    PetStatus,
    Recovered,
    Recovery,
    RotatedSecret,
    SecretRotation,
    TestSend,
    UsageDay,
)
from .generated.models import RateLimit as Limits
from .generated.types import Response
from .transport import SdkTransport

T = TypeVar("T")


class Resource:
    def __init__(self, client: AuthenticatedClient) -> None:
        self._client = client

    def _walk(
        self,
        call: Callable[..., Response[Any]],
        read: Callable[[Response[Any]], builtins.list[T]],
        arguments: dict[str, Any],
        every: float | None = None,
    ) -> Iterator[T]:
        pages = Pages(following=every is not None)
        while True:
            response = call(client=self._client, cursor=pages.cursor, **arguments)
            items = read(response)
            yield from items
            if not pages.turn(response, len(items)):
                return
            if not items and every is not None:
                time.sleep(every)


class Pets(Resource):
    @operation("listPets")
    def list(
        self,
        *,
        status: ListPetsStatus | str | None = None,
        category_id: int | Sequence[int] | None = None,
        name: str | None = None,
        breed: str | None = None,
        limit: int | None = None,
    ) -> Iterator[Pet]:
        """Every animal that matches, each page asked for when the loop reaches it (``limit``:
        a page's size)."""
        arguments = given(
            status=status, category_id=ids(category_id), name=name, breed=breed, limit=limit
        )
        return self._walk(list_pets.sync_detailed, lambda answer: models(answer, Pet), arguments)

    @operation("listPets")
    def get(self, pet_id: int) -> Pet:
        """One animal, by ``listPets``' ``id`` filter (``getPet`` is deprecated)."""
        answer = list_pets.sync_detailed(client=self._client, id=[pet_id])
        return first(models(answer, Pet), answer, f"pet with id {pet_id}")

    @operation("createPet")
    def create(
        self,
        *,
        name: str,
        category_id: int,
        status: PetStatus | str | None = None,
        breed: str | None = None,
        idempotency_key: str | None = None,
    ) -> Pet:
        body = NewPet(name=name, category_id=category_id, **given(status=status, breed=breed))
        answer = create_pet.sync_detailed(
            client=self._client, body=body, **given(idempotency_key=idempotency_key)
        )
        return model(answer, Pet)


class Categories(Resource):
    @operation("listCategories")
    def list(self) -> builtins.list[Category]:
        return models(list_categories.sync_detailed(client=self._client), Category)

    @operation("getCategory")
    def get(self, category_id: int) -> Category:
        return model(get_category.sync_detailed(category_id, client=self._client), Category)

    @operation("createCategory")
    def create(
        self, *, name: str, description: str | None = None, idempotency_key: str | None = None
    ) -> Category:
        body = NewCategory(name=name, **given(description=description))
        answer = create_category.sync_detailed(
            client=self._client, body=body, **given(idempotency_key=idempotency_key)
        )
        return model(answer, Category)


class Orders(Resource):
    @operation("placeOrder")
    def place(self, *, pet_id: int, idempotency_key: str | None = None) -> Order:
        answer = place_order.sync_detailed(
            client=self._client,
            body=NewOrder(pet_id=pet_id),
            **given(idempotency_key=idempotency_key),
        )
        return model(answer, Order)

    @operation("getOrder")
    def get(self, order_id: int) -> Order:
        return model(get_order.sync_detailed(order_id, client=self._client), Order)

    @operation("listOrders")
    def list(
        self, *, status: ListOrdersStatus | str | None = None, limit: int | None = None
    ) -> Iterator[Order]:
        """The account's orders, every page."""
        arguments = given(status=status, limit=limit)
        return self._walk(
            list_orders.sync_detailed, lambda answer: models(answer, Order), arguments
        )

    @operation("cancelOrder")
    def cancel(self, order_id: int) -> None:
        nothing(cancel_order.sync_detailed(order_id, client=self._client))


class Events(Resource):
    @operation("listEvents")
    def list(
        self, *, types: Sequence[EventType | str] | None = None, limit: int | None = None
    ) -> Iterator[Event]:
        """The feed's events, oldest first, to its end."""
        arguments = given(type_=_listed(types), limit=limit)
        return self._walk(list_events.sync_detailed, events, arguments)

    @operation("listEvents")
    def follow(
        self,
        *,
        types: Sequence[EventType | str] | None = None,
        limit: int | None = None,
        every: float = 5.0,
    ) -> Iterator[Event]:
        """The feed as it grows: at its end, asked again every ``every`` seconds (with the cache
        on, a ``304`` spends nothing of the day). Never ends: break out of it."""
        arguments = given(type_=_listed(types), limit=limit)
        return self._walk(list_events.sync_detailed, events, arguments, every=every)


class WebhookDeliveries(Resource):
    @operation("listWebhookDeliveries")
    def list(
        self,
        endpoint_id: int,
        *,
        state: ListWebhookDeliveriesState | str | None = None,
        limit: int | None = None,
    ) -> Iterator[Delivery]:
        """The endpoint's deliveries, newest first, every page."""
        arguments = given(endpoint_id=endpoint_id, state=state, limit=limit)
        return self._walk(
            list_webhook_deliveries.sync_detailed,
            lambda answer: models(answer, Delivery),
            arguments,
        )

    @operation("retryWebhookDelivery")
    def retry(self, endpoint_id: int, delivery_id: int) -> Delivery:
        answer = retry_webhook_delivery.sync_detailed(endpoint_id, delivery_id, client=self._client)
        return model(answer, Delivery)


class WebhookEndpoints(Resource):
    def __init__(self, client: AuthenticatedClient) -> None:
        super().__init__(client)
        self.deliveries = WebhookDeliveries(client)

    @operation("listWebhookEndpoints")
    def list(self) -> builtins.list[Endpoint]:
        return models(list_webhook_endpoints.sync_detailed(client=self._client), Endpoint)

    @operation("createWebhookEndpoint")
    def create(
        self, *, url: str, events: Sequence[EventType | str], description: str | None = None
    ) -> CreatedEndpoint:
        """A new endpoint, with its ``secret``: shown this once."""
        body = NewEndpoint(url=url, **given(events=_listed(events), description=description))
        answer = create_webhook_endpoint.sync_detailed(client=self._client, body=body)
        return model(answer, CreatedEndpoint)

    @operation("getWebhookEndpoint")
    def get(self, endpoint_id: int) -> Endpoint:
        answer = get_webhook_endpoint.sync_detailed(endpoint_id, client=self._client)
        return model(answer, Endpoint)

    @operation("updateWebhookEndpoint")
    def update(
        self,
        endpoint_id: int,
        *,
        url: str | None = None,
        events: Sequence[EventType | str] | None = None,
        description: str | None = None,
        enabled: bool | None = None,
    ) -> Endpoint:
        changes = PatchedEndpointChanges(
            **given(url=url, events=_listed(events), description=description, enabled=enabled)
        )
        answer = update_webhook_endpoint.sync_detailed(
            endpoint_id, client=self._client, body=changes
        )
        return model(answer, Endpoint)

    @operation("deleteWebhookEndpoint")
    def delete(self, endpoint_id: int) -> None:
        nothing(delete_webhook_endpoint.sync_detailed(endpoint_id, client=self._client))

    @operation("rotateWebhookEndpointSecret")
    def rotate_secret(
        self, endpoint_id: int, *, expire_current_in_seconds: int | None = None
    ) -> RotatedSecret:
        """A new secret; the current one keeps signing beside it for
        ``expire_current_in_seconds`` (the service's default unless given)."""
        body = SecretRotation(**given(expire_current_in_seconds=expire_current_in_seconds))
        answer = rotate_webhook_endpoint_secret.sync_detailed(
            endpoint_id, client=self._client, body=body
        )
        return model(answer, RotatedSecret)

    @operation("testWebhookEndpoint")
    def test(self, endpoint_id: int, *, event_type: EventType | str) -> Delivery:
        """A signed example event of ``event_type``, sent to the endpoint."""
        body = TestSend(**given(type_=event_type))
        answer = test_webhook_endpoint.sync_detailed(endpoint_id, client=self._client, body=body)
        return model(answer, Delivery)

    @operation("recoverWebhookEndpoint")
    def recover(self, endpoint_id: int, *, since: datetime) -> Recovered:
        """The deliveries that failed since ``since``, sent again."""
        answer = recover_webhook_endpoint.sync_detailed(
            endpoint_id, client=self._client, body=Recovery(since=since)
        )
        return model(answer, Recovered)


class RateLimit(Resource, LatestLimit):
    """``get()`` asks the service for the plan, every window and any ban; ``limit``,
    ``remaining`` and ``reset`` are the latest answer's headers, read without a call."""

    def __init__(self, client: AuthenticatedClient, transport: SdkTransport) -> None:
        Resource.__init__(self, client)
        LatestLimit.__init__(self, transport)

    @operation("getRateLimit")
    def get(self) -> Limits:
        return model(get_rate_limit.sync_detailed(client=self._client), Limits)


class Usage(Resource):
    @operation("getUsage")
    def get(self, *, days: int | None = None) -> builtins.list[UsageDay]:
        """The account's use, a day at a time, oldest first (``days``: how many, to today)."""
        answer = get_usage.sync_detailed(client=self._client, **given(days=days))
        return models(answer, UsageDay)


def _listed(values: Sequence[EventType | str] | None) -> builtins.list[EventType | str] | None:
    return None if values is None else list(values)
