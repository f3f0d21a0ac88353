import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** The faults a scenario may inject (README, "Scenarios"). */
export const FAULTS = [
  'api-restart',
  'api-kill',
  'api-down',
  'connection-cut',
  'connection-refused',
  'lease-run-out',
  'force-release',
  'take-over',
  'signal',
  'db-failover',
] as const;

const expectation = z
  .object({
    value: z.unknown().optional(),
    error: z.string().optional(),
    extensions: z.record(z.string(), z.unknown()).optional(),
  })
  .strict()
  .refine((expect) => !(expect.error !== undefined && expect.value !== undefined), {
    message: 'a step expects a value or an error, not both',
  });

const clientStep = z
  .object({
    op: z.string(),
    args: z.record(z.string(), z.unknown()).default({}),
    expect: expectation.optional(),
    save: z.string().optional(),
    until: z.number().positive().optional(),
  })
  .strict();

const harnessStep = z
  .object({
    harness: z.string(),
    args: z.record(z.string(), z.unknown()).default({}),
    expect: expectation.optional(),
    save: z.string().optional(),
    until: z.number().positive().optional(),
    background: z.boolean().optional(),
  })
  .strict();

export const stepSchema = z.union([clientStep, harnessStep]);

const scenarioSchema = z
  .object({
    name: z.string().min(1),
    fault: z.enum(FAULTS).nullable(),
    steps: z.array(stepSchema).min(1),
  })
  .strict();

export type Expectation = z.infer<typeof expectation>;
export type ClientStep = z.infer<typeof clientStep>;
export type HarnessStep = z.infer<typeof harnessStep>;
export type Step = z.infer<typeof stepSchema>;
export type Scenario = z.infer<typeof scenarioSchema> & { file: string };

export const SCENARIO_DIR = new URL('../scenarios', import.meta.url).pathname;

/** Every scenario of the kit, by file name; a file that is not a valid scenario throws. */
export function loadScenarios(directory = SCENARIO_DIR): Scenario[] {
  return readdirSync(directory)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => {
      const parsed = scenarioSchema.safeParse(
        JSON.parse(readFileSync(join(directory, file), 'utf8')),
      );
      if (!parsed.success) throw new Error(`${file}: ${z.prettifyError(parsed.error)}`);
      return { ...parsed.data, file };
    });
}
