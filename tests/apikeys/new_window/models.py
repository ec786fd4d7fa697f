"""The window's limit on Plan and Account, as a newcomer declares it in
apikeys/models/accounts.py: added to those models here, so that only this app's tests see it."""

from django.db import models

from apikeys.models import Account, Plan
from tests.apikeys.new_window.settings import QUARTER

Plan.add_to_class(QUARTER.plan_field, models.PositiveIntegerField(null=True, blank=True))
Account.add_to_class(
    QUARTER.custom_field,
    models.PositiveIntegerField(
        null=True, blank=True, help_text="Enterprise only: requests per quarter_hour."
    ),
)
