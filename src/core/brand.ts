/**
 * Branded scalar types. Heights, simulated times and durations are all plain numbers at run time; the brands stop
 * a height from being passed where a time is expected (and vice versa) at compile time.
 */
declare const brand: unique symbol;
export type Brand<T, B extends string> = T & { readonly [brand]: B };

/** A block height (≥ 0; 0 means "no block yet"). Safe integer. */
export type Height = Brand<number, "Height">;
/** Simulated wall time, milliseconds since the Unix epoch. Never read from the host clock in the core. */
export type UnixMs = Brand<number, "UnixMs">;
/** A span of simulated time in milliseconds. */
export type DurationMs = Brand<number, "DurationMs">;

export const height = (n: number): Height => n as Height;
export const unixMs = (n: number): UnixMs => n as UnixMs;
export const durationMs = (n: number): DurationMs => n as DurationMs;
