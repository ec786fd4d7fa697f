"""The OpenAPI document is an artifact: it builds, validates, and says what the API does."""

from __future__ import annotations

import json
import re
from http import HTTPStatus
from io import StringIO
from typing import Any

import pytest
from django.conf import settings as django_settings
from django.core.management import call_command

from apikeys.windows import WINDOWS
from petstore import urls as petstore_urls

OPERATIONS = {
    ("/pets", "get"): "listPets",
    ("/pets", "post"): "createPet",
    ("/pets/{petId}", "get"): "getPet",
    ("/categories", "get"): "listCategories",
    ("/categories/{categoryId}", "get"): "getCategory",
    ("/rate_limit", "get"): "getRateLimit",
}
SCOPES = {
    "listPets": ["pets:read"],
    "createPet": ["pets:write"],
    "getPet": ["pets:read"],
    "listCategories": ["pets:read"],
    "getCategory": ["pets:read"],
    "createCategory": ["categories:write"],
    "listOrders": ["orders:read"],
    "placeOrder": ["orders:write"],
    "getOrder": ["orders:read"],
    "cancelOrder": ["orders:write"],
    "getRateLimit": [],
    "getUsage": [],
    "listEvents": ["events:read"],
    "listWebhookEndpoints": ["webhooks:read"],
    "createWebhookEndpoint": ["webhooks:write"],
    "getWebhookEndpoint": ["webhooks:read"],
    "deleteWebhookEndpoint": ["webhooks:write"],
    "updateWebhookEndpoint": ["webhooks:write"],
    "rotateWebhookEndpointSecret": ["webhooks:write"],
    "listWebhookDeliveries": ["webhooks:read"],
    "retryWebhookDelivery": ["webhooks:write"],
    "recoverWebhookEndpoint": ["webhooks:write"],
    "testWebhookEndpoint": ["webhooks:write"],
}


@pytest.fixture
def schema(client, db) -> dict[str, Any]:
    response = client.get("/v1/openapi.json")
    assert response.status_code == HTTPStatus.OK
    return json.loads(response.content)


def operations(schema: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {
        (path, method): operation
        for path, methods in schema["paths"].items()
        for method, operation in methods.items()
    }


def test_it_serves_the_schema_as_json_without_a_key(client, db):
    response = client.get("/v1/openapi.json")

    assert response.status_code == HTTPStatus.OK
    assert "json" in response["Content-Type"]
    assert json.loads(response.content)["openapi"].startswith("3")


def test_it_serves_the_schema_whatever_key_is_sent(client, db):
    response = client.get("/v1/openapi.json", headers={"Authorization": "Bearer not-a-key"})

    assert response.status_code == HTTPStatus.OK


def test_it_lists_the_server_serving_it_first_then_production_and_staging(schema):
    urls = [server["url"] for server in schema["servers"]]

    # The docs page's "Try it out" uses the first: the instance the page came from.
    assert urls == [
        "http://testserver/v1",
        django_settings.PETSTORE_BASE_URL.rstrip("/"),
        django_settings.PETSTORE_STAGING_BASE_URL.rstrip("/"),
    ]
    assert all(url.endswith("/v1") for url in urls)


def test_production_is_listed_once_when_it_serves_the_document(client, db, settings):
    settings.ALLOWED_HOSTS = ["petstore.example.com"]
    response = client.get("/v1/openapi.json", HTTP_HOST="petstore.example.com", secure=True)

    assert [server["url"] for server in response.json()["servers"]] == [
        "https://petstore.example.com/v1",
        django_settings.PETSTORE_STAGING_BASE_URL.rstrip("/"),
    ]


def test_the_document_takes_no_parameters(client, db, settings):
    plain = client.get("/v1/openapi.json").json()

    tampered = client.get("/v1/openapi.json", {"version": "X", "lang": "de"}).json()

    assert tampered["info"]["version"] == settings.PETSTORE_API_VERSION
    assert tampered == plain


def served_api_paths() -> set[str]:
    """The /v1 paths the URLconf serves, written the OpenAPI way, minus the schema itself."""
    served = [
        str(pattern.pattern).removeprefix("v1/")
        for entry in petstore_urls.v1
        for pattern in getattr(entry, "url_patterns", [entry])  # each app's included URLs
    ]
    return {
        "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", path)
        for path in served
        if path != "openapi.json"
    }


