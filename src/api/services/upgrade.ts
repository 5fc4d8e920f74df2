import { govAuthority } from "../../core/address.js";
import { MemoryFs } from "../../core/fs.js";
import { Query } from "../../gen/chain/upgrade/v1beta1/query_pb.js";
import { UpgradeKeeper } from "../../upgrade/keeper.js";
import { newQueryServer } from "../../upgrade/query-server.js";
import { type BoundService, bindService } from "../backend.js";

/**
 * `chain.upgrade.v1beta1.Query` bound to the upgrade query server. Queries only read the `upgrade` store through the
 * context, so a fresh keeper (no handlers, no files) serves them. `Authority` answers the gov module account under
 * the chain's bech32 `prefix`.
 */
export function upgradeQueryService(prefix: string): BoundService {
  const keeper = new UpgradeKeeper({
    skipUpgradeHeights: new Set(),
    homePath: "",
    fs: new MemoryFs(),
    authority: govAuthority(prefix),
  });
  return bindService(Query, newQueryServer(keeper));
}
