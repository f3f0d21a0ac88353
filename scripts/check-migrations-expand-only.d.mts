export interface ExpandOnlyViolation {
  file: string;
  line: number;
  change: string;
  object: string;
  uses: string[];
}
export declare function previousReleaseTag(root: string): string | undefined;
export declare function expandOnlyViolations(options: {
  root: string;
  previousTag: string;
  migrationsDir?: string;
}): ExpandOnlyViolation[];
