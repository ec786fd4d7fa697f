// Recorded webhook deliveries, verified by the JavaScript Standard Webhooks library (the npm
// package `standardwebhooks`, which `make typescript` installs) as a partner's Node.js receiver
// verifies each on its arrival. Run by tests/webhooks/test_partners_night.py:
//
//   node verify_standard_webhooks.mjs <node_modules> <deliveries.json>
//
// deliveries.json: [{secret, body (base64), headers, receivedAt (Unix seconds)}]. Prints a JSON
// array, one item for each: {"verified": the event's id} or {"refused": the library's reason}.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const [modules, file] = process.argv.slice(2);
const { Webhook, WebhookVerificationError } = createRequire(import.meta.url)(
  join(modules, "standardwebhooks"),
);

const results = JSON.parse(readFileSync(file, "utf8")).map(
  ({ secret, body, headers, receivedAt }) => {
    // The library holds the signature's timestamp to its clock: the receiver's, on arrival.
    Date.now = () => receivedAt * 1000;
    try {
      const event = new Webhook(secret).verify(Buffer.from(body, "base64"), headers);
      return { verified: event.id };
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      return { refused: error.message };
    }
  },
);
process.stdout.write(JSON.stringify(results));
