import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { test } from "node:test";

import { fixtures } from "./fixtures.js";

// Every ```ts block of the README is a partner's program: compiled under the package's strict
// settings, then run, in order, against the service (the key and server from the environment,
// as the README says).
const examples = [...readFileSync("README.md", "utf8").matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((found) => found[1]);
const where = "build/readme";

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function run(file: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file], { env: { ...process.env, ...env }, timeout: 30_000 });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.on("close", (code) => resolve({ code, output }));
  });
}

test("the README's examples compile under --strict and run against the service", { timeout: 120_000 }, async () => {
  rmSync(where, { recursive: true, force: true });
  mkdirSync(where, { recursive: true });
  examples.forEach((code, n) => writeFileSync(`${where}/example${n + 1}.ts`, code));
  const config = { extends: "../../tsconfig.json", compilerOptions: { rootDir: ".", outDir: ".", declaration: false }, include: ["*.ts"], exclude: [] };
  writeFileSync(`${where}/tsconfig.json`, JSON.stringify(config));
  execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "--project", where], { stdio: "inherit" });
  const port = await freePort();
  const env = {
    PETSTORE_API_KEY: fixtures.keys.readme,
    PETSTORE_SERVER: fixtures.baseUrl,
    PETSTORE_WEBHOOK_URL: `http://127.0.0.1:${port}/hooks`,
    PORT: String(port),
  };

  const outputs = [];
  for (const n of examples.keys()) {
    const { code, output } = await run(`${where}/example${n + 1}.js`, env);
    assert.equal(code, 0, `example ${n + 1}:\n${output}`);
    outputs.push(output);
  }

  assert.equal(examples.length, 3);
  assert.match(outputs[0], /name: 'Biscuit'/);
  assert.match(outputs[1], /^order\.cancelled evt_/m);
  assert.match(outputs[2], /^received pet\.created evt_test_/m);
});
