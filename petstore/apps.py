from django.apps import AppConfig


class PetstoreConfig(AppConfig):
    name = "petstore"
    verbose_name = "Pet store"
