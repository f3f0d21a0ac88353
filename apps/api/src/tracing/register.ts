// The tracing bootstrap: `node --import ./dist/tracing/register.js dist/main.js` (as `npm start`
// runs the app). It must run before the app's modules load, since the instrumentations patch
// http, express, graphql and pg as they are imported.
import { tracingWanted } from './tracingWanted';

if (tracingWanted(process.env)) {
  const { startTracing } = await import('./startTracing');
  await startTracing();
}
