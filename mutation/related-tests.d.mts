// Types of mutation/related-tests.mjs (the unit detector's test files, computed from the import graph).

/** The unit suite's folders, as in mutation/vitest.units.config.ts's `include`. */
export declare const UNIT_TEST_FOLDERS: readonly string[];

/**
 * The unit test files related to the mutated files (`mutate`: paths, or Stryker's `path:start-end`), repository-
 * relative and sorted: those whose import closure holds a mutated file and that live in that file's layer.
 */
export declare function relatedTests(mutate: readonly string[], root?: string): string[];
