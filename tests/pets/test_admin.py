"""The shelter staff's animals and categories: adding, moving along the allowed transitions
only, bulk actions, search and filters."""

from __future__ import annotations

from http import HTTPStatus

import pytest
from django.contrib.admin.models import ADDITION, LogEntry

from pets.models import Category, Pet
from store.services import order_place
from tests.admin_pages import form_data, listed, shown_messages

PETS = "/admin/pets/pet/"
CATEGORIES = "/admin/pets/category/"


def change_url(pet: Pet) -> str:
    return f"{PETS}{pet.pk}/change/"


def change_status(staff_client, pet: Pet, status: str):
    form = staff_client.get(change_url(pet))
    return staff_client.post(change_url(pet), form_data(form, status=status))


def status_of(pet: Pet) -> str:
    pet.refresh_from_db()
    return pet.status


def bulk(staff_client, action: str, pets: list[Pet]):
    return staff_client.post(
        PETS,
        {"action": action, "_selected_action": [pet.pk for pet in pets], "index": 0},
        follow=True,
    )


@pytest.fixture
def on_order(make_account, make_pet) -> Pet:
    """An animal held by an open adoption order."""
    pet = make_pet(name="Held")
    order_place(account_id=make_account().pk, pet_id=pet.pk)
    return pet


def test_shelter_staff_add_an_animal(staff_client, shelter_staff, dog):
    response = staff_client.post(
        f"{PETS}add/", {"name": "Biscuit", "category": dog.pk, "status": "available"}
    )

    assert response.status_code == HTTPStatus.FOUND
    pet = Pet.objects.get()
    assert (pet.name, pet.category, pet.status) == ("Biscuit", dog, "available")
    entry = LogEntry.objects.get(object_id=str(pet.pk))
    assert (entry.user, entry.action_flag) == (shelter_staff, ADDITION)


def test_the_animal_list_shows_name_category_status_and_created(staff_client, make_pet):
    make_pet(name="Rex")

    html = staff_client.get(PETS).content.decode()

    for column in ("pet_name", "status", "category_name", "created"):
        assert f'class="field-{column}' in html
    assert "Rex" in html


def test_an_allowed_status_change_is_saved(staff_client, make_pet):
    pet = make_pet(status="available")

    response = change_status(staff_client, pet, "pending")

    assert response.status_code == HTTPStatus.FOUND
    assert status_of(pet) == "pending"


@pytest.mark.parametrize(
    ("current", "wanted"), [("sold", "available"), ("sold", "pending"), ("available", "sold")]
)
def test_a_disallowed_status_change_is_a_form_error(staff_client, make_pet, current, wanted):
    pet = make_pet(name="Rex", status=current)

    response = change_status(staff_client, pet, wanted)

    assert response.status_code == HTTPStatus.OK
    errors = response.context["adminform"].form.errors
    assert errors["status"] == [f"Rex cannot go from {current} to {wanted}."]
    assert status_of(pet) == current


def test_other_fields_of_a_sold_animal_can_still_change(staff_client, make_pet):
    pet = make_pet(name="Rex", status="sold")
    form = staff_client.get(change_url(pet))

    response = staff_client.post(change_url(pet), form_data(form, name="Rex the Second"))

    assert response.status_code == HTTPStatus.FOUND
    pet.refresh_from_db()
    assert (pet.name, pet.status) == ("Rex the Second", "sold")


def test_an_animal_on_order_cannot_be_made_available_by_the_form(staff_client, on_order):
    response = change_status(staff_client, on_order, "available")

    assert response.status_code == HTTPStatus.OK
    (error,) = response.context["adminform"].form.errors["status"]
    assert "open adoption order" in error
    assert status_of(on_order) == "pending"


def test_an_animal_on_order_cannot_be_made_available_in_bulk(staff_client, on_order):
    response = bulk(staff_client, "mark_available", [on_order])

    assert response.status_code == HTTPStatus.OK
    (message,) = shown_messages(response)
    assert "Held has an open adoption order" in message
    assert status_of(on_order) == "pending"


def test_marking_pending_in_bulk_moves_only_those_allowed(staff_client, make_pet):
    available = make_pet(name="Rex", status="available")
    sold = make_pet(name="Old Tom", status="sold")

    response = bulk(staff_client, "mark_pending", [available, sold])

    assert (status_of(available), status_of(sold)) == ("pending", "sold")
    assert sorted(shown_messages(response)) == [
        "1 animal(s) marked pending.",
        "Old Tom cannot go from sold to pending.",
    ]


def test_marking_available_in_bulk_moves_only_those_allowed(staff_client, make_pet, on_order):
    pending = make_pet(name="Back", status="pending")
    sold = make_pet(name="Gone", status="sold")

    response = bulk(staff_client, "mark_available", [pending, sold, on_order])

    assert [status_of(p) for p in (pending, sold, on_order)] == ["available", "sold", "pending"]
    messages = shown_messages(response)
    assert "1 animal(s) marked available." in messages
    assert "Gone cannot go from sold to available." in messages
    assert any("Held has an open adoption order" in m for m in messages)
    assert len(messages) == 3


def test_marking_an_animal_with_its_current_status_changes_and_logs_nothing(staff_client, make_pet):
    pet = make_pet(status="pending")

    response = bulk(staff_client, "mark_pending", [pet])

    assert status_of(pet) == "pending"
    assert shown_messages(response) == []
    assert not LogEntry.objects.exists()


def test_animals_are_searched_by_name(staff_client, make_pet):
    rex = make_pet(name="Rex")
    make_pet(name="Tom")

    assert listed(staff_client.get(PETS, {"q": "rex"})) == [rex]


def test_animals_are_filtered_by_status_and_category(staff_client, make_pet, cat):
    make_pet(name="Rex", status="available")
    sold_dog = make_pet(name="Fido", status="sold")
    sold_cat = make_pet(name="Tom", status="sold", category=cat)

    assert listed(staff_client.get(PETS, {"status__exact": "sold"})) == [sold_dog, sold_cat]
    assert listed(staff_client.get(PETS, {"category__id__exact": cat.pk})) == [sold_cat]
    both = staff_client.get(PETS, {"status__exact": "sold", "category__id__exact": cat.pk})
    assert listed(both) == [sold_cat]


def test_shelter_staff_add_a_category(staff_client):
    response = staff_client.post(
        f"{CATEGORIES}add/", {"name": "Rabbit", "description": "Long ears"}
    )

    assert response.status_code == HTTPStatus.FOUND
    assert Category.objects.get().description == "Long ears"


@pytest.mark.parametrize("name", ["dog", "DOG", "Dog"])
def test_category_names_are_unique_whatever_the_case(staff_client, dog, name):
    response = staff_client.post(f"{CATEGORIES}add/", {"name": name, "description": ""})

    assert response.status_code == HTTPStatus.OK
    form = response.context["adminform"].form
    assert "There is already a category with this name." in str(form.errors)
    assert list(Category.objects.all()) == [dog]
