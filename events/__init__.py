"""What happened, for partners to follow: each change to an animal or an order writes its event
in the same transaction (``services``); ``GET /v1/events`` lists them (``views``), and the
webhooks app delivers them."""
