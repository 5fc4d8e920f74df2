// Types of mutation/related-tests.mjs (the unit detector's test files, computed from the import graph).

/**
 * The unit test files related to the mutated files (`mutate`: paths, or Stryker's `path:start-end`), repository-
 * relative and sorted: those whose import closure holds a mutated file and that live in that file's layer.
 */
export declare function relatedTests(mutate: readonly string[], root?: string): string[];

/** The unit detector's test files for MUTATE_FILES (comma-separated; undefined: the detector's files); throws if none. */
export declare function unitDetectorTests(mutateFiles: string | undefined, root?: string): string[];
