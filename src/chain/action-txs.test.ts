import { describe, expect, it } from "vitest";
import { addressOfName, govAuthority } from "../core/address.js";
import { actionTxs } from "./action-txs.js";

describe("actionTxs", () => {
  const ids = (label: string) => (label === "up" ? 7n : undefined);
  it("resolves names to addresses and labels to ids; messages keep the authority they carry", () => {
    const plan = { name: "v2", height: 10n, info: "" };
    const signer = addressOfName("val1");
    expect(
      actionTxs(
        { kind: "tx", from: "val1", messages: [{ kind: "softwareUpgrade", authority: signer, plan }] },
        ids,
        "chain",
      ),
    ).toEqual({
      ok: true,
      txs: [
        {
          kind: "upgrade",
          signer: addressOfName("val1"),
          messages: [{ kind: "softwareUpgrade", authority: signer, plan }],
        },
      ],
    });
    const exec = actionTxs(
      { kind: "authorityExec", messages: [{ kind: "cancelUpgrade", authority: govAuthority() }] },
      ids,
      "chain",
    );
    expect(exec).toMatchObject({
      ok: true,
      txs: [{ signer: govAuthority(), messages: [{ authority: govAuthority() }] }],
    });
    const votes = actionTxs(
      {
        kind: "vote",
        proposal: "up",
        votes: new Map([
          ["val1", "yes"],
          ["val2", "no"],
        ]),
      },
      ids,
      "chain",
    );
    expect(votes).toMatchObject({
      ok: true,
      txs: [
        { proposalId: 7n, option: "yes" },
        { proposalId: 7n, option: "no" },
      ],
    });
  });
  it("sends from addresses under the chain's bech32 prefix", () => {
    const exec = actionTxs({ kind: "authorityExec", messages: [] }, ids, "cosmos");
    expect(exec).toMatchObject({ ok: true, txs: [{ signer: "cosmos10d07y265gmmuvt4z0w9aw880jnsr700j6zn9kn" }] });
    const dep = actionTxs({ kind: "deposit", proposal: "up", from: "val1", amount: [] }, ids, "cosmos");
    expect(dep).toMatchObject({ ok: true, txs: [{ depositor: addressOfName("val1", "cosmos") }] });
    expect(addressOfName("val1", "cosmos")).toMatch(/^cosmos1/);
  });
  it("reports a label whose submission has not succeeded, and sends nothing for node operations", () => {
    expect(actionTxs({ kind: "deposit", proposal: "nope", from: "val1", amount: [] }, ids, "chain")).toEqual({
      ok: false,
      error: 'proposal "nope" has no id: its submission has not succeeded',
    });
    expect(actionTxs({ kind: "stop", node: "val1" }, ids, "chain")).toBeUndefined();
  });
});
