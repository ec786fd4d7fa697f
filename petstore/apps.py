from django.apps import AppConfig


class PetstoreConfig(AppConfig):
    name = "petstore"
    verbose_name = "Pet store"

    def ready(self) -> None:
        from petstore import admin_middleware  # noqa: F401  (registers its system check)
