from django.urls import path

from events.views import EventViewSet
from petstore.conditional import conditional

urlpatterns = [
    path("events", conditional(EventViewSet, {"get": "list"}), name="event-list"),
]
