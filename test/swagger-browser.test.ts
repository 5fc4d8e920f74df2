import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, headlessChromium } from "./kit/chromium.js";

/**
 * The Swagger UI of `chainsim serve` with `api.swagger = true` in headless Chromium, with every host but loopback
 * unresolvable: the page must render the API's operations from the files swagger-ui-dist ships, served by chainsim
 * itself (no CDN). Needs Debian's `chromium` (or CHROMIUM=<path>); skipped without it except in CI.
 */

let server: ChildProcess | undefined;
let rest = "";
const dir = mkdtempSync(join(tmpdir(), "chainsim-swagger-"));

beforeAll(async () => {
  if (CHROMIUM === undefined) return;
  const config = join(dir, "app.toml");
  writeFileSync(
    config,
    '[api]\nenable = true\nswagger = true\naddress = "tcp://127.0.0.1:0"\n[grpc]\nenable = false\n',
  );
  server = spawn(
    process.execPath,
    ["bin/chainsim.js", "serve", "scenarios/query-upgrade-history.yaml", "--config", config],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  rest = await new Promise<string>((resolve, reject) => {
    let out = "";
    server!.stdout!.on("data", (b: Buffer) => {
      out += b.toString();
      const m = /REST {2}(\S+)/.exec(out);
      if (m !== null) resolve(m[1]!);
    });
    server!.once("exit", (code) => reject(new Error(`chainsim serve exited ${code}: ${out}`)));
  });
}, 60_000);

afterAll(() => {
  server?.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(CHROMIUM === undefined && process.env.CI !== "true")("Swagger UI in headless Chromium", () => {
  it("serves swagger-ui-dist's files itself", async () => {
    const css = await fetch(`${rest}/swagger/swagger-ui.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get("content-type")).toContain("text/css");
    const js = await fetch(`${rest}/swagger/swagger-ui-bundle.js`);
    expect(js.status).toBe(200);
    expect((await js.text()).length).toBeGreaterThan(100_000);
    const page = await (await fetch(`${rest}/swagger/`)).text();
    expect(page).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
  });

  it("renders the operations offline", async () => {
    const { stdout } = await headlessChromium(`${rest}/swagger/`, [
      "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
      "--virtual-time-budget=20000",
      "--dump-dom",
    ]);
    expect(stdout).toContain('class="swagger-ui');
    expect(stdout).toContain("/chain/upgrade/v1beta1/current_plan");
    expect(stdout).toMatch(/class="opblock /);
  }, 120_000);
});
