"""A partner's program that calls every method of both clients: `make lint` checks it with
`mypy --strict` (no cast, no ignore), and test_resources.py runs it against the service."""

from __future__ import annotations

from contextlib import suppress
from datetime import UTC, datetime, timedelta
from itertools import islice

from petstore_client import AsyncPetstore, ConflictError, Event, NotFoundError, Petstore
from petstore_client.generated.models import (
    EventType,
    ListPetsStatus,
    OrderStatus,
    PetCreatedEvent,
    PetStatus,
    UnknownEvent,
    WindowName,
)


def every_method(petstore: Petstore, hook_url: str) -> list[str]:
    """Each method once; what it saw, a line each."""
    seen: list[str] = []
    category = petstore.categories.create(name="Typed", description="made by typed_program.py")
    assert category.id == petstore.categories.get(category.id).id
    assert category.id in [each.id for each in petstore.categories.list()]

    pet = petstore.pets.create(name="Typo", category_id=category.id, status="available")
    assert (
        petstore.pets.create(name="Typo 2", category_id=category.id).status is PetStatus.AVAILABLE
    )
    assert petstore.pets.get(pet.id).name == "Typo"
    try:
        petstore.pets.get(pet.id + 1_000_000)
    except NotFoundError as error:
        seen.append(f"not found: {error.code}")
    by_string = [p.id for p in petstore.pets.list(status="available", category_id=category.id)]
    by_member = list(petstore.pets.list(status=ListPetsStatus.AVAILABLE, category_id=[category.id]))
    assert by_string == [p.id for p in by_member]
    named = list(petstore.pets.list(name="Typo 2", limit=1))
    seen.append(f"pets: {len(by_string)}, named: {len(named)}")

    order = petstore.orders.place(pet_id=pet.id)
    assert petstore.orders.get(order.id).status == OrderStatus.PENDING
    assert order.id in [each.id for each in petstore.orders.list(status="pending")]
    petstore.orders.cancel(order.id)
    seen.append(f"order: {petstore.orders.get(order.id).status}")

    feed: list[Event] = list(islice(petstore.events.list(types=["pet.created"]), 3))
    followed = next(petstore.events.follow(types=[EventType.PET_CREATED], every=0.2))
    names = [event.data.name for event in feed if isinstance(event, PetCreatedEvent)]
    unknown = [event.type_ for event in feed if isinstance(event, UnknownEvent)]
    seen.append(f"events: {len(names)} pet.created, {len(unknown)} unknown, then {followed.id}")

    created = petstore.webhook_endpoints.create(url=hook_url, events=["pet.created"])
    endpoint_id = created.id
    assert created.secret.startswith("whsec_")
    assert petstore.webhook_endpoints.get(endpoint_id).url == hook_url
    assert endpoint_id in [each.id for each in petstore.webhook_endpoints.list()]
    updated = petstore.webhook_endpoints.update(endpoint_id, description="typed", enabled=True)
    assert updated.description == "typed"
    rotated = petstore.webhook_endpoints.rotate_secret(endpoint_id, expire_current_in_seconds=0)
    assert rotated.secret != created.secret
    sent = petstore.webhook_endpoints.test(endpoint_id, event_type="pet.created")
    with suppress(ConflictError):  # still being sent: nothing to retry yet
        petstore.webhook_endpoints.deliveries.retry(endpoint_id, sent.id)
    deliveries = list(petstore.webhook_endpoints.deliveries.list(endpoint_id, state="pending"))
    since = datetime.now(tz=UTC) - timedelta(hours=1)
    recovered = petstore.webhook_endpoints.recover(endpoint_id, since=since)
    petstore.webhook_endpoints.delete(endpoint_id)
    seen.append(f"webhooks: {len(deliveries)} pending, {recovered.requeued} requeued")

    limits = petstore.rate_limit.get()
    minute = [w.remaining for w in limits.windows if w.name == WindowName.MINUTE]
    days = petstore.usage.get(days=2)
    seen.append(f"limits: {minute}, headers {petstore.rate_limit.remaining}, usage {len(days)}")
    return seen


async def every_async_method(petstore: AsyncPetstore, hook_url: str) -> list[str]:
    """Each method of AsyncPetstore once; what it saw, a line each."""
    seen: list[str] = []
    category = await petstore.categories.create(name="Typed async")
    assert category.id == (await petstore.categories.get(category.id)).id
    assert category.id in [each.id for each in await petstore.categories.list()]

    pet = await petstore.pets.create(name="Atypo", category_id=category.id, status="available")
    await petstore.pets.create(name="Atypo 2", category_id=category.id)
    assert (await petstore.pets.get(pet.id)).name == "Atypo"
    ids = [p.id async for p in petstore.pets.list(status="available", category_id=category.id)]
    assert len(ids) == 2
    seen.append(f"pets: {len(ids)}")

    order = await petstore.orders.place(pet_id=pet.id)
    assert (await petstore.orders.get(order.id)).status == OrderStatus.PENDING
    assert order.id in [each.id async for each in petstore.orders.list(status="pending")]
    await petstore.orders.cancel(order.id)
    seen.append(f"order: {(await petstore.orders.get(order.id)).status}")

    async for event in petstore.events.list(types=["pet.created"], limit=2):
        seen.append(f"event: {event.type_}")
        break
    async for event in petstore.events.follow(types=["pet.created"], every=0.2):
        seen.append(f"followed: {event.type_}")
        break

    created = await petstore.webhook_endpoints.create(url=hook_url, events=["pet.created"])
    assert (await petstore.webhook_endpoints.get(created.id)).url == hook_url
    assert created.id in [each.id for each in await petstore.webhook_endpoints.list()]
    await petstore.webhook_endpoints.update(created.id, events=[EventType.PET_CREATED])
    await petstore.webhook_endpoints.rotate_secret(created.id)
    sent = await petstore.webhook_endpoints.test(created.id, event_type=EventType.PET_CREATED)
    with suppress(ConflictError):  # still being sent: nothing to retry yet
        await petstore.webhook_endpoints.deliveries.retry(created.id, sent.id)
    deliveries = [d.id async for d in petstore.webhook_endpoints.deliveries.list(created.id)]
    since = datetime.now(tz=UTC) - timedelta(hours=1)
    await petstore.webhook_endpoints.recover(created.id, since=since)
    await petstore.webhook_endpoints.delete(created.id)
    seen.append(f"webhooks: {len(deliveries)} deliveries")

    limits = await petstore.rate_limit.get()
    days = await petstore.usage.get(days=1)
    seen.append(f"limits: {len(limits.windows)} windows, usage {len(days)}")
    return seen
