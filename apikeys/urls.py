from django.urls import path

from apikeys.views import RateLimitViewSet, UsageViewSet

urlpatterns = [
    path("rate_limit", RateLimitViewSet.as_view({"get": "retrieve"}), name="rate-limit"),
    path("usage", UsageViewSet.as_view({"get": "list"}), name="usage"),
]
