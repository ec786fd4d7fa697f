from django.urls import path

from events.views import EventViewSet

urlpatterns = [
    path("events", EventViewSet.as_view({"get": "list"}), name="event-list"),
]
