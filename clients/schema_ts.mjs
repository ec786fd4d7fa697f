// openapi-typescript through its API (clients/generate.py runs it): the CLI's output, but that a
// string schema marked `x-any-other-value` is `${string}`, the member of an open enum's union
// that any other value fits, where `string` would swallow the known ones.
//
//     node clients/schema_ts.mjs NODE_MODULES DOCUMENT OUTPUT
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { join, resolve } from "node:path";

const [modules, document, output] = process.argv.slice(2);
const load = (name, file) => import(pathToFileURL(join(modules, name, file)).href);
const { default: openapiTS, astToString, COMMENT_HEADER } = await load("openapi-typescript", "dist/index.mjs");
const { default: ts } = await load("typescript", "lib/typescript.js");

const anyOtherValue = ts.factory.createTemplateLiteralType(ts.factory.createTemplateHead(""), [
  ts.factory.createTemplateLiteralTypeSpan(
    ts.factory.createKeywordTypeNode(ts.SyntaxKind.StringKeyword),
    ts.factory.createTemplateTail(""),
  ),
]);

const ast = await openapiTS(pathToFileURL(resolve(document)), {
  transform: (schema) => (schema["x-any-other-value"] ? anyOtherValue : undefined),
});
writeFileSync(output, COMMENT_HEADER + astToString(ast));
