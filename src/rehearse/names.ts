/**
 * Validator names in a profile (docs/profile-format.md "validators"): the moniker from staking where the node serves
 * it, else the consensus address (upper-case hex), made a valid entity name (`[A-Za-z0-9][A-Za-z0-9._-]{0,63}`)
 * and unique, so that a scenario's steps can name each validator.
 *
 * 1. Characters outside `[A-Za-z0-9._-]` become `-`, runs of `-` collapse, leading and trailing separators go.
 * 2. Nothing left: the address.
 * 3. Cut to 60 characters, leaving room for a suffix.
 * 4. A name already taken (case-insensitively) gets `-2`, `-3`, … in the node's order.
 */
import { assert } from "../core/assert.js";
import { validatorName } from "../scenario/profile.js";

const NAME_BODY_MAX = 60;

export function entityNameOf(moniker: string | undefined, address: string): string {
  const cleaned = (moniker ?? "")
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^[._-]+|[._-]+$/g, "")
    .slice(0, NAME_BODY_MAX)
    .replace(/[._-]+$/g, "");
  return cleaned === "" ? address : cleaned;
}

/** Unique names for a list of (moniker, address), in order. */
export function uniqueNames(entries: readonly { readonly moniker: string | undefined; readonly address: string }[]) {
  const taken = new Set<string>();
  return entries.map((e) => {
    const base = entityNameOf(e.moniker, e.address);
    let name = base;
    for (let i = 2; taken.has(name.toLowerCase()) && i <= entries.length + 1; i++) name = `${base}-${i}`;
    taken.add(name.toLowerCase());
    assert(validatorName.safeParse(name).success, `validator name ${JSON.stringify(name)} is an entity name`);
    return name;
  });
}
