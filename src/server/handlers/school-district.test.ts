// The school district of spec 2.5 (catalog/accounts.yaml): the user info answer carries the
// district the user's e-mail is on, and only that one, so the checkout can send a free account
// to its student or staff page without the browser getting the list of districts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../contract/index.ts";
import { fixtureCatalog } from "../testing/fixture-catalog.ts";
import { startTestServer, type TestServer } from "../testing/harness.ts";

const district = {
  id: "river-district",
  emailDomains: ["river.example"],
  studentUrl: "https://www.river.example/video/students",
  staffUrl: "https://www.river.example/video/staff",
  studentPattern: "^s\\d+@river\\.example$",
};
const other = { ...district, id: "hill", emailDomains: ["hill.example"] };

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    catalog: { ...fixtureCatalog(), schoolDistricts: [district, other] },
  });
});
afterAll(async () => {
  await server.close();
});

async function infoOf(email: string) {
  const client = server.client();
  const signUp = await client.call(api.signUp, {
    body: { email, password: "secret-1", firstName: "Dana", lastName: "District" },
  });
  expect(signUp.ok).toBe(true);
  const info = await client.call(api.userInfo);
  if (!info.ok) throw new Error(info.body.message);
  return info.body;
}

describe("the user's school district", () => {
  it("is given to a user on a district's domain, without the other districts", async () => {
    const { id: _id, ...rule } = district;
    expect((await infoOf("teacher@river.example")).schoolDistricts).toEqual([rule]);
  });

  it("is empty for everyone else", async () => {
    expect((await infoOf("pat@example.com")).schoolDistricts).toEqual([]);
    expect((await infoOf("pat@notriver.example")).schoolDistricts).toEqual([]);
  });
});
