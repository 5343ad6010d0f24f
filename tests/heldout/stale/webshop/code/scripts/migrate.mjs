#!/usr/bin/env node
// Applies SQL files from ../lumen-api/migrations in name order, each once.
import { readdir, readFile } from "node:fs/promises";
import pg from "pg";

const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
await client.connect();
await client.query("CREATE TABLE IF NOT EXISTS schema_migrations (name text primary key)");
const done = new Set((await client.query("SELECT name FROM schema_migrations")).rows.map((r) => r.name));
for (const name of (await readdir("../lumen-api/migrations")).sort()) {
  if (done.has(name)) continue;
  await client.query(await readFile(`../lumen-api/migrations/${name}`, "utf8"));
  await client.query("INSERT INTO schema_migrations (name) VALUES ($1)", [name]);
  console.log(`applied ${name}`);
}
await client.end();
