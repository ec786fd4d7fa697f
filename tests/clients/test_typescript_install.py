"""The TypeScript SDK installs as its README says, from a checkout of the repository: `npm install
<checkout>/clients/typescript` in an empty folder builds it (npm runs the folder's `prepare`
without installing its devDependencies first), and a program there imports and uses it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Installing the compiler from the npm registry, then compiling: well under a minute here.
INSTALL_SECONDS = 300

PROGRAM = """
import { createHmac } from "node:crypto";
import { NotFoundError, Petstore } from "@petstore/client";
import { verifyWebhook } from "@petstore/client/webhooks";

const petstore = new Petstore({ apiKey: "petstore_live_x", server: "http://127.0.0.1:9/v1" });
const secret = "whsec_" + Buffer.from("0123456789abcdef").toString("base64");
const body = JSON.stringify({
  id: "evt_1", type: "pet.created", createdAt: "2030-01-01T00:00:00Z", data: {},
});
const timestamp = String(Math.floor(Date.now() / 1000));
const mac = createHmac("sha256", Buffer.from("0123456789abcdef"))
  .update(`evt_1.${timestamp}.${body}`)
  .digest("base64");
const headers = {
  "webhook-id": "evt_1", "webhook-timestamp": timestamp, "webhook-signature": `v1,${mac}`,
};
const event = verifyWebhook(body, headers, secret);
const notFound = new NotFoundError(404, undefined, new Headers());
console.log(typeof petstore.pets.get, typeof petstore.rateLimit.get, notFound.name, event.id);
"""


def test_npm_install_of_the_checkouts_folder_builds_it_and_a_program_uses_it(tmp_path):
    if shutil.which("npm") is None:
        pytest.fail("npm is missing: install Node.js 20 with npm.")
    # A checkout's folder: what git tracks, none of what a build leaves.
    package = tmp_path / "checkout" / "clients" / "typescript"
    shutil.copytree(
        ROOT / "clients" / "typescript",
        package,
        ignore=shutil.ignore_patterns("node_modules", "dist", "build"),
    )
    app = tmp_path / "app"
    app.mkdir()
    (app / "package.json").write_text('{"name": "partner", "private": true, "type": "module"}\n')
    (app / "main.js").write_text(PROGRAM)

    installed = subprocess.run(
        ["npm", "install", "--no-audit", "--no-fund", str(package)],
        cwd=app,
        capture_output=True,
        text=True,
        timeout=INSTALL_SECONDS,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    ran = subprocess.run(["node", "main.js"], cwd=app, capture_output=True, text=True, timeout=60)

    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split() == ["function", "function", "NotFoundError", "evt_1"]
    assert (package / "dist" / "index.d.ts").exists()