def test_it_documents_exactly_the_paths_it_serves_relative_to_the_servers(schema):
    paths = set(schema["paths"])

    assert {"/pets", "/pets/{petId}", "/categories"} <= paths
    assert paths == served_api_paths()
    assert not any(path.startswith("/v1") or path.endswith("/") for path in paths)


def test_it_names_each_operation(schema):
    found = {key: operation["operationId"] for key, operation in operations(schema).items()}

    assert {key: found.get(key) for key in OPERATIONS} == OPERATIONS
    assert len(set(found.values())) == len(found)


def test_it_marks_only_get_pet_as_deprecated(schema):
    deprecated = {
        operation["operationId"]
        for operation in operations(schema).values()
        if operation.get("deprecated")
    }

    assert deprecated == {"getPet"}


def test_it_documents_the_bearer_scheme_on_every_operation(schema):
    schemes = schema["components"]["securitySchemes"]
    assert len(schemes) == 1
    (name, scheme), *_ = schemes.items()
    assert scheme["type"] == "http"
    assert scheme["scheme"] == "bearer"

    for operation in operations(schema).values():
        assert operation.get("security") == [{name: []}], operation["operationId"]


def test_it_declares_the_shapes(schema):
    schemas = schema["components"]["schemas"]

    assert {"Pet", "NewPet", "PetStatus", "Error", "Category"} <= set(schemas)
    assert set(schemas["Pet"]["properties"]) == {"id", "name", "categoryId", "status", "breed"}
    assert set(schemas["NewPet"]["properties"]) == {"name", "categoryId", "status", "breed"}
    assert set(schemas["NewPet"]["required"]) == {"name", "categoryId"}
    assert schemas["PetStatus"]["enum"] == ["available", "pending", "sold"]
    assert set(schemas["Category"]["properties"]) == {"id", "name", "description"}
    assert set(schemas["Error"]["required"]) == {"code", "message", "status"}


def test_it_describes_the_pet_list_as_a_bare_array(schema):
    content = schema["paths"]["/pets"]["get"]["responses"]["200"]["content"]["application/json"]
    ref = content["schema"]["$ref"]
    listed = schema["components"]["schemas"][ref.rsplit("/", 1)[-1]]

    assert listed["type"] == "array"
    assert listed["items"] == {"$ref": "#/components/schemas/Pet"}


def test_it_documents_the_query_parameters_of_list_pets(schema):
    listed = schema["paths"]["/pets"]["get"]["parameters"]
    parameters = {p["name"]: p for p in listed if p["in"] == "query"}

    assert set(parameters) == {"limit", "status", "cursor", "id", "categoryId", "name", "breed"}
    assert parameters["name"]["schema"]["maxLength"] == 100
    for name, most in (("id", 100), ("categoryId", 10)):
        assert parameters[name]["schema"]["type"] == "array"
        assert parameters[name]["schema"]["items"]["format"] == "int64"
        assert parameters[name]["schema"]["maxItems"] == most
        assert (parameters[name]["style"], parameters[name]["explode"]) == ("form", False)
    assert parameters["limit"]["schema"]["minimum"] == 1
    assert parameters["limit"]["schema"]["maximum"] == 100
    assert parameters["limit"]["schema"]["default"] == 20


def test_every_error_response_is_an_error_body(schema):
    error = {"$ref": "#/components/schemas/Error"}
    for operation in operations(schema).values():
        statuses = set(operation["responses"])
        assert {"401", "403", "429", "500", "503"} <= statuses, operation["operationId"]
        for status, response in operation["responses"].items():
            if int(status) >= 400:
                assert response["content"]["application/json"]["schema"] == error


def test_it_documents_the_rate_limit_headers_on_every_response(schema):
    for operation in operations(schema).values():
        for response in operation["responses"].values():
            assert {
                "X-RateLimit-Limit",
                "X-RateLimit-Remaining",
                "X-RateLimit-Reset",
                "RateLimit-Policy",
                "RateLimit",
            } <= set(response["headers"])


def test_it_states_the_scope_of_each_operation(schema):
    found = {
        operation["operationId"]: operation["x-required-scopes"]
        for operation in operations(schema).values()
    }

    assert found == SCOPES
    for operation in operations(schema).values():
        scopes = operation["x-required-scopes"]
        line = f"**Scope:** `{scopes[0]}`." if scopes else "**Scope:** none"
        assert line in operation["description"], operation["operationId"]


