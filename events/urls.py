from django.urls import path

from events.views import EventViewSet
from petstore.conditional import conditional

urlpatterns = [
    path("events", conditional(EventViewSet.as_view({"get": "list"})), name="event-list"),
]
