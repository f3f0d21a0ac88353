// The floor plan, checked on every `pnpm lint` (and so in `npm test`): which code may import
// which. See docs/architecture.md. Paths are the files' real paths: a workspace package
// imported as `@tablelock/x` resolves through its pnpm symlink to packages/x/src.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'packages-never-import-apps',
      comment:
        'Packages are libraries the apps are built from. An import the other way makes a ' +
        'package depend on one app and pulls HTTP or React into code every app shares.',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    {
      name: 'api-context-depends-on-ports',
      comment:
        'context.ts is what every resolver, route and plugin of the API sees. It names the ' +
        'services by the small interfaces in apps/api/src/ports/, never by the folders that ' +
        'implement them, so no import runs from it back up into the rooms that use it.',
      severity: 'error',
      from: { path: '^apps/api/src/context\\.ts$' },
      to: { path: '^apps/api/src/', pathNot: '^apps/api/src/ports/' },
    },
    {
      name: 'api-ports-import-no-api-code',
      comment:
        'ports/ holds the interfaces context.ts names: it imports nothing of the API but other ' +
        'ports, so depending on it pulls in no implementation.',
      severity: 'error',
      from: { path: '^apps/api/src/ports/' },
      to: { path: '^apps/api/src/', pathNot: '^apps/api/src/ports/' },
    },
    {
      name: 'api-context-and-ports-import-types-only',
      comment:
        'context.ts and ports/ describe the services; they run nothing. A value import would ' +
        'load code (a database client, a server) wherever the context is named.',
      severity: 'error',
      from: { path: ['^apps/api/src/context\\.ts$', '^apps/api/src/ports/'] },
      to: { dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'web-imports-no-workspace-package',
      comment:
        'The browser app talks to the server only over GraphQL; its types come from the SDL ' +
        'files (GraphQL Code Generator), not from server code. A workspace package in the ' +
        'bundle would ship Prisma, pg or node: modules to the browser.',
      severity: 'error',
      from: { path: '^apps/web/' },
      // Resolved to its sources, or as written when it is not even a dependency of the app.
      to: { path: ['^(packages|apps/api|bench|e2e)/', '^@tablelock/'] },
    },
    {
      name: 'web-folders-no-cycle',
      comment:
        'A folder of the web app is a feature or a layer. When two folders import each other, ' +
        'neither can be read or moved on its own: what both need belongs in the lower one.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^apps/web/src/' },
      to: { circular: true },
    },
    {
      name: 'web-pages-import-no-other-page',
      comment:
        'The table page, the admin pages and the layout each stand on the shared folders ' +
        '(tables, session, queue, live, api, ui, i18n); one page using a part of another ' +
        'ties them together. Move the part down into a shared folder.',
      severity: 'error',
      from: { path: '^apps/web/src/(admin|layout|table)/' },
      to: { path: '^apps/web/src/(admin|layout|table)/', pathNot: '^apps/web/src/$1/' },
    },
    {
      name: 'client-imports-no-workspace-package',
      comment:
        'The client is published for other systems and talks to the API over GraphQL only; its ' +
        'types come from the SDL files. A workspace package in it would ship server code ' +
        '(Prisma, pg) to every batch job and tie it to this repository.',
      severity: 'error',
      from: { path: '^packages/client/src/' },
      to: { path: ['^(packages/(?!client/)|apps/|bench/|e2e/)', '^@tablelock/'] },
    },
    {
      name: 'lock-domain-has-no-http',
      comment:
        'The lock domain is called by the API, the CLI, the sweeper, the bench and tests ' +
        'alike: no web framework, GraphQL server, socket, HTTP module or UI library in it.',
      severity: 'error',
      from: { path: '^packages/lock/' },
      to: {
        path: [
          // Resolved (node_modules/...) or, when not a dependency of the package, as written.
          '(^|node_modules/)(express|@apollo|@as-integrations|graphql-ws|ws|graphql|react|react-dom)(/|$)',
          '^(node:)?(http|https|http2)$',
        ],
      },
    },
    {
      name: 'lock-core-is-pure',
      comment:
        'The lock core (state machine, planner, refusals, edit blocks, lease arithmetic, ' +
        'invariants) decides on the rows it is given: no Prisma, no pg, no SQL, no I/O. It ' +
        'imports only core/ and @tablelock/errors, so every rule is tested without a database.',
      severity: 'error',
      from: { path: '^packages/lock/src/core/' },
      to: { pathNot: ['^packages/lock/src/core/', '^packages/errors/'] },
    },
    {
      name: 'change-request-core-is-pure',
      comment:
        "The change request's state machine (who may approve, what each step leads to) decides " +
        'on the values it is given: it imports only its own core/ and @tablelock/errors.',
      severity: 'error',
      from: { path: '^packages/master-data/src/changeRequests/core/' },
      to: { pathNot: ['^packages/master-data/src/changeRequests/core/', '^packages/errors/'] },
    },
    {
      name: 'no-circular',
      comment:
        'An import cycle means neither module can be understood, tested or loaded first on ' +
        'its own. Move what both need into a module of its own.',
      severity: 'error',
      from: { path: '^(apps|packages)/' },
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to nothing would let the rules above pass unseen.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Third-party packages and generated code (Prisma Client, GraphQL types) are seen as
    // dependencies, so the rules apply to them, but not cruised inside. Workspace packages
    // resolve to their sources (packages/*/src) and are cruised.
    doNotFollow: { path: ['(^|/)node_modules/', '(^|/)generated/'] },
    // Build output: the apps' bundles and tsc -b's declaration files.
    exclude: { path: '(^|/)(dist|\\.tsbuild)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
      extensions: ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '.d.ts'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
