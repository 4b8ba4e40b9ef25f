import type { NextConfig } from 'next';

const config: NextConfig = {
  poweredByHeader: false,
  // The database drivers and ORM stay real node modules, shared with the server that boots them.
  serverExternalPackages: ['@electric-sql/pglite', 'postgres', 'drizzle-orm'],
  // `npm test` type-checks; the start-up build need not do it again.
  typescript: { ignoreBuildErrors: true },
};

export default config;
