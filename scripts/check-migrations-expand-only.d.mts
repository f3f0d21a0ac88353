export interface ExpandOnlyViolation {
  file: string;
  line: number;
  change: string;
  object: string;
  uses: string[];
}
/** A release as releases.json records it. */
export interface Release {
  version: string;
  commit: string;
  date: string;
}
export declare function previousRelease(root: string): Release | undefined;
export declare function expandOnlyViolations(options: {
  root: string;
  previous: Release;
  migrationsDir?: string;
}): ExpandOnlyViolation[];
