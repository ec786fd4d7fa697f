"""manage.py seed_demo: demo categories and animals, idempotent."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from pets.models import Category, Pet


@pytest.mark.django_db
def test_it_seeds_the_demo_categories_and_animals():
    call_command("seed_demo", stdout=StringIO())

    assert sorted(Category.objects.values_list("name", flat=True)) == [
        "Bird",
        "Cat",
        "Dog",
        "Rabbit",
    ]
    assert Pet.objects.count() >= 4
    for category in Category.objects.all():
        assert category.description
        assert category.pets.exists(), category.name
    assert set(Pet.objects.values_list("status", flat=True)) == {"available", "pending", "sold"}


@pytest.mark.django_db
def test_it_adds_nothing_when_run_twice():
    call_command("seed_demo", stdout=StringIO())
    categories = list(Category.objects.values_list("id", "name", "description"))
    pets = list(Pet.objects.values_list("id", "name", "category_id", "status"))

    out = StringIO()
    call_command("seed_demo", stdout=out)

    assert list(Category.objects.values_list("id", "name", "description")) == categories
    assert list(Pet.objects.values_list("id", "name", "category_id", "status")) == pets
    assert "0 animals added" in out.getvalue()


@pytest.mark.django_db
def test_it_keeps_animals_that_were_already_there(dog):
    Pet.objects.create(name="Rex", category=dog, status="sold")

    call_command("seed_demo", stdout=StringIO())

    assert Category.objects.filter(name="Dog").count() == 1
    assert Pet.objects.get(name="Rex").status == "sold"
