from django.apps import AppConfig


class ApikeysConfig(AppConfig):
    name = "apikeys"
    verbose_name = "API keys and plans"

    def ready(self) -> None:
        from apikeys import checks, signals  # noqa: F401  (registers the check and receivers)
