from django.apps import AppConfig


class PetsConfig(AppConfig):
    name = "pets"
    verbose_name = "Animals"

    def ready(self) -> None:
        from pets import signals  # noqa: F401  (connects them)
