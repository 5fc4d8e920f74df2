import { describe, expect, it } from "vitest";
import { addressOfName, GOV_AUTHORITY } from "../core/address.js";
import { actionTxs } from "./action-txs.js";

describe("actionTxs", () => {
  const ids = (label: string) => (label === "up" ? 7n : undefined);
  it("resolves names to addresses and labels to ids; messages keep the authority they carry", () => {
    const plan = { name: "v2", height: 10n, info: "" };
    const signer = addressOfName("val1");
    expect(
      actionTxs({ kind: "tx", from: "val1", messages: [{ kind: "softwareUpgrade", authority: signer, plan }] }, ids),
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
      { kind: "authorityExec", messages: [{ kind: "cancelUpgrade", authority: GOV_AUTHORITY }] },
      ids,
    );
    expect(exec).toMatchObject({
      ok: true,
      txs: [{ signer: GOV_AUTHORITY, messages: [{ authority: GOV_AUTHORITY }] }],
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
    );
    expect(votes).toMatchObject({
      ok: true,
      txs: [
        { proposalId: 7n, option: "yes" },
        { proposalId: 7n, option: "no" },
      ],
    });
  });
  it("reports a label whose submission has not succeeded, and sends nothing for node operations", () => {
    expect(actionTxs({ kind: "deposit", proposal: "nope", from: "val1", amount: [] }, ids)).toEqual({
      ok: false,
      error: 'proposal "nope" has no id: its submission has not succeeded',
    });
    expect(actionTxs({ kind: "stop", node: "val1" }, ids)).toBeUndefined();
  });
});
