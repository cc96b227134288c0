// Validation answers that name the field (issue 22, item 6): a 400 invalid_request carries
// `fields`, one `{ path, message }` per field, in words a form can show beside that field; a
// state outside the list and a mistyped card number name their field too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, ErrorBody } from "../contract/index.ts";
import { startTestServer, type TestServer } from "./testing/harness.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: true });
});
afterAll(() => server.close());

async function post(path: string, body: unknown, client = server.client()) {
  const response = await client.fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: ErrorBody.parse(await response.json()) };
}

describe("invalid_request names each field", () => {
  it("an empty sign-up: every required field, in words, not the schema library's", async () => {
    const answer = await post(api.signUp.path, {});
    expect(answer.status).toBe(400);
    expect(answer.body.error_code).toBe("invalid_request");
    expect(answer.body.fields).toEqual([
      { path: "email", message: "This field is required." },
      { path: "password", message: "This field is required." },
      { path: "firstName", message: "This field is required." },
      { path: "lastName", message: "This field is required." },
    ]);
  });

  it("a wrong e-mail, a short password and an empty first name", async () => {
    const answer = await post(api.signUp.path, {
      email: "not-an-email",
      password: "abc",
      firstName: "",
      lastName: "",
    });
    expect(answer.status).toBe(400);
    expect(answer.body.fields).toEqual([
      { path: "email", message: "Enter an e-mail address such as name@example.com." },
      { path: "password", message: "Use at least 6 characters." },
      { path: "firstName", message: "This field is required." },
    ]);
    // The message stays what it was for clients that read only it.
    expect(answer.body.message).toMatch(/^The request is not valid: /);
  });

  it("a schema's own rule keeps its words; a nested path is joined with a dot", async () => {
    const client = await server.signedIn("free@demo.test");
    const answer = await post(api.address.path, { country: "United States" }, client);
    expect(answer.body.fields).toEqual([
      { path: "country", message: "Must be a two-letter country code." },
    ]);
  });

  it('a state typed as "California" is refused by name: choose one from the list', async () => {
    const client = await server.signedIn("free@demo.test");
    const answer = await post(api.address.path, { country: "US", state: "California" }, client);
    expect(answer.status).toBe(400);
    expect(answer.body.fields).toEqual([
      { path: "state", message: "Choose a US state from the list." },
    ]);
  });

  it("a body that is no object names no field", async () => {
    const answer = await post(api.signUp.path, [1, 2]);
    expect(answer.status).toBe(400);
    expect(answer.body.fields).toBeUndefined();
  });
});

describe("the sandbox's card form", () => {
  it("a mistyped number says the number is wrong, not declined", async () => {
    const client = await server.signedIn("free@demo.test");
    const card = { expMonth: 12, expYear: 2099, cvc: "123", postalCode: "10001" };
    const answer = await post(
      api.sandboxToken.path,
      { ...card, number: "4242424242424241" },
      client,
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error_code).toBe("invalid_card");
    expect(answer.body.fields).toEqual([
      { path: "number", message: "This card number is not valid: check the digits." },
    ]);
    expect(answer.body.message).not.toMatch(/declined/i);
    const expired = await post(
      api.sandboxToken.path,
      { ...card, expYear: 2001, number: "4242424242424242" },
      client,
    );
    expect(expired.body.fields).toEqual([
      { path: "expYear", message: "This card has expired: check the date, or use another card." },
    ]);
  });
});
