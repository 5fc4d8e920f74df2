import type { Height, UnixMs } from "../core/brand.js";
import type { Ctx, Event, LogLevel, LogLine } from "../core/context.js";
import { CacheMulti } from "../store/mem-multistore.js";
import type { MultiStore } from "../store/types.js";

export interface Header {
  readonly chainId: string;
  readonly height: Height;
  readonly time: UnixMs;
  readonly appVersion: bigint;
}

/** A Ctx over a multistore, collecting events and logs into arrays owned by the caller. */
export class StoreCtx implements Ctx {
  readonly chainId: string;
  readonly height: Height;
  readonly time: UnixMs;
  readonly appVersion: bigint;
  readonly events: Event[] = [];
  readonly logs: LogLine[] = [];
  readonly #ms: MultiStore;

  constructor(ms: MultiStore, header: Header) {
    this.#ms = ms;
    this.chainId = header.chainId;
    this.height = header.height;
    this.time = header.time;
    this.appVersion = header.appVersion;
  }
  kv(storeName: string) {
    return this.#ms.getKVStore(storeName);
  }
  emit(event: Event): void {
    this.events.push(event);
  }
  log(level: LogLevel, module: string, message: string): void {
    this.logs.push({ level, module, message });
  }
  branch(): { readonly ctx: Ctx; write(): void } {
    const cache = new CacheMulti(this.#ms);
    const child = new StoreCtx(cache, this);
    return {
      ctx: child,
      write: () => {
        cache.write();
        this.events.push(...child.events);
        this.logs.push(...child.logs);
      },
    };
  }
}
