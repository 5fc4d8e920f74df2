import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sha256 } from "@noble/hashes/sha2.js";
import { afterAll, describe, expect, it } from "vitest";
import {
  bundleCli,
  exited,
  freePort,
  getJson,
  runCli,
  spawnCli,
  VISOR_ENV_GRACEFUL,
  waitFor,
} from "../../test/kit/devnet.js";
import { toHex, utf8 } from "../core/bytes.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("devnet end to end (real processes)", () => {
  it("init, visor + start, proposal/deposit/vote with the CLI, halt, switch to v2, upgrade applied", async () => {
    const cli = await bundleCli("main");
    const home = mkdtempSync(join(tmpdir(), "devnet-e2e-"));
    dirs.push(home);
    const api = await freePort();
    const grpc = await freePort();
    const rpc = await freePort();
    const node = `http://127.0.0.1:${api}`;
    const init = await runCli(cli, [
      "init",
      "--home",
      home,
      "--chain-id",
      "devnet-e2e",
      "--key-seed",
      "e2e",
      "--voting-period",
      "5s",
      "--deposit-period",
      "10s",
      "--api-address",
      `tcp://127.0.0.1:${api}`,
      "--grpc-address",
      `127.0.0.1:${grpc}`,
      "--rpc-address",
      `tcp://127.0.0.1:${rpc}`,
    ]);
    expect(init.code, init.output).toBe(0);
    expect(init.output).toContain("deposit period 10s, voting period 5s");

    const visor = spawnCli(cli, ["visor", "--home", home, "--", "--binary", "v1", "--block-time", "250ms"], {
      ...VISOR_ENV_GRACEFUL,
      DAEMON_PREUPGRADE_COMMAND: `echo "$1 $2" > ${join(home, "pre-upgrade.txt")}; exit 0`,
    });
    try {
      const h0 = await waitFor(
        async () => {
          const s = await getJson(`${node}/chain/devnet/v1/status`);
          const h = Number(s?.body.latest_block_height ?? 0);
          return h >= 2 ? h : undefined;
        },
        30_000,
        "the node's first blocks",
      );

      // The upgrade info names a binary by file URL with its checksum, validated by the CLI (docs/node-api.md §6.3).
      const bin = join(home, "chainsimd-v2");
      writeFileSync(bin, "binary v2");
      const info = JSON.stringify({
        binaries: { any: `file://${bin}?checksum=sha256:${toHex(sha256(utf8("binary v2")))}` },
      });
      const planHeight = h0 + 60;
      const bad = await runCli(cli, [
        "tx",
        "upgrade",
        "software-upgrade",
        "v2",
        "--title",
        "Upgrade to v2",
        "--upgrade-height",
        String(planHeight),
        "--upgrade-info",
        "v2",
        "--from",
        "alice",
        "--home",
        home,
      ]);
      expect(bad).toEqual({
        code: 1,
        output: "Error: could not parse plan info: invalid character 'v' looking for beginning of value\n",
      });
      const submit = await runCli(cli, [
        "tx",
        "upgrade",
        "software-upgrade",
        "v2",
        "--title",
        "Upgrade to v2",
        "--summary",
        "e2e",
        "--deposit",
        "5000000stake",
        "--upgrade-height",
        String(planHeight),
        "--upgrade-info",
        info,
        "--daemon-name",
        "chainsimd",
        "--from",
        "alice",
        "--home",
        home,
        "--output",
        "json",
      ]);
      expect(submit.code, submit.output).toBe(0);
      // The proposal id is in the submit_proposal event, as the reference reports it.
      expect(JSON.parse(submit.output)).toMatchObject({
        code: 0,
        events: expect.arrayContaining([
          {
            type: "submit_proposal",
            attributes: expect.arrayContaining([{ key: "proposal_id", value: "1", index: true }]),
          },
        ]),
      });
      const deposit = await runCli(cli, [
        "tx",
        "gov",
        "deposit",
        "1",
        "5000000stake",
        "--from",
        "alice",
        "--home",
        home,
        "-o",
        "json",
      ]);
      expect(deposit.code, deposit.output).toBe(0);
      const vote = await runCli(cli, ["tx", "gov", "vote", "1", "yes", "--from", "val1", "--home", home, "-o", "json"]);
      expect(vote.code, vote.output).toBe(0);
      const proposal = await getJson(`${node}/chain/gov/v1/proposals/1`);
      expect(proposal?.body.proposal.status).toBe("PROPOSAL_STATUS_VOTING_PERIOD");

      // The node halts at the plan height, the supervisor switches to v2, which applies the upgrade there.
      const applied = await waitFor(
        async () => {
          const r = await getJson(`${node}/chain/upgrade/v1beta1/applied_plan/v2`);
          return r?.body.height !== undefined && r.body.height !== "0" ? Number(r.body.height) : undefined;
        },
        45_000,
        "the upgrade to be applied",
      );
      expect(applied).toBe(planHeight);

      const q = await runCli(cli, ["query", "upgrade", "applied", "v2", "--node", node]);
      expect(q.code, q.output).toBe(0);
      expect(JSON.parse(q.output).header.height).toBe(String(planHeight));
      const plan = await runCli(cli, ["query", "upgrade", "plan", "--node", node]);
      expect(plan).toEqual({ code: 1, output: "Error: no upgrade scheduled\n" });

      const log = visor.output();
      expect(log).toContain(`UPGRADE "v2" NEEDED at height: ${planHeight}: ${info}`);
      expect(log).toContain("INF upgrade binary switched binary=v2");
      expect(JSON.parse(readFileSync(join(home, "cosmovisor", "current.json"), "utf8")).binary).toBe("v2");
      expect(readFileSync(join(home, "pre-upgrade.txt"), "utf8")).toBe(`v2 ${planHeight}\n`);
      expect(readdirSync(home).some((f) => f.startsWith("data-backup-"))).toBe(true);
      expect(existsSync(join(home, "cosmovisor", "upgrades", "v2", "upgrade-info.json"))).toBe(true);
    } finally {
      visor.child.kill("SIGTERM");
      const code = await exited(visor.child);
      if (code !== 0)
        console.error(
          visor
            .output()
            .split("\n")
            .filter((l) => !l.includes("committed block"))
            .join("\n"),
        );
    }
  }, 100_000);
});
