from django.apps import AppConfig


class StoreConfig(AppConfig):
    name = "store"
    verbose_name = "Adoption orders"

    def ready(self) -> None:
        from store import signals  # noqa: F401  (connects them)
