import { type Attributes, type Span, SpanStatusCode, trace } from '@opentelemetry/api';

// Until the API process registers an OpenTelemetry SDK (only when OTEL_EXPORTER_OTLP_ENDPOINT is
// set) this tracer is the API's no-op: a span costs a call and records nothing.
const tracer = trace.getTracer('tablelock');

/**
 * Runs `work` inside a span named `name`, the current span of everything it awaits (SQL
 * statements included), and ends the span when `work` settles. A failure marks the span as an
 * error, by its code, and is rethrown unchanged. `work` may add attributes it learns on the way
 * (an outcome).
 */
export function inSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  return tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: failureCode(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * What failed, by code only (LOCK_LOST, a SQLSTATE, else the error's class): the messages
 * name fencing tokens, which the traces' readers must not learn.
 */
function failureCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.name : typeof error;
}
