// Minimal types for autocannon 9 (the package ships none; @types/autocannon is not a dependency).
declare module "autocannon" {
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    headers?: Record<string, string>;
    /** Requests in turn per connection; `setupRequest` may rewrite each one before it is sent. */
    requests?: {
      path?: string;
      headers?: Record<string, string>;
      setupRequest?: (req: { path?: string; headers?: Record<string, string> }) => {
        path?: string;
        headers?: Record<string, string>;
      };
    }[];
  }
  interface Histogram {
    average: number;
    mean: number;
    p50: number;
    p99: number;
    max: number;
  }
  interface Result {
    requests: Histogram & { total: number };
    latency: Histogram;
    non2xx: number;
    errors: number;
    timeouts: number;
    "2xx": number;
  }
  function autocannon(opts: Options): Promise<Result>;
  export default autocannon;
}
