import type { FaultDefinition } from "./hooks.js";

/**
 * A sidecar that never switches after a failed download (the shape of cosmos/cosmos-sdk#23947, cosmovisor looping
 * on the old binary): once cosmovisor's download has failed, the person who takes over installs the binary but the
 * launcher still starts the old one, so the node halts again at the same height while its operator's trace says it
 * restarted with the new binary.
 */
export const noSwitchAfterFailedDownload = {
  name: "no-switch-after-failed-download",
  breaks: "after a failed download the node restarts on its old binary although its operator installed the new one",
  hooks: {
    operatorLaunch: (_node, requested, running, afterDownloadFailure) => (afterDownloadFailure ? running : requested),
  },
  caughtBy: {
    scenarios: ["operator-failed-download-manual-fallback"],
  },
  replayFails: false,
} as const satisfies FaultDefinition;
