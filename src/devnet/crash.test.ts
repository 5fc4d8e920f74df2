import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bundleCli, exited, getJson, initTestHome, spawnCli, voteMsg, waitFor } from "../../test/kit/devnet.js";
import { inProcessQuery } from "../api/in-process.js";
import { HostFs } from "../node/host-fs.js";
import { DevnetChain } from "./chain.js";
import { readHome } from "./home.js";
import { loadKey } from "./keyring.js";
import { signTx } from "./tx.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** mulberry32: a small seeded generator, so a failing run can be replayed with CRASH_SEED. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KILLS = 50;

describe("crash safety of the live node", () => {
  it(`keeps committed heights, app hashes and history across ${KILLS} SIGKILLs at random moments`, async () => {
    const seed = Number(process.env.CRASH_SEED ?? 20261122);
    const random = rng(seed);
    const bundle = await bundleCli("devnet");
    const home = mkdtempSync(join(tmpdir(), "devnet-crash-"));
    dirs.push(home);
    const { restUrl } = await initTestHome(home, { pruning: { keepRecent: 20, interval: 10 } });
    const val1 = loadKey(home, "val1");
    if (!val1.ok) throw new Error(val1.error);
    const cfg = readHome(home);
    if (!cfg.ok) throw new Error(cfg.error.join("\n"));

    const hashes = new Map<number, string>();
    let floor = 0; // the highest height anyone has observed as committed
    let prunedChecks = 0;
    let txs = 0;
    for (let i = 0; i < KILLS; i++) {
      const { child, output } = spawnCli(bundle, ["start", "--home", home, "--binary", "v1", "--block-time", "20ms"]);
      const ctx = `iteration ${i} (CRASH_SEED=${seed})`;
      if (i % 5 === 4) {
        // Kill at a random moment of the start-up itself.
        await new Promise((r) => setTimeout(r, random() * 500));
      } else {
        const status = await waitFor(() => getJson(`${restUrl}/chain/devnet/v1/status`), 20_000, `node up, ${ctx}`);
        floor = Math.max(floor, Number(status.body.latest_block_height));
        // A transaction changes the state (its sequence increment survives the failing vote), so app hashes move.
        const acc = await getJson(`${restUrl}/chain/auth/v1beta1/accounts/${val1.value.address}`);
        if (acc?.status === 200) {
          const tx = signTx(val1.value, {
            chainId: "devnet-test",
            accountNumber: BigInt(acc.body.account.account_number),
            sequence: BigInt(acc.body.account.sequence),
            msg: voteMsg(val1.value.address),
          });
          const sent = await fetch(`${restUrl}/chain/tx/v1beta1/txs`, {
            method: "POST",
            body: JSON.stringify({ tx_bytes: Buffer.from(tx).toString("base64"), mode: "BROADCAST_MODE_SYNC" }),
          }).catch(() => undefined);
          if (sent?.ok === true) txs++;
        }
        await new Promise((r) => setTimeout(r, random() * 400));
        const seen = await getJson(`${restUrl}/chain/devnet/v1/status`);
        if (seen !== undefined) floor = Math.max(floor, Number(seen.body.latest_block_height));
      }
      child.kill("SIGKILL");
      await exited(child);

      const opened = await DevnetChain.open({
        config: cfg.value,
        binary: "v1",
        skipHeights: [],
        fs: new HostFs(),
        sync: false,
      });
      if (!opened.ok || opened.value.kind !== "running") throw new Error(`${ctx}: cannot reopen\n${output()}`);
      const chain = opened.value.chain;
      try {
        expect(chain.height, `${ctx}: the last committed height went back`).toBeGreaterThanOrEqual(floor);
        for (let h = 1; h <= chain.height; h++) {
          const a = chain.blocks.appHash(h)!;
          const before = hashes.get(h);
          if (before === undefined) hashes.set(h, a);
          else expect(a, `${ctx}: app hash of height ${h} changed`).toBe(before);
        }
        const earliest = chain.earliestHeight;
        for (let h = Math.max(1, earliest); h <= chain.height; h++)
          expect(chain.appHashAt(h), `${ctx}: state at ${h}`).toBe(hashes.get(h));
        if (chain.height > 0) {
          const backend = chain.queryBackend();
          const h = earliest + Math.floor(random() * (chain.height - earliest + 1));
          const q = inProcessQuery(backend, { path: "/chain/upgrade/v1beta1/module_versions", height: h });
          expect(q.ok && q.value.status, `${ctx}: historical query at ${h}`).toBe(200);
          if (earliest > 1) {
            const pruned = inProcessQuery(backend, {
              path: "/chain/upgrade/v1beta1/module_versions",
              height: earliest - 1,
            });
            expect(pruned.ok && JSON.parse(pruned.value.body).code).toBe(2);
            prunedChecks++;
          }
        }
        floor = Math.max(floor, chain.height);
      } finally {
        await chain.close();
      }
    }
    expect(floor).toBeGreaterThan(100);
    expect(prunedChecks).toBeGreaterThan(0);
    expect(txs).toBeGreaterThan(10);
    expect(new Set(hashes.values()).size).toBeGreaterThan(10);
  }, 120_000);
});
