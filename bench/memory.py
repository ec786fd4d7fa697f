"""A worker's memory as deployed: after 10k and 50k requests of the hot path, with one admin
sign-in and /readyz probed every second, as a load balancer and the staff would."""

from __future__ import annotations

import http.cookiejar
import re
import subprocess
import threading
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from bench.environment import PORTS, PYTHON, SERVER_ENV
from bench.servers import sh
from bench.wrk import wrk

ADMIN_USER, ADMIN_PASSWORD = "bench-admin", "bench-admin-password-0123456789"


def measure_memory(server: subprocess.Popen[bytes], key: str) -> dict[str, object]:
    signed_in = admin_sign_in("stack")
    prober = Prober("stack")
    prober.start()
    served, rss = 0, {}
    for target in (10_000, 50_000):
        while served < target:
            served += wrk("stack", "GET", "/v1/pets?limit=20", key, 4).requests
        rss[target] = worker_rss_mb(server)
    prober.stopped.set()
    prober.join()
    return {
        "admin_sign_in_status": signed_in,
        "readyz_probes_ok": prober.ready,
        "requests": served,
        "rss_mb_after_10k": round(rss[10_000], 1),
        "rss_mb_after_50k": round(rss[50_000], 1),
        "growth_pct": round(100 * (rss[50_000] - rss[10_000]) / rss[10_000], 1),
    }


RECOVERY_CODE = "benchcod"  # the admin's second factor: a recovery code, good once


def create_admin() -> None:
    sh(
        PYTHON,
        "manage.py",
        "createsuperuser",
        "--noinput",
        "--username",
        ADMIN_USER,
        "--email",
        "bench@example.com",
        env={**SERVER_ENV, "DJANGO_SUPERUSER_PASSWORD": ADMIN_PASSWORD},
    )
    sh(
        PYTHON,
        "manage.py",
        "shell",
        "-c",
        "from django.contrib.auth.models import User\n"
        "from django_otp.plugins.otp_static.models import StaticDevice\n"
        f"user = User.objects.get(username={ADMIN_USER!r})\n"
        "device = StaticDevice.objects.create(user=user, name='Recovery codes')\n"
        f"device.token_set.create(token={RECOVERY_CODE!r})\n",
        env=SERVER_ENV,
    )


def admin_sign_in(name: str) -> int:
    """Sign in to the admin as a person does (the form, its CSRF token, the POST; then the
    second factor's form, a recovery code), and open its index: the index's status, 200 when
    it all worked."""
    port = PORTS[name]
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), _NoRedirects())

    def post_form(path: str, fields: dict[str, str]) -> int:
        form = opener.open(f"http://127.0.0.1:{port}{path}", timeout=10).read().decode()
        found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form)
        assert found, f"no CSRF token on {path}"
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": found[1], **fields}).encode()
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}{path}",
            data=body,
            headers={"Referer": f"http://127.0.0.1:{port}"},
        )
        try:
            return opener.open(request, timeout=10).status
        except urllib.error.HTTPError as answer:
            return answer.code

    post_form("/admin/login/", {"username": ADMIN_USER, "password": ADMIN_PASSWORD})
    post_form("/admin/second-factor/verify/", {"code": RECOVERY_CODE})
    try:
        return opener.open(f"http://127.0.0.1:{port}/admin/", timeout=10).status
    except urllib.error.HTTPError as answer:
        return answer.code


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


class Prober(threading.Thread):
    """GET /readyz once a second, as a load balancer does, until stopped."""

    def __init__(self, name: str) -> None:
        super().__init__(daemon=True)
        self.port = PORTS[name]
        self.stopped = threading.Event()
        self.ready = 0

    def run(self) -> None:
        while not self.stopped.wait(1.0):
            with urllib.request.urlopen(
                f"http://127.0.0.1:{self.port}/readyz", timeout=5
            ) as answer:
                self.ready += answer.status == 200


def worker_rss_mb(server: subprocess.Popen[bytes]) -> float:
    """The largest resident set among the server's workers, in MB."""
    children = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()
    sizes = []
    for pid in children:
        status = Path(f"/proc/{pid}/status").read_text()
        match = re.search(r"VmRSS:\s+(\d+) kB", status)
        if match:
            sizes.append(int(match[1]) / 1024)
    return max(sizes)
