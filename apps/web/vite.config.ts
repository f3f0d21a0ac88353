import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// In dev mode the API runs on its own port; the browser talks to Vite only, so the session
// cookie and the same-origin rules behave as in production, where the API serves the app.
const apiOrigin = process.env.TABLELOCK_API_ORIGIN ?? 'http://127.0.0.1:4000';

export default defineConfig({
  plugins: [react()],
  server: {
    host: '127.0.0.1',
    port: 5173,
    // `ws`: the live updates' WebSocket goes to the same path. The Host header is kept, so the
    // API's same-origin check on the upgrade sees the page's own origin.
    proxy: { '/graphql': { target: apiOrigin, changeOrigin: false, ws: true } },
  },
  build: {
    // AG Grid alone is about 1 MB; it is split off (below) and loaded only by the table page.
    chunkSizeWarningLimit: 1100,
    rolldownOptions: {
      output: {
        // AG Grid is most of the bundle and changes only with its version: its own chunk stays
        // cached across app releases and loads only with the table page. React goes in a chunk
        // of its own first: the AG Grid group would otherwise take it in as a dependency, and
        // every page (the table page too, before its loaders start its reads) would wait for
        // the whole of AG Grid to be evaluated.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/,
              priority: 2,
            },
            { name: 'ag-grid', test: /node_modules[\\/].*ag-grid/, priority: 1 },
          ],
        },
      },
    },
  },
});
