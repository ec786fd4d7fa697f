"""Where an API request is admitted: its key read, found, checked and counted, or refused.

``middleware`` runs it for every request under /v1 and answers refusals itself; ``admit`` is the
decision, top to bottom, one step after another; ``result`` is what each step finds and what it
decides, the ``Admission`` stored once as ``request.admission`` and read by the DRF
authentication class, the scope check, CORS, the request log and ``GET /v1/rate_limit``.

It is middleware rather than a DRF throttle so that unknown paths, wrong methods and crashes are
limited and report their limits too, and a refused request reaches no view.
"""
