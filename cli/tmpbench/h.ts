const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const wall = () => performance.now();
const marks: [string, number, number][] = [];
let c0 = cpu(), w0 = wall();
const mark = (n: string) => { const c = cpu(), w = wall(); marks.push([n, c - c0, w - w0]); c0 = c; w0 = w; };
async function run() {
  mark("before");
  await import("commander"); mark("commander");
  const { diskFs } = await import("../core/catalog-fs.ts");
  const { readTexts } = await import("../core/read-texts.ts");
  const raw = readTexts(diskFs, "catalog"); mark("read");
  const { z } = await import("zod"); z.config({ jitless: true }); mark("zod import");
  const { parseCatalog } = await import("../core/read-catalog.ts"); mark("yaml import");
  const { validateCatalog } = await import("../../src/domain/catalog/validate.ts"); mark("schemas+rules import");
  const read = parseCatalog(raw, "catalog"); mark("yaml parse");
  const r = validateCatalog(read.files, { root: "catalog" }); mark("validateCatalog");
  console.log(JSON.stringify(r).length > 0 ? "" : "x");
  mark("stringify");
  const u = process.cpuUsage(); marks.push(["TOTAL", (u.user + u.system) / 1000, performance.now()]);
  console.log(marks.map(([n, c, w]) => `${n} ${c.toFixed(1)}/${w.toFixed(1)}`).join("; "));
}
void run();
