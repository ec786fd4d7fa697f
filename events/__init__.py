"""What happened, for partners to follow: each change of a type of the event table (``types``)
writes its event in the same transaction (``services``); ``GET /v1/events`` lists them
(``views``), and the webhooks app delivers them."""
