import type { Ctx } from "../core/context.js";
import { type ChainError, err, ok, plain, type Result } from "../core/errors.js";
import type { AppModule } from "../core/module.js";
import { decodeMessage } from "../core/proto-decode.js";
import { MsgSoftwareUpgradeSchema } from "../gen/chain/upgrade/v1beta1/tx_pb.js";
import type { MsgRouter } from "../gov/types.js";
import type { UpgradeKeeper } from "../upgrade/keeper.js";
import type { UpgradeMsgServer } from "../upgrade/msg-server.js";
import { type BinaryDef, DEFAULT_FAIL_MESSAGE } from "./binary.js";
import { genesisMarkerKey, markerValue, migrationMarkerKey } from "./markers.js";
import { ModuleManager } from "./module-manager.js";

/**
 * The app a binary definition declares, wired as a Cosmos SDK v0.50 app.go wires it (types/module ModuleManager,
 * x/upgrade `SetUpgradeHandler`, baseapp's MsgServiceRouter for gov-executed messages):
 *
 * 1. `buildModuleManager`: the binary's modules at their consensus versions; each module's InitGenesis and each
 *    registered migration writes a marker into the module's store (markers.ts), failing when the store is not
 *    mounted (a missing StoreUpgrades entry).
 * 2. `setUpgradeHandlers`: one handler per plan name the binary knows: `noop` keeps the version map, `fail` fails
 *    with the binary's message, `migrate` runs the module manager's migrations.
 * 3. `upgradeRouter`: the router gov executes passed proposals' messages through: upgrade messages to the upgrade
 *    msg server, their signer (`authority`, field 1 of both) for gov's signer check.
 */
export function buildModuleManager(def: BinaryDef, hasStore: (name: string) => boolean): ModuleManager {
  const modules: AppModule[] = [...def.modules].map(([name, version]) => ({
    name,
    consensusVersion: BigInt(version),
    initGenesis: (ctx: Ctx): Result<void, ChainError> => {
      if (!hasStore(name))
        return err(plain(`store ${name} is not mounted: new stores should be added using StoreUpgrades`));
      ctx.kv(name).set(genesisMarkerKey(), markerValue(ctx.height));
      return ok(undefined);
    },
  }));
  const mm = new ModuleManager(modules);
  for (const [module, froms] of def.migrations) {
    for (const from of froms) {
      mm.configurator.registerMigration(module, BigInt(from), (ctx) => {
        if (!hasStore(module)) return err(plain(`store ${module} is not mounted`));
        ctx.kv(module).set(migrationMarkerKey(from), markerValue(ctx.height));
        return ok(undefined);
      });
    }
  }
  return mm;
}

export function setUpgradeHandlers(keeper: UpgradeKeeper, def: BinaryDef, mm: ModuleManager): void {
  for (const [planName, u] of def.upgrades) {
    keeper.setUpgradeHandler(planName, (ctx, _plan, fromVM) => {
      switch (u.handler) {
        case "noop":
          return ok(fromVM);
        case "fail":
          return err(plain(u.failMessage ?? DEFAULT_FAIL_MESSAGE));
        case "migrate":
          return mm.runMigrations(ctx, fromVM);
      }
    });
  }
}

export function upgradeRouter(msgs: UpgradeMsgServer): MsgRouter {
  return {
    route: (ctx, msg) => {
      if (!msg.typeUrl.startsWith("/chain.upgrade.v1beta1.Msg")) return undefined;
      const r = msgs.route(ctx, msg.typeUrl, msg.value);
      return r.ok ? ok(undefined) : r;
    },
    inspect: (msg) => {
      if (!msg.typeUrl.startsWith("/chain.upgrade.v1beta1.Msg")) return undefined;
      const authority = decodeAuthority(msg.value);
      return authority.ok ? ok({ signers: [authority.value] }) : authority;
    },
  };
}

/** Both upgrade messages carry `authority` as field 1, so one decoder reads the signer of either. */
function decodeAuthority(value: Uint8Array): Result<string, ChainError> {
  try {
    return ok(decodeMessage(MsgSoftwareUpgradeSchema, value).authority);
  } catch (e) {
    return err(plain(`failed to decode upgrade message: ${e instanceof Error ? e.message : String(e)}`));
  }
}
