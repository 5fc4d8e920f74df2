import type { RegisteredError } from "../core/errors.js";

/**
 * The x/upgrade module errors (codespace `upgrade`). Registered errors map to gRPC code Unknown, so their gRPC
 * message is `codespace upgrade code <n>: <description>[: <wraps>]` (see `grpcMessage`).
 */
const register = (code: number, description: string): RegisteredError =>
  Object.freeze({ codespace: "upgrade", code, description });

export const UpgradeErrors = {
  ErrNoModuleVersionFound: register(2, "module version not found"),
  ErrNoUpgradePlanFound: register(3, "upgrade plan not found"),
  ErrNoUpgradedClientFound: register(4, "upgraded client not found"),
  ErrNoUpgradedConsensusStateFound: register(5, "upgraded consensus state not found"),
  ErrInvalidSigner: register(6, "expected authority account as only signer for proposal message"),
} as const;
