/**
 * A step's action as a scenario file writes it: the inverse of the resolver's `resolveAction` (resolve.ts), so that
 * whoever builds steps as actions (the property harness) writes each one once and gets its YAML form from it.
 *
 * Contract: for an action `a` of a kind listed here, resolving `{at: h, ...stepDocumentOf(a)}` in a scenario gives
 * `a` back, field for field (step-document.test.ts). Defaults are left out where the resolver would put the same
 * value back: a title equal to the id, a summary equal to the title, empty metadata or info, `expedited: false`,
 * an authority that is the signer's default (the gov authority in proposals and authorityExec, the signer's own
 * address in a tx). Everything else is written, the deposit included (`""`: none), and map keys keep their order.
 * An `expect` action is written only when it expects nothing (`{expect: {}}`: a checkpoint that lets a stalled
 * chain's clock reach the step); a file's expectations are never rebuilt from their resolved form.
 *
 * Steps:
 * 1. Each action kind maps to its one key of the step document (`submitProposal`, `deposit`, ..., `query`).
 * 2. Messages: `softwareUpgrade` with the plan's name, height (a number while it is a safe integer, else its
 *    decimal text, as the int64 schema reads both), and the optional fields present; `cancelUpgrade`.
 * 3. Coins: `<amount><denom>` joined by commas (coins.ts `formatCoins`).
 */
import { base64 } from "@scure/base";
import type { UpgradeMessage } from "../app/types.js";
import { addressOfName, govAuthority } from "../core/address.js";
import { formatRfc3339 } from "../core/go/time.js";
import { formatCoins } from "./coins.js";
import type { Action } from "./model.js";
import type { StepDocument, UpgradeMessageDocument } from "./schema.js";

/** The actions a step document can be written from: every kind, `expect` only when it expects nothing. */
export type WritableAction =
  | Exclude<Action, { readonly kind: "expect" }>
  | { readonly kind: "expect"; readonly expect: Readonly<Record<string, never>> };

/** The action part of a step document: one action key and its value (no trigger, no label). */
export type StepActionDocument = Omit<StepDocument, "at" | "on" | "delay" | "label" | "optional">;

const int64Text = (v: bigint): number | string => (Number.isSafeInteger(Number(v)) ? Number(v) : v.toString());

/** A Timestamp as RFC 3339 (the resolver's `planTime` inverted). */
const timeText = (t: { readonly seconds: bigint; readonly nanos: number }): string =>
  formatRfc3339(Number(t.seconds) * 1000 + Math.floor(t.nanos / 1_000_000));

function messageDocument(m: UpgradeMessage, defaultAuthority: string): UpgradeMessageDocument {
  const authority = m.authority === defaultAuthority ? {} : { authority: m.authority };
  if (m.kind === "cancelUpgrade") return { cancelUpgrade: { ...authority } };
  const p = m.plan;
  return {
    softwareUpgrade: {
      name: p.name,
      height: int64Text(p.height),
      ...(p.info === "" ? {} : { info: p.info }),
      ...(p.time === undefined ? {} : { time: timeText(p.time) }),
      ...(p.upgradedClientState === undefined
        ? {}
        : {
            upgradedClientState: {
              typeUrl: p.upgradedClientState.typeUrl,
              value: base64.encode(p.upgradedClientState.value),
            },
          }),
      ...authority,
    },
  };
}

const messagesDocument = (ms: readonly UpgradeMessage[], defaultAuthority: string) =>
  ms.map((m) => messageDocument(m, defaultAuthority));

/** Step 1: the step document's action key and value for `a` on a chain whose bech32 prefix is `prefix` (see the
 * header for what is left out). */
export function stepDocumentOf(a: WritableAction, prefix: string): StepActionDocument {
  switch (a.kind) {
    case "submitProposal":
      return {
        submitProposal: {
          id: a.id,
          proposer: a.proposer,
          ...(a.title === a.id ? {} : { title: a.title }),
          ...(a.summary === a.title ? {} : { summary: a.summary }),
          deposit: formatCoins(a.deposit),
          ...(a.metadata === "" ? {} : { metadata: a.metadata }),
          ...(a.expedited ? { expedited: true } : {}),
          messages: messagesDocument(a.messages, govAuthority(prefix)),
        },
      };
    case "deposit":
      return { deposit: { proposal: a.proposal, from: a.from, amount: formatCoins(a.amount) } };
    case "vote":
      return { vote: { proposal: a.proposal, votes: Object.fromEntries(a.votes) } };
    case "cancelProposal":
      return { cancelProposal: { proposal: a.proposal, from: a.from } };
    case "tx":
      return { tx: { from: a.from, messages: messagesDocument(a.messages, addressOfName(a.from, prefix)) } };
    case "authorityExec":
      return { authorityExec: { messages: messagesDocument(a.messages, govAuthority(prefix)) } };
    case "swapBinary":
    case "restart": {
      const skip = a.skipUpgradeHeights === undefined ? {} : { skipUpgradeHeights: [...a.skipUpgradeHeights] };
      return a.kind === "swapBinary"
        ? { swapBinary: { node: a.node, binary: a.binary, ...skip } }
        : { restart: { node: a.node, ...skip } };
    }
    case "stop":
      return { stop: { node: a.node } };
    case "writeUpgradeInfo":
      return { writeUpgradeInfo: { node: a.node, content: a.content } };
    case "query":
      return {
        query: {
          node: a.node,
          path: a.path,
          ...(a.height === undefined ? {} : { height: a.height }),
          ...(a.headers.size === 0 ? {} : { headers: Object.fromEntries(a.headers) }),
          expect: { status: a.expect.status, ...(a.expect.body === undefined ? {} : { body: a.expect.body }) },
        },
      };
    case "expect":
      return { expect: {} };
  }
}
