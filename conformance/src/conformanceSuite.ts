import { afterAll, beforeAll, it } from 'vitest';
import { type ConformanceApi, startConformanceApi } from './conformanceApi';
import { playScenario } from './playScenario';
import { type RunnerCommand, type RunnerProcess, startRunner } from './runnerProcess';
import { loadScenarios, type Scenario } from './scenario';

/** Three capital letters for the `n`th play of a file: codes its rows are created with. */
function uniqueCode(n: number): string {
  const letter = (index: number) => String.fromCharCode(65 + (index % 26));
  return `Q${letter(Math.floor(n / 26))}${letter(n)}`;
}

/** Scenarios that fail the database over: they need a replicated one (see failover.test.ts). */
export const failsOver = (scenario: Scenario) => scenario.fault === 'db-failover';

/**
 * The kit's scenarios (those `playing` picks; by default all but those that fail the database
 * over) as tests, played with the client that `runner` starts (once, for them all) against a
 * compiled API on a database of their own (`replicated`: on a primary and two standbys).
 */
export function conformanceSuite(
  runner: () => Promise<RunnerCommand>,
  { playing = (scenario: Scenario) => !failsOver(scenario), replicated = false } = {},
): void {
  let api: ConformanceApi;
  let client: RunnerProcess;
  let plays = 0;
  beforeAll(async () => {
    const command = await runner();
    api = await startConformanceApi(`conformance-${command.name}`, { replicated });
    client = startRunner(command);
  });
  afterAll(async () => {
    await client?.stop();
    await api?.stop();
  });
  for (const scenario of loadScenarios().filter(playing)) {
    const fault = scenario.fault ? ` [${scenario.fault}]` : '';
    it(`${scenario.file}: ${scenario.name}${fault}`, () =>
      playScenario(scenario, client, api, uniqueCode(plays++)));
  }
}
