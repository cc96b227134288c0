// `npm run api:routes`: writes src/api/contract/routes.ts from the contract (render-routes.ts).
import { writeFileSync } from "node:fs";
import { api, ERROR_CODES } from "../src/api/contract/index.ts";
import { renderRoutes } from "../src/api/contract/render-routes.ts";

const target = new URL("../src/api/contract/routes.ts", import.meta.url);
writeFileSync(target, renderRoutes(api, ERROR_CODES));
console.log(`wrote ${target.pathname}`);
