from django.urls import path

from staff import views

app_name = "staff"
urlpatterns = [
    path("verify/", views.verify, name="verify"),
    path("setup/", views.setup, name="setup"),
]
