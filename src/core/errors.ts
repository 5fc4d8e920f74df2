/**
 * SDK-style errors as typed data. A registered error has a codespace, a code and a description; wrapping adds
 * messages. `errorText` renders the Go `err.Error()` string (`outer: inner: description`); `grpcMessage`
 * renders the gRPC status message (`codespace X code N: description: inner: outer`), as the reference does.
 */

export interface RegisteredError {
  readonly codespace: string;
  readonly code: number;
  readonly description: string;
}

/** A registered (SDK) error with zero or more wrap messages, innermost first. */
export interface SdkError {
  readonly kind: "sdk";
  readonly base: RegisteredError;
  /** Wrap messages, innermost first. */
  readonly wraps: readonly string[];
}

/** A plain (non-SDK) error: Go `errors.New` / `fmt.Errorf` without a registered cause. */
export interface PlainError {
  readonly kind: "plain";
  readonly message: string;
}

export type ChainError = SdkError | PlainError;

const register = (codespace: string, code: number, description: string): RegisteredError =>
  Object.freeze({ codespace, code, description });

/** Root SDK errors (codespace `sdk`) used by this project. */
export const SdkErrors = {
  ErrOutOfGas: register("sdk", 11, "out of gas"),
  ErrInsufficientFunds: register("sdk", 5, "insufficient funds"),
  ErrUnknownRequest: register("sdk", 6, "unknown request"),
  ErrInvalidAddress: register("sdk", 7, "invalid address"),
  ErrUnknownAddress: register("sdk", 9, "unknown address"),
  ErrInvalidCoins: register("sdk", 10, "invalid coins"),
  ErrUnauthorized: register("sdk", 4, "unauthorized"),
  ErrInvalidRequest: register("sdk", 18, "invalid request"),
  ErrInvalidHeight: register("sdk", 26, "invalid height"),
  ErrInvalidVersion: register("sdk", 27, "invalid version"),
  ErrInvalidType: register("sdk", 29, "invalid type"),
  ErrLogic: register("sdk", 35, "internal logic error"),
  ErrNotFound: register("sdk", 38, "not found"),
} as const;

export const wrap = (base: RegisteredError, message?: string): SdkError => ({
  kind: "sdk",
  base,
  wraps: message === undefined ? [] : [message],
});

/** Adds an outer wrap message to an error (Go `errors.Wrap(err, msg)`); a plain error becomes `msg: err`. */
export function wrapMore(err: ChainError, message: string): ChainError {
  if (err.kind === "plain") return plain(`${message}: ${err.message}`);
  return { ...err, wraps: [...err.wraps, message] };
}

export const plain = (message: string): PlainError => ({ kind: "plain", message });

/** Go `err.Error()`: outermost wrap first, the base description last. */
export function errorText(err: ChainError): string {
  if (err.kind === "plain") return err.message;
  return [...err.wraps].reverse().concat(err.base.description).join(": ");
}

/** gRPC status message: `codespace <cs> code <n>: <desc>: <inner>: ...: <outer>` (plain errors as they are). */
export function grpcMessage(err: ChainError): string {
  if (err.kind === "plain") return err.message;
  return [`codespace ${err.base.codespace} code ${err.base.code}: ${err.base.description}`, ...err.wraps].join(": ");
}

/** True when `err` has the given registered error as its base (Go `errors.Is`). */
export const isError = (err: ChainError, base: RegisteredError): boolean =>
  err.kind === "sdk" && err.base.codespace === base.codespace && err.base.code === base.code;

/** Expected outcomes are results, not exceptions. */
export type Result<T, E = ChainError> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: E };

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const err = <E>(error: E): Result<never, E> => ({ ok: false, error });
