// Price experiments on two server processes sharing one PostgreSQL database (issue 36, decision
// 0089): the same visitor's exposure and checkout, asked of both servers at once, are recorded
// once, in the group the shares give. Needs a PostgreSQL server (DATABASE_URL).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../contract/index.ts";
import { groupFor } from "../domain/experiments/assignment.ts";
import { ExperimentEvents } from "./db/experiment-events.ts";
import { experimentCatalog, TEST_EXPERIMENT } from "./testing/fixture-catalog.ts";
import { TestClient } from "./testing/harness.ts";
import { postgresUrl, tellPostgresSkipped } from "./testing/postgres.ts";
import { startTwoServers, type TwoServers } from "./testing/two-servers.ts";

const url = postgresUrl();
if (!url) tellPostgresSkipped("price experiments on two servers");
const EXPERIMENT = TEST_EXPERIMENT;

describe.skipIf(!url)("price experiments on two servers", { timeout: 60_000 }, () => {
  let servers: TwoServers | undefined;

  beforeAll(async () => {
    servers = await startTwoServers(url ?? "", {
      PAYMENTS: "sandbox",
      FIXTURE_EXPERIMENT: "true",
    });
  }, 90_000);

  afterAll(() => servers?.stop());

  it("records each event once, whichever server is asked first", async () => {
    const { a, b, db } = servers as TwoServers;
    const experiment = experimentCatalog().experiments?.find((x) => x.id === EXPERIMENT);
    if (!experiment) throw new Error(`${EXPERIMENT} is not in the catalogue`);
    const vid = "7e1e0000-1c8e-4b57-9a0e-000000000001";
    const browsers = Array.from({ length: 12 }, (_, i) => {
      const client = new TestClient((i % 2 === 0 ? a : b).url);
      const headers = new Headers();
      headers.append("set-cookie", `vid=${vid}; Path=/`);
      client.remember(headers);
      return client;
    });
    const answers = await Promise.all(
      browsers.flatMap((client) => [
        client.call(api.experimentExposures, { body: { experiments: [EXPERIMENT] } }),
        client.call(api.orderSummary, { body: { targetProduct: "wv_bizindiv_1m" } }),
      ]),
    );
    expect(answers.every((answer) => answer.ok)).toBe(true);
    const events = await ExperimentEvents.ofVisitor(db, vid);
    const group = groupFor(experiment, vid);
    expect(events.map((e) => `${e.kind}:${e.group}`).sort()).toEqual([
      `checkout:${group}`,
      `exposure:${group}`,
    ]);
  });
});
