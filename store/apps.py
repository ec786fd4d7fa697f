from django.apps import AppConfig


class StoreConfig(AppConfig):
    name = "store"
    verbose_name = "Adoption orders"
