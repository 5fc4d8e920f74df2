import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { SwaggerAssets, SwaggerUiFile } from "../api/gateway/swagger.js";

/**
 * The Swagger UI files read from the installed swagger-ui-dist package (resolved from this module, so the pre-built
 * CLI finds it too), each read once on first request and kept.
 */
export function swaggerUiAssets(): SwaggerAssets {
  const cache = new Map<SwaggerUiFile, string | undefined>();
  let dir: string | undefined;
  return (file) => {
    if (!cache.has(file)) {
      try {
        dir ??= dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
        cache.set(file, readFileSync(join(dir, file), "utf8"));
      } catch {
        cache.set(file, undefined);
      }
    }
    return cache.get(file);
  };
}
