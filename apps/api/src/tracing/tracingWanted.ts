/**
 * Whether this process exports traces: only when an OTLP endpoint is set (the one for every
 * signal or the one for traces) and OpenTelemetry's own off switch is not. Otherwise no
 * OpenTelemetry SDK or instrumentation is even loaded, and the domain's spans stay the API's
 * no-ops.
 */
export function tracingWanted(env: NodeJS.ProcessEnv): boolean {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  return Boolean(endpoint) && env.OTEL_SDK_DISABLED?.trim().toLowerCase() !== 'true';
}
