"""/healthz and /readyz: for the load balancer, without a key."""

from __future__ import annotations

from http import HTTPStatus


def test_it_says_it_is_alive(client):
    response = client.get("/healthz")

    assert response.status_code == HTTPStatus.OK
    assert response.json() == {"status": "ok"}
    assert "no-cache" in response["Cache-Control"]


def test_it_says_it_is_ready_when_the_database_and_cache_answer(client, db):
    response = client.get("/readyz")

    assert response.status_code == HTTPStatus.OK
    assert response.json() == {
        "status": "ok",
        "checks": {"database": "ok", "cache": "ok", "host": "ok"},
    }
    assert "no-cache" in response["Cache-Control"]


def test_the_probes_only_answer_get(client, db):
    assert client.post("/healthz").status_code == HTTPStatus.METHOD_NOT_ALLOWED
    assert client.post("/readyz").status_code == HTTPStatus.METHOD_NOT_ALLOWED


def test_it_says_it_is_not_ready_while_the_host_drains(client, db, settings, tmp_path):
    settings.PETSTORE_DRAIN_FILE = str(tmp_path / "draining")
    assert client.get("/readyz").json()["checks"]["host"] == "ok"  # no file: not draining

    (tmp_path / "draining").touch()
    response = client.get("/readyz")

    assert response.status_code == HTTPStatus.SERVICE_UNAVAILABLE
    assert response.json() == {
        "status": "unavailable",
        "checks": {"database": "ok", "cache": "ok", "host": "draining"},
    }
    assert client.get("/healthz").status_code == HTTPStatus.OK  # alive, and still serving
