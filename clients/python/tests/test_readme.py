"""Every ```python block of the README, run in order in one namespace against the service, with
the key and the server in the environment, as a partner's program would have them; the
receiver's block is then handed the delivery a worker made."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```$", README.read_text(), re.MULTILINE | re.DOTALL)


@pytest.fixture
def partner_env(fixtures, monkeypatch):
    monkeypatch.setenv("PETSTORE_API_KEY", fixtures["roomyKeys"]["readme"])
    monkeypatch.setenv("PETSTORE_SERVER", fixtures["baseUrl"])
    monkeypatch.setenv("PETSTORE_WEBHOOK_SECRET", fixtures["webhook"]["secret"])


def test_the_readme_has_its_examples():
    assert len(BLOCKS) == 3


def test_every_example_of_the_readme_runs(partner_env, fixtures, monkeypatch, capsys):
    namespace = {"__name__": "readme"}

    for number, block in enumerate(BLOCKS, 1):
        exec(compile(block, f"README.md block {number}", "exec"), namespace)  # noqa: S102

    delivered = fixtures["webhook"]
    body, headers = delivered["body"].encode(), delivered["headers"]
    # Verified as at the moment it arrived: the suite may run past the verifier's tolerance.
    monkeypatch.setattr(time, "time", lambda: delivered["receivedAt"])
    assert namespace["receive"](body, headers) == 204
    assert namespace["receive"](body + b" ", headers) == 400
    printed = capsys.readouterr().out
    assert "pet.created" in printed
    assert namespace["petstore"].rate_limit.remaining > 0
