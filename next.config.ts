import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // PGlite ships a WebAssembly build of Postgres and pg has optional native bindings; the Temporal
  // client loads its gRPC stack and protobuf definitions dynamically; libpg-query loads the
  // PostgreSQL parser's WebAssembly next to it: all are loaded by Node at run time rather than bundled.
  serverExternalPackages: ['@electric-sql/pglite', 'pg', 'pg-boss', '@temporalio/client', '@temporalio/common', '@temporalio/proto', 'libpg-query'],
  poweredByHeader: false,
  // Migrations are read from disk at start; /docs serves the reference renderer's browser build from its package.
  outputFileTracingIncludes: {
    '/**': ['./supabase/migrations/*.sql'],
    '/docs/reference.js': ['./node_modules/@scalar/api-reference/dist/browser/standalone.js'],
  },
};

export default nextConfig;
