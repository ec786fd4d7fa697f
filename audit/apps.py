from django.apps import AppConfig


class AuditConfig(AppConfig):
    name = "audit"
    verbose_name = "Audit trail"

    def ready(self) -> None:
        # Records the staff's sign-ins and failed sign-ins.
        from audit import signals  # noqa: F401
