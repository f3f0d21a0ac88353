export declare const NO_BROWSER: string;
export declare const NO_PGBOUNCER: string;
export declare function findSystemChromium(): string | undefined;
export declare function findPgBouncer(): string | undefined;
