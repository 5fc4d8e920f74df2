import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectComet } from "@cosmjs/tendermint-rpc";
import { afterAll, describe, expect, it } from "vitest";
import { exited, getJson, serveScenario } from "../../test/kit/devnet.js";

// `chainsim serve` of a scenario `from:` a profile (a chain that starts at the imported height, CometBFT's
// initial_height): the RPC's genesis, status, blockchain and header and the REST latest block tell the truth about
// where the chain begins, as a real node started from an exported genesis with `initial_height` does.
const dir = mkdtempSync(join(tmpdir(), "chainsim-serve-from-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

const SCENARIO = "scenarios/from-profile-plan-halts-cancel-rejected.yaml";
/** The profile's height (test/fixtures/profiles/rehearsal.profile.yaml `at.height`). */
const AT = 120_000;
const UNTIL = AT + 60;

describe("chainsim serve: a chain from a profile", () => {
  it("reports initial_height and the earliest block as the imported height + 1, over RPC and REST", async () => {
    const served = await serveScenario(SCENARIO, { dir, children, extra: ["--until-height", String(UNTIL)] });
    const rpc = async (path: string) => (await getJson(`${served.rpc}/${path}`))!.body;

    const genesis = (await rpc("genesis")).result.genesis;
    expect(genesis.initial_height).toBe(String(AT + 1));
    expect(genesis.chain_id).toBe("rehearsal-1");

    const sync = (await rpc("status")).result.sync_info;
    expect(sync.earliest_block_height).toBe(String(AT + 1));
    expect(sync.latest_block_height).toBe(String(UNTIL));
    // The first block carries the genesis time (CometBFT), after the imported block's time.
    expect(sync.earliest_block_time).toBe(genesis.genesis_time);
    expect(Date.parse(sync.earliest_block_time)).toBeGreaterThan(Date.parse("2026-01-09T08:00:00Z"));

    // blockchain from height 1 answers from the first block on, newest first, as CometBFT clamps to its base.
    const chain = (await rpc(`blockchain?minHeight=1&maxHeight=${AT + 5}`)).result;
    expect(chain.last_height).toBe(String(UNTIL));
    expect(chain.block_metas.map((m: { header: { height: string } }) => m.header.height)).toEqual(
      ["5", "4", "3", "2", "1"].map((k) => String(AT + Number(k))),
    );

    expect((await rpc(`header?height=${AT + 1}`)).result.header.height).toBe(String(AT + 1));
    expect((await rpc(`header?height=${AT}`)).error.data).toBe(
      `height ${AT} is not available, lowest height is ${AT + 1}`,
    );

    // cosmjs reads the same chain: its first block has no last commit to show.
    const comet = await connectComet(served.rpc);
    expect((await comet.status()).syncInfo.earliestBlockHeight).toBe(AT + 1);
    expect((await comet.block(AT + 1)).block.header.height).toBe(AT + 1);
    comet.disconnect();

    // REST: the latest block and a height below the first block.
    const latest = await getJson(`${served.rest}/chain/base/tendermint/v1beta1/blocks/latest`);
    expect(latest?.status).toBe(200);
    expect(latest?.body.block.header.height).toBe(String(UNTIL));
    const below = await getJson(`${served.rest}/chain/base/tendermint/v1beta1/blocks/${AT}`);
    expect(below?.body.message).toContain(`height ${AT} is not available, lowest height is ${AT + 1}`);
    const first = await getJson(`${served.rest}/chain/base/tendermint/v1beta1/blocks/${AT + 1}`);
    expect(first?.body.block.header.height).toBe(String(AT + 1));

    served.child.kill("SIGTERM");
    expect(await exited(served.child)).toBe(0);
  }, 120_000);
});
