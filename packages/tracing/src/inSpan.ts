import { type Attributes, type Span, SpanStatusCode, trace } from '@opentelemetry/api';

// Until the API process registers an OpenTelemetry SDK (only when OTEL_EXPORTER_OTLP_ENDPOINT is
// set) this tracer is the API's no-op: a span costs a call and records nothing.
const tracer = trace.getTracer('tablelock');

/**
 * Runs `work` inside a span named `name`, the current span of everything it awaits (SQL
 * statements included), and ends the span when `work` settles. A failure marks the span as an
 * error and is rethrown unchanged. `work` may add attributes it learns on the way (an outcome).
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
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message: error instanceof Error ? error.message : String(error),
      });
      throw error;
    } finally {
      span.end();
    }
  });
}
