from django.apps import AppConfig


class ApikeysConfig(AppConfig):
    name = "apikeys"
    verbose_name = "API keys and plans"
