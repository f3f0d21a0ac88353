import type { ConformanceApi } from './conformanceApi';
import { runHarnessStep } from './harnessSteps';
import { mismatch } from './matchExpected';
import type { RunnerAnswer, RunnerProcess } from './runnerProcess';
import { type Expectation, type Scenario, type Step, stepSchema } from './scenario';

/** How often an `until` step looks again. */
const UNTIL_INTERVAL_MS = 100;

type Saved = Record<string, unknown>;

/**
 * Plays `scenario` with the client behind `runner` against `api`, step by step: client steps go
 * to the runner, harness steps are done here (a `background` one beside the steps after it), and
 * every answer is checked against its expectation. Throws at the first step that departs from
 * it, naming the step. `unique` is three capital letters of this play alone (`${unique}`).
 */
export async function playScenario(
  scenario: Scenario,
  runner: RunnerProcess,
  api: ConformanceApi,
  unique: string,
): Promise<void> {
  await api.reset();
  const saved: Saved = { keys: api.keys, url: api.url, databaseUrl: api.database.url, unique };
  const background: Promise<void>[] = [];
  const play = (step: Step, name: string): Promise<void> =>
    playStep(step, saved, { runner, api, play }).catch((error: unknown) => {
      const why = error instanceof Error ? error.message : String(error);
      const stderr = runner.recentErrors().trim();
      throw new Error(
        `${scenario.file}, ${name}: ${why}${stderr ? `\n${runner.name} stderr:\n${stderr}` : ''}`,
      );
    });
  const played = (async () => {
    for (const [index, step] of scenario.steps.entries()) {
      const playing = play(step, `step ${index + 1}`);
      if ('harness' in step && step.background) {
        // Awaited below; until then its failure is not unhandled.
        playing.catch(() => {});
        background.push(playing);
      } else {
        await playing;
      }
    }
    await Promise.all(background);
  })();
  const outcome = await played.then(
    () => null,
    (error: unknown) => ({ error }),
  );
  await Promise.allSettled(background);
  // Whatever the scenario left open (a failed step's locks, a command) ends before the next.
  const reset = await runner.send('reset', {});
  if (outcome) throw outcome.error;
  if (!reset.ok) throw new Error(`${runner.name} could not reset: ${reset.error.message}`);
}

interface Players {
  runner: RunnerProcess;
  api: ConformanceApi;
  play(step: Step, name: string): Promise<void>;
}

async function playStep(step: Step, saved: Saved, players: Players): Promise<void> {
  // A sequence's steps are filled in as each is played: they may use what the ones before saved.
  const args = (
    'harness' in step && step.harness === 'sequence' ? step.args : substitute(step.args, saved)
  ) as Record<string, unknown>;
  const expect = substitute(step.expect, saved) as Expectation | undefined;
  const deadline = Date.now() + (step.until ?? 0) * 1000;
  for (;;) {
    const answer = await answerOf(step, args, players);
    const failure = judge(expect, answer);
    if (!failure) {
      if (step.save && answer.ok) saved[step.save] = answer.value;
      return;
    }
    if (Date.now() > deadline) {
      const what = 'op' in step ? step.op : `harness ${step.harness}`;
      throw new Error(`(${what}) ${failure}`);
    }
    await new Promise((resolve) => setTimeout(resolve, UNTIL_INTERVAL_MS));
  }
}

async function answerOf(
  step: Step,
  args: Record<string, unknown>,
  { runner, api, play }: Players,
): Promise<RunnerAnswer> {
  if ('op' in step) return runner.send(step.op, args);
  if (step.harness !== 'sequence') {
    // A look at a database just failed over may meet a connection to the old primary: an
    // answer like any other, which an `until` step tries again.
    return runHarnessStep(api, step.harness, args).catch((error: unknown) => ({
      ok: false as const,
      error: {
        code: 'HARNESS_ERROR',
        type: error instanceof Error ? error.name : typeof error,
        message: error instanceof Error ? error.message : String(error),
      },
    }));
  }
  // Steps one after the other, apart from the main line: e.g. wait until the client waits in
  // line, then free the table.
  const steps = stepSchema.array().parse(args.steps);
  for (const [index, inner] of steps.entries()) await play(inner, `sequence step ${index + 1}`);
  return { ok: true, value: null };
}

/** Why `answer` does not meet `expect` (a step without one must succeed); null when it does. */
function judge(expect: Expectation | undefined, answer: RunnerAnswer): string | null {
  if (expect?.error !== undefined) {
    if (answer.ok) return `expected ${expect.error}, got ${JSON.stringify(answer.value)}`;
    if (answer.error.code !== expect.error) {
      return `expected ${expect.error}, got ${answer.error.code}: ${answer.error.message}`;
    }
    return expect.extensions
      ? mismatch(expect.extensions, answer.error.extensions ?? {}, 'extensions')
      : null;
  }
  if (!answer.ok) return `failed with ${answer.error.code}: ${answer.error.message}`;
  return expect && 'value' in expect ? mismatch(expect.value, answer.value) : null;
}

/** `value` with every `${name.path}` replaced by what was saved under it. */
function substitute(value: unknown, saved: Saved): unknown {
  if (typeof value === 'string') {
    const whole = /^\$\{([^}]+)\}$/.exec(value);
    if (whole?.[1]) return lookUp(whole[1], saved);
    return value.replace(/\$\{([^}]+)\}/g, (_, path: string) => String(lookUp(path, saved)));
  }
  if (Array.isArray(value)) return value.map((item) => substitute(item, saved));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, substitute(item, saved)]),
    );
  }
  return value;
}

function lookUp(path: string, saved: Saved): unknown {
  let value: unknown = saved;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || !(part in value)) {
      throw new Error(`Nothing was saved as \${${path}}.`);
    }
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}