def test_the_closed_sets_are_enums_named_for_their_owners(schema):
    schemas = schema["components"]["schemas"]
    order, endpoint = schemas["Order"]["properties"], schemas["Endpoint"]["properties"]
    window = schemas["RateLimitWindow"]["properties"]

    assert schemas["Error"]["properties"]["code"]["$ref"].endswith("/ErrorCode")
    assert schemas["Plan"]["properties"]["code"]["$ref"].endswith("/PlanCode")
    assert window["name"]["allOf"][0]["$ref"].endswith("/WindowName")
    assert order["status"]["allOf"][0]["$ref"].endswith("/OrderStatus")
    assert endpoint["state"]["allOf"][0]["$ref"].endswith("/EndpointState")
    assert schemas["PlanCode"]["enum"] == ["free", "pro", "business", "enterprise"]
    assert schemas["WindowName"]["enum"] == [w.name for w in WINDOWS]
    assert schemas["OrderStatus"]["enum"] == ["pending", "approved", "delivered", "cancelled"]
    assert not {"OrderStatusEnum", "StateEnum", "CodeEnum", "NameEnum"} & set(schemas)


def test_only_the_headers_sent_sometimes_are_optional(schema):
    headers = schema["components"]["headers"]
    optional = {name for name, header in headers.items() if not header["required"]}

    assert optional == {"Link", "Idempotent-Replayed"}
    for name in ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"):
        assert headers[name]["schema"] == {"type": "integer"}


def required_headers(schema: dict[str, Any], path: str, method: str, status: int) -> set[str]:
    fields = schema["paths"][path][method]["responses"][str(status)]["headers"]
    headers = schema["components"]["headers"]
    return {name for name in fields if headers[name]["required"]}


def test_every_answer_carries_the_headers_the_document_requires(schema, client, make_key, dog):
    key = make_key(plan="enterprise", per_day=4)
    auth = {"Authorization": f"Bearer {key}"}
    created = client.post(
        "/v1/pets", {"name": "Rex", "categoryId": dog.pk}, "application/json", headers=auth
    )
    answers = [
        ("/pets", "post", created),
        ("/pets", "get", client.get("/v1/pets", headers=auth)),
        ("/pets/{petId}", "get", client.get(created["Location"], headers=auth)),
        ("/pets/{petId}", "get", client.get("/v1/pets/999999", headers=auth)),
        ("/pets", "get", client.get("/v1/pets", headers=auth)),  # over the day's 4
    ]

    assert [answer.status_code for *_, answer in answers] == [
        HTTPStatus.CREATED,
        HTTPStatus.OK,
        HTTPStatus.OK,
        HTTPStatus.NOT_FOUND,
        HTTPStatus.TOO_MANY_REQUESTS,
    ]
    for path, method, answer in answers:
        required = required_headers(schema, path, method, answer.status_code)
        assert {"RateLimit", "X-RateLimit-Remaining"} <= required
        missing = [name for name in required if name not in answer.headers]
        assert missing == [], (path, answer.status_code)
    assert "Location" in required_headers(schema, "/pets", "post", 201)
    assert {"Deprecation", "Sunset"} <= required_headers(schema, "/pets/{petId}", "get", 200)
    assert "Retry-After" in required_headers(schema, "/pets", "get", 429)


def test_it_documents_reading_the_rate_limits(schema):
    operation = schema["paths"]["/rate_limit"]["get"]
    body = operation["responses"]["200"]["content"]["application/json"]["schema"]
    shape = schema["components"]["schemas"][body["$ref"].rsplit("/", 1)[-1]]

    assert set(shape["properties"]) == {"plan", "windows", "ban"}
    assert "does not count against the plan" in operation["description"]


def test_the_schema_validates_without_warnings(tmp_path, db):
    target = tmp_path / "openapi.yaml"

    call_command(
        "spectacular", "--validate", "--fail-on-warn", "--file", str(target), stdout=StringIO()
    )

    text = target.read_text()
    assert "operationId: listPets" in text


def test_the_docs_page_is_served_from_our_own_static_files(client, db):
    response = client.get("/docs/")

    assert response.status_code == HTTPStatus.OK
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert re.search(r"""["']/static/[^"']+\.js["']""", html)
    assert "/v1/openapi.json" in html
    for cdn in ("cdn.jsdelivr", "unpkg", "cdnjs", "googleapis"):
        assert cdn not in html


def test_the_docs_page_scripts_are_really_served(client, db):
    html = client.get("/docs/").content.decode()
    scripts = re.findall(r"""["'](/static/[^"']+\.js)["']""", html)
    assert scripts

    for script in scripts:
        response = client.get(script)
        assert response.status_code == HTTPStatus.OK, script
