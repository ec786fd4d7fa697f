"""A post over TLS, made in this process as a worker makes it, to a receiver on loopback whose
certificate a CA of the test's issued: sent to the URL's host name (SNI) and delivered when the
certificate is for that name and chains to a trusted CA, refused as TLS otherwise. The CAs
trusted are the system's, which OpenSSL's SSL_CERT_FILE replaces here."""

from __future__ import annotations

import ssl
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import trustme

from tests.webhooks.conftest import Receiver, attempts, serving
from webhooks.models import AttemptError

pytestmark = pytest.mark.django_db

# The name the URLs give: it resolves to 127.0.0.1, where the receivers are.
NAME = "localhost"


@pytest.fixture
def trusted(tmp_path: Path, monkeypatch) -> trustme.CA:
    """A CA the Sender trusts, as it would one of the system's."""
    ca = trustme.CA()
    ca.cert_pem.write_to_path(str(tmp_path / "ca.pem"))
    monkeypatch.setenv("SSL_CERT_FILE", str(tmp_path / "ca.pem"))
    return ca


@contextmanager
def tls_receiver(ca: trustme.CA, name: str) -> Iterator[Receiver]:
    """A receiver on loopback speaking HTTPS with a certificate for ``name`` by ``ca``."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert(name).configure_cert(context)
    with serving(tls=context) as receiver:
        yield receiver


def url_of(receiver: Receiver) -> str:
    return f"https://{NAME}:{receiver.server.server_port}/hooks"


def test_a_post_over_tls_names_the_host_its_certificate_is_checked_for(endpoint_at, trusted):
    with tls_receiver(trusted, NAME) as receiver:
        (attempt,) = attempts(endpoint_at(url_of(receiver)))

    assert attempt.delivered
    assert receiver.server_names == [NAME]  # the SNI, for a receiver serving many names
    (received,) = receiver.received
    assert received.headers["Host"] == f"{NAME}:{receiver.server.server_port}"


def test_a_certificate_for_another_name_fails_as_tls(endpoint_at, trusted):
    with tls_receiver(trusted, "receiver.example") as receiver:
        (attempt,) = attempts(endpoint_at(url_of(receiver)))

    assert (attempt.status, attempt.error_kind) == (None, AttemptError.TLS)
    assert attempt.error.startswith(
        "No connection: SSLCertVerificationError: [SSL: CERTIFICATE_VERIFY_FAILED] certificate "
        f"verify failed: Hostname mismatch, certificate is not valid for '{NAME}'."
    )
    assert receiver.received == []


def test_a_certificate_from_a_ca_not_trusted_fails_as_tls(endpoint_at, trusted):
    with tls_receiver(trustme.CA(), NAME) as receiver:
        (attempt,) = attempts(endpoint_at(url_of(receiver)))

    assert (attempt.status, attempt.error_kind) == (None, AttemptError.TLS)
    assert attempt.error.startswith(
        "No connection: SSLCertVerificationError: [SSL: CERTIFICATE_VERIFY_FAILED] certificate "
        "verify failed: unable to get local issuer certificate"
    )
    assert receiver.received == []
