from django.apps import AppConfig


class ApikeysConfig(AppConfig):
    name = "apikeys"
    verbose_name = "API keys and plans"

    def ready(self) -> None:
        # Registers the check and the receivers (the key cache's invalidation, CORS per key).
        from apikeys import checks, cors, signals  # noqa: F401
