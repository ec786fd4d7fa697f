from http import HTTPStatus


def test_it_lists_pets(client, auth, make_pet):
    make_pet()
    response = client.get("/v1/pets", headers=auth)
    assert response.status_code == HTTPStatus.OK
    assert response.json() == [
        {
            "id": response.json()[0]["id"],
            "name": "Rex",
            "categoryId": response.json()[0]["categoryId"],
            "status": "available",
        }
    ]
