#!/usr/bin/env node
// One-off: copies legacy order totals into orders.total_cents in batches of 500.
import pg from "pg";

const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
await client.connect();
let moved = 0;
for (;;) {
  const { rowCount } = await client.query(
    "UPDATE orders SET total_cents = legacy_total * 100 WHERE id IN (SELECT id FROM orders WHERE total_cents IS NULL LIMIT 500)",
  );
  if (!rowCount) break;
  moved += rowCount;
}
console.log(`backfilled ${moved} orders`);
await client.end();
