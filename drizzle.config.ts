import { defineConfig } from 'drizzle-kit';

// The TypeScript schema is the source of truth; `npm run db:generate` writes the migrations that
// are committed and applied at start on PGlite and on a Postgres server alike.
export default defineConfig({
  dialect: 'postgresql',
  schema: './db/schema/index.ts',
  out: './db/migrations',
});
