"""The admin's index names the second factor's apps as staff read them, not by their labels."""

from __future__ import annotations

from http import HTTPStatus


def test_the_admin_index_names_the_second_factors_apps_for_people(admin_client):
    response = admin_client.get("/admin/")
    page = response.content.decode()

    assert response.status_code == HTTPStatus.OK
    assert "Second factor: authenticator apps" in page
    assert "Second factor: recovery codes" in page
    assert "Otp_" not in page
