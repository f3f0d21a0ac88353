/** A V8 CPU profile (`.cpuprofile`), as the inspector's Profiler.stop returns it. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string } }[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileStep {
  step: string;
  /** Share of the process's busy time (idle left out), 0–1. */
  share: number;
}

const SOCKET_WRITES = /^(writev|writeBuffer|writeUtf8String|writeLatin1String|writeAsciiString)$/;
const PG_DRIVER =
  /^(pg|pg-protocol|pg-pool|pg-types|postgres-array|postgres-bytea|postgres-date|postgres-interval)$/;
const GRAPHQL =
  /^(@apollo\/.*|@as-integrations\/.*|@escape\.tech\/.*|@envelop\/.*|graphql|graphql-ws)$/;
const HTTP =
  /^(express|router|body-parser|raw-body|cookie-parser|cookie|content-type|parseurl|type-is|negotiator|accepts|on-finished|finalhandler|send|etag|fresh|qs|iconv-lite|media-typer|mime-types|whatwg-mimetype|stoppable|statuses|http-errors|bytes|unpipe|encodeurl|escape-html|vary|helmet|proxy-addr|forwarded|ipaddr\.js|path-to-regexp|content-disposition|debug|ms)$/;

/**
 * Where a process's time went, by step of a request: each sample's own function (self time)
 * is put in one step by the package or part of Node it belongs to.
 *
 * V8 takes its samples on a wall-clock timer, and a thread waiting for a core has its sample
 * taken when it runs again: on a machine whose cores are all busy, that is mostly on return
 * from a socket write, which woke the process that reads it (Postgres, a client) and gave it
 * the core. So "socket writes" holds that wait too: on the 2-core machine the writes' own
 * system calls took about 9 µs each (strace), a few percent of the API's CPU time, where this
 * step showed 30-47% of its samples. `perf record -e cpu-clock` counts CPU time only.
 */
export function profileSteps(profile: CpuProfile): ProfileStep[] {
  const stepOf = new Map(profile.nodes.map((node) => [node.id, stepOfFrame(node.callFrame)]));
  const time = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const step = stepOf.get(id);
    const delta = profile.timeDeltas[i] ?? 0;
    if (!step) return;
    busy += delta;
    time.set(step, (time.get(step) ?? 0) + delta);
  });
  return [...time]
    .map(([step, spent]) => ({ step, share: busy > 0 ? spent / busy : 0 }))
    .sort((a, b) => b.share - a.share);
}

function stepOfFrame({ functionName, url }: { functionName: string; url: string }): string | null {
  if (functionName === '(idle)') return null;
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (!url && SOCKET_WRITES.test(functionName))
    return 'socket writes (to Postgres and clients), and waiting for a core after them';
  const pkg = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg?.startsWith('@prisma/')) return 'Prisma Client';
  if (pkg && PG_DRIVER.test(pkg)) return 'pg driver';
  if (pkg && GRAPHQL.test(pkg)) return 'Apollo Server and graphql-js';
  if ((pkg && HTTP.test(pkg)) || /^node:(internal\/)?(_http|http|net)/.test(url)) {
    return 'HTTP: Node and Express';
  }
  if (url.includes('/apps/api/')) return "tablelock's own code";
  if (pkg) return 'other libraries (pino, prom-client, zod, …)';
  return 'Node internals (streams, events, timers, microtasks)';
}
