#!/usr/bin/env node
// npm bin shim for `catalog`. Node 24 (the project's pinned node, first on PATH under npx and npm
// scripts) runs the TypeScript entry directly. The compile cache is switched on here, before the
// first .ts file loads, so that a warm run skips loading the TypeScript stripper altogether.
import { enableCompileCache } from "node:module";

enableCompileCache();

await import("./main.ts");
