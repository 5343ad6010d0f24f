"""/healthz answers for load balancers: database, Redis, data dir, git."""

import pytest


@pytest.mark.django_db
def test_it_reports_every_check_healthy(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    body = response.json()
    assert body["ok"] is True
    assert set(body["checks"]) == {"database", "redis", "data_dir", "git"}


@pytest.mark.django_db
def test_it_answers_503_naming_the_failed_check(client, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1

    response = client.get("/healthz")

    assert response.status_code == 503
    checks = response.json()["checks"]
    assert checks["redis"]["ok"] is False and "Connection" in checks["redis"]["error"]
    assert checks["database"]["ok"] is True


def test_it_refuses_anything_but_get(client):
    assert client.post("/healthz").status_code == 405
