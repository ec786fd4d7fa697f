import { readFileSync } from "node:fs";
import net from "node:net";

/** What tests/clients/test_sdks.py made for this suite on the running service it started. */
export interface Fixtures {
  baseUrl: string;
  keys: Record<
    "paging" | "headers" | "free" | "orders" | "errors" | "readOnly" | "cache" | "resources" | "readme",
    string
  >;
  categoryId: number;
  availableInCategory: number;
  petIds: number[];
  webhook: { body: string; headers: Record<string, string>; secret: string; receivedAt: number };
}

function load(): Fixtures {
  const path = process.env.PETSTORE_SDK_FIXTURES;
  if (!path) {
    throw new Error(
      "PETSTORE_SDK_FIXTURES is not set: these tests run against a running service, from " +
        "tests/clients/test_sdks.py in the project's suite (make test).",
    );
  }
  const all = JSON.parse(readFileSync(path, "utf8"));
  return { baseUrl: all.baseUrl, webhook: all.webhook, ...all.typescript };
}

export const fixtures = load();

export interface Proxy {
  url: string;
  connections: number;
  close(): void;
}

/** A TCP proxy to the service that loses the first answer: it forwards the first connection's
 * request, reads the service's whole answer, then closes the connection without sending it.
 * Every later connection passes both ways. */
export async function losingFirstAnswer(baseUrl: string): Promise<Proxy> {
  const target = new URL(baseUrl);
  const proxy: Proxy = { url: "", connections: 0, close: () => server.close() };
  const server = net.createServer((client) => {
    proxy.connections += 1;
    const upstream = net.connect(Number(target.port), target.hostname);
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
    client.pipe(upstream);
    if (proxy.connections > 1) {
      upstream.pipe(client);
      return;
    }
    let answer = Buffer.alloc(0);
    upstream.on("data", (chunk: Buffer) => {
      answer = Buffer.concat([answer, chunk]);
      if (isWhole(answer)) {
        client.destroy();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  proxy.url = `http://127.0.0.1:${port}${target.pathname}`;
  return proxy;
}

function isWhole(answer: Buffer): boolean {
  const end = answer.indexOf("\r\n\r\n");
  if (end < 0) {
    return false;
  }
  const length = /^content-length:\s*(\d+)/im.exec(answer.subarray(0, end).toString("latin1"));
  return answer.length >= end + 4 + Number(length?.[1] ?? 0);
}
