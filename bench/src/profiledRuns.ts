import { mkdir, writeFile } from 'node:fs/promises';
import type { ApiProfiler } from './apiProfiler';
import { type CpuProfile, profileSteps } from './profileSteps';

/** A process's CPU profiles of named parts of a bench run (none when the run does not profile). */
export interface ProfiledRuns {
  /** Runs `work`, profiling the process meanwhile when the run profiles. */
  profiled<T>(name: string, work: () => Promise<T>): Promise<T>;
  /** Writes each profile to `<resultsDir>/<name>.cpuprofile` and prints its shares by step. */
  write(resultsDir: string): Promise<void>;
}

/** `whose`: the process profiled, as the printed shares name it ("the API's"). */
export function profiledRuns(profiler: ApiProfiler | undefined, whose = "the API's"): ProfiledRuns {
  const profiles: { name: string; profile: CpuProfile }[] = [];
  return {
    async profiled(name, work) {
      if (!profiler) return work();
      await profiler.start();
      try {
        return await work();
      } finally {
        profiles.push({ name, profile: await profiler.stop() });
      }
    },
    async write(resultsDir) {
      if (profiles.length === 0) return;
      await mkdir(resultsDir, { recursive: true });
      for (const { name, profile } of profiles) {
        const path = `${resultsDir}/${name}.cpuprofile`;
        await writeFile(path, JSON.stringify(profile));
        console.log(`\n${whose} time during ${name}, by step (${path}):`);
        for (const { step, share } of profileSteps(profile)) {
          console.log(`  ${(share * 100).toFixed(1).padStart(5)}%  ${step}`);
        }
      }
    },
  };
}
