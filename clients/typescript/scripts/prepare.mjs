// `npm install <this folder>` runs `prepare` here without installing this folder's own
// devDependencies first: the compiler comes from this folder's lock, then `dist/` is built.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

const npm = process.env.npm_execpath;
const run = (command, args) => execFileSync(command, args, { stdio: "inherit", shell: process.platform === "win32" });

if (!existsSync("node_modules/typescript/bin/tsc")) {
  // --ignore-scripts: not this script again.
  const args = ["ci", "--ignore-scripts", "--no-audit", "--no-fund"];
  if (npm) {
    run(process.execPath, [npm, ...args]);
  } else {
    run("npm", args);
  }
}
run(process.execPath, ["node_modules/typescript/bin/tsc", "--project", "tsconfig.json"]);
