import { defineConfig } from "vitest/config";

// The devnet's own tests as a mutation detector (src/devnet/ante.ts): the in-process tests of the devnet's
// transaction path (decoding, the ante handler, the tx service), its chain, RPC and REST. Left out: the tests that
// spawn node processes or external clients (e2e, crash, cosmjs, buf curl, visor), which take minutes per mutant
// and reach the ante handler only through the same path.
export default defineConfig({
  test: {
    include: [
      "src/devnet/tx.test.ts",
      "src/devnet/tx-proto.test.ts",
      "src/devnet/strict-decode.test.ts",
      "src/devnet/chain.test.ts",
      "src/devnet/rest.test.ts",
      "src/devnet/rpc.test.ts",
    ],
    setupFiles: ["test/setup.ts"],
    testTimeout: 60_000,
  },
});
